/* tridi_info_check for CUDA plans (tridi_backend_ops.info_first): the
 * lowest-numbered system of a device info array whose code is not 0.  A
 * CUDA execute returns before its kernels run, so its status cannot say
 * whether a system broke down or was flagged; this check finds it after
 * the fact, on the caller's stream, moving 16 bytes to the host instead of
 * the whole info array.  It waits for that stream (never for the device),
 * so it refuses a stream that is being captured into a graph. */
#include "common/launch.h"
#include "cuda_backend.h"

#include <cuda_runtime.h>

#include <climits>

namespace tridi_cuda {
namespace {

/* out[0]: the lowest index whose code is not 0 (ULLONG_MAX when none).
 * Each thread walks its indices upwards, so its first hit is its lowest. */
__global__ void __launch_bounds__(256) info_first_kernel(const int32_t *info, int64_t n,
                                                         unsigned long long *out) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    /* a lower one is known */
    if ((unsigned long long)i > *(volatile unsigned long long *)out) break;
    if (info[i] != 0) {
      atomicMin(out, (unsigned long long)i);
      break;
    }
  }
}

/* out[1]: the code of system out[0] (0 when none) */
__global__ void info_code_kernel(const int32_t *info, unsigned long long *out) {
  out[1] = out[0] == ULLONG_MAX ? 0ull : (unsigned long long)(uint32_t)info[out[0]];
}

}  // namespace
}  // namespace tridi_cuda

extern "C" tridi_status tridi_cuda_info_first(const struct tridi_plan_s *plan, const int32_t *info,
                                              void *stream, int64_t *first, int32_t *code) {
  using tridi_cuda::cuda_error;
  *first = -1;
  *code = 0;
  tridi_cuda::DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess)
    return cuda_error(dg.err, "tridi_info_check: cudaSetDevice(%d)", plan->device);
  cudaStream_t st = (cudaStream_t)stream;
  cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(st, &cap);
  if (e != cudaSuccess) return cuda_error(e, "tridi_info_check: cudaStreamIsCapturing");
  if (cap != cudaStreamCaptureStatusNone)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "tridi_info_check: the stream is being captured into a graph; the check "
                           "waits for the stream, so call it after the graph's launch");
  unsigned long long *dev = nullptr;
  e = cudaMallocAsync((void **)&dev, 2 * sizeof *dev, st);
  if (e != cudaSuccess) return cuda_error(e, "tridi_info_check: cudaMallocAsync of 16 bytes");
  unsigned long long host[2] = {ULLONG_MAX, 0};
  const int64_t n = plan->nsys;
  const int64_t want = (n + 255) / 256;
  const int blocks = (int)(want < 1024 ? want : 1024);
  e = cudaMemsetAsync(dev, 0xff, 2 * sizeof *dev, st);
  if (e == cudaSuccess) {
    tridi_cuda::info_first_kernel<<<blocks, 256, 0, st>>>(info, n, dev);
    tridi_cuda::info_code_kernel<<<1, 1, 0, st>>>(info, dev);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpyAsync(host, dev, sizeof host, cudaMemcpyDeviceToHost, st);
  const cudaError_t ef = cudaFreeAsync(dev, st);
  if (e == cudaSuccess) e = ef;
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  if (e != cudaSuccess)
    return cuda_error(e, "tridi_info_check: the scan of %lld info codes", (long long)n);
  if (host[0] != ULLONG_MAX) {
    *first = (int64_t)host[0];
    *code = (int32_t)(uint32_t)host[1];
  }
  return TRIDI_SUCCESS;
}
