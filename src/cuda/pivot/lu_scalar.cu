/* The scalar kind's pivoting kernels and the cuda_lu_partial row.
 *
 * lu_tile: a block takes a tile of G systems (one thread each).  Its
 * threads copy the tile's a, b, c, d into shared memory with asynchronous
 * element copies (a system's rows across threads where rows are unit-stride,
 * else a row's systems: coalesced either way), stored [row][operand][system]
 * with a row pitch of 4G + 1 elements (conflict-free both when a warp walks
 * one system's rows and when it walks one row's systems).  Then each thread
 * runs lu_system on its system in shared memory, the factors replacing the
 * inputs in place, and the block stores x from the tile.  Global traffic:
 * a, b, c, d read once, x written once (5 words a row).  The tile holds
 * n (4G + 1) elements: G = 32, 16 or 8, whichever keeps the most systems
 * resident on an SM (a block has 128 threads: all copy, G eliminate); the
 * tile fits an H100's 227 KiB up to n ~ 1700 f32 / ~ 850 f64 (G = 8).
 *
 * lu_global: beyond that, one thread a system reading its rows from global
 * memory, u, du, du2 in a scratch of 3n elements a thread (the workspace),
 * y in x: correct for any n, about 13 words of traffic a row and uncoalesced
 * where the systems' rows are unit-stride (docs/cuda.md).
 *
 * The second pass of TRIDI_PIVOT_AUTO (pass.cu) runs the same kernels with
 * RESOLVE: a system whose info is 0 is neither read nor written. */
#include "lu_stream.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace tridi_cuda {
namespace {

/* The workspace path's scratch (3n elements a thread) past these is not
 * worth its memory: fewer threads instead.  The second pass, which every
 * TRIDI_PIVOT_AUTO plan carries and which only flagged systems use, gets
 * less. */
constexpr size_t kScratchBudget = (size_t)256 << 20;
constexpr size_t kResolveScratchBudget = (size_t)16 << 20;
/* threads of a tile block: G <= 32 of them eliminate, all copy */
constexpr int kTileBlock = 128;

__host__ __device__ inline size_t tile_head_bytes(int G) {
  return ((size_t)5 * G * sizeof(int64_t) + (size_t)G * sizeof(int) + 15) & ~(size_t)15;
}

/* Systems whose info a RESOLVE block reads at once: kTileBlock threads x
 * kResolveReads (a multiple of every G) */
constexpr int kResolveReads = 4;
constexpr int kResolveChunk = kTileBlock * kResolveReads;
constexpr size_t kResolveStatic = (size_t)(kResolveChunk + kResolveChunk / 8) * sizeof(int);

/* The tile of systems s0 .. s0 + G - 1 of which flag[g] says which to solve
 * (flag set and the block synchronised by the caller): copy in, eliminate,
 * copy x out.  Every thread of the block calls it. */
template <typename T>
__device__ __forceinline__ void solve_tile(const LuParams &p, int64_t s0, const int *flag, int64_t *so, T *tile) {
  const int G = p.G, P = p.P, logG = p.logG;
  const int t = threadIdx.x, nt = blockDim.x;
  tridi_dev_stage_offsets(p, s0, G, t, so);
  __syncthreads();
  const uint32_t n = (uint32_t)p.n, total = n * (uint32_t)G;
#pragma unroll 1
  for (int k = 0; k < 4; ++k) {
    const T *src = (const T *)p.op[k];
    const int64_t as = p.as[k];
    const bool rf = (p.rowsfast >> k) & 1;
    for (uint32_t e = t; e < total; e += nt) {
      uint32_t r, g;
      if (rf) {
        g = fdiv(e, p.ndiv);
        r = e - g * n;
      } else {
        r = e >> logG;
        g = e & (G - 1);
      }
      /* a_0 and c_{n-1} are never read */
      if (!flag[g] || (k == 0 && r == 0) || (k == 2 && r == n - 1)) continue;
      cp_async_elem(&tile[(size_t)r * P + k * G + g], src + so[k * G + g] + (int64_t)r * as);
    }
  }
  cp_async_commit();
  cp_async_wait_prev0();
  __syncthreads();
  if (t < G && flag[t]) {
    TileRows<T> m{tile + t, P, G};
    int32_t code = 0;
    if (lu_system_fast<T>((int64_t)n, m) != 0) {
      /* not solved by the fast form: the reference's elimination on the
       * system's inputs, copied again (x is stored only after the block's
       * barrier, so d is intact also in place) */
      for (int k = 0; k < 4; ++k) {
        const T *src = (const T *)p.op[k] + so[k * G + t];
        const int64_t as = p.as[k];
        for (uint32_t r = 0; r < n; ++r)
          if (!((k == 0 && r == 0) || (k == 2 && r == n - 1))) tile[(size_t)r * P + k * G + t] = src[(int64_t)r * as];
      }
      code = lu_system<T>((int64_t)n, m);
    }
    if (p.info) p.info[s0 + t] = code;
  }
  __syncthreads();
  T *X = (T *)p.op[4];
  const int64_t xs = p.as[4];
  const bool rf = (p.rowsfast >> 4) & 1;
  for (uint32_t e = t; e < total; e += nt) {
    uint32_t r, g;
    if (rf) {
      g = fdiv(e, p.ndiv);
      r = e - g * n;
    } else {
      r = e >> logG;
      g = e & (G - 1);
    }
    if (flag[g]) X[so[4 * G + g] + (int64_t)r * xs] = tile[(size_t)r * P + 3 * G + g];
  }
  __syncthreads(); /* so, flag and the tile are reused by the caller's next tile */
}

/* cuda_lu_partial: block b solves the tile of systems b G .. b G + G - 1. */
template <typename T>
__global__ void __launch_bounds__(kTileBlock) lu_tile(LuParams p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = p.G;
  int64_t *so = (int64_t *)smem_raw; /* [5][G] system offsets */
  int *flag = (int *)(so + 5 * G);   /* [G] 1: this tile solves the system */
  T *tile = (T *)(smem_raw + tile_head_bytes(G));
  const int t = threadIdx.x;
  const int64_t s0 = (int64_t)blockIdx.x * G;
  if (t < G) flag[t] = s0 + t < p.nsys;
  __syncthreads();
  solve_tile<T>(p, s0, flag, so, tile);
}

/* The second pass: a block takes chunks of kResolveChunk systems (grid
 * stride), reads their info at once (coalesced, kResolveReads a thread) and
 * solves only the tiles with a flagged system, only their flagged systems.
 * A batch that flags nothing costs one read of info. */
template <typename T>
__global__ void __launch_bounds__(kTileBlock) lu_tile_resolve(LuParams p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ int tile_any[kResolveChunk / 8];
  __shared__ int chunk_flag[kResolveChunk];
  const int G = p.G, logG = p.logG;
  int64_t *so = (int64_t *)smem_raw;
  int *flag = (int *)(so + 5 * G);
  T *tile = (T *)(smem_raw + tile_head_bytes(G));
  const int t = threadIdx.x;
  const int ntiles = kResolveChunk >> logG;
  for (int64_t c0 = (int64_t)blockIdx.x * kResolveChunk; c0 < p.nsys; c0 += (int64_t)gridDim.x * kResolveChunk) {
    __syncthreads(); /* every thread is done with the previous chunk's flags */
    for (int j = t; j < ntiles; j += blockDim.x) tile_any[j] = 0;
    __syncthreads();
    int any = 0;
#pragma unroll
    for (int j = 0; j < kResolveReads; ++j) {
      const int i = t + j * kTileBlock;
      const int f = c0 + i < p.nsys && p.info[c0 + i] != 0;
      chunk_flag[i] = f;
      if (f) {
        tile_any[i >> logG] = 1;
        any = 1;
      }
    }
    if (!__syncthreads_or(any)) continue;
    for (int j = 0; j < ntiles; ++j) {
      if (!tile_any[j]) continue; /* uniform: shared, after the barrier */
      if (t < G) flag[t] = chunk_flag[j * G + t];
      __syncthreads();
      solve_tile<T>(p, c0 + (int64_t)j * G, flag, so, tile);
    }
  }
}

/* System s's rows in global memory for thread tid of the global forms
 * (its scratch slot tid of p.nthreads), pf rows of L2 prefetch (0: none) */
template <typename T>
__device__ __forceinline__ GlobalRows<T> global_rows(const LuParams &p, int64_t s, int64_t tid, int pf) {
  int64_t off[5];
  tridi_dev_sys_offsets(p, s, off);
  GlobalRows<T> m;
  m.A = (const T *)p.op[0] + off[0];
  m.B = (const T *)p.op[1] + off[1];
  m.C = (const T *)p.op[2] + off[2];
  m.D = (const T *)p.op[3] + off[3];
  m.X = (T *)p.op[4] + off[4];
  m.sa = p.as[0];
  m.sb = p.as[1];
  m.sc = p.as[2];
  m.sd = p.as[3];
  m.sx = p.as[4];
  m.w = (T *)p.scratch + tid;
  m.n = p.n;
  m.W = p.nthreads;
  m.pf = pf;
  return m;
}

template <typename T, bool RESOLVE>
__global__ void __launch_bounds__(256) lu_global(LuParams p) {
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= p.nthreads) return;
  for (int64_t s = tid; s < p.nsys; s += p.nthreads) {
    if (RESOLVE && p.info[s] == 0) continue;
    GlobalRows<T> m = global_rows<T>(p, s, tid, RESOLVE ? 0 : p.pf);
    const int32_t code = lu_system<T>(p.n, m);
    if (p.info) p.info[s] = code;
  }
}

/* lu_global with the fast elimination (lu_system_fast: the fast
 * reciprocal, U's rows over their pivots, two FMAs a row back): 11 words of
 * traffic a row instead of 13 (du', du2' and y' written and read back, u's
 * plane not used); a system it does not solve is solved again by
 * lu_system from its inputs, which must be intact: out of place only. */
template <typename T>
__global__ void __launch_bounds__(256) lu_global_fast(LuParams p) {
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= p.nthreads) return;
  for (int64_t s = tid; s < p.nsys; s += p.nthreads) {
    GlobalRows<T> m = global_rows<T>(p, s, tid, p.pf);
    int32_t code = 0;
    if (lu_system_fast<T>(p.n, m) != 0) code = lu_system<T>(p.n, m);
    if (p.info) p.info[s] = code;
  }
}

template <typename T>
const void *tile_fn(bool resolve) {
  return resolve ? (const void *)lu_tile_resolve<T> : (const void *)lu_tile<T>;
}
template <typename T>
const void *global_fn(bool resolve) {
  return resolve ? (const void *)lu_global<T, true> : (const void *)lu_global<T, false>;
}

} /* namespace */

void lu_adjacent_range(int64_t *lo, int64_t *hi) {
  *lo = kLuGlobalMinN;
  *hi = kLuAdjacentTilesMinN;
#ifdef TRIDI_CUDA_TUNING
  long long a = 0, b = 0;
  if (const char *ev = getenv("TRIDI_CUDA_LU_ADJ"))
    if (sscanf(ev, "%lld,%lld", &a, &b) == 2 && a >= 1 && b >= a) {
      *lo = a;
      *hi = b;
    }
#endif
}

tridi_status lu_plan_scalar(const struct tridi_plan_s *plan, bool resolve, LuPlan *lp) {
  const tridi_layout *L = &plan->lay;
  const bool f64 = plan->dtype == TRIDI_F64;
  const size_t es = plan->esize;
  memset(lp, 0, sizeof *lp);
  set_layout_params(lp->k, L);
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, plan->device);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaGetDeviceProperties");
  /* the tile forms' block of G systems, rows of P = 4G + 1 elements */
  auto tile_params = [&](int G) {
    lu_tile_params(lp->k, L, G);
    lp->k.P = 4 * G + 1;
  };
  /* the tile: n (4G + 1) elements (n * G must fit the kernels' uint32) in
   * what a block may opt in to, less the second pass's static flags */
  const size_t smax = prop.sharedMemPerBlockOptin - kResolveStatic;
  /* measurement builds: TRIDI_CUDA_LU_GLOBAL=1 takes the global form (one
   * thread a system, the factors in the workspace) for every n, =2 its fast
   * variant where the execute is out of place (lu_global_fast); the
   * default's range for adjacent systems: TRIDI_CUDA_LU_ADJ */
  enum { kChoose, kGlobalExact, kGlobalFast } form = kChoose; /* kChoose: a tile form where one fits */
#ifdef TRIDI_CUDA_TUNING
  if (const char *ev = getenv("TRIDI_CUDA_LU_GLOBAL"))
    if (!resolve && (atoi(ev) == 1 || atoi(ev) == 2)) form = atoi(ev) == 1 ? kGlobalExact : kGlobalFast;
#endif
  /* batches of adjacent systems at n = 64..223: the fast global form */
  int64_t adj_lo, adj_hi;
  lu_adjacent_range(&adj_lo, &adj_hi);
  if (!resolve && form == kChoose && L->n >= adj_lo && L->n < adj_hi && lu_systems_adjacent(L, es))
    form = kGlobalFast;
  if (L->n > 0 && L->n <= (1 << 20) && form == kChoose) {
    /* the G that keeps the most systems resident on an SM (the elimination
     * is one dependent chain a system: throughput is resident systems over
     * the chain's latency); ties to the larger G */
    const void *fn = f64 ? tile_fn<double>(resolve) : tile_fn<float>(resolve);
    const void *sfn = lu_stream_kernel(f64);
    /* the largest dynamic shared memory each kernel may take (allow_smem) */
    e = allow_smem(fn, smax);
    if (e == cudaSuccess && !resolve) e = allow_smem(sfn, 0);
    if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaFuncSetAttribute");
    int bestG = 0, best = 0;
    size_t best_smem = 0;
    for (int G = 32; G >= 8; G /= 2) {
      const size_t smem = tile_head_bytes(G) + (size_t)L->n * (4 * G + 1) * es;
      if (smem > smax) continue;
      /* registers, shared memory and threads together */
      int bps = 0;
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, kTileBlock, smem);
      if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      if (bps * G > best) {
        best = bps * G;
        bestG = G;
        best_smem = smem;
      }
    }
    /* the streamed form (3 words a row on chip, copies overlapping the
     * elimination) where it keeps as many systems resident or more (ties:
     * the smaller G, more blocks to overlap one's start and end with
     * another's work); not for the second pass, which reads info first */
    int sG = 0, sbest = 0;
    size_t s_smem = 0;
    for (int G = 8; G <= 32 && !resolve && L->n > 2 * kStreamRows; G *= 2) {
      const size_t smem = stream_smem_bytes(G, L->n, es);
      if (smem > prop.sharedMemPerBlockOptin) continue;
      int bps = 0;
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, sfn, kTileBlock, smem);
      if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      if (bps * G > sbest) {
        sbest = bps * G;
        sG = G;
        s_smem = smem;
      }
    }
    if (sG && sbest >= best) {
      lp->tile = true;
      lp->stream = true;
      tile_params(sG);
      lp->threads = kTileBlock;
      lp->smem = s_smem;
      return TRIDI_SUCCESS;
    }
    if (bestG) {
      lp->tile = true;
      lp->resolve_grid = (int64_t)prop.multiProcessorCount * (best / bestG);
      tile_params(bestG);
      lp->threads = kTileBlock;
      lp->smem = best_smem;
      return TRIDI_SUCCESS;
    }
  }
  /* one thread a system; 3n elements of scratch each */
  const uint64_t per = (uint64_t)3 * (uint64_t)L->n * es;
  const size_t budget = resolve ? kResolveScratchBudget : kScratchBudget;
  int64_t nt = per ? (int64_t)(budget / per) : (int64_t)1 << 20;
  const int64_t cap = (int64_t)prop.multiProcessorCount * 2048;
  if (nt > cap) nt = cap;
  if (nt > L->nsys) nt = L->nsys;
  if (nt < 1) nt = 1;
  if (per && (uint64_t)nt > (SIZE_MAX / 4) / per)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: the pivoting scratch overflows");
  lp->tile = false;
  lp->fast = form == kGlobalFast;
  lp->k.pf = f64 && L->n < kLuPrefetchMinNF64 ? 0 : kLuGlobalPrefetch;
#ifdef TRIDI_CUDA_TUNING
  if (const char *ev = getenv("TRIDI_CUDA_LU_PF"))
    if (atoi(ev) >= 0 && atoi(ev) <= 64) lp->k.pf = atoi(ev);
#endif
  lp->threads = 256;
  lp->k.nthreads = nt;
  lp->scratch_bytes = ((size_t)nt * (size_t)per + 63) & ~(size_t)63;
  return TRIDI_SUCCESS;
}

const char *lu_kind_name(const LuPlan &lp, char *buf, size_t len) {
  if (lp.tile)
    snprintf(buf, len, "%s_g%d", lp.stream ? "stream" : "tile", lp.k.G);
  else
    snprintf(buf, len, lp.fast ? "global_fast" : "global");
  return buf;
}

cudaError_t lu_launch_scalar(const struct tridi_plan_s *plan, const LuPlan &lp, bool resolve,
                             const tridi_args *args, void *scratch, cudaStream_t stream) {
  const tridi_layout *L = &plan->lay;
  if (L->nsys == 0) return cudaSuccess;
  LuParams p = lp.k;
  set_operands(p, args->op);
  p.info = args->info;
  p.scratch = scratch;
  const bool f64 = plan->dtype == TRIDI_F64;
  if (lp.tile) {
    const unsigned grid = (unsigned)((L->nsys + p.G - 1) / p.G);
    if (lp.stream) return lu_stream_launch(f64, grid, lp.threads, lp.smem, p, stream);
    if (resolve) {
      const int64_t chunks = (L->nsys + kResolveChunk - 1) / kResolveChunk;
      const unsigned rgrid = (unsigned)(chunks < lp.resolve_grid ? chunks : lp.resolve_grid);
      if (f64) lu_tile_resolve<double><<<rgrid, lp.threads, lp.smem, stream>>>(p);
      else lu_tile_resolve<float><<<rgrid, lp.threads, lp.smem, stream>>>(p);
    } else {
      if (f64) lu_tile<double><<<grid, lp.threads, lp.smem, stream>>>(p);
      else lu_tile<float><<<grid, lp.threads, lp.smem, stream>>>(p);
    }
  } else {
    const unsigned grid = (unsigned)((p.nthreads + lp.threads - 1) / lp.threads);
    /* the fast form re-reads d where it fails: not in place */
    const bool inplace = args->op[3] == args->op[4];
    if (lp.fast && !resolve && !inplace) {
      if (f64) lu_global_fast<double><<<grid, lp.threads, 0, stream>>>(p);
      else lu_global_fast<float><<<grid, lp.threads, 0, stream>>>(p);
    } else if (f64) {
      if (resolve) lu_global<double, true><<<grid, lp.threads, 0, stream>>>(p);
      else lu_global<double, false><<<grid, lp.threads, 0, stream>>>(p);
    } else {
      if (resolve) lu_global<float, true><<<grid, lp.threads, 0, stream>>>(p);
      else lu_global<float, false><<<grid, lp.threads, 0, stream>>>(p);
    }
  }
  return cudaGetLastError();
}

tridi_status lu_fallback_plan(struct tridi_plan_s *plan, LuFallback *fb) {
  const tridi_status st = lu_plan_scalar(plan, true, &fb->lp);
  if (st) return st;
  fb->flags_off = fb->lp.tile ? 0 : fb->lp.scratch_bytes;
  plan->ws_bytes = ((fb->flags_off + (size_t)plan->lay.nsys * sizeof(int32_t)) + 63) & ~(size_t)63;
  return TRIDI_SUCCESS;
}

cudaError_t lu_fallback_launch(const struct tridi_plan_s *plan, const LuFallback &fb, const tridi_args *args,
                               cudaStream_t stream) {
  tridi_args a2 = *args;
  a2.info = lu_fallback_info(fb, args);
  return lu_launch_scalar(plan, fb.lp, true, &a2, args->ws, stream);
}

} /* namespace tridi_cuda */

/* ------------------------------------------------------------------------ */
/* The cuda_lu_partial row (C linkage)                                       */
/* ------------------------------------------------------------------------ */

extern "C" const char *tridi_cuda_lu_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every scalar problem */
  return NULL;
}

extern "C" tridi_status tridi_cuda_lu_init(struct tridi_plan_s *plan) {
  using namespace tridi_cuda;
  LuPlan *lp = (LuPlan *)calloc(1, sizeof *lp);
  if (!lp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of host memory");
  plan->priv = lp;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_plan_create: cudaSetDevice(%d)", plan->device);
  const tridi_status st = lu_plan_scalar(plan, false, lp);
  if (st) return st;
  plan->ws_bytes = lp->tile ? 0 : lp->scratch_bytes;
  char kb[32];
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_lu_partial_%s_%s", lu_kind_name(*lp, kb, sizeof kb),
           plan->dtype == TRIDI_F64 ? "f64" : "f32");
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_lu_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  using namespace tridi_cuda;
  const LuPlan *lp = (const LuPlan *)plan->priv;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  const cudaError_t e = lu_launch_scalar(plan, *lp, false, args, args->ws, (cudaStream_t)args->stream);
  if (e != cudaSuccess) return cuda_error(e, "tridi_execute: launch of the cuda_lu_partial kernel");
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_lu_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
