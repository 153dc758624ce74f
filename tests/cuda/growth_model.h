/* A host model of the Thomas-PCR hybrid's arithmetic (src/cuda/scalar/
 * chunk.cuh: chunk_eliminate, pcr_reduced) with its growth indicator, one
 * system at a time, so that the indicator's property can be measured on the
 * matrix collection without a GPU: every system is either flagged or solved
 * to a backward error <= 10 n eps, and dominant / SPD systems are never
 * flagged (tests/cuda/test_growth_model.c).  The model performs the
 * kernel's operations in its order; the device's FMA contraction and its
 * approximate f32 reciprocal differ in the last bits. */
#ifndef TRIDI_TEST_GROWTH_MODEL_H
#define TRIDI_TEST_GROWTH_MODEL_H

#include <stdint.h>

/* Solve the n-row system (a[0], c[n-1] ignored) with chunks of M rows (M a
 * power of two >= 4) and P = the smallest power of two >= ceil(n / M)
 * chunks, rows >= n identity rows.  x: n values.  Returns 1 when the system
 * is flagged, else 0 (-1 when memory ran out); *g (may be NULL) receives
 * G = max N / max |b|.  Flagged: G > 8 (N: 2.5 (|u_k| + |a_k alpha_{k-1}|)
 * for every pivot u_k the chunk sweep forms (chunk.cuh's GrowAcc, an upper
 * bound of the |L||U|-style row sum's excess over |A|), the |L||U| row sum
 * of the chunk's first row and of the reduced solve's first elimination
 * (its step 2), in the original rows' units; max |b| over the rows < n;
 * maxima of the whole system, f64 ones rounded to high words as the
 * kernels keep them), or (P > 2) the residual of a row of the P-row system step 2
 * forms, in its original units, above max(64, n) eps (max |b| max|y_L| +
 * max w|q|).  Growth alone is not enough: the
 * reduced solve is PCR, which is not backward stable on ill-conditioned
 * systems even without growth (dorr, randsvd_3 pass G <= 8 with backward
 * errors up to 1e-2). */
int gm_hybrid_f64(int64_t n, int M, const double *a, const double *b, const double *c,
                  const double *d, double *x, double *g);
int gm_hybrid_f32(int64_t n, int M, const float *a, const float *b, const float *c,
                  const float *d, float *x, double *g);

/* The same with the kernels' options: own != 0 compares each chunk's max N
 * with its own max |b| and scales its residual tolerance by it (the PACKED
 * kernel, src/cuda/variable/var_packed.cu, whose chunks may span several
 * systems: there is no per-system slot); own == 2 also splits a chunk at
 * every row whose a is 0 (a system's first row in a PACKED tile) and checks
 * each segment with its own maxima, the last one as own == 1 does
 * (chunk.cuh's SEG); tau the residual tolerance factor
 * (times eps: chunk.cuh's residual_tol).  Returns a bit mask: 1 a residual
 * above the tolerance, 2 growth above the limit (0 accepted, -1 out of
 * memory). */
int gm_hybrid_opt_f64(int64_t n, int M, int own, double tau, const double *a, const double *b,
                      const double *c, const double *d, double *x, double *g);
int gm_hybrid_opt_f32(int64_t n, int M, int own, double tau, const float *a, const float *b,
                      const float *c, const float *d, float *x, double *g);

#endif
