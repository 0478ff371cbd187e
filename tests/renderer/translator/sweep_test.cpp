// Robustness: random (but decodable) microcode — every vector/scalar opcode, export destination,
// operand form, predication and fetch form in random combinations, plus random control flow —
// must translate to GLSL that compiles and passes the SPIR-V validator. Also the cache.
#include <cstdio>
#include <random>

#include "xnt/base/error.h"

#include "translate_util.h"

namespace xnt::vk::test {
namespace {

using ucode::AluInstruction;
using ucode::CfInstruction;
using ucode::CfOpcode;
using ucode::FetchInstruction;

AluInstruction RandomAlu(std::mt19937& rng, ucode::ShaderType type) {
  auto bits = [&](uint32_t n) { return uint32_t(rng()) & ((1u << n) - 1); };
  AluInstruction a;
  do {
    a.vector_op = ucode::VectorOp(bits(5));
  } while (!ucode::IsValidVectorOp(uint32_t(a.vector_op)));
  do {
    a.scalar_op = ucode::ScalarOp(bits(6));
  } while (!ucode::IsValidScalarOp(uint32_t(a.scalar_op)));
  a.export_data = bits(3) == 0;
  if (a.export_data) {
    static const uint32_t kVs[] = {0, 5, 15, 62, 63, 32, 33, 37};
    static const uint32_t kPs[] = {0, 1, 3, 61, 32, 34};
    a.vector_dest = type == ucode::ShaderType::kVertex ? kVs[bits(3)] : kPs[bits(8) % 6];
    a.scalar_dest = 0;
  } else {
    a.vector_dest = bits(6);
    a.scalar_dest = bits(6);
    a.vector_dest_rel = bits(3) == 0;
  }
  a.scalar_dest_rel = bits(2) == 0;
  a.vector_write_mask = bits(4);
  a.scalar_write_mask = bits(4);
  a.vector_clamp = bits(1);
  a.scalar_clamp = bits(1);
  a.abs_constants = bits(1);
  a.is_predicated = bits(2) == 0;
  a.predicate_condition = bits(1);
  a.const_address_register_relative = bits(1);
  a.const_0_rel = bits(3) == 0;
  a.const_1_rel = bits(3) == 0;
  for (auto& s : a.src) {
    s.is_temp = bits(1);
    s.reg = bits(8);
    s.swizzle = bits(8);
    s.negate = bits(1);
  }
  return a;
}

FetchInstruction RandomFetch(std::mt19937& rng) {
  auto bits = [&](uint32_t n) { return uint32_t(rng()) & ((1u << n) - 1); };
  static const ucode::FetchOp kOps[] = {
      ucode::FetchOp::kVertexFetch,          ucode::FetchOp::kTextureFetch,
      ucode::FetchOp::kGetTextureBorderColorFrac, ucode::FetchOp::kGetTextureComputedLod,
      ucode::FetchOp::kGetTextureGradients,  ucode::FetchOp::kGetTextureWeights,
      ucode::FetchOp::kSetTextureLod,        ucode::FetchOp::kSetTextureGradientsHorz,
      ucode::FetchOp::kSetTextureGradientsVert};
  static const uint32_t kFormats[] = {0, 6, 7, 16, 17, 25, 26, 31, 32, 33, 34, 35, 36, 37, 38, 57};
  FetchInstruction f;
  f.opcode = kOps[bits(8) % 9];
  f.src_reg = bits(6);
  f.src_rel = bits(2) == 0;
  f.dst_reg = bits(6);
  f.dst_rel = bits(2) == 0;
  f.dst_swizzle = bits(12);
  f.const_index = bits(5);
  f.is_predicated = bits(2) == 0;
  f.predicate_condition = bits(1);
  if (f.opcode == ucode::FetchOp::kVertexFetch) {
    f.src_swizzle = bits(2);
    f.const_index_sel = bits(2);  // 3 included: constant 31 * 3 + 3 = 96 must not break
    f.is_signed = bits(1);
    f.is_integer = bits(1);
    f.signed_rf_mode = bits(1);
    f.is_index_rounded = bits(1);
    f.format = kFormats[bits(4)];
    f.exp_adjust = int32_t(bits(6)) - 32;
    f.is_mini_fetch = bits(2) == 0;
    f.stride = bits(8);
    f.offset = int32_t(bits(10)) - 512;
  } else {
    f.src_swizzle = bits(6);
    f.tx_coord_denorm = bits(1);
    f.use_reg_lod = bits(2) == 0;
    f.use_reg_gradients = bits(2) == 0;
    f.lod_bias = int32_t(bits(7)) - 64;
    f.dimension = ucode::TextureDimension(bits(2));
    f.offset_x = int32_t(bits(5)) - 16;
    f.offset_y = int32_t(bits(5)) - 16;
  }
  return f;
}

// cf: exec(3) ; random CF ; exec(3) ; random CF ; exece(3). Slots follow the CF program.
std::vector<uint32_t> RandomShader(std::mt19937& rng, ucode::ShaderType type) {
  auto bits = [&](uint32_t n) { return uint32_t(rng()) & ((1u << n) - 1); };
  std::vector<CfInstruction> cf(6);
  const uint32_t cf_slots = 3;  // 6 CF instructions = 3 slots
  uint32_t next_slot = cf_slots;
  std::vector<std::array<uint32_t, 3>> slots;
  for (uint32_t i : {0u, 2u, 4u}) {
    CfInstruction& c = cf[i];
    static const CfOpcode kExecs[] = {CfOpcode::kExec, CfOpcode::kCondExec,
                                      CfOpcode::kCondExecPred, CfOpcode::kCondExecPredClean};
    c.opcode = i == 4 ? CfOpcode::kExecEnd : kExecs[bits(2)];
    c.address = next_slot;
    c.count = 3;
    c.bool_address = bits(8);
    c.condition = bits(1);
    c.predicate_clean = true;
    for (uint32_t k = 0; k < 3; ++k) {
      bool fetch = bits(2) == 0;
      if (fetch) {
        c.sequence |= 1u << (2 * k);
        FetchInstruction f = RandomFetch(rng);
        if (f.IsVertex()) c.vc |= 1u << k;
        slots.push_back(ucode::EncodeFetch(f));
      } else {
        slots.push_back(ucode::EncodeAlu(RandomAlu(rng, type)));
      }
    }
    next_slot += 3;
  }
  for (uint32_t i : {1u, 3u}) {
    CfInstruction& c = cf[i];
    switch (bits(3)) {
      case 0: c.opcode = CfOpcode::kCondJmp; c.address = 4; break;  // forward only
      case 1: c.opcode = CfOpcode::kCondCall; c.address = 4; break;
      case 2: c.opcode = CfOpcode::kAlloc; c.alloc_type = ucode::AllocType(bits(2)); break;
      case 3: c.opcode = CfOpcode::kMarkVsFetchDone; break;
      default: c.opcode = CfOpcode::kNop; break;
    }
    c.is_unconditional = bits(1);
    c.is_predicated = !c.is_unconditional && bits(1);
    c.bool_address = bits(8);
    c.condition = bits(1);
  }
  std::vector<uint32_t> dwords = ucode::PackCf(cf);
  for (const auto& s : slots) dwords.insert(dwords.end(), s.begin(), s.end());
  return dwords;
}

TEST(TranslatorSweepTest, RandomDecodableShadersCompileAndValidate) {
  std::mt19937 rng(20261122);
  int translated = 0, rejected = 0;
  for (int i = 0; i < 32; ++i) {
    ucode::ShaderType type = i % 2 ? ucode::ShaderType::kPixel : ucode::ShaderType::kVertex;
    std::vector<uint32_t> dwords = RandomShader(rng, type);
    ucode::Shader shader;
    ucode::Analysis analysis;
    try {
      shader = ucode::Decode(dwords, type);
      analysis = ucode::Analyze(shader);
    } catch (const xnt::Error&) {
      ++rejected;  // the decoder/analysis refusing is fine; the translator never sees it
      continue;
    }
    SCOPED_TRACE("shader " + std::to_string(i));
    TranslatedShader t;
    ASSERT_NO_THROW(t = Translate(shader, analysis, {})) << TranslateToGlsl(shader, analysis, {}, nullptr);
    EXPECT_EQ(ValidateSpirv(t.spirv), "");
    ++translated;
  }
  // Most random programs must get through, or the sweep tests nothing.
  std::printf("sweep: %d translated, %d rejected by decode/analysis\n", translated, rejected);
  EXPECT_GT(translated, 24) << rejected << " rejected by decode/analysis";
}

TEST(TranslatorCacheTest, SameMicrocodeAndOptionsHit) {
  ucode::ShaderType type = ucode::ShaderType::kPixel;
  std::vector<uint32_t> a = ucode::Assemble("xps_3_0\n    alloc colors\n    exece\n    mov oC0, c0\n", &type);
  std::vector<uint32_t> b = ucode::Assemble("xps_3_0\n    alloc colors\n    exece\n    mov oC0, c1\n", &type);
  ucode::Shader sa = ucode::Decode(a, type), sb = ucode::Decode(b, type);
  ucode::Analysis aa = ucode::Analyze(sa), ab = ucode::Analyze(sb);
  ShaderTranslator cache;
  auto t1 = cache.Get(sa, aa, {});
  auto t2 = cache.Get(sa, aa, {});
  EXPECT_EQ(t1.get(), t2.get());
  TranslationOptions other;
  other.ps_interpolator_count = 2;
  auto t3 = cache.Get(sa, aa, other);
  auto t4 = cache.Get(sb, ab, {});
  EXPECT_NE(t1.get(), t3.get());
  EXPECT_NE(t1.get(), t4.get());
  EXPECT_NE(t1->glsl, t4->glsl);
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 3u);
  EXPECT_EQ(t1->ucode_hash, HashMicrocode(a));
}

}  // namespace
}  // namespace xnt::vk::test
