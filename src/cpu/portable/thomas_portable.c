/* The SIMD Thomas kernel compiled for the portable code path (the only object
 * with these ISA flags; see src/cpu/CMakeLists.txt and cpu_thomas_kernel.inc). */
#define TRIDI_CPU_SUFFIX portable
#include "../cpu_thomas_kernel.inc"
