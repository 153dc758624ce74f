/* The growth check of the long-system solves (segmented.cu, cluster.cu),
 * after the solve: every row's residual r_i = a_i x_{i-1} + b_i x_i +
 * c_i x_{i+1} - d_i, with the rows read again (the tile read them just
 * before: L1/L2 hits, no extra device-memory traffic to speak of), and
 * five maxima over the system: R = max |r_i|, A = max(|a_i| + |b_i| +
 * |c_i|), D = max |d_i|, X = max |x_i| and E, the largest difference
 * between an unknown a tile stores and the value its neighbouring tile
 * took for it (the segmented solve: a tile's first and last unknowns
 * against the reduced system's; 0 for the cluster kernel, whose blocks all
 * take the join's values).  Each tile's residuals use the neighbours'
 * values it took, so the stored x's residual is within A E of them, and a
 * system passes when
 *   R + A E <= max(64, n) eps (A X + D),
 * so its normwise backward error ||A x - d|| / (||A|| ||x|| + ||d||) is at
 * most max(64, n) eps <= 10 n eps (n >= 7); one that does not gets
 * TRIDI_INFO_INACCURATE with its x (in place, d is gone).  The same rule as
 * the variable kind's long systems (var_segments.cu).  Where the partition
 * method grew (a sweep across a segment, the reduced system), x carries it
 * and so does the residual, whichever step grew. */
#ifndef TRIDI_CUDA_SCALAR_RESID_CUH
#define TRIDI_CUDA_SCALAR_RESID_CUH

#include "chunk.cuh"

namespace tridi_cuda {

/* Non-negative T as an unsigned integer of its width, ordered as T (NaN
 * above Inf): maxima by integer atomicMax, exactly (chunk.cuh's 32-bit
 * red_key keeps only an f64's high word, which would round R down). */
template <typename T>
struct ResKey;
template <>
struct ResKey<float> {
  using K = unsigned;
  static __device__ __forceinline__ K of(float v) { return __float_as_uint(v); }
  static __device__ __forceinline__ float val(K k) { return __uint_as_float(k); }
};
template <>
struct ResKey<double> {
  using K = unsigned long long;
  static __device__ __forceinline__ K of(double v) { return (K)__double_as_longlong(v); }
  static __device__ __forceinline__ double val(K k) { return __longlong_as_double((long long)k); }
};

constexpr int kResMaxima = 5; /* R, A, D, X, E */

/* This thread's maxima over its chunk (all but E): the rows j < nrows of
 * the chunk whose row 0 is row `row` of the system (ld(k, j): element j of
 * operand k a, b, c, d, read again), x[j] its unknowns; xm / xp:
 * x of the rows just before row 0 and just after row nrows - 1 (ignored at
 * the system's ends, where a of row 0 / c of row n - 1 are not part of the
 * matrix).  Rows j0 <= j < j1 only (constants once unrolled: a chunk read
 * in pieces). */
template <typename T, int M, typename Load>
__device__ __forceinline__ void chunk_resid(const Load &ld, int64_t row, int64_t n, int64_t nrows,
                                            const T (&x)[M], T xm, T xp, T mx[kResMaxima],
                                            int j0 = 0, int j1 = M) {
  /* only row 0 of the chunk can be the system's first, and the chunk's
   * row jl its last (32-bit compares against the unrolled j) */
  const bool row_first = row == 0;
  const int jl = n - 1 - row < M ? (int)(n - 1 - row) : -1;
  const int nr = (int)nrows;
#pragma unroll
  for (int j = j0; j < j1; ++j) {
    if (j < nr) {
      /* selects, not products with 0: a of row 0 and c of row n - 1 may be
       * anything, and so may the x beyond the system's ends */
      const bool first = j == 0 && row_first, last = j == jl;
      const T a = first ? (T)0 : ld(0, j), b = ld(1, j);
      const T c = last ? (T)0 : ld(2, j), d = ld(3, j);
      const T xl = first ? (T)0 : (j > 0 ? x[j - 1] : xm);
      const T xr = last ? (T)0 : (j + 1 < nr ? x[j + 1] : xp);
      const T r = fabs(((a * xl + b * x[j]) + c * xr) - d);
      mx[0] = r > mx[0] || r != r ? r : mx[0];
      mx[1] = fmax_(mx[1], (fabs(a) + fabs(b)) + fabs(c));
      mx[2] = fmax_(mx[2], fabs(d));
      mx[3] = fmax_(mx[3], fabs(x[j]));
    }
  }
}

/* chunk_resid on rows read element by element: ptr / st from operand_rows
 * at the chunk's row 0; __ldg for a, b, c, a plain load for d (x may be d) */
template <typename T, int M>
__device__ __forceinline__ void chunk_resid_elems(const T *(&ptr)[4], const int64_t (&st)[4],
                                                  int64_t row, int64_t n, int64_t nrows,
                                                  const T (&x)[M], T xm, T xp,
                                                  T mx[kResMaxima]) {
  chunk_resid<T, M>(
      [&](int k, int j) -> T { return k < 3 ? __ldg(ptr[k] + j * st[k]) : ptr[k][j * st[k]]; },
      row, n, nrows, x, xm, xp, mx);
}

/* This thread's maxima folded into the block's keys slot[k G + g] (G = 1
 * << logG systems a tile, g = threadIdx.x mod G), on: whether they count
 * (else zero keys).  With one system a tile (G = 1) and 32-bit keys the
 * warp first takes the maximum of its lanes' keys (one REDUX a key) and one
 * lane does the shared atomicMax instead of 32 lanes on one word (H200,
 * f32 contiguous n = 10^4, cluster kernel: 0.597 -> 0.542 ms).  Otherwise
 * each lane's atomic: xor-shuffle folds of 64-bit keys and of G > 1
 * systems a warp measured within +-4 % of it, either way
 * (docs/perf-log.md).  Every thread of the block calls it together
 * (blocks of 2^k threads). */
template <typename T>
__device__ __forceinline__ void resid_fold(typename ResKey<T>::K *slot, int logG, int g,
                                           const T (&mx)[kResMaxima], bool on) {
  using Key = typename ResKey<T>::K;
  if constexpr (sizeof(Key) == 4) {
    if (logG == 0) {
      const unsigned W = blockDim.x < 32 ? blockDim.x : 32;
      const unsigned mask = W == 32 ? 0xffffffffu : (1u << W) - 1u;
#pragma unroll
      for (int k = 0; k < kResMaxima; ++k) {
        Key key = on ? ResKey<T>::of(mx[k]) : (Key)0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        key = __reduce_max_sync(mask, key);
#else
        for (unsigned o = 1; o < W; o <<= 1) key = max(key, __shfl_xor_sync(mask, key, o));
#endif
        if ((threadIdx.x & 31) == 0 && key != 0) atomicMax(&slot[k], key);
      }
      return;
    }
  }
  if (on)
#pragma unroll
    for (int k = 0; k < kResMaxima; ++k) atomicMax(&slot[k * (1 << logG) + g], ResKey<T>::of(mx[k]));
}

/* The system's verdict from its maxima (keys) */
template <typename T>
__device__ __forceinline__ bool resid_inaccurate(const typename ResKey<T>::K *k, int64_t n) {
  const T R = ResKey<T>::val(k[0]), A = ResKey<T>::val(k[1]), D = ResKey<T>::val(k[2]),
          X = ResKey<T>::val(k[3]), E = ResKey<T>::val(k[4]);
  return resid_fails<T>(R + A * E, A, X, D, n);
}

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_SCALAR_RESID_CUH */
