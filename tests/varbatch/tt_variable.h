/* The variable-size batch kind's producer of test problems: B systems of
 * lengths n_s, PACKED (one after another) or padded INTERLEAVED (row i of
 * system s at i*ld + s, rows past n_s padding), mapped to the kind-generic
 * system set of tt_problem.h; and the length distributions the tests and
 * the benchmark use. */
#ifndef TT_VARIABLE_H
#define TT_VARIABLE_H

#include "tt_problem.h"

/* The variable kind: descriptor = tridi_desc_create_variable. */
extern const tt_kind tt_kind_variable;

typedef struct tt_var_layout {
  tridi_var_layout layout;
  int64_t nsys;
  int64_t *len;     /* nsys lengths (owned) */
  int64_t rows, ld; /* INTERLEAVED: padded extent and row distance; PACKED: 0 */
} tt_var_layout;

/* Length distributions, scale L (mean about L unless said otherwise). */
typedef enum tt_var_dist {
  TT_VAR_UNIFORM = 0,   /* uniform 1 .. 2L */
  TT_VAR_HALF = 1,      /* uniform L/2 .. L (paper 002's 256..512 for L = 512) */
  TT_VAR_LOGNORMAL = 2, /* log-normal, sigma 0.5, mean L */
  TT_VAR_BIMODAL = 3,   /* 90% uniform L/4 .. L/2, 10% uniform 2L .. 4L */
  TT_VAR_TINY = 4,      /* lengths 1, 2 and 3 among a few of 2L (edge cases) */
  TT_VAR_NDIST = 5
} tt_var_dist;
const char *tt_var_dist_name(tt_var_dist d);
/* B lengths of distribution d with scale L (each >= 1). */
void tt_var_lengths(int64_t *len, int64_t B, tt_var_dist d, int64_t L, tt_rng *r);

/* Build the problem: dominant values, oracles.  ld_pad / rows_pad: extra
 * columns / rows of an INTERLEAVED layout (ld = B + ld_pad, rows = longest
 * + rows_pad).  Returns 0 on success. */
int tt_var_problem_init(tt_problem *P, tridi_dtype dt, tridi_var_layout layout, int64_t B,
                        const int64_t *len, int64_t ld_pad, int64_t rows_pad, int inplace,
                        uint64_t seed);
/* The layout a variable problem was built from. */
const tt_var_layout *tt_var_problem_layout(const tt_problem *P);

#endif
