// Disassembler producing the XDK shader compiler's listing syntax (as in fxc /Fh `#if 0`
// blocks): execs grouping their instructions, `+` co-issued scalar lines, `alloc`, `vfetch` /
// `tfetch2D`, swizzles collapsed the XDK way. Anything the XDK syntax cannot express (reserved
// bits, unusual layouts) is printed as extra `Name=value` options so Assemble() reproduces the
// microcode bit for bit.
#pragma once

#include <string>

#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::ucode {

struct DisassembleOptions {
  // Print the `xvs_3_0` / `xps_3_0` line (and, with a container, defconst/config/dcl/def lines).
  bool header = true;
  // Optional container: names vfetch semantics, prints declarations and literal constants.
  const ContainerFile* container = nullptr;
  // Append "// slot N" comments (not XDK output; off by default).
  bool slot_comments = false;
  // With a container: precede the listing with fxc's comment block built from the constant table
  // ("// Parameters:", "// Registers:", "// Shader type:"), as in fxc /Fh output. fxc's command
  // line is not in the container and is not reproduced. With or without this, a container's
  // listing ends with fxc's `// PDB hint` and, for a build with debug information, its
  // `// Debugger Hint:` trailer (container_listing.h TrailerLines).
  bool compiler_comments = false;
};

std::string Disassemble(const Shader& shader, const DisassembleOptions& options = {});
// Decodes the container's microcode and disassembles it with its declarations.
std::string Disassemble(const ContainerFile& container, bool header = true);

}  // namespace xnt::ucode
