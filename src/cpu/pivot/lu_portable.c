/* The LU kernel compiled for the portable code path (see cpu_lu_kernel.inc). */
#define TRIDI_CPU_SUFFIX portable
#include "cpu_lu_kernel.inc"
