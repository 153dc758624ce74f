/* The variable-size batch kernel for the avx2 code path (see cpu_var_kernel_isa.inc). */
#define TRIDI_CPU_SUFFIX avx2
#include "cpu_var_kernel_isa.inc"
