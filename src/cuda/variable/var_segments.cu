/* Systems of a PACKED variable-size batch longer than a tile: cut into
 * segments of one tile each (VarSegs, var_kernels.cuh), solved by the
 * partition method in three launches, then the reference for what they
 * could not solve (var_long.cu):
 *  1. reduce (var_seg_kernel<PHASE 0>): one block a segment, its rows
 *     copied into shared memory as the PACKED kernel copies a tile (16-byte
 *     pieces), eliminated in chunks (chunk.cuh) and its reduced system
 *     solved by PCR with the segment's first and last unknowns F and L left
 *     as parameters (pcr_uv.cuh, as the cluster kernel does): every chunk
 *     end is x = q + u F + v L.  The segment's first row (coupled to the
 *     previous segment's last unknown) and last row (to the next one's
 *     first) then give two rows of a tridiagonal "join" system of 2S
 *     unknowns a system, written to the workspace with a breakdown flag
 *     (and, with the growth detection, the rows' max(|a| + |b| + |c|) and
 *     max |d|);
 *  2. join (var_seg_join): one thread a system, the Thomas recurrences on
 *     its 2S rows (S = n / cap, a few dozen at most for the lengths this
 *     kind is for): F and L of every segment;
 *  3. solve (var_seg_kernel<PHASE 1>): every segment again, in reverse
 *     order (the first ones read what step 1 left in L2), F and L now
 *     known: x of every chunk, stored as the PACKED kernel stores a tile.
 *     With the growth detection each row's residual a x_{i-1} + b x_i +
 *     c x_{i+1} - d is checked against max(64, n) eps (A X + D), A and D
 *     the system's max(|a| + |b| + |c|) and max |d|, X the largest |x| of
 *     the chunk and of the segments' ends (at most ||x||): a system that
 *     passes has a backward error of at most max(64, n) eps; one that does
 *     not gets TRIDI_INFO_INACCURATE (x written: in place, d is gone);
 *  4. the reference (var_long.cu) solves the systems that broke down in 1
 *     or 2 (exact info codes; in place too, as nothing was stored) and
 *     writes every other system's info from its segments' status.
 * Inputs are read twice (9 words of traffic an unknown against 5), in
 * exchange for tiles of the PACKED kernel's size at any length.
 *
 * Systems of at most 8 segments (sm_90) take one launch instead
 * (var_seg_cluster): a thread-block cluster a system, block k its segment
 * k, steps 1 and 3 in one pass with the segment kept in shared memory and
 * the join solved by every block from the others' rows through distributed
 * shared memory (PCR in one warp, as the scalar cluster kernel does): 5
 * words an unknown, one elimination. */
#include <limits.h>

#include "../scalar/pcr_uv.cuh"
#include "common/launch.h"
#include "var_kernels.cuh"

namespace tridi_cuda {

constexpr int kSegClusterMax = 8; /* blocks of a cluster (portable) */

/* shared memory: the tile, the PCR arrays, then (bytes) two maxima keys, a
 * row number, a flag, and for the cluster kernel its two join rows, the
 * join's solution */
template <typename T, int M>
size_t var_seg_smem() {
  return (size_t)(4 * var_tile_lds<T>(M) + 10 * kVarThreads + 8 + 2 * kSegClusterMax) * sizeof(T) +
         32;
}

/* Where segment k of long system j lies (VarSegs) */
struct SegGeom {
  int64_t o, n, rb; /* the system's first row and length; the segment's first row in it */
  int S, nrows, lo, npos;
  bool first, last, vec;
};

template <typename T, int M>
__device__ __forceinline__ SegGeom seg_geom(const VarParams &p, const VarLong &lg, int64_t j,
                                            int k) {
  constexpr int cap = kVarThreads * M;
  SegGeom g;
  g.n = lg.n[j];
  g.o = lg.first[j];
  g.vec = p.ph0 >= 0;
  const int ph = var_seg_phase<T>(p, g.o);
  g.S = var_seg_count(g.n, ph, cap);
  g.first = k == 0;
  g.last = k == g.S - 1;
  g.rb = g.first ? 0 : (int64_t)k * cap - ph;
  const int64_t re = g.n < (int64_t)(k + 1) * cap - ph ? g.n : (int64_t)(k + 1) * cap - ph;
  g.nrows = (int)(re - g.rb);
  g.lo = g.first ? ph : 0;
  g.npos = g.nrows + g.lo;
  return g;
}

/* A thread's state after steps 1-4 */
template <typename T, int M>
struct SegFront {
  ChunkState<T, M> cs;
  T q[2], u[2], w[2]; /* x of the chunk's first / last row = q + u F + w L */
  T amx, dmx;         /* GROW: the chunk's max(|a| + |b| + |c|), max |d| */
  bool bad, live;
};

/* Steps 1-4 of a segment (every thread of the block): its rows into shared
 * memory, the system's ends zeroed, chunk elimination, PCR with F and L as
 * parameters.  during_copy() runs while the copies fly. */
template <typename T, int M, bool GROW, typename During>
__device__ __forceinline__ void seg_front(const VarParams &p, const SegGeom &g, T *buf, T *rs,
                                          int tid, SegFront<T, M> &f, During during_copy) {
  constexpr int P = kVarThreads;
  constexpr int V = Vec<T>::n;
  static_assert((128 / sizeof(T)) % M == 0 && M % V == 0,
                "chunks must be whole 16-byte pieces inside a pad period");
  constexpr int LDS = var_tile_lds<T>(M);
  T *rp = rs + 2 * P, *rq = rp + 2 * P, *ru = rq + 2 * P, *rv = ru + 2 * P;
  const int r0 = tid * M, pr0 = var_pad<T>(r0);
  var_tile_load<T, M, P>(p, g.o + g.rb, g.nrows, g.lo, g.vec, buf, LDS, tid);
  during_copy();
  cp_async_wait_prev0();
  __syncthreads();
  /* the system's own ends: a of its first row and c of its last read as
   * zero; a first row with b = 0 is the reference's zero pivot */
  f.bad = false;
  if (tid == 0) {
    if (g.first) {
      buf[var_pad<T>(g.lo)] = (T)0;
      f.bad = buf[LDS + var_pad<T>(g.lo)] == (T)0;
    }
    if (g.last) buf[2 * LDS + var_pad<T>(g.npos - 1)] = (T)0;
  }
  __syncthreads();
  /* chunk elimination (a chunk wholly past the segment: identity rows) */
  f.live = r0 < g.npos;
  ChunkState<T, M> &cs = f.cs;
  f.amx = f.dmx = (T)0;
  if (f.live) {
    VarChunk<T, M> v;
    var_chunk_load<T, M>(v, buf, LDS, pr0);
    chunk_eliminate<T, M, true>([&](int kk, int jj) -> T { return v.e[kk][jj]; }, 1, INT64_MAX, cs);
    if (GROW) {
#pragma unroll
      for (int jj = 0; jj < M; ++jj)
        if (r0 + jj >= g.lo && r0 + jj < g.npos) {
          f.amx = fmax_(f.amx, (fabs(v.e[0][jj]) + fabs(v.e[1][jj])) + fabs(v.e[2][jj]));
          f.dmx = fmax_(f.dmx, fabs(v.e[3][jj]));
        }
    }
    f.bad = f.bad || !finite_(cs.nonfin);
  } else {
    cs.sF = cs.pF = cs.qF = cs.sL = cs.pL = cs.qL = cs.nonfin = (T)0;
  }
  /* the reduced system, F (chunk 0's first unknown) and L (chunk P - 1's
   * last) as parameters */
  T s[2] = {cs.sF, cs.sL}, pp[2] = {cs.pF, cs.pL};
  f.q[0] = cs.qF;
  f.q[1] = cs.qL;
  f.u[0] = f.u[1] = f.w[0] = f.w[1] = (T)0;
  if (tid == 0) {
    s[0] = pp[0] = f.q[0] = (T)0;
    f.u[0] = (T)1;
  }
  if (tid == P - 1) {
    s[1] = pp[1] = f.q[1] = (T)0;
    f.w[1] = (T)1;
  }
  pcr_reduced_uv<T>(rs, rp, rq, ru, rv, 0, 1, 2 * tid, 2 * P, s, pp, f.q, f.u, f.w);
}

/* The segment's two rows of its system's join (lower, diagonal, upper,
 * right-hand side), F by thread 0, L by thread P - 1:
 *    F: sF L_{k-1} + (1 + pF u_1) F + pF v_1 L = qF - pF q_1 (chunk 0)
 *    L: sL u_{P-2} F + (1 + sL v_{P-2}) L + pL F_{k+1} = qL - sL q_{P-2} */
template <typename T, int M>
__device__ __forceinline__ void seg_rows(const SegFront<T, M> &f, int tid, T *dst) {
  const ChunkState<T, M> &cs = f.cs;
  if (tid == 0) {
    dst[0] = cs.sF;
    dst[1] = (T)1 + cs.pF * f.u[1];
    dst[2] = cs.pF * f.w[1];
    dst[3] = cs.qF - cs.pF * f.q[1];
  }
  if (tid == kVarThreads - 1) {
    dst[4] = cs.sL * f.u[0];
    dst[5] = (T)1 + cs.sL * f.w[0];
    dst[6] = cs.pL;
    dst[7] = cs.qL - cs.sL * f.q[0];
  }
}

/* Step 3 of a segment (every thread), F and L known (Lprev / Fnext: the
 * neighbouring segments' ends, 0 at the system's ends; A, D, X the
 * system's maxima): x of every chunk, the residual check (GROW), x stored.
 * Returns the segment's status (segst) in every thread. */
template <typename T, int M, bool GROW>
__device__ __forceinline__ int32_t seg_solve(const VarParams &p, const SegGeom &g,
                                             const SegFront<T, M> &f, T Fk, T Lk, T Lprev, T Fnext,
                                             T A, T D, T X, T *buf, T *rs, int *badrow, int tid) {
  constexpr int P = kVarThreads;
  constexpr int LDS = var_tile_lds<T>(M);
  T *rp = rs + 2 * P;
  const int r0 = tid * M, pr0 = var_pad<T>(r0);
  const T xF = f.q[0] + f.u[0] * Fk + f.w[0] * Lk, xL = f.q[1] + f.u[1] * Fk + f.w[1] * Lk;
  T x[M];
#pragma unroll
  for (int jj = 0; jj < M; ++jj) x[jj] = chunk_x(f.cs, jj, xF, xL);
  int myrow = INT_MAX;
  if (f.live)
#pragma unroll
    for (int jj = M - 1; jj >= 0; --jj)
      if (r0 + jj >= g.lo && r0 + jj < g.npos && !finite_(x[jj])) myrow = r0 + jj - g.lo;
  bool inacc = false;
  if (GROW) {
    /* the residual of every row (the neighbours' x: the chunks' ends in
     * rs / rp, free since pcr_reduced_uv's last barrier) */
    T xm, xp;
    chunk_ends<T>(rs, rp, 1, tid, P, xF, xL, Lprev, Fnext, xm, xp);
    if (f.live) {
      T rmax = 0, xmax = X;
#pragma unroll
      for (int jj = 0; jj < M; ++jj)
        if (r0 + jj >= g.lo && r0 + jj < g.npos) {
          const int e = pr0 + jj;
          const T xl = jj > 0 ? x[jj - 1] : xm, xr = jj < M - 1 ? x[jj + 1] : xp;
          const T r =
              ((buf[e] * xl + buf[LDS + e] * x[jj]) + buf[2 * LDS + e] * xr) - buf[3 * LDS + e];
          rmax = fabs(r) > rmax ? fabs(r) : rmax;
          xmax = fabs(x[jj]) > xmax ? fabs(x[jj]) : xmax;
        }
      inacc = resid_fails<T>(rmax, A, xmax, D, g.n);
    }
  }
  if (tid == 0) *badrow = INT_MAX;
  __syncthreads();
  if (myrow != INT_MAX) atomicMin(badrow, myrow);
  const int anyflag = __syncthreads_or(inacc);
  /* x into a's region (all reads of it done), then to device memory */
  if (f.live) {
    var_chunk_store<T, M>(buf, pr0, x);
  }
  __syncthreads();
  var_tile_store<T, P>(p, g.o + g.rb, g.nrows, g.lo, g.vec, buf, tid);
  const int br = *badrow;
  __syncthreads(); /* badrow and buf are reused by the block's next segment */
  return br != INT_MAX ? (int32_t)(-(g.rb + br + 1))
                       : (anyflag ? (int32_t)TRIDI_INFO_INACCURATE : 0);
}

/* Steps 1 (PHASE 0) and 3 (PHASE 1): persistent blocks over the segments
 * of the systems not taken by the cluster kernel */
template <typename T, int M, int PHASE, bool GROW>
__global__ void __launch_bounds__(kVarThreads) var_seg_kernel(VarParams p, VarLong lg, VarSegs sg) {
  constexpr int P = kVarThreads;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  constexpr int LDS = var_tile_lds<T>(M);
  T *buf = (T *)smem_raw;                    /* [4][LDS]: a, b, c, d; x reuses a */
  T *rs = buf + 4 * LDS;                     /* [5][2P]: the PCR arrays */
  unsigned *key = (unsigned *)(rs + 10 * P); /* the segment's two maxima (red_key) */
  int *badrow = (int *)(key + 2);
  const int tid = threadIdx.x;
  T *sol = (T *)sg.sol;

  for (int64_t t = blockIdx.x; t < sg.nseg; t += gridDim.x) {
    const int64_t si = PHASE == 0 ? t : sg.nseg - 1 - t;
    const int j = sg.seg_sys[si], k = sg.seg_k[si];
    const SegGeom g = seg_geom<T, M>(p, lg, j, k);
    if (k >= g.S) continue;                   /* the plan's spare segment */
    if (PHASE == 1 && sg.sysbad[j]) continue; /* left to the reference */
    T Fk = 0, Lk = 0, Lprev = 0, Fnext = 0, A = 0, D = 0, X = 0;
    SegFront<T, M> f;
    seg_front<T, M, GROW>(p, g, buf, rs, tid, f, [&] {
      if (PHASE == 0) {
        if (tid == 0) key[0] = key[1] = 0u;
      } else { /* read while the copies fly */
        Fk = sol[2 * si];
        Lk = sol[2 * si + 1];
        if (!g.first) Lprev = sol[2 * si - 1];
        if (!g.last) Fnext = sol[2 * si + 2];
        if (GROW) {
          const T *sx = (const T *)sg.sysx + 3 * j;
          A = sx[0];
          D = sx[1];
          X = sx[2];
        }
      }
    });
    if (PHASE == 0) {
      seg_rows<T, M>(f, tid, (T *)sg.rows + 8 * si);
      if (GROW) {
        atomicMax(&key[0], red_key(f.amx));
        atomicMax(&key[1], red_key(f.dmx));
      }
      const int anyb = __syncthreads_or(f.bad);
      if (tid == 0) {
        sg.segst[si] = anyb ? 1 : 0;
        if (GROW) {
          T *m = (T *)sg.smax + 2 * si;
          m[0] = red_val<T>(key[0]);
          m[1] = red_val<T>(key[1]);
        }
      }
      __syncthreads();
    } else {
      const int32_t st =
          seg_solve<T, M, GROW>(p, g, f, Fk, Lk, Lprev, Fnext, A, D, X, buf, rs, badrow, tid);
      if (tid == 0) sg.segst[si] = st;
    }
  }
}

/* One system a cluster of K blocks (sm_90): block k solves segment k in one
 * pass.  Its two join rows, breakdown flag and maxima go to its own shared
 * memory; after a cluster barrier warp 0 of every block reads the 2K rows
 * (blocks k >= S: identity rows) through distributed shared memory, one a
 * lane, and solves the join by PCR with shuffles; a cluster-wide breakdown
 * leaves the system to the reference (sysbad), else every block solves its
 * segment.  Systems lg index j0 + blockIdx.x / K.  Two blocks an SM at
 * least (f64 with the detection took 138 registers, one block an SM, and
 * ran slower than the three launches: docs/perf-log.md). */
template <typename T, int M, bool GROW>
__global__ void __launch_bounds__(kVarThreads, 2)
    var_seg_cluster(VarParams p, VarLong lg, VarSegs sg, int64_t j0, int K) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int P = kVarThreads;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  constexpr int LDS = var_tile_lds<T>(M);
  T *buf = (T *)smem_raw;
  T *rs = buf + 4 * LDS;
  T *crow = rs + 10 * P;                                 /* [8]: this block's two join rows */
  T *xs = crow + 8;                                      /* [2K]: the join's solution */
  unsigned *key = (unsigned *)(xs + 2 * kSegClusterMax); /* [2] maxima, [1] breakdown flag */
  int *badrow = (int *)(key + 3);
  const int tid = threadIdx.x;
  const int k = (int)cluster_rank();
  const int64_t j = j0 + (int64_t)(blockIdx.x / (unsigned)K);
  const SegGeom g = seg_geom<T, M>(p, lg, j, k);
  const bool idle = k >= g.S; /* block-uniform */
  SegFront<T, M> f;
  if (tid == 0) key[0] = key[1] = key[2] = 0u;
  if (!idle) {
    seg_front<T, M, GROW>(p, g, buf, rs, tid, f, [] {});
    seg_rows<T, M>(f, tid, crow);
    if (GROW) {
      atomicMax(&key[0], red_key(f.amx));
      atomicMax(&key[1], red_key(f.dmx));
    }
    if (f.bad) atomicOr(&key[2], 1u);
  } else if (tid < 8) {
    crow[tid] = (tid == 1 || tid == 5) ? (T)1 : (T)0;
  }
  cluster_sync();
  /* the join, in warp 0 of every block: lane l takes row l of 2K */
  if (tid < 32) {
    const int R2 = 2 * K;
    const int l = tid;
    const bool on = l < R2;
    T lo = 0, di = 1, up = 0, rh = 0;
    unsigned ka = 0, kd = 0, kb = 0;
    if (on) {
      const T *c = cluster_map(crow, (unsigned)(l >> 1)) + (l & 1) * 4;
      lo = c[0];
      di = c[1];
      up = c[2];
      rh = c[3];
    }
    if (l < K) {
      const unsigned *kr = cluster_map(key, (unsigned)l);
      ka = kr[0];
      kd = kr[1];
      kb = kr[2];
    }
    T qj = warp_pcr<T>(lo, di, up, rh, l, R2, 32);
    if (!on) qj = 0;
    /* the cluster's maxima and breakdown, the join's largest |x| */
    T xm = fabs(qj);
    bool bad = kb != 0u || !finite_(qj);
    for (int h = 16; h >= 1; h >>= 1) {
      ka = max(ka, __shfl_xor_sync(0xffffffffu, ka, h));
      kd = max(kd, __shfl_xor_sync(0xffffffffu, kd, h));
      const T o = __shfl_xor_sync(0xffffffffu, xm, h);
      xm = o > xm ? o : xm;
    }
    bad = __any_sync(0xffffffffu, bad);
    if (on) xs[l] = qj;
    if (l == 0) {
      T *t = rs; /* the PCR arrays are free until the solve's residual check */
      t[0] = red_val<T>(ka);
      t[1] = red_val<T>(kd);
      t[2] = xm;
      badrow[1] = bad ? 1 : 0;
    }
  }
  cluster_arrive(); /* this block is done with the others' shared memory */
  __syncthreads();
  const bool anybad = badrow[1] != 0;
  if (k == 0 && tid == 0) sg.sysbad[j] = anybad ? 1 : 0;
  if (!idle && !anybad) {
    const T A = rs[0], D = rs[1], X = rs[2];
    const T Lprev = g.first ? (T)0 : xs[2 * k - 1], Fnext = g.last ? (T)0 : xs[2 * k + 2];
    __syncthreads(); /* rs is the residual check's */
    const int32_t st = seg_solve<T, M, GROW>(p, g, f, xs[2 * k], xs[2 * k + 1], Lprev, Fnext, A, D,
                                             X, buf, rs, badrow, tid);
    if (tid == 0) sg.segst[lg.seg0[j] + k] = st;
  }
  cluster_wait(); /* no block exits while another may read its shared memory */
#else
  (void)p;
  (void)lg;
  (void)sg;
  (void)j0;
  (void)K;
#endif
}

/* Step 2: one thread a long system of the three-launch path (j < nsys3),
 * the Thomas recurrences on its join system of 2S rows (c' over the rows'
 * upper entries, d' then x in sol); sysbad where a segment broke down or
 * the join meets a zero pivot or a NaN/Inf; with the growth detection the
 * system's maxima (sysx). */
template <typename T, bool GROW>
__global__ void __launch_bounds__(128) var_seg_join(VarParams p, VarLong lg, VarSegs sg) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= sg.nsys3) return;
  const int64_t n = lg.n[j];
  const int S = var_seg_count(n, var_seg_phase<T>(p, lg.first[j]), lg.cap);
  const int64_t s0 = lg.seg0[j];
  T *R = (T *)sg.rows + 8 * s0, *X = (T *)sg.sol + 2 * s0;
  bool bad = false;
  for (int k = 0; k < S; ++k) bad = bad || sg.segst[s0 + k] != 0;
  const int nr = 2 * S;
  T cp = 0, dp = 0;
  for (int r = 0; r < nr && !bad; ++r) {
    T *row = R + 4 * r;
    const T lo = r > 0 ? row[0] : (T)0, up = r < nr - 1 ? row[2] : (T)0;
    const T m = row[1] - lo * cp;
    const T rr = (T)1 / m;
    cp = up * rr;
    dp = (row[3] - lo * dp) * rr;
    if (m == (T)0 || !finite_(cp) || !finite_(dp) || !finite_(rr)) bad = true;
    row[2] = cp;
    X[r] = dp;
  }
  T xmax = 0;
  if (!bad) {
    T xn = X[nr - 1];
    xmax = fabs(xn);
    for (int r = nr - 2; r >= 0; --r) {
      xn = X[r] - R[4 * r + 2] * xn;
      X[r] = xn;
      xmax = fabs(xn) > xmax ? fabs(xn) : xmax;
    }
    if (!finite_(xmax)) bad = true;
  }
  if (GROW && !bad) {
    const T *m = (const T *)sg.smax + 2 * s0;
    T A = 0, D = 0;
    for (int k = 0; k < S; ++k) {
      A = fmax_(A, m[2 * k]);
      D = fmax_(D, m[2 * k + 1]);
    }
    T *sx = (T *)sg.sysx + 3 * j;
    sx[0] = A;
    sx[1] = D;
    sx[2] = xmax;
  }
  sg.sysbad[j] = bad ? 1 : 0;
}

namespace {

template <typename T, int M, bool GROW>
cudaError_t var_seg_launch_t(const VarParams &p, const VarLong &lg, const VarSegs &sg, int blocks,
                             cudaStream_t stream) {
  const size_t smem = var_seg_smem<T, M>();
  cudaError_t e = cudaSuccess;
  if (sg.nsys3 > 0) {
    var_seg_kernel<T, M, 0, GROW><<<blocks, kVarThreads, smem, stream>>>(p, lg, sg);
    e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    var_seg_join<T, GROW><<<(unsigned)((sg.nsys3 + 127) / 128), 128, 0, stream>>>(p, lg, sg);
    e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    var_seg_kernel<T, M, 1, GROW><<<blocks, kVarThreads, smem, stream>>>(p, lg, sg);
    e = cudaGetLastError();
    if (e != cudaSuccess) return e;
  }
  for (int b = 0; b < sg.nbins; ++b) {
    int64_t j0 = sg.bin[b].j0;
    int K = sg.bin[b].K;
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg =
        cluster_config(&attr, K, (unsigned)(sg.bin[b].count * K), kVarThreads, smem, stream);
    VarParams pp = p;
    VarLong ll = lg;
    VarSegs ss = sg;
    void *argv[] = {&pp, &ll, &ss, &j0, &K};
    e = cudaLaunchKernelExC(&cfg, (const void *)var_seg_cluster<T, M, GROW>, argv);
    if (e != cudaSuccess) return e;
  }
  return cudaGetLastError();
}

template <typename T, int M, bool GROW>
cudaError_t var_seg_prepare_t(int *per_sm, int *kmax) {
  const size_t smem = var_seg_smem<T, M>();
  const void *fns[3] = {(const void *)var_seg_kernel<T, M, 0, GROW>,
                        (const void *)var_seg_kernel<T, M, 1, GROW>,
                        (const void *)var_seg_cluster<T, M, GROW>};
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < 3 && e == cudaSuccess; ++i)
    e = allow_smem(fns[i], smem);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, var_seg_kernel<T, M, 1, GROW>,
                                                      kVarThreads, smem);
  if (e != cudaSuccess) return e;
  /* the largest cluster (power of two <= kSegClusterMax) the device runs */
  *kmax = 0;
  for (int K = kSegClusterMax; K >= 2 && *kmax == 0; K >>= 1) {
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_config(&attr, K, (unsigned)K, kVarThreads, smem, 0);
    int nclusters = 0;
    if (cudaOccupancyMaxActiveClusters(&nclusters, fns[2], &cfg) == cudaSuccess && nclusters >= 1)
      *kmax = K;
    (void)cudaGetLastError();
  }
  return cudaSuccess;
}

} /* namespace */

/* The segments' shared memory a block (bytes; more than the PACKED tile
 * kernel's for the same M) */
size_t var_seg_smem_bytes(bool f32, int M) {
  return var_by_tile(
      f32, M, [](auto t, auto m) { return var_seg_smem<decltype(t), decltype(m)::value>(); });
}

/* Plan time (the plan's device current): the kernels' shared memory
 * allowed; *per_sm the blocks of the three-launch kernels an SM holds;
 * *kmax the largest cluster of the one-launch kernel that runs here (0:
 * none, e.g. before sm_90) */
cudaError_t var_seg_prepare(bool f32, int M, bool grow, int *per_sm, int *kmax) {
  return var_by_tile(f32, M, [&](auto t, auto m) {
    using T = decltype(t);
    constexpr int Mv = decltype(m)::value;
    return grow ? var_seg_prepare_t<T, Mv, true>(per_sm, kmax)
                : var_seg_prepare_t<T, Mv, false>(per_sm, kmax);
  });
}

/* The segments' launches on the stream (then var_long_launch with lg's
 * segment fields) */
cudaError_t var_seg_launch(bool f32, bool grow, int M, const VarParams &p, const VarLong &lg,
                           const VarSegs &sg, int blocks, cudaStream_t stream) {
  return var_by_tile(f32, M, [&](auto t, auto m) {
    using T = decltype(t);
    constexpr int Mv = decltype(m)::value;
    return grow ? var_seg_launch_t<T, Mv, true>(p, lg, sg, blocks, stream)
                : var_seg_launch_t<T, Mv, false>(p, lg, sg, blocks, stream);
  });
}

} /* namespace tridi_cuda */
