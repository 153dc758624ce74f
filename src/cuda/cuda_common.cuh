/* Device helpers shared by the CUDA kernels of src/cuda.  C++ only;
 * nothing here leaves the .cu files. */
#ifndef TRIDI_CUDA_COMMON_CUH
#define TRIDI_CUDA_COMMON_CUH

#include <stdint.h>

/* Element offsets of system s for the five operands: the row-major digits of
 * s over the batch extents times the batch strides (tridi_layout_offsets in
 * src/core/tridi_internal.h, on the device).  Params: any kernel parameter
 * struct with nbatch, bext[] and bstride[5][]. */
template <typename Params>
__device__ __forceinline__ void tridi_dev_sys_offsets(const Params &p, int64_t s, int64_t off[5]) {
#pragma unroll
  for (int k = 0; k < 5; ++k) off[k] = 0;
  if (p.nbatch == 1) { /* the common case: no division */
#pragma unroll
    for (int k = 0; k < 5; ++k) off[k] = s * p.bstride[k][0];
    return;
  }
  for (int j = p.nbatch - 1; j >= 0; --j) {
    const int64_t e = p.bext[j];
    const int64_t q = s / e, idx = s - q * e;
    s = q;
#pragma unroll
    for (int k = 0; k < 5; ++k) off[k] += idx * p.bstride[k][j];
  }
}

/* Thread tid < G of a block writes the offsets of system sbase + tid (zeros
 * past the batch) into so[k * G + tid], k = operand: the offsets of a tile of
 * G systems staged in shared memory.  The caller synchronises. */
template <typename Params>
__device__ __forceinline__ void tridi_dev_stage_offsets(const Params &p, int64_t sbase, int G,
                                                        int tid, int64_t *so) {
  if (tid < G) {
    int64_t off[5] = {0, 0, 0, 0, 0};
    if (sbase + tid < p.nsys) tridi_dev_sys_offsets(p, sbase + tid, off);
#pragma unroll
    for (int k = 0; k < 5; ++k) so[k * G + tid] = off[k];
  }
}

#endif
