/* PACKED variable-size batches on the GPU: a batch of independent systems
 * stored one after another is one long tridiagonal system whose couplings
 * between neighbouring systems are zero.  The plan cuts it into tiles of
 * whole systems of at most P M rows (src/cuda/variable/var_thomas_pcr.cu);
 * one thread block solves a tile with the Thomas-PCR hybrid of the scalar
 * kernels (src/cuda/scalar/chunk.cuh): P threads of M consecutive rows each,
 * a chunk eliminated in registers, the 2P-row reduced system by PCR in
 * shared memory.  a of a system's first row and c of its last row are
 * zeroed in shared memory (once a system), so the systems decouple exactly
 * and a chunk may span several of them with no test per row.  The tile is
 * one contiguous range of every operand, copied in 16-byte pieces where the
 * arrays allow: the loads and stores are coalesced whatever the lengths,
 * and the work is proportional to the real unknowns (no padding, no
 * sorting).
 *
 * Breakdown: a tile with a chunk whose inputs or x are not finite, or that
 * holds a system's first row with b = 0, is solved again by the reference
 * recurrences, one thread a system, in shared memory: those systems get the
 * reference's x and info codes (step 5 of the kernel).  So is a tile where
 * a thread's growth indicator fires (chunk.cuh; with the thread's own
 * maxima, as the systems of a tile share the reduced system, and kept per
 * segment of the chunk, a new one at each system's first row: chunk.cuh's
 * SEG): its systems are then flagged by the reference's growth rule,
 * exactly as on the CPU. */
#include "common/launch.h"
#include "var_kernels.cuh"

namespace tridi_cuda {

/* The reference Thomas (src/ref/ref_thomas.c: same operations, same checks,
 * same info codes) on the system at tile rows r .. r + n - 1 of the shared
 * tile buf ([4][LDS]: a, b, c, d): c' and d' overwrite the system's own rows
 * of c and d, x goes to its rows of a.  Returns the info code. */
template <typename T, bool GROW>
__device__ int32_t var_smem_thomas(T *buf, size_t LDS, int r, int n) {
  T *A = buf, *B = buf + LDS, *C = buf + 2 * LDS, *D = buf + 3 * LDS;
  T cp = 0, dp = 0, nmax = 0, dmax = 0;
  for (int i = 0; i < n; ++i) {
    const int e = var_pad<T>(r + i);
    const T ai = i > 0 ? A[e] : (T)0;
    const T bi = B[e];
    const T ci = i < n - 1 ? C[e] : (T)0;
    const T di = D[e];
    if (!finite_(ai) || !finite_(bi) || !finite_(ci) || !finite_(di)) return -(i + 1);
    const T acp = GROW ? ai * cp : (T)0;
    const T m = GROW ? bi - acp : bi - ai * cp;
    if (m == (T)0) return i + 1;
    if (GROW) var_growth_row<T>(ai, bi, ci, acp, m, nmax, dmax);
    const T rr = (T)1 / m;
    cp = ci * rr;
    dp = (di - ai * dp) * rr;
    if (!finite_(cp) || !finite_(dp) || !finite_(rr)) return -(i + 1);
    C[e] = cp;
    D[e] = dp;
  }
  T xn = D[var_pad<T>(r + n - 1)];
  A[var_pad<T>(r + n - 1)] = xn;
  for (int i = n - 2; i >= 0; --i) {
    const int e = var_pad<T>(r + i);
    xn = D[e] - C[e] * xn;
    if (!finite_(xn)) return -(i + 1);
    A[e] = xn;
  }
  return GROW && nmax > (T)TRIDI_GROWTH_LIMIT * dmax ? TRIDI_INFO_INACCURATE : 0;
}

/* Tile t of the batch, and the first row of system s: from the plan's
 * tables, or computed for equal lengths (UNI: VarParams::uni_n) */
template <bool UNI>
__device__ __forceinline__ VarTile var_tile(const VarParams &p, int64_t t) {
  if constexpr (UNI) {
    VarTile tile;
    tile.sys0 = t * p.uni_spt;
    const int64_t left = p.nsys - tile.sys0;
    tile.nsys = (int32_t)(left < p.uni_spt ? left : p.uni_spt);
    tile.row0 = tile.sys0 * p.uni_ld;
    /* the last system's padding is not part of the tile */
    tile.nrows = (int32_t)((tile.nsys - 1) * p.uni_ld + p.uni_n);
    return tile;
  } else {
    return p.tiles[t];
  }
}

template <bool UNI>
__device__ __forceinline__ int64_t var_off(const VarParams &p, int64_t s) {
  if constexpr (UNI)
    return s * p.uni_ld;
  else
    return p.off[s];
}

/* The rows of system s, whose first row is o0 and the next system's o1 */
template <bool UNI>
__device__ __forceinline__ int var_len(const VarParams &p, int64_t o0, int64_t o1) {
  if constexpr (UNI)
    return (int)p.uni_n;
  else
    return (int)(o1 - o0);
}

template <typename T, int M, bool GROW, bool UNI>
__global__ void __launch_bounds__(kVarThreads) var_packed_kernel(VarParams p) {
  constexpr int P = kVarThreads;
  constexpr int V = Vec<T>::n; /* elements of a 16-byte piece */
  /* a chunk never straddles a 16-byte pad (M divides the 128-byte pad
   * period) and starts on a 16-byte boundary: chunk row j sits at
   * var_pad(r0) + j, read and written as M / V 16-byte vectors */
  static_assert((128 / sizeof(T)) % M == 0 && M % V == 0, "chunks must be whole 16-byte pieces inside a pad period");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  constexpr int LDS = var_tile_lds<T>(M);
  T *buf = (T *)smem_raw; /* [4][LDS]: a, b, c, d; x reuses a */
  T *rs = buf + 4 * LDS, *rp = rs + 2 * P, *rq = rp + 2 * P;
  const int tid = threadIdx.x;
  const int r0 = tid * M;             /* this thread's chunk: positions r0 .. r0 + M - 1 */
  const int pr0 = var_pad<T>(r0);

  /* AHEAD: the plan's tile table is read one tile ahead, so that a tile's
   * copies start without waiting on a dependent load (the equal-length
   * tiles compute theirs).  f64 only: f64 PACKED +4-9 %; the f32 M = 16
   * kernel with growth detection went from 115 to 149 registers, one
   * block an SM instead of two, 0.7x (H200, docs/perf-log.md "Variable
   * PACKED: the tile table one tile ahead") */
  constexpr bool AHEAD = !UNI && sizeof(T) == 8;
  VarTile next{};
  if (AHEAD && blockIdx.x < p.ntiles) next = var_tile<UNI>(p, blockIdx.x);
  for (int64_t ti = blockIdx.x; ti < p.ntiles; ti += gridDim.x) {
    VarTile tile;
    if constexpr (AHEAD) {
      tile = next;
      if (ti + gridDim.x < p.ntiles) next = var_tile<UNI>(p, ti + gridDim.x);
    } else {
      tile = var_tile<UNI>(p, ti);
    }
    const int nrows = tile.nrows;
    /* Position i of the tile in shared memory (element var_pad(i)) holds
     * tile row i - ph.  VEC: the five arrays share their 16-byte phase
     * (p.ph0) and the shifted tile fits: ph is the phase of the tile's
     * first row in a (128-byte) line of a, so that each warp's 16-byte
     * pieces are whole lines (a tile starts at any system's first row: with
     * the phase in a 16-byte piece only, a warp's 512 bytes straddled five
     * lines, and the L2 made 1.5 sectors a request against the equal-length
     * tiles' 2.3, 10 % of the time on the H200: docs/perf-log.md); the phase
     * in a 16-byte piece where the line's does not fit; else ph = 0 and
     * element copies. */
    constexpr int L = 128 / (int)sizeof(T);
    int ph = 0;
    bool vec = false;
    if (p.ph0 >= 0) {
      const int pl = (int)(((int64_t)((uintptr_t)p.op[0] / sizeof(T)) + tile.row0) & (L - 1));
      const int pv = pl & (V - 1);
      vec = true;
      if (nrows + pl <= P * M) ph = pl;
      else if (nrows + pv <= P * M) ph = pv;
      else vec = false;
    }
    const int npos = nrows + ph; /* positions ph .. npos - 1 are the tile's rows */

    /* 1. the tile's rows of a, b, c, d into shared memory, all in flight;
     * identity rows around them */
    var_tile_load<T, M, P>(p, tile.row0, nrows, ph, vec, buf, LDS, tid);
    /* this thread's first system of the tile (offsets read while the copies fly) */
    int64_t o0 = 0, o1 = 0;
    if (tid < tile.nsys) {
      o0 = var_off<UNI>(p, tile.sys0 + tid);
      o1 = var_off<UNI>(p, tile.sys0 + tid + 1);
    }
    cp_async_wait_prev0();
    __syncthreads();

    /* 2. system boundaries, once a system: a of its first row and c of its
     * last row read as zero, so the systems decouple exactly; a first row
     * with b = 0 is a breakdown (the reference's zero pivot).  Equal
     * lengths at a row stride: the padding rows after each system but the
     * tile's last become identity rows (x = 0, never stored) */
    bool chunk_bad = false;
    for (int q = tid; q < tile.nsys; q += P) {
      if (q != tid) {
        o0 = var_off<UNI>(p, tile.sys0 + q);
        o1 = var_off<UNI>(p, tile.sys0 + q + 1);
      }
      const int r = (int)(o0 - tile.row0) + ph, n = var_len<UNI>(p, o0, o1);
      buf[var_pad<T>(r)] = (T)0;
      buf[2 * LDS + var_pad<T>(r + n - 1)] = (T)0;
      if (buf[LDS + var_pad<T>(r)] == (T)0) chunk_bad = true;
      if (UNI && q < tile.nsys - 1)
        for (int i = r + n; i < r + (int)p.uni_ld; ++i) var_identity_row<T>(buf, LDS, i);
    }
    __syncthreads();

    /* 3. chunk elimination from shared memory (16-byte loads); a chunk
     * wholly past the tile is identity rows: its reduced rows are
     * u_F = u_L = 0 */
    const bool live = r0 < npos;
    ChunkState<T, M> cs;
    if (live) {
      VarChunk<T, M> v;
      var_chunk_load<T, M>(v, buf, LDS, pr0);
      /* SEG: each system's rows of the chunk checked with their own maxima */
      chunk_eliminate<T, M, true, GROW, true>([&](int k, int j) -> T { return v.e[k][j]; }, 1, INT64_MAX, cs);
    } else {
      cs.sF = cs.pF = cs.qF = cs.sL = cs.pL = cs.qL = cs.nonfin = (T)0;
      if constexpr (GROW) cs.nmx = cs.dmx = cs.wL = (T)0;
      cs.seg_grown = false;
    }

    /* 4. the reduced system */
    bool grown = false;
    if constexpr (GROW)
      grown = pcr_reduced<T, true>(rs, rp, rq, 0, 1, 2 * tid, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL,
                                   nullptr, nullptr, 0, cs.wL, cs.nmx, cs.dmx, residual_tol<T>(0));
    else
      pcr_reduced<T>(rs, rp, rq, 0, 1, 2 * tid, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
    const T xF = cs.qF, xL = cs.qL;

    /* 5. breakdown.  The systems of a tile share its reduced system, and
     * 0 * NaN is NaN: one system's NaN/Inf (an input, or a zero pivot) would
     * reach its neighbours through the zero couplings.  So a tile with any
     * chunk that is not clean is solved again, one thread a system, by the
     * reference recurrences in shared memory (its own rows of c and d take
     * c' and d', x goes to a's rows): every system of it then has the
     * reference's x and info code.  Rare by nature; the clean tiles keep
     * the hybrid. */
    chunk_bad = chunk_bad || !finite_(cs.nonfin) || grown || (GROW && cs.seg_grown);
    if (live) {
#pragma unroll
      for (int j = 0; j < M; ++j)
        if (!finite_(chunk_x(cs, j, xF, xL))) chunk_bad = true;
    }
    const int any_bad = __syncthreads_or(chunk_bad);
    if (any_bad) {
      for (int q = tid; q < tile.nsys; q += P) {
        const int64_t s = tile.sys0 + q;
        const int64_t os = var_off<UNI>(p, s);
        const int r = (int)(os - tile.row0) + ph, n = var_len<UNI>(p, os, var_off<UNI>(p, s + 1));
        const int32_t code = var_smem_thomas<T, GROW>(buf, LDS, r, n);
        if (p.info) p.info[s] = code;
      }
    } else {
      /* 6. x into shared memory (a's region: every read of it is done;
       * the identity rows of the chunk too); info 0 for every system */
      if (live) {
        T x[M];
#pragma unroll
        for (int j = 0; j < M; ++j) x[j] = chunk_x(cs, j, xF, xL);
        var_chunk_store<T, M>(buf, pr0, x);
      }
      if (p.info)
        for (int q = tid; q < tile.nsys; q += P) p.info[tile.sys0 + q] = 0;
    }
    __syncthreads();
    /* 7. x to device memory (VEC: 16-byte stores, the ragged ends by element) */
    if constexpr (UNI)
      var_tile_store<T, P>(p, tile.row0, nrows, ph, vec, buf, tid, (int)p.uni_n, (int)p.uni_ld);
    else
      var_tile_store<T, P>(p, tile.row0, nrows, ph, vec, buf, tid);
    __syncthreads();
  }
}

/* Shared memory of the packed kernel for M rows a thread (bytes): the tile,
 * then the PCR arrays */
template <typename T, int M>
size_t var_packed_smem() {
  return (size_t)(4 * var_tile_lds<T>(M) + 6 * kVarThreads) * sizeof(T);
}

/* The instantiation for the growth detection (grow) and equal lengths (uni) */
template <typename T, int M>
auto var_packed_kernel_of(bool grow, bool uni) -> void (*)(VarParams) {
  return grow ? (uni ? var_packed_kernel<T, M, true, true> : var_packed_kernel<T, M, true, false>)
              : (uni ? var_packed_kernel<T, M, false, true> : var_packed_kernel<T, M, false, false>);
}

/* The instantiations the rows use (var_thomas_pcr.cu, and the scalar
 * kind's tiles of equal systems, src/cuda/scalar/tiles.cu): M = 8 or 16
 * rows a thread for f32, 8 for f64 (tiles of 2048 / 4096 rows: var_by_tile). */
int var_packed_rows(int M) { return kVarThreads * M; }

int var_packed_m(bool f32, int64_t nmax, int64_t total, int sms) {
  const bool big = total >= (int64_t)4 * sms * var_packed_rows(16);
  return f32 && (nmax > var_packed_rows(8) || big) ? 16 : 8;
}

/* Plan time (the plan's device current): allow the kernel its shared
 * memory; the persistent grid from the blocks an SM holds */
cudaError_t var_packed_grid(bool f32, int M, bool grow, bool uni, int64_t ntiles, int sms, int *blocks) {
  int per_sm = 0;
  const cudaError_t e = var_by_tile(f32, M, [&](auto t, auto m) {
    using T = decltype(t);
    constexpr int Mv = decltype(m)::value;
    const auto fn = var_packed_kernel_of<T, Mv>(grow, uni);
    const size_t smem = var_packed_smem<T, Mv>();
    cudaError_t r = allow_smem((const void *)fn, smem);
    if (r == cudaSuccess) r = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, kVarThreads, smem);
    return r;
  });
  *blocks = var_persistent_blocks(per_sm, sms, ntiles);
  return e;
}

/* Every tile of a PACKED batch on the stream (persistent blocks) */
cudaError_t var_packed_launch(bool f32, bool grow, bool uni, int M, const VarParams &p, int blocks,
                              cudaStream_t stream) {
  return var_by_tile(f32, M, [&](auto t, auto m) {
    using T = decltype(t);
    constexpr int Mv = decltype(m)::value;
    var_packed_kernel_of<T, Mv>(grow, uni)<<<blocks, kVarThreads, var_packed_smem<T, Mv>(), stream>>>(p);
    return cudaGetLastError();
  });
}

size_t var_packed_smem_bytes(bool f32, int M) {
  return var_by_tile(f32, M, [](auto t, auto m) { return var_packed_smem<decltype(t), decltype(m)::value>(); });
}

int32_t var_packed_phase(const void *const op[TRIDI_NUM_OPERANDS], size_t es) {
  const uintptr_t ph = (uintptr_t)op[0] % 16;
  bool same = ph % es == 0;
  for (int k = 1; k < TRIDI_NUM_OPERANDS; ++k) same = same && (uintptr_t)op[k] % 16 == ph;
  return same ? (int32_t)(ph / es) : -1;
}

} /* namespace tridi_cuda */
