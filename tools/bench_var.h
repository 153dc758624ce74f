/* The variable-size kind of `tridi bench` (tools/bench_variable.c): what its
 * baselines share, on the host and in tools/bench_var_cuda.cu.  The copies a
 * baseline solves (the batch padded to its longest system; the systems
 * gathered into one contiguous batch per length) are built and taken apart
 * here, on the host, so that the CPU and GPU baselines use the same code and
 * the CPU tests exercise it (tools/bench_var_test.c).  C linkage. */
#ifndef TRIDI_TOOLS_BENCH_VAR_H
#define TRIDI_TOOLS_BENCH_VAR_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Length distributions (the case's n is their scale L). */
typedef enum bench_var_dist {
  BENCH_VAR_UNIFORM = 0,   /**< uniform 1 .. 2L (mean L) */
  BENCH_VAR_HALF = 1,      /**< uniform ceil(L/2) .. L (paper 002's 256..512 at L = 512) */
  BENCH_VAR_LOGNORMAL = 2, /**< log-normal, sigma 1, mean L before truncation to 1 .. 8L */
  BENCH_VAR_BIMODAL = 3    /**< 90% uniform L/4 .. L/2, 10% uniform 2L .. 4L */
} bench_var_dist;

/** bc->priv of a variable case. */
typedef struct bench_var_case {
  tridi_var_layout layout;
  bench_var_dist dist;
  int64_t rows, ld; /**< INTERLEAVED: the longest length and the row distance (B rounded
                         up to 32 elements); PACKED: 0, 0 */
  int64_t *len;     /**< B lengths */
  int64_t *off;     /**< B + 1 prefix sums of the lengths (PACKED: row 0 of system s) */
} bench_var_case;

static inline const bench_var_case *bench_var_of(const bench_case *bc) {
  return (const bench_var_case *)bc->priv;
}

/** The smallest and largest length `dist` draws at scale L. */
void bench_var_dist_range(bench_var_dist dist, int64_t L, int64_t *lo, int64_t *hi);

/* ---- pad to the longest system -------------------------------------------- */

/** Elements per operand of the padded copy: PACKED B x nmax (system s at
 *  s * nmax, rows contiguous); INTERLEAVED rows x ld (the case's own
 *  positions). */
int64_t bench_var_pad_elems(const bench_case *bc);
/** Fill the padded copy of a, b, c, d (bench_var_pad_elems each): the rows
 *  of every system, a of its row 0 and c of its last row set to 0, then
 *  identity rows (a = c = d = 0, b = 1) up to nmax; INTERLEAVED columns B ..
 *  ld-1 zero.  So row i < n_s of the padded solution is x of system s. */
void bench_var_pad_fill(const bench_case *bc, const bench_data *data, void *a, void *b, void *c,
                        void *d, int threads);
/** The scalar descriptor of the padded copy: PACKED shape (B, nmax) axis 1;
 *  INTERLEAVED shape (nmax, B) axis 0, strides (ld, 1). */
tridi_status bench_var_pad_desc(const bench_case *bc, tridi_desc *desc);
/** Copy rows i < n_s of the padded solution into the case's x (nothing else
 *  of x is written). */
void bench_var_pad_unpack_x(const bench_case *bc, const void *xpad, void *x, int threads);

/* ---- one contiguous batch per length ----------------------------------------- */

/** The systems grouped by length, each group one contiguous batch (system j
 *  of group g at element first[g] + j * m[g]); systems shorter than min_m
 *  are padded with identity rows to min_m and join that group. */
typedef struct bench_var_groups {
  int64_t min_m;  /**< the shortest group length */
  int64_t count;  /**< groups, ascending length */
  int64_t *m;     /**< the systems' length in group g (>= min_m) */
  int64_t *nsys;  /**< systems in group g */
  int64_t *first; /**< count + 1 element offsets of the groups; first[count]: all */
  int64_t *order; /**< B system indices, group by group (then by index) */
  int64_t *base;  /**< B: element offset of system order[p] in the gathered arrays */
} bench_var_groups;

/** Returns 0, or 1 when out of memory (*g then holds nothing). */
int bench_var_groups_make(const bench_case *bc, int64_t min_m, bench_var_groups *g);
void bench_var_groups_free(bench_var_groups *g);
/** Gather every system into dl (a, with dl = 0 on each system's row 0), dd
 *  (b), du (c, 0 on its last row) and rhs (d), first[count] elements each;
 *  the rows that pad a system to its group's length are identity rows. */
void bench_var_gather(const bench_case *bc, const bench_data *data, const bench_var_groups *g,
                      void *dl, void *dd, void *du, void *rhs, int threads);
/** Copy the gathered solution's rows i < n_s back into the case's x. */
void bench_var_scatter_x(const bench_case *bc, const bench_var_groups *g, const void *xg, void *x,
                         int threads);

#ifdef TRIDI_HAVE_CUDA
/** The GPU baselines (tools/bench_var_cuda.cu): tridi's CUDA scalar solver
 *  on the padded copy; cuSPARSE gtsv2StridedBatch once per length. */
extern const bench_baseline bench_baseline_var_pad_cuda;
extern const bench_baseline bench_baseline_var_cusparse;
#endif

#ifdef __cplusplus
}
#endif
#endif
