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

// fxc's trailers after the code: `// PDB hint` with the program's 3-word tail, then for a
// container with a debug-information block (header word 3) the `// Debugger Hint:` lines
// (timestamp and .updb path, container.h DebuggerHint), all read back by the container
// assembler. A block of another layout is printed as `// DebugInfo` lines of eight big-endian
// words in hex after a comment saying so.
std::string TrailerLines(const ContainerFile& c);
inline constexpr const char* kDebugInfoPrefix = "// DebugInfo ";
inline constexpr const char* kPdbHintPrefix = "// PDB hint ";
inline constexpr const char* kDebuggerHintLine = "// Debugger Hint:";
inline constexpr const char* kTimestampPrefix = "//  Timestamp: ";
inline constexpr const char* kPathPrefix = "//  Path: ";

// Names as the listing prints them.
std::string ParameterTypeName(uint32_t type);    // float, sampler2d, ...
std::string ParameterClassName(uint32_t cls);    // scalar, vector, matrix_columns, ...
char RegisterSetLetter(uint32_t set);            // b i c s
std::string VsExportModeName(uint32_t mode);     // multipass, or the number

}  // namespace xnt::ucode
