// AVX2+FMA build of the Compare() kernels (this file alone is compiled with -mavx2 -mfma; it is
// only entered after kernels_generic.cpp has checked the CPU).
#include "kernels.h"

#define XNT_KERNEL_NS avx2
#include "kernels.inc"
