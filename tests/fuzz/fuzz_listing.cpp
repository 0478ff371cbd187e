// libFuzzer target for the listing parser: the assembler (instructions, labels, options) and the
// container assembler (`defconst`, `config`, `dcl_`, `def`/`defi` lines). The first byte picks
// the default shader type (bit 0: vertex). Text either assembles or is refused with xnt::Error;
// a container it writes must load back with the same microcode and literal count, the
// microcode must survive disassembly and reassembly bit for bit, and the container's listing
// must assemble to the container's bytes. A mismatch traps.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

namespace {

// One stage of the round trip; nullopt where it refused the input with xnt::Error.
template <class Stage>
auto UnlessRefused(Stage&& stage) -> std::optional<decltype(stage())> {
  try {
    return stage();
  } catch (const xnt::Error&) {
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xnt::ucode;
  if (size < 1 || size > 64 * 1024) return 0;
  const ShaderType type = (data[0] & 1) ? ShaderType::kVertex : ShaderType::kPixel;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto a = UnlessRefused([&] { return AssembleShader(text, type); });
  if (!a) return 0;
  // Text can describe microcode the decoder refuses (e.g. bad slot layouts).
  const auto shader = UnlessRefused([&] { return Decode(a->microcode, a->type); });
  if (!shader) return 0;
  if (Assemble(Disassemble(*shader)) != a->microcode) __builtin_trap();
  const auto blob = UnlessRefused([&] { return AssembleContainer(text, type); });
  if (!blob) return 0;
  // The container assembler wrote something its loader refuses.
  const auto c = UnlessRefused([&] { return LoadContainer(*blob); });
  if (!c) __builtin_trap();
  if (c->microcode != a->microcode || c->literals.size() != a->literals.size() ||
      c->type != a->type) {
    __builtin_trap();
  }
  // And back: the container's own listing (creator heading, constant table in the form its
  // build prints) assembles to the same bytes.
  const auto listing = UnlessRefused([&] { return Disassemble(*c); });
  if (!listing) return 0;  // microcode the decoder refuses after all
  const auto again = UnlessRefused([&] { return AssembleContainer(*listing, type); });
  if (!again || *again != *blob) __builtin_trap();
  return 0;
}
