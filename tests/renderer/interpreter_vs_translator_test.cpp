// The CPU interpreter (xnt/ucode/interpreter.h) against the Vulkan translator on lavapipe: 40
// random pixel-shader ALU programs (vector ops with co-issued scalar ops, swizzles, negation, write
// masks, saturation, predication after setp, special input values: +-0, +-inf, NaN, FLT_MAX)
// run on both, and every output bit must agree (NaN == NaN). Transcendental ops (exp, log, sin,
// cos, rcp, rsq, sqrt) are left out: the GPU's and libm's approximations differ in the last bits.
// Denormal inputs are left out too (whether lavapipe flushes them is the driver's choice).
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "translator/translate_util.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::vk::test {
namespace {

const char* const kVectorOps[] = {"add",   "mul",   "max",   "min",   "seq", "sgt",
                                  "sge",   "sne",   "frc",   "trunc", "floor", "mad",
                                  "cndeq", "cndge", "cndgt", "dp4",   "dp3", "dp2add",
                                  "max4",  "dst"};
const char* const kScalarOps[] = {"adds",  "muls",   "maxs",  "mins",  "subs",     "seqs",
                                  "sgts",  "sges",   "snes",  "frcs",  "truncs",   "floors",
                                  "adds_prev", "muls_prev", "subs_prev", "setp_eq", "setp_ne",
                                  "setp_gt", "setp_ge", "setp_inv", "setp_pop", "setp_rstr"};

bool TwoComponent(const std::string& op) {
  return op == "adds" || op == "muls" || op == "maxs" || op == "mins" || op == "subs";
}

int Operands(const std::string& op) {
  if (op == "frc" || op == "trunc" || op == "floor" || op == "max4") return 1;
  if (op == "mad" || op == "cndeq" || op == "cndge" || op == "cndgt" || op == "dp2add") return 3;
  return 2;
}

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  std::string Program() {
    std::ostringstream s;
    s << "xps_3_0\n    exec\n";
    for (int r = 0; r < 4; ++r) s << "    mov r" << r << ", c" << r << "\n";
    const int count = 4 + int(Below(8));
    for (int i = 0; i < count; ++i) {
      if (i % 5 == 0) s << "    exec\n";  // an exec holds at most 6 instructions
      const std::string pred = Below(4) == 0 ? (Below(2) ? "(p0) " : "(!p0) ") : "";
      const std::string op = kVectorOps[Below(std::size(kVectorOps))];
      s << "    " << pred << op << (Below(4) == 0 ? "_sat" : "") << " r" << Below(4) << "."
        << Mask() << ", ";
      const int n = Operands(op);
      for (int k = 0; k < n; ++k) s << (k ? ", " : "") << Source(4);
      s << "\n";
      // A co-issued scalar op uses src3, so only beside vector ops with at most 2 operands.
      if (n < 3 && Below(3) != 0) {
        const std::string sop = kScalarOps[Below(std::size(kScalarOps))];
        s << "    + " << pred << sop << (Below(5) == 0 ? "_sat" : "") << " r" << Below(4) << "."
          << "xyzw"[Below(4)] << ", " << Source(TwoComponent(sop) ? 2 : 1) << "\n";
      }
    }
    s << "    alloc colors\n    exece\n    mov oC0, r" << Below(4) << "\n";
    return s.str();
  }

 private:
  uint32_t Below(size_t n) { return uint32_t(rng_() % n); }
  std::string Mask() {
    std::string m;
    while (m.empty()) {
      for (int c = 0; c < 4; ++c) {
        if (Below(3)) m += "xyzw"[c];
      }
    }
    return m;
  }
  // A temp r0-r3 or constant c0-c7 with a random swizzle of `components` letters, maybe negated.
  std::string Source(int components) {
    std::string s = Below(4) == 0 ? "-" : "";
    s += Below(2) ? "r" + std::to_string(Below(4)) : "c" + std::to_string(Below(8));
    s += ".";
    for (int c = 0; c < components; ++c) s += "xyzw"[Below(4)];
    return s;
  }
  std::mt19937 rng_;
};

class InterpreterVsTranslator : public DrawFixture {};

TEST_F(InterpreterVsTranslator, RandomAluProgramsAgreeBitForBit) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.25f, -7.5f, 0.75f, 100.0f,
                            -0.125f, 1e20f, -1e-20f, FLT_MAX, inf, -inf, nan, 1.0f / 3.0f};
  ucode::InterpreterConstants k;
  std::mt19937 values(7);
  for (uint32_t i = 0; i < 8; ++i) {
    for (uint32_t c = 0; c < 4; ++c) {
      // Half special values, half small multiples of 1/4 (so zeros, ties and equal operands,
      // which the max/min/set/cnd/0*x rules are about, come up often).
      float v = values() % 2 == 0 ? specials[values() % std::size(specials)]
                                  : float(int(values() % 17) - 8) / 4.0f;
      k.float_constants[i][c] = v;
    }
    SetPsConstant(i, k.float_constants[i][0], k.float_constants[i][1], k.float_constants[i][2],
                  k.float_constants[i][3]);
  }
  constexpr int kPrograms = 40;
  int compared = 0;
  for (int p = 0; p < kPrograms; ++p) {
    const std::string text = Generator(1000 + uint32_t(p)).Program();
    SCOPED_TRACE(text);
    const Translated t = TranslateAssembly(text);
    ASSERT_FALSE(t.result.spirv.empty());
    const std::vector<float> gpu = RunPixelShader(t);
    ASSERT_GE(gpu.size(), 4u);
    ucode::ShaderInputs in;
    in.interpolator_count = 16;
    for (uint32_t i = 0; i < 16; ++i) {
      // The harness's full-screen VS: interpolator i = (i, i + 0.5, -i, 1).
      in.interpolators[i] = {float(i), float(i) + 0.5f, -float(i), 1.0f};
    }
    const ucode::ShaderResult cpu = ucode::Interpreter(t.shader).Run(k, in);
    ASSERT_FALSE(cpu.killed);
    for (size_t c = 0; c < 4; ++c) {
      const float a = gpu[c], b = cpu.colors[0][c];
      if (std::isnan(a) || std::isnan(b)) {
        EXPECT_TRUE(std::isnan(a) && std::isnan(b)) << "component " << c << ": gpu " << a
                                                    << " cpu " << b;
      } else {
        EXPECT_EQ(std::bit_cast<uint32_t>(a), std::bit_cast<uint32_t>(b))
            << "component " << c << ": gpu " << a << " cpu " << b;
      }
    }
    ++compared;
  }
  EXPECT_EQ(compared, kPrograms);
}

}  // namespace
}  // namespace xnt::vk::test
