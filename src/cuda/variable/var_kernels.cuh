/* Kernels of the variable-size batch on the GPU (src/cuda/variable/):
 * parameters and the kernels' shared device code.  Device code, C++ only. */
#ifndef TRIDI_CUDA_VAR_KERNELS_CUH
#define TRIDI_CUDA_VAR_KERNELS_CUH

#include "../scalar/chunk.cuh"

#include <stdint.h>

namespace tridi_cuda {

/* A tile of a PACKED batch: whole systems sys0 .. sys0 + nsys - 1, rows
 * row0 .. row0 + nrows - 1 of every operand, nrows <= P M. */
struct VarTile {
  int64_t row0;
  int64_t sys0;
  int32_t nrows;
  int32_t nsys;
};

/* Kernel parameters (passed by value). */
struct VarParams {
  const void *op[TRIDI_NUM_OPERANDS];
  int32_t *info;
  /* PACKED */
  const VarTile *tiles;
  int64_t ntiles;
  const int64_t *off;    /* B + 1 prefix sums of the lengths */
  int32_t ph0;           /* PACKED: the 16-byte phase (in elements) that a, b, c,
                          * d and x share, or -1 where they differ */
  /* PACKED of equal lengths (tiles == NULL, off == NULL: a scalar batch of
   * systems stored one after another, src/cuda/scalar/tiles.cu): every
   * system has uni_n rows, system s starts at row s uni_n, tile t holds
   * systems t uni_spt .. of the nsys; tiles and offsets are computed */
  int64_t uni_n;
  int64_t uni_spt;
  /* INTERLEAVED */
  const int32_t *len;    /* B lengths (short systems; long ones are 0: skipped) */
  int64_t nsys;
  int64_t ld;
  const int64_t *groups; /* the launch's groups: block b solves systems
                          * groups[b] G .. groups[b] G + G - 1 */
};

/* The PACKED kernel's host side (var_packed.cu), for the variable kind's
 * row and the scalar kind's tiles (src/cuda/scalar/tiles.cu); uni: the
 * instantiation of equal lengths (VarParams::uni_n).
 * var_packed_rows: the rows of a tile for M rows a thread (256 M);
 * var_packed_m: M for the longest system nmax of a batch of total rows on
 *   sms SMs: f32 4096-row tiles (M = 16) for systems longer than 2048 rows
 *   or batches of at least four such tiles an SM (the reduced solve and the
 *   per-tile work spread over twice the rows, the tiles fill better), else
 *   2048 (M = 8, 4 blocks an SM); f64 2048 (M = 8);
 * var_packed_grid: plan time, the plan's device current: the kernel's
 *   shared memory allowed, *blocks = the persistent grid for ntiles tiles;
 * var_packed_launch: every tile, on the stream;
 * var_packed_phase: execute time, the 16-byte phase (in elements of es
 *   bytes) that the five arrays share (in place: x is d), or -1 (element
 *   copies): VarParams::ph0. */
int var_packed_rows(int M);
int var_packed_m(bool f32, int64_t nmax, int64_t total, int sms);
cudaError_t var_packed_grid(bool f32, int M, bool grow, bool uni, int64_t ntiles, int sms, int *blocks);
cudaError_t var_packed_launch(bool f32, bool grow, bool uni, int M, const VarParams &p, int blocks,
                              cudaStream_t stream);
int32_t var_packed_phase(const void *const op[TRIDI_NUM_OPERANDS], size_t es);

/* The long systems of a batch (var_long.cu), sorted by length: system
 * sys[t], rows first[t] + i * stride, n[t] rows, c' scratch at ws +
 * ws_off[t] elements.  Device arrays of count entries. */
struct VarLong {
  const int64_t *sys, *first, *n, *ws_off;
  int64_t count;
  int64_t stride;
  void *ws;
};

/* Row i's growth terms of the reference Thomas (src/ref/ref_thomas.c: the
 * same operations in the same order; acp = a_i c'_{i-1}, m = b_i - acp): the
 * system is flagged when max N > TRIDI_GROWTH_LIMIT max D */
template <typename T>
__device__ __forceinline__ void var_growth_row(T ai, T bi, T ci, T acp, T m, T &nmax, T &dmax) {
  const T t = fabs(ai) + fabs(ci);
  const T ni = (t + fabs(acp)) + fabs(m);
  const T di_ = t + fabs(bi);
  nmax = ni > nmax ? ni : nmax;
  dmax = di_ > dmax ? di_ : dmax;
}

/* The reference Thomas checks on one strided system in device memory: the
 * info code of the first breakdown of the forward sweep, or `clean` when the
 * sweep is clean (the hybrid's own pivots broke down, or x overflowed). */
template <typename T>
__device__ int32_t var_seq_check(const VarParams &p, int64_t first, int64_t stride, int64_t n,
                                 int32_t clean) {
  const T *A = (const T *)p.op[0] + first, *B = (const T *)p.op[1] + first;
  const T *C = (const T *)p.op[2] + first, *D = (const T *)p.op[3] + first;
  T cp = 0, dp = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T ai = i > 0 ? A[i * stride] : (T)0;
    const T bi = B[i * stride];
    const T ci = i < n - 1 ? C[i * stride] : (T)0;
    const T di = D[i * stride];
    if (!finite_(ai) || !finite_(bi) || !finite_(ci) || !finite_(di)) return (int32_t)(-(i + 1));
    const T m = bi - ai * cp;
    if (m == (T)0) return (int32_t)(i + 1);
    const T r = (T)1 / m;
    cp = ci * r;
    dp = (di - ai * dp) * r;
    if (!finite_(cp) || !finite_(dp) || !finite_(r)) return (int32_t)(-(i + 1));
  }
  return clean;
}

/* Shared-memory index of tile row r: 16 bytes of padding after every 128,
 * so that the M consecutive rows of neighbouring threads spread over the
 * banks. */
template <typename T>
__device__ __forceinline__ int var_pad(int r) {
  constexpr unsigned W = 128 / sizeof(T), V = 16 / sizeof(T);
  return r + (int)((unsigned)r / W * V); /* r >= 0: unsigned, a shift */
}

} /* namespace tridi_cuda */

#endif
