/* Thomas on the GPU with one thread per system, three ways of reaching the
 * data (paper 000 sec. 2, paper 002), as explicit algorithm choices:
 *
 *   TRIDI_ALG_THOMAS          no transposition: each thread walks its system
 *                             through device memory with the layout's
 *                             strides.  On interleaved data (row i of all
 *                             systems together) a warp's loads are coalesced
 *                             (cuThomasBatch, paper 002 "full-interleaved");
 *                             on contiguous data ("flat") they are not;
 *   TRIDI_ALG_THOMAS_SHARED   a warp takes 32 systems and walks them in
 *                             tiles of 16 rows: the tile is loaded with
 *                             coalesced reads along the rows, transposed
 *                             through shared memory (32 x 17 per operand, no
 *                             bank conflicts), swept in registers, and c', d'
 *                             go back the same way (d' into x, c' into the
 *                             workspace), then the backward sweep does the
 *                             same from the last tile;
 *   TRIDI_ALG_THOMAS_SHUFFLE  the same tiles transposed in registers with
 *                             warp shuffles (4 butterfly stages of
 *                             __shfl_xor_sync per 16 x 16 half-warp block)
 *                             instead of shared memory.
 *
 * All three do the reference Thomas recurrences (src/ref/ref_thomas.c),
 * with its checks and info codes; x of a failed system is unspecified.
 * Growth detection as in the reference: the running maxima of
 * N_i = |a_i| + |a_i c'_{i-1}| + |u_i| + |c_i| and D_i = |a_i| + |b_i| + |c_i|
 * in registers; a system that does not break down and has max N >
 * TRIDI_GROWTH_LIMIT max D gets TRIDI_INFO_INACCURATE (x written) when
 * the plan flags growth (plan->growth: not with assume_dominant, whose
 * plans launch the instantiations without the detection, GROW = false). */
#include "../common/device.cuh"
#include "../common/launch.h"
#include "cuda_backend.h"

#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

namespace {

struct TParams {
  const void *op[TRIDI_NUM_OPERANDS];
  int32_t *info;
  void *ws;
  int64_t n, nsys;
  int64_t as[TRIDI_NUM_OPERANDS];
  int64_t bext[TRIDI_MAX_RANK];
  int64_t bstride[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
  int nbatch;
  int64_t wstride; /* TRIDI_ALG_THOMAS: workspace row stride (elements) */
  int growth;      /* plan->growth: execute launches the kernels with the detection */
};

/* Row i's growth terms (src/ref/ref_thomas.c, the same operations in the
 * same order): acp = a_i c'_{i-1}, m = b_i - acp the pivot */
template <typename T>
__device__ __forceinline__ void growth_row(T ai, T bi, T ci, T acp, T m, T &nmax, T &dmax) {
  const T t = fabs(ai) + fabs(ci);
  const T ni = (t + fabs(acp)) + fabs(m);
  const T di_ = t + fabs(bi);
  nmax = ni > nmax ? ni : nmax;
  dmax = di_ > dmax ? di_ : dmax;
}

/* ---- one thread per system, no transposition ---------------------------- */

template <typename T, bool GROW>
__global__ void k_thomas_thread(TParams p) {
  const int64_t nthr = (int64_t)gridDim.x * blockDim.x;
  const int64_t n = p.n;
  for (int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; s < p.nsys; s += nthr) {
    const int64_t slot = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    T *w = (T *)p.ws + slot; /* c'_i at w[i * wstride] */
    int64_t off[5];
    tridi_dev_sys_offsets(p, s, off);
    const T *a = (const T *)p.op[0] + off[0], *b = (const T *)p.op[1] + off[1];
    const T *c = (const T *)p.op[2] + off[2], *d = (const T *)p.op[3] + off[3];
    T *x = (T *)p.op[4] + off[4];
    int32_t code = 0;
    T cp = 0, dp = 0, nmax = 0, dmax = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T ai = i > 0 ? a[i * p.as[0]] : (T)0;
      const T bi = b[i * p.as[1]];
      const T ci = i < n - 1 ? c[i * p.as[2]] : (T)0;
      const T di = d[i * p.as[3]];
      if (!isfinite(ai) || !isfinite(bi) || !isfinite(ci) || !isfinite(di)) {
        code = (int32_t)(-(i + 1));
        break;
      }
      const T acp = GROW ? ai * cp : (T)0;
      const T m = GROW ? bi - acp : bi - ai * cp;
      if (m == (T)0) {
        code = (int32_t)(i + 1);
        break;
      }
      if (GROW) growth_row<T>(ai, bi, ci, acp, m, nmax, dmax);
      const T r = (T)1 / m;
      cp = ci * r;
      dp = (di - ai * dp) * r;
      if (!isfinite(cp) || !isfinite(dp) || !isfinite(r)) {
        code = (int32_t)(-(i + 1));
        break;
      }
      w[i * p.wstride] = cp;
      x[i * p.as[4]] = dp;
    }
    if (code == 0 && n > 0) {
      T xn = x[(n - 1) * p.as[4]];
      for (int64_t i = n - 2; i >= 0; --i) {
        xn = x[i * p.as[4]] - w[i * p.wstride] * xn;
        if (!isfinite(xn)) {
          code = (int32_t)(-(i + 1));
          break;
        }
        x[i * p.as[4]] = xn;
      }
    }
    if (GROW && code == 0 && nmax > (T)TRIDI_GROWTH_LIMIT * dmax) code = TRIDI_INFO_INACCURATE;
    if (p.info) p.info[s] = code;
  }
}

/* ---- tiled: a warp, 32 systems, tiles of 16 rows -------------------------- */

constexpr int TR = 16;         /* rows per tile */
constexpr int kWarps = 4;      /* warps per block */

/* Transpose within each half-warp: on entry lane h of half H holds in v[k]
 * row (row0 + h) of system 16H + k; on exit row (row0 + k) of system 16H + h.
 * (Swap bit b of (k, h) where they differ; all 4 bits: (k, h) -> (h, k).) */
template <typename T>
__device__ __forceinline__ void shfl_transpose(T (&v)[TR], int lane) {
#pragma unroll
  for (int b = TR / 2; b >= 1; b >>= 1) {
#pragma unroll
    for (int k = 0; k < TR; ++k) {
      if (k & b) continue;
      const bool hi = (lane & b) != 0;
      const T send = hi ? v[k] : v[k | b];
      const T recv = __shfl_xor_sync(0xffffffffu, send, b);
      if (hi) v[k] = recv;
      else v[k | b] = recv;
    }
  }
}

template <typename T, bool SHUFFLE>
struct Tile {
  /* shared staging of one warp: 32 systems x (TR + 1) */
  T *sm;
  int lane;
  /* Load operand rows row0 .. row0+TR-1 of the warp's 32 systems so that
   * v[k] = row row0 + k of this lane's system.  base[q]: element (row 0) of
   * system q of the warp (lane q holds its own); st: row stride. */
  __device__ __forceinline__ void load(T (&v)[TR], const T *mybase, int64_t st, int64_t row0,
                                       int64_t n, bool active, bool zero_first, bool zero_last) {
    const int h = lane & (TR - 1), H = lane >> 4;
    const int64_t row = row0 + h;
    if (SHUFFLE) {
#pragma unroll
      for (int k = 0; k < TR; ++k) {
        const int q = 16 * H + k; /* system of the warp this load serves */
        const T *bq = (const T *)__shfl_sync(0xffffffffu, (unsigned long long)mybase, q);
        const bool aq = __shfl_sync(0xffffffffu, (int)active, q) != 0;
        T val = 0;
        if (aq && row < n && !(zero_first && row == 0) && !(zero_last && row == n - 1))
          val = bq[row * st];
        v[k] = val;
      }
      shfl_transpose<T>(v, lane);
    } else {
#pragma unroll
      for (int k = 0; k < TR; ++k) {
        const int q = 16 * H + k;
        const T *bq = (const T *)__shfl_sync(0xffffffffu, (unsigned long long)mybase, q);
        const bool aq = __shfl_sync(0xffffffffu, (int)active, q) != 0;
        T val = 0;
        if (aq && row < n && !(zero_first && row == 0) && !(zero_last && row == n - 1))
          val = bq[row * st];
        sm[q * (TR + 1) + h] = val;
      }
      __syncwarp();
#pragma unroll
      for (int k = 0; k < TR; ++k) v[k] = sm[lane * (TR + 1) + k];
      __syncwarp();
    }
  }
  /* The reverse: v[k] = row row0 + k of this lane's system -> memory. */
  __device__ __forceinline__ void store(T (&v)[TR], T *mybase, int64_t st, int64_t row0, int64_t n,
                                        bool active) {
    const int h = lane & (TR - 1), H = lane >> 4;
    const int64_t row = row0 + h;
    if (SHUFFLE) {
      shfl_transpose<T>(v, lane);
#pragma unroll
      for (int k = 0; k < TR; ++k) {
        const int q = 16 * H + k;
        T *bq = (T *)__shfl_sync(0xffffffffu, (unsigned long long)mybase, q);
        const bool aq = __shfl_sync(0xffffffffu, (int)active, q) != 0;
        if (aq && row < n) bq[row * st] = v[k];
      }
      shfl_transpose<T>(v, lane); /* restore the caller's view */
    } else {
#pragma unroll
      for (int k = 0; k < TR; ++k) sm[lane * (TR + 1) + k] = v[k];
      __syncwarp();
#pragma unroll
      for (int k = 0; k < TR; ++k) {
        const int q = 16 * H + k;
        T *bq = (T *)__shfl_sync(0xffffffffu, (unsigned long long)mybase, q);
        const bool aq = __shfl_sync(0xffffffffu, (int)active, q) != 0;
        if (aq && row < n) bq[row * st] = sm[q * (TR + 1) + h];
      }
      __syncwarp();
    }
  }
};

template <typename T, bool SHUFFLE, bool GROW>
__global__ void __launch_bounds__(32 * kWarps) k_thomas_tiled(TParams p) {
  __shared__ T sm_all[SHUFFLE ? 1 : kWarps * 32 * (TR + 1)];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  Tile<T, SHUFFLE> tl;
  tl.sm = sm_all + (SHUFFLE ? 0 : warp * 32 * (TR + 1));
  tl.lane = lane;
  const int64_t n = p.n;
  const int64_t ngroups = (p.nsys + 31) / 32;
  for (int64_t g = (int64_t)blockIdx.x * kWarps + warp; g < ngroups;
       g += (int64_t)gridDim.x * kWarps) {
    const int64_t s = g * 32 + lane;
    const bool in = s < p.nsys;
    int64_t off[5] = {0, 0, 0, 0, 0};
    if (in) tridi_dev_sys_offsets(p, s, off);
    const T *a = (const T *)p.op[0] + off[0], *b = (const T *)p.op[1] + off[1];
    const T *c = (const T *)p.op[2] + off[2], *d = (const T *)p.op[3] + off[3];
    T *x = (T *)p.op[4] + off[4];
    T *w = (T *)p.ws + (in ? s : 0) * n; /* c' of this system, contiguous */
    int32_t code = 0;
    T cp = 0, dp = 0, nmax = 0, dmax = 0;
    /* forward sweep */
    for (int64_t row0 = 0; row0 < n; row0 += TR) {
      T va[TR], vb[TR], vc[TR], vd[TR];
      tl.load(va, a, p.as[0], row0, n, in, true, false);
      tl.load(vb, b, p.as[1], row0, n, in, false, false);
      tl.load(vc, c, p.as[2], row0, n, in, false, true);
      tl.load(vd, d, p.as[3], row0, n, in, false, false);
#pragma unroll
      for (int k = 0; k < TR; ++k) {
        const int64_t i = row0 + k;
        if (!in || code != 0 || i >= n) continue;
        const T ai = va[k], bi = vb[k], ci = vc[k], di = vd[k];
        if (!isfinite(ai) || !isfinite(bi) || !isfinite(ci) || !isfinite(di)) {
          code = (int32_t)(-(i + 1));
          continue;
        }
        const T acp = GROW ? ai * cp : (T)0;
        const T m = GROW ? bi - acp : bi - ai * cp;
        if (m == (T)0) {
          code = (int32_t)(i + 1);
          continue;
        }
        if (GROW) growth_row<T>(ai, bi, ci, acp, m, nmax, dmax);
        const T r = (T)1 / m;
        cp = ci * r;
        dp = (di - ai * dp) * r;
        if (!isfinite(cp) || !isfinite(dp) || !isfinite(r)) {
          code = (int32_t)(-(i + 1));
          continue;
        }
        vc[k] = cp;
        vd[k] = dp;
      }
      tl.store(vc, w, 1, row0, n, in);
      tl.store(vd, x, p.as[4], row0, n, in);
    }
    /* back substitution, last tile first */
    T xn = 0;
    const int64_t last0 = n > 0 ? ((n - 1) / TR) * TR : 0;
    for (int64_t row0 = last0; n > 0 && row0 >= 0; row0 -= TR) {
      T vc[TR], vx[TR];
      tl.load(vc, w, 1, row0, n, in, false, false);
      tl.load(vx, x, p.as[4], row0, n, in, false, false);
#pragma unroll
      for (int k = TR - 1; k >= 0; --k) {
        const int64_t i = row0 + k;
        if (!in || code != 0 || i >= n) continue;
        if (i == n - 1) {
          xn = vx[k];
          continue;
        }
        xn = vx[k] - vc[k] * xn;
        if (!isfinite(xn)) {
          code = (int32_t)(-(i + 1));
          continue;
        }
        vx[k] = xn;
      }
      tl.store(vx, x, p.as[4], row0, n, in && code == 0);
    }
    if (GROW && code == 0 && nmax > (T)TRIDI_GROWTH_LIMIT * dmax) code = TRIDI_INFO_INACCURATE;
    if (in && p.info) p.info[s] = code;
  }
}

struct TPlan {
  TParams p;
  int grid, threads;
  int kind; /* 0 thread, 1 shared, 2 shuffle */
};

/* The plan's kernel, with the growth detection (GROW: plan->growth) or
 * without it (assume_dominant: the kernels as if there were none) */
template <bool GROW>
void launch_thomas(const TPlan *tp, bool f32, const TParams &p, cudaStream_t st) {
  if (tp->kind == 0) {
    if (f32) k_thomas_thread<float, GROW><<<tp->grid, tp->threads, 0, st>>>(p);
    else k_thomas_thread<double, GROW><<<tp->grid, tp->threads, 0, st>>>(p);
  } else if (tp->kind == 1) {
    if (f32) k_thomas_tiled<float, false, GROW><<<tp->grid, tp->threads, 0, st>>>(p);
    else k_thomas_tiled<double, false, GROW><<<tp->grid, tp->threads, 0, st>>>(p);
  } else {
    if (f32) k_thomas_tiled<float, true, GROW><<<tp->grid, tp->threads, 0, st>>>(p);
    else k_thomas_tiled<double, true, GROW><<<tp->grid, tp->threads, 0, st>>>(p);
  }
}

} /* namespace */

extern "C" const char *tridi_cuda_thomas_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every scalar problem */
  return NULL;
}

extern "C" tridi_status tridi_cuda_thomas_init(struct tridi_plan_s *plan) {
  TPlan *tp = (TPlan *)calloc(1, sizeof *tp);
  if (!tp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  plan->priv = tp;
  const tridi_layout *L = &plan->lay;
  TParams &p = tp->p;
  p.n = L->n;
  p.nsys = L->nsys;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.as[k] = L->axis_stride[k];
  p.nbatch = L->nbatch;
  p.growth = plan->growth;
  for (int j = 0; j < L->nbatch; ++j) {
    p.bext[j] = L->bext[j];
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.bstride[k][j] = L->bstride[k][j];
  }
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, plan->device);
  if (e != cudaSuccess) return tridi_cuda::cuda_error(e, "tridi_plan_create: cudaGetDeviceProperties");
  const size_t es = plan->esize;
  const int64_t n = L->n > 0 ? L->n : 1;
  if (plan->alg == TRIDI_ALG_THOMAS) {
    tp->kind = 0;
    tp->threads = 128;
    int64_t slots = (int64_t)prop.multiProcessorCount * 2048;
    if (slots > L->nsys) slots = L->nsys;
    if (slots < 1) slots = 1;
    tp->grid = (int)((slots + 127) / 128);
    p.wstride = (int64_t)tp->grid * 128;
    plan->ws_bytes = (size_t)(p.wstride * n) * es;
  } else {
    tp->kind = plan->alg == TRIDI_ALG_THOMAS_SHARED ? 1 : 2;
    tp->threads = 32 * kWarps;
    const int64_t groups = (L->nsys + 31) / 32;
    int64_t blocks = (groups + kWarps - 1) / kWarps;
    if (blocks > (int64_t)prop.multiProcessorCount * 64) blocks = (int64_t)prop.multiProcessorCount * 64;
    tp->grid = (int)(blocks > 0 ? blocks : 1);
    plan->ws_bytes = (size_t)(groups * 32 * n) * es; /* c', contiguous per system */
  }
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_%s_%s",
           tp->kind == 0 ? "thread" : tp->kind == 1 ? "shared_t16" : "shuffle_t16",
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_thomas_execute(const struct tridi_plan_s *plan,
                                                  const tridi_args *args) {
  const TPlan *tp = (const TPlan *)plan->priv;
  TParams p = tp->p;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.op[k] = args->op[k];
  p.info = args->info;
  p.ws = args->ws;
  cudaStream_t st = (cudaStream_t)args->stream;
  const bool f32 = plan->dtype == TRIDI_F32;
  tridi_cuda::DeviceGuard dg(plan->device); /* the workspace's device */
  if (dg.err != cudaSuccess) return tridi_cuda::cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  if (p.growth) launch_thomas<true>(tp, f32, p, st);
  else launch_thomas<false>(tp, f32, p, st);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return tridi_cuda::cuda_error(e, "tridi_execute: kernel launch");
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_thomas_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
