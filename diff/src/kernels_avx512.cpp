// AVX-512 build of the Compare() kernels (this file alone is compiled with -mavx512f -mavx512vl
// -mavx512dq -mavx512bw -mfma and 512-bit vectors; it is only entered after kernels_generic.cpp
// has checked the CPU).
#include "kernels.h"

#define XNT_KERNEL_NS avx512
#include "kernels.inc"
