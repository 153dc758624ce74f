/* The CUDA pivoting solver (LU with partial pivoting, LAPACK ?gtsv's
 * elimination) and TRIDI_PIVOT_AUTO's second pass on the CUDA backend.  C
 * header (the core is C11); the definitions live in src/cuda/pivot (lu_scalar.cu, pass.cu) with
 * C linkage.  Included by src/core/backends.h under TRIDI_HAVE_CUDA. */
#ifndef TRIDI_CUDA_PIVOT_H
#define TRIDI_CUDA_PIVOT_H

#include "tridi_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cuda_lu_partial row (scalar kind, lu_scalar.cu): every layout,
 * f32/f64, any n.  A tile of G systems staged in shared memory while it
 * fits, else one thread a system with the factors in the workspace. */
const char *tridi_cuda_lu_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_lu_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_lu_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_lu_destroy(struct tridi_plan_s *plan);

/* The cuda_lu_partition row (scalar kind, rpts_scalar.cu): partitioned
 * elimination with partial pivoting inside partitions, several threads a
 * system, one block a tile of systems (n = 256 .. 4096 where the tile
 * fits; cuda_lu_partial is faster below; cuda_lu_tiles, listed first,
 * takes n <= 2048 where its tile fits);
 * systems it does not accept are solved again by cuda_lu_partial's exact
 * kernel in a second launch on the same stream. */
const char *tridi_cuda_rpts_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_rpts_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_rpts_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_rpts_destroy(struct tridi_plan_s *plan);

/* The cuda_lu_tiles row (scalar kind, rpts_tiles.cu): the partitioned
 * elimination on tiles of whole systems (2048 rows a block, 8 rows a
 * thread in registers), every layout: 48 (f32) / 64 (f64) <= n <= 2048
 * for batches stored one after another (unit-stride rows, system s at
 * element s n; 16-byte copies), 96 <= n <= 2048 for the others (each
 * system gathered from its own offset and strides);
 * the systems its residual check does not accept are solved again by
 * cuda_lu_partial's exact kernel in a second launch on the same stream. */
const char *tridi_cuda_rpts_tiles_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_rpts_tiles_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_rpts_tiles_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_rpts_tiles_destroy(struct tridi_plan_s *plan);

/* The CUDA backend's second pass (pass.cu; tridi_backend_ops.pass_*):
 * scalar and variable kinds. */
tridi_status tridi_cuda_pass_init(struct tridi_plan_s *plan, int *available);
void tridi_cuda_pass_destroy(struct tridi_plan_s *plan);
tridi_status tridi_cuda_pass_run(const struct tridi_plan_s *plan, tridi_args *args);

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_CUDA_PIVOT_H */
