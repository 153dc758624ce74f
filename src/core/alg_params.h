/* Parameters of the parallel algorithms (CR, PCR, RD and hybrids) that every
 * backend shares: the hybrids' switch sizes and RD's accuracy check.  In the
 * core so that the reference solvers, the CPU rows and the CUDA kernels
 * read one table (src/ref/ref_algs.h, src/cuda/scalar/cr_pcr_rd.cu). */
#ifndef TRIDI_ALG_PARAMS_H
#define TRIDI_ALG_PARAMS_H

#include "tridi.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Intermediate-system size of the hybrids: CR steps while the system has
 * more than tridi_alg_switch() equations.  One table for every backend
 * (REF, CPU, CUDA), so that the REF/CPU rows compute exactly the algorithm
 * the GPU runs and the accuracy study describes it.  The values are the
 * fastest of a sweep on an NVIDIA H200 (docs/algorithms.md, "Switch size"),
 * except CR+RD in f32, capped at 32 for accuracy (RD in f32 loses its digits
 * beyond a few dozen equations even on well-conditioned systems: on the
 * Laplace-like systems of docs/accuracy.md, n = 8..4096, the accuracy check
 * below reports 432 of 2560 with 64 and 88 with 32, none of them at n >= 64;
 * 32 costs 8-19% more time on the H200 sweep):
 *
 *   CR+PCR  f32, f64   n <= 256: 64   n <= 512: 128   else 256
 *   CR+RD   f32        32
 *   CR+RD   f64        n <= 128: 64   else 128
 */

/* RD's accuracy check (RD and CR+RD, every backend): RD's error grows with
 * the products of its matrices and reaches garbage long before they
 * overflow (paper 001, section 5.4; docs/accuracy.md), so once a system's x
 * is computed and finite its backward error is checked:
 *
 *   ||r||inf <= TRIDI_RD_BERR_C * n * eps * (||A||inf ||x||inf + ||d||inf),
 *
 *   r_i = ((b_i x_i - d_i) + a_i x_{i-1}) + c_i x_{i+1}  (terms outside the
 *   system left out), ||A||inf = max_i (|a_i| + |b_i|) + |c_i| with
 *   a_0 = c_{n-1} = 0, eps = FLT_EPSILON / DBL_EPSILON, n the length of the
 *   whole system (not of CR+RD's intermediate one), every operation in the
 *   element type in this order; a non-finite |r_i| fails.
 *
 * A system that fails gets info TRIDI_INFO_INACCURATE and keeps its x.
 * C = 4: on the dominant and Laplace-like families of docs/accuracy.md
 * (n = 8..4096) Thomas, CR, CR+PCR and LAPACK stay below 0.7 n eps, PCR
 * below 2.7 n eps up to n = 1024; the rounding of the check itself adds
 * less than 4 eps, so a system that passes has a true backward error below
 * the test suite's 8 n eps (tests/support/tt.h, TT_RESID_C). */
#define TRIDI_RD_BERR_C 4

/* Switch of algorithm alg for n (the table above; 1 for CR, n for PCR/RD). */
int64_t tridi_alg_switch(tridi_alg alg, tridi_dtype dtype, int64_t n);

#ifdef __cplusplus
}
#endif
#endif
