// libFuzzer target for the listing parser: the assembler (instructions, labels, options) and the
// container assembler (`defconst`, `config`, `dcl_`, `def`/`defi` lines). The first byte picks
// the default shader type (bit 0: vertex). Text either assembles or is refused with xnt::Error;
// a container it writes must load back with the same microcode and literal count, and the
// microcode must survive disassembly and reassembly bit for bit. A mismatch traps.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xnt::ucode;
  if (size < 1 || size > 64 * 1024) return 0;
  const ShaderType type = (data[0] & 1) ? ShaderType::kVertex : ShaderType::kPixel;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  AssembledShader a;
  try {
    a = AssembleShader(text, type);
  } catch (const xnt::Error&) {
    return 0;
  }
  Shader shader;
  try {
    shader = Decode(a.microcode, a.type);
  } catch (const xnt::Error&) {
    return 0;  // text can describe microcode the decoder refuses (e.g. bad slot layouts)
  }
  if (Assemble(Disassemble(shader)) != a.microcode) __builtin_trap();
  std::vector<uint8_t> blob;
  try {
    blob = AssembleContainer(text, type);
  } catch (const xnt::Error&) {
    return 0;
  }
  ContainerFile c;
  try {
    c = LoadContainer(blob);
  } catch (const xnt::Error&) {
    __builtin_trap();  // the container assembler wrote something its loader refuses
  }
  if (c.microcode != a.microcode || c.literals.size() != a.literals.size() || c.type != a.type) {
    __builtin_trap();
  }
  return 0;
}
