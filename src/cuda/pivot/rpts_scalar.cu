/* The cuda_lu_partition row: partitioned elimination with partial pivoting
 * inside partitions of kRptsM rows (rpts.cuh), several threads a system.
 *
 * rpts_tile: a block takes G systems (G * P threads, P = ceil(n / M)
 * partitions a system; thread t: system t mod G, partition t / G).  Its
 * threads copy a, b, c, d into shared memory with asynchronous element
 * copies (a system's rows across threads where they are unit-stride, else
 * a row's systems: coalesced either way) in the partition-major layout of
 * rpts.cuh; then every level's partitions are reduced by one thread each
 * (the coarse rows in shared memory), the top level (<= kRptsTop rows) is
 * solved by one thread, the interiors are recomputed level by level, and
 * each system is checked from the tile: every x finite and max |A x - d| <=
 * kRptsTau eps (||A|| ||x|| + ||d||).  A system that fails takes one step
 * of iterative refinement on the tile (r = d - A x replaces d, A e = r by
 * the same solve, x += e, the check on r - A e); still failing, it is left
 * untouched with info 1, and a second launch on the same stream
 * (lu_scalar.cu's RESOLVE kernels: they solve exactly the systems whose
 * info is not 0) solves it by ?gtsv's elimination, which also gives
 * LAPACK's zero-pivot codes.  Accepted systems get x and info 0.  Without a
 * caller info array the flags live in the workspace.  No host
 * synchronisation: graph-capturable.  Global traffic of an accepted system:
 * 5 words a row (plus one read of its info by the second launch).
 * The arithmetic is the host model's (tests/cuda/rpts_model_t.h), whose
 * table on the matrix collection is in docs/perf-log.md. */
#include "cuda_pivot.h"
#include "lu.cuh"
#include "rpts.cuh"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace tridi_cuda {
namespace {

constexpr int kRptsMaxThreads = 512; /* 128 registers a thread */
constexpr int kRptsMaxN = kRptsM * kRptsMaxThreads;
/* Below this n cuda_lu_partial (one thread a system) is faster.  H200,
 * divisions by the fast reciprocal, % of a device copy's bandwidth
 * (docs/perf-log.md, "Pivoting tiles on every layout"), this row against
 * cuda_lu_partial, interleaved and middle axis alike: f32 n = 128: 13.9
 * against 19.4; n = 256: 12.8 against 10.6; f64 n = 128: 23.3 against
 * 22.6; n = 256: 17.5 against 10.7.  cuda_lu_tiles, listed first, takes
 * every layout to n = 2048 where its tile fits, so this row serves longer
 * systems and devices with less shared memory. */
constexpr int kRptsMinN = 256;
/* divisions by the fast reciprocal (rpts.cuh rpts_div): the acceptance
 * check judges the final x (a quotient a few ulps off costs at most the
 * refinement step or a fallback); the host emulation (test_rpts_emu)
 * keeps IEEE division, so the kernel's x is no longer its bit-for-bit
 * twin */
constexpr bool kRpFast = true;
/* a bound on rpts_tile's static shared memory (the level descriptors,
 * refine[32]: 400 bytes by ptxas for sm_90) and the 1 KiB a block the
 * system reserves, which tools such as cuobjdump count with it */
constexpr size_t kRptsStatic = 2048;

struct RptsPlan {
  LuFallback fb;  /* the exact second pass (RESOLVE) and the flags */
  int threads;
  size_t smem;
  LuParams k;     /* the launch parameters made at plan time (layout, G,
                     logG, rowsfast, ndiv); execute sets op */
};

/* bytes of the head: so[5G] int64, flag[G] int, red[4G] 64-bit slots */
__host__ __device__ inline size_t rpts_head_bytes(int G) {
  return ((size_t)9 * G * sizeof(int64_t) + (size_t)G * sizeof(int) + 15) & ~(size_t)15;
}

/* shared memory of a block: the head, then every level's rows (4 M planes
 * of S elements) and x (M planes): 5 M S elements a level (rpts.cuh) */
__host__ __device__ inline size_t rpts_smem_bytes(int n, int G, size_t es) {
  return rpts_head_bytes(G) + rpts_levels_elems(n, G) * es;
}

/* the block's maxima by integer atomics on the values' bits (RptsKey) */
__device__ __forceinline__ void rpts_max(unsigned long long *slot, double v) {
  atomicMax(slot, RptsKey<double>::of(v));
}
__device__ __forceinline__ double rpts_get(const unsigned long long *slot) { return RptsKey<double>::val(*slot); }

/* the acceptance rule of system t from the block's maxima (rpts_model.h):
 * max |r| <= kRptsTau eps (||A|| ||x|| + ||d||), x and the bound finite in
 * the element type */
template <typename T>
__device__ __forceinline__ bool rpts_accept(const unsigned long long *red, int G, int t) {
  const double eps = sizeof(T) == 8 ? DBL_EPSILON : FLT_EPSILON;
  const double r = rpts_get(&red[t]), xm = rpts_get(&red[2 * G + t]);
  const double bound = rpts_get(&red[G + t]) * xm + rpts_get(&red[3 * G + t]);
  return isfinite((T)xm) && isfinite((T)bound) && r <= kRptsTau * eps * bound;
}

/* system t's verdict: info 0 (accepted, x stored) or 1 (the exact second
 * launch solves it; its x is not stored here) */
__device__ __forceinline__ void rpts_finish(int *flag, int32_t *info, int64_t s0, int t, bool ok) {
  if (flag[t] && info) info[s0 + t] = ok ? 0 : 1;
  flag[t] = flag[t] && ok;
}

/* every level's reduction, the top, the recomputation of the levels >= 1
 * (level 0's is the caller's); ends synchronised */
template <typename T>
__device__ __forceinline__ void rpts_solve_coarse(const RptsLevel<T> *lv, int L, int G, int g, int pp) {
  for (int l = 0; l < L; ++l) {
    if (pp < lv[l].P) rpts_reduce<T, kRptsM, kRpFast>(lv[l], lv[l + 1], G, g, pp);
    __syncthreads();
  }
  if (pp == 0) rpts_top<T, kRptsM, kRpFast>(lv[L], G, g);
  __syncthreads();
  for (int l = L - 1; l >= 1; --l) {
    if (pp < lv[l].P) {
      T x[kRptsM], xp, xn;
      rpts_substitute<T, kRptsM, kRpFast>(lv[l], lv[l + 1], G, g, pp, x, xp, xn);
#pragma unroll
      for (int j = 0; j < kRptsM; ++j)
        if (pp * kRptsM + j < lv[l].n) lv[l].x[rpts_xidx<T, kRptsM>(lv[l], G, g, pp * kRptsM + j)] = x[j];
    }
    __syncthreads();
  }
}

template <typename T>
__global__ void __launch_bounds__(kRptsMaxThreads) rpts_tile(LuParams p, int32_t *info) {
  constexpr int M = kRptsM;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = p.G, logG = p.logG;
  const int n = (int)p.n;
  int64_t *so = (int64_t *)smem_raw;
  unsigned long long *red = (unsigned long long *)(so + 5 * G); /* [4][G] */
  int *flag = (int *)(red + 4 * G);
  T *base = (T *)(smem_raw + rpts_head_bytes(G));
  /* the levels' descriptors, in shared memory (indexed at run time) */
  __shared__ RptsLevel<T> lv[kRptsMaxLevels];
  __shared__ int nlev;
  __shared__ int refine[32]; /* [G]: this system takes the refinement step */
  const int t = threadIdx.x, nt = blockDim.x;
  if (t == 0) {
    int nl[kRptsMaxLevels];
    const int L = rpts_levels(n, nl);
    T *mem = base;
    for (int l = 0; l <= L; ++l) {
      const int S = rpts_stride(nl[l], M, G);
      lv[l] = RptsLevel<T>{mem, mem + (size_t)4 * M * S, S, nl[l], l < L ? (nl[l] + M - 1) / M : 0};
      mem += (size_t)5 * M * S;
    }
    nlev = L;
  }
  /* thread t: system g = t mod G, partition pp = t / G */
  const int Pt = nt >> logG, g = t & (G - 1), pp = t >> logG;
  const int64_t s0 = (int64_t)blockIdx.x * G;
  if (t < G) flag[t] = s0 + t < p.nsys;
  for (int i = t; i < 4 * G; i += nt) red[i] = 0;
  tridi_dev_stage_offsets(p, s0, G, t, so);
  __syncthreads();
  const RptsLevel<T> L0 = lv[0];
  const uint32_t total = (uint32_t)n * (uint32_t)G;
#pragma unroll 1
  for (int k = 0; k < 4; ++k) {
    const T *src = (const T *)p.op[k];
    const int64_t as = p.as[k];
    const bool rf = (p.rowsfast >> k) & 1;
    for (uint32_t e = t; e < total; e += nt) {
      uint32_t r, gg;
      if (rf) {
        gg = fdiv(e, p.ndiv);
        r = e - gg * (uint32_t)n;
      } else {
        r = e >> logG;
        gg = e & (G - 1);
      }
      /* a_0 and c_{n-1} are never read; past the batch: identity rows */
      if ((k == 0 && r == 0) || (k == 2 && r == (uint32_t)n - 1)) continue;
      T *dst = L0.rows + rpts_idx<T, M>(L0, G, (int)gg, (int)r, k);
      if (flag[gg]) cp_async_elem(dst, src + so[k * G + gg] + (int64_t)r * as);
      else *dst = k == 1 ? (T)1 : (T)0;
    }
  }
  cp_async_commit();
  cp_async_wait_prev0();
  __syncthreads();
  /* reduction, top, recomputation, the acceptance check from the tile */
  const int L = nlev;
  rpts_solve_coarse<T>(lv, L, G, g, pp);
  if (pp < L0.P) {
    T x[M], xp, xn;
    rpts_substitute<T, M, kRpFast>(L0, lv[1], G, g, pp, x, xp, xn);
#pragma unroll
    for (int j = 0; j < M; ++j)
      if (pp * M + j < n) L0.x[rpts_xidx<T, M>(L0, G, g, pp * M + j)] = x[j];
  }
  __syncthreads();
  {
    double rmax = 0, amax = 0, xmax = 0, dmax = 0;
    for (int i = pp; i < n; i += Pt) {
      const RptsRow<T> R = rpts_row<T, M>(L0, G, g, i);
      const T xm = i > 0 ? L0.x[rpts_xidx<T, M>(L0, G, g, i - 1)] : (T)0;
      const T xi = L0.x[rpts_xidx<T, M>(L0, G, g, i)];
      const T xq = i < n - 1 ? L0.x[rpts_xidx<T, M>(L0, G, g, i + 1)] : (T)0;
      const T res = ((R.a * xm + R.b * xi) + R.c * xq) - R.d;
      const T s = (fabs(R.a) + fabs(R.b)) + fabs(R.c);
      rmax = rpts_fmax(rmax, (double)fabs(res));
      amax = rpts_fmax(amax, (double)s);
      xmax = rpts_fmax(xmax, (double)fabs(xi));
      dmax = rpts_fmax(dmax, (double)fabs(R.d));
    }
    rpts_max(&red[g], rmax);
    rpts_max(&red[G + g], amax);
    rpts_max(&red[2 * G + g], xmax);
    rpts_max(&red[3 * G + g], dmax);
  }
  __syncthreads();
  int want = 0;
  if (t < G) {
    const bool ok = rpts_accept<T>(red, G, t);
    refine[t] = flag[t] && !ok && L > 0;
    want = refine[t];
    if (!refine[t]) rpts_finish(flag, info, s0, t, ok);
  }
  /* one step of refinement on the tile for the systems not accepted:
   * r = d - A x into the tile's d, A e = r, x += e, the check on r - A e */
  if (__syncthreads_or(want)) {
    if (refine[g]) { /* row i's d is read and written by its thread only */
      for (int i = pp; i < n; i += Pt) {
        const RptsRow<T> R = rpts_row<T, M>(L0, G, g, i);
        const T xm = i > 0 ? L0.x[rpts_xidx<T, M>(L0, G, g, i - 1)] : (T)0;
        const T xi = L0.x[rpts_xidx<T, M>(L0, G, g, i)];
        const T xq = i < n - 1 ? L0.x[rpts_xidx<T, M>(L0, G, g, i + 1)] : (T)0;
        L0.rows[rpts_idx<T, M>(L0, G, g, i, 3)] = R.d - ((R.a * xm + R.b * xi) + R.c * xq);
      }
    }
    if (t < G && refine[t]) {
      red[t] = 0;
      red[2 * G + t] = 0;
    }
    __syncthreads();
    rpts_solve_coarse<T>(lv, L, G, g, pp);
    if (pp < L0.P && refine[g]) {
      T e[M], ep, en;
      rpts_substitute<T, M, kRpFast>(L0, lv[1], G, g, pp, e, ep, en);
      double rmax = 0, xmax = 0;
#pragma unroll
      for (int j = 0; j < M; ++j) {
        const int i = pp * M + j;
        if (i < n) {
          const RptsRow<T> R = rpts_row<T, M>(L0, G, g, i); /* R.d: r_i */
          const T em = j > 0 ? e[j > 0 ? j - 1 : 0] : ep;
          const T eq = j < M - 1 ? e[j < M - 1 ? j + 1 : j] : en;
          const T res = R.d - ((R.a * em + R.b * e[j]) + R.c * eq);
          T *xi = L0.x + rpts_xidx<T, M>(L0, G, g, i);
          const T xnew = *xi + e[j];
          *xi = xnew;
          rmax = rpts_fmax(rmax, (double)fabs(res));
          xmax = rpts_fmax(xmax, (double)fabs(xnew));
        }
      }
      rpts_max(&red[g], rmax);
      rpts_max(&red[2 * G + g], xmax);
    }
    __syncthreads();
    if (t < G && refine[t]) rpts_finish(flag, info, s0, t, rpts_accept<T>(red, G, t));
  }
  __syncthreads();
  T *Xg = (T *)p.op[4];
  const int64_t xs = p.as[4];
  const bool rf = (p.rowsfast >> 4) & 1;
  for (uint32_t e = t; e < total; e += nt) {
    uint32_t r, gg;
    if (rf) {
      gg = fdiv(e, p.ndiv);
      r = e - gg * (uint32_t)n;
    } else {
      r = e >> logG;
      gg = e & (G - 1);
    }
    if (flag[gg]) Xg[so[4 * G + gg] + (int64_t)r * xs] = L0.x[rpts_xidx<T, M>(L0, G, (int)gg, (int)r)];
  }
}

/* The block shape: P threads a system, G systems (a power of two <= 32)
 * while G P <= 256 and the shared memory fits; 0 when n is out of reach. */
tridi_status rpts_plan(struct tridi_plan_s *plan, RptsPlan *rp, bool *fits) {
  const tridi_layout *L = &plan->lay;
  const size_t es = plan->esize;
  const bool f64 = plan->dtype == TRIDI_F64;
  memset(rp, 0, sizeof *rp);
  *fits = false;
  if (L->n < 2 || L->n > kRptsMaxN) return TRIDI_SUCCESS;
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, plan->device);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaGetDeviceProperties");
  const void *fn = f64 ? (const void *)rpts_tile<double> : (const void *)rpts_tile<float>;
  /* what a block may opt in to, less the kernel's static shared memory */
  const size_t smax = prop.sharedMemPerBlockOptin - kRptsStatic;
  const int n = (int)L->n;
  int nl[kRptsMaxLevels];
  const int lev = rpts_levels(n, nl);
  const int P = lev > 0 ? (n + kRptsM - 1) / kRptsM : 1;
  int G = 1;
  while (G < 32 && 2 * G * P <= 256 && rpts_smem_bytes(n, 2 * G, es) <= smax) G *= 2;
  const size_t smem = rpts_smem_bytes(n, G, es);
  if (smem > smax || G * P > kRptsMaxThreads) return TRIDI_SUCCESS;
  e = allow_smem(fn, smem);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaFuncSetAttribute");
  rp->threads = G * P;
  rp->smem = smem;
  set_layout_params(rp->k, L);
  lu_tile_params(rp->k, L, G);
  const tridi_status st = lu_fallback_plan(plan, &rp->fb);
  if (st) return st;
  *fits = true;
  return TRIDI_SUCCESS;
}

} /* namespace */
} /* namespace tridi_cuda */

/* ------------------------------------------------------------------------ */
/* The cuda_lu_partition row (C linkage)                                     */
/* ------------------------------------------------------------------------ */

extern "C" const char *tridi_cuda_rpts_applies(const struct tridi_plan_s *plan) {
  using namespace tridi_cuda;
  const tridi_layout *L = &plan->lay;
  int min_n = kRptsMinN;
#ifdef TRIDI_CUDA_TUNING
  /* measurement builds: TRIDI_CUDA_RP_MINN moves the smallest n (>= 2) */
  if (const char *e = getenv("TRIDI_CUDA_RP_MINN"))
    if (atoi(e) >= 2) min_n = atoi(e);
#endif
  if (L->n < min_n) return "n below 256: cuda_lu_partial is faster there (measured on the H200)";
  if (L->n > kRptsMaxN) return "n above the partitioned tile's limit (4096)";
  /* the shared memory of one system a block against the device's opt-in
   * limit (227 KiB on the H100/H200: every n; less elsewhere) */
  int optin = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, plan->device) != cudaSuccess) {
    (void)cudaGetLastError(); /* not sticky: leave no error behind */
    return "the device's shared-memory limit could not be queried";
  }
  if (rpts_smem_bytes((int)L->n, 1, plan->esize) + kRptsStatic > (size_t)optin)
    return "the tile of one system does not fit in shared memory";
  return NULL;
}

extern "C" tridi_status tridi_cuda_rpts_init(struct tridi_plan_s *plan) {
  using namespace tridi_cuda;
  RptsPlan *rp = (RptsPlan *)calloc(1, sizeof *rp);
  if (!rp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of host memory");
  plan->priv = rp;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_plan_create: cudaSetDevice(%d)", plan->device);
  bool fits = false;
  const tridi_status st = rpts_plan(plan, rp, &fits);
  if (st) return st;
  if (!fits)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "tridi_plan_create: the partitioned pivoting tile does not fit this device");
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_lu_partition_m%d_g%d_%s", kRptsM, rp->k.G,
           plan->dtype == TRIDI_F64 ? "f64" : "f32");
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_rpts_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  using namespace tridi_cuda;
  const RptsPlan *rp = (const RptsPlan *)plan->priv;
  const tridi_layout *L = &plan->lay;
  if (L->nsys == 0) return TRIDI_SUCCESS;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  cudaStream_t stream = (cudaStream_t)args->stream;
  int32_t *info = lu_fallback_info(rp->fb, args);
  LuParams p = rp->k;
  set_operands(p, args->op);
  const unsigned grid = (unsigned)((L->nsys + p.G - 1) / p.G);
  if (plan->dtype == TRIDI_F64) rpts_tile<double><<<grid, rp->threads, rp->smem, stream>>>(p, info);
  else rpts_tile<float><<<grid, rp->threads, rp->smem, stream>>>(p, info);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return cuda_error(e, "tridi_execute: launch of the cuda_lu_partition kernel");
  /* the rejected systems (info 1) by the exact elimination */
  e = lu_fallback_launch(plan, rp->fb, args, stream);
  if (e != cudaSuccess) return cuda_error(e, "tridi_execute: launch of the cuda_lu_partition fallback");
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_rpts_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
