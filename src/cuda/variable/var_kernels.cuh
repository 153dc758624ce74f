/* Kernels of the variable-size batch on the GPU (src/cuda/variable/):
 * parameters and the kernels' shared device code.  Device code, C++ only. */
#ifndef TRIDI_CUDA_VAR_KERNELS_CUH
#define TRIDI_CUDA_VAR_KERNELS_CUH

#include "../scalar/chunk.cuh"

#include <stdint.h>
#include <stdlib.h>
#include <type_traits>

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
   * systems at a uniform row stride, src/cuda/scalar/tiles.cu): every
   * system has uni_n rows, system s starts at row s uni_ld (uni_ld >= uni_n;
   * rows uni_n .. uni_ld - 1 after a system are padding: read with the
   * tile, solved as identity rows, never written), tile t holds systems
   * t uni_spt .. of the nsys; tiles and offsets are computed */
  int64_t uni_n;
  int64_t uni_ld;
  int64_t uni_spt;
  /* INTERLEAVED */
  const int32_t *len;    /* B lengths (short systems; long ones are 0: skipped) */
  int64_t nsys;
  int64_t ld;
  const int64_t *groups; /* the launch's groups: block b solves systems
                          * groups[b] G .. groups[b] G + G - 1 */
};

/* INTERLEAVED: the systems of one 32-byte sector of a row.  A group is W
 * = 1 or kVarInterWide neighbouring sectors (var_interleaved.cu: 2^logH
 * blocks a group take G = W sector >> logH systems each). */
inline int var_inter_sector(bool f32) { return f32 ? 8 : 4; }
constexpr int kVarInterWide = 4;

/* Threads of a PACKED tile's block (var_packed.cu) and of a segment's
 * (var_segments.cu): P chunks of M rows, tiles (and segments) of P M rows. */
constexpr int kVarThreads = 256;

/* Elements of one operand's tile in shared memory: P M rows, 16 bytes of
 * padding after every 128 (var_pad). */
template <typename T>
__host__ __device__ constexpr int var_tile_lds(int M) {
  return kVarThreads * M + (kVarThreads * M) / (int)(128 / sizeof(T)) * (int)(16 / sizeof(T));
}

/* fn(T(), std::integral_constant<int, M>()) for the tile instantiations the
 * rows use (as by_m does for the scalar kernels, src/cuda/scalar/plan.h):
 * f32 M = 8 or 16 (tiles of 2048 / 4096 rows), f64 M = 8. */
template <typename Fn>
auto var_by_tile(bool f32, int M, Fn &&fn) {
  if (!f32) return fn(double(), std::integral_constant<int, 8>());
  if (M == 8) return fn(float(), std::integral_constant<int, 8>());
  return fn(float(), std::integral_constant<int, 16>());
}

/* A persistent grid: per_sm blocks an SM (at least one) on sms SMs, never
 * more blocks than work items (at least one block). */
inline int var_persistent_blocks(int per_sm, int sms, int64_t items) {
  const int64_t want = (int64_t)(per_sm > 0 ? per_sm : 1) * sms;
  const int64_t b = items < want ? items : want;
  return (int)(b > 0 ? b : 1);
}

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
 *   copies): VarParams::ph0;
 * var_packed_smem_bytes: the kernel's shared memory a block, for plans to
 *   check against the device's (sm_75 allows 64 KiB). */
int var_packed_rows(int M);
int var_packed_m(bool f32, int64_t nmax, int64_t total, int sms);
cudaError_t var_packed_grid(bool f32, int M, bool grow, bool uni, int64_t ntiles, int sms, int *blocks);
cudaError_t var_packed_launch(bool f32, bool grow, bool uni, int M, const VarParams &p, int blocks,
                              cudaStream_t stream);
int32_t var_packed_phase(const void *const op[TRIDI_NUM_OPERANDS], size_t es);
size_t var_packed_smem_bytes(bool f32, int M);

/* The long systems of a batch (var_long.cu), sorted by length: system
 * sys[t], rows first[t] + i * stride, n[t] rows, c' scratch at ws +
 * ws_off[t] elements.  Device arrays of count entries. */
struct VarLong {
  const int64_t *sys, *first, *n, *ws_off;
  int64_t count;
  int64_t stride;
  void *ws;
  /* PACKED: the segments (var_segments.cu) solved these systems first; the
   * reference then solves only those they marked (sysbad), and writes the
   * others' info from their segments' status (segst; seg0: a system's
   * first segment; cap: rows of a segment).  NULL: every system. */
  const int32_t *sysbad, *segst;
  const int64_t *seg0;
  int cap;
};

/* The segments of a PACKED batch's long systems (var_segments.cu).  System
 * j of VarLong (first row o, n rows, the 16-byte phase ph of row o where
 * the arrays take 16-byte copies, else 0) has S = ceil((n + ph) / cap)
 * segments: segment k holds its rows [k cap - ph, (k + 1) cap - ph) within
 * [0, n), so that every segment after the first starts on a 16-byte
 * boundary and every one before the last ends on the tile's last row.  The
 * plan numbers ceil((n + 16 / sizeof(T) - 1) / cap) segments a system (the
 * most any phase needs); a segment k >= S of the execution's phase is
 * skipped (an idle block of the cluster kernel). */
struct VarSegs {
  /* systems 0 .. nsys3 - 1 (the longest): three launches over their nseg
   * segments (the first nseg of the numbering) */
  const int32_t *seg_sys; /* segment -> its system (VarLong's index) */
  const int32_t *seg_k;   /* segment -> its number k in the system */
  int64_t nseg, nsys3;
  /* the others (sm_90): one launch a bin, a cluster of K blocks a system,
   * systems j0 .. j0 + count - 1 (at most K segments each) */
  struct {
    int64_t j0, count;
    int K;
  } bin[3];
  int nbins;
  /* workspace */
  void *rows;      /* [nseg][2][4]: the segment's two rows of its system's
                    * join (lower, diagonal, upper, right-hand side) */
  void *sol;       /* [nseg][2]: x of the segment's first and last rows */
  void *smax;      /* [nseg][2]: max(|a| + |b| + |c|), max |d| of its rows */
  void *sysx;      /* [count][3]: the system's max(|a| + |b| + |c|), max |d|,
                    * max |x| over the segments' first and last rows */
  int32_t *segst;  /* [nseg]: reduce: 1 broken down, else 0; solve: 0,
                    * TRIDI_INFO_INACCURATE, or -(row + 1) of its first
                    * row with x not finite */
  int32_t *sysbad; /* [count]: 1 where the segments cannot solve the system */
};

/* The segment count and the 16-byte phase of long system (n rows from row
 * o): see VarSegs */
template <typename T>
__device__ __forceinline__ int var_seg_phase(const VarParams &p, int64_t o) {
  return p.ph0 >= 0 ? (int)((p.ph0 + o) & (int64_t)(16 / sizeof(T) - 1)) : 0;
}
__device__ __forceinline__ int var_seg_count(int64_t n, int ph, int cap) {
  return (int)((n + ph + cap - 1) / cap);
}

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

/* Position i of a tile in shared memory (buf [4][LDS]) as an identity row:
 * b = 1, a = c = d = 0 (x = 0, coupled to nothing) */
template <typename T>
__device__ __forceinline__ void var_identity_row(T *buf, int LDS, int i) {
  const int e = var_pad<T>(i);
  buf[e] = (T)0;
  buf[LDS + e] = (T)1;
  buf[2 * LDS + e] = (T)0;
  buf[3 * LDS + e] = (T)0;
}

/* A chunk's M rows of a, b, c, d in a tile in shared memory (buf [4][LDS],
 * the chunk's first row at element pr0, whole 16-byte pieces inside a pad
 * period): e[k][j] is operand k of chunk row j, read as 16-byte loads
 * (var_chunk_load).  var_chunk_store: the chunk's M values of x to the
 * tile's first array at pr0, as 16-byte stores. */
template <typename T, int M>
union VarChunk {
  typename Vec<T>::type q[4][M / Vec<T>::n];
  T e[4][M];
};
template <typename T, int M>
__device__ __forceinline__ void var_chunk_load(VarChunk<T, M> &v, const T *buf, int LDS, int pr0) {
  constexpr int V = Vec<T>::n;
  using VT = typename Vec<T>::type;
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int i = 0; i < M / V; ++i) v.q[k][i] = *(const VT *)(buf + k * LDS + pr0 + i * V);
}
template <typename T, int M>
__device__ __forceinline__ void var_chunk_store(T *buf, int pr0, const T (&x)[M]) {
  constexpr int V = Vec<T>::n;
  using VT = typename Vec<T>::type;
  union {
    VT q[M / V];
    T e[M];
  } v;
#pragma unroll
  for (int j = 0; j < M; ++j) v.e[j] = x[j];
#pragma unroll
  for (int i = 0; i < M / V; ++i) *(VT *)(buf + pr0 + i * V) = v.q[i];
}

/* A PACKED tile into shared memory: rows row0 .. row0 + nrows - 1 of a, b,
 * c, d at positions ph .. ph + nrows - 1 of buf ([4][LDS], position i at
 * var_pad(i)).  vec: the arrays share a 16-byte phase and ph is congruent
 * to row0's phase modulo a 16-byte piece (the callers take row0's phase in
 * a 128-byte line where the tile fits shifted by it: then each warp's 32
 * pieces are four whole lines), so the tile is copied as 16-byte pieces at
 * 16-byte boundaries of both memories, pieces before the tile skipped and
 * the two ragged ends element by element (threads 0 and 1); else (ph = 0)
 * element copies.  The copies are issued and
 * committed, all in flight (the caller waits: cp_async_wait_prev0, then a
 * barrier); the positions before ph and those of the last chunk past the
 * tile become identity rows (b = 1, a = c = d = 0; no copy writes them). */
template <typename T, int M, int P>
__device__ __forceinline__ void var_tile_load(const VarParams &p, int64_t row0, int nrows, int ph, bool vec,
                                              T *buf, int LDS, int tid) {
  constexpr int V = Vec<T>::n;
  const int npos = nrows + ph;
  if (vec) {
    /* whole pieces c0 .. c1 - 1 (piece c: positions c V ..; thread t takes
     * the pieces t mod P, so that a warp's pieces start where position 0
     * does); the ragged ones (the piece holding position ph and the last,
     * at most two) by threads 0 and 1 */
    const int nv = (npos + V - 1) / V;
    const int c0 = (ph + V - 1) / V, c1 = npos / V;
    const T *src[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) src[k] = (const T *)p.op[k] + (row0 - ph);
    for (int c = tid; c < c1; c += P) {
      if (c < c0) continue;
      const int i0 = c * V, e = var_pad<T>(i0);
#pragma unroll
      for (int k = 0; k < 4; ++k) cp_async16(buf + k * LDS + e, src[k] + i0);
    }
    const int cr = tid == 0 ? ph / V : nv - 1; /* a ragged piece */
    if (tid < 2 && (tid == 0 || cr > ph / V) && (cr < c0 || cr >= c1)) {
      const int i0 = cr * V, e = var_pad<T>(i0);
#pragma unroll
      for (int k = 0; k < 4; ++k)
#pragma unroll
        for (int q = 0; q < V; ++q)
          if (i0 + q >= ph && i0 + q < npos) cp_async_elem(buf + k * LDS + e + q, src[k] + i0 + q);
    }
  } else {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const T *src = (const T *)p.op[k] + row0;
      T *dst = buf + k * LDS;
      for (int e = tid; e < nrows; e += P) cp_async_elem(dst + var_pad<T>(e), src + e);
    }
  }
  cp_async_commit();
  const int tail = (M - npos % M) % M;
  const int i = tid < ph ? tid : (tid - ph < tail ? npos + tid - ph : -1);
  if (i >= 0) var_identity_row<T>(buf, LDS, i);
}

/* x of a tile from shared memory (positions ph .. ph + nrows - 1 of buf's
 * first array) to rows row0 .. of x, as var_tile_load copied it in (vec:
 * 16-byte stores, the ragged ends by element).  ld > n (equal lengths at a
 * row stride, row0 a system's first row): tile rows r with r mod ld >= n
 * are padding and are not written; a piece that holds any is stored
 * element by element. */
template <typename T, int P>
__device__ __forceinline__ void var_tile_store(const VarParams &p, int64_t row0, int nrows, int ph, bool vec,
                                               const T *buf, int tid, int n = 0, int ld = 0) {
  constexpr int V = Vec<T>::n;
  using VT = typename Vec<T>::type;
  const int npos = nrows + ph;
  const bool gaps = ld > n;
  if (vec) {
    const int nv = (npos + V - 1) / V;
    const int c0 = (ph + V - 1) / V, c1 = npos / V;
    T *X = (T *)p.op[4] + (row0 - ph);
    if (!gaps) {
      for (int c = tid; c < c1; c += P) {
        if (c < c0) continue;
        const int i0 = c * V;
        *(VT *)(X + i0) = *(const VT *)(buf + var_pad<T>(i0));
      }
    } else {
      for (int c = tid; c < c1; c += P) {
        if (c < c0) continue;
        const int i0 = c * V, e = var_pad<T>(i0);
        const int w = (i0 - ph) % ld; /* the piece's first row in its system's stride */
        if (w + V <= n) {
          *(VT *)(X + i0) = *(const VT *)(buf + e);
        } else { /* ld >= V: a piece wraps into the next stride at most once */
#pragma unroll
          for (int q = 0; q < V; ++q) {
            const int wq = w + q < ld ? w + q : w + q - ld;
            if (wq < n) X[i0 + q] = buf[e + q];
          }
        }
      }
    }
    const int cr = tid == 0 ? ph / V : nv - 1;
    if (tid < 2 && (tid == 0 || cr > ph / V) && (cr < c0 || cr >= c1)) {
      const int i0 = cr * V, e = var_pad<T>(i0);
#pragma unroll
      for (int q = 0; q < V; ++q)
        if (i0 + q >= ph && i0 + q < npos && (!gaps || (i0 + q - ph) % ld < n))
          X[i0 + q] = buf[e + q];
    }
  } else {
    T *X = (T *)p.op[4] + row0;
    for (int e = tid; e < nrows; e += P)
      if (!gaps || e % ld < n) X[e] = buf[var_pad<T>(e)];
  }
}

} /* namespace tridi_cuda */

#endif
