/* The GPU side of `tridi accuracy --backend cuda` (tools/accuracy_cuda.h).
 *
 * One case's a, b, c, d are copied to device buffers once (they grow on
 * demand and stay for the run) and every algorithm's plan executes on them,
 * like a user's program: device operands and a device info array, on a
 * stream (the tool's own, non-blocking), the plan's own workspace where it
 * has one.  x and info are then copied back for tools/accuracy.c to judge
 * exactly as on the host.  Before each execute x is filled with NaN and
 * info with a value no kernel writes, so that a kernel that leaves a
 * system's x unwritten with info 0 is judged above the bound, and one that
 * leaves info unwritten is an error. */
#include <cuda_runtime.h>
#include <stdio.h>

extern "C" {
#include "accuracy_cuda.h"
}

namespace {

/* 0x5a5a5a5a: no row number the tool's n reaches (<= 2^24), not
 * TRIDI_INFO_INACCURATE, positive */
constexpr int kInfoByte = 0x5a;
constexpr int32_t kInfoUnwritten = 0x5a5a5a5a;

struct Dev {
  void *op[5] = {nullptr, nullptr, nullptr, nullptr, nullptr}; /* a, b, c, d, x */
  int32_t *info = nullptr;
  size_t bytes = 0;
  int64_t nsys = 0;
  cudaStream_t stream = nullptr;
};
Dev g_dev;

int failed(cudaError_t e, const char *what, char *why, size_t why_len) {
  if (e == cudaSuccess) return 0;
  snprintf(why, why_len, "%s: %s", what, cudaGetErrorString(e));
  return 1;
}

int ensure(size_t bytes, int64_t nsys, char *why, size_t why_len) {
  if (!g_dev.stream && failed(cudaStreamCreateWithFlags(&g_dev.stream, cudaStreamNonBlocking),
                              "cudaStreamCreate", why, why_len))
    return 1;
  if (bytes > g_dev.bytes) {
    for (int k = 0; k < 5; ++k) {
      cudaFree(g_dev.op[k]);
      g_dev.op[k] = nullptr;
    }
    g_dev.bytes = 0;
    for (int k = 0; k < 5; ++k)
      if (failed(cudaMalloc(&g_dev.op[k], bytes), "cudaMalloc", why, why_len)) return 1;
    g_dev.bytes = bytes;
  }
  if (nsys > g_dev.nsys) {
    cudaFree(g_dev.info);
    g_dev.info = nullptr;
    g_dev.nsys = 0;
    if (failed(cudaMalloc(&g_dev.info, (size_t)nsys * sizeof(int32_t)), "cudaMalloc", why, why_len))
      return 1;
    g_dev.nsys = nsys;
  }
  return 0;
}

} /* namespace */

extern "C" int acc_cuda_upload(size_t bytes, int64_t nsys, const void *const in[4], char *why,
                               size_t why_len) {
  if (ensure(bytes, nsys, why, why_len)) return -1;
  /* on the tool's stream: a pageable cudaMemcpy may return before its DMA
   * has landed, and the non-blocking stream would not wait for it */
  for (int k = 0; k < 4; ++k)
    if (failed(cudaMemcpyAsync(g_dev.op[k], in[k], bytes, cudaMemcpyHostToDevice, g_dev.stream),
               "upload", why, why_len))
      return -1;
  return 0;
}

extern "C" tridi_status acc_cuda_solve(tridi_plan plan, size_t bytes, int64_t nsys, void *x,
                                       int32_t *info, char *why, size_t why_len) {
  why[0] = '\0';
  if (bytes > g_dev.bytes || nsys > g_dev.nsys) {
    snprintf(why, why_len, "acc_cuda_solve: no upload of this size");
    return TRIDI_ERR_INTERNAL;
  }
  cudaStream_t s = g_dev.stream;
  if (failed(cudaMemsetAsync(g_dev.op[4], 0xff, bytes, s), "cudaMemsetAsync", why, why_len) ||
      failed(cudaMemsetAsync(g_dev.info, kInfoByte, (size_t)nsys * sizeof(int32_t), s),
             "cudaMemsetAsync", why, why_len))
    return TRIDI_ERR_DEVICE;
  const tridi_status st = tridi_execute(plan, g_dev.op[0], g_dev.op[1], g_dev.op[2], g_dev.op[3],
                                        g_dev.op[4], g_dev.info, s);
  if (st != TRIDI_SUCCESS) {
    cudaStreamSynchronize(s);
    return st;
  }
  if (failed(cudaMemcpyAsync(x, g_dev.op[4], bytes, cudaMemcpyDeviceToHost, s), "download x", why,
             why_len) ||
      failed(cudaMemcpyAsync(info, g_dev.info, (size_t)nsys * sizeof(int32_t),
                             cudaMemcpyDeviceToHost, s),
             "download info", why, why_len) ||
      failed(cudaStreamSynchronize(s), "the solve", why, why_len))
    return TRIDI_ERR_DEVICE;
  for (int64_t k = 0; k < nsys; ++k)
    if (info[k] == kInfoUnwritten) {
      snprintf(why, why_len, "info of system %lld not written", (long long)k);
      return TRIDI_ERR_DEVICE;
    }
  return TRIDI_SUCCESS;
}

extern "C" void acc_cuda_release(void) {
  for (int k = 0; k < 5; ++k) cudaFree(g_dev.op[k]);
  cudaFree(g_dev.info);
  if (g_dev.stream) cudaStreamDestroy(g_dev.stream);
  g_dev = Dev();
}
