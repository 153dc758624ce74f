/* Host helpers shared by every CUDA row: the device guard each row takes
 * around its init and execute, and the one mapping of CUDA errors to tridi
 * statuses.  C++ (included by the .cu files only). */
#ifndef TRIDI_CUDA_LAUNCH_H
#define TRIDI_CUDA_LAUNCH_H

#include "tridi_internal.h"

#include <cuda_runtime.h>

#include <stdarg.h>
#include <stdio.h>

namespace tridi_cuda {

/* Makes `device` the calling thread's current device for the guard's scope
 * and restores the caller's current device at its end, so that a row's
 * kernels and attributes go to the plan's device (opts->device, where its
 * workspace lives) whichever device the caller has current.  err: the
 * failure of cudaGetDevice / cudaSetDevice, cudaSuccess otherwise. */
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    err = cudaGetDevice(&prev_);
    if (err == cudaSuccess && prev_ != device) err = cudaSetDevice(device);
  }
  ~DeviceGuard() {
    int cur = -1;
    if (prev_ >= 0 && cudaGetDevice(&cur) == cudaSuccess && cur != prev_) (void)cudaSetDevice(prev_);
  }
  DeviceGuard(const DeviceGuard &) = delete;
  DeviceGuard &operator=(const DeviceGuard &) = delete;
  cudaError_t err = cudaSuccess;

 private:
  int prev_ = -1;
};

/* The status of a failed CUDA call e: TRIDI_ERR_ALLOC when the device ran
 * out of memory, TRIDI_ERR_DEVICE otherwise, with the message
 * "<what>: <CUDA error string> (<error name>)" (what: printf format).  The
 * runtime's last error is cleared, so that a later call on this thread does
 * not report it again (an error that corrupts the context stays sticky:
 * every later call fails with it). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline tridi_status cuda_error(cudaError_t e, const char *what, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, what);
  vsnprintf(buf, sizeof buf, what, ap);
  va_end(ap);
  (void)cudaGetLastError();
  return tridi_set_error(e == cudaErrorMemoryAllocation ? TRIDI_ERR_ALLOC : TRIDI_ERR_DEVICE, "%s: %s (%s)", buf,
                         cudaGetErrorString(e), cudaGetErrorName(e));
}

/* Lets kernel fn take smem bytes of dynamic shared memory on the current
 * device (plan time; every row calls it for the kernels it plans, whatever
 * their size, since the default limit is 48 KiB less the static part).  The attribute belongs to the function on that device,
 * not to a plan, so it is raised to the most the function may take (the
 * device's opt-in limit less the function's static shared memory), never set
 * to this plan's figure: a later plan of the same kernel with less shared
 * memory would otherwise lower it under an earlier plan's launches (they then
 * fail with cudaErrorInvalidValue).  Raising it to a fixed value is also safe
 * when plans are made on several threads at once.  cudaErrorInvalidValue
 * where smem is more than that limit. */
inline cudaError_t allow_smem(const void *fn, size_t smem) {
  int dev = 0, optin = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  cudaFuncAttributes fa;
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&fa, fn);
  if (e != cudaSuccess) return e;
  if ((size_t)optin < fa.sharedSizeBytes || smem > (size_t)optin - fa.sharedSizeBytes) return cudaErrorInvalidValue;
  const int most = optin - (int)fa.sharedSizeBytes;
  if (fa.maxDynamicSharedSizeBytes >= most) return cudaSuccess;
  return cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, most);
}

/* A kernel parameter struct's layout fields from the plan's layout (plan
 * time): the row strides as[], the batch extents and strides (what
 * tridi_dev_sys_offsets reads), nbatch, n and nsys.  Params: any struct
 * with those members (LuParams, KParams); the caller zeroes it first. */
template <typename Params>
inline void set_layout_params(Params &p, const tridi_layout *L) {
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    p.as[k] = L->axis_stride[k];
    for (int j = 0; j < L->nbatch; ++j) p.bstride[k][j] = L->bstride[k][j];
  }
  for (int j = 0; j < L->nbatch; ++j) p.bext[j] = L->bext[j];
  p.nbatch = L->nbatch;
  p.n = L->n;
  p.nsys = L->nsys;
}

/* An execute's operands into parameters made at plan time */
template <typename Params>
inline void set_operands(Params &p, const void *const *op) {
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.op[k] = op[k];
}

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_LAUNCH_H */
