/* The solver table: one row per (backend, algorithm) implementation.  The
 * planner scans it in order; earlier rows are preferred under
 * TRIDI_ALG_AUTO (see plan.c). */
#include "backends.h"

const tridi_solver tridi_solver_table[] = {
    /* name, backend, alg, applies, init, execute, destroy */
    {"ref_thomas", TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_REF, tridi_ref_applies, tridi_ref_init,
     tridi_ref_execute, NULL},
    {"cpu_thomas", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, tridi_cpu_thomas_applies,
     tridi_cpu_thomas_init, tridi_cpu_thomas_execute, tridi_cpu_thomas_destroy},
    {"cpu_thomas_ref", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_REF, tridi_cpu_ref_applies,
     tridi_cpu_ref_init, tridi_cpu_ref_execute, NULL},
    /* issue 4: ref algorithms (src/ref/ref_algs.c); after the Thomas rows so
     * that TRIDI_ALG_AUTO never picks them */
#define TRIDI_ALG_ROWS(BE, be, init, exec)                                                       \
  {#be "_cr", BE, TRIDI_ALG_CR, tridi_ref_alg_applies, init, exec, NULL},                        \
      {#be "_pcr", BE, TRIDI_ALG_PCR, tridi_ref_alg_applies, init, exec, NULL},                  \
      {#be "_rd", BE, TRIDI_ALG_RD, tridi_ref_alg_applies, init, exec, NULL},                    \
      {#be "_cr_pcr", BE, TRIDI_ALG_CR_PCR, tridi_ref_alg_applies, init, exec, NULL},            \
      {#be "_cr_rd", BE, TRIDI_ALG_CR_RD, tridi_ref_alg_applies, init, exec, NULL},
    TRIDI_ALG_ROWS(TRIDI_BACKEND_REF, ref, tridi_ref_alg_init, tridi_ref_alg_execute)
    TRIDI_ALG_ROWS(TRIDI_BACKEND_CPU, cpu, tridi_cpu_alg_init, tridi_cpu_alg_execute)
#undef TRIDI_ALG_ROWS
    /* end issue 4 */
#ifdef TRIDI_HAVE_CUDA
    TRIDI_CUDA_SOLVER_ROWS
#endif
};
const int tridi_solver_count = (int)(sizeof tridi_solver_table / sizeof tridi_solver_table[0]);
