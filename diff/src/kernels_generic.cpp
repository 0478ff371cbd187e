// Baseline (SSE2) build of the Compare() kernels, and the run-time choice between it and AVX2.
#include "kernels.h"


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

const Kernels& Get(KernelSet cap) {
#if defined(__x86_64__) && defined(XNT_DIFF_HAVE_AVX2)
  static const bool has_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  static const bool has_avx512 = has_avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                                 __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
  if (has_avx512 && cap == KernelSet::kWidest) return avx512::Table();
  if (has_avx2 && cap != KernelSet::kBaseline) return avx2::Table();
#else
  (void)cap;
#endif
  return baseline::Table();
}

}  // namespace xnt::diff::kernels
