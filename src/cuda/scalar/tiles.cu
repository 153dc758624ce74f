/* Tiles of whole systems, a kernel family of the Thomas-PCR row: batches
 * whose systems are stored one after another (every operand: unit-stride
 * rows, system s at row s n of its array, the batch dimensions dense).
 * Such a batch is a PACKED variable-size batch of equal lengths, and the
 * PACKED kernel (src/cuda/variable/var_packed.cu) solves it with its tiles
 * computed instead of read: a block takes floor(R / n) whole systems, R =
 * P M = 2048 or 4096 rows, as one contiguous range of every operand copied
 * in 16-byte pieces shifted by the range's phase, its threads' chunks
 * running across system boundaries (a of each first row and c of each last
 * row zeroed in shared memory).  So neither n's alignment nor its being a
 * power of two matters: no element copies where n sizeof(T) is not a
 * multiple of 16 bytes, and no chunks of identity rows up to the next power
 * of two (the staged kernel's P = pow2ceil(n / M)); at most R mod n rows of a
 * tile are idle.  Breakdown and growth: the PACKED kernel's (a tile with any
 * bad chunk solved again by the reference recurrences, the reference's
 * info codes).  Which n take this family instead of the staged kernel:
 * tiles_preferred below, from measurement.
 *
 * Padded rows (system s at row s ld, ld > n, the same ld for all five
 * operands) take the same tiles: a tile is the range from its first
 * system's row 0 to its last system's row n - 1, the padding between its
 * systems read with it, turned into identity rows in shared memory and
 * never written (var_packed.cu, VarParams::uni_ld). */
#include "../common/launch.h"
#include "../variable/var_kernels.cuh"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace tridi_cuda {

bool tiles_strided_systems(const tridi_layout *L, int64_t *ld) {
  /* every operand unit-stride along the axis; the innermost batch dimension
   * at one row stride ld >= n for all five, the outer ones dense over it */
  const int64_t s = L->nbatch > 0 ? L->bstride[0][L->nbatch - 1] : L->n;
  if (s < L->n) return false;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    if (L->axis_stride[k] != 1) return false;
    int64_t want = s;
    for (int j = L->nbatch - 1; j >= 0; --j) {
      if (L->bstride[k][j] != want) return false;
      want *= L->bext[j];
    }
  }
  *ld = s;
  return true;
}

bool tiles_dense_systems(const tridi_layout *L) {
  int64_t ld = 0;
  return tiles_strided_systems(L, &ld) && ld == L->n;
}

int64_t tiles_systems_per_tile(int64_t n, int64_t R, size_t es, size_t piece) {
  /* Tiles of a multiple of 16 bytes all have the arrays' phase (0 for
   * aligned arrays): they keep every system (reserving the shift's
   * 16 / sizeof(T) - 1 rows halved the tiles of n = R / 2: f64 n = 1024 at
   * 64% of copy against 78% for the staged kernel); other tiles' phases
   * vary, and one system less leaves room for any shift.  The same for
   * larger pieces (128-byte lines) where that system is at most an eighth
   * of the tile: f32 n = 33 in 4096-row tiles holds 123 systems instead of
   * 124, so that every tile copies whole lines. */
  const int64_t V = (int64_t)(16 / es), W = (int64_t)(piece / es);
  int64_t spt = R / n;
  if (spt > 1 && (spt * n) % V != 0 && R - spt * n < V - 1) spt -= 1;
  if (W > V && spt >= 8 && (spt * n) % W != 0 && R - spt * n < W - 1) spt -= 1;
  return spt;
}

namespace {

/* Whether this family takes a dense batch of systems of n rows rather than
 * the staged kernel: wherever the tile holds a system (TILES_* in
 * src/cuda/tuning.h: measured faster at every such n, powers of two
 * included) */
bool tiles_preferred(const Facts &f) {
#ifdef TRIDI_CUDA_TUNING
  /* measurement builds: TRIDI_CUDA_TILES=0 never, 1 wherever it can */
  if (const char *e = getenv("TRIDI_CUDA_TILES"))
    if (*e) return atoi(e) != 0;
#endif
  const int64_t n = f.n;
  if (n < 2) return false; /* n = 1: the direct kernel's layout */
  return n <= (f.f64 ? TRIDI_CUDA_TILES_MAX_N_F64 : TRIDI_CUDA_TILES_MAX_N_F32);
}

} /* namespace */

tridi_status plan_tiles(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took) {
  *took = false;
  const tridi_layout *L = f.L;
  int64_t ld = 0;
  if (f.sysmajor || !tiles_strided_systems(L, &ld) || !tiles_preferred(f)) return TRIDI_SUCCESS;
  /* rows at a stride ld > n: the tiles read the padding with the rows (and
   * never write it), so they take at most a quarter more rows than the
   * staged kernel, which reads only the systems' own (TILES_MAX_PAD_INV);
   * not f64 at powers of two, where the staged kernel has no identity
   * chunks and was as fast or faster (n = 32, 256: tiles 0.92-1.00x) */
  const bool padded = ld > L->n;
  if (padded && (L->n < 4 || (ld - L->n) * TRIDI_CUDA_TILES_MAX_PAD_INV > L->n))
    return TRIDI_SUCCESS;
  if (padded && f.f64 && (L->n & (L->n - 1)) == 0) return TRIDI_SUCCESS;
  TilesPlan *tp = &cp->tiles;
  const bool f32 = !f.f64;
  const int sms = f.prop->multiProcessorCount;
  tp->M = var_packed_m(f32, L->n, L->n * L->nsys, sms); /* the variable kind's tiles */
  /* the staged kernel where the tile does not fit the device's shared
   * memory (sm_75: 64 KiB a block; f64 and f32 4096-row tiles need more) */
  if (var_packed_smem_bytes(f32, tp->M) > f.prop->sharedMemPerBlockOptin) return TRIDI_SUCCESS;
  const int64_t R = var_packed_rows(tp->M);
  if (ld > R) return TRIDI_SUCCESS;
  /* as many whole systems as the tile holds.  The kernel copies a tile in
   * whole 128-byte lines shifted by its phase in a line when the shifted
   * tile fits, else in 16-byte pieces shifted by its 16-byte phase, else
   * element by element (tiles_systems_per_tile). */
  tp->ld = ld;
  tp->spt = tiles_systems_per_tile(ld, R, f.es, 128);
  /* padded rows: only tiles of two systems or more (f32 n = 2048 at ld 2051,
   * one system a 4096-row tile: 0.90x the staged kernel) */
  if (padded && tp->spt < 2) return TRIDI_SUCCESS;
  tp->ntiles = (L->nsys + tp->spt - 1) / tp->spt;
  tp->f32 = f32;
  tp->grow = f.grow;
  const cudaError_t e = var_packed_grid(f32, tp->M, f.grow, true, tp->ntiles, sms, &tp->blocks);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cuda_thomas_pcr tiles");
  *took = true;
  plan->ws_bytes = 0;
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_tiles%s_r%d_%s",
           ld > L->n ? "_ld" : "", (int)R, f.tn);
  return TRIDI_SUCCESS;
}

cudaError_t launch_tiles(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream) {
  const TilesPlan &tp = cp.tiles;
  VarParams p;
  memset(&p, 0, sizeof p);
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.op[k] = args->op[k];
  p.info = args->info;
  p.nsys = kp.nsys;
  p.ntiles = tp.ntiles;
  p.uni_n = kp.n;
  p.uni_ld = tp.ld;
  p.uni_spt = tp.spt;
  p.ph0 = var_packed_phase(args->op, tp.f32 ? 4 : 8);
  return var_packed_launch(tp.f32, tp.grow, true, tp.M, p, tp.blocks, stream);
}

} /* namespace tridi_cuda */
