/* A system of a harness problem (tests/support, tt_problem) set to a matrix
 * of the collection: d = A x_true, everything rounded to f32 for f32
 * problems.  Header-only: for tests that link both the harness and
 * tridi_matgen (test_modes, test_pivot_cuda). */
#ifndef TRIDI_MATGEN_PROBLEM_H
#define TRIDI_MATGEN_PROBLEM_H

#include "matgen.h"
#include "tt.h"

#include <stdlib.h>

/* System s of P becomes matrix m (seed as mg_generate); 0 when generated,
 * non-zero (nothing set) when the family has no matrix of that n, -1 when
 * out of memory. */
static inline int tt_problem_set_matrix(tt_problem *P, int64_t s, const mg_matrix *m,
                                        uint64_t seed) {
  const int64_t n = P->sys[s].n;
  double *a = (double *)malloc(sizeof(double) * 5 * (size_t)n);
  if (!a) return -1;
  double *b = a + n, *c = b + n, *d = c + n, *xt = d + n;
  const int rc = mg_generate(m, n, seed, a, b, c);
  if (rc == 0) {
    mg_system(n, seed, P->es == 4, a, b, c, xt, d);
    for (int64_t i = 0; i < n; ++i) {
      if (i > 0) tt_problem_set(P, TT_A, s, i, a[i]);
      tt_problem_set(P, TT_B, s, i, b[i]);
      if (i < n - 1) tt_problem_set(P, TT_C, s, i, c[i]);
      tt_problem_set(P, TT_D, s, i, d[i]);
    }
  }
  free(a);
  return rc;
}

#endif
