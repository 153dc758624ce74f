/* The LU kernel compiled for the avx512 code path, TRIDI_CPU_LU_UNROLL
 * vectors per row (layouts without a TRANS operand; see cpu_lu.c). */
#define TRIDI_CPU_SUFFIX avx512
#include "cpu_lu_kernel.inc"
