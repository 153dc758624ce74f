/* The variable-size batch kernel for the avx512 code path (see cpu_var_kernel_isa.inc). */
#define TRIDI_CPU_SUFFIX avx512
#include "cpu_var_kernel_isa.inc"
