/* A host model of the partitioned pivoting solver (src/cuda/pivot/rpts*):
 * recursive partitioning with partial pivoting inside each partition
 * (Klein & Strzodka, ICPP 2021), the arithmetic the kernel performs, one
 * system at a time, so that its accuracy and its acceptance check can be
 * measured on the matrix collection without a GPU
 * (tests/cuda/test_rpts_model.c).
 *
 * The method, for a system of n rows (a[0] and c[n-1] ignored):
 *  - n <= top: Gaussian elimination with partial pivoting (?gtsv's row
 *    interchanges and du2 fill-in) by one thread;
 *  - else rows are padded with identity rows to P = ceil(n / M) partitions
 *    of M rows.  In each partition a downward sweep over rows 1..M-1 and an
 *    upward sweep over rows M-2..0 eliminate the interior unknowns, each
 *    step keeping the row with the larger leading coefficient as the pivot
 *    (multipliers <= 1); what is left are two rows in the partition's first
 *    and last unknowns and the neighbours' boundary unknowns: a coarse
 *    tridiagonal system of 2P rows, solved the same way (recursively);
 *  - the interior of each partition is then recomputed from its boundary
 *    values by the same downward sweep (same pivot choices), the last
 *    interior unknown from the better of the sweep's last row and the
 *    partition's last row, back substitution, and x_1 from row 0 where
 *    that row's coefficient is larger than the sweep's pivot.
 * Acceptance (computed by the kernel from the tile still in shared memory):
 * every x finite and max_i |a_i x_{i-1} + b_i x_i + c_i x_{i+1} - d_i| <=
 * RM_TAU eps (||A||inf ||x||inf + ||d||inf), the bound finite.  A rejected
 * system (after up to `refine` steps of iterative refinement on the tile)
 * is solved again by the exact one-thread-a-system solver (?gtsv's
 * elimination), so the answer always meets the target and the zero-pivot
 * info codes stay LAPACK's.  The model performs the kernel's operations in
 * its order; the device's FMA contraction differs in the last bits. */
#ifndef TRIDI_TEST_RPTS_MODEL_H
#define TRIDI_TEST_RPTS_MODEL_H

#include <stdint.h>

/* the acceptance threshold, in units of eps: the residual computed in the
 * element type is within about 4 eps (||A|| ||x|| + ||d||) of the true one,
 * so an accepted system has a backward error <= about 8 eps, within 10x of
 * ?gtsv's max(berr, eps) */
#define RM_TAU 4.0

/* Solve the n-row system with partitions of M rows (4 <= M <= 64, the same
 * M at every level) and one-thread elimination at <= top rows (top >= 2).
 * When the check rejects the solution and n > top, up to `refine` steps of
 * iterative refinement (r = d - A x in the element type, A e = r by the
 * same solve, x += e; the kernel does them on the tile, no memory traffic)
 * each followed by the check, there computed as max |r - A e| over
 * (||A|| ||x + e|| + ||d||) as the kernel does (d is overwritten by r).  x: n values.  Returns 0 when the system is accepted, 1
 * when it is rejected (x is then what the partitioned solve made), -1 on a
 * bad argument or when memory ran out.  *ratio (may be NULL) receives the
 * last computed residual over (||A|| ||x|| + ||d||), in units of eps (Inf
 * when x or the bound is not finite). */
int rm_solve_f64(int64_t n, int M, int top, int refine, const double *a, const double *b,
                 const double *c, const double *d, double *x, double *ratio);
int rm_solve_f32(int64_t n, int M, int top, int refine, const float *a, const float *b,
                 const float *c, const float *d, float *x, double *ratio);

#endif
