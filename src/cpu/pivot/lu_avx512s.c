/* The LU kernel compiled for the avx512 code path with one vector per row
 * (16 f32 / 8 f64 lanes), for layouts with a TRANS operand (contiguous
 * systems); see cpu_lu.c. */
#include "cpu_lu.h"
#define TRIDI_CPU_SUFFIX avx512s
#define TRIDI_CPU_U 1
#include "cpu_lu_kernel.inc"
