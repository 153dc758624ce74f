/* Reference versions of paper 001's parallel algorithms (Zhang, Cohen,
 * Owens, PPoPP 2010): cyclic reduction (CR), parallel cyclic reduction
 * (PCR), recursive doubling (RD) and the hybrids CR+PCR and CR+RD, for any
 * n (not only powers of two).  Plain C, one system at a time, computed in
 * the element type with the same operations, in the same order, as the
 * GPU kernels (src/cuda/alg_*.cu), so that each GPU kernel is tested
 * against the same algorithm and the accuracy study runs on any machine.
 *
 * The exact formulation (docs/algorithms.md has the long version):
 *
 *   - every algorithm first copies the system, with a[0] = c[n-1] = 0, and
 *     checks the inputs row by row: the first row with a NaN/Inf input that
 *     is used gives info -row (1-based), as the reference Thomas;
 *   - CR steps: a system of m equations becomes the floor(m/2) equations of
 *     odd index j (0-based), each combined with j-1 and j+1 (when j+1 < m);
 *     equation k of the system after l steps is original row (k+1)*2^l - 1;
 *   - the hybrids do CR steps while m > switch, then solve the intermediate
 *     system with PCR or RD, then substitute back through the CR levels;
 *     CR is the hybrid with switch 1, PCR and RD have no CR step;
 *   - PCR: steps with distance s = 1, 2, 4, ... while s < m; equation i is
 *     combined with i-s (when i >= s) and i+s (when i+s < m); finally
 *     x_i = d_i / b_i;
 *   - RD: X_{j+1} = B_j X_j with X_j = (x_j, x_{j-1}, 1), B_j built from
 *     row j (divides by c_j), j = 0 .. m-2; Hillis-Steele inclusive scan of
 *     the 2x3 affine matrices (C_j = B_j ... B_0); x_0 from the last row;
 *     x_{j+1} = C_j[0][0] x_0 + C_j[0][2].
 *
 *   - RD and CR+RD, once x is computed and finite: the accuracy check
 *     below on the whole system; x is stored either way.
 *
 * Info codes (include/tridi.h: 0 solved, +k zero pivot, -k NaN/Inf,
 * TRIDI_INFO_INACCURATE):
 *   +k: a division by an exactly zero value, row k (1-based, original
 *       numbering) being the equation whose diagonal was the divisor (CR,
 *       PCR: b of the equation used to eliminate a neighbour, or of the last
 *       equation; RD: c_k of row k, or for the final division for x_0 the
 *       last row of the system RD solved);
 *   -k: NaN/Inf input at row k; or a NaN/Inf produced: the equation (CR and
 *       PCR steps), prefix matrix (RD: the row whose matrix B_k made the
 *       product non-finite) or solution value x_k;
 *   TRIDI_INFO_INACCURATE: RD, CR+RD: x is finite but fails the accuracy
 *       check (x is written);
 *   steps are checked in order and within a step the lowest row wins, zero
 *   divisors before produced non-finite values.  These codes may differ from
 *   the reference Thomas's for the same matrix (different eliminations). */
#ifndef TRIDI_REF_ALGS_H
#define TRIDI_REF_ALGS_H

#include "tridi_internal.h"
#include "alg_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* System s of a plan with the plan's algorithm and scratch `work`; returns
 * the info code (INT32_MIN: internal error).  The REF rows (ref_algs.c) and
 * the CPU rows (src/cpu/cpu_algs.c) run it. */
int32_t tridi_ref_alg_solve_system(const struct tridi_plan_s *plan, const tridi_args *args, int64_t s,
                                   void *work);
/* Bytes of scratch one system of the plan needs, rounded up to 64. */
tridi_status tridi_ref_alg_work_bytes(const struct tridi_plan_s *plan, size_t *bytes);

/* 1 for the algorithms of this file (CR, PCR, RD, CR_PCR, CR_RD). */
int tridi_ref_alg_known(tridi_alg alg);

/* Elements of scratch (of the element type) one system of length n needs. */
int64_t tridi_ref_alg_work_elems(int64_t n);


/* Solve one strided system with algorithm alg and hybrid switch sw (the
 * largest intermediate system; <= 1 means CR steps down to one equation).
 * For TRIDI_ALG_CR sw is ignored (1); for PCR and RD it is ignored (no CR
 * step).  work: tridi_ref_alg_work_elems(n) elements.  x may equal d (same
 * pointer and stride).  Returns the info code; an unknown alg returns
 * INT32_MIN (nothing written). */
int32_t tridi_ref_alg_f32(tridi_alg alg, int64_t sw, int64_t n, const float *a, int64_t sa,
                          const float *b, int64_t sb, const float *c, int64_t sc, const float *d,
                          int64_t sd, float *x, int64_t sx, float *work);
int32_t tridi_ref_alg_f64(tridi_alg alg, int64_t sw, int64_t n, const double *a, int64_t sa,
                          const double *b, int64_t sb, const double *c, int64_t sc, const double *d,
                          int64_t sd, double *x, int64_t sx, double *work);

#ifdef __cplusplus
}
#endif
#endif
