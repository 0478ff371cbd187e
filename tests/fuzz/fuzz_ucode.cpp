// libFuzzer target for the shader microcode library. The first byte picks the input kind:
//   bit 0: 1 = vertex shader, 0 = pixel shader
//   bit 1: 1 = the rest is assembler text, 0 = binary (compiler container or raw microcode)
// Binary input goes through Decode -> Disassemble -> Analyze, and a successful decode must
// survive Assemble(Disassemble(x)) == x bit for bit (a mismatch traps). Text goes through the
// assembler and, when it assembles, through the same pipeline. xnt::Error is the only accepted
// failure.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

namespace {

using namespace xnt::ucode;

void Pipeline(const std::vector<uint32_t>& words, ShaderType type, const ContainerFile* container) {
  Shader shader;
  try {
    shader = Decode(words, type);
  } catch (const xnt::Error&) {
    return;
  }
  DisassembleOptions options;
  options.container = container;
  const std::string text = Disassemble(shader, options);
  // A vertex fetch bound to a semantic carries a runtime-patched placeholder constant (0 or 95,
  // see disasm.cpp) that the listing does not show; the assembler writes 95.
  std::vector<uint32_t> expected = words;
  if (container) {
    for (const auto& b : container->vertex_fetches) {
      const Instruction* ins = nullptr;
      for (const auto& s : shader.slots) {
        if (s.slot == b.slot) ins = &s;
      }
      if (!ins || ins->kind != SlotKind::kFetch || !ins->fetch.IsVertex() ||
          ins->fetch.is_mini_fetch || ins->fetch.const_index_sel == 3 ||
          ins->fetch.VertexFetchConstant() != 0) {
        continue;
      }
      FetchInstruction f = ins->fetch;
      f.const_index = 31;
      f.const_index_sel = 2;
      const auto raw = EncodeFetch(f);
      for (uint32_t k = 0; k < 3; ++k) expected[3 * b.slot + k] = raw[k];
    }
  }
  if (Assemble(text) != expected) __builtin_trap();  // lossless round trip violated
  try {
    (void)Analyze(shader);
  } catch (const xnt::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 64 * 1024) return 0;
  const uint8_t mode = data[0];
  const ShaderType type = (mode & 1) ? ShaderType::kVertex : ShaderType::kPixel;
  std::span<const uint8_t> rest(data + 1, size - 1);
  try {
    if (mode & 2) {
      const std::string_view text(reinterpret_cast<const char*>(rest.data()), rest.size());
      const AssembledShader s = AssembleShader(text, type);
      Pipeline(s.microcode, s.type, nullptr);
    } else if (IsContainer(rest)) {
      const ContainerFile c = LoadContainer(rest);
      Pipeline(c.microcode, c.type, &c);
    } else {
      const std::vector<uint32_t> words = LoadMicrocodeBE(rest.first(rest.size() & ~size_t(3)));
      Pipeline(words, type, nullptr);
    }
  } catch (const xnt::Error&) {
  }
  return 0;
}
