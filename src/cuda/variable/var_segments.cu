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
 * exchange for tiles of the PACKED kernel's size at any length. */
#include <limits.h>

#include "../scalar/pcr_uv.cuh"
#include "var_kernels.cuh"

namespace tridi_cuda {

constexpr int kSegThreads = 256;

/* Elements of one operand's tile in shared memory: P M rows, padded as var_pad. */
template <typename T>
__host__ __device__ constexpr int var_seg_lds(int M) {
  return kSegThreads * M + (kSegThreads * M) / (int)(128 / sizeof(T)) * (int)(16 / sizeof(T));
}

template <typename T, int M>
size_t var_seg_smem() {
  return (size_t)(4 * var_seg_lds<T>(M) + 10 * kSegThreads) * sizeof(T) + 16;
}

template <typename T, int M, int PHASE, bool GROW>
__global__ void __launch_bounds__(kSegThreads) var_seg_kernel(VarParams p, VarLong lg, VarSegs sg) {
  constexpr int P = kSegThreads;
  constexpr int V = Vec<T>::n;
  using VT = typename Vec<T>::type;
  static_assert((128 / sizeof(T)) % M == 0 && M % V == 0,
                "chunks must be whole 16-byte pieces inside a pad period");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  constexpr int LDS = var_seg_lds<T>(M);
  constexpr int cap = P * M;
  T *buf = (T *)smem_raw; /* [4][LDS]: a, b, c, d; x reuses a */
  T *rs = buf + 4 * LDS, *rp = rs + 2 * P, *rq = rp + 2 * P, *ru = rq + 2 * P, *rv = ru + 2 * P;
  unsigned *key = (unsigned *)(rv + 2 * P); /* the segment's two maxima (red_key) */
  int *badrow = (int *)(key + 2);           /* solve: first row with x not finite */
  const int tid = threadIdx.x;
  const int r0 = tid * M; /* this thread's chunk: positions r0 .. r0 + M - 1 */
  const int pr0 = var_pad<T>(r0);
  T *rows = (T *)sg.rows, *sol = (T *)sg.sol;

  for (int64_t t = blockIdx.x; t < sg.nseg; t += gridDim.x) {
    const int64_t si = PHASE == 0 ? t : sg.nseg - 1 - t;
    const int j = sg.seg_sys[si], k = sg.seg_k[si];
    const int64_t n = lg.n[j], o = lg.first[j];
    const bool vec = p.ph0 >= 0;
    const int ph = var_seg_phase<T>(p, o);
    const int S = var_seg_count(n, ph, cap);
    if (k >= S) continue;                     /* the plan's spare segment */
    if (PHASE == 1 && sg.sysbad[j]) continue; /* left to the reference */
    const bool first = k == 0, last = k == S - 1;
    const int64_t rb = first ? 0 : (int64_t)k * cap - ph;
    const int64_t re = n < (int64_t)(k + 1) * cap - ph ? n : (int64_t)(k + 1) * cap - ph;
    const int nrows = (int)(re - rb), lo = first ? ph : 0, npos = nrows + lo;
    /* 1. the segment's rows into shared memory (positions lo .. npos - 1) */
    var_tile_load<T, M, P>(p, o + rb, nrows, lo, vec, buf, LDS, tid);
    if (tid == 0) {
      key[0] = key[1] = 0u;
      *badrow = INT_MAX;
    }
    T Fk = 0, Lk = 0, Lprev = 0, Fnext = 0, A = 0, D = 0, X = 0;
    if (PHASE == 1) { /* read while the copies fly */
      Fk = sol[2 * si];
      Lk = sol[2 * si + 1];
      if (!first) Lprev = sol[2 * si - 1];
      if (!last) Fnext = sol[2 * si + 2];
      if (GROW) {
        const T *sx = (const T *)sg.sysx + 3 * j;
        A = sx[0];
        D = sx[1];
        X = sx[2];
      }
    }
    cp_async_wait_prev0();
    __syncthreads();
    /* 2. the system's own ends: a of its first row and c of its last read as
     * zero; a first row with b = 0 is the reference's zero pivot */
    bool bad = false;
    if (tid == 0) {
      if (first) {
        buf[var_pad<T>(lo)] = (T)0;
        bad = buf[LDS + var_pad<T>(lo)] == (T)0;
      }
      if (last) buf[2 * LDS + var_pad<T>(npos - 1)] = (T)0;
    }
    __syncthreads();

    /* 3. chunk elimination (a chunk wholly past the segment: identity rows) */
    const bool live = r0 < npos;
    ChunkState<T, M> cs;
    T amx = 0, dmx = 0;
    if (live) {
      union {
        VT q[4][M / V];
        T e[4][M];
      } v;
#pragma unroll
      for (int kk = 0; kk < 4; ++kk)
#pragma unroll
        for (int i = 0; i < M / V; ++i) v.q[kk][i] = *(const VT *)(buf + kk * LDS + pr0 + i * V);
      chunk_eliminate<T, M, true>([&](int kk, int jj) -> T { return v.e[kk][jj]; }, 1, INT64_MAX,
                                  cs);
      if (GROW && PHASE == 0) {
#pragma unroll
        for (int jj = 0; jj < M; ++jj)
          if (r0 + jj >= lo && r0 + jj < npos) {
            amx = fmax_(amx, (fabs(v.e[0][jj]) + fabs(v.e[1][jj])) + fabs(v.e[2][jj]));
            dmx = fmax_(dmx, fabs(v.e[3][jj]));
          }
      }
      bad = bad || !finite_(cs.nonfin);
    } else {
      cs.sF = cs.pF = cs.qF = cs.sL = cs.pL = cs.qL = cs.nonfin = (T)0;
    }

    /* 4. the reduced system, F (chunk 0's first unknown) and L (chunk P - 1's
     * last) as parameters */
    T s[2] = {cs.sF, cs.sL}, pp[2] = {cs.pF, cs.pL}, q[2] = {cs.qF, cs.qL}, u[2] = {0, 0},
      w[2] = {0, 0};
    if (tid == 0) {
      s[0] = pp[0] = q[0] = (T)0;
      u[0] = (T)1;
    }
    if (tid == P - 1) {
      s[1] = pp[1] = q[1] = (T)0;
      w[1] = (T)1;
    }
    pcr_reduced_uv<T>(rs, rp, rq, ru, rv, 0, 1, 2 * tid, 2 * P, s, pp, q, u, w);

    if (PHASE == 0) {
      /* 5. the segment's two rows of the join:
       *    F: sF L_{k-1} + (1 + pF u_1) F + pF v_1 L = qF - pF q_1 (chunk 0)
       *    L: sL u_{P-2} F + (1 + sL v_{P-2}) L + pL F_{k+1} = qL - sL q_{P-2} */
      if (tid == 0) {
        T *c = rows + 8 * si;
        c[0] = cs.sF;
        c[1] = (T)1 + cs.pF * u[1];
        c[2] = cs.pF * w[1];
        c[3] = cs.qF - cs.pF * q[1];
      }
      if (tid == P - 1) {
        T *c = rows + 8 * si + 4;
        c[0] = cs.sL * u[0];
        c[1] = (T)1 + cs.sL * w[0];
        c[2] = cs.pL;
        c[3] = cs.qL - cs.sL * q[0];
      }
      if (GROW) {
        atomicMax(&key[0], red_key(amx));
        atomicMax(&key[1], red_key(dmx));
      }
      const int anyb = __syncthreads_or(bad);
      if (tid == 0) {
        sg.segst[si] = anyb ? 1 : 0;
        if (GROW) {
          T *m = (T *)sg.smax + 2 * si;
          m[0] = red_val<T>(key[0]);
          m[1] = red_val<T>(key[1]);
        }
      }
      __syncthreads();
      continue;
    }

    /* 5. solve: the chunk's x from F and L */
    const T xF = q[0] + u[0] * Fk + w[0] * Lk, xL = q[1] + u[1] * Fk + w[1] * Lk;
    T x[M];
#pragma unroll
    for (int jj = 0; jj < M; ++jj) x[jj] = chunk_x(cs, jj, xF, xL);
    int myrow = INT_MAX;
    if (live)
#pragma unroll
      for (int jj = M - 1; jj >= 0; --jj)
        if (r0 + jj >= lo && r0 + jj < npos && !finite_(x[jj])) myrow = r0 + jj - lo;
    bool inacc = false;
    if (GROW) {
      /* the residual of every row (the neighbours' x: the chunks' ends in
       * rs / rp, free since pcr_reduced_uv's last barrier; the segment's
       * outer neighbours from the join) */
      rs[tid] = xF;
      rp[tid] = xL;
      __syncthreads();
      const T xm = tid > 0 ? rp[tid - 1] : Lprev, xp = tid < P - 1 ? rs[tid + 1] : Fnext;
      if (live) {
        T rmax = 0, xmax = X;
#pragma unroll
        for (int jj = 0; jj < M; ++jj)
          if (r0 + jj >= lo && r0 + jj < npos) {
            const int e = pr0 + jj;
            const T xl = jj > 0 ? x[jj - 1] : xm, xr = jj < M - 1 ? x[jj + 1] : xp;
            const T r =
                ((buf[e] * xl + buf[LDS + e] * x[jj]) + buf[2 * LDS + e] * xr) - buf[3 * LDS + e];
            rmax = fabs(r) > rmax ? fabs(r) : rmax;
            xmax = fabs(x[jj]) > xmax ? fabs(x[jj]) : xmax;
          }
        inacc = !(rmax <= residual_tol<T>(n) * (A * xmax + D));
      }
    }
    if (myrow != INT_MAX) atomicMin(badrow, myrow);
    const int anyflag = __syncthreads_or(inacc);
    /* 6. x into a's region (all reads of it done), then to device memory */
    if (live) {
      union {
        VT q[M / V];
        T e[M];
      } v;
#pragma unroll
      for (int jj = 0; jj < M; ++jj) v.e[jj] = x[jj];
#pragma unroll
      for (int i = 0; i < M / V; ++i) *(VT *)(buf + pr0 + i * V) = v.q[i];
    }
    __syncthreads();
    var_tile_store<T, P>(p, o + rb, nrows, lo, vec, buf, tid);
    if (tid == 0)
      sg.segst[si] = *badrow != INT_MAX ? (int32_t)(-(rb + *badrow + 1))
                                        : (anyflag ? (int32_t)TRIDI_INFO_INACCURATE : 0);
    __syncthreads();
  }
}

/* Step 2: one thread a long system, the Thomas recurrences on its join
 * system of 2S rows (c' over the rows' upper entries, d' then x in sol);
 * sysbad where a segment broke down or the join meets a zero pivot or a
 * NaN/Inf; with the growth detection the system's maxima (sysx). */
template <typename T, bool GROW>
__global__ void __launch_bounds__(128) var_seg_join(VarParams p, VarLong lg, VarSegs sg) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= lg.count) return;
  const int64_t n = lg.n[j];
  const int S = var_seg_count(n, var_seg_phase<T>(p, lg.first[j]), sg.cap);
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

template <typename T, int M, bool GROW>
cudaError_t var_seg_launch_t(const VarParams &p, const VarLong &lg, const VarSegs &sg, int blocks,
                             cudaStream_t stream) {
  const size_t smem = var_seg_smem<T, M>();
  var_seg_kernel<T, M, 0, GROW><<<blocks, kSegThreads, smem, stream>>>(p, lg, sg);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  var_seg_join<T, GROW><<<(unsigned)((lg.count + 127) / 128), 128, 0, stream>>>(p, lg, sg);
  e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  var_seg_kernel<T, M, 1, GROW><<<blocks, kSegThreads, smem, stream>>>(p, lg, sg);
  return cudaGetLastError();
}

template <typename T, int M, bool GROW>
cudaError_t var_seg_prepare_t(int *per_sm) {
  const size_t smem = var_seg_smem<T, M>();
  cudaError_t e = cudaFuncSetAttribute(var_seg_kernel<T, M, 0, GROW>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(var_seg_kernel<T, M, 1, GROW>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, var_seg_kernel<T, M, 1, GROW>,
                                                      kSegThreads, smem);
  return e;
}

template <bool GROW>
cudaError_t var_seg_prepare_g(bool f32, int M, int *per_sm) {
  if (!f32) return var_seg_prepare_t<double, 8, GROW>(per_sm);
  return M == 8 ? var_seg_prepare_t<float, 8, GROW>(per_sm)
                : var_seg_prepare_t<float, 16, GROW>(per_sm);
}

template <bool GROW>
cudaError_t var_seg_launch_g(bool f32, int M, const VarParams &p, const VarLong &lg,
                             const VarSegs &sg, int blocks, cudaStream_t stream) {
  if (!f32) return var_seg_launch_t<double, 8, GROW>(p, lg, sg, blocks, stream);
  return M == 8 ? var_seg_launch_t<float, 8, GROW>(p, lg, sg, blocks, stream)
                : var_seg_launch_t<float, 16, GROW>(p, lg, sg, blocks, stream);
}

/* Plan time (the plan's device current): the kernels' shared memory
 * allowed; *blocks = the persistent grid for nseg segments */
cudaError_t var_seg_grid(bool f32, int M, bool grow, int64_t nseg, int sms, int *blocks) {
  int per_sm = 0;
  const cudaError_t e =
      grow ? var_seg_prepare_g<true>(f32, M, &per_sm) : var_seg_prepare_g<false>(f32, M, &per_sm);
  const int64_t want = (int64_t)(per_sm > 0 ? per_sm : 1) * sms;
  *blocks = (int)(nseg < want ? nseg : want);
  if (*blocks < 1) *blocks = 1;
  return e;
}

/* Steps 1-3 on the stream (step 4: var_long_launch with lg's segment fields) */
cudaError_t var_seg_launch(bool f32, bool grow, int M, const VarParams &p, const VarLong &lg,
                           const VarSegs &sg, int blocks, cudaStream_t stream) {
  return grow ? var_seg_launch_g<true>(f32, M, p, lg, sg, blocks, stream)
              : var_seg_launch_g<false>(f32, M, p, lg, sg, blocks, stream);
}

} /* namespace tridi_cuda */
