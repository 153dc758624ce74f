/* The variable-size batch kernel for the portable code path (see cpu_var_kernel_isa.inc). */
#define TRIDI_CPU_SUFFIX portable
#include "cpu_var_kernel_isa.inc"
