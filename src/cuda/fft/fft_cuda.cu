/* The FFT's CUDA backend: plans the passes of the multi-pass Stockham FFT
 * (stockham.cuh) from the tuning table and enqueues them on the caller's
 * stream (no synchronisation, no allocation: capturable into a graph).
 *
 * Planning (paper 004, section 3): the tuning table below gives, per
 * compute capability and dtype, the multi-pass tile (2^tile_log2 elements a
 * block), the largest one-pass transform, the one-pass tile and the points
 * a thread (2^p_log2) of the register kernel (stockham_reg.cuh).
 * n = log2 N <= one_log2: one pass (R = N, max(one-pass tile, N) elements,
 * several transforms a block).  Otherwise m = ceil(n / multi_log2) passes
 * with balanced radices (the first ones one digit larger), multi_log2 =
 * tile_log2 - min_groups_log2 so that every multi-pass tile holds at least
 * 2^min_groups_log2 groups: runs of 64 contiguous bytes in global memory.
 * A pass of radix R >= 2^p_log2 whose block has at most 512 threads runs
 * the register kernel; the others (N < 2^p_log2) stockham.cuh's kernel.  Pass i reads the input
 * (i = 0) or scratch, writes scratch or the output (last pass): scratch
 * buffer i % 2 of N * batch elements, two where m >= 3, so that in place
 * (in == out) the input is only read by the first pass and the output only
 * written by the last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cluster.cuh"
#include "common/launch.h"
#include "fft/stockham.cuh"
#include "fft/stockham_reg.cuh"
#include "fft_internal.h"

namespace {

using tridi_fft::pass_args;

/* The tuning table: per compute capability (major; 0 = any other) and
 * dtype, the multi-pass tile (2^tile_log2 elements a block, stockham.cuh's
 * kernel: threads = tile / 16, in dynamic shared memory with up to 2^(tile
 * - 1) twiddles after it), the least groups per tile of a multi-pass plan
 * (2^min_groups_log2: runs of 64 bytes), the largest one-pass n, the
 * one-pass tile, the register kernel's points a thread (0: stockham.cuh's
 * kernel for every pass) and its registers a thread (__maxnreg__; 0: the
 * compiler's choice under a 512-thread bound).  H200 (docs/perf-log.md,
 * "FFT: the R-point DFTs in registers" and "FFT: registers for
 * occupancy"): c32 takes 16 points a thread in at most 80 registers (100
 * uncapped: two 256-thread blocks an SM, three with the cap and 100 bytes
 * spilled; one pass 74-96 % of copy, multi-pass 59-86 % a pass against
 * 70-88 / 55-76 % uncapped) and multi-pass tiles of 2^12 with runs of 32
 * bytes (52-71 % a pass against 43-61 % with 2^13 tiles, before the cap);
 * c64 takes 8 points a thread in at most 64 registers (81 uncapped; 73-95 %
 * one pass, 63-91 % a pass, against stockham.cuh's 26-44 %; 16 points
 * spill).  sm_80 and the others: the same choices, not measured.  Builds with
 * TRIDI_CUDA_TUNING read TRIDI_FFT_{TILE,MIN_GROUPS,ONE,ONE_TILE,P}_LOG2,
 * TRIDI_FFT_MAXREG (0 or the table's cap), TRIDI_FFT_V1=1 (stockham.cuh's
 * kernel for every pass) and TRIDI_FFT_NOMATH=1 (the register kernel
 * without its arithmetic: the time of its loads, exchanges and stores;
 * wrong results) from the environment. */
struct fft_tuning {
  int cc_major;
  tridi_dtype dtype;
  int tile_log2, min_groups_log2, one_log2, one_tile_log2, p_log2;
  int maxreg; /* the register kernel's registers a thread (0: the compiler's choice) */
};
const fft_tuning tuning_table[] = {
    {9, TRIDI_C32, 12, 2, 13, 12, 4, 80}, {9, TRIDI_C64, 12, 2, 12, 11, 3, 64},
    {8, TRIDI_C32, 12, 2, 13, 12, 4, 80}, {8, TRIDI_C64, 12, 2, 12, 11, 3, 64},
    {0, TRIDI_C32, 12, 2, 12, 12, 4, 80}, {0, TRIDI_C64, 11, 2, 11, 11, 3, 64},
};

constexpr int kMaxPasses = 8;

struct cuda_fft {
  int tile_log2, passes;
  int log_r[kMaxPasses];
  int log_tile[kMaxPasses];    /* the pass's tile: 2^log_tile elements a block */
  int p_log2;                  /* register kernel: 2^p_log2 points a thread */
  const void *reg[kMaxPasses]; /* the pass's stockham_reg kernel (nullptr: stockham.cuh's) */
  void *tw;                    /* w_Rmax^e, e < Rmax (forward), for stockham_reg */
  int log_rmax;
  int nomath; /* measurement builds: TRIDI_FFT_NOMATH=1 (wrong results, the data movement's time) */
  int cl[kMaxPasses]; /* measurement builds: the pass's tile over 2^cl blocks of a cluster
                        (TRIDI_FFT_CLUSTER_LOG2 where one block cannot hold it; else 0) */
  void *scratch[2];
  size_t scratch_bytes;
};

const fft_tuning *find_tuning(int major, tridi_dtype dt) {
  for (const fft_tuning &t : tuning_table)
    if ((t.cc_major == major || t.cc_major == 0) && t.dtype == dt) return &t;
  return nullptr;
}

/* one kernel instantiation: its tile, threads = tile / 16 */
template <class T, int TILE>
cudaError_t launch_pass(const pass_args &a, cudaStream_t s) {
  constexpr int THREADS = TILE / 16;
  const int log_g = __builtin_ctz(TILE) - a.log_r;
  const int64_t blocks = (a.total + ((int64_t)1 << log_g) - 1) >> log_g;
  const size_t smem =
      (TILE + (a.log_r ? (1 << a.log_r) / 2 : 1)) * sizeof(typename tridi_fft::cplx<T>::type);
  tridi_fft::stockham_pass<T, TILE, THREADS><<<(unsigned)blocks, THREADS, smem, s>>>(a);
  return cudaGetLastError();
}

template <class T, int TILE>
cudaError_t allow_smem() {
  constexpr int THREADS = TILE / 16;
  return tridi_cuda::allow_smem((const void *)tridi_fft::stockham_pass<T, TILE, THREADS>,
                                (TILE + TILE / 2) * sizeof(typename tridi_fft::cplx<T>::type));
}

/* The register kernel of (T, P, register cap, cluster) for log2 R = lr
 * (nullptr where not compiled: c32 P = 8 uncapped and P = 16 uncapped or
 * at 80 registers, c64 P = 8 uncapped or at 64; the cluster kernels, in
 * tuning builds, at the caps, for tiles of up to 8 blocks of 2^12 points:
 * c32 R <= 2^15, c64 2^14) */
template <class T, int LOG_P, int MAXREG, bool CL, int LR>
const void *reg_kernel(int lr) {
  constexpr int kMaxLogR = (sizeof(T) == 4 ? 13 : 12) + (CL ? 2 : 0);
  if constexpr (LR > kMaxLogR) {
    (void)lr;
    return nullptr;
  } else if (lr != LR) {
    return reg_kernel<T, LOG_P, MAXREG, CL, LR + 1>(lr);
  } else if constexpr (CL) {
    return (const void *)tridi_fft::stockham_reg_cluster<T, LR, LOG_P, MAXREG>;
  } else if constexpr (MAXREG == 0) {
    return (const void *)tridi_fft::stockham_reg<T, LR, LOG_P>;
  } else {
    return (const void *)tridi_fft::stockham_reg_cap<T, LR, LOG_P, MAXREG>;
  }
}
/* the uncapped kernel (maxreg 0) or the one at the table's cap CAP */
template <class T, int LOG_P, int CAP>
const void *reg_kernel_capped(int maxreg, int lr) {
  return maxreg == 0     ? reg_kernel<T, LOG_P, 0, false, LOG_P>(lr)
         : maxreg == CAP ? reg_kernel<T, LOG_P, CAP, false, LOG_P>(lr)
                         : nullptr;
}
const void *reg_kernel_of(tridi_dtype dt, int p_log2, int maxreg, bool cluster, int lr) {
  if (lr < p_log2) return nullptr;
  if (cluster) { /* tuning builds: the caps of the table only */
#ifdef TRIDI_CUDA_TUNING
    if (dt == TRIDI_C32)
      return p_log2 == 4 && maxreg == 80 ? reg_kernel<float, 4, 80, true, 4>(lr) : nullptr;
    return p_log2 == 3 && maxreg == 64 ? reg_kernel<double, 3, 64, true, 3>(lr) : nullptr;
#else
    return nullptr;
#endif
  }
  if (dt == TRIDI_C32) {
    if (p_log2 == 3) return reg_kernel<float, 3, 0, false, 3>(lr); /* 64 registers, below any cap */
    return p_log2 == 4 ? reg_kernel_capped<float, 4, 80>(maxreg, lr) : nullptr;
  }
  /* c64: 8 points a thread only (16 spill at the 512-thread bound) */
  return p_log2 == 3 ? reg_kernel_capped<double, 3, 64>(maxreg, lr) : nullptr;
}
/* the register kernel's shared memory for a block of 2^log_tile elements:
 * its padded tile, and in a cluster a second unpadded one (the exchange's
 * buffer B, stockham_reg.cuh) */
size_t reg_smem(tridi_dtype dt, int log_tile, bool cluster = false) {
  const size_t esz = tridi_dtype_size(dt), tile = (size_t)1 << log_tile;
  return (tile + tile / (128 / esz) + (cluster ? tile : 0)) * esz;
}

/* the kernel of (dtype, tile): launch it, or (a == nullptr) raise its
 * dynamic shared memory limit */
cudaError_t dispatch(tridi_dtype dt, int tile_log2, const pass_args *a, cudaStream_t s) {
  if (dt == TRIDI_C32) switch (tile_log2) {
      case 12:
        return a ? launch_pass<float, 4096>(*a, s) : allow_smem<float, 4096>();
      case 13:
        return a ? launch_pass<float, 8192>(*a, s) : allow_smem<float, 8192>();
      case 14:
        return a ? launch_pass<float, 16384>(*a, s) : allow_smem<float, 16384>();
    }
  else
    switch (tile_log2) {
      case 11:
        return a ? launch_pass<double, 2048>(*a, s) : allow_smem<double, 2048>();
      case 12:
        return a ? launch_pass<double, 4096>(*a, s) : allow_smem<double, 4096>();
      case 13:
        return a ? launch_pass<double, 8192>(*a, s) : allow_smem<double, 8192>();
    }
  return cudaErrorInvalidValue;
}

} /* namespace */

#ifdef TRIDI_CUDA_TUNING
void env_int(const char *name, int *v) {
  if (const char *e = getenv(name))
    if (*e) *v = atoi(e);
}
#endif

extern "C" tridi_status tridi_cuda_fft_init(struct tridi_fft_plan_s *plan) {
  static const char *fn = "tridi_fft_plan_create";
  tridi_cuda::DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess)
    return tridi_cuda::cuda_error(dg.err, "%s: cudaSetDevice(%d)", fn, plan->device);
  int major = 0;
  cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, plan->device);
  if (e != cudaSuccess) return tridi_cuda::cuda_error(e, "%s: cudaDeviceGetAttribute", fn);
  const fft_tuning *tp = find_tuning(major, plan->dtype);
  if (!tp)
    return tridi_set_error(TRIDI_ERR_INTERNAL, "%s: no FFT tuning row for %s", fn,
                           tridi_dtype_name(plan->dtype));
  fft_tuning t = *tp;
  bool v1_only = false;
#ifdef TRIDI_CUDA_TUNING
  env_int("TRIDI_FFT_TILE_LOG2", &t.tile_log2);
  env_int("TRIDI_FFT_MIN_GROUPS_LOG2", &t.min_groups_log2);
  env_int("TRIDI_FFT_ONE_LOG2", &t.one_log2);
  env_int("TRIDI_FFT_ONE_TILE_LOG2", &t.one_tile_log2);
  env_int("TRIDI_FFT_P_LOG2", &t.p_log2);
  env_int("TRIDI_FFT_MAXREG", &t.maxreg);
  if (const char *env = getenv("TRIDI_FFT_V1")) v1_only = atoi(env) != 0;
  int nomath = 0;
  env_int("TRIDI_FFT_NOMATH", &nomath);
  if (v1_only) t.one_log2 = t.tile_log2;
#endif
  int cl = 0; /* a tile over 2^cl blocks of a thread-block cluster (tuning builds) */
#ifdef TRIDI_CUDA_TUNING
  env_int("TRIDI_FFT_CLUSTER_LOG2", &cl);
  if (cl < 0 || cl > 3 || (cl > 0 && (major < 9 || v1_only || t.p_log2 == 0)))
    return tridi_set_error(
        TRIDI_ERR_NOT_SUPPORTED,
        "%s: TRIDI_FFT_CLUSTER_LOG2=%d needs 0..3, sm_90 and the register kernel", fn, cl);
#endif
  cuda_fft *c = (cuda_fft *)calloc(1, sizeof *c);
  if (!c) return tridi_set_error(TRIDI_ERR_ALLOC, "%s: cannot allocate the CUDA plan", fn);
  plan->cuda = c;
  c->tile_log2 = t.tile_log2;
  c->p_log2 = t.p_log2;
#ifdef TRIDI_CUDA_TUNING
  c->nomath = nomath;
#endif
  e = dispatch(plan->dtype, t.tile_log2, nullptr, nullptr);
  if (e != cudaSuccess)
    return tridi_cuda::cuda_error(e, "%s: the FFT kernel of 2^%d %s elements a block", fn,
                                  t.tile_log2, tridi_dtype_name(plan->dtype));
  const int n = plan->log2n;
  /* with clusters (tuning builds): one pass to the one-pass tile of 2^cl
   * blocks, multi-pass tiles of 2^cl blocks; a pass whose groups one
   * block's tile holds runs without the cluster */
  const int multi = t.tile_log2 + cl - t.min_groups_log2;
  if (n <= (cl ? t.one_tile_log2 + cl : t.one_log2)) {
    c->passes = 1;
    c->log_r[0] = n;
    c->cl[0] = n > t.one_tile_log2 ? cl : 0;
    c->log_tile[0] = c->cl[0] ? t.one_tile_log2 + cl : n > t.one_tile_log2 ? n : t.one_tile_log2;
  } else {
    const int m = (n + multi - 1) / multi;
    if (m > kMaxPasses)
      return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED, "%s: n = 2^%d needs %d passes (at most %d)",
                             fn, n, m, kMaxPasses);
    c->passes = m;
    for (int i = 0; i < m; ++i) {
      c->log_r[i] = n / m + (i < n % m ? 1 : 0);
      c->cl[i] = c->log_r[i] > t.tile_log2 - t.min_groups_log2 ? cl : 0;
      c->log_tile[i] = t.tile_log2 + c->cl[i];
    }
  }
  /* which passes run the register kernel: R >= P, at most 512 threads, a
   * multi-pass group's j runs at least G long (mode A) or one pass (mode B) */
  c->log_rmax = 0;
  for (int i = 0; i < c->passes; ++i) {
    const int lr = c->log_r[i], lt = c->log_tile[i], pcl = c->cl[i];
    const void *fk = v1_only || t.p_log2 == 0
                         ? nullptr
                         : reg_kernel_of(plan->dtype, t.p_log2, t.maxreg, pcl > 0, lr);
    const bool fits =
        lt - pcl - t.p_log2 <= 9 && lt >= lr && (c->passes == 1 || n - lr >= lt - lr);
    c->reg[i] = fits ? fk : nullptr;
    if (pcl && !c->reg[i])
      return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                             "%s: no FFT cluster kernel for a pass of 2^%d points in tiles of 2^%d",
                             fn, lr, lt);
    if (c->reg[i]) {
      e = tridi_cuda::allow_smem(fk, reg_smem(plan->dtype, lt - pcl, pcl > 0));
      if (e != cudaSuccess)
        return tridi_cuda::cuda_error(e, "%s: the FFT register kernel of 2^%d %s elements a block",
                                      fn, lt, tridi_dtype_name(plan->dtype));
      if (lr > c->log_rmax) c->log_rmax = lr;
    } else {
      if (lr > t.tile_log2) /* only a tuning build's variables get here */
        return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                               "%s: no FFT kernel for one pass of 2^%d points with these settings",
                               fn, lr);
      c->log_tile[i] = t.tile_log2; /* stockham.cuh's kernel: the table's tile */
    }
  }
  /* every pass's grid fits gridDim.x */
  for (int i = 0; i < c->passes; ++i) {
    const int64_t groups = (plan->n >> c->log_r[i]) * plan->batch;
    const int log_g = c->log_tile[i] - c->log_r[i];
    if ((((groups + ((int64_t)1 << log_g) - 1) >> log_g) << c->cl[i]) > 0x7fffffffLL)
      return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                             "%s: n * batch = %lld elements is too large for one launch", fn,
                             (long long)(plan->n * plan->batch));
  }
  /* the register kernel's table w_Rmax^e, e < Rmax (forward): from the
   * reference's (cos, sin)(2 pi k / Rmax), k < Rmax / 2 */
  if (c->log_rmax > 0) {
    const size_t esz = tridi_dtype_size(plan->dtype), rmax = (size_t)1 << c->log_rmax;
    const size_t half = tridi_ref_fft_twiddle_bytes(plan->dtype, (int64_t)rmax);
    unsigned char *h = (unsigned char *)malloc(rmax * esz + half);
    if (!h) return tridi_set_error(TRIDI_ERR_ALLOC, "%s: cannot allocate the twiddle table", fn);
    unsigned char *cs = h + rmax * esz;
    tridi_ref_fft_twiddles(plan->dtype, (int64_t)rmax, cs);
    for (size_t k = 0; k < rmax; ++k) {
      const size_t kk = k < rmax / 2 ? k : k - rmax / 2;
      const double sg = k < rmax / 2 ? 1.0 : -1.0; /* w^(k + R/2) = -w^k */
      if (plan->dtype == TRIDI_C32) {
        const float *q = (const float *)cs + 2 * kk;
        float *w = (float *)h + 2 * k;
        w[0] = (float)sg * q[0], w[1] = -(float)sg * q[1];
      } else {
        const double *q = (const double *)cs + 2 * kk;
        double *w = (double *)h + 2 * k;
        w[0] = sg * q[0], w[1] = -sg * q[1];
      }
    }
    tridi_status st = tridi_cuda_alloc(&c->tw, rmax * esz, plan->device);
    if (!st) {
      e = cudaMemcpy(c->tw, h, rmax * esz, cudaMemcpyHostToDevice);
      if (e != cudaSuccess) st = tridi_cuda::cuda_error(e, "%s: copy of the twiddle table", fn);
    }
    free(h);
    if (st) return st;
  }
  const int nbuf = c->passes >= 3 ? 2 : c->passes - 1;
  c->scratch_bytes = (size_t)plan->n * (size_t)plan->batch * tridi_dtype_size(plan->dtype);
  for (int i = 0; i < nbuf; ++i) {
    const tridi_status st = tridi_cuda_alloc(&c->scratch[i], c->scratch_bytes, plan->device);
    if (st) return st;
  }
  plan->scratch_bytes = (size_t)nbuf * c->scratch_bytes;
  plan->passes = c->passes;
  plan->threads = 0;
  bool any_cl = false;
  for (int i = 0; i < c->passes; ++i) any_cl = any_cl || c->cl[i] > 0;
  if (c->reg[0] && any_cl)
    snprintf(plan->kernel, sizeof plan->kernel, "cuda_stockham_cluster%d_t%d_p%d_%s_x%d", 1 << cl,
             1 << c->log_tile[0], 1 << c->p_log2, tridi_dtype_name(plan->dtype), c->passes);
  else if (c->reg[0])
    snprintf(plan->kernel, sizeof plan->kernel, "cuda_stockham_reg_t%d_p%d_%s_x%d",
             1 << c->log_tile[0], 1 << c->p_log2, tridi_dtype_name(plan->dtype), c->passes);
  else
    snprintf(plan->kernel, sizeof plan->kernel, "cuda_stockham_t%d_%s_p%d", 1 << t.tile_log2,
             tridi_dtype_name(plan->dtype), c->passes);
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_fft_execute(const struct tridi_fft_plan_s *plan, const void *in,
                                               void *out, void *stream) {
  static const char *fn = "tridi_fft_execute";
  const cuda_fft *c = (const cuda_fft *)plan->cuda;
  tridi_cuda::DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess)
    return tridi_cuda::cuda_error(dg.err, "%s: cudaSetDevice(%d)", fn, plan->device);
  const cudaStream_t s = (cudaStream_t)stream;
  int log_ns = 0;
  for (int i = 0; i < c->passes; ++i) {
    pass_args a;
    memset(&a, 0, sizeof a);
    const int last = i == c->passes - 1;
    a.src = i == 0 ? in : c->scratch[(i - 1) % 2];
    a.s_stride = i == 0 ? plan->is : 1;
    a.s_dist = i == 0 ? plan->id : plan->n;
    a.dst = last ? out : c->scratch[i % 2];
    a.d_stride = last ? plan->os : 1;
    a.d_dist = last ? plan->od : plan->n;
    a.log_r = c->log_r[i];
    a.log_nr = plan->log2n - a.log_r;
    a.log_ns = log_ns;
    a.total = (plan->n >> a.log_r) * plan->batch;
    a.sign = plan->sign;
    cudaError_t e;
    if (c->reg[i]) {
      a.log_g = c->log_tile[i] - a.log_r;
      a.conj_in = i == 0 && plan->sign > 0;
      a.conj_out = last && plan->sign > 0;
      a.tw = c->tw;
      a.log_rmax = c->log_rmax;
      a.nomath = c->nomath;
      const int64_t blocks = (a.total + ((int64_t)1 << a.log_g) - 1) >> a.log_g;
      void *args[] = {&a};
      if (c->cl[i]) { /* tuning builds: a tile over the blocks of a cluster */
        const int lb = c->log_tile[i] - c->cl[i];
        cudaLaunchAttribute at;
        const cudaLaunchConfig_t cfg = tridi_cuda::cluster_config(
            &at, 1 << c->cl[i], (unsigned)(blocks << c->cl[i]), 1u << (lb - c->p_log2),
            reg_smem(plan->dtype, lb, true), s);
        e = cudaLaunchKernelExC(&cfg, c->reg[i], args);
      } else {
        const unsigned threads = 1u << (c->log_tile[i] - c->p_log2);
        e = cudaLaunchKernel(c->reg[i], dim3((unsigned)blocks), dim3(threads), args,
                             reg_smem(plan->dtype, c->log_tile[i]), s);
      }
    } else {
      e = dispatch(plan->dtype, c->tile_log2, &a, s);
    }
    if (e != cudaSuccess)
      return tridi_cuda::cuda_error(e, "%s: launch of FFT pass %d of %d", fn, i + 1, c->passes);
    log_ns += a.log_r;
  }
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_fft_destroy(struct tridi_fft_plan_s *plan) {
  cuda_fft *c = (cuda_fft *)plan->cuda;
  if (!c) return;
  for (int i = 0; i < 2; ++i) tridi_cuda_free(c->scratch[i], plan->device);
  tridi_cuda_free(c->tw, plan->device);
  free(c);
  plan->cuda = nullptr;
}
