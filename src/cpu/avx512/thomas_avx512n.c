/* The SIMD Thomas kernel compiled for the avx512 code path with the narrow
 * group (TRIDI_CPU_UNROLL_AVX512_NARROW vectors per row), used for
 * contiguous-system (TRANS) layouts; see cpu_thomas.c. */
#include "../cpu_thomas.h"
#define TRIDI_CPU_SUFFIX avx512n
#define TRIDI_CPU_U TRIDI_CPU_UNROLL_AVX512_NARROW
#include "../cpu_thomas_kernel.inc"
