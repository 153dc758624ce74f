/* Device helpers shared by the CUDA kernels of src/cuda: system offsets,
 * division by a run-time invariant, pivot reciprocals, asynchronous copies.
 * C++ only; nothing here leaves the .cu files. */
#ifndef TRIDI_CUDA_DEVICE_CUH
#define TRIDI_CUDA_DEVICE_CUH

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

namespace tridi_cuda {

/* Division by a run-time invariant uint32 (Granlund & Montgomery 1994):
 * made on the host, passed to the kernel, fdiv(x, f) = x / d. */
struct FastDiv {
  uint32_t m;
  uint32_t l;
};

inline FastDiv make_fastdiv(uint32_t d) {
  FastDiv f;
  uint32_t l = 0;
  while (l < 32 && (1ull << l) < d) ++l;
  f.l = l;
  f.m = (uint32_t)((((1ull << l) - d) << 32) / d + 1);
  return f;
}

__device__ __forceinline__ uint32_t fdiv(uint32_t x, FastDiv f) {
  return (uint32_t)(((uint64_t)__umulhi(x, f.m) + x) >> f.l);
}

template <typename T>
__device__ __forceinline__ bool finite_(T v) {
  return isfinite(v);
}

/* Reciprocal of a pivot in the kernels' hot loops.  Without
 * TRIDI_CUDA_IEEE_RCP (CMake option, for comparisons) it is computed
 * without the IEEE division's slow-path branch: x1.15-1.55 on the strided
 * layouts, f32 and f64 (docs/perf-log.md CUDA v14):
 *  - f32: rcp.approx.f32, one MUFU, at most 1 ulp from the rounded
 *    reciprocal, IEEE results for 0, Inf, NaN and subnormal pivots;
 *  - f64: rcp.approx.ftz.f64 (about 20 bits) and one cubic Newton step
 *    (relative error below 2^-60 before the last rounding, so within 1 ulp).
 *    A pivot that is 0, Inf, NaN or below the smallest normal f64
 *    (2.2e-308) gives NaN where IEEE gives Inf, 0 or a huge value: the
 *    system is reported as broken down (docs/cuda.md). */
template <typename T>
__device__ __forceinline__ T rcp_(T x) {
  return (T)1 / x;
}
#ifndef TRIDI_CUDA_IEEE_RCP
template <>
__device__ __forceinline__ float rcp_<float>(float x) {
  float r;
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
template <>
__device__ __forceinline__ double rcp_<double>(double x) {
  double r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  const double e = fma(-x, r, 1.0); /* r = (1 - e) / x */
  return fma(r, fma(e, e, e), r);   /* (1 - e)(1 + e + e^2) = 1 - e^3 */
}
#endif

/* ceil(log2(v)) for v >= 1 (host: block shapes at plan time) */
__host__ __device__ inline int ilog2(int64_t v) {
  int l = 0;
  while ((1ll << l) < v) ++l;
  return l;
}

/* A row index for the int breakdown rows (n may exceed INT32_MAX) */
__device__ __forceinline__ int clamp_row(int64_t r) { return r < INT32_MAX ? (int)r : INT32_MAX - 1; }

/* 16-byte asynchronous global->shared copy (sm_80+), so that a thread's
 * loads of all four operands are in flight at once without registers.
 * Through L2 only (.cg), or with l1 through L1 too (.ca): rows that several
 * systems share (broadcast coefficients) are read by every block, and
 * through L2 only all SMs hit the few L2 lines that hold them (ADI X solve
 * with broadcast a, b, c: slower than with full arrays, docs/perf-log.md
 * CUDA v18). */
__device__ __forceinline__ void cp_async16(void *smem, const void *gmem, bool l1 = false) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned sa = (unsigned)__cvta_generic_to_shared(smem);
  if (l1)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(gmem) : "memory");
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(gmem) : "memory");
#else
  (void)l1;
  *(uint4 *)smem = *(const uint4 *)gmem;
#endif
}

/* Element-size asynchronous copy (4 or 8 bytes, sm_80+): the unaligned
 * staging path, same latency hiding without 16-byte alignment. */
template <typename T>
__device__ __forceinline__ void cp_async_elem(T *smem, const T *gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned sa = (unsigned)__cvta_generic_to_shared(smem);
  if (sizeof(T) == 4)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sa), "l"(gmem) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(sa), "l"(gmem) : "memory");
#else
  *smem = *gmem;
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* wait for all but the newest committed group / for all groups */
__device__ __forceinline__ void cp_async_wait_prev() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 1;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void cp_async_wait_prev0() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

/* The 16-byte vector of T */
template <typename T>
struct Vec;
template <>
struct Vec<float> {
  using type = float4;
  static constexpr int n = 4;
};
template <>
struct Vec<double> {
  using type = double2;
  static constexpr int n = 2;
};

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_DEVICE_CUH */
