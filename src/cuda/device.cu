/* Device helpers the core calls (tridi_internal.h): availability, ordinal
 * check, workspace allocation.  Each call names its device explicitly and
 * restores the caller's current device afterwards. */
#include "common/launch.h"
#include "cuda_backend.h"

#include <cuda_runtime.h>

using tridi_cuda::DeviceGuard;

extern "C" int tridi_cuda_available(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError(); /* clear the sticky-free error of a driver-less machine */
    return 0;
  }
  return count > 0;
}

extern "C" tridi_status tridi_cuda_check_device(int device) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE,
                           "tridi_plan_create: no usable CUDA device (%s)", cudaGetErrorString(e));
  }
  if (count == 0)
    return tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE, "tridi_plan_create: no CUDA device is visible");
  if (device < 0 || device >= count)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->device = %d is outside 0..%d", device, count - 1);
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_alloc(void **p, size_t bytes, int device) {
  *p = NULL;
  DeviceGuard dg(device);
  if (dg.err != cudaSuccess) return tridi_cuda::cuda_error(dg.err, "tridi_plan_create: cudaSetDevice(%d)", device);
  const cudaError_t e = cudaMalloc(p, bytes);
  if (e != cudaSuccess) {
    *p = NULL;
    return tridi_cuda::cuda_error(e, "tridi_plan_create: cudaMalloc of %zu bytes of workspace", bytes);
  }
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_free(void *p, int device) {
  if (!p) return;
  DeviceGuard dg(device);
  (void)cudaFree(p);
}

/* The CUDA backend's run(): every row executes with the plan's device
 * current (where its workspace and tables live), whichever device the
 * caller has current, and the caller's is restored. */
extern "C" tridi_status tridi_cuda_run(const struct tridi_plan_s *plan, const tridi_args *args) {
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess)
    return tridi_cuda::cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  return plan->solver->execute(plan, args);
}

/* The caller's current device (the drop-in entry points run there, as
 * cuSPARSE does). */
extern "C" tridi_status tridi_cuda_current_device(int *device, const char *fn) {
  const cudaError_t e = cudaGetDevice(device);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE, "%s: no usable CUDA device (%s)", fn,
                           cudaGetErrorString(e));
  }
  return TRIDI_SUCCESS;
}

/* Wait for the device's work (before a cached plan's workspace is freed). */
extern "C" void tridi_cuda_device_sync(int device) {
  DeviceGuard dg(device);
  if (dg.err == cudaSuccess) (void)cudaDeviceSynchronize();
}
