/* Direct kernels of the Thomas-PCR row: neighbouring systems adjacent in
 * memory (interleaved batches, the middle axes of N-d arrays).  G = 2^logG
 * systems across the threads of a warp, P = ceil(n / M) threads a system
 * (any P, only the last chunk partial; a power of two left up to half the
 * threads without rows, e.g. 64 rows for n = 33), M rows each, loads and
 * stores straight between device memory and registers (coalesced across
 * the G systems); and the pipelined variant, whose
 * persistent blocks copy the next tile into shared memory while they solve
 * the current one.  n up to 2048 (f32) / 1024 (f64): src/cuda/tuning.h.
 * The segmented solve (segmented.cu) solves its reduced systems with the
 * direct kernel too. */
#include "../common/launch.h"
#include "chunk.cuh"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>

namespace tridi_cuda {
namespace {

/* The direct kernels' common tail after the chunk elimination: reduced
 * solve, breakdown check on the values, x stored only after finish_info (in
 * place, x is d and the sequential check reads d). */
template <typename T, int M, bool GROW>
__device__ __forceinline__ void direct_finish(const KParams &p, const int64_t *soff, T *rs, T *rp, T *rq,
                                              T *red, int *badrow, int G, int g, int P, int chunk, int64_t sbase,
                                              bool active, int64_t neff, ChunkState<T, M> &cs) {
  const int64_t n = p.n, row0 = (int64_t)chunk * M;
  bool grown = false;
  if constexpr (GROW)
    grown = pcr_reduced<T, true>(rs, rp, rq, g, G, 2 * chunk, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL,
                                 red + kRedSlots * g, red + kRedSlots * G + threadIdx.x, G * P, cs.wL, cs.nmx,
                                 cs.dmx, residual_tol<T>(n));
  else
    pcr_reduced<T>(rs, rp, rq, g, G, 2 * chunk, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
  const T xF = cs.qF, xL = cs.qL;
  const T xfin = chunk_xfin<T, M>(cs, row0, neff, xF, xL);
  int my_bad = -1;
  if (active && row0 < n && ((chunk == 0 && cs.b0_zero) || !finite_(cs.nonfin) || !finite_(xfin)))
    my_bad = clamp_row(row0);
  finish_info<T, GROW>(p, sbase + g, active, chunk == 0, my_bad, &badrow[g], grown);
  if (active) direct_store<T, M>(p, soff, G, g, row0, n, cs, xF, xL);
}

template <typename T, int M, bool GROW>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_direct(KParams p, int logG, int P) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG;
  const int tid = threadIdx.x;
  int64_t *soff = (int64_t *)smem_raw;
  int *badrow = (int *)(soff + 5 * G);
  T *rs = (T *)(badrow + 2 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  T *red = rq + (size_t)2 * G * P; /* GROW: [G][kRedSlots] growth maxima, [kKeepSlots][G P] (pcr_reduced) */
  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  const int64_t row0 = (int64_t)chunk * M;

  for (int64_t sbase = (int64_t)blockIdx.x * G; sbase < p.nsys;
       sbase += (int64_t)gridDim.x * G) {
    tridi_dev_stage_offsets(p, sbase, G, tid, soff);
    if (tid < G) badrow[tid] = no_bad<GROW>();
    if (GROW)
      for (int i = tid; i < kRedSlots * G; i += blockDim.x) red[i] = (T)0;
    __syncthreads();
    const bool active = sbase + g < p.nsys;
    const int64_t neff = active ? n : 0;
    ChunkState<T, M> cs;
    direct_eliminate<T, M, false, GROW>(p, soff, G, g, row0, neff, cs);
    direct_finish<T, M, GROW>(p, soff, rs, rp, rq, red, badrow, G, g, P, chunk, sbase, active, neff, cs);
    __syncthreads();
  }
}

/* Direct kernel, pipelined over a persistent grid (table rows with pipe = 1,
 * layouts whose systems span little memory: TRIDI_CUDA_PIPE_MAX_EXTENT):
 * the same tile and solve, but each block walks tiles t, t + grid, ... and
 * copies the next tile's inputs into shared memory (cp.async) while it
 * solves and stores the current one.  The plain direct kernel uses almost
 * no shared memory and holds one or two blocks an SM, so an SM's loads stop
 * while its block runs the reduced solve and stores x; here they go on.
 * Tile buffer: operand k, chunk c, row j, system g at k P CP + c CP + j G +
 * g, the chunk pitch CP = M G + pad (CP = G mod 128 bytes: the chunks of a
 * warp start in different banks).  docs/perf-log.md CUDA v25. */

/* The copy of one tile.  The plan takes this kernel only where every input
 * has G adjacent systems and rows of 16-byte multiples; there a full tile
 * whose first system is 16-byte aligned goes in 16-byte pieces of V systems,
 * one operand at a time (few registers), consecutive pieces in different
 * chunks (a warp's pieces spread over the system); otherwise each thread
 * copies its own chunk element by element (the plain kernel's loads, made
 * asynchronous). */
template <typename T, int M>
__device__ __forceinline__ void pipe_copy(const KParams &p, const int64_t *soff, int G, int logG, int P,
                                          int64_t sbase, int CP, int KS, T *tile) {
  const int tid = threadIdx.x, nth = blockDim.x;
  const int64_t n = p.n;
  constexpr int V = 16 / sizeof(T);
  constexpr int logM = M == 4 ? 2 : (M == 8 ? 3 : 4);
  bool vec = true;
  for (int k = 0; k < 4; ++k) vec = vec && ((uintptr_t)((const T *)p.op[k] + soff[k * G]) & 15) == 0;
  if (vec && sbase + G <= p.nsys) {
    const int logW = logG - (sizeof(T) == 4 ? 2 : 1); /* 16-byte pieces a row: G / V */
    const int total = (M * P) << logW;
#pragma unroll 1
    for (int k = 0; k < 4; ++k) {
      const int64_t as = p.as[k];
      const T *base = (const T *)p.op[k] + soff[k * G];
      T *dst = tile + k * KS;
      for (int i = tid; i < total; i += nth) {
        const int q = i >> logW, v = (i & ((1 << logW) - 1)) * V;
        const int qp = q / P;
        const int r = ((q - qp * P) << logM) + qp; /* chunk q mod P, row q / P */
        if (r < n) cp_async16(dst + (r >> logM) * CP + (r & (M - 1)) * G + v, base + r * as + v);
      }
    }
  } else {
    const int g = tid & (G - 1), chunk = tid >> logG;
    const int64_t row0 = (int64_t)chunk * M;
    if (sbase + g < p.nsys && row0 < n) {
      const int nr = n - row0 < M ? (int)(n - row0) : M;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int64_t as = p.as[k];
        const T *src = (const T *)p.op[k] + soff[k * G + g] + row0 * as;
        T *dst = tile + k * KS + chunk * CP + g;
        if (nr == M) {
#pragma unroll
          for (int j = 0; j < M; ++j) cp_async_elem<T>(dst + j * G, src + j * as);
        } else {
          for (int j = 0; j < nr; ++j) cp_async_elem<T>(dst + j * G, src + j * as);
        }
      }
    }
  }
  cp_async_commit();
}

template <typename T, int M, bool GROW>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_direct_pipe(KParams p, int logG, int P, int CP) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG;
  const int tid = threadIdx.x;
  int64_t *soffb = (int64_t *)smem_raw; /* two tiles' offsets, alternating */
  int *badrow = (int *)(soffb + 10 * G);
  T *rs = (T *)(badrow + 2 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  T *red = rq + (size_t)2 * G * P; /* GROW: [G][kRedSlots] growth maxima, [kKeepSlots][G P] (pcr_reduced) */
  T *tile = (T *)(((uintptr_t)(red + grow_slots<GROW>(G, G * P)) + 15) & ~(uintptr_t)15);
  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  const int64_t row0 = (int64_t)chunk * M;
  const int KS = P * CP;
  const int64_t ntiles = (p.nsys + G - 1) >> logG;

  int64_t t = blockIdx.x;
  if (t >= ntiles) return;
  tridi_dev_stage_offsets(p, t * G, G, tid, soffb);
  __syncthreads();
  pipe_copy<T, M>(p, soffb, G, logG, P, t * G, CP, KS, tile);
  for (int buf = 0; t < ntiles; t += gridDim.x, buf ^= 1) {
    const int64_t sbase = t * G, tn = t + gridDim.x;
    const int64_t *soff = soffb + buf * 5 * G, *soffn = soffb + (buf ^ 1) * 5 * G;
    if (tid < G) badrow[tid] = no_bad<GROW>();
    if (GROW)
      for (int i = tid; i < kRedSlots * G; i += blockDim.x) red[i] = (T)0;
    if (tn < ntiles) tridi_dev_stage_offsets(p, tn * G, G, tid, (int64_t *)soffn);
    cp_async_wait_prev0();
    __syncthreads();
    const bool active = sbase + g < p.nsys;
    const int64_t neff = active ? n : 0;
    /* the chunk eliminated from the buffer, then the next tile's copy */
    const T *src = tile + chunk * CP + g;
    ChunkState<T, M> cs;
    eliminate_chunk<T, M, GROW>([&](int k, int j) -> T { return src[k * KS + j * G]; }, row0, neff, cs);
    __syncthreads();
    if (tn < ntiles) pipe_copy<T, M>(p, soffn, G, logG, P, tn * G, CP, KS, tile);
    direct_finish<T, M, GROW>(p, soff, rs, rp, rq, red, badrow, G, g, P, chunk, sbase, active, neff, cs);
    __syncthreads();
  }
}

/* M = 32 (f32) is not compiled: its tile never fits in shared memory */
template <typename T, bool GROW>
const void *pick_direct_pipe(int M) {
  if (M > 16) return NULL;
  return by_m<T>(M, [](auto m) {
    constexpr int Mv = decltype(m)::value > 16 ? 16 : decltype(m)::value;
    return (const void *)tridi_thomas_pcr_direct_pipe<T, Mv, GROW>;
  });
}

template <typename T, bool GROW>
const void *pick_direct(int M) {
  return by_m<T>(M, [](auto m) { return (const void *)tridi_thomas_pcr_direct<T, decltype(m)::value, GROW>; });
}

const void *direct_pipe_kernel(bool f64, int M, bool grow) {
  if (f64) return grow ? pick_direct_pipe<double, true>(M) : pick_direct_pipe<double, false>(M);
  return grow ? pick_direct_pipe<float, true>(M) : pick_direct_pipe<float, false>(M);
}

} /* namespace */

const void *direct_kernel(bool f64, int M, bool grow) {
  if (f64) return grow ? pick_direct<double, true>(M) : pick_direct<double, false>(M);
  return grow ? pick_direct<float, true>(M) : pick_direct<float, false>(M);
}

bool direct_shape(DirectCfg *dc, int64_t n, int64_t nsys, int M, int cap, size_t es, int gbytes, bool grow) {
  int64_t P = (n + M - 1) / M;
#ifdef TRIDI_CUDA_TUNING
  /* measurement builds: the earlier shape, P rounded up to a power of two */
  if (getenv("TRIDI_CUDA_DIRECT_POW2")) P = 1ll << ilog2(P);
#endif
  const int64_t c = cap > 0 && cap <= kTileThreads ? cap : kTileThreads;
  int64_t G = gbytes / (int64_t)es;
  while (G > 1 && G * P > c) G >>= 1;
  if (G > nsys) G = 1ll << ilog2(nsys);
  if (G * P > kTileThreads) return false;
  dc->logG = ilog2(G);
  dc->P = (int)P;
  dc->threads = (int)(G * P);
  dc->smem = (size_t)G * (5 * 8 + 8) + es * ((size_t)6 * G * P + grow_slots(grow, (int)G, (int)(G * P)));
  const int64_t blocks = (nsys + G - 1) / G;
  dc->grid = (unsigned)(blocks < 0x7fffffffll ? blocks : 0x7fffffffll);
  return true;
}

/* System-adjacent layouts while the table has a direct row for n and one
 * block holds a system: G adjacent systems across the warp (128 bytes a row
 * when P allows; fewer share sectors with the neighbouring blocks, whose
 * reads of them hit in L2), P threads a system.  Rows with pipe = 1 take
 * the pipelined variant where the layout allows it and its tile fits. */
tridi_status plan_direct(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took) {
  *took = false;
  if (!f.sysmajor || !f.tile) return TRIDI_SUCCESS;
  const tridi_layout *L = f.L;
  const int64_t n = f.n;
  const size_t es = f.es;
  const int M = f.tile->m;
  DirectPlan *dp = &cp->direct;
  DirectCfg dc;
  if (!direct_shape(&dc, n, L->nsys, M, f.tile->threads, es, 128, f.grow)) return TRIDI_SUCCESS;
  *took = true;
  dp->k = dc;
  dp->CP = 0;
  dp->k.func = direct_kernel(f.f64, M, f.grow);
  if (!dp->k.func) return tridi_set_error(TRIDI_ERR_INTERNAL, "tridi_plan_create: no kernel for M = %d", M);
  const int G = 1 << dc.logG, P = dc.P;
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_direct_m%d_g%d_p%d_%s", M, G, P, f.tn);
  if (f.tile->pipe) {
    /* pipelined over a persistent grid when its tile buffer fits: chunk
     * pitch CP = G mod 128 bytes (conflict-free chunk reads) */
    const int Lb = (int)(128 / es);
    int CP = M * G;
    while (CP % Lb != G % Lb) CP += G;
    const size_t smem =
        ((size_t)G * (10 * 8 + 8) + es * ((size_t)6 * G * P + grow_slots(f.grow, G, G * P)) + 15) / 16 * 16 +
        es * (size_t)4 * P * CP;
    /* the pipelined kernel's 16-byte tile copies need G adjacent systems
     * and rows of 16-byte multiples in every input; and each system
     * within the extent limit, or rows of whole 128-byte lines
     * (TRIDI_CUDA_PIPE_ROW_ALIGN) */
    bool layout_ok = (size_t)G * es >= 16 && L->nbatch > 0 && (L->nbatch == 1 || L->bext[L->nbatch - 1] % G == 0);
    for (int k = 0; k < 4 && layout_ok; ++k) {
      const int64_t ab = (L->axis_stride[k] < 0 ? -L->axis_stride[k] : L->axis_stride[k]) * (int64_t)es;
      layout_ok = L->bstride[k][L->nbatch - 1] == 1 && ab % 16 == 0 &&
                  (ab * n <= f.pipe_max_extent || ab % TRIDI_CUDA_PIPE_ROW_ALIGN == 0);
    }
    const void *fp = layout_ok ? direct_pipe_kernel(f.f64, M, f.grow) : NULL;
    int per_sm = 0;
    if (fp && smem <= f.smem_max) {
      cudaError_t e = allow_smem(fp, smem);
      if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fp, dc.threads, smem);
      if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: occupancy of the pipelined direct kernel");
    }
    if (per_sm >= 1) {
      const int64_t resident = (int64_t)per_sm * f.prop->multiProcessorCount;
      dp->k.func = fp;
      dp->k.smem = smem;
      dp->CP = CP;
      if ((int64_t)dp->k.grid > resident) dp->k.grid = (unsigned)resident;
      snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_direct_pipe_m%d_g%d_p%d_%s", M, G, P,
               f.tn);
    }
  }
  const cudaError_t e = allow_smem(dp->k.func, dp->k.smem);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaFuncSetAttribute");
  return TRIDI_SUCCESS;
}

cudaError_t launch_direct(const CudaPlan &cp, KParams &kp, const tridi_args *, cudaStream_t stream) {
  const DirectPlan &dp = cp.direct;
  int logG = dp.k.logG, P = dp.k.P, CP = dp.CP;
  void *argv[] = {&kp, &logG, &P, &CP}; /* the plain direct kernel takes the first three */
  return cudaLaunchKernel(dp.k.func, dim3(dp.k.grid), dim3(dp.k.threads), argv, dp.k.smem, stream);
}

} /* namespace tridi_cuda */
