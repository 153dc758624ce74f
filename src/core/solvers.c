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
#ifdef TRIDI_HAVE_CUDA
    TRIDI_CUDA_SOLVER_ROWS
#endif
};
const int tridi_solver_count = (int)(sizeof tridi_solver_table / sizeof tridi_solver_table[0]);
