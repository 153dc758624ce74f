/* Paper 001 on the GPU (Zhang, Cohen, Owens, PPoPP 2010): cyclic reduction
 * (CR), parallel cyclic reduction (PCR), recursive doubling (RD) and the
 * hybrids CR+PCR and CR+RD, one thread block per system, for any n and any
 * layout the descriptor admits.
 *
 * The arithmetic is that of the reference versions (src/ref/ref_algs.h has
 * the formulation and the info codes) so each kernel is tested against the
 * same algorithm; what differs is where the data live:
 *   - every CR level is stored compactly, even-indexed equations first, then
 *     odd-indexed ones ("even/odd storage"): a reduction step reads O[k],
 *     E[k], E[k+1] and back substitution E[k], O[k-1], O[k] with unit stride
 *     across the threads, so CR has no bank conflicts (paper 001 sec. 5.3.1);
 *     the intermediate system of the hybrids, and PCR's and RD's own, is
 *     stored in natural order;
 *   - levels live in shared memory; when a system is too large, the first
 *     levels live in the plan's device workspace (global memory) and only
 *     the levels that fit go on chip ("first reduction steps through global
 *     memory until the rest fits"); PCR's double buffer and RD's matrices go
 *     on chip when they fit, in the workspace otherwise;
 *   - back substitution writes x_l over D_l (the odd slots first, then the
 *     even ones), so x needs no storage of its own.
 * The hybrids switch to PCR / RD at the measured intermediate size in
 * src/cuda/scalar/cr_pcr_rd_tuning.h (TRIDI_CUDA_TUNING builds: env TRIDI_CUDA_ALG_SWITCH).
 *
 * Breakdown is detected in the kernel, step by step, exactly as the
 * reference defines it (block-wide atomicMin of the lowest failing row);
 * RD's and CR+RD's accuracy check runs in the same kernel before x is
 * stored (rd_check). */
#include "../common/device.cuh"
#include "../common/launch.h"
#include "alg_params.h" /* TRIDI_RD_BERR_C: the same accuracy check */
#include "cr_pcr_rd_tuning.h"
#include "cuda_backend.h"

#include <cuda_runtime.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

constexpr int kMaxLevels = 48;

struct AParams {
  const void *op[TRIDI_NUM_OPERANDS];
  int32_t *info;
  char *ws;            /* device workspace: ws_per_sys bytes per resident block */
  int64_t ws_per_sys;  /* bytes */
  int64_t n, nsys;
  int64_t as[TRIDI_NUM_OPERANDS];
  int64_t bext[TRIDI_MAX_RANK];
  int64_t bstride[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
  int nbatch;
  int rd;              /* inner solver: 0 PCR, 1 RD */
  int64_t sw;          /* CR steps while m > sw */
  /* level plan (same for every system): size, placement and offsets */
  int nlev;                      /* levels 0..nlev-1; the last is the intermediate */
  int64_t lsize[kMaxLevels];
  int lglobal[kMaxLevels];       /* 1: in the workspace */
  int64_t loff[kMaxLevels];      /* element offset of the level in its memory (per array) */
  int64_t gcap, scap;            /* elements per array in workspace / shared memory */
  int inner_global;              /* PCR/RD scratch in the workspace */
  int64_t inner_off;             /* element offset of the scratch (after 4 arrays) */
};

template <typename T>
__device__ __forceinline__ bool fin(T v) {
  return isfinite(v);
}
template <typename T>
__device__ __forceinline__ T absv(T v) {
  return v < (T)0 ? -v : v;
}

/* Pointers to the 4 arrays (a, b, c, d) of one level. */
template <typename T>
struct Lvl {
  T *a, *b, *c, *d;
  int64_t m;
  int64_t half; /* even/odd split: index of the first odd equation; 0: natural order */
  __device__ __forceinline__ int64_t at(int64_t i) const {
    return half ? ((i & 1) ? half + (i >> 1) : (i >> 1)) : i;
  }
};

/* Failure flags of the block (shared). */
struct Fail {
  unsigned long long zero, nonfin;
};

__device__ __forceinline__ void note(unsigned long long *slot, int64_t row) {
  atomicMin(slot, (unsigned long long)row);
}

/* Block-wide: 0 when no failure was noted; else the info code (zero before
 * non-finite).  Ends with a barrier. */
__device__ __forceinline__ int32_t step_code(Fail *f) {
  __syncthreads();
  const unsigned long long z = f->zero, q = f->nonfin;
  int32_t code = 0;
  if (z != ~0ull) code = (int32_t)(z + 1);
  else if (q != ~0ull) code = (int32_t)(-(int64_t)(q + 1));
  __syncthreads();
  return code;
}

/* Arithmetic of RD's accuracy check, rounded as the host's (no contraction
 * into FMA), so that the same x gets the same verdict as in ref_algs. */
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float sub_rn(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double sub_rn(double a, double b) { return __dsub_rn(a, b); }
/* Non-negative values (NaN included, above +Inf) ordered as their bits. */
__device__ __forceinline__ unsigned long long key(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long key(double v) {
  return (unsigned long long)__double_as_longlong(v);
}
__device__ __forceinline__ void unkey(unsigned long long k, float *v) {
  *v = __uint_as_float((unsigned int)k);
}
__device__ __forceinline__ void unkey(unsigned long long k, double *v) {
  *v = __longlong_as_double((long long)k);
}
template <typename T> struct Eps;
template <> struct Eps<float> { static constexpr float v = FLT_EPSILON; };
template <> struct Eps<double> { static constexpr double v = DBL_EPSILON; };

/* RD's accuracy check (src/core/alg_params.h, TRIDI_RD_BERR_C) on the whole
 * system: level 0 still holds a, b, c (a_0 = c_{n-1} = 0) and x over d, so
 * d is read again from the caller's array, which x has not been stored to
 * yet (in place too).  Block-wide maxima of |r_i|, row sums, |x_i| and
 * |d_i| in acc[].  Returns 0 or TRIDI_INFO_INACCURATE; ends with a barrier. */
template <typename T>
__device__ int32_t rd_check(const Lvl<T> &L, const T *gd, int64_t sd, int64_t n,
                            unsigned long long *acc) {
  const int tid = threadIdx.x, nt = blockDim.x;
  if (tid < 4) acc[tid] = 0;
  __syncthreads();
  unsigned long long kr = 0, ka = 0, kx = 0, kd = 0;
  for (int64_t i = tid; i < n; i += nt) {
    const int64_t q = L.at(i);
    const T xi = L.d[q], di = gd[i * sd];
    T r = sub_rn(mul_rn(L.b[q], xi), di);
    if (i > 0) r = add_rn(r, mul_rn(L.a[q], L.d[L.at(i - 1)]));
    if (i + 1 < n) r = add_rn(r, mul_rn(L.c[q], L.d[L.at(i + 1)]));
    const T ra = add_rn(add_rn(absv(L.a[q]), absv(L.b[q])), absv(L.c[q]));
    const unsigned long long k0 = key(fin(r) ? absv(r) : (T)INFINITY), k1 = key(ra),
                             k2 = key(absv(xi)), k3 = key(absv(di));
    kr = k0 > kr ? k0 : kr;
    ka = k1 > ka ? k1 : ka;
    kx = k2 > kx ? k2 : kx;
    kd = k3 > kd ? k3 : kd;
  }
  atomicMax(&acc[0], kr);
  atomicMax(&acc[1], ka);
  atomicMax(&acc[2], kx);
  atomicMax(&acc[3], kd);
  __syncthreads();
  T nr, na, nx, nd;
  unkey(acc[0], &nr);
  unkey(acc[1], &na);
  unkey(acc[2], &nx);
  unkey(acc[3], &nd);
  __syncthreads(); /* acc is reused by the next system */
  const T tol = mul_rn(mul_rn((T)TRIDI_RD_BERR_C, (T)n), Eps<T>::v);
  /* tol ||A|| first, as the reference (ra_accurate): ||A|| ||x|| alone may
   * overflow where the bound does not */
  const T bound = add_rn(mul_rn(mul_rn(tol, na), nx), mul_rn(tol, nd));
  return fin(nr) && nr <= bound ? 0 : TRIDI_INFO_INACCURATE;
}

template <typename T>
__global__ void k_alg001(AParams p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ Fail fail;
  __shared__ T x0_sh;
  __shared__ unsigned long long acc[4];
  T *sm = reinterpret_cast<T *>(smem_raw);
  const int tid = threadIdx.x, nt = blockDim.x;
  T *gbase = reinterpret_cast<T *>(p.ws + (int64_t)blockIdx.x * p.ws_per_sys);
  const int64_t n = p.n;

  for (int64_t s = blockIdx.x; s < p.nsys; s += gridDim.x) {
    int64_t off[5];
    tridi_dev_sys_offsets(p, s, off);
    if (n == 0) { /* empty systems: solved */
      if (tid == 0 && p.info) p.info[s] = 0;
      continue;
    }
    const T *ga = (const T *)p.op[0] + off[0];
    const T *gb = (const T *)p.op[1] + off[1];
    const T *gc = (const T *)p.op[2] + off[2];
    const T *gd = (const T *)p.op[3] + off[3];
    T *gx = (T *)p.op[4] + off[4];
    auto level = [&](int l) {
      Lvl<T> L;
      T *base = p.lglobal[l] ? gbase : sm;
      const int64_t cap = p.lglobal[l] ? p.gcap : p.scap;
      L.a = base + p.loff[l];
      L.b = base + cap + p.loff[l];
      L.c = base + 2 * cap + p.loff[l];
      L.d = base + 3 * cap + p.loff[l];
      L.m = p.lsize[l];
      L.half = (l == p.nlev - 1) ? 0 : (L.m + 1) / 2;
      return L;
    };
    if (tid == 0) {
      fail.zero = ~0ull;
      fail.nonfin = ~0ull;
    }
    __syncthreads();
    /* load level 0 and check the inputs (-row of the first non-finite) */
    {
      const Lvl<T> L = level(0);
      for (int64_t i = tid; i < n; i += nt) {
        const T ai = i > 0 ? ga[i * p.as[0]] : (T)0;
        const T bi = gb[i * p.as[1]];
        const T ci = i < n - 1 ? gc[i * p.as[2]] : (T)0;
        const T di = gd[i * p.as[3]];
        if (!(fin(ai) && fin(bi) && fin(ci) && fin(di))) note(&fail.nonfin, i);
        const int64_t j = L.at(i);
        L.a[j] = ai;
        L.b[j] = bi;
        L.c[j] = ci;
        L.d[j] = di;
      }
    }
    int32_t code = step_code(&fail);
    int64_t ls = 1;
    int lev = 0;
    /* CR forward reduction */
    for (; code == 0 && lev < p.nlev - 1; ++lev, ls *= 2) {
      const Lvl<T> L = level(lev), N = level(lev + 1);
      const int64_t m = L.m, m2 = N.m;
      /* divisors: every even equation (E[k]) */
      for (int64_t k = tid; 2 * k < m; k += nt)
        if (L.b[k] == (T)0) note(&fail.zero, (2 * k + 1) * ls - 1);
      code = step_code(&fail);
      if (code) break;
      for (int64_t k = tid; k < m2; k += nt) {
        /* j = 2k+1: O[k]; lo = 2k: E[k]; hi = 2k+2: E[k+1] */
        const int64_t jo = L.half + k;
        const T k1 = L.a[jo] / L.b[k];
        T a2 = -L.a[k] * k1, b2 = L.b[jo] - L.c[k] * k1, c2 = 0, d2 = L.d[jo] - L.d[k] * k1;
        if (2 * k + 2 < m) {
          const T k2 = L.c[jo] / L.b[k + 1];
          b2 = b2 - L.a[k + 1] * k2;
          d2 = d2 - L.d[k + 1] * k2;
          c2 = -L.c[k + 1] * k2;
        }
        const int64_t q = N.at(k);
        N.a[q] = a2;
        N.b[q] = b2;
        N.c[q] = c2;
        N.d[q] = d2;
        if (!(fin(a2) && fin(b2) && fin(c2) && fin(d2))) note(&fail.nonfin, (2 * k + 2) * ls - 1);
      }
      code = step_code(&fail);
    }
    /* intermediate system (natural order), m equations */
    if (code == 0) {
      const Lvl<T> L = level(lev);
      const int64_t m = L.m;
      T *scr = (p.inner_global ? gbase : sm) + p.inner_off;
      if (!p.rd) {
        /* PCR: double buffer (L, scr[4m]) */
        T *ca = L.a, *cb = L.b, *cc = L.c, *cd = L.d;
        T *na = scr, *nb = scr + m, *nc = scr + 2 * m, *nd = scr + 3 * m;
        for (int64_t st = 1; st < m && code == 0; st *= 2) {
          for (int64_t i = tid; i < m; i += nt) {
            if (i - st >= 0 && cb[i - st] == (T)0) note(&fail.zero, (i - st + 1) * ls - 1);
            if (i + st < m && cb[i + st] == (T)0) note(&fail.zero, (i + st + 1) * ls - 1);
          }
          code = step_code(&fail);
          if (code) break;
          for (int64_t i = tid; i < m; i += nt) {
            const int64_t lo = i - st, hi = i + st;
            T a2 = 0, b2 = cb[i], c2 = 0, d2 = cd[i];
            if (lo >= 0) {
              const T k1 = ca[i] / cb[lo];
              a2 = -ca[lo] * k1;
              b2 = b2 - cc[lo] * k1;
              d2 = d2 - cd[lo] * k1;
            }
            if (hi < m) {
              const T k2 = cc[i] / cb[hi];
              c2 = -cc[hi] * k2;
              b2 = b2 - ca[hi] * k2;
              d2 = d2 - cd[hi] * k2;
            }
            na[i] = a2;
            nb[i] = b2;
            nc[i] = c2;
            nd[i] = d2;
            if (!(fin(a2) && fin(b2) && fin(c2) && fin(d2))) note(&fail.nonfin, (i + 1) * ls - 1);
          }
          code = step_code(&fail);
          T *t;
          t = ca; ca = na; na = t;
          t = cb; cb = nb; nb = t;
          t = cc; cc = nc; nc = t;
          t = cd; cd = nd; nd = t;
        }
        if (code == 0) {
          for (int64_t i = tid; i < m; i += nt)
            if (cb[i] == (T)0) note(&fail.zero, (i + 1) * ls - 1);
          code = step_code(&fail);
          if (code == 0) {
            for (int64_t i = tid; i < m; i += nt)
              L.d[i] = cd[i] / cb[i]; /* cd may be L.d itself: same element, same thread */
            __syncthreads();
          }
        }
      } else {
        /* RD: scr = M1[6m], M2[6m] */
        T *M1 = scr, *M2 = scr + 6 * m;
        if (m == 1) {
          if (tid == 0) {
            if (L.b[0] == (T)0) fail.zero = (unsigned long long)(ls - 1);
            else M2[0] = L.d[0] / L.b[0];
          }
          code = step_code(&fail);
        } else {
          const int64_t nm = m - 1;
          for (int64_t j = tid; j < nm; j += nt)
            if (L.c[j] == (T)0) note(&fail.zero, (j + 1) * ls - 1);
          code = step_code(&fail);
          if (code == 0) {
            for (int64_t j = tid; j < nm; j += nt) {
              T *q = M1 + 6 * j;
              const T r = (T)1 / L.c[j];
              q[0] = -L.b[j] * r;
              q[1] = -L.a[j] * r;
              q[2] = L.d[j] * r;
              q[3] = 1;
              q[4] = 0;
              q[5] = 0;
            }
            __syncthreads();
            for (int64_t st = 1; st < nm; st *= 2) {
              for (int64_t j = tid; j < nm; j += nt) {
                const T *a = M1 + 6 * j;
                T *o = M2 + 6 * j;
                if (j < st) {
#pragma unroll
                  for (int k = 0; k < 6; ++k) o[k] = a[k];
                  continue;
                }
                const T *b = M1 + 6 * (j - st);
                o[0] = a[0] * b[0] + a[1] * b[3];
                o[1] = a[0] * b[1] + a[1] * b[4];
                o[2] = a[0] * b[2] + a[1] * b[5] + a[2];
                o[3] = a[3] * b[0] + a[4] * b[3];
                o[4] = a[3] * b[1] + a[4] * b[4];
                o[5] = a[3] * b[2] + a[4] * b[5] + a[5];
              }
              __syncthreads();
              T *t = M1;
              M1 = M2;
              M2 = t;
            }
            for (int64_t j = tid; j < nm; j += nt) {
              const T *q = M1 + 6 * j;
              if (!(fin(q[0]) && fin(q[1]) && fin(q[2]) && fin(q[3]) && fin(q[4]) && fin(q[5])))
                note(&fail.nonfin, (j + 1) * ls - 1);
            }
            code = step_code(&fail);
          }
          if (code == 0) {
            if (tid == 0) {
              const T *Lq = M1 + 6 * (nm - 1);
              const T al = L.a[m - 1], bl = L.b[m - 1], dl = L.d[m - 1];
              const T den = al * Lq[3] + bl * Lq[0];
              if (den == (T)0) fail.zero = (unsigned long long)(m * ls - 1);
              else x0_sh = (dl - al * Lq[5] - bl * Lq[2]) / den;
            }
            code = step_code(&fail);
          }
          if (code == 0) {
            /* x into M2 (free now) */
            const T x0 = x0_sh;
            for (int64_t j = tid; j < m; j += nt)
              M2[j] = j == 0 ? x0 : M1[6 * (j - 1)] * x0 + M1[6 * (j - 1) + 2];
            __syncthreads();
          }
        }
        if (code == 0) {
          for (int64_t i = tid; i < m; i += nt) L.d[i] = M2[i];
          __syncthreads();
        }
      }
    }
    /* CR back substitution: x_l over D_l */
    for (int l = lev - 1; code == 0 && l >= 0; --l) {
      const Lvl<T> L = level(l), N = level(l + 1);
      const int64_t m = L.m, m2 = N.m;
      for (int64_t k = tid; k < m2; k += nt) L.d[L.half + k] = N.d[N.at(k)];
      __syncthreads();
      for (int64_t k = tid; 2 * k < m; k += nt) {
        T r = L.d[k];
        if (k > 0) r = r - L.a[k] * L.d[L.half + k - 1];
        if (2 * k + 1 < m) r = r - L.c[k] * L.d[L.half + k];
        L.d[k] = r / L.b[k];
      }
      __syncthreads();
    }
    /* x finite?  RD: accurate?  then store */
    if (code == 0) {
      const Lvl<T> L = level(0);
      for (int64_t i = tid; i < n; i += nt)
        if (!fin(L.d[L.at(i)])) note(&fail.nonfin, i);
      code = step_code(&fail);
      if (code == 0 && p.rd) code = rd_check(L, gd, p.as[3], n, acc);
      if (code == 0 || code == TRIDI_INFO_INACCURATE)
        for (int64_t i = tid; i < n; i += nt) gx[i * p.as[4]] = L.d[L.at(i)];
    }
    if (tid == 0 && p.info) p.info[s] = code;
    __syncthreads();
  }
}

struct AlgPlan {
  AParams p;
  size_t smem;
  int threads;
  int grid;
};

const char *tag(tridi_alg alg) {
  switch (alg) {
    case TRIDI_ALG_CR: return "cr";
    case TRIDI_ALG_PCR: return "pcr";
    case TRIDI_ALG_RD: return "rd";
    case TRIDI_ALG_CR_PCR: return "cr_pcr";
    default: return "cr_rd";
  }
}

} /* namespace */

extern "C" const char *tridi_cuda_alg_applies(const struct tridi_plan_s *plan) {
  if (plan->lay.n < 1) return "n = 0";
  if (plan->lay.n > ((int64_t)1 << 40)) return "n above 2^40";
  return NULL;
}

extern "C" tridi_status tridi_cuda_alg_init(struct tridi_plan_s *plan) {
  const tridi_layout *Ly = &plan->lay;
  AlgPlan *ap = (AlgPlan *)calloc(1, sizeof *ap);
  if (!ap) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  plan->priv = ap;
  AParams &p = ap->p;
  const int64_t n = Ly->n > 0 ? Ly->n : 1;
  const size_t es = plan->esize;
  p.n = Ly->n;
  p.nsys = Ly->nsys;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.as[k] = Ly->axis_stride[k];
  p.nbatch = Ly->nbatch;
  for (int j = 0; j < Ly->nbatch; ++j) {
    p.bext[j] = Ly->bext[j];
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.bstride[k][j] = Ly->bstride[k][j];
  }
  const tridi_alg alg = plan->alg;
  p.rd = alg == TRIDI_ALG_RD || alg == TRIDI_ALG_CR_RD;
  p.sw = alg == TRIDI_ALG_CR ? 1
         : (alg == TRIDI_ALG_PCR || alg == TRIDI_ALG_RD) ? n
                                                           : tridi_cuda_alg_switch(alg, plan->dtype, n);
  /* levels */
  int nlev = 0;
  int64_t m = n;
  p.lsize[nlev++] = m;
  while (m > p.sw && nlev < kMaxLevels) {
    m /= 2;
    p.lsize[nlev++] = m;
  }
  p.nlev = nlev;
  const int64_t mi = m; /* intermediate size */
  const int64_t inner = p.rd ? 12 * mi : 4 * mi;
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, plan->device);
  if (e != cudaSuccess) return tridi_cuda::cuda_error(e, "tridi_plan_create: cudaGetDeviceProperties");
  const size_t smax = prop.sharedMemPerBlockOptin > 1024 ? prop.sharedMemPerBlockOptin - 1024 : 0;
  /* Placement: the fewest levels in global memory (the first ones) such that
   * the rest and the PCR/RD scratch fit on chip; if the scratch alone does
   * not fit, it goes to global memory too. */
  int Lg = 0, inner_g = 0;
  auto on_chip = [&](int lg) {
    int64_t on = 0;
    for (int l = lg; l < nlev; ++l) on += p.lsize[l];
    return on;
  };
  while (Lg < nlev && (size_t)(4 * on_chip(Lg) + inner) * es > smax) ++Lg;
  if ((size_t)(4 * on_chip(Lg) + inner) * es > smax) {
    inner_g = 1;
    Lg = 0;
    while (Lg < nlev && (size_t)(4 * on_chip(Lg)) * es > smax) ++Lg;
  }
  int64_t goff = 0, soff = 0;
  for (int l = 0; l < nlev; ++l) {
    p.lglobal[l] = l < Lg;
    p.loff[l] = l < Lg ? goff : soff;
    if (l < Lg) goff += p.lsize[l];
    else soff += p.lsize[l];
  }
  p.gcap = goff;
  p.scap = soff;
  p.inner_global = inner_g;
  p.inner_off = inner_g ? 4 * goff : 4 * soff;
  const int64_t g_elems = 4 * goff + (inner_g ? inner : 0);
  const int64_t s_elems = 4 * soff + (inner_g ? 0 : inner);
  ap->smem = (size_t)s_elems * es;
  int threads = 32;
  const int64_t work = p.rd || alg == TRIDI_ALG_PCR ? n : (n + 1) / 2;
  while (threads < 512 && threads < work) threads *= 2;
  ap->threads = threads;
  const int per_sm = 2048 / threads;
  int64_t grid = (int64_t)per_sm * prop.multiProcessorCount;
  if (grid > Ly->nsys) grid = Ly->nsys;
  if (grid < 1) grid = 1;
  ap->grid = (int)grid;
  p.ws_per_sys = ((g_elems * (int64_t)es) + 255) & ~(int64_t)255;
  plan->ws_bytes = (size_t)(p.ws_per_sys * grid);
  void (*fn)(AParams) = plan->dtype == TRIDI_F32 ? k_alg001<float> : k_alg001<double>;
  {
    tridi_cuda::DeviceGuard dg(plan->device); /* the attribute is per device */
    if (dg.err != cudaSuccess)
      return tridi_cuda::cuda_error(dg.err, "tridi_plan_create: cudaSetDevice(%d)", plan->device);
    e = tridi_cuda::allow_smem((const void *)fn, ap->smem);
    if (e != cudaSuccess) return tridi_cuda::cuda_error(e, "tridi_plan_create: cudaFuncSetAttribute");
  }
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_%s_%s_sw%lld_g%d%s", tag(alg),
           plan->dtype == TRIDI_F32 ? "f32" : "f64", (long long)p.sw, Lg, inner_g ? "i" : "");
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  const AlgPlan *ap = (const AlgPlan *)plan->priv;
  AParams p = ap->p;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.op[k] = args->op[k];
  p.info = args->info;
  p.ws = (char *)args->ws;
  cudaStream_t st = (cudaStream_t)args->stream;
  tridi_cuda::DeviceGuard dg(plan->device); /* the workspace's device */
  if (dg.err != cudaSuccess) return tridi_cuda::cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  if (plan->dtype == TRIDI_F32)
    k_alg001<float><<<ap->grid, ap->threads, ap->smem, st>>>(p);
  else
    k_alg001<double><<<ap->grid, ap->threads, ap->smem, st>>>(p);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return tridi_cuda::cuda_error(e, "tridi_execute: kernel launch");
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_alg_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
