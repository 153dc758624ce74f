/* The FFT's CUDA backend: plans the passes of the multi-pass Stockham FFT
 * (stockham.cuh) from the tuning table and enqueues them on the caller's
 * stream (no synchronisation, no allocation: capturable into a graph).
 *
 * Planning (paper 004, section 3): a tile of 2^tile_log2 elements per block
 * (the tuning table below).
 * n = log2 N <= tile_log2: one pass (R = N, several transforms per block).
 * Otherwise m = ceil(n / multi_log2) passes with balanced radices (the
 * first ones one digit larger), multi_log2 = tile_log2 - min_groups_log2
 * so that every multi-pass tile holds at least 2^min_groups_log2 groups:
 * runs of 64 contiguous bytes in global memory.  Pass i reads the input
 * (i = 0) or scratch, writes scratch or the output (last pass): scratch
 * buffer i % 2 of N * batch elements, two where m >= 3, so that in place
 * (in == out) the input is only read by the first pass and the output only
 * written by the last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/launch.h"
#include "fft/stockham.cuh"
#include "fft_internal.h"

namespace {

using tridi_fft::pass_args;

/* The tuning table: per compute capability (major; 0 = any other) and
 * dtype, the tile (2^tile_log2 elements per block, in dynamic shared memory
 * with up to 2^(tile_log2 - 1) twiddles after it)
 * and the least groups per tile of a multi-pass plan (2^min_groups_log2:
 * runs of 64 bytes).  Tiles of 2^12 .. 2^14 c32 / 2^11 .. 2^13 c64 are
 * compiled (threads = tile / 16); sm_90's and sm_80's rows (227 / 163 KiB
 * of shared memory a block) take 64 KiB tiles (96 KiB with a one-pass
 * plan's twiddles), the others 32 KiB (48 KiB): an
 * estimate until measured (docs/perf-log.md, "## FFT").  Builds with
 * TRIDI_CUDA_TUNING read TRIDI_FFT_TILE_LOG2 from the environment. */
struct fft_tuning {
  int cc_major;
  tridi_dtype dtype;
  int tile_log2, min_groups_log2;
};
const fft_tuning tuning_table[] = {
    {9, TRIDI_C32, 13, 3}, {9, TRIDI_C64, 12, 2}, {8, TRIDI_C32, 13, 3},
    {8, TRIDI_C64, 12, 2}, {0, TRIDI_C32, 12, 3}, {0, TRIDI_C64, 11, 2},
};

constexpr int kMaxPasses = 8;

struct cuda_fft {
  int tile_log2, passes;
  int log_r[kMaxPasses];
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

extern "C" tridi_status tridi_cuda_fft_init(struct tridi_fft_plan_s *plan) {
  static const char *fn = "tridi_fft_plan_create";
  tridi_cuda::DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess)
    return tridi_cuda::cuda_error(dg.err, "%s: cudaSetDevice(%d)", fn, plan->device);
  int major = 0;
  cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, plan->device);
  if (e != cudaSuccess) return tridi_cuda::cuda_error(e, "%s: cudaDeviceGetAttribute", fn);
  const fft_tuning *t = find_tuning(major, plan->dtype);
  if (!t)
    return tridi_set_error(TRIDI_ERR_INTERNAL, "%s: no FFT tuning row for %s", fn,
                           tridi_dtype_name(plan->dtype));
  cuda_fft *c = (cuda_fft *)calloc(1, sizeof *c);
  if (!c) return tridi_set_error(TRIDI_ERR_ALLOC, "%s: cannot allocate the CUDA plan", fn);
  plan->cuda = c;
  int tile_log2 = t->tile_log2;
#ifdef TRIDI_CUDA_TUNING
  if (const char *env = getenv("TRIDI_FFT_TILE_LOG2")) tile_log2 = atoi(env);
#endif
  c->tile_log2 = tile_log2;
  e = dispatch(plan->dtype, tile_log2, nullptr, nullptr);
  if (e != cudaSuccess)
    return tridi_cuda::cuda_error(e, "%s: the FFT kernel of 2^%d %s elements a block", fn,
                                  tile_log2, tridi_dtype_name(plan->dtype));
  const int n = plan->log2n;
  if (n <= tile_log2) {
    c->passes = 1;
    c->log_r[0] = n;
  } else {
    const int multi = tile_log2 - t->min_groups_log2;
    const int m = (n + multi - 1) / multi;
    if (m > kMaxPasses)
      return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED, "%s: n = 2^%d needs %d passes (at most %d)",
                             fn, n, m, kMaxPasses);
    c->passes = m;
    for (int i = 0; i < m; ++i) c->log_r[i] = n / m + (i < n % m ? 1 : 0);
  }
  /* every pass's grid fits gridDim.x */
  for (int i = 0; i < c->passes; ++i) {
    const int64_t groups = (plan->n >> c->log_r[i]) * plan->batch;
    const int log_g = tile_log2 - c->log_r[i];
    if (((groups + ((int64_t)1 << log_g) - 1) >> log_g) > 0x7fffffffLL)
      return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                             "%s: n * batch = %lld elements is too large for one launch", fn,
                             (long long)(plan->n * plan->batch));
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
  snprintf(plan->kernel, sizeof plan->kernel, "cuda_stockham_t%d_%s_p%d", 1 << tile_log2,
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
    const cudaError_t e = dispatch(plan->dtype, c->tile_log2, &a, s);
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
  free(c);
  plan->cuda = nullptr;
}
