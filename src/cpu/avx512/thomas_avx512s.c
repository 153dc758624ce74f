/* The SIMD Thomas kernel compiled for the avx512 code path with one vector
 * per row (16 f32 / 8 f64 lanes), used for long contiguous systems: the
 * fewest concurrent line streams per group; see cpu_thomas.c. */
#include "../cpu_thomas.h"
#define TRIDI_CPU_SUFFIX avx512s
#define TRIDI_CPU_U 1
#include "../cpu_thomas_kernel.inc"
