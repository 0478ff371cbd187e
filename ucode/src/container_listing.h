// The declaration part of an XDK listing, printed from a shader container: `defconst` (one line
// per constant, struct members as `name.member`; `defextern const` and one line per array
// element for builds before 2.0.21256), `config`, the `// Vs.../Ps...` comments, `dcl_` lines
// and `def` / `defi` literals; and fxc's parameter comment block.
#pragma once

#include <string>

#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

std::string ContainerDeclarations(const ContainerFile& c, const Shader& shader);
// fxc's comment block from the constant table: `// Parameters:` (HLSL declarations, structs over
// several lines) and `// Registers:` (name, first register, size of what got registers).
std::string ParameterComments(const ContainerFile& c);

// The container's debug-information block (header word 3) as the listing's last lines: a comment
// saying what is not known, then `// DebugInfo` lines of eight big-endian words in hex, which the
// container assembler reads back. fxc prints the block as `// PDB hint` and `// Debugger Hint:`
// trailers, but which bytes hold what it prints there is not public, so the words are printed as
// they are. Empty when the container has no block.
std::string DebugInfoLines(const ContainerFile& c);
inline constexpr const char* kDebugInfoPrefix = "// DebugInfo ";

// Names as the listing prints them.
std::string ParameterTypeName(uint32_t type);    // float, sampler2d, ...
std::string ParameterClassName(uint32_t cls);    // scalar, vector, matrix_columns, ...
char RegisterSetLetter(uint32_t set);            // b i c s
std::string VsExportModeName(uint32_t mode);     // multipass, or the number

}  // namespace xnt::ucode
