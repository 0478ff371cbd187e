// The batched pixel-shader interpreter against the scalar one: every lane's exports, bit for bit,
// over random microcode (every ALU op, predication, kills, loops, calls, jumps; vertex fetches
// over a hashed guest memory), the real compiler-built pixel shaders of the corpus, and
// hand-written shaders whose lanes take different predicates, kills and vertex elements. Lane inputs mix ordinary values with the ones the rules treat
// specially (+-0, denormals, infinities, NaN).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "random_microcode.h"
#include "test_util.h"
#include "xnt/base/error.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/batch_interpreter.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/interpreter.h"
#include "prerequisite.h"

namespace xnt::ucode {
namespace {

constexpr uint32_t N = BatchInterpreter::kLanes;

float RandomFloat(std::mt19937& g) {
  static const float kSpecial[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-40f, -1e-40f,
                                   std::numeric_limits<float>::infinity(),
                                   -std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::quiet_NaN(), 3.0f, 255.0f};
  switch (g() % 4) {
    case 0: return kSpecial[g() % std::size(kSpecial)];
    case 1: return std::bit_cast<float>(uint32_t(g()));
    default: return float(int32_t(g() % 2001) - 1000) / 64.0f;
  }
}

// A texture callback that depends only on its arguments, so both interpreters see the same texels.
InterpreterCallbacks HashTextures() {
  InterpreterCallbacks cb;
  cb.texture_fetch = [](uint32_t slot, const Float4& c, const FetchInstruction& f) {
    Float4 r;
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t h = std::bit_cast<uint32_t>(c[i]) * 2654435761u + slot * 97u + i + uint32_t(f.opcode);
      r[i] = float(h >> 8) / float(1u << 24);
    }
    return r;
  };
  // Guest memory for vertex fetches: a word that depends only on its address.
  cb.read_memory = [](uint32_t address, uint32_t& word) {
    word = address * 2654435761u ^ (address >> 7);
    return (address & 0x3F000000u) != 0x3F000000u;  // a region that reads nothing
  };
  return cb;
}

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

struct Counts {
  uint64_t batches = 0, diverged = 0, lanes_compared = 0, killed = 0;
};

// Runs `shader` on `count` lanes both ways and compares every lane; false on a mismatch.
void CompareBatch(const Shader& shader, const InterpreterConstants& k, std::mt19937& g,
                  uint32_t interpolators, int param_gen, uint32_t count, Counts& counts) {
  BatchInterpreter batch(shader);
  ASSERT_TRUE(batch.unsupported().empty()) << batch.unsupported();
  const InterpreterCallbacks cb = HashTextures();
  BatchInterpreter::Inputs in;
  in.count = count;
  in.interpolator_count = interpolators;
  in.param_gen_register = param_gen;
  std::vector<ShaderInputs> scalar_in(count);
  for (uint32_t l = 0; l < count; ++l) {
    ShaderInputs& s = scalar_in[l];
    s.interpolator_count = interpolators;
    for (uint32_t i = 0; i < interpolators; ++i) {
      for (uint32_t c = 0; c < 4; ++c) {
        s.interpolators[i][c] = RandomFloat(g);
        in.interpolators[i][c][l] = s.interpolators[i][c];
      }
    }
    s.param_gen_register = param_gen;
    for (uint32_t c = 0; c < 4; ++c) {
      s.param_gen[c] = RandomFloat(g);
      in.param_gen[c][l] = s.param_gen[c];
    }
  }
  BatchInterpreter::Result out;
  ++counts.batches;
  if (!batch.Run(k, in, cb, out)) {
    ++counts.diverged;
    return;
  }
  const Interpreter scalar(shader);
  for (uint32_t l = 0; l < count; ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    const ShaderResult r = scalar.Run(k, scalar_in[l], cb);
    ASSERT_EQ(out.killed[l] != 0, r.killed);
    ++counts.lanes_compared;
    if (r.killed) {
      ++counts.killed;
      continue;
    }
    // Runaway control flow is cut off at the same step in both (it is the same for every lane).
    ASSERT_EQ(out.step_limit_hit, r.step_limit_hit);
    ASSERT_EQ(out.color_mask[l], r.color_mask);
    for (uint32_t t = 0; t < 4; ++t) {
      if (!(r.color_mask & (1u << t))) continue;
      for (uint32_t c = 0; c < 4; ++c) {
        ASSERT_EQ(Bits(out.colors[l][t][c]), Bits(r.colors[t][c])) << "oC" << t << "." << c;
      }
    }
    ASSERT_EQ(out.depth_written[l] != 0, r.depth_written);
    if (r.depth_written) {
      ASSERT_EQ(Bits(out.depth[l]), Bits(r.depth));
    }
  }
}

InterpreterConstants RandomConstants(std::mt19937& g) {
  InterpreterConstants k;
  for (auto& c : k.float_constants) {
    for (float& f : c) f = RandomFloat(g);
  }
  for (uint32_t& b : k.bool_constants) b = uint32_t(g());
  // Small loop counts so random loops finish well inside the step limit.
  for (uint32_t& l : k.loop_constants) l = (uint32_t(g()) & 0xFFFF00u) | (g() % 4);
  for (uint32_t& f : k.fetch_constants) f = uint32_t(g());
  return k;
}

// Random pixel microcode with vertex fetches (full and mini, every format, random fetch
// constants over a hashed guest memory): the batch fetches per lane as the scalar interpreter.
TEST(BatchInterpreter, RandomMicrocodeWithVertexFetchesMatchesTheScalarInterpreterPerLane) {
  std::mt19937 g(20261202);
  Counts counts;
  int shaders = 0, with_vfetch = 0;
  for (int iter = 0; iter < 3000 && shaders < 1200; ++iter) {
    Shader shader;
    try {
      shader = Decode(test::RandomMicrocode(g, true), ShaderType::kPixel);
    } catch (const Error&) {
      continue;
    }
    if (BatchInterpreter(shader).unsupported() == "memexport (eA/eM#)") continue;
    ++shaders;
    for (const Instruction& i : shader.slots) {
      if (i.kind == SlotKind::kFetch && i.fetch.IsVertex()) {
        ++with_vfetch;
        break;
      }
    }
    const InterpreterConstants k = RandomConstants(g);
    CompareBatch(shader, k, g, 1 + g() % 8, int(g() % 12) - 2, 1 + g() % N, counts);
    if (HasFatalFailure()) return;
  }
  std::printf("random with vfetch: %d shaders (%d with a vertex fetch), %llu lanes compared\n",
              shaders, with_vfetch, (unsigned long long)counts.lanes_compared);
  EXPECT_GT(with_vfetch, 80);
  EXPECT_GT(counts.lanes_compared, 5000u);
}

TEST(BatchInterpreter, RandomMicrocodeMatchesTheScalarInterpreterPerLane) {
  std::mt19937 g(20261125);
  Counts counts;
  int shaders = 0;
  for (int iter = 0; iter < 3000 && shaders < 1200; ++iter) {
    Shader shader;
    try {
      shader = Decode(test::RandomMicrocode(g, false), ShaderType::kPixel);
    } catch (const Error&) {
      continue;
    }
    // Memexport shaders go to the scalar interpreter (the batch refuses them).
    if (BatchInterpreter(shader).unsupported() == "memexport (eA/eM#)") continue;
    ++shaders;
    const InterpreterConstants k = RandomConstants(g);
    CompareBatch(shader, k, g, 1 + g() % 8, int(g() % 12) - 2, 1 + g() % N, counts);
    if (HasFatalFailure()) return;
  }
  std::printf("random: %d shaders, %llu batches (%llu diverged), %llu lanes compared, %llu killed\n",
              shaders, (unsigned long long)counts.batches, (unsigned long long)counts.diverged,
              (unsigned long long)counts.lanes_compared, (unsigned long long)counts.killed);
  EXPECT_GT(shaders, 500);
  EXPECT_GT(counts.lanes_compared, 10000u);
  EXPECT_GT(counts.killed, 100u);  // kills in some lanes and not others were exercised
  EXPECT_LT(counts.diverged, counts.batches / 2);
}

TEST(BatchInterpreter, CorpusPixelShadersMatchTheScalarInterpreterPerLane) {
  const auto names = test::CorpusShaders();
  if (names.empty()) XNT_MISSING_PREREQUISITE() << "corpus not found under " << test::CorpusDir();
  std::mt19937 g(7);
  Counts counts;
  int pixel_shaders = 0;
  for (const auto& name : names) {
    const ContainerFile c = LoadContainer(test::ReadBytes(test::CorpusDir() / name / "container.bin"));
    if (c.type != ShaderType::kPixel) continue;
    SCOPED_TRACE(name);
    ++pixel_shaders;
    const Shader shader = Decode(c.microcode, c.type);
    for (int rep = 0; rep < 20; ++rep) {
      const InterpreterConstants k = RandomConstants(g);
      CompareBatch(shader, k, g, 8, -1, N, counts);
      if (HasFatalFailure()) return;
    }
  }
  ASSERT_GT(pixel_shaders, 0);
  EXPECT_EQ(counts.diverged, 0u);  // compiled shaders branch on constants here
  EXPECT_EQ(counts.lanes_compared, uint64_t(pixel_shaders) * 20 * N);
}

// One interpreter over batches whose constants change in place (an instruction keeps its constant
// operands broadcast into the lanes between batches, and must follow their values, modifiers and
// swizzle included): every lane of each batch exports what that batch's constants give, by hand.
TEST(BatchInterpreter, ConstantOperandsFollowEachBatchsConstants) {
  const Shader shader = Decode(Assemble(R"(xps_3_0
    exec
    mul r1, r0, c_abs[1]
    alloc colors
    exece
    add oC0, r1, -c0.wzyx
)", nullptr, ShaderType::kPixel), ShaderType::kPixel);
  BatchInterpreter batch(shader);
  ASSERT_TRUE(batch.unsupported().empty());
  BatchInterpreter::Inputs in;
  in.count = N;
  in.interpolator_count = 1;
  const float r0[4] = {0.5f, 0.25f, 2.0f, 8.0f};
  for (uint32_t c = 0; c < 4; ++c) in.interpolators[0][c].fill(r0[c]);
  struct Step {
    Float4 c0, c1, want;
  };
  const Step steps[] = {
      // r1 = r0 * |c1| = (1, 1, 1, 8); oC0 = r1 - c0.wzyx = r1 - (4, 3, 2, 1).
      {{1, 2, 3, 4}, {-2, 4, -0.5f, 1}, {-3, -2, -1, 7}},
      // r1 = (1.5, 0.25, 4, 2); oC0 = r1 - (8, 7, 6, 5).
      {{5, 6, 7, 8}, {3, -1, 2, -0.25f}, {-6.5f, -6.75f, -2, -3}},
      // The first constants again.
      {{1, 2, 3, 4}, {-2, 4, -0.5f, 1}, {-3, -2, -1, 7}},
  };
  InterpreterConstants k;
  BatchInterpreter::Result out;
  for (const Step& step : steps) {
    k.float_constants[0] = step.c0;
    k.float_constants[1] = step.c1;
    ASSERT_TRUE(batch.Run(k, in, {}, out));
    for (uint32_t l = 0; l < N; ++l) {
      for (uint32_t c = 0; c < 4; ++c) {
        ASSERT_EQ(out.colors[l][0][c], step.want[c]) << "lane " << l << " component " << c;
      }
    }
  }
}

// Lanes that disagree on p0: a `(p0) exec` and predicated ALU ops run per lane, a kill removes
// some lanes, and the rest export values worked out by hand.
TEST(BatchInterpreter, PerLanePredicatesAndKillsByHand) {
  const Shader shader = Decode(Assemble(R"(xps_3_0
    exec
    setp_gt r2.x, r0.x
    (p0) add r1, r0.yyyy, c0.xxxx
    (!p0) mul r1, r0.yyyy, c0.yyyy
    kill_eq r3, r0.zzzz, c0.xxxx
    alloc colors
    exece
    mov oC0, r1
)", nullptr, ShaderType::kPixel), ShaderType::kPixel);
  InterpreterConstants k;
  k.float_constants[0] = {1.0f, 10.0f, 0.0f, 0.0f};
  BatchInterpreter batch(shader);
  ASSERT_TRUE(batch.unsupported().empty());
  BatchInterpreter::Inputs in;
  in.count = 4;
  in.interpolator_count = 1;
  // Lane: x (p0 = x > 0), y, z (killed when z == 1).
  const float lanes[4][3] = {{1, 2, 0}, {-1, 2, 0}, {5, 3, 1}, {0, 4, 0}};
  for (uint32_t l = 0; l < 4; ++l) {
    for (uint32_t c = 0; c < 3; ++c) in.interpolators[0][c][l] = lanes[l][c];
  }
  BatchInterpreter::Result out;
  ASSERT_TRUE(batch.Run(k, in, {}, out));
  EXPECT_EQ(out.killed[0], 0);
  EXPECT_EQ(out.killed[1], 0);
  EXPECT_EQ(out.killed[2], 1);
  EXPECT_EQ(out.killed[3], 0);
  EXPECT_EQ(out.colors[0][0][0], 3.0f);   // p0: 2 + 1
  EXPECT_EQ(out.colors[1][0][0], 20.0f);  // !p0: 2 * 10
  EXPECT_EQ(out.colors[3][0][0], 40.0f);  // 0 > 0 is false: 4 * 10
  EXPECT_EQ(out.color_mask[0], 1);
}

// Vertex fetches in a pixel shader, per lane, by hand: fetch constant 94 (vf1) holds a buffer of
// float4 elements at dword 0x100 (byte 0x400), 8in32; element e is (e, 10 e, 100 e, 1). Each lane
// fetches element floor(r0.x) with a full fetch and its .zw again with a mini fetch at offset 2,
// so each lane keeps its own address for the mini fetch. Lane 3's index 7 is past the buffer's
// end (the constant's size is 16 dwords: elements 0..3): its four dwords read 0.
TEST(BatchInterpreter, VertexFetchPerLaneByHand) {
  const Shader shader = Decode(Assemble(R"(xps_3_0
    exec
    vfetch_full r1, r0.x, vf1, DataFormat=FMT_32_32_32_32_FLOAT, Stride=4
    vfetch_mini r2.xy__, r0.x, vf1, Offset=2, DataFormat=FMT_32_32_FLOAT
    alloc colors
    exece
    mov oC0, r1
    mov oC1, r2
)", nullptr, ShaderType::kPixel), ShaderType::kPixel);
  InterpreterConstants k;
  // Dword 0: base address (bytes) | type 3 (vertex); dword 1: endian 2 (8in32) | size << 2.
  k.fetch_constants[94 * 2] = 0x400u | 3u;
  k.fetch_constants[94 * 2 + 1] = 2u | (16u << 2);
  InterpreterCallbacks cb;
  cb.read_memory = [](uint32_t address, uint32_t& word) {
    if (address < 0x400 || address >= 0x400 + 64) return false;
    const uint32_t element = (address - 0x400) / 16, component = (address - 0x400) / 4 % 4;
    const float v[4] = {float(element), 10.0f * element, 100.0f * element, 1.0f};
    const uint32_t bits = std::bit_cast<uint32_t>(v[component]);
    word = (bits >> 24) | ((bits >> 8) & 0xFF00u) | ((bits << 8) & 0xFF0000u) | (bits << 24);
    return true;
  };
  BatchInterpreter batch(shader);
  ASSERT_TRUE(batch.unsupported().empty()) << batch.unsupported();
  BatchInterpreter::Inputs in;
  in.count = 4;
  in.interpolator_count = 1;
  const float index[4] = {0.0f, 2.5f, 3.0f, 7.0f};
  for (uint32_t l = 0; l < 4; ++l) in.interpolators[0][0][l] = index[l];
  BatchInterpreter::Result out;
  ASSERT_TRUE(batch.Run(k, in, cb, out));
  const float want[4][4] = {{0, 0, 0, 1}, {2, 20, 200, 1}, {3, 30, 300, 1}, {0, 0, 0, 0}};
  const Interpreter scalar(shader);
  for (uint32_t l = 0; l < 4; ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(out.colors[l][0][c], want[l][c]);
    EXPECT_EQ(out.colors[l][1][0], want[l][2]);  // the mini fetch: .zw of the same element
    EXPECT_EQ(out.colors[l][1][1], want[l][3]);
    ShaderInputs one;
    one.interpolator_count = 1;
    one.interpolators[0][0] = index[l];
    const ShaderResult r = scalar.Run(k, one, cb);
    for (uint32_t t = 0; t < 2; ++t) {
      for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(Bits(out.colors[l][t][c]), Bits(r.colors[t][c]));
    }
  }
}

}  // namespace
}  // namespace xnt::ucode

// Run starts every batch from Result::Reset() in place of a fresh Result{}: a result with every
// field written must come back to exactly the default value (a field added to Result and not to
// Reset would carry one batch's values into the next).
TEST(BatchInterpreterResult, ResetGivesTheDefaultValue) {
  using R = xnt::ucode::BatchInterpreter::Result;
  R r;
  for (auto& lane : r.colors) {
    for (auto& c : lane) c = {1.0f, -2.0f, 3.5f, 0.25f};
  }
  r.color_mask.fill(0xF);
  r.depth.fill(0.5f);
  r.depth_written.fill(1);
  r.killed.fill(1);
  r.step_limit_hit = true;
  r.notes = {"a note"};
  r.Reset();
  const R fresh{};
  EXPECT_EQ(r.colors, fresh.colors);
  EXPECT_EQ(r.color_mask, fresh.color_mask);
  EXPECT_EQ(r.depth, fresh.depth);
  EXPECT_EQ(r.depth_written, fresh.depth_written);
  EXPECT_EQ(r.killed, fresh.killed);
  EXPECT_EQ(r.step_limit_hit, fresh.step_limit_hit);
  EXPECT_EQ(r.notes, fresh.notes);
  // Every byte of the arrays, the way a stale value would show.
  EXPECT_EQ(std::memcmp(r.colors.data(), fresh.colors.data(), sizeof(r.colors)), 0);
}
