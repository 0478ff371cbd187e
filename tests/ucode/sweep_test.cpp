// Generated sweeps: random and exhaustive field combinations for every CF, ALU and fetch form are
// encoded, disassembled and assembled again; the bits must come back identical.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>

#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"

namespace xnt::ucode {
namespace {

class Rng {
 public:
  explicit Rng(uint32_t seed) : g_(seed) {}
  uint32_t U32() { return g_(); }
  uint32_t Below(uint32_t n) { return g_() % n; }
  bool Coin(uint32_t one_in = 2) { return Below(one_in) == 0; }

 private:
  std::mt19937 g_;
};

constexpr uint32_t kFetchOps[] = {0, 1, 16, 17, 18, 19, 24, 25, 26};

std::array<uint32_t, 3> RandomAlu(Rng& r) {
  std::array<uint32_t, 3> raw = {r.U32(), r.U32(), r.U32()};
  uint32_t sop;
  do {
    sop = r.Below(kScalarOpCount);
  } while (!IsValidScalarOp(sop));
  // Bias towards the common "no scalar op" and plain forms so those paths are covered too.
  if (r.Coin(3)) sop = uint32_t(ScalarOp::kRetainPrev);
  raw[0] = (raw[0] & 0x03FFFFFFu) | (sop << 26);
  raw[2] = (raw[2] & ~(0x1Fu << 24)) | (r.Below(kVectorOpCount) << 24);
  if (r.Coin(4)) raw[0] &= ~0x8000u;  // non-export
  if (r.Coin(4)) {                    // default-looking unused operands
    raw[1] &= 0xFFFFFF00u;
    raw[2] = (raw[2] & 0xFFFFFF00u) | (1u << 29);
    raw[1] &= ~(1u << 24);
  }
  return raw;
}

std::array<uint32_t, 3> RandomFetch(Rng& r) {
  std::array<uint32_t, 3> raw = {r.U32(), r.U32(), r.U32()};
  raw[0] = (raw[0] & ~0x1Fu) | kFetchOps[r.Below(9)];
  return raw;
}

uint64_t RandomCfBits(Rng& r, CfOpcode op) {
  uint64_t bits = (uint64_t(r.U32()) | (uint64_t(r.U32()) << 32)) & ((uint64_t(1) << 44) - 1);
  if (r.Coin(3)) bits &= 0x3FFFFFFFull;  // sparse
  return bits | (uint64_t(op) << 44);
}

// Builds random microcode: n CF instructions, execs laid out in a shuffled order, extra
// unreferenced slots.
std::vector<uint32_t> RandomShader(Rng& r) {
  const uint32_t ncf = 2 * (1 + r.Below(5));
  std::vector<CfInstruction> cf(ncf);
  std::vector<uint32_t> exec_index;
  for (uint32_t i = 0; i < ncf; ++i) {
    const CfOpcode op = CfOpcode(r.Below(16));
    cf[i] = DecodeCf(RandomCfBits(r, op));
    if (op == CfOpcode::kLoopStart || op == CfOpcode::kLoopEnd || op == CfOpcode::kCondCall ||
        op == CfOpcode::kCondJmp) {
      cf[i].address = r.Below(ncf);
    }
    if (IsExec(op)) {
      cf[i].count = r.Below(7);
      if (cf[i].count) exec_index.push_back(i);
    }
  }
  // Lay the exec blocks out in a random order after the CF area.
  std::vector<uint32_t> order(exec_index.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(r.U32()));
  // The first instruction slot must follow the CF area directly (the decoder finds the end of the
  // control flow from the lowest exec address); later blocks may leave unreferenced gaps.
  uint32_t next = ncf / 2;
  std::vector<std::array<uint32_t, 3>> slots;
  for (uint32_t o : order) {
    if (next > ncf / 2 && r.Coin(4)) {
      slots.push_back(RandomFetch(r));  // gap: unreferenced slot
      ++next;
    }
    CfInstruction& c = cf[exec_index[o]];
    c.address = next;
    uint32_t seq = c.sequence & ~0x555u;
    for (uint32_t k = 0; k < c.count; ++k) {
      const bool fetch = r.Coin();
      if (fetch) seq |= 1u << (2 * k);
      slots.push_back(fetch ? RandomFetch(r) : RandomAlu(r));
    }
    c.sequence = seq;
    next += c.count;
  }
  // Trailing unreferenced slots; without any exec they would read as more control flow.
  if (!exec_index.empty()) {
    for (uint32_t extra = r.Below(3); extra > 0; --extra) slots.push_back(RandomAlu(r));
  }
  std::vector<uint32_t> words = PackCf(cf);
  for (const auto& s : slots) words.insert(words.end(), s.begin(), s.end());
  return words;
}

std::string FirstDifference(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.size() != b.size()) {
    return "sizes differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) {
      char buf[96];
      std::snprintf(buf, sizeof(buf), "dword %zu: 0x%08x vs 0x%08x (xor 0x%08x)", i, a[i], b[i],
                    a[i] ^ b[i]);
      return buf;
    }
  }
  return "identical";
}

// The disassembly of `shader` (decoded from `words`) assembles back to `words` bit for bit.
::testing::AssertionResult TextRoundTrip(const Shader& shader,
                                         const std::vector<uint32_t>& words) {
  const std::string text = Disassemble(shader);
  const auto back = Assemble(text);
  if (back == words) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << FirstDifference(back, words) << "\n" << text;
}

// The listing assembles (a refusal is a failure too) and gives `words` back.
::testing::AssertionResult ListingRoundTrip(const std::string& text, const std::vector<uint32_t>& words) {
  std::vector<uint32_t> back;
  try {
    back = Assemble(text);
  } catch (const Error& e) {
    return ::testing::AssertionFailure() << e.what() << "\n" << text;
  }
  if (back == words) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << FirstDifference(back, words) << "\n" << text;
}

// A one-clause program: the exec (its CF pair) and then the one instruction it runs.
std::vector<uint32_t> ExecOf(const CfInstruction& exec, const std::array<uint32_t, 3>& slot) {
  std::vector<uint32_t> words = PackCf(std::vector<CfInstruction>{exec});
  words.insert(words.end(), slot.begin(), slot.end());
  return words;
}

TEST(UcodeSweep, RandomShadersRoundTripBitExact) {
  Rng r(12345);
  int decoded = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const ShaderType type = r.Coin() ? ShaderType::kVertex : ShaderType::kPixel;
    const std::vector<uint32_t> words = RandomShader(r);
    Shader s;
    try {
      s = Decode(words, type);
    } catch (const Error& e) {
      ADD_FAILURE() << "iteration " << iter << ": " << e.what();
      continue;
    }
    ++decoded;
    ASSERT_TRUE(ListingRoundTrip(Disassemble(s), words)) << "iteration " << iter;
    try {
      (void)Analyze(s);  // may reject random control flow, must not crash
    } catch (const Error&) {
    }
  }
  EXPECT_EQ(decoded, 3000);
}

// Random pixel shaders in a container that declares a centroid-sampled input at a random
// register and names a random compiler build: the registers fxc leaves in halves that do nothing
// (syntax.h UnusedRegister), the write-0 flag's build rule and the nop vector half are all
// decided from those declarations, so the listing must carry enough to give the same words back.
// A third of the ALU slots are rewritten into the forms those rules decide.
TEST(UcodeSweep, RandomShadersInAContainerRoundTripBitExact) {
  Rng r(2119);
  const char* builds[] = {"2.0.20675.0", "2.0.21119.0", "2.0.21256.0"};
  for (int iter = 0; iter < 2000; ++iter) {
    ContainerFile c;
    c.type = ShaderType::kPixel;
    c.creator = builds[r.Below(3)];
    const uint32_t centroid = 1 + r.Below(15);
    InterpolatorDecl texcoord, color;
    texcoord.semantic = {5, 0};
    color.semantic = {10, 0};
    color.reg = centroid;
    color.centroid = true;
    c.interpolators = {texcoord, color};
    std::vector<uint32_t> words = RandomShader(r);
    Shader s = Decode(words, ShaderType::kPixel);
    for (const Instruction& ins : s.slots) {
      if (ins.kind != SlotKind::kAlu || !r.Coin(3)) continue;
      AluInstruction a = ins.alu;
      if (r.Coin()) {
        a.scalar_op = ScalarOp::kRetainPrev;  // no scalar op: fxc leaves the centroid input
        a.scalar_write_mask = 0;
        a.scalar_dest = r.Coin() ? centroid : a.scalar_dest;
      } else {
        a.vector_op = VectorOp::kMax;  // a lone scalar op: max of the input (or r0) writing nothing
        a.vector_write_mask = 0;
        const uint32_t reg = r.Coin() ? centroid : 0;
        a.vector_dest = reg;
        for (int i = 0; i < 2; ++i) a.src[i] = AluSource{.is_temp = true, .reg = reg, .swizzle = 0, .negate = false};
      }
      const auto raw = EncodeAlu(a);
      std::copy(raw.begin(), raw.end(), words.begin() + 3 * ins.slot);
    }
    s = Decode(words, ShaderType::kPixel);
    DisassembleOptions o;
    o.container = &c;
    ASSERT_TRUE(ListingRoundTrip(Disassemble(s, o), words)) << "iteration " << iter;
  }
}

// Every vector x scalar opcode pair, exported and not, predicated and not.
TEST(UcodeSweep, EveryAluOpcodePair) {
  Rng r(7);
  for (uint32_t v = 0; v < kVectorOpCount; ++v) {
    for (uint32_t s = 0; s < kScalarOpCount; ++s) {
      if (!IsValidScalarOp(s)) continue;
      for (int variant = 0; variant < 4; ++variant) {
        std::array<uint32_t, 3> raw = RandomAlu(r);
        raw[0] = (raw[0] & 0x03FFFFFFu) | (s << 26);
        raw[2] = (raw[2] & ~(0x1Fu << 24)) | (v << 24);
        if (variant & 1) raw[0] ^= 0x8000u;
        if (variant & 2) raw[1] ^= 1u << 28;
        CfInstruction exec;
        exec.opcode = CfOpcode::kExecEnd;
        exec.address = 1;
        exec.count = 1;
        exec.predicate_clean = true;
        const std::vector<uint32_t> words = ExecOf(exec, raw);
        for (ShaderType type : {ShaderType::kVertex, ShaderType::kPixel}) {
          const Shader shader = Decode(words, type);
          ASSERT_EQ(shader.slots[0].kind, SlotKind::kAlu);
          EXPECT_EQ(EncodeAlu(shader.slots[0].alu), raw);
          ASSERT_TRUE(TextRoundTrip(shader, words));
        }
      }
    }
  }
}

// Every fetch opcode x texture dimension x filter value.
TEST(UcodeSweep, EveryFetchForm) {
  Rng r(99);
  for (uint32_t op : kFetchOps) {
    for (uint32_t dim = 0; dim < 4; ++dim) {
      for (uint32_t filter = 0; filter < 8; ++filter) {
        std::array<uint32_t, 3> raw = RandomFetch(r);
        raw[0] = (raw[0] & ~0x1Fu) | op;
        raw[2] = (raw[2] & ~(3u << 14)) | (dim << 14);
        raw[1] = (raw[1] & ~(7u << 18)) | (filter << 18);
        CfInstruction exec;
        exec.opcode = CfOpcode::kExecEnd;
        exec.address = 1;
        exec.count = 1;
        exec.sequence = 1;
        const std::vector<uint32_t> words = ExecOf(exec, raw);
        const Shader shader = Decode(words, ShaderType::kPixel);
        ASSERT_EQ(shader.slots[0].kind, SlotKind::kFetch);
        EXPECT_EQ(EncodeFetch(shader.slots[0].fetch), raw);
        ASSERT_TRUE(TextRoundTrip(shader, words));
      }
    }
  }
}

// Every CF opcode with random field values.
TEST(UcodeSweep, EveryCfOpcode) {
  Rng r(3);
  for (uint32_t op = 0; op < 16; ++op) {
    for (int i = 0; i < 64; ++i) {
      uint64_t bits = RandomCfBits(r, CfOpcode(op));
      CfInstruction cf = DecodeCf(bits);
      EXPECT_EQ(EncodeCf(cf), bits);
      if (cf.opcode == CfOpcode::kLoopStart || cf.opcode == CfOpcode::kLoopEnd ||
          cf.opcode == CfOpcode::kCondCall || cf.opcode == CfOpcode::kCondJmp) {
        cf.address = r.Below(2);
      }
      if (IsExec(cf.opcode)) cf.count = 0;
      CfInstruction end;
      end.opcode = CfOpcode::kExecEnd;
      std::vector<uint32_t> words = PackCf(std::vector<CfInstruction>{cf, end});
      const Shader shader = Decode(words, ShaderType::kVertex);
      ASSERT_TRUE(TextRoundTrip(shader, words));
    }
  }
}

}  // namespace
}  // namespace xnt::ucode
