/* The explicit parts of an ADI step on the GPU (adi_kernels.cu), callable
 * from C.  Arrays are device grids u[z][y][x] of doubles with row length ld
 * (see adi_heat3d.h); only interior elements are read or written.  Each
 * function enqueues one kernel on `stream` (a cudaStream_t; NULL = the legacy
 * default stream) and returns the cudaError_t of the launch as an int
 * (0 = cudaSuccess). */
#ifndef ADI_KERNELS_H
#define ADI_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** w = rx D_x u + ry D_y u + rz D_z u (7-point stencil, zero Dirichlet values
 *  outside the grid). */
int adi_cuda_rhs(double *w, const double *u, int64_t nx, int64_t ny, int64_t nz, int64_t ld,
                 double rx, double ry, double rz, void *stream);

/** u += w. */
int adi_cuda_update(double *u, const double *w, int64_t nx, int64_t ny, int64_t nz, int64_t ld,
                    void *stream);

#ifdef __cplusplus
}
#endif
#endif /* ADI_KERNELS_H */
