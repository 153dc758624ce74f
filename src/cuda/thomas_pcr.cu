/* CUDA Thomas-PCR hybrid for batched scalar tridiagonal systems along any axis.
 *
 * Each system of length n is cut into P chunks of M consecutive rows, one
 * chunk per thread (László, Giles, Appleyard, ACM TOMS 2016, sec. 2.3).  A
 * thread eliminates its chunk with a modified Thomas sweep that expresses
 * every interior unknown through the chunk's first and last unknowns; the
 * 2P boundary equations form a reduced tridiagonal system that the P threads
 * solve together in shared memory (one odd-even reduction step, then PCR on
 * P rows: pcr_reduced); each thread then recovers its interior unknowns.
 * Every input element is read once from device memory and every output
 * written once: intermediates stay on chip.
 *
 * Four kernels and one multi-kernel solve (docs/cuda.md has the table;
 * src/cuda/tuning.h the choice):
 *  - staged:    systems along the contiguous axis, and layouts whose
 *               neighbouring systems are not adjacent.  G systems per block;
 *               the block copies the tile of a, b, c, d into shared memory
 *               with cp.async (16-byte copies when aligned; for unaligned
 *               unit-stride rows 16-byte copies of each row's aligned pieces,
 *               the row shifted by its phase; element-size otherwise),
 *               threads read their chunks from there and keep 3 M
 *               intermediates in registers; x goes back through shared
 *               memory.  n up to 8192 (f32) / 4096 (f64).
 *  - direct:    neighbouring systems adjacent in memory (interleaved
 *               batches, middle axes): G systems across a warp, loads and
 *               stores straight between device memory and registers.
 *  - cluster:   longer systems (sm_90): a tile cut into K <= 16 row blocks
 *               of one thread-block cluster, each solving its reduced rows
 *               with its own end unknowns as parameters; the 2K boundary
 *               rows are joined through distributed shared memory.
 *  - segmented: long systems of system-adjacent layouts: segments of R rows
 *               reduced to two rows each (one thread a segment), the 2n/R-row
 *               reduced systems solved by the direct kernel in the plan's
 *               workspace, then every segment solved as a direct-kernel tile
 *               with its end values known.  Reads the inputs twice.
 *  - streaming: any n; each thread sweeps its chunk of m = ceil(n / P) rows
 *               twice to form the reduced rows, then once more to solve,
 *               keeping the forward-sweep factors in shared memory or the
 *               plan's workspace.  Re-reads come from L2 at best: slowest.
 *
 * Breakdown: a system with a NaN/Inf input, a zero b_0 or a NaN/Inf in its
 * computed x is re-checked by one thread with the reference Thomas
 * recurrences on the (still intact) inputs before x is stored, so info
 * carries the same code as the CPU backends whenever the Thomas sweep itself
 * breaks down (the segmented solve: systems its reduction or reduced solve
 * flags, before any x is written).  See docs/cuda.md. */
#include "cuda_common.cuh"
#include "cuda_backend.h"
#include "tuning.h"

#include <cuda_runtime.h>

#include <type_traits>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

constexpr int kMaxThreads = 1024;

/* Kernel parameters: the normalised layout, flattened (passed by value). */
struct KParams {
  const void *op[TRIDI_NUM_OPERANDS];
  int32_t *info;
  void *ws;
  int64_t n;
  int64_t nsys;
  int64_t as[TRIDI_NUM_OPERANDS];
  int64_t bext[TRIDI_MAX_RANK];
  int64_t bstride[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
  int nbatch;
  int reused; /* bit k: operand k has a zero batch stride (the same rows serve
                 several systems): the staged kernel copies it through L1 */
};

/* Division by a run-time invariant uint32 (Granlund & Montgomery 1994). */
struct FastDiv {
  uint32_t m;
  uint32_t l;
};

FastDiv make_fastdiv(uint32_t d) {
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

/* The reference Thomas checks (src/ref/ref_thomas.c) on system s, reading the
 * inputs from device memory: returns the info code of the first breakdown of
 * the forward sweep, or -(bad_row + 1) when the sweep is clean (the solution
 * overflowed in back substitution, or the hybrid's own pivots broke down). */
template <typename T>
__device__ int32_t seq_check(const KParams &p, int64_t s, int64_t bad_row) {
  int64_t off[5];
  tridi_dev_sys_offsets(p, s, off);
  const T *A = (const T *)p.op[0] + off[0];
  const T *B = (const T *)p.op[1] + off[1];
  const T *C = (const T *)p.op[2] + off[2];
  const T *D = (const T *)p.op[3] + off[3];
  const int64_t n = p.n;
  T cp = 0, dp = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T ai = i > 0 ? A[i * p.as[0]] : (T)0;
    const T bi = B[i * p.as[1]];
    const T ci = i < n - 1 ? C[i * p.as[2]] : (T)0;
    const T di = D[i * p.as[3]];
    if (!finite_(ai) || !finite_(bi) || !finite_(ci) || !finite_(di)) return (int32_t)(-(i + 1));
    const T m = bi - ai * cp;
    if (m == (T)0) return (int32_t)(i + 1);
    const T r = (T)1 / m;
    cp = ci * r;
    dp = (di - ai * dp) * r;
    if (!finite_(cp) || !finite_(dp) || !finite_(r)) return (int32_t)(-(i + 1));
  }
  return (int32_t)(-(bad_row + 1));
}

template <typename T>
__device__ __forceinline__ T identity_value(int op) {
  return op == 1 ? (T)1 : (T)0;
}

/* Solve of the reduced system of 2P rows (normalised to unit diagonal) of
 * each of the block's systems.  Row 2*chunk is the chunk's first row (F), 2*chunk+1
 * its last (L).  rs/rp/rq: shared arrays of 2P per system, base = this
 * system's first element, stride between rows.  Every thread of the block
 * must call it; on return qF, qL hold the chunk's two unknowns.
 *
 * One step of odd-even reduction first: each thread eliminates its own F row
 * and its right neighbour's from its L row, leaving a P-row tridiagonal
 * system in the L unknowns (one row a thread: exactly PCR's first step on
 * the odd rows), solved by PCR in log2 P steps of one barrier each (the
 * arrays' two halves alternate, so a step never overwrites what a slower
 * thread may still read); then each thread recovers its F unknown from
 * its L unknown and its left neighbour's.  Against PCR on all 2P rows
 * (log2 2P steps of two rows and two barriers each): about half the
 * shared-memory traffic, reciprocals and barriers (docs/perf-log.md CUDA
 * v23). */
template <typename T>
__device__ __forceinline__ void pcr_reduced(T *rs, T *rp, T *rq, int base, int stride, int li,
                                            int R, T &sF, T &pF, T &qF, T &sL, T &pL, T &qL) {
  const int c = li >> 1, P = R >> 1;
  const int half = P * stride; /* offset of the arrays' second half */
  /* 1. the F rows, for the left neighbour */
  int o = base + c * stride;
  rs[o] = sF;
  rp[o] = pF;
  rq[o] = qF;
  __syncthreads();
  T sn = 0, pn = 0, qn = 0;
  if (c + 1 < P) {
    sn = rs[o + stride];
    pn = rp[o + stride];
    qn = rq[o + stride];
  }
  /* 2. L row with u_F (own F row) and u_F' (next chunk's F row) eliminated:
   * s y_{c-1} + y_c + pp y_{c+1} = q, y_c the chunk's last unknown */
  T s, pp, q;
  {
    const T r = rcp_<T>((T)1 - sL * pF - pL * sn);
    s = -r * sL * sF;
    pp = -r * pL * pn;
    q = r * (qL - sL * qF - pL * qn);
  }
  /* 3. PCR on the P rows, alternating halves (step 1 read the first) */
  int cur = half;
  for (int h = 1; h < P; h <<= 1) {
    o = base + cur + c * stride;
    rs[o] = s;
    rp[o] = pp;
    rq[o] = q;
    __syncthreads();
    T sm = 0, pm = 0, qm = 0, sp = 0, pq = 0, qp = 0;
    if (c - h >= 0) {
      sm = rs[o - h * stride];
      pm = rp[o - h * stride];
      qm = rq[o - h * stride];
    }
    if (c + h < P) {
      sp = rs[o + h * stride];
      pq = rp[o + h * stride];
      qp = rq[o + h * stride];
    }
    const T r = rcp_<T>((T)1 - s * pm - pp * sp);
    q = r * (q - s * qm - pp * qp);
    s = -r * s * sm;
    pp = -r * pp * pq;
    cur = half - cur;
  }
  /* 4. u_F = qF - sF y_{c-1} - pF y_c (the half not read by the last step) */
  o = base + cur + c * stride;
  rq[o] = q;
  __syncthreads();
  const T yprev = c > 0 ? rq[o - stride] : (T)0;
  qF = qF - sF * yprev - pF * q;
  qL = q;
  sF = pF = sL = pL = (T)0;
}

/* Common tail of the kernels, after the reduced solve: decide breakdown and
 * write info.  Returns after a barrier, so x may be stored afterwards (in
 * place, x is d: the sequential check must finish reading d first). */
template <typename T>
__device__ __forceinline__ void finish_info(const KParams &p, int64_t s, bool active, bool leader,
                                            int my_bad, int *badrow_g) {
  if (my_bad >= 0) atomicMax(badrow_g, my_bad);
  const int any_bad = __syncthreads_or(my_bad >= 0);
  int32_t code = 0;
  if (any_bad) {
    if (leader && active && *badrow_g >= 0) code = seq_check<T>(p, s, *badrow_g);
    __syncthreads();
  }
  if (leader && active && p.info) p.info[s] = code;
}

/* ------------------------------------------------------------------------ */
/* The chunk elimination shared by the staged and direct kernels.            */
/* ------------------------------------------------------------------------ */

/* Result of the modified Thomas sweep over one chunk of M rows: interior
 * unknown j is u_j = dl[j] - al[j] u_0 - gm[j] u_{M-1}; (sF, pF, qF) and
 * (sL, pL, qL) are the chunk's two rows of the reduced system, normalised to
 * a unit diagonal; nonfin is NaN when an input of the chunk is Inf/NaN. */
template <typename T, int M>
struct ChunkState {
  static constexpr int kM = M;
  T dl[M], al[M], gm[M];
  T sF, pF, qF, sL, pL, qL;
  T nonfin;
  bool b0_zero;
};

/* The modified Thomas sweep over a chunk or segment whose first unknown u_0
 * is a parameter: after step() of row k, u_k = dlt - alt u_0 - gmt u_{k+1};
 * last() turns the chunk's last row into its reduced row
 * sL u_0 + u_last + pL u_next = qL. */
template <typename T>
struct FwdSweep {
  T dlt = 0, alt = -1, gmt = 0; /* u_0 = 0 - (-1) u_0 - 0 u_1 */
  __device__ __forceinline__ void step(T ak, T bk, T ck, T dk) {
    const T r = rcp_<T>(bk - ak * gmt);
    gmt = r * ck;
    dlt = r * (dk - ak * dlt);
    alt = -r * ak * alt;
  }
  __device__ __forceinline__ void last(T aL, T bL, T cL, T dL, T &sL, T &pL, T &qL) const {
    const T inv = rcp_<T>(bL - aL * gmt);
    sL = -aL * alt * inv;
    pL = cL * inv;
    qL = (dL - aL * dlt) * inv;
  }
};

/* The first row's reduced row sF u_{-1} + u_0 + pF u_last = qF, from row 0
 * and u_1 = d1 - a1 u_0 - g1 u_last */
template <typename T>
__device__ __forceinline__ void first_row(T a0, T b0, T c0, T d0, T d1, T a1, T g1, T &sF, T &pF, T &qF) {
  const T inv = rcp_<T>(b0 - c0 * a1);
  sF = a0 * inv;
  pF = -c0 * g1 * inv;
  qF = (d0 - c0 * d1) * inv;
}

/* ld(k, j): operand k (0 a, 1 b, 2 c, 3 d) of chunk row j.  FULL: every row
 * of the chunk is a row of the system (< n), so only a_0 of row 0 and c of
 * row n-1 need masking; otherwise rows >= n are identity rows (not read). */
template <typename T, int M, bool FULL, typename Load, typename CS>
__device__ __forceinline__ void chunk_eliminate(const Load &ld, int64_t row0, int64_t n, CS &c) {
  auto get = [&](int k, int j) -> T {
    const int64_t row = row0 + j;
    if (!FULL && row >= n) return identity_value<T>(k);
    T v = ld(k, j);
    if (k == 0 && j == 0) v = row0 == 0 ? (T)0 : v;
    if (k == 2 && (!FULL || j == M - 1)) v = row == n - 1 ? (T)0 : v;
    return v;
  };
  const T a0 = get(0, 0), b0 = get(1, 0), c0 = get(2, 0), d0 = get(3, 0);
  /* 0 * v is NaN exactly when v is Inf or NaN: an Inf input can otherwise
   * vanish from the hybrid's result (e.g. an infinite b_0) */
  T nonfin = a0 * (T)0 + b0 * (T)0 + c0 * (T)0 + d0 * (T)0;
  FwdSweep<T> f;
#pragma unroll
  for (int k = 1; k < M - 1; ++k) {
    const T ak = get(0, k), bk = get(1, k), ck = get(2, k), dk = get(3, k);
    nonfin += ak * (T)0 + bk * (T)0 + ck * (T)0 + dk * (T)0;
    f.step(ak, bk, ck, dk);
    c.dl[k] = f.dlt;
    c.al[k] = f.alt;
    c.gm[k] = f.gmt;
  }
  {
    const T aL = get(0, M - 1), bL = get(1, M - 1), cL = get(2, M - 1), dLv = get(3, M - 1);
    nonfin += aL * (T)0 + bL * (T)0 + cL * (T)0 + dLv * (T)0;
    f.last(aL, bL, cL, dLv, c.sL, c.pL, c.qL);
  }
#pragma unroll
  for (int k = M - 3; k >= 1; --k) {
    c.dl[k] -= c.gm[k] * c.dl[k + 1];
    c.al[k] -= c.gm[k] * c.al[k + 1];
    c.gm[k] = -c.gm[k] * c.gm[k + 1];
  }
  {
    const T d1 = M > 2 ? c.dl[1] : (T)0, a1 = M > 2 ? c.al[1] : (T)0,
            g1 = M > 2 ? c.gm[1] : (T)-1;
    first_row(a0, b0, c0, d0, d1, a1, g1, c.sF, c.pF, c.qF);
  }
  c.nonfin = nonfin;
  c.b0_zero = b0 == (T)0;
}

/* chunk_eliminate for rows [row0, row0 + M): the bounds-free variant when
 * the whole chunk lies below neff */
template <typename T, int M, typename Load>
__device__ __forceinline__ void eliminate_chunk(const Load &ld, int64_t row0, int64_t neff, ChunkState<T, M> &cs) {
  if (row0 + M <= neff)
    chunk_eliminate<T, M, true>(ld, row0, neff, cs);
  else
    chunk_eliminate<T, M, false>(ld, row0, neff, cs);
}

template <typename T, typename CS>
__device__ __forceinline__ T chunk_x(const CS &c, int j, T xF, T xL) {
  constexpr int M = CS::kM;
  return j == 0 ? xF : (j == M - 1 ? xL : c.dl[j] - c.al[j] * xF - c.gm[j] * xL);
}

__device__ __forceinline__ int clamp_row(int64_t r) { return r < INT32_MAX ? (int)r : INT32_MAX - 1; }

/* Shared-memory rows are padded by 16 bytes after every 128 bytes: chunk
 * reads of consecutive threads spread over the banks, and 16-byte copies
 * stay aligned. */
template <typename T>
struct Pad {
  static constexpr int W = 128 / sizeof(T);
  static constexpr int V = 16 / sizeof(T);
};

template <typename T>
__device__ __forceinline__ int padded(int r) {
  return r + (r / Pad<T>::W) * Pad<T>::V;
}

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

/* Blocks of the staged and direct kernels have at most 512 threads; tiles
 * of up to 32 bytes a thread and operand get 64 registers (two blocks an
 * SM), larger ones 128. */
constexpr int kTileThreads = 512;
template <typename T, int M>
struct TileMinBlocks {
  static constexpr int value = sizeof(T) * M <= 32 ? 2 : 1;
};

/* Bytes of the staged kernel's shared header (per-system offsets of NB
 * tiles and the breakdown rows), rounded up so that the tile buffers that
 * follow are 16-byte aligned (cp.async). */
__host__ __device__ constexpr size_t staged_hdr_bytes(int nb, int G, bool ph = false) {
  return ((size_t)nb * 5 * 8 * G + (size_t)8 * G + (ph ? (size_t)5 * 4 * G : 0) + 15) / 16 * 16;
}

/* ------------------------------------------------------------------------ */
/* Staged kernel (systems along the contiguous axis, or any layout): G
 * systems per block, P = 2^logP threads per system (system-major thread
 * order), M rows per thread.  ROWMAJOR: the staging copy walks each
 * system's rows; otherwise systems first.  VEC: 16-byte loads and stores
 * (ROWMAJOR, unit axis strides, n and every system offset a multiple of the
 * vector width, 16-byte aligned arrays: checked by the host).               */
/* ------------------------------------------------------------------------ */

template <typename T, int M, bool ROWMAJOR, bool VEC, bool PIPE, bool PH = false, bool L1 = false>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_staged(KParams p, int G, int logG, int logP, int LD, FastDiv ndiv) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  static_assert(!PIPE || VEC, "the pipelined variant copies with cp.async");
  static_assert(!PH || (ROWMAJOR && !VEC && !PIPE), "PH: unit-stride rows at any alignment");
  /* PH: each system's rows sit in shared memory shifted by its 16-byte
   * phase (element r at padded(r + ph)), so that the 16-byte pieces of the
   * row inside the system go with one 16-byte cp.async each and only the
   * ragged ends element by element */
  constexpr int V = VEC ? Vec<T>::n : 1;
  constexpr int VP = Vec<T>::n;
  using VT = typename Vec<T>::type;
  constexpr int NB = PIPE ? 2 : 1; /* tile buffers: PIPE copies tile i+1 while tile i is solved */
  const int P = 1 << logP;
  const int nt = blockDim.x;
  const int tid = threadIdx.x;
  int64_t *soff_all = (int64_t *)smem_raw;        /* [NB][5][G] */
  int *badrow = (int *)(soff_all + NB * 5 * G);   /* [G], 8 bytes each */
  int *phs = badrow + 2 * G;                      /* PH: [5][G] phases */
  T *buf_all = (T *)(smem_raw + staged_hdr_bytes(NB, G, PH)); /* [NB][4][G][LD], 16-byte aligned */
  T *rs = buf_all + (size_t)NB * 4 * G * LD;
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;

  const int g = tid >> logP;
  const int chunk = tid & (P - 1);
  const int n = (int)p.n;
  /* vectors (or elements) per system; PH: 16-byte chunks per system */
  const uint32_t nv = PH ? (uint32_t)(n / VP + 2) : (uint32_t)(n / V);
  const uint32_t tot = (uint32_t)G * nv;  /* ndiv divides by nv */
  const int64_t step = (int64_t)gridDim.x * G;

  auto set_offsets = [&](int64_t *so, int64_t sb) {
    tridi_dev_stage_offsets(p, sb, G, tid, so);
    if (PH && tid < G) {
#pragma unroll
      for (int k = 0; k < 5; ++k)
        phs[k * G + tid] = (int)(((uintptr_t)((const T *)p.op[k] + so[k * G + tid]) / sizeof(T)) % VP);
    }
  };
  /* 16-byte asynchronous copies of the four inputs of tile sb (VEC) */
  auto issue_tile = [&](T *bufp, const int64_t *so, int64_t sb) {
    const int gm = (int)((p.nsys - sb) < G ? (p.nsys - sb) : G);
    constexpr int ITER = (M + V - 1) / V;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const T *src = (const T *)p.op[k];
      T *dst = bufp + (size_t)k * G * LD;
#pragma unroll
      for (int j = 0; j < ITER; ++j) {
        const uint32_t e = (uint32_t)tid + (uint32_t)j * (uint32_t)nt;
        const uint32_t gg = fdiv(e, ndiv);
        const uint32_t r = e - gg * nv;
        if (e < tot && (int)gg < gm)
          cp_async16(dst + (int)gg * LD + padded<T>((int)(r * V)), src + so[k * G + gg] + (int64_t)r * V,
                     L1 && ((p.reused >> k) & 1));
      }
    }
  };

  int it = 0;
  if (PIPE && (int64_t)blockIdx.x * G < p.nsys) {
    set_offsets(soff_all, (int64_t)blockIdx.x * G);
    __syncthreads();
    issue_tile(buf_all, soff_all, (int64_t)blockIdx.x * G);
    cp_async_commit();
  }
  for (int64_t sbase = (int64_t)blockIdx.x * G; sbase < p.nsys; sbase += step, ++it) {
    const int cur = PIPE ? (it & 1) : 0;
    int64_t *soff = soff_all + cur * 5 * G;
    T *buf = buf_all + (size_t)cur * 4 * G * LD;
    if (PIPE) {
      if (sbase + step < p.nsys) set_offsets(soff_all + (cur ^ 1) * 5 * G, sbase + step);
    } else {
      set_offsets(soff, sbase);
    }
    if (tid < G) badrow[tid] = -1;
    __syncthreads();
    const int gmax = (int)((p.nsys - sbase) < G ? (p.nsys - sbase) : G);

    /* 1. stage a, b, c, d.  PIPE: tile i+1's copies go out now, tile i's
     * were issued one iteration ago.  VEC: 16-byte asynchronous copies of
     * all four operands in flight at once; otherwise element-size
     * asynchronous copies, also all in flight. */
    if (PIPE) {
      if (sbase + step < p.nsys)
        issue_tile(buf_all + (size_t)(cur ^ 1) * 4 * G * LD, soff_all + (cur ^ 1) * 5 * G, sbase + step);
      cp_async_commit();
      cp_async_wait_prev();
    } else if (VEC) {
      issue_tile(buf, soff, sbase);
      cp_async_commit();
      cp_async_wait_prev0();
    }
    if (PH) {
      /* 16-byte pieces inside each system, ragged ends element by element;
       * chunk c of a system holds elements c VP - ph ... c VP - ph + VP - 1 */
      const uint32_t totp = (uint32_t)G * nv; /* nv: chunks a system (host: n / VP + 2) */
      for (uint32_t e = tid; e < totp; e += nt) {
        const uint32_t gg = fdiv(e, ndiv);
        const uint32_t c = e - gg * nv;
        if ((int)gg >= gmax) continue;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const T *src = (const T *)p.op[k] + soff[k * G + gg];
          T *dst = buf + (size_t)k * G * LD + (size_t)gg * LD + padded<T>((int)(c * VP));
          const int r0 = (int)(c * VP) - phs[k * G + gg];
          if (r0 >= 0 && r0 + VP <= n) {
            cp_async16(dst, src + r0, L1 && ((p.reused >> k) & 1));
          } else {
#pragma unroll
            for (int q = 0; q < VP; ++q)
              if (r0 + q >= 0 && r0 + q < n) cp_async_elem(dst + q, src + r0 + q);
          }
        }
      }
      cp_async_commit();
      cp_async_wait_prev0();
    } else if (!VEC) {
      /* element-size asynchronous copies: all four operands in flight */
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const T *src = (const T *)p.op[k];
        const int64_t st = p.as[k];
        const int64_t *so = soff + k * G;
        T *dst = buf + (size_t)k * G * LD;
#pragma unroll 4
        for (int j = 0; j < M; ++j) {
          const uint32_t e = (uint32_t)tid + (uint32_t)j * (uint32_t)nt;
          uint32_t gg, r;
          if (ROWMAJOR) {
            gg = fdiv(e, ndiv);
            r = e - gg * nv;
          } else {
            r = e >> logG;
            gg = e & (uint32_t)(G - 1);
          }
          if (e < tot && (int)gg < gmax)
            cp_async_elem(dst + (int)gg * LD + padded<T>((int)r), src + so[gg] + (int64_t)r * st);
        }
      }
      cp_async_commit();
      cp_async_wait_prev0();
    }
    __syncthreads();

    /* 2. chunk elimination from shared memory */
    const bool active = g < gmax;
    const int64_t neff = active ? n : 0;
    const int row0 = chunk * M;
    /* a chunk never straddles a 16-byte pad: M divides the 128-byte pad
     * period and row0 is a multiple of M, so padded(row0 + j) is
     * padded(row0) + j and every load can be base + constant.  f32 only:
     * there it cut 118 -> 91 registers and gained 6-10% of copy at
     * n = 256..2048; the f64 build of the same code lost 8% at n = 2048
     * (H200, docs/perf-log.md CUDA v10), so f64 keeps the per-load offsets. */
    static_assert(Pad<T>::W % M == 0, "chunks must not straddle a shared-memory pad");
    const int prow0 = padded<T>(row0);
    const T *sa = buf + g * LD;
    const size_t kstride = (size_t)G * LD;
    int ph[5] = {0, 0, 0, 0, 0};
    if (PH) {
#pragma unroll
      for (int k = 0; k < 5; ++k) ph[k] = phs[k * G + (active ? g : 0)];
    }
    auto ld = [&](int k, int j) -> T {
      if constexpr (PH)
        return sa[k * kstride + padded<T>(row0 + j + ph[k])];
      else if constexpr (sizeof(T) == 4)
        return sa[k * kstride + prow0 + j];
      else
        return sa[k * kstride + padded<T>(row0 + j)];
    };
    ChunkState<T, M> cs;
    /* eliminate_chunk's body, written out: through the helper two staged
     * variants compiled to different code (±16-32 SASS instructions, nvcc 13.0) */
    if (row0 + M <= neff)
      chunk_eliminate<T, M, true>(ld, row0, neff, cs);
    else
      chunk_eliminate<T, M, false>(ld, row0, neff, cs);

    /* 3. reduced system */
    pcr_reduced<T>(rs, rp, rq, g * 2 * P, 1, 2 * chunk, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
    const T xF = cs.qF, xL = cs.qL;

    /* 4. unknowns into shared memory (buf's a region is free: every read of
     * buf happened before the PCR barriers), breakdown check, x out */
    int my_bad = (active && ((chunk == 0 && cs.b0_zero) || !finite_(cs.nonfin))) ? row0 : -1;
    if (active) {
      T *xs = buf + g * LD;
#pragma unroll
      for (int j = 0; j < M; ++j) {
        const T xj = chunk_x(cs, j, xF, xL);
        if (row0 + j < n) {
          xs[PH ? padded<T>(row0 + j + ph[4]) : prow0 + j] = xj;
          if (!finite_(xj)) my_bad = row0 + j;
        }
      }
    }
    finish_info<T>(p, sbase + g, active, chunk == 0, my_bad, &badrow[g]);
    __syncthreads();
    if (PH) {
      /* x: whole 16-byte pieces inside each system, ragged ends by element */
      T *X = (T *)p.op[4];
      const int64_t *so = soff + 4 * G;
      for (uint32_t e = tid; e < (uint32_t)G * nv; e += nt) {
        const uint32_t gg = fdiv(e, ndiv);
        const uint32_t c = e - gg * nv;
        if ((int)gg >= gmax) continue;
        const T *xs = buf + (size_t)gg * LD + padded<T>((int)(c * VP));
        T *dst = X + so[gg];
        const int r0 = (int)(c * VP) - phs[4 * G + gg];
        if (r0 >= 0 && r0 + VP <= n) {
          VT v;
#pragma unroll
          for (int q = 0; q < VP; ++q) ((T *)&v)[q] = xs[q];
          *(VT *)(dst + r0) = v;
        } else {
#pragma unroll
          for (int q = 0; q < VP; ++q)
            if (r0 + q >= 0 && r0 + q < n) dst[r0 + q] = xs[q];
        }
      }
    } else {
      T *X = (T *)p.op[4];
      const int64_t *so = soff + 4 * G;
      const int64_t st = p.as[4];
      for (uint32_t e = tid; e < tot; e += nt) {
        uint32_t gg, r;
        if (ROWMAJOR) {
          gg = fdiv(e, ndiv);
          r = e - gg * nv;
        } else {
          r = e >> logG;
          gg = e & (uint32_t)(G - 1);
        }
        if ((int)gg < gmax) {
          const int pos = (int)gg * LD + padded<T>((int)(r * V));
          if (VEC) {
            VT v;
#pragma unroll
            for (int q = 0; q < V; ++q) ((T *)&v)[q] = buf[pos + q];
            *(VT *)(X + so[gg] + (int64_t)r * V) = v;
          } else {
            X[so[gg] + (int64_t)r * st] = buf[pos];
          }
        }
      }
    }
    __syncthreads();
  }
}

/* ptr[k]: row `row` of operand k (a, b, c, d) of system g of a tile whose
 * offsets are soff[k * G + g]; st[k]: the operand's axis stride */
template <typename T>
__device__ __forceinline__ void operand_rows(const KParams &p, const int64_t *soff, int G, int g, int64_t row,
                                             const T *ptr[4], int64_t st[4]) {
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    st[k] = p.as[k];
    ptr[k] = (const T *)p.op[k] + soff[k * G + g] + row * st[k];
  }
}

/* Chunk rows [row0, row0 + M) of system g of a tile (offsets soff[k * G +
 * g]) loaded straight from device memory into registers and eliminated: the
 * direct and cluster kernels.  UNIT (cluster kernel, one system a tile,
 * unit axis strides): a full chunk whose four rows are 16-byte aligned is
 * read with 16-byte loads (M elements a thread are M * sizeof(T) <= 64
 * consecutive bytes; element loads of consecutive threads are 8-16 sectors
 * apart, ncu: 75% of the sectors excessive). */
template <typename T, int M, bool UNIT = false>
__device__ __forceinline__ void direct_eliminate(const KParams &p, const int64_t *soff, int G, int g,
                                                 int64_t row0, int64_t neff, ChunkState<T, M> &cs) {
  const T *ptr[4];
  int64_t st[4];
  operand_rows<T>(p, soff, G, g, row0, ptr, st);
  if constexpr (UNIT) {
    static_assert((M * sizeof(T)) % 16 == 0, "UNIT chunks are whole 16-byte pieces");
    bool vec = row0 + M <= neff;
#pragma unroll
    for (int k = 0; k < 4; ++k) vec = vec && ((uintptr_t)ptr[k] & 15) == 0;
    if (vec) {
      constexpr int NV = (int)(M * sizeof(T) / 16);
      union {
        uint4 q[4][NV];
        T e[4][M];
      } v;
#pragma unroll
      for (int k = 0; k < 4; ++k)
#pragma unroll
        for (int i = 0; i < NV; ++i)
          v.q[k][i] = k < 3 ? __ldg((const uint4 *)ptr[k] + i) : ((const uint4 *)ptr[k])[i];
      chunk_eliminate<T, M, true>([&](int k, int j) -> T { return v.e[k][j]; }, row0, neff, cs);
      return;
    }
  }
  auto ld = [&](int k, int j) -> T { return k < 3 ? __ldg(ptr[k] + j * st[k]) : ptr[k][j * st[k]]; };
  eliminate_chunk<T, M>(ld, row0, neff, cs);
}

/* NaN when an unknown of the chunk (rows < neff) is Inf or NaN */
template <typename T, int M>
__device__ __forceinline__ T chunk_xfin(const ChunkState<T, M> &cs, int64_t row0, int64_t neff, T xF, T xL) {
  T xfin = xF * (T)0 + xL * (T)0;
#pragma unroll
  for (int j = 1; j < M - 1; ++j)
    if (row0 + j < neff) xfin += chunk_x(cs, j, xF, xL) * (T)0;
  return xfin;
}

/* x of the chunk's rows < n, straight to device memory (UNIT: as in
 * direct_eliminate, 16-byte stores for a full aligned chunk) */
template <typename T, int M, bool UNIT = false>
__device__ __forceinline__ void direct_store(const KParams &p, const int64_t *soff, int G, int g,
                                             int64_t row0, int64_t n, const ChunkState<T, M> &cs, T xF, T xL) {
  T *X = (T *)p.op[4] + soff[4 * G + g];
  const int64_t sx = p.as[4];
  if constexpr (UNIT) {
    T *xr = X + row0;
    if (row0 + M <= n && ((uintptr_t)xr & 15) == 0) {
      constexpr int NV = (int)(M * sizeof(T) / 16);
      union {
        uint4 q[NV];
        T e[M];
      } v;
#pragma unroll
      for (int j = 0; j < M; ++j) v.e[j] = chunk_x(cs, j, xF, xL);
#pragma unroll
      for (int i = 0; i < NV; ++i) ((uint4 *)xr)[i] = v.q[i];
      return;
    }
  }
  /* A full chunk with no per-row bounds and one pointer step a row: 5
   * instructions a row instead of ~15 (SASS), +3-7 points of copy for f32
   * M = 8, 16 on interleaved / mid3d at n <= 512.  The 128-byte chunks (f32
   * M = 32, f64 M = 16) measured 2-5 points slower with it, and f64 M = 4
   * spilled with it (93 -> 84% at n = 32), so these keep the per-row path
   * (H200, docs/perf-log.md CUDA v20). */
  if constexpr (M >= 8 && M * sizeof(T) <= 64) {
    if (row0 + M <= n) {
      T *xr = X + row0 * sx;
#pragma unroll
      for (int j = 0; j < M; ++j, xr += sx) *xr = chunk_x(cs, j, xF, xL);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < M; ++j)
    if (row0 + j < n) X[(row0 + j) * sx] = chunk_x(cs, j, xF, xL);
}

/* ------------------------------------------------------------------------ */
/* Direct kernel (neighbouring systems adjacent in memory: interleaved
 * batches, the middle axes of N-d arrays): G = 2^logG systems across the
 * threads of a warp, P = 2^logP threads per system, M rows each, loads and
 * stores straight between device memory and registers (coalesced across
 * the G systems).                                                          */
/* ------------------------------------------------------------------------ */

/* The direct kernels' common tail after the chunk elimination: reduced
 * solve, breakdown check on the values, x stored only after finish_info (in
 * place, x is d and the sequential check reads d). */
template <typename T, int M>
__device__ __forceinline__ void direct_finish(const KParams &p, const int64_t *soff, T *rs, T *rp, T *rq,
                                              int *badrow, int G, int g, int P, int chunk, int64_t sbase,
                                              bool active, int64_t neff, ChunkState<T, M> &cs) {
  const int64_t n = p.n, row0 = (int64_t)chunk * M;
  pcr_reduced<T>(rs, rp, rq, g, G, 2 * chunk, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
  const T xF = cs.qF, xL = cs.qL;
  const T xfin = chunk_xfin<T, M>(cs, row0, neff, xF, xL);
  int my_bad = -1;
  if (active && row0 < n && ((chunk == 0 && cs.b0_zero) || !finite_(cs.nonfin) || !finite_(xfin)))
    my_bad = clamp_row(row0);
  finish_info<T>(p, sbase + g, active, chunk == 0, my_bad, &badrow[g]);
  if (active) direct_store<T, M>(p, soff, G, g, row0, n, cs, xF, xL);
}

template <typename T, int M>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_direct(KParams p, int logG, int logP) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG, P = 1 << logP;
  const int tid = threadIdx.x;
  int64_t *soff = (int64_t *)smem_raw;
  int *badrow = (int *)(soff + 5 * G);
  T *rs = (T *)(badrow + 2 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  const int64_t row0 = (int64_t)chunk * M;

  for (int64_t sbase = (int64_t)blockIdx.x * G; sbase < p.nsys;
       sbase += (int64_t)gridDim.x * G) {
    tridi_dev_stage_offsets(p, sbase, G, tid, soff);
    if (tid < G) badrow[tid] = -1;
    __syncthreads();
    const bool active = sbase + g < p.nsys;
    const int64_t neff = active ? n : 0;
    ChunkState<T, M> cs;
    direct_eliminate<T, M>(p, soff, G, g, row0, neff, cs);
    direct_finish<T, M>(p, soff, rs, rp, rq, badrow, G, g, P, chunk, sbase, active, neff, cs);
    __syncthreads();
  }
}

/* Direct kernel, pipelined over a persistent grid (table rows with pipe = 1,
 * layouts whose systems span little memory: TRIDI_CUDA_PIPE_MAX_EXTENT):
 * the same tile and solve, but each block walks tiles t, t + grid, ... and
 * copies the next tile's inputs into shared memory (cp.async) while it
 * solves and stores the current one.  The plain direct kernel uses almost
 * no shared memory and holds one or two blocks an SM, so an SM's loads stop
 * while its block runs the reduced solve and stores x; here they go on.
 * Tile buffer: operand k, chunk c, row j, system g at k P CP + c CP + j G +
 * g, the chunk pitch CP = M G + pad (CP = G mod 128 bytes: the chunks of a
 * warp start in different banks).  docs/perf-log.md CUDA v25. */

/* The copy of one tile.  The plan takes this kernel only where every input
 * has G adjacent systems and rows of 16-byte multiples; there a full tile
 * whose first system is 16-byte aligned goes in 16-byte pieces of V systems,
 * one operand at a time (few registers), consecutive pieces in different
 * chunks (a warp's pieces spread over the system); otherwise each thread
 * copies its own chunk element by element (the plain kernel's loads, made
 * asynchronous). */
template <typename T, int M>
__device__ __forceinline__ void pipe_copy(const KParams &p, const int64_t *soff, int G, int logG, int logP,
                                          int64_t sbase, int CP, int KS, T *tile) {
  const int tid = threadIdx.x, nth = blockDim.x;
  const int64_t n = p.n;
  constexpr int V = 16 / sizeof(T);
  constexpr int logM = M == 4 ? 2 : (M == 8 ? 3 : 4);
  bool vec = true;
  for (int k = 0; k < 4; ++k) vec = vec && ((uintptr_t)((const T *)p.op[k] + soff[k * G]) & 15) == 0;
  if (vec && sbase + G <= p.nsys) {
    const int logW = logG - (sizeof(T) == 4 ? 2 : 1); /* 16-byte pieces a row: G / V */
    const int total = (M << logP) << logW;
#pragma unroll 1
    for (int k = 0; k < 4; ++k) {
      const int64_t as = p.as[k];
      const T *base = (const T *)p.op[k] + soff[k * G];
      T *dst = tile + k * KS;
      for (int i = tid; i < total; i += nth) {
        const int q = i >> logW, v = (i & ((1 << logW) - 1)) * V;
        const int r = ((q & ((1 << logP) - 1)) << logM) + (q >> logP); /* chunk q mod P, row q / P */
        if (r < n) cp_async16(dst + (r >> logM) * CP + (r & (M - 1)) * G + v, base + r * as + v);
      }
    }
  } else {
    const int g = tid & (G - 1), chunk = tid >> logG;
    const int64_t row0 = (int64_t)chunk * M;
    if (sbase + g < p.nsys && row0 < n) {
      const int nr = n - row0 < M ? (int)(n - row0) : M;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int64_t as = p.as[k];
        const T *src = (const T *)p.op[k] + soff[k * G + g] + row0 * as;
        T *dst = tile + k * KS + chunk * CP + g;
        if (nr == M) {
#pragma unroll
          for (int j = 0; j < M; ++j) cp_async_elem<T>(dst + j * G, src + j * as);
        } else {
          for (int j = 0; j < nr; ++j) cp_async_elem<T>(dst + j * G, src + j * as);
        }
      }
    }
  }
  cp_async_commit();
}

template <typename T, int M>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_direct_pipe(KParams p, int logG, int logP, int CP) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG, P = 1 << logP;
  const int tid = threadIdx.x;
  int64_t *soffb = (int64_t *)smem_raw; /* two tiles' offsets, alternating */
  int *badrow = (int *)(soffb + 10 * G);
  T *rs = (T *)(badrow + 2 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  T *tile = (T *)(((uintptr_t)(rq + (size_t)2 * G * P) + 15) & ~(uintptr_t)15);
  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  const int64_t row0 = (int64_t)chunk * M;
  const int KS = P * CP;
  const int64_t ntiles = (p.nsys + G - 1) >> logG;

  int64_t t = blockIdx.x;
  if (t >= ntiles) return;
  tridi_dev_stage_offsets(p, t * G, G, tid, soffb);
  __syncthreads();
  pipe_copy<T, M>(p, soffb, G, logG, logP, t * G, CP, KS, tile);
  for (int buf = 0; t < ntiles; t += gridDim.x, buf ^= 1) {
    const int64_t sbase = t * G, tn = t + gridDim.x;
    const int64_t *soff = soffb + buf * 5 * G, *soffn = soffb + (buf ^ 1) * 5 * G;
    if (tid < G) badrow[tid] = -1;
    if (tn < ntiles) tridi_dev_stage_offsets(p, tn * G, G, tid, (int64_t *)soffn);
    cp_async_wait_prev0();
    __syncthreads();
    const bool active = sbase + g < p.nsys;
    const int64_t neff = active ? n : 0;
    /* the chunk eliminated from the buffer, then the next tile's copy */
    const T *src = tile + chunk * CP + g;
    ChunkState<T, M> cs;
    eliminate_chunk<T, M>([&](int k, int j) -> T { return src[k * KS + j * G]; }, row0, neff, cs);
    __syncthreads();
    if (tn < ntiles) pipe_copy<T, M>(p, soffn, G, logG, logP, tn * G, CP, KS, tile);
    direct_finish<T, M>(p, soff, rs, rp, rq, badrow, G, g, P, chunk, sbase, active, neff, cs);
    __syncthreads();
  }
}

/* ------------------------------------------------------------------------ */
/* Segmented solve (system-adjacent layouts, long systems), three kernels
 * and the direct kernel in between:
 *  1. seg_reduce: each system is cut into S segments of R rows; one thread a
 *     segment eliminates its interior in one forward sweep (O(1) state) into
 *     the segment's two boundary rows, written to the plan's workspace as a
 *     2S-row tridiagonal system per system (interleaved: row i of system s
 *     at i * nsys + s, unit diagonal shared by all rows);
 *  2. the direct kernel solves those reduced systems in place;
 *  3. seg (below): every segment is a tile of R rows of the direct kernel's
 *     small-n shape, its neighbours' boundary unknowns known (folded into
 *     d of its first and last rows); tiles run in the reverse order of step
 *     1, so that the first ones read what step 1 left in L2;
 *  4. seg_info: info (only when the caller asks for it).
 * Inputs are read twice (9 words of traffic a row against 5); in exchange
 * no tile holds more than R rows of a system on chip (docs/cuda.md,
 * "segmented"). */
/* ------------------------------------------------------------------------ */

struct SegParams {
  void *red[3];     /* reduced a, c, d (d becomes x), row i of system s at i * nsys + s */
  void *one;        /* one element 1: the reduced diagonal, broadcast */
  int32_t *redinfo; /* info of the reduced solve: nonzero marks a broken system */
  int32_t *ovf;     /* 1 + first row of a chunk with a non-finite x (0: none) */
  int R, S;
  FastDiv sdiv;     /* division by S */
};

/* One thread a segment: Q = 2^logQ segments of G = 2^logG adjacent systems
 * a block.  The segment's rows [s R, s R + R) (rows >= n: identity) give
 *   F: sF u_{-1} + u_0 + pF u_{R-1} = qF,   L: sL u_0 + u_{R-1} + pL u_R = qL
 * as chunk_eliminate does for a chunk, but in one forward sweep: u_1 is
 * carried as D - A u_0 - Gc u_{k+1} while row k is eliminated.  A segment
 * with a NaN/Inf input, or a zero b_0 in the first segment, gets qF = NaN,
 * so the reduced solve reports its system. */
template <typename T>
__global__ void __launch_bounds__(256) tridi_seg_reduce(KParams p, SegParams sp, int logG, int logQ) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  int64_t *soff = (int64_t *)smem_raw;
  const int G = 1 << logG, Q = 1 << logQ;
  const int tid = threadIdx.x, g = tid & (G - 1), q = tid >> logG;
  const int64_t n = p.n, nsys = p.nsys;
  const int R = sp.R, S = sp.S;
  const int64_t nsb = (S + Q - 1) >> logQ;
  const int64_t ntiles = (nsys + G - 1) / G * nsb;
  T *ra = (T *)sp.red[0], *rc = (T *)sp.red[1], *rd = (T *)sp.red[2];
  if (blockIdx.x == 0 && tid == 0) *(T *)sp.one = (T)1;
  for (int64_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const int64_t gi = t / nsb;
    const int s = (int)(t - gi * nsb) * Q + q;
    const int64_t sbase = gi * G, sys = sbase + g;
    __syncthreads(); /* soff of the previous tile read */
    tridi_dev_stage_offsets(p, sbase, G, tid, soff);
    __syncthreads();
    if (sys >= nsys || s >= S) continue;
    if (s == 0) sp.ovf[sys] = 0;
    const int64_t r0 = (int64_t)s * R;
    const T *ptr[4];
    int64_t st[4];
    operand_rows<T>(p, soff, G, g, r0, ptr, st);
    T a0 = 0, b0 = 1, c0 = 0, d0 = 0, sL = 0, pL = 0, qL = 0;
    T nonfin = 0, D = 0, A = 0, Gc = -1;
    FwdSweep<T> f;
    for (int kb = 0; kb < R; kb += 8) {
      T va[8], vb[8], vc[8], vd[8];
      const bool full = r0 + kb + 8 <= n;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int64_t k = kb + j;
        if (full || r0 + k < n) {
          va[j] = __ldg(ptr[0] + k * st[0]);
          vb[j] = __ldg(ptr[1] + k * st[1]);
          vc[j] = __ldg(ptr[2] + k * st[2]);
          vd[j] = ptr[3][k * st[3]];
        } else {
          va[j] = 0;
          vb[j] = 1;
          vc[j] = 0;
          vd[j] = 0;
        }
      }
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int k = kb + j;
        const int64_t row = r0 + k;
        const T a = row == 0 ? (T)0 : va[j], b = vb[j], c = row == n - 1 ? (T)0 : vc[j], d = vd[j];
        nonfin += a * (T)0 + b * (T)0 + c * (T)0 + d * (T)0;
        if (k == 0) {
          a0 = a;
          b0 = b;
          c0 = c;
          d0 = d;
        } else if (k < R - 1) {
          f.step(a, b, c, d);
          D -= Gc * f.dlt;
          A -= Gc * f.alt;
          Gc = -Gc * f.gmt;
        } else {
          f.last(a, b, c, d, sL, pL, qL);
        }
      }
    }
    T sF, pF, qF;
    first_row(a0, b0, c0, d0, D, A, Gc, sF, pF, qF);
    if (!finite_(nonfin) || (s == 0 && b0 == (T)0)) qF = (T)NAN;
    const int64_t i0 = 2 * (int64_t)s * nsys + sys, i1 = i0 + nsys;
    ra[i0] = sF;
    rc[i0] = pF;
    rd[i0] = qF;
    ra[i1] = sL;
    rc[i1] = pL;
    rd[i1] = qL;
  }
}

/* Chunk rows [row0, row0 + M) of a segment starting at row rbase (the
 * direct kernel's loads), the neighbours' unknowns uprev = x_{rbase-1} and
 * unext = x_{rbase+R} folded into d of the segment's first and last rows;
 * row0 and neff are local to the segment. */
template <typename T, int M>
__device__ __forceinline__ void seg_eliminate(const KParams &p, const int64_t *soff, int G, int g,
                                              int64_t rbase, int64_t row0, int64_t neff, bool hasprev,
                                              bool hasnext, T uprev, T unext, ChunkState<T, M> &cs) {
  const T *ptr[4];
  int64_t st[4];
  operand_rows<T>(p, soff, G, g, rbase + row0, ptr, st);
  auto raw = [&](int k, int j) -> T { return k < 3 ? __ldg(ptr[k] + j * st[k]) : ptr[k][j * st[k]]; };
  const bool first = hasprev && row0 == 0, last = hasnext && row0 + M == neff;
  auto ld = [&](int k, int j) -> T {
    T v = raw(k, j);
    if (k == 3 && j == 0) v = first ? v - raw(0, 0) * uprev : v;
    if (k == 3 && j == M - 1) v = last ? v - raw(2, M - 1) * unext : v;
    return v;
  };
  eliminate_chunk<T, M>(ld, row0, neff, cs);
}

/* Step 3: tile t (reverse order) is segment t mod S of the G systems
 * (t / S) G...; P chunks of M rows a system, R = P M. */
template <typename T, int M>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_seg(KParams p, SegParams sp, int logG, int logP) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG, P = 1 << logP;
  const int tid = threadIdx.x;
  int64_t *soff = (int64_t *)smem_raw;
  T *rs = (T *)(soff + 5 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n, nsys = p.nsys;
  const int S = sp.S, R = sp.R;
  const int64_t row0 = (int64_t)chunk * M;
  const T *rx = (const T *)sp.red[2];
  const uint32_t ntiles = (uint32_t)((nsys + G - 1) / G) * (uint32_t)S;

  for (uint32_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const uint32_t tt = ntiles - 1 - t;
    const uint32_t gi = fdiv(tt, sp.sdiv);
    const int seg = (int)(tt - gi * (uint32_t)S);
    const int64_t sbase = (int64_t)gi * G, sys = sbase + g;
    tridi_dev_stage_offsets(p, sbase, G, tid, soff);
    __syncthreads();
    const int64_t rbase = (int64_t)seg * R;
    const int64_t nseg = n - rbase < R ? n - rbase : R;
    /* systems the reduced solve found broken are left to seg_info */
    const bool active = sys < nsys && sp.redinfo[sys] == 0;
    const int64_t neff = active ? nseg : 0;
    const bool hasprev = seg > 0, hasnext = seg < S - 1;
    T uprev = 0, unext = 0;
    if (active && hasprev) uprev = rx[(2 * (int64_t)seg - 1) * nsys + sys];
    if (active && hasnext) unext = rx[(2 * (int64_t)seg + 2) * nsys + sys];
    ChunkState<T, M> cs;
    seg_eliminate<T, M>(p, soff, G, g, rbase, row0, neff, hasprev, hasnext, uprev, unext, cs);
    pcr_reduced<T>(rs, rp, rq, g, G, 2 * chunk, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
    const T xF = cs.qF, xL = cs.qL;
    const T xfin = chunk_xfin<T, M>(cs, row0, neff, xF, xL);
    if (active && row0 < nseg && (!finite_(cs.nonfin) || !finite_(xfin)))
      atomicMax(&sp.ovf[sys], clamp_row(rbase + row0) + 1);
    if (active) direct_store<T, M>(p, soff, G, g, rbase + row0, n, cs, xF, xL);
    __syncthreads();
  }
}

/* Step 4: info of every system.  A system the reduced solve found broken
 * (a NaN/Inf input, a zero b_0, a breakdown of the segment sweeps or of the
 * reduced solve) has had no x written, so its inputs are intact (in place
 * too) for the reference check; otherwise a non-finite x of step 3 gives
 * -(first row of its chunk + 1). */
template <typename T>
__global__ void tridi_seg_info(KParams p, SegParams sp) {
  for (int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; s < p.nsys;
       s += (int64_t)gridDim.x * blockDim.x) {
    int32_t code = 0;
    if (sp.redinfo[s] != 0)
      code = seq_check<T>(p, s, 0);
    else if (sp.ovf[s] > 0)
      code = -sp.ovf[s];
    p.info[s] = code;
  }
}

/* ------------------------------------------------------------------------ */
/* Streaming kernel: any n.  G = 2^logG systems per block (threads of a warp
 * spread over adjacent systems first), P threads per system, m rows each.
 * Workspace: gridDim.x * G * P * m elements (forward factors of phase 3).   */
/* ------------------------------------------------------------------------ */

template <typename T, bool SMEM_FACTORS>
__global__ void __launch_bounds__(kMaxThreads)
    tridi_thomas_pcr_stream(KParams p, int logG, int P, int64_t m) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG;
  const int tid = threadIdx.x;
  int64_t *soff = (int64_t *)smem_raw;
  int *badrow = (int *)(soff + 5 * G);
  T *rs = (T *)(badrow + 2 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;

  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  /* forward factors of phase 3: G P m values, in shared memory when they fit
   * (SMEM_FACTORS, no workspace), else in this block's slice of the workspace */
  T *wsb = SMEM_FACTORS ? rq + (size_t)2 * G * P : (T *)p.ws + (size_t)blockIdx.x * G * P * m;

  for (int64_t sbase = (int64_t)blockIdx.x * G; sbase < p.nsys;
       sbase += (int64_t)gridDim.x * G) {
    tridi_dev_stage_offsets(p, sbase, G, tid, soff);
    if (tid < G) badrow[tid] = badrow[G + tid] = -1;
    __syncthreads();
    const bool active = sbase + g < p.nsys;
    const int64_t row0 = (int64_t)chunk * m;
    const T *ops[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) ops[k] = (const T *)p.op[k] + soff[k * G + g];
    auto val = [&](int k, int64_t row) -> T {
      if (!active || row >= n) return identity_value<T>(k);
      if ((k == 0 && row == 0) || (k == 2 && row == n - 1)) return (T)0;
      const int64_t idx = row * p.as[k];
      return k < 3 ? __ldg(ops[k] + idx) : ops[k][idx];
    };

    /* 1a. forward sweep with u_0 as parameter -> reduced row L */
    T sL, pL, qL;
    T nonfin = 0; /* see the staged kernel */
    {
      FwdSweep<T> f;
      for (int64_t k = 1; k < m - 1; ++k) {
        const int64_t row = row0 + k;
        const T ak = val(0, row), bk = val(1, row), ck = val(2, row), dk = val(3, row);
        nonfin += ak * (T)0 + bk * (T)0 + ck * (T)0 + dk * (T)0;
        f.step(ak, bk, ck, dk);
      }
      const int64_t row = row0 + m - 1;
      const T aL = val(0, row), bL = val(1, row), cL = val(2, row), dLv = val(3, row);
      nonfin += aL * (T)0 + bL * (T)0 + cL * (T)0 + dLv * (T)0;
      f.last(aL, bL, cL, dLv, sL, pL, qL);
    }
    /* 1b. backward sweep with u_{m-1} as parameter -> reduced row F */
    T sF, pF, qF;
    bool b0_zero;
    {
      T dlt = 0, blt = -1, gmt = 0;
      for (int64_t k = m - 2; k >= 1; --k) {
        const int64_t row = row0 + k;
        const T ak = val(0, row), bk = val(1, row), ck = val(2, row), dk = val(3, row);
        const T r = rcp_<T>(bk - ck * gmt);
        gmt = r * ak;
        dlt = r * (dk - ck * dlt);
        blt = -r * ck * blt;
      }
      const T a0 = val(0, row0), b0 = val(1, row0), c0 = val(2, row0), d0 = val(3, row0);
      b0_zero = b0 == (T)0;
      nonfin += a0 * (T)0 + b0 * (T)0 + c0 * (T)0 + d0 * (T)0;
      const T inv = rcp_<T>(b0 - c0 * gmt);
      sF = a0 * inv;
      pF = -c0 * blt * inv;
      qF = (d0 - c0 * dlt) * inv;
    }
    /* 2. reduced system: rows of system g are strided by G in the arrays */
    {
      pcr_reduced<T>(rs, rp, rq, g, G, 2 * chunk, 2 * P, sF, pF, qF, sL, pL, qL);
    }
    const T xF = qF, xL = qL;
    int my_bad = (active && ((chunk == 0 && b0_zero) || !finite_(nonfin)))
                     ? clamp_row(row0)
                     : -1;
    if (active && row0 < n && !finite_(xF)) my_bad = clamp_row(row0);
    if (active && row0 + m - 1 < n && !finite_(xL))
      my_bad = clamp_row(row0 + m - 1);
    finish_info<T>(p, sbase + g, active, chunk == 0, my_bad, &badrow[g]);

    /* 3. solve the chunk with both ends known: e_k -> x, gamma_k -> ws */
    if (active && row0 < n) {
      T *X = (T *)p.op[4] + soff[4 * G + g];
      const int64_t sx = p.as[4];
      const int64_t last = (row0 + m - 1 < n) ? m - 1 : n - row0; /* rows [row0, row0+last) interior */
      T e = xF, gmt = 0;
      for (int64_t k = 1; k < last; ++k) {
        const int64_t row = row0 + k;
        const T ak = val(0, row), bk = val(1, row), ck = val(2, row), dk = val(3, row);
        const T r = rcp_<T>(bk - ak * gmt);
        gmt = r * ck;
        e = r * (dk - ak * e);
        X[row * sx] = e;
        wsb[((size_t)k * P + chunk) * G + g] = gmt;
      }
      T u;
      if (row0 + m - 1 < n) {
        u = xL;
        X[(row0 + m - 1) * sx] = xL;
      } else {
        u = 0; /* rows past n are identity rows: x = 0, and c_{n-1} = 0 */
      }
      T ufin = 0; /* NaN when an interior x is not finite */
      for (int64_t k = last - 1; k >= 1; --k) {
        const int64_t row = row0 + k;
        u = X[row * sx] - wsb[((size_t)k * P + chunk) * G + g] * u;
        X[row * sx] = u;
        ufin += u * (T)0;
      }
      X[row0 * sx] = xF;
      if (!finite_(ufin)) atomicMax(&badrow[G + g], clamp_row(row0));
    }
    /* an interior x that overflowed in phase 3 (after info was written,
     * and in place d is gone): -(first row of the chunk + 1), as the
     * direct kernel reports it, unless info already holds a code */
    __syncthreads();
    if (p.info && chunk == 0 && active && badrow[G + g] >= 0 && p.info[sbase + g] == 0)
      p.info[sbase + g] = -(badrow[G + g] + 1);
    __syncthreads();
  }
}

/* ------------------------------------------------------------------------ */
/* Cluster kernel (system-adjacent layouts, any n up to K * P * M): a tile of
 * G adjacent systems is cut into K row blocks, one per thread block of a
 * Hopper thread-block cluster (cluster dimension K along x).  Each block
 * eliminates its P chunks of M rows (as the direct kernel) and solves its
 * 2P reduced rows by PCR with its own first and last reduced unknowns
 * (F, L) left as parameters: every reduced unknown becomes x = q + u F + v L.
 * The two boundary rows of every block then form a tridiagonal system of 2K
 * unknowns per system (F_0, L_0, F_1, L_1, ...), which each block reads
 * through distributed shared memory, one row a lane, and solves by PCR with
 * warp shuffles; then every thread recovers its chunk.  Loads stay G systems
 * wide (32..128 bytes a row) at any n, blocks stay small (cheap PCR, several
 * blocks per SM), and every input is still read once and x written once.    */
/* ------------------------------------------------------------------------ */

/* The 2P reduced rows of a block with two parameter columns: row i is
 * s x_{i-1} + x_i + p x_{i+1} = q + u F + v L (arrays strided by `stride`
 * from `base`; this thread owns rows li, li + 1).  Solved as pcr_reduced
 * does (one odd-even reduction step, PCR on the P odd rows with alternating
 * array halves, back substitution for the even rows; docs/perf-log.md CUDA
 * v24), with (q, u, v) as the right-hand side.  On return q, u, v hold
 * x = q + u F + v L of both rows.  Every thread of the block must call it. */
template <typename T>
__device__ __forceinline__ void pcr_reduced_uv(T *rs, T *rp, T *rq, T *ru, T *rv, int base, int stride,
                                               int li, int R, T (&s)[2], T (&pp)[2], T (&q)[2],
                                               T (&u)[2], T (&v)[2]) {
  const int c = li >> 1, P = R >> 1;
  const int half = P * stride;
  /* 1. the first rows, for the left neighbour */
  int o = base + c * stride;
  rs[o] = s[0];
  rp[o] = pp[0];
  rq[o] = q[0];
  ru[o] = u[0];
  rv[o] = v[0];
  __syncthreads();
  T sn = 0, pn = 0, qn = 0, un = 0, vn = 0;
  if (c + 1 < P) {
    sn = rs[o + stride];
    pn = rp[o + stride];
    qn = rq[o + stride];
    un = ru[o + stride];
    vn = rv[o + stride];
  }
  /* 2. last row with the own and the next first row eliminated */
  T ys, yp, yq, yu, yv;
  {
    const T r = rcp_<T>((T)1 - s[1] * pp[0] - pp[1] * sn);
    ys = -r * s[1] * s[0];
    yp = -r * pp[1] * pn;
    yq = r * (q[1] - s[1] * q[0] - pp[1] * qn);
    yu = r * (u[1] - s[1] * u[0] - pp[1] * un);
    yv = r * (v[1] - s[1] * v[0] - pp[1] * vn);
  }
  /* 3. PCR on the P last rows, alternating halves */
  int cur = half;
  for (int h = 1; h < P; h <<= 1) {
    o = base + cur + c * stride;
    rs[o] = ys;
    rp[o] = yp;
    rq[o] = yq;
    ru[o] = yu;
    rv[o] = yv;
    __syncthreads();
    T sm = 0, pm = 0, qm = 0, um = 0, vm = 0, sp = 0, pq = 0, qp = 0, up = 0, vp = 0;
    if (c - h >= 0) {
      const int oo = o - h * stride;
      sm = rs[oo];
      pm = rp[oo];
      qm = rq[oo];
      um = ru[oo];
      vm = rv[oo];
    }
    if (c + h < P) {
      const int oo = o + h * stride;
      sp = rs[oo];
      pq = rp[oo];
      qp = rq[oo];
      up = ru[oo];
      vp = rv[oo];
    }
    const T r = rcp_<T>((T)1 - ys * pm - yp * sp);
    yq = r * (yq - ys * qm - yp * qp);
    yu = r * (yu - ys * um - yp * up);
    yv = r * (yv - ys * vm - yp * vp);
    ys = -r * ys * sm;
    yp = -r * yp * pq;
    cur = half - cur;
  }
  /* 4. first rows from the own and the previous last unknowns */
  o = base + cur + c * stride;
  rq[o] = yq;
  ru[o] = yu;
  rv[o] = yv;
  __syncthreads();
  T pq0 = 0, pu0 = 0, pv0 = 0;
  if (c > 0) {
    pq0 = rq[o - stride];
    pu0 = ru[o - stride];
    pv0 = rv[o - stride];
  }
  q[0] = q[0] - s[0] * pq0 - pp[0] * yq;
  u[0] = u[0] - s[0] * pu0 - pp[0] * yu;
  v[0] = v[0] - s[0] * pv0 - pp[0] * yv;
  q[1] = yq;
  u[1] = yu;
  v[1] = yv;
  s[0] = s[1] = pp[0] = pp[1] = (T)0;
}

/* Split cluster barrier (sm_90): arrive (release) / wait (acquire).  maybe_unused:
 * the compute_80 PTX build compiles the cluster kernel with an empty body. */
[[maybe_unused]] __device__ __forceinline__ void cluster_arrive() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release;\n" ::: "memory");
#endif
}
[[maybe_unused]] __device__ __forceinline__ void cluster_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}
[[maybe_unused]] __device__ __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}
[[maybe_unused]] __device__ __forceinline__ unsigned cluster_rank() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
#else
  return 0;
#endif
}
/* generic address of `p` (this block's shared memory) in block `rank` of the
 * cluster */
template <typename T>
__device__ __forceinline__ T *cluster_map(T *p, unsigned rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint64_t out;
  asm volatile("mapa.u64 %0, %1, %2;\n" : "=l"(out) : "l"((uint64_t)p), "r"(rank));
  return (T *)out;
#else
  (void)rank;
  return p;
#endif
}

constexpr int kMaxCluster = 16;

/* shared memory of the cluster kernel: offsets, flags, the block's two rows
 * of the cluster system, its F and L, and the PCR arrays (bytes) */
__host__ __device__ constexpr size_t cluster_smem(size_t es, int G, int P) {
  return (size_t)G * 5 * 8 + (size_t)G * 8 + 16 + es * ((size_t)G * 8 + (size_t)G * 2 + (size_t)10 * G * P);
}

template <typename T, int M, bool UNIT>
__global__ void __launch_bounds__(kTileThreads)
    tridi_thomas_pcr_cluster(KParams p, int logG, int logP, int K) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG, P = 1 << logP;
  const int tid = threadIdx.x;
  const int rank = (int)cluster_rank();
  int64_t *soff = (int64_t *)smem_raw;      /* [5][G] */
  int *badrow = (int *)(soff + 5 * G);      /* [G], then [G] cluster-wide */
  int *flag = badrow + 2 * G;               /* [4] */
  T *crow = (T *)(flag + 4);                /* [G][2][4]: this block's two rows of the K system */
  T *xfl = crow + (size_t)G * 8;            /* [G][2]: F, L of this block */
  T *rs = xfl + (size_t)G * 2;
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  T *ru = rq + (size_t)2 * G * P;
  T *rv = ru + (size_t)2 * G * P;
  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  const int64_t sbase = (int64_t)(blockIdx.x / (unsigned)K) * G;
  const int64_t row0 = ((int64_t)rank * P + chunk) * M;

  tridi_dev_stage_offsets(p, sbase, G, tid, soff);
  if (tid < 2 * G) badrow[tid] = -1; /* own rows; cluster-wide worst rows */
  if (tid == 0) flag[0] = 0;
  __syncthreads();
  const bool active = sbase + g < p.nsys;
  const int64_t neff = active ? n : 0;
  ChunkState<T, M> cs;
  direct_eliminate<T, M, UNIT>(p, soff, G, g, row0, neff, cs);
  int my_bad = (active && row0 < n && ((row0 == 0 && cs.b0_zero) || !finite_(cs.nonfin)))
                   ? clamp_row(row0)
                   : -1;

  /* 1. the block's reduced rows, its first and last as parameters F and L */
  T s[2] = {cs.sF, cs.sL}, pp[2] = {cs.pF, cs.pL}, q[2] = {cs.qF, cs.qL}, u[2] = {0, 0}, v[2] = {0, 0};
  const T oFs = cs.sF, oFp = cs.pF, oFq = cs.qF, oLs = cs.sL, oLp = cs.pL, oLq = cs.qL;
  if (chunk == 0) {
    s[0] = pp[0] = q[0] = 0;
    u[0] = 1;
  }
  if (chunk == P - 1) {
    s[1] = pp[1] = q[1] = 0;
    v[1] = 1;
  }
  pcr_reduced_uv<T>(rs, rp, rq, ru, rv, g, G, 2 * chunk, 2 * P, s, pp, q, u, v);

  /* 2. the block's two rows of the cluster system (lower, diag, upper, rhs):
   *    row F: oFs L_{r-1} + (1 + oFp u_1) F + oFp v_1 L = oFq - oFp q_1
   *    row L: oLs u_{R-2} F + (1 + oLs v_{R-2}) L + oLp F_{r+1} = oLq - oLs q_{R-2} */
  if (chunk == 0) {
    T *c = crow + g * 8;
    c[0] = oFs;
    c[1] = (T)1 + oFp * u[1];
    c[2] = oFp * v[1];
    c[3] = oFq - oFp * q[1];
  }
  if (chunk == P - 1) {
    T *c = crow + g * 8 + 4;
    c[0] = oLs * u[0];
    c[1] = (T)1 + oLs * v[0];
    c[2] = oLp;
    c[3] = oLq - oLs * q[0];
  }
  cluster_sync();
  /* the 2K-row system of each of the G systems, one row a lane, 2K (a power
   * of two <= 32) consecutive lanes a system: each lane fetches its row from
   * the block that owns it (distributed shared memory) and the system is
   * solved by PCR through warp shuffles, log2(2K) steps, no block barrier.
   * G 2K may exceed the block: then every thread takes several rows. */
  {
    const int R2 = 2 * K, logR2 = __ffs(R2) - 1;
    const int tot = G * R2;
    for (int t0 = 0; t0 < tot; t0 += blockDim.x) {
      const int t = t0 + tid;
      const bool on = t < tot;
      const int gg = t >> logR2, j = t & (R2 - 1);
      T lo = 0, di = 1, up = 0, rh = 0;
      if (on) {
        const T *c = cluster_map(crow, (unsigned)(j >> 1)) + gg * 8 + (j & 1) * 4;
        lo = c[0];
        di = c[1];
        up = c[2];
        rh = c[3];
      }
      if (j == 0) lo = 0;
      if (j == R2 - 1) up = 0;
      const T r0 = rcp_<T>(di);
      T sj = lo * r0, pj = up * r0, qj = rh * r0;
      for (int h = 1; h < R2; h <<= 1) {
        const T sm = __shfl_up_sync(0xffffffffu, sj, h, R2), pm = __shfl_up_sync(0xffffffffu, pj, h, R2),
                qm = __shfl_up_sync(0xffffffffu, qj, h, R2);
        const T sp = __shfl_down_sync(0xffffffffu, sj, h, R2), pq = __shfl_down_sync(0xffffffffu, pj, h, R2),
                qp = __shfl_down_sync(0xffffffffu, qj, h, R2);
        const bool hm = j >= h, hp = j + h < R2;
        const T smv = hm ? sm : (T)0, pmv = hm ? pm : (T)0, qmv = hm ? qm : (T)0;
        const T spv = hp ? sp : (T)0, pqv = hp ? pq : (T)0, qpv = hp ? qp : (T)0;
        const T r = rcp_<T>((T)1 - sj * pmv - pj * spv);
        qj = r * (qj - sj * qmv - pj * qpv);
        const T ns = -r * sj * smv;
        pj = -r * pj * pqv;
        sj = ns;
      }
      if (on && (j >> 1) == rank) xfl[gg * 2 + (j & 1)] = qj;
    }
  }
  __syncthreads();

  /* 3. this thread's chunk ends, the chunk, breakdown */
  const T F = xfl[g * 2], L = xfl[g * 2 + 1];
  const T xF = q[0] + u[0] * F + v[0] * L, xL = q[1] + u[1] * F + v[1] * L;
  const T xfin = chunk_xfin<T, M>(cs, row0, neff, xF, xL);
  if (active && row0 < n && !finite_(xfin)) my_bad = clamp_row(row0);
  if (my_bad >= 0) atomicMax(&badrow[g], my_bad);
  /* cluster-wide breakdown: block 0 collects the blocks' rows after a full
   * barrier and, if a system broke down, re-checks it (reading d) before any
   * block stores x (in place, x is d).  The flag is uniform over the block. */
  cluster_sync(); /* also: every block has gathered the rows above */
  /* every (block, system) pair read by its own thread, all in flight at once */
  for (int e = tid; e < G * K; e += blockDim.x) {
    const int r = e >> logG, gg = e & (G - 1);
    const int b = *cluster_map(badrow + gg, (unsigned)r);
    if (b >= 0) {
      atomicMax(&badrow[G + gg], b);
      flag[0] = 1;
    }
  }
  __syncthreads();
  const bool anybad = flag[0] != 0;
  if (anybad) {
    if (rank == 0 && tid < G && active) {
      const int w = badrow[G + tid];
      const int32_t code = w >= 0 ? seq_check<T>(p, sbase + tid, w) : 0;
      if (p.info) p.info[sbase + tid] = code;
    }
  } else if (rank == 0 && tid < G && active && p.info) {
    p.info[sbase + tid] = 0;
  }
  /* no block may exit while another still reads its badrow; after a
   * breakdown, x may overwrite d (in place) only after block 0's checks */
  cluster_arrive();
  if (anybad) cluster_wait();
  if (active) direct_store<T, M, UNIT>(p, soff, G, g, row0, n, cs, xF, xL);
  if (!anybad) cluster_wait();
#else
  (void)p;
  (void)logG;
  (void)logP;
  (void)K;
#endif
}

__global__ void tridi_fill_info_zero(int32_t *info, int64_t nsys) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nsys;
       i += (int64_t)gridDim.x * blockDim.x)
    info[i] = 0;
}

/* ------------------------------------------------------------------------ */
/* Host side: plan-time choice and launch                                    */
/* ------------------------------------------------------------------------ */

enum KernelKind { K_EMPTY = 0, K_STAGED = 1, K_STREAM = 2, K_DIRECT = 3, K_CLUSTER = 4, K_SEG = 5 };

/* A launch of the direct kernel, or of a kernel of the same shape */
struct DirectCfg {
  const void *func;
  unsigned grid;
  int threads, logG, logP;
  size_t smem;
};

/* The segmented solve: seg_reduce, the direct kernel on the reduced
 * systems, the segment tiles, seg_info; workspace offsets in bytes */
struct SegCfg {
  DirectCfg reduce, red, tiles;
  const void *info_func;
  int R, S;
  FastDiv sdiv; /* division by S (the tiles' index) */
  int64_t nred; /* 2 S */
  size_t off_red[3], off_one, off_redinfo, off_ovf;
};

struct CudaPlan {
  KernelKind kind;
  int m_tile;    /* staged: M */
  bool rowmajor; /* staged: staging order */
  int G, logG, P, logP, LD;
  int K;       /* cluster: blocks per cluster */
  int LD_main; /* staged: the row pitch of func (LD is that of func_vec) */
  int64_t m_stream;
  int CP;     /* pipelined direct kernel: chunk pitch of its tile buffer (0: the
                 plain direct kernel) */
  int reused; /* KParams::reused, from the layout */
  int threads;
  size_t smem;
  unsigned grid;
  FastDiv ndiv;     /* staged: division by n */
  FastDiv ndiv_vec; /* staged, 16-byte path: division by n / V */
  const void *func;
  const void *func_vec; /* staged 16-byte variant (plain or pipelined), or NULL */
  size_t smem_vec;
  unsigned grid_vec;
  SegCfg seg; /* K_SEG */
};

int ilog2(int64_t v) {
  int l = 0;
  while ((1ll << l) < v) ++l;
  return l;
}

tridi_status cuda_err(cudaError_t e, const char *what) {
  return tridi_set_error(TRIDI_ERR_DEVICE, "%s: %s (%s)", what, cudaGetErrorString(e),
                         cudaGetErrorName(e));
}

/* variant: 0 element-size copies, 1 16-byte copies, 2 16-byte copies
 * pipelined, 3 16-byte copies of phase-shifted rows (unaligned unit-stride
 * rows, PH).  (Systems-first staging is not instantiated: those layouts take
 * the direct kernel.) */
template <typename T, int M, bool L1>
const void *staged_m_l1(int variant) {
  if (variant == 3) return (const void *)tridi_thomas_pcr_staged<T, M, true, false, false, true, L1>;
  if (variant == 2) return (const void *)tridi_thomas_pcr_staged<T, M, true, true, true, false, L1>;
  return (const void *)tridi_thomas_pcr_staged<T, M, true, true, false, false, L1>;
}

/* l1: some operand is shared across the batch (CudaPlan::reused), so the
 * 16-byte copies (variants 1-3) choose .ca or .cg per operand at run time;
 * a separate instantiation, because that choice in the copy loop costs the
 * other layouts 4-9% (docs/perf-log.md CUDA v18). */
template <typename T, int M>
const void *staged_m(int variant, bool l1) {
  if (variant == 0) return (const void *)tridi_thomas_pcr_staged<T, M, true, false, false>;
  return l1 ? staged_m_l1<T, M, true>(variant) : staged_m_l1<T, M, false>(variant);
}

/* The compiled tiles: M = 4, 8, 16 rows a thread, and 32 for f32.  f maps
 * std::integral_constant<int, M> to the kernel's address. */
template <typename T, typename F>
const void *by_m(int M, F f) {
  if (M == 4) return f(std::integral_constant<int, 4>{});
  if (M == 8) return f(std::integral_constant<int, 8>{});
  if (M == 16) return f(std::integral_constant<int, 16>{});
  if constexpr (sizeof(T) == 4) {
    if (M == 32) return f(std::integral_constant<int, 32>{});
  }
  return NULL;
}

template <typename T>
const void *pick_staged(int M, int variant, bool l1 = false) {
  return by_m<T>(M, [variant, l1](auto m) { return staged_m<T, decltype(m)::value>(variant, l1); });
}

template <typename T>
const void *pick_direct(int M) {
  return by_m<T>(M, [](auto m) { return (const void *)tridi_thomas_pcr_direct<T, decltype(m)::value>; });
}

/* M = 32 (f32) is not compiled: its tile never fits in shared memory */
template <typename T>
const void *pick_direct_pipe(int M) {
  if (M > 16) return NULL;
  return by_m<T>(M, [](auto m) {
    constexpr int Mv = decltype(m)::value > 16 ? 16 : decltype(m)::value;
    return (const void *)tridi_thomas_pcr_direct_pipe<T, Mv>;
  });
}

template <typename T>
const void *pick_seg(int M) {
  return by_m<T>(M, [](auto m) { return (const void *)tridi_thomas_pcr_seg<T, decltype(m)::value>; });
}

/* Direct-kernel shape for systems of n rows, M rows a thread: P = n / M
 * chunks (a power of two), G adjacent systems (gbytes a row when P allows,
 * G P <= cap threads).  False when no block of <= 512 threads holds
 * one system. */
bool direct_shape(DirectCfg *dc, int64_t n, int64_t nsys, int M, int cap, size_t es, int gbytes = 128) {
  const int64_t P = 1ll << ilog2((n + M - 1) / M);
  const int64_t c = cap > 0 && cap <= kTileThreads ? cap : kTileThreads;
  int64_t G = gbytes / (int64_t)es;
  while (G > 1 && G * P > c) G >>= 1;
  if (G > nsys) G = 1ll << ilog2(nsys);
  if (G * P > kTileThreads) return false;
  dc->logG = ilog2(G);
  dc->logP = ilog2(P);
  dc->threads = (int)(G * P);
  dc->smem = (size_t)G * (5 * 8 + 8) + es * (size_t)6 * G * P;
  const int64_t blocks = (nsys + G - 1) / G;
  dc->grid = (unsigned)(blocks < 0x7fffffffll ? blocks : 0x7fffffffll);
  return true;
}

#ifdef TRIDI_CUDA_TUNING
/* A tuning-table row made from environment overrides (measurement builds) */
tridi_cuda_tile tuning_row(tridi_cuda_family fam, tridi_dtype dt, int64_t n, int m, int threads, int pipe,
                           int gbytes, int rows) {
  tridi_cuda_tile t;
  t.family = fam;
  t.dtype = dt;
  t.max_n = n;
  t.m = m;
  t.threads = threads;
  t.pipe = pipe;
  t.gbytes = gbytes;
  t.rows = rows;
  return t;
}
#endif

/* First row of family fam for this dtype and n (NULL: none) */
const tridi_cuda_tile *find_tile(tridi_cuda_family fam, tridi_dtype dt, int64_t n) {
  for (int i = 0; i < tridi_cuda_ntiles; ++i)
    if (tridi_cuda_tiles[i].family == fam && tridi_cuda_tiles[i].dtype == dt && n <= tridi_cuda_tiles[i].max_n)
      return &tridi_cuda_tiles[i];
  return NULL;
}

/* The segmented solve for a system-adjacent layout (see tridi_seg_reduce):
 * segments of R = rows (doubled until the 2 S reduced rows fit a direct-kernel
 * row of the table), tiles of M rows a thread.  Sets the workspace size. */
bool plan_seg(CudaPlan *cp, struct tridi_plan_s *plan, const tridi_cuda_tile *st, const char *tn) {
  const tridi_layout *L = &plan->lay;
  const bool f64 = plan->dtype == TRIDI_F64;
  const size_t es = plan->esize;
  const int64_t n = L->n, nsys = L->nsys;
  const int M = st->m;
  int64_t R = st->rows;
  if (R < 2 * M || R % M || R % 8) return false;
  const tridi_cuda_tile *rt = NULL;
  for (;; R *= 2) {
    if (R > 512 || R * 2 > n) return false;
    rt = find_tile(TRIDI_CUDA_DIRECT, plan->dtype, 2 * ((n + R - 1) / R));
    if (rt) break;
  }
  SegCfg *sg = &cp->seg;
  sg->R = (int)R;
  sg->S = (int)((n + R - 1) / R);
  sg->nred = 2ll * sg->S;
  sg->sdiv = make_fastdiv((uint32_t)sg->S);
  /* segment tiles */
  if (!direct_shape(&sg->tiles, R, nsys, M, st->threads, es, 512)) return false;
  if ((1ll << sg->tiles.logP) != R / M) return false; /* tiles of exactly R rows */
  const int64_t ntiles = (nsys + (1 << sg->tiles.logG) - 1) / (1 << sg->tiles.logG) * sg->S;
  if (ntiles >= (1ll << 31)) return false;
  sg->tiles.func = f64 ? pick_seg<double>(M) : pick_seg<float>(M);
  sg->tiles.grid = (unsigned)(ntiles < 0x7fffffffll ? ntiles : 0x7fffffffll);
  /* reduced systems */
  if (!direct_shape(&sg->red, sg->nred, nsys, rt->m, rt->threads, es)) return false;
  sg->red.func = f64 ? pick_direct<double>(rt->m) : pick_direct<float>(rt->m);
  /* segment reduction: gbytes (default 128) of adjacent systems, 256 threads */
  int64_t Ga = (st->gbytes > 0 ? st->gbytes : 128) / (int64_t)es;
  if (Ga > 256) Ga = 256;
  if (Ga < 1) Ga = 1;
  if (Ga > nsys) Ga = 1ll << ilog2(nsys);
  const int64_t Qa = 256 / Ga;
  sg->reduce.func = f64 ? (const void *)tridi_seg_reduce<double> : (const void *)tridi_seg_reduce<float>;
  sg->reduce.logG = ilog2(Ga);
  sg->reduce.logP = ilog2(Qa);
  sg->reduce.threads = (int)(Ga * Qa);
  sg->reduce.smem = (size_t)Ga * 5 * 8;
  const int64_t ta = (nsys + Ga - 1) / Ga * ((sg->S + Qa - 1) / Qa);
  sg->reduce.grid = (unsigned)(ta < 0x7fffffffll ? ta : 0x7fffffffll);
  sg->info_func = f64 ? (const void *)tridi_seg_info<double> : (const void *)tridi_seg_info<float>;
  if (!sg->tiles.func || !sg->red.func) return false;
  /* workspace: reduced a, c, d; the 1; reduced info; overflow rows */
  auto up = [](size_t b) { return (b + 255) / 256 * 256; };
  const size_t rbytes = up((size_t)sg->nred * nsys * es);
  size_t off = 0;
  for (int k = 0; k < 3; ++k, off += rbytes) sg->off_red[k] = off;
  sg->off_one = off;
  off += 256;
  sg->off_redinfo = off;
  off += up((size_t)nsys * 4);
  sg->off_ovf = off;
  off += up((size_t)nsys * 4);
  cp->kind = K_SEG;
  cp->m_tile = M;
  plan->ws_bytes = off;
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_seg_r%d_m%d_g%d_p%d+red_m%d_p%d_%s",
           sg->R, M, 1 << sg->tiles.logG, 1 << sg->tiles.logP, rt->m, 1 << sg->red.logP, tn);
  return true;
}

/* Whether the cluster kernel has a UNIT variant for chunks of M elements of
 * es bytes (whole 16-byte pieces, at most 64 bytes a thread). */
constexpr bool cluster_unit_tile(int M, size_t es) { return (M * es) % 16 == 0 && M * es <= 64; }

template <typename T>
const void *pick_cluster(int M, bool unit) {
  return by_m<T>(M, [unit](auto m) -> const void * {
    constexpr int Mv = decltype(m)::value;
    if constexpr (cluster_unit_tile(Mv, sizeof(T)))
      if (unit) return (const void *)tridi_thomas_pcr_cluster<T, Mv, true>;
    return (const void *)tridi_thomas_pcr_cluster<T, Mv, false>;
  });
}

/* Launch configuration of the cluster kernel: clusters of K blocks along x
 * (*attr must outlive the configuration's use). */
cudaLaunchConfig_t cluster_config(cudaLaunchAttribute *attr, int K, unsigned grid, unsigned threads,
                                  size_t smem, cudaStream_t stream) {
  cudaLaunchConfig_t cfg = {};
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = (unsigned)K;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cfg;
}

/* Cluster kernel choice: G systems a tile (gbytes of adjacent systems a row,
 * halved until the tile fits; one system for layouts whose systems are not
 * adjacent), P chunks of M rows per block (threads = G P), K blocks per
 * cluster (<= 16) covering n.  Returns false when no such tile launches on
 * this device (sm_90 and later only). */
bool plan_cluster(CudaPlan *cp, const tridi_layout *L, size_t es, bool f64, bool unit_rows, int M,
                  int threads, int64_t gbytes, int kmax_wanted, const cudaDeviceProp &prop, const char *tn,
                  char *name, size_t name_len) {
  if (prop.major < 9) return false;
  const int64_t n = L->n;
  const int64_t Ptot = 1ll << ilog2((n + M - 1) / M);
  int64_t G = gbytes / (int64_t)es;
  if (G > L->nsys) G = 1ll << ilog2(L->nsys);
  if (G > L->nsys) G >>= 1;
  if (G < 1) G = 1;
  for (; G >= 1; G >>= 1) {
    int64_t P = threads / G;
    if (P > Ptot) P = Ptot;
    if (P < 1) continue;
    const int64_t K = (Ptot + P - 1) / P;
    if (K > kMaxCluster || K > kmax_wanted) continue;
    if (K & (K - 1)) continue; /* the join's warp PCR takes 2K = 2^k rows */
    if (K < 2) return false; /* one block: the direct kernel */
    /* one system a tile, every operand's rows unit-stride: 16-byte chunk loads */
    const bool unit = G == 1 && unit_rows && cluster_unit_tile(M, es);
    const void *fn = f64 ? pick_cluster<double>(M, unit) : pick_cluster<float>(M, unit);
    if (!fn) return false;
    const size_t smem = cluster_smem(es, (int)G, (int)P);
    if (smem > prop.sharedMemPerBlockOptin) continue;
    cudaError_t e = cudaSuccess;
    if (smem > 48 * 1024) e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e == cudaSuccess && K > 8) e = cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_config(&attr, (int)K, (unsigned)K * 16, (unsigned)(G * P), smem, 0);
    int nclusters = 0;
    e = cudaOccupancyMaxActiveClusters(&nclusters, fn, &cfg);
    if (e != cudaSuccess || nclusters < 1) {
      (void)cudaGetLastError();
      continue;
    }
    const int64_t tiles = (L->nsys + G - 1) / G;
    if (tiles * K > 0x7fffffffll) return false;
    cp->kind = K_CLUSTER;
    cp->m_tile = M;
    cp->G = (int)G;
    cp->logG = ilog2(G);
    cp->P = (int)P;
    cp->logP = ilog2(P);
    cp->K = (int)K;
    cp->threads = (int)(G * P);
    cp->smem = smem;
    cp->func = fn;
    cp->grid = (unsigned)(tiles * K);
    snprintf(name, name_len, "cuda_thomas_pcr_cluster%s_m%d_g%d_p%d_k%d_%s", unit ? "_vec" : "", M,
             cp->G, cp->P, cp->K, tn);
    return true;
  }
  return false;
}

template <typename T>
const void *pick_stream(bool smem_factors) {
  return smem_factors ? (const void *)tridi_thomas_pcr_stream<T, true>
                      : (const void *)tridi_thomas_pcr_stream<T, false>;
}

/* Restores the caller's current device on scope exit. */
struct DeviceGuard {
  int prev = -1;
  cudaError_t err = cudaSuccess;
  explicit DeviceGuard(int dev) {
    err = cudaGetDevice(&prev);
    if (err == cudaSuccess && prev != dev) err = cudaSetDevice(dev);
  }
  ~DeviceGuard() {
    int cur = -1;
    if (prev >= 0 && cudaGetDevice(&cur) == cudaSuccess && cur != prev) (void)cudaSetDevice(prev);
  }
};

size_t staged_smem(size_t es, int G, int P, int LD, int nb = 1, bool ph = false) {
  return staged_hdr_bytes(nb, G, ph) + es * ((size_t)nb * 4 * G * LD + (size_t)6 * G * P);
}

} /* namespace */

/* ------------------------------------------------------------------------ */
/* Solver-table entry points (C linkage)                                     */
/* ------------------------------------------------------------------------ */

extern "C" const char *tridi_cuda_thomas_pcr_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every scalar problem */
  return NULL;
}

extern "C" tridi_status tridi_cuda_thomas_pcr_init(struct tridi_plan_s *plan) {
  const tridi_layout *L = &plan->lay;
  CudaPlan *cp = (CudaPlan *)calloc(1, sizeof *cp);
  if (!cp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of host memory");
  plan->priv = cp;
  plan->ws_bytes = 0;
  const bool f64 = plan->dtype == TRIDI_F64;
  const size_t es = plan->esize;
  const char *tn = f64 ? "f64" : "f32";
  if (L->n == 0 || L->nsys == 0) {
    cp->kind = K_EMPTY;
    snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_fill_info_zero");
    return TRIDI_SUCCESS;
  }
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_err(dg.err, "tridi_plan_create: cudaSetDevice");
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, plan->device);
  if (e != cudaSuccess) return cuda_err(e, "tridi_plan_create: cudaGetDeviceProperties");
  const size_t smem_max = prop.sharedMemPerBlockOptin;

  /* staging order: system-major when neighbouring systems are adjacent in x
   * (and the solve axis is not), row-major otherwise */
  const int64_t asx = L->axis_stride[TRIDI_OP_X] < 0 ? -L->axis_stride[TRIDI_OP_X]
                                                      : L->axis_stride[TRIDI_OP_X];
  int64_t bsx = 0;
  if (L->nbatch > 0) {
    bsx = L->bstride[TRIDI_OP_X][L->nbatch - 1];
    if (bsx < 0) bsx = -bsx;
  }
  const bool sysmajor = L->nbatch > 0 && bsx == 1 && asx != 1;
  const int64_t n = L->n;

  /* staged kernel from the tuning table */
  const tridi_cuda_family fam = sysmajor ? TRIDI_CUDA_DIRECT : TRIDI_CUDA_STAGED;
  const tridi_cuda_tile *tile = find_tile(fam, plan->dtype, n);
#ifdef TRIDI_CUDA_TUNING
  /* measurement builds only (CMake TRIDI_CUDA_TUNING=ON): TRIDI_CUDA_M,
   * TRIDI_CUDA_THREADS and TRIDI_CUDA_PIPE override the table;
   * TRIDI_CUDA_M=0 skips the single-block kernels (with
   * TRIDI_CUDA_CLUSTER=0,0,0,0 too: the streaming kernel) */
  tridi_cuda_tile forced;
  {
    const char *em = getenv("TRIDI_CUDA_M"), *et = getenv("TRIDI_CUDA_THREADS"),
               *ep = getenv("TRIDI_CUDA_PIPE");
    if (em && *em) {
      forced = tuning_row(fam, plan->dtype, n, atoi(em), et && *et ? atoi(et) : (tile ? tile->threads : 128),
                          ep && *ep ? atoi(ep) : 0, 0, 0);
      tile = forced.m > 0 ? &forced : NULL;
    } else if (ep && *ep && tile) { /* the table's tile, pipe overridden */
      forced = *tile;
      forced.pipe = atoi(ep);
      tile = &forced;
    }
  }
#endif
  /* unit axis strides and vector-aligned system offsets: the staged kernel
   * may use 16-byte accesses (pointer alignment is checked per execute) */
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < L->nbatch; ++j)
      if (L->bstride[k][j] == 0 && L->bext[j] > 1) cp->reused |= 1 << k;
  const int V = (int)(16 / es);
  bool unit_rows = true; /* every operand's rows are unit-stride */
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (L->axis_stride[k] != 1) unit_rows = false;
  bool vec_ok = !sysmajor && n % V == 0 && unit_rows;
  for (int k = 0; k < TRIDI_NUM_OPERANDS && vec_ok; ++k)
    for (int j = 0; j < L->nbatch; ++j)
      if (L->bstride[k][j] % V != 0) vec_ok = false;
  /* the cluster kernel's row of the table (used when the single-block
   * kernels above do not apply or do not fit) */
  const tridi_cuda_family cfam = sysmajor ? TRIDI_CUDA_CLUSTER_ADJ : TRIDI_CUDA_CLUSTER_ROW;
  const tridi_cuda_tile *ctile = find_tile(cfam, plan->dtype, n);
  int cl_kmax = kMaxCluster;
#ifdef TRIDI_CUDA_TUNING
  /* TRIDI_CUDA_CLUSTER="threads,gbytes,kmax,M": the cluster kernel with this
   * tile whenever it reaches n (kmax 0: never) */
  tridi_cuda_tile cforced;
  {
    const char *ec = getenv("TRIDI_CUDA_CLUSTER");
    int a = 0, b = 0, c = 0, d = 0;
    if (ec && *ec && sscanf(ec, "%d,%d,%d,%d", &a, &b, &c, &d) == 4) {
      cforced = tuning_row(cfam, plan->dtype, n, d, a, 0, b, 0);
      ctile = &cforced;
      cl_kmax = c;
      if (c >= 2) tile = NULL;
    }
  }
#endif
  if (sysmajor && n > 1) {
    /* segmented solve: long systems of system-adjacent layouts */
    const tridi_cuda_tile *st = find_tile(TRIDI_CUDA_SEG, plan->dtype, n);
#ifdef TRIDI_CUDA_TUNING
    /* TRIDI_CUDA_SEG="M,R,min_n,threads[,gbytes]" (min_n 0: never) */
    tridi_cuda_tile sforced;
    {
      const char *es_ = getenv("TRIDI_CUDA_SEG");
      int a = 0, b = 0, c = 0, d = 0, gb = 0;
      if (es_ && *es_) {
        st = NULL;
        if (sscanf(es_, "%d,%d,%d,%d,%d", &a, &b, &c, &d, &gb) >= 4 && c > 0) {
          sforced = tuning_row(TRIDI_CUDA_SEG, plan->dtype, n, a, d, c, gb, b);
          st = &sforced;
        }
      }
    }
#endif
    if (st && n >= st->pipe && plan_seg(cp, plan, st, tn)) return TRIDI_SUCCESS;
  }
  if (tile && sysmajor) {
    /* direct kernel: G adjacent systems across the warp (128 bytes a row
     * when P allows; fewer share sectors with the neighbouring blocks, whose
     * reads of them hit in L2), P threads per system */
    const int M = tile->m;
    DirectCfg dc;
    if (direct_shape(&dc, n, L->nsys, M, tile->threads, es)) {
      cp->kind = K_DIRECT;
      cp->m_tile = M;
      cp->G = 1 << dc.logG;
      cp->logG = dc.logG;
      cp->P = 1 << dc.logP;
      cp->logP = dc.logP;
      cp->threads = dc.threads;
      cp->smem = dc.smem;
      cp->grid = dc.grid;
      cp->func = f64 ? pick_direct<double>(M) : pick_direct<float>(M);
      if (!cp->func) return tridi_set_error(TRIDI_ERR_INTERNAL, "tridi_plan_create: no kernel for M = %d", M);
      snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_direct_m%d_g%d_p%d_%s", M,
               cp->G, cp->P, tn);
      if (tile->pipe) {
        /* pipelined over a persistent grid when its tile buffer fits: chunk
         * pitch CP = G mod 128 bytes (conflict-free chunk reads) */
        const int G = cp->G, P = cp->P, Lb = (int)(128 / es);
        int CP = M * G;
        while (CP % Lb != G % Lb) CP += G;
        const size_t smem = ((size_t)G * (10 * 8 + 8) + es * (size_t)6 * G * P + 15) / 16 * 16 +
                            es * (size_t)4 * P * CP;
        long long max_ext = TRIDI_CUDA_PIPE_MAX_EXTENT;
#ifdef TRIDI_CUDA_TUNING
        { /* TRIDI_CUDA_PIPE_EXTENT: another extent limit (measurement builds) */
          const char *ee = getenv("TRIDI_CUDA_PIPE_EXTENT");
          if (ee && *ee) max_ext = atoll(ee);
        }
#endif
        /* the pipelined kernel's 16-byte tile copies need G adjacent systems
         * and rows of 16-byte multiples in every input; and each system
         * within max_ext bytes, or rows of whole 128-byte lines
         * (TRIDI_CUDA_PIPE_ROW_ALIGN) */
        bool layout_ok = (size_t)G * es >= 16 && L->nbatch > 0 &&
                         (L->nbatch == 1 || L->bext[L->nbatch - 1] % G == 0);
        for (int k = 0; k < 4 && layout_ok; ++k) {
          const int64_t ab = (L->axis_stride[k] < 0 ? -L->axis_stride[k] : L->axis_stride[k]) * (int64_t)es;
          layout_ok = L->bstride[k][L->nbatch - 1] == 1 && ab % 16 == 0 &&
                      (ab * n <= max_ext || ab % TRIDI_CUDA_PIPE_ROW_ALIGN == 0);
        }
        const void *fp = layout_ok ? (f64 ? pick_direct_pipe<double>(M) : pick_direct_pipe<float>(M)) : NULL;
        int per_sm = 0;
        if (fp && smem <= smem_max) {
          e = cudaFuncSetAttribute(fp, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
          if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fp, cp->threads, smem);
          if (e != cudaSuccess) return cuda_err(e, "tridi_plan_create: occupancy of the pipelined direct kernel");
        }
        if (per_sm >= 1) {
          const int64_t resident = (int64_t)per_sm * prop.multiProcessorCount;
          cp->func = fp;
          cp->smem = smem;
          cp->CP = CP;
          if ((int64_t)cp->grid > resident) cp->grid = (unsigned)resident;
          snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_direct_pipe_m%d_g%d_p%d_%s", M, G, P,
                   tn);
        }
      }
    }
  } else if (tile) {
    const int M = tile->m;
    const int64_t P = 1ll << ilog2((n + M - 1) / M);
    /* systems per block: fill the target thread count */
    int64_t G = tile->threads / P;
    if (G < 1) G = 1;
    if (G > L->nsys) G = 1ll << ilog2(L->nsys);
    while (G * P > kTileThreads && G > 1) G >>= 1;
    const int rows = (int)(P * M), PV = (int)(16 / es);
    /* padded(rows) + 16 bytes; f32: then up to a row pitch of 16 bytes past a
     * multiple of 128, so that the systems of a warp start in different
     * banks (f32 contig n = 32: 61% -> 72% of copy; the same rule cost f64
     * n = 32 90% -> 80% through the extra shared memory, so f64 keeps the
     * short pitch) */
    int LD = rows + (rows / (int)(128 / es)) * PV + PV;
    if (es == 4)
      while (((size_t)LD * es) % 128 != 16) LD += PV;
    while (G > 1 && staged_smem(es, (int)G, (int)P, LD) > smem_max) G >>= 1;
    if (G * P <= kTileThreads && staged_smem(es, (int)G, (int)P, LD) <= smem_max &&
        G * n < (1ll << 31)) {
      cp->kind = K_STAGED;
      cp->m_tile = M;
      cp->rowmajor = true;
      cp->G = (int)G;
      cp->logG = ilog2(G);
      cp->P = (int)P;
      cp->logP = ilog2(P);
      cp->LD = LD;
      cp->threads = (int)(G * P);
      cp->smem = staged_smem(es, (int)G, (int)P, LD);
      cp->ndiv = make_fastdiv((uint32_t)n);
      cp->func = f64 ? pick_staged<double>(M, 0) : pick_staged<float>(M, 0);
      cp->LD_main = LD;
      if (!cp->func) return tridi_set_error(TRIDI_ERR_INTERNAL, "tridi_plan_create: no kernel for M = %d", M);
      const int64_t blocks = (L->nsys + G - 1) / G;
      cp->grid = (unsigned)(blocks < 0x7fffffffll ? blocks : 0x7fffffffll);
      const char *variant = "";
      /* unit-stride rows at any offsets: 16-byte copies of each system's
       * aligned pieces, rows shifted by their phase in shared memory (also
       * the fallback of the 16-byte variant when a pointer is unaligned) */
      const size_t smem_plain = cp->smem;
      if (unit_rows && n >= (f64 ? TRIDI_CUDA_PH_MIN_N_F64 : TRIDI_CUDA_PH_MIN_N_F32)) {
        const int r = rows + 2 * PV;
        int LDp = r + (r / (int)(128 / es)) * PV + PV;
        if (es == 4)
          while (((size_t)LDp * es) % 128 != 16) LDp += PV;
        const size_t smem_ph = staged_smem(es, (int)G, (int)P, LDp, 1, true);
        const void *fph = f64 ? pick_staged<double>(M, 3, cp->reused) : pick_staged<float>(M, 3, cp->reused);
        if (fph && smem_ph <= smem_max) {
          cp->func = fph;
          cp->LD_main = LDp;
          cp->smem = smem_ph;
          cp->ndiv = make_fastdiv((uint32_t)(n / PV + 2));
          variant = "_ph";
        }
      }
      if (vec_ok) {
        /* 16-byte copies; pipelined over a persistent grid (two tile buffers)
         * when the second buffer fits */
        cp->ndiv_vec = make_fastdiv((uint32_t)(n / V));
        const size_t pipe_smem = staged_smem(es, (int)G, (int)P, LD, 2);
        cp->smem_vec = smem_plain;
        cp->grid_vec = cp->grid;
        cp->func_vec = f64 ? pick_staged<double>(M, 1, cp->reused) : pick_staged<float>(M, 1, cp->reused);
        variant = "_vec";
        if (tile->pipe && pipe_smem <= smem_max && blocks > 1) {
          const void *fp = f64 ? pick_staged<double>(M, 2, cp->reused) : pick_staged<float>(M, 2, cp->reused);
          e = cudaFuncSetAttribute(fp, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)pipe_smem);
          int per_sm = 0;
          if (e == cudaSuccess)
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fp, cp->threads, pipe_smem);
          if (e != cudaSuccess) return cuda_err(e, "tridi_plan_create: occupancy of the pipelined kernel");
          if (per_sm >= 1) {
            const int64_t resident = (int64_t)per_sm * prop.multiProcessorCount;
            cp->func_vec = fp;
            cp->smem_vec = pipe_smem;
            cp->grid_vec = (unsigned)(blocks < resident ? blocks : resident);
            variant = "_pipe";
          }
        }
        if (cp->smem_vec > 48 * 1024) {
          e = cudaFuncSetAttribute(cp->func_vec, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cp->smem_vec);
          if (e != cudaSuccess) return cuda_err(e, "tridi_plan_create: cudaFuncSetAttribute");
        }
      }
      snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_staged%s_m%d_g%d_p%d_%s",
               variant, M, cp->G, cp->P, tn);
    }
  }
  if (cp->kind == K_EMPTY && n > 1 && ctile && cl_kmax >= 2) {
    /* past the rows of the single-block kernels: the cluster kernel while it
     * reaches (G adjacent systems when they are adjacent, else one) */
    if (plan_cluster(cp, L, es, f64, unit_rows, ctile->m, ctile->threads,
                     sysmajor ? ctile->gbytes : (int64_t)es, cl_kmax, prop, tn, plan->kernel_name,
                     sizeof plan->kernel_name))
      return TRIDI_SUCCESS;
  }
  if (cp->kind != K_STAGED && cp->kind != K_DIRECT) {
    /* streaming kernel: adjacent systems across a warp when they are adjacent
     * in memory, else one system per block */
    int64_t G = sysmajor ? (int64_t)(32 / es) : 1;
    if (G > L->nsys) G = 1ll << ilog2(L->nsys);
    if (G > L->nsys) G >>= 1;
    if (G < 1) G = 1;
    int64_t P = kMaxThreads / G;
    while (P > 1 && (n + P - 1) / P < 2) P >>= 1;
    int64_t m = (n + P - 1) / P;
    if (m < 2) m = 2;
    cp->kind = K_STREAM;
    cp->G = (int)G;
    cp->logG = ilog2(G);
    cp->P = (int)P;
    cp->m_stream = m;
    cp->threads = (int)(G * P);
    cp->smem = (size_t)G * (5 * 8 + 8) + es * (size_t)6 * G * P;
    const size_t factors = es * (size_t)G * P * m;
    const bool smem_factors = cp->smem + factors <= smem_max;
    if (smem_factors) cp->smem += factors;
    cp->func = f64 ? pick_stream<double>(smem_factors) : pick_stream<float>(smem_factors);
    if (cp->smem > 48 * 1024) {
      e = cudaFuncSetAttribute(cp->func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cp->smem);
      if (e != cudaSuccess) return cuda_err(e, "tridi_plan_create: cudaFuncSetAttribute");
    }
    int per_sm = 0;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cp->func, cp->threads, cp->smem);
    if (e != cudaSuccess) return cuda_err(e, "tridi_plan_create: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    if (per_sm < 1) per_sm = 1;
    int64_t blocks = (L->nsys + G - 1) / G;
    const int64_t resident = (int64_t)per_sm * prop.multiProcessorCount;
    if (blocks > resident) blocks = resident;
    cp->grid = (unsigned)blocks;
    plan->ws_bytes = smem_factors ? 0 : (size_t)blocks * G * P * m * es;
    snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_stream%s_g%d_p%d_m%lld_%s",
             smem_factors ? "" : "_ws", cp->G, cp->P, (long long)m, tn);
  }
  if (cp->smem > 48 * 1024) {
    e = cudaFuncSetAttribute(cp->func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cp->smem);
    if (e != cudaSuccess) return cuda_err(e, "tridi_plan_create: cudaFuncSetAttribute");
  }
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_thomas_pcr_execute(const struct tridi_plan_s *plan,
                                                      const tridi_args *args) {
  const CudaPlan *cp = (const CudaPlan *)plan->priv;
  const tridi_layout *L = &plan->lay;
  cudaStream_t stream = (cudaStream_t)args->stream;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_err(dg.err, "tridi_execute: cudaSetDevice");
  if (cp->kind == K_EMPTY) {
    if (!args->info || L->nsys == 0) return TRIDI_SUCCESS;
    const int64_t blocks64 = (L->nsys + 255) / 256;
    const unsigned blocks = (unsigned)(blocks64 < 65535 ? blocks64 : 65535);
    tridi_fill_info_zero<<<blocks, 256, 0, stream>>>(args->info, L->nsys);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? TRIDI_SUCCESS : cuda_err(e, "tridi_execute: launch of the info fill");
  }
  KParams kp;
  memset(&kp, 0, sizeof kp);
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    kp.op[k] = args->op[k];
    kp.as[k] = L->axis_stride[k];
    for (int j = 0; j < L->nbatch; ++j) kp.bstride[k][j] = L->bstride[k][j];
  }
  for (int j = 0; j < L->nbatch; ++j) kp.bext[j] = L->bext[j];
  kp.nbatch = L->nbatch;
  kp.reused = cp->reused;
  kp.info = args->info;
  kp.ws = args->ws;
  kp.n = L->n;
  kp.nsys = L->nsys;
  cudaError_t e;
  if (cp->kind == K_STAGED) {
    int G = cp->G, logG = cp->logG, logP = cp->logP, LD = cp->LD;
    bool vec = cp->func_vec != NULL;
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
      if ((uintptr_t)args->op[k] % 16 != 0) vec = false;
    FastDiv nd = vec ? cp->ndiv_vec : cp->ndiv;
    if (!vec) LD = cp->LD_main;
    void *argv[] = {&kp, &G, &logG, &logP, &LD, &nd};
    if (vec)
      e = cudaLaunchKernel(cp->func_vec, dim3(cp->grid_vec), dim3(cp->threads), argv, cp->smem_vec, stream);
    else
      e = cudaLaunchKernel(cp->func, dim3(cp->grid), dim3(cp->threads), argv, cp->smem, stream);
  } else if (cp->kind == K_DIRECT) {
    int logG = cp->logG, logP = cp->logP, CP = cp->CP;
    void *argv[] = {&kp, &logG, &logP, &CP}; /* the plain direct kernel takes the first three */
    e = cudaLaunchKernel(cp->func, dim3(cp->grid), dim3(cp->threads), argv, cp->smem, stream);
  } else if (cp->kind == K_SEG) {
    const SegCfg &sg = cp->seg;
    unsigned char *ws = (unsigned char *)args->ws;
    SegParams sp;
    for (int k = 0; k < 3; ++k) sp.red[k] = ws + sg.off_red[k];
    sp.one = ws + sg.off_one;
    sp.redinfo = (int32_t *)(ws + sg.off_redinfo);
    sp.ovf = (int32_t *)(ws + sg.off_ovf);
    sp.R = sg.R;
    sp.S = sg.S;
    sp.sdiv = sg.sdiv;
    /* the reduced systems: interleaved in the workspace, unit diagonal
     * broadcast, solved in place */
    KParams kr;
    memset(&kr, 0, sizeof kr);
    const int rop[TRIDI_NUM_OPERANDS] = {0, -1, 1, 2, 2};
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
      kr.op[k] = rop[k] < 0 ? sp.one : sp.red[rop[k]];
      kr.as[k] = rop[k] < 0 ? 0 : L->nsys;
      kr.bstride[k][0] = rop[k] < 0 ? 0 : 1;
    }
    kr.bext[0] = L->nsys;
    kr.nbatch = 1;
    kr.info = sp.redinfo;
    kr.n = sg.nred;
    kr.nsys = L->nsys;
    {
      int lg = sg.reduce.logG, lq = sg.reduce.logP;
      void *argv[] = {&kp, &sp, &lg, &lq};
      e = cudaLaunchKernel(sg.reduce.func, dim3(sg.reduce.grid), dim3(sg.reduce.threads), argv, sg.reduce.smem,
                           stream);
    }
    if (e == cudaSuccess) {
      int lg = sg.red.logG, lp = sg.red.logP;
      void *argv[] = {&kr, &lg, &lp};
      e = cudaLaunchKernel(sg.red.func, dim3(sg.red.grid), dim3(sg.red.threads), argv, sg.red.smem, stream);
    }
    if (e == cudaSuccess) {
      int lg = sg.tiles.logG, lp = sg.tiles.logP;
      void *argv[] = {&kp, &sp, &lg, &lp};
      e = cudaLaunchKernel(sg.tiles.func, dim3(sg.tiles.grid), dim3(sg.tiles.threads), argv, sg.tiles.smem,
                           stream);
    }
    if (e == cudaSuccess && args->info) {
      const int64_t blocks64 = (L->nsys + 255) / 256;
      void *argv[] = {&kp, &sp};
      e = cudaLaunchKernel(sg.info_func, dim3((unsigned)(blocks64 < 65535 ? blocks64 : 65535)), dim3(256), argv,
                           0, stream);
    }
  } else if (cp->kind == K_CLUSTER) {
    int logG = cp->logG, logP = cp->logP, K = cp->K;
    void *argv[] = {&kp, &logG, &logP, &K};
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_config(&attr, K, cp->grid, (unsigned)cp->threads, cp->smem, stream);
    e = cudaLaunchKernelExC(&cfg, cp->func, argv);
  } else {
    int logG = cp->logG, P = cp->P;
    int64_t m = cp->m_stream;
    void *argv[] = {&kp, &logG, &P, &m};
    e = cudaLaunchKernel(cp->func, dim3(cp->grid), dim3(cp->threads), argv, cp->smem, stream);
  }
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) return cuda_err(e, "tridi_execute: kernel launch");
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_thomas_pcr_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
