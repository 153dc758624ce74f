/* The variable-size batch (TRIDI_KIND_VARIABLE): B systems of lengths n_s,
 * packed one after another or padded interleaved (tridi.h,
 * tridi_var_layout).  What the kind's solver rows on every backend read
 * from plan->problem. */
#ifndef TRIDI_KIND_VARIABLE_H
#define TRIDI_KIND_VARIABLE_H

#include "tridi_internal.h"

typedef struct tridi_var_problem {
  tridi_var_layout layout;
  int64_t nsys;       /* B */
  int64_t rows, ld;   /* INTERLEAVED: padded extent and row distance; PACKED: 0 */
  int64_t total;      /* sum of the lengths */
  int64_t nmin, nmax; /* shortest and longest system (0 when B = 0) */
  int64_t *len;       /* B lengths */
  int64_t *off;       /* B + 1 prefix sums of the lengths: off[s] = n_0 + ... + n_{s-1} */
  int64_t span;       /* one past the highest described element of each operand:
                         PACKED total; INTERLEAVED max over s of (n_s - 1) ld + s + 1 */
  /* per operand, the used elements lie in [lo[k], hi[k]) (a without row 0,
   * c without row n_s - 1: never read, tridi.h); lo == hi: none */
  int64_t lo[TRIDI_NUM_OPERANDS], hi[TRIDI_NUM_OPERANDS];
} tridi_var_problem;

static inline const tridi_var_problem *tridi_var_of(const struct tridi_plan_s *plan) {
  return (const tridi_var_problem *)plan->problem;
}

/* Row 0 of system s is element `*first` of every operand; row i is
 * element *first + i * *stride. */
static inline void tridi_var_system(const tridi_var_problem *v, int64_t s, int64_t *first,
                                    int64_t *stride) {
  if (v->layout == TRIDI_VAR_PACKED) {
    *first = v->off[s];
    *stride = 1;
  } else {
    *first = s;
    *stride = v->ld;
  }
}

/* Solve system s with the reference Thomas (src/ref/ref_variable.c);
 * work: nmax elements.  Returns the info code. */
int32_t tridi_ref_var_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
                                   int64_t s, void *work);
/* The same with the reference pivoting solver (ref_pivot.h); work:
 * TRIDI_REF_PIVOT_WORK(nmax) elements. */
int32_t tridi_ref_var_pivot_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
                                         int64_t s, void *work);

#endif
