// Kernels for the explicit parts of the ADI step of adi_heat3d (see
// adi_kernels.h).  One thread per grid point: threads along x (coalesced),
// a 2-D grid of blocks over (x, y) and the block grid's z over the planes.
#include "adi_kernels.h"

#include <cuda_runtime.h>

namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

__global__ void adi_rhs_7point_kernel(double *__restrict__ w, const double *__restrict__ u, int64_t nx,
                           int64_t ny, int64_t nz, int64_t ld, double rx, double ry, double rz) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  const int64_t k = blockIdx.z;
  if (i >= nx || j >= ny) return;
  const int64_t plane = ny * ld;
  const int64_t o = k * plane + j * ld + i;
  const double c = u[o];
  const double xw = i > 0 ? u[o - 1] : 0.0, xe = i < nx - 1 ? u[o + 1] : 0.0;
  const double ys = j > 0 ? u[o - ld] : 0.0, yn = j < ny - 1 ? u[o + ld] : 0.0;
  const double zs = k > 0 ? u[o - plane] : 0.0, zn = k < nz - 1 ? u[o + plane] : 0.0;
  w[o] = rx * (xw - 2.0 * c + xe) + ry * (ys - 2.0 * c + yn) + rz * (zs - 2.0 * c + zn);
}

__global__ void adi_update_kernel(double *__restrict__ u, const double *__restrict__ w, int64_t nx,
                              int64_t ny, int64_t ld) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  const int64_t o = ((int64_t)blockIdx.z * ny + j) * ld + i;
  u[o] += w[o];
}

dim3 grid_of(int64_t nx, int64_t ny, int64_t nz) {
  return dim3((unsigned)((nx + kBlockX - 1) / kBlockX), (unsigned)((ny + kBlockY - 1) / kBlockY),
              (unsigned)nz);
}

// Launch limits: grid y and z at most 65535 blocks.
bool launchable(int64_t nx, int64_t ny, int64_t nz) {
  return nx > 0 && ny > 0 && nz > 0 && (ny + kBlockY - 1) / kBlockY <= 65535 && nz <= 65535 &&
         (nx + kBlockX - 1) / kBlockX <= 2147483647;
}

}  // namespace

extern "C" int adi_cuda_rhs(double *w, const double *u, int64_t nx, int64_t ny, int64_t nz,
                            int64_t ld, double rx, double ry, double rz, void *stream) {
  if (!launchable(nx, ny, nz)) return (int)cudaErrorInvalidConfiguration;
  adi_rhs_7point_kernel<<<grid_of(nx, ny, nz), dim3(kBlockX, kBlockY), 0, (cudaStream_t)stream>>>(
      w, u, nx, ny, nz, ld, rx, ry, rz);
  return (int)cudaGetLastError();
}

extern "C" int adi_cuda_update(double *u, const double *w, int64_t nx, int64_t ny, int64_t nz,
                               int64_t ld, void *stream) {
  if (!launchable(nx, ny, nz)) return (int)cudaErrorInvalidConfiguration;
  adi_update_kernel<<<grid_of(nx, ny, nz), dim3(kBlockX, kBlockY), 0, (cudaStream_t)stream>>>(
      u, w, nx, ny, ld);
  return (int)cudaGetLastError();
}
