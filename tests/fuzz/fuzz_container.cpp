// libFuzzer target for the shader container parser (ucode/ container.h). Any input either
// loads or is refused with xnt::Error; a loaded container must lay out again to the same bytes
// (WriteContainer keeps every region), load again to the same declarations, and print its
// declarations and listing without failing (a decode error of the microcode is the only
// accepted failure after loading). A mismatch traps.
#include <cstddef>
#include <cstdint>
#include <span>

#include "xnt/base/error.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xnt::ucode;
  if (size > 256 * 1024) return 0;
  const std::span<const uint8_t> bytes(data, size);
  ContainerFile c;
  try {
    c = LoadContainer(bytes);
  } catch (const xnt::Error&) {
    return 0;
  }
  const std::vector<uint8_t> again = WriteContainer(c);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) __builtin_trap();
  ContainerFile d;
  try {
    d = LoadContainer(again);
  } catch (const xnt::Error&) {
    __builtin_trap();  // what loaded once must load again
  }
  if (d.constants.size() != c.constants.size() || d.literals.size() != c.literals.size() ||
      d.interpolators.size() != c.interpolators.size() || d.microcode != c.microcode) {
    __builtin_trap();
  }
  try {
    (void)Disassemble(c);
  } catch (const xnt::Error&) {
  }
  return 0;
}
