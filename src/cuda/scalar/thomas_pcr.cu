/* The Thomas-PCR row of the CUDA backend (solver cuda_thomas_pcr): batched
 * scalar tridiagonal systems along any axis, f32 and f64, any n.
 *
 * Each system of length n is cut into P chunks of M consecutive rows, one
 * chunk per thread (László, Giles, Appleyard, ACM TOMS 2016, sec. 2.3).  A
 * thread eliminates its chunk with a modified Thomas sweep that expresses
 * every interior unknown through the chunk's first and last unknowns; the
 * 2P boundary equations form a reduced tridiagonal system that the P threads
 * solve together in shared memory (one odd-even reduction step, then PCR on
 * P rows: pcr_reduced); each thread then recovers its interior unknowns
 * (chunk.cuh).  Every input element is read once from device memory and
 * every output written once: intermediates stay on chip.
 *
 * Six kernel families, one file each (docs/cuda.md has the table;
 * src/cuda/tuning.h the tiles):
 *  - staged.cu:     systems along the contiguous axis, and layouts whose
 *                   neighbouring systems are not adjacent: the tile of G
 *                   systems staged in shared memory with cp.async;
 *  - tiles.cu:      systems stored one after another: tiles of whole
 *                   systems as one contiguous range (the variable kind's
 *                   PACKED kernel), any n up to 2048 / 4096 rows;
 *  - direct.cu:     neighbouring systems adjacent in memory (interleaved
 *                   batches, middle axes): G systems across a warp, loads
 *                   and stores straight between device memory and
 *                   registers; pipelined over a persistent grid where the
 *                   layout allows it;
 *  - segmented.cu:  long systems of system-adjacent layouts: segments
 *                   reduced to two rows each, the reduced systems solved by
 *                   the direct kernel, then every segment as a direct tile;
 *  - cluster.cu:    longer systems (sm_90): a tile cut into K <= 16 row
 *                   blocks of one thread-block cluster, joined through
 *                   distributed shared memory;
 *  - streaming.cu:  any n: chunks swept three times, the forward factors in
 *                   shared memory or the plan's workspace.  Slowest.
 *
 * Breakdown: a system with a NaN/Inf input, a zero b_0 or a NaN/Inf in its
 * computed x is re-checked by one thread with the reference Thomas
 * recurrences on the (still intact) inputs before x is stored, so info
 * carries the same code as the CPU backends whenever the Thomas sweep itself
 * breaks down (the segmented solve: systems its reduction or reduced solve
 * flags, before any x is written).  See docs/cuda.md.
 *
 * This file is the row: the layout's facts and the tuning rows that apply,
 * then the variant table, whose first row that takes the plan runs it. */
#include "../common/launch.h"
#include "../cuda_backend.h"
#include "plan.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace tridi_cuda {

const tridi_cuda_tile *find_tile(tridi_cuda_family fam, tridi_dtype dt, int64_t n) {
  for (int i = 0; i < tridi_cuda_ntiles; ++i)
    if (tridi_cuda_tiles[i].family == fam && tridi_cuda_tiles[i].dtype == dt && n <= tridi_cuda_tiles[i].max_n)
      return &tridi_cuda_tiles[i];
  return NULL;
}

namespace {

/* A kernel family: plan() takes the plan or leaves it to the next row;
 * launch() enqueues the plan's kernels. */
struct Variant {
  const char *name;
  PlanFn plan;
  LaunchFn launch;
};

/* The families in the order the planner tries them; the first whose plan()
 * takes the plan runs it. */
const Variant kVariants[] = {
    /* system-adjacent layouts, n > 1 from the segmented row's min_n */
    {"segmented", plan_segmented, launch_segmented},
    /* system-adjacent layouts up to the direct rows' max_n */
    {"direct", plan_direct, launch_direct},
    /* systems stored one after another, at the n where whole-system tiles
     * were measured faster than the staged kernel (tiles_preferred) */
    {"tiles", plan_tiles, launch_tiles},
    /* other layouts up to the staged rows' max_n, while the tile fits */
    {"staged", plan_staged, launch_staged},
    /* n > 1 that the single-block kernels left: clusters of 2..16 blocks */
    {"cluster", plan_cluster, launch_cluster},
    /* everything else */
    {"streaming", plan_streaming, launch_streaming},
};
constexpr int kNumVariants = (int)(sizeof kVariants / sizeof kVariants[0]);

/* n = 0: every system is solved */
__global__ void tridi_fill_info_zero(int32_t *info, int64_t nsys) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nsys;
       i += (int64_t)gridDim.x * blockDim.x)
    info[i] = 0;
}

void layout_facts(Facts *f, const struct tridi_plan_s *plan, const cudaDeviceProp *prop) {
  const tridi_layout *L = &plan->lay;
  f->L = L;
  f->dtype = plan->dtype;
  f->es = plan->esize;
  f->f64 = plan->dtype == TRIDI_F64;
  f->tn = f->f64 ? "f64" : "f32";
  f->n = L->n;
  f->prop = prop;
  f->smem_max = prop->sharedMemPerBlockOptin;
  /* system-major (direct kernel) when neighbouring systems are adjacent in
   * x and the solve axis is not; row-major staging otherwise */
  const int64_t asx = L->axis_stride[TRIDI_OP_X] < 0 ? -L->axis_stride[TRIDI_OP_X] : L->axis_stride[TRIDI_OP_X];
  int64_t bsx = 0;
  if (L->nbatch > 0) {
    bsx = L->bstride[TRIDI_OP_X][L->nbatch - 1];
    if (bsx < 0) bsx = -bsx;
  }
  f->sysmajor = L->nbatch > 0 && bsx == 1 && asx != 1;
  f->reused = 0;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < L->nbatch; ++j)
      if (L->bstride[k][j] == 0 && L->bext[j] > 1) f->reused |= 1 << k;
  const int V = (int)(16 / f->es);
  f->unit_rows = true;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (L->axis_stride[k] != 1) f->unit_rows = false;
  f->vec_ok = !f->sysmajor && f->n % V == 0 && f->unit_rows;
  for (int k = 0; k < TRIDI_NUM_OPERANDS && f->vec_ok; ++k)
    for (int j = 0; j < L->nbatch; ++j)
      if (L->bstride[k][j] % V != 0) f->vec_ok = false;
  f->tile = find_tile(f->sysmajor ? TRIDI_CUDA_DIRECT : TRIDI_CUDA_STAGED, f->dtype, f->n);
  f->ctile = find_tile(f->sysmajor ? TRIDI_CUDA_CLUSTER_ADJ : TRIDI_CUDA_CLUSTER_ROW, f->dtype, f->n);
  f->stile = find_tile(TRIDI_CUDA_SEG, f->dtype, f->n);
  f->cluster_kmax = kMaxCluster;
  f->pipe_max_extent = TRIDI_CUDA_PIPE_MAX_EXTENT;
}

#ifdef TRIDI_CUDA_TUNING
/* Rows made from environment overrides live here for the planning's time */
struct TuningRows {
  tridi_cuda_tile tile, ctile, stile;
};

tridi_cuda_tile tuning_row(tridi_cuda_family fam, tridi_dtype dt, int64_t n, int m, int threads, int pipe,
                           int gbytes, int rows) {
  tridi_cuda_tile t;
  t.family = fam;
  t.dtype = dt;
  t.max_n = n;
  t.m = m;
  t.threads = threads;
  t.pipe = pipe;
  t.gbytes = gbytes;
  t.rows = rows;
  return t;
}

/* Measurement builds only (CMake TRIDI_CUDA_TUNING=ON): the environment
 * overrides the tuning table's rows for this plan (scripts/gpu.sh tune,
 * ctune):
 *  - TRIDI_CUDA_M, TRIDI_CUDA_THREADS, TRIDI_CUDA_PIPE: the single-block
 *    kernels' tile (TRIDI_CUDA_M=0: none; TRIDI_CUDA_PIPE alone: the
 *    table row's pipe);
 *  - TRIDI_CUDA_PIPE_EXTENT: the pipelined direct kernel's extent limit;
 *  - TRIDI_CUDA_CLUSTER="threads,gbytes,kmax,M": the cluster kernel with
 *    this tile whenever it reaches n (kmax 0: never; kmax >= 2 also skips
 *    the single-block kernels);
 *  - TRIDI_CUDA_SEG="M,R,min_n,threads[,gbytes]": the segmented solve's row
 *    (min_n 0: never). */
void read_tuning_overrides(Facts *f, TuningRows *rows) {
  const tridi_cuda_family fam = f->sysmajor ? TRIDI_CUDA_DIRECT : TRIDI_CUDA_STAGED;
  const tridi_cuda_family cfam = f->sysmajor ? TRIDI_CUDA_CLUSTER_ADJ : TRIDI_CUDA_CLUSTER_ROW;
  const char *em = getenv("TRIDI_CUDA_M"), *et = getenv("TRIDI_CUDA_THREADS"), *ep = getenv("TRIDI_CUDA_PIPE");
  if (em && *em) {
    rows->tile = tuning_row(fam, f->dtype, f->n, atoi(em), et && *et ? atoi(et) : (f->tile ? f->tile->threads : 128),
                            ep && *ep ? atoi(ep) : 0, 0, 0);
    f->tile = rows->tile.m > 0 ? &rows->tile : NULL;
  } else if (ep && *ep && f->tile) {
    rows->tile = *f->tile;
    rows->tile.pipe = atoi(ep);
    f->tile = &rows->tile;
  }
  const char *ee = getenv("TRIDI_CUDA_PIPE_EXTENT");
  if (ee && *ee) f->pipe_max_extent = atoll(ee);
  const char *ec = getenv("TRIDI_CUDA_CLUSTER");
  int a = 0, b = 0, c = 0, d = 0, gb = 0;
  if (ec && *ec && sscanf(ec, "%d,%d,%d,%d", &a, &b, &c, &d) == 4) {
    rows->ctile = tuning_row(cfam, f->dtype, f->n, d, a, 0, b, 0);
    f->ctile = &rows->ctile;
    f->cluster_kmax = c;
    if (c >= 2) f->tile = NULL;
  }
  const char *es = getenv("TRIDI_CUDA_SEG");
  if (es && *es) {
    f->stile = NULL;
    if (sscanf(es, "%d,%d,%d,%d,%d", &a, &b, &c, &d, &gb) >= 4 && c > 0) {
      rows->stile = tuning_row(TRIDI_CUDA_SEG, f->dtype, f->n, a, d, c, gb, b);
      f->stile = &rows->stile;
    }
  }
}
#endif

} /* namespace */
} /* namespace tridi_cuda */

/* ------------------------------------------------------------------------ */
/* Solver-table entry points (C linkage)                                     */
/* ------------------------------------------------------------------------ */

extern "C" const char *tridi_cuda_thomas_pcr_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every scalar problem */
  return NULL;
}

extern "C" tridi_status tridi_cuda_thomas_pcr_init(struct tridi_plan_s *plan) {
  using namespace tridi_cuda;
  const tridi_layout *L = &plan->lay;
  CudaPlan *cp = (CudaPlan *)calloc(1, sizeof *cp);
  if (!cp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of host memory");
  plan->priv = cp;
  plan->ws_bytes = 0;
  cp->variant = -1;
  if (L->n == 0 || L->nsys == 0) {
    snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_fill_info_zero");
    return TRIDI_SUCCESS;
  }
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_plan_create: cudaSetDevice(%d)", plan->device);
  cudaDeviceProp prop;
  const cudaError_t e = cudaGetDeviceProperties(&prop, plan->device);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaGetDeviceProperties");
  Facts f;
  layout_facts(&f, plan, &prop);
  f.grow = plan->growth != 0;
#ifdef TRIDI_CUDA_TUNING
  TuningRows rows;
  read_tuning_overrides(&f, &rows);
#endif
  set_layout_params(cp->kp, L);
  cp->kp.reused = f.reused;
  for (int v = 0; v < kNumVariants; ++v) {
    bool took = false;
    const tridi_status st = kVariants[v].plan(f, cp, plan, &took);
    if (st != TRIDI_SUCCESS) return st;
    if (took) {
      cp->variant = v;
      return TRIDI_SUCCESS;
    }
  }
  return tridi_set_error(TRIDI_ERR_INTERNAL, "tridi_plan_create: no CUDA Thomas-PCR kernel takes the plan");
}

extern "C" tridi_status tridi_cuda_thomas_pcr_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  using namespace tridi_cuda;
  const CudaPlan *cp = (const CudaPlan *)plan->priv;
  const tridi_layout *L = &plan->lay;
  cudaStream_t stream = (cudaStream_t)args->stream;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  if (cp->variant < 0) {
    if (!args->info || L->nsys == 0) return TRIDI_SUCCESS;
    const int64_t blocks64 = (L->nsys + 255) / 256;
    const unsigned blocks = (unsigned)(blocks64 < 65535 ? blocks64 : 65535);
    tridi_fill_info_zero<<<blocks, 256, 0, stream>>>(args->info, L->nsys);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? TRIDI_SUCCESS : cuda_error(e, "tridi_execute: launch of the info fill");
  }
  KParams kp = cp->kp;
  set_operands(kp, args->op);
  kp.info = args->info;
  kp.ws = args->ws;
  const Variant &v = kVariants[cp->variant];
  cudaError_t e = v.launch(*cp, kp, args, stream);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) return cuda_error(e, "tridi_execute: launch of the %s kernel", v.name);
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_thomas_pcr_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
