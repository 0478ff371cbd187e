// Baseline (SSE2) build of the Compare() kernels, and the run-time choice between it and AVX2.
#include "kernels.h"

#include <cstdlib>
#include <cstring>

#define XNT_KERNEL_NS baseline
#include "kernels.inc"
#undef XNT_KERNEL_NS

namespace xnt::diff::kernels {

#if defined(__x86_64__) && defined(XNT_DIFF_HAVE_AVX2)
namespace avx2 {
const Kernels& Table();
}
namespace avx512 {
const Kernels& Table();
}
#endif

const Kernels& Baseline() { return baseline::Table(); }

const Kernels& Get() {
#if defined(__x86_64__) && defined(XNT_DIFF_HAVE_AVX2)
  static const bool has_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  static const bool has_avx512 = has_avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                                 __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
  // XNT_DIFF_KERNELS=baseline|avx2 caps the choice (tests run each; useful to rule out the FMA
  // rounding difference when two machines disagree).
  const char* force = std::getenv("XNT_DIFF_KERNELS");
  const bool baseline_forced = force && std::strcmp(force, "baseline") == 0;
  const bool avx2_forced = force && std::strcmp(force, "avx2") == 0;
  if (has_avx512 && !baseline_forced && !avx2_forced) return avx512::Table();
  if (has_avx2 && !baseline_forced) return avx2::Table();
#endif
  return baseline::Table();
}

}  // namespace xnt::diff::kernels
