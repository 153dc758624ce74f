/* The LU kernel compiled for the avx2 code path (the only object with these
 * ISA flags; see src/cpu/CMakeLists.txt and cpu_lu_kernel.inc). */
#define TRIDI_CPU_SUFFIX avx2
#include "cpu_lu_kernel.inc"
