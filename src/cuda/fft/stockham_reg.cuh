/* One pass of the multi-pass Stockham FFT with the R-point DFTs in
 * registers (the pass of stockham.cuh: step (R, Ns) of the decimation-in-time
 * Stockham FFT of length N, the same input and output indices).
 *
 * A block holds a tile of G = TILE / R groups; each of a group's R / P
 * threads holds P of its points in registers, point r = t + m R/P of thread
 * t (m < P).  The R-point DFT runs as Stockham stages of radix P (the last
 * one smaller where log2 R is not a multiple of log2 P): each stage is a
 * radix-rs DFT in registers of P / rs butterflies a thread, the stage's
 * twiddles (exact powers w, w^2, w^4, .. from a table of w_Rmax^e made at
 * plan time, their products for the other exponents), and an exchange
 * through shared memory that puts point t + m R/P of the next stage back in
 * the thread's register m.  After the last stage register m holds output
 * k = t + m R/P.
 *
 * Loads and stores go between global memory and registers directly where
 * the lowest thread bits can follow the contiguous index (paper 004's
 * index-digit mapping):
 *   mode A (N/R >= G: every pass of a multi-pass plan): the group index gl
 *     on the lowest bits; loads read runs of G consecutive j; stores write
 *     runs of G where Ns >= G, else they go through shared memory with
 *     stockham.cuh's store mapping (the first pass: a group's R outputs are
 *     contiguous);
 *   mode B (N/R = 1: one-pass plans): t on the lowest bits; a transform's
 *     points are read and written in runs of R / P.
 * The pass twiddles w_{Ns R}^(r (j mod Ns)) come from log2 P + 1 sincospi a
 * thread (w^t and the exact powers of w^(R/P)).  The kernel computes the
 * forward transform; an inverse plan conjugates on the first load and the
 * last store (pass_args::conj_in / conj_out).
 *
 * stockham_reg_cluster (sm_90; planned in tuning builds only) spreads the
 * tile over the blocks of a thread-block cluster: the cluster's threads
 * take the places of one block's, and at most two exchanges a pass go
 * through distributed shared memory, the others stay in each block's own
 * (cluster_exchange). */
#ifndef TRIDI_CUDA_FFT_STOCKHAM_REG_CUH
#define TRIDI_CUDA_FFT_STOCKHAM_REG_CUH

#include "common/cluster.cuh"
#include "fft/stockham.cuh"

namespace tridi_fft {

/* cos(2 pi e / 16) for 0 <= e <= 4 */
__host__ __device__ constexpr double cos16q(int e) {
  return e == 0   ? 1.0
         : e == 1 ? 0.92387953251128675613
         : e == 2 ? 0.70710678118654752440
         : e == 3 ? 0.38268343236508977173
                  : 0.0;
}
__host__ __device__ constexpr double cos16(int e) {
  return (e & 15) <= 4    ? cos16q(e & 15)
         : (e & 15) <= 8  ? -cos16q(8 - (e & 15))
         : (e & 15) <= 12 ? -cos16q((e & 15) - 8)
                          : cos16q(16 - (e & 15));
}

/* x * w_16^e, w_16 = exp(-2 pi i / 16); e is a constant after unrolling */
template <class C>
__device__ __forceinline__ C mul_w16(C x, int e) {
  typedef decltype(x.x) T;
  e &= 15;
  if (e == 0) return x;
  C r;
  if (e == 4) { /* -i */
    r.x = x.y, r.y = -x.x;
    return r;
  }
  if (e == 8) {
    r.x = -x.x, r.y = -x.y;
    return r;
  }
  if (e == 12) { /* i */
    r.x = -x.y, r.y = x.x;
    return r;
  }
  const T c = (T)cos16(e), s = (T)cos16(e - 4); /* cos, sin of 2 pi e / 16 */
  r.x = x.x * c + x.y * s;
  r.y = x.y * c - x.x * s;
  return r;
}

/* The forward DFT of N <= 16 points in registers, natural order in and
 * out: radix-2 decimation in time as a compile-time recursion over the even
 * and odd points (every index a constant, so that nothing is indexed at run
 * time and the arrays stay in registers). */
template <class C, int N>
struct dft_rec {
  static __device__ __forceinline__ void run(C (&x)[N]) {
    if constexpr (N > 1) {
      C ev[N / 2], od[N / 2];
#pragma unroll
      for (int i = 0; i < N / 2; ++i) ev[i] = x[2 * i], od[i] = x[2 * i + 1];
      dft_rec<C, N / 2>::run(ev);
      dft_rec<C, N / 2>::run(od);
#pragma unroll
      for (int k = 0; k < N / 2; ++k) {
        const C b = mul_w16(od[k], k * (16 / N));
        x[k].x = ev[k].x + b.x, x[k].y = ev[k].y + b.y;
        x[k + N / 2].x = ev[k].x - b.x, x[k + N / 2].y = ev[k].y - b.y;
      }
    }
  }
};
template <class C, int N>
__device__ __forceinline__ void dft_reg(C (&x)[N]) {
  static_assert(N >= 1 && N <= 16 && (N & (N - 1)) == 0, "radix 1..16");
  dft_rec<C, N>::run(x);
}

/* p[q] = w^q, q < N, from the exact powers e[k] = w^(2^k): p[2^k + q] =
 * e[k] p[q] (products of at most log2 N of them), one compile-time level k
 * at a time, so that every index is a constant and e and p stay in
 * registers */
template <class C, int N, int K>
struct pow_level {
  static __device__ __forceinline__ void run(const C *e, C (&p)[N]) {
    if constexpr ((1 << K) < N) {
#pragma unroll
      for (int q = 0; q < (1 << K); ++q) p[(1 << K) + q] = q == 0 ? e[K] : cmul(e[K], p[q]);
      pow_level<C, N, K + 1>::run(e, p);
    }
  }
};
template <class C, int N>
__device__ __forceinline__ void powers(const C *e, C (&p)[N]) {
  p[0].x = 1, p[0].y = 0;
  pow_level<C, N, 0>::run(e, p);
}

/* shared-memory slot of point o of group gl: mode A o-major (groups
 * contiguous), mode B group-major; one element of padding every 128 bytes */
template <class C, int LOG_R>
__device__ __forceinline__ int rslot(int o, int gl, int log_g, bool mode_a) {
  constexpr int PADSH = sizeof(C) == 8 ? 4 : 3;
  const int idx = mode_a ? (o << log_g) + gl : (gl << LOG_R) + o;
  return idx + (idx >> PADSH);
}

/* The exchange between two stages through one block's shared memory:
 * kind() its kind (one only), before() the barrier after the previous
 * stage's reads, put(k, o, gl, x) stores point o of group gl, after() the
 * barrier, role(k, t, gl) the thread's next (t, gl) (unchanged), get(k, m,
 * t, gl) loads point t + m R/P of group gl */
template <class C, int LOG_R, int LOG_P>
struct block_exchange {
  C *sm;
  int log_g;
  bool mode_a;
  template <bool FIRST, bool NEXT_LAST>
  __device__ __forceinline__ int kind() const {
    return 0;
  }
  __device__ __forceinline__ void before(int) const { __syncthreads(); }
  __device__ __forceinline__ void put(int, int o, int gl, C x) const {
    sm[rslot<C, LOG_R>(o, gl, log_g, mode_a)] = x;
  }
  __device__ __forceinline__ void after(int) const { __syncthreads(); }
  __device__ __forceinline__ void role(int, int &, int &) const {}
  __device__ __forceinline__ C get(int, int m, int t, int gl) const {
    return sm[rslot<C, LOG_R>(t + (m << (LOG_R - LOG_P)), gl, log_g, mode_a)];
  }
};

/* The exchange across the blocks of a cluster of C = 2^cl blocks of 2^log_t
 * threads.  Each stage's threads play the roles (t, gl) of one block's
 * (thread t of group gl holds points t + m R/P) under one of two mappings:
 *   top: cluster thread ct = block 2^log_t + thread, mode A ct = t G + gl,
 *     mode B ct = gl R/P + t (the loads' and the stores' mapping: a block
 *     holds runs of consecutive t);
 *   low: block t mod C, thread (t / C) G + gl (mode A) or gl R/(P C) + t /
 *     C (mode B).
 * Under low, the exchange after any stage but the first keeps every point
 * in its block (its next holder's t has the same low bits as its writer's),
 * so a pass crosses blocks at most twice: after the first stage (top to
 * low, or top to top where it has two stages) and into the last stage (low
 * to top, where the store needs top: mode B, and mode A with Ns < G).  The
 * kinds:
 *   0 local (low to low): the block's own memory (rslot's layout over its
 *     R / C points a group), __syncthreads;
 *   1 the first exchange, to low, across blocks: st.shared::cluster into
 *     buffer A of the next holder's block, slot cluster_xslot(m, thread),
 *     the cluster barrier (no barrier before: the kernel waits for the
 *     cluster's start);
 *   2 the last exchange, to top, across blocks: the same into buffer B,
 *     used by no other exchange, so no barrier before it either;
 *   3 the first exchange when it is also the last and the store needs top:
 *     kind 1 to top. */
struct cluster_geom {
  int log_g, log_t, cl;
  bool mode_a, top_out;
};
struct cluster_thread {
  int block, tid;
};
struct cluster_slot {
  int block, slot;
};
/* the cluster thread of role (t, gl) under a mapping (low or top) */
template <int LOG_R, int LOG_P>
__host__ __device__ __forceinline__ cluster_thread cluster_thread_of(int t, int gl,
                                                                     const cluster_geom &q,
                                                                     bool low) {
  constexpr int LOG_TR = LOG_R - LOG_P;
  if (low)
    return cluster_thread{t & ((1 << q.cl) - 1), q.mode_a ? ((t >> q.cl) << q.log_g) | gl
                                                          : (gl << (LOG_TR - q.cl)) | (t >> q.cl)};
  const int ct = q.mode_a ? (t << q.log_g) | gl : (gl << LOG_TR) | t;
  return cluster_thread{ct >> q.log_t, ct & ((1 << q.log_t) - 1)};
}
/* the role (t, gl) of a block's thread under a mapping */
template <int LOG_R, int LOG_P>
__host__ __device__ __forceinline__ void cluster_role_of(int block, int tid,
                                                         const cluster_geom &q, bool low, int &t,
                                                         int &gl) {
  constexpr int LOG_TR = LOG_R - LOG_P;
  if (low) {
    const int sh = q.mode_a ? q.log_g : LOG_TR - q.cl;
    const int tl = q.mode_a ? tid >> sh : tid & ((1 << sh) - 1);
    gl = q.mode_a ? tid & ((1 << q.log_g) - 1) : tid >> sh;
    t = (tl << q.cl) | block;
  } else {
    const int ct = (block << q.log_t) | tid;
    t = q.mode_a ? ct >> q.log_g : ct & ((1 << LOG_TR) - 1);
    gl = q.mode_a ? ct & ((1 << q.log_g) - 1) : ct >> LOG_TR;
  }
}
/* the kind of the exchange after the first stage (first) or another, into
 * the last stage (next_last) or another */
__host__ __device__ __forceinline__ int cluster_kind(bool first, bool next_last,
                                                     const cluster_geom &q) {
  const bool to_top = next_last && q.top_out;
  return first ? (to_top ? 3 : 1) : (to_top ? 2 : 0);
}
/* the next stage's mapping after an exchange of kind k: low (else top) */
__host__ __device__ __forceinline__ bool cluster_next_low(int k) { return k <= 1; }
/* a local slot of point ol of the block's R / C points of group gl
 * (rslot's layout: mode A ol-major, mode B group-major, padded) */
template <class C, int LOG_R>
__host__ __device__ __forceinline__ int cluster_lslot(int ol, int gl, const cluster_geom &q) {
  constexpr int PADSH = sizeof(C) == 8 ? 4 : 3;
  const int idx = q.mode_a ? (ol << q.log_g) + gl : (gl << (LOG_R - q.cl)) + ol;
  return idx + (idx >> PADSH);
}
/* the slot of register m of thread tid in a crossing exchange's buffer,
 * the thread's bits below a 128-byte row swizzled with 5 x its bits above
 * (x ^ (5 (x >> w) mod 2^w)): a warp's stores into a block, threads R /
 * (P C) or G R / (P C) apart, and its loads, consecutive threads, then
 * meet each of a row's banks as few times as they can, twice that at
 * most (without it up to 8 times: tests/cuda/test_fft_cluster_map.cu) */
template <class C>
__host__ __device__ __forceinline__ int cluster_xslot(int m, int tid, int log_t) {
  constexpr int LW = sizeof(C) == 8 ? 4 : 3; /* log2 of the slots a 128-byte row */
  return (m << log_t) + (tid ^ ((5 * (tid >> LW)) & ((1 << LW) - 1)));
}
/* where an exchange of kind k puts point o of group gl: its next holder's
 * block and slot (in buffer A, kind 2: B) */
template <class C, int LOG_R, int LOG_P>
__host__ __device__ __forceinline__ cluster_slot cluster_put_place(int k, int o, int gl,
                                                                   const cluster_geom &q) {
  constexpr int LOG_TR = LOG_R - LOG_P;
  const cluster_thread h =
      cluster_thread_of<LOG_R, LOG_P>(o & ((1 << LOG_TR) - 1), gl, q, cluster_next_low(k));
  if (k == 0) return cluster_slot{h.block, cluster_lslot<C, LOG_R>(o >> q.cl, gl, q)};
  return cluster_slot{h.block, cluster_xslot<C>(o >> LOG_TR, h.tid, q.log_t)};
}
/* the slot from which thread tid, role (t, gl), gets its point t + m R/P */
template <class C, int LOG_R, int LOG_P>
__host__ __device__ __forceinline__ int cluster_get_slot(int k, int m, int t, int gl, int tid,
                                                         const cluster_geom &q) {
  constexpr int LOG_TR = LOG_R - LOG_P;
  if (k == 0) return cluster_lslot<C, LOG_R>((t + (m << LOG_TR)) >> q.cl, gl, q);
  return cluster_xslot<C>(m, tid, q.log_t);
}
template <class C, int LOG_R, int LOG_P, bool MODE_A, bool TOP_OUT>
struct cluster_exchange {
  C *sa, *sb; /* buffers A and B */
  unsigned rank;
  int tid, log_g, log_t, cl;
  /* the geometry with the mode and the store's mapping as constants
   * (MODE_A, TOP_OUT): every kind and mapping is then known at compile time
   * (NOMATH: 1.7x the block kernel's instructions with them at run time) */
  __device__ __forceinline__ cluster_geom q() const {
    return cluster_geom{log_g, log_t, cl, MODE_A, TOP_OUT};
  }
  template <bool FIRST, bool NEXT_LAST>
  __device__ __forceinline__ int kind() const {
    return cluster_kind(FIRST, NEXT_LAST, q());
  }
  __device__ __forceinline__ void before(int k) const {
    if (k == 0) __syncthreads();
  }
  __device__ __forceinline__ void put(int k, int o, int gl, C x) const {
    const cluster_slot d = cluster_put_place<C, LOG_R, LOG_P>(k, o, gl, q());
    if (k == 0)
      sa[d.slot] = x;
    else
      tridi_cuda::dsmem_store(tridi_cuda::dsmem_addr(&(k == 1 ? sa : sb)[d.slot], d.block), x);
  }
  __device__ __forceinline__ void after(int k) const {
    if (k == 0)
      __syncthreads();
    else
      tridi_cuda::cluster_sync();
  }
  __device__ __forceinline__ void role(int k, int &t, int &gl) const {
    if (k != 0) cluster_role_of<LOG_R, LOG_P>((int)rank, tid, q(), cluster_next_low(k), t, gl);
  }
  __device__ __forceinline__ C get(int k, int m, int t, int gl) const {
    return (k == 2 ? sb : sa)[cluster_get_slot<C, LOG_R, LOG_P>(k, m, t, gl, tid, q())];
  }
};

/* Stage LNS (inner stride ns = 2^LNS) of the R-point DFT and the stages
 * after it; X the exchange (block_exchange or cluster_exchange); (t, gl)
 * the thread's role, which a cluster exchange may change */
template <class T, int LOG_R, int LOG_P, int LNS>
struct reg_stages {
  typedef typename cplx<T>::type C;
  template <class X>
  static __device__ __forceinline__ void run(C (&v)[1 << LOG_P], const X &x, int &t, int &gl,
                                             const C *tw, int log_rmax, bool math) {
    constexpr int LRS = LOG_R - LNS < LOG_P ? LOG_R - LNS : LOG_P;
    constexpr int P = 1 << LOG_P, RS = 1 << LRS, NB = P / RS, TR = 1 << (LOG_R - LOG_P);
    constexpr int NS = 1 << LNS;
    constexpr bool LAST = LNS + LRS == LOG_R;
#pragma unroll
    for (int i = 0; i < NB; ++i) {
      C y[RS];
#pragma unroll
      for (int q = 0; q < RS; ++q) y[q] = v[i + q * NB];
      if constexpr (LNS > 0) {
        const int um = (t + i * TR) & (NS - 1);
        if (math && um) { /* w_{ns rs}^(q um), q < rs */
          C e[LRS > 0 ? LRS : 1];
          const int sh = log_rmax - LNS - LRS;
#pragma unroll
          for (int k = 0; k < LRS; ++k) e[k] = __ldg(&tw[(um << k) << sh]);
          C p[RS];
          powers<C, RS>(e, p);
#pragma unroll
          for (int q = 1; q < RS; ++q) y[q] = cmul(y[q], p[q]);
        }
      }
      if (math) dft_reg<C, RS>(y);
#pragma unroll
      for (int q = 0; q < RS; ++q) v[i + q * NB] = y[q];
    }
    if constexpr (!LAST) {
      constexpr int LNS2 = LNS + LRS;
      constexpr bool NEXT_LAST = LNS2 + (LOG_R - LNS2 < LOG_P ? LOG_R - LNS2 : LOG_P) == LOG_R;
      const int k = x.template kind<LNS == 0, NEXT_LAST>();
      if (LNS > 0) x.before(k); /* the previous stage's reads are done */
#pragma unroll
      for (int i = 0; i < NB; ++i) {
        const int u = t + i * TR;
        const int o0 = ((u >> LNS) << (LNS + LRS)) + (u & (NS - 1));
#pragma unroll
        for (int kk = 0; kk < RS; ++kk) x.put(k, o0 + kk * NS, gl, v[i + kk * NB]);
      }
      x.after(k);
      x.role(k, t, gl);
#pragma unroll
      for (int m = 0; m < P; ++m) v[m] = x.get(k, m, t, gl);
      reg_stages<T, LOG_R, LOG_P, LNS2>::run(v, x, t, gl, tw, log_rmax, math);
    }
  }
};

/* One pass; CLUSTER: the tile spread over the blocks of a thread-block
 * cluster (2^log_t threads a block, each block 2^(log_t + LOG_P) points) */
template <class T, int LOG_R, int LOG_P, bool CLUSTER>
__device__ __forceinline__ void stockham_reg_body(const pass_args &a) {
  typedef typename cplx<T>::type C;
  constexpr int P = 1 << LOG_P, LOG_TR = LOG_R - LOG_P, TR = 1 << LOG_TR;
  static_assert(LOG_R >= LOG_P, "at least P points a group");
  extern __shared__ __align__(16) unsigned char stockham_reg_smem[];
  C *sm = reinterpret_cast<C *>(stockham_reg_smem);
  const int log_g = a.log_g, G = 1 << log_g;
  const int log_nr = a.log_nr, log_ns = a.log_ns;
  const int tid = threadIdx.x;
  const bool mode_a = log_nr >= log_g;
  int ct = tid, log_t = 0, cl = 0;
  unsigned rank = 0;
  if constexpr (CLUSTER) {
    rank = tridi_cuda::cluster_rank();
    log_t = 31 - __clz((int)blockDim.x);
    cl = 31 - __clz((int)tridi_cuda::cluster_blocks());
    ct = ((int)rank << log_t) | tid;
    tridi_cuda::cluster_arrive_relaxed(); /* waited for before the first exchange */
  }
  /* the thread's role: point t + m R/P of group gl (a cluster's exchanges
   * may change it; the loads and the stores see the top mapping's) */
  int gl = mode_a ? ct & (G - 1) : ct >> LOG_TR;
  int t = mode_a ? ct >> log_g : ct & (TR - 1);
  const int64_t tile_id = (int64_t)blockIdx.x >> cl;
  const int64_t g0 = tile_id << log_g, g = g0 + gl;
  const bool live = g < a.total;
  const int64_t b = g >> log_nr, j = g & (((int64_t)1 << log_nr) - 1);
  const int64_t jm = j & (((int64_t)1 << log_ns) - 1);
  /* The arithmetic's switch (TRIDI_FFT_NOMATH=1 in tuning builds: the data
   * movement alone; pass_args::nomath is 0 otherwise).  c32 keeps it a
   * runtime flag in every build: ptxas then schedules the capped 16-point
   * kernel 3-14 % faster (H200, measured); c64 is 0-7 % faster with a
   * constant, which tuning builds give up for the switch. */
#ifdef TRIDI_CUDA_TUNING
  const bool math = !a.nomath;
#else
  const bool math = sizeof(T) == 4 ? !a.nomath : true;
#endif
  C v[P];
  {
    const C *src = (const C *)a.src + b * a.s_dist + j * a.s_stride + t * (a.s_stride << log_nr);
    const int64_t rs = (a.s_stride << log_nr) << LOG_TR;
#pragma unroll
    for (int m = 0; m < P; ++m) {
      if (live) {
        v[m] = src[m * rs];
      } else {
        v[m].x = 0, v[m].y = 0;
      }
      if (a.conj_in) v[m].y = -v[m].y;
    }
  }
  if (math && jm != 0) { /* w_{Ns R}^(r jm), r = t + m R/P */
    const int log_m = log_ns + LOG_R;
    C e[LOG_P > 0 ? LOG_P : 1];
#pragma unroll
    for (int k = 0; k < LOG_P; ++k) e[k] = twiddle<T>((jm << LOG_TR) << k, log_m, -1);
    C p[P];
    powers<C, P>(e, p);
    const C w0 = twiddle<T>(jm * t, log_m, -1);
#pragma unroll
    for (int m = 0; m < P; ++m) v[m] = cmul(v[m], m ? cmul(w0, p[m]) : w0);
  }
  /* the store needs the top mapping (one pass, or Ns < G: through shared
   * memory in runs of a block's consecutive t) */
  const bool top_out = !mode_a || log_ns < log_g;
  if constexpr (CLUSTER) {
    tridi_cuda::cluster_wait();
    const int abuf = (P << log_t) + ((P << log_t) >> (sizeof(C) == 8 ? 4 : 3));
    const auto stages = [&](auto x) {
      x = {sm, sm + abuf, rank, tid, log_g, log_t, cl};
      reg_stages<T, LOG_R, LOG_P, 0>::run(v, x, t, gl, (const C *)a.tw, a.log_rmax, math);
    };
    if (!mode_a)
      stages(cluster_exchange<C, LOG_R, LOG_P, false, true>{});
    else if (top_out)
      stages(cluster_exchange<C, LOG_R, LOG_P, true, true>{});
    else
      stages(cluster_exchange<C, LOG_R, LOG_P, true, false>{});
  } else {
    const block_exchange<C, LOG_R, LOG_P> x{sm, log_g, mode_a};
    reg_stages<T, LOG_R, LOG_P, 0>::run(v, x, t, gl, (const C *)a.tw, a.log_rmax, math);
  }
  if (a.conj_out)
#pragma unroll
    for (int m = 0; m < P; ++m) v[m].y = -v[m].y;
  /* register m holds output k = t + m R/P */
  if (!mode_a || log_ns >= log_g) {
    if (!live) return;
    C *dst = (C *)a.dst + b * a.d_dist + (((j >> log_ns) << (log_ns + LOG_R)) + jm) * a.d_stride +
             t * (a.d_stride << log_ns);
    const int64_t ks = (a.d_stride << log_ns) << LOG_TR;
#pragma unroll
    for (int m = 0; m < P; ++m) dst[m * ks] = v[m];
    return;
  }
  /* Ns < G (the first pass of a multi-pass plan): through shared memory,
   * (j mod Ns, k) on the lowest thread bits.  In a cluster each block
   * stores its own R / C outputs of each group (the top mapping's: runs of
   * R / (P C) consecutive k), from its own memory. */
  if (LOG_R > LOG_P) __syncthreads(); /* the last exchange's reads are done */
  const int ns = 1 << log_ns;
  C *dst = (C *)a.dst;
  if constexpr (CLUSTER) {
    const cluster_geom q{log_g, log_t, cl, true, true};
    const int lb = LOG_TR - cl, tl = t & ((1 << lb) - 1);
#pragma unroll
    for (int m = 0; m < P; ++m) sm[cluster_lslot<C, LOG_R>((m << lb) | tl, gl, q)] = v[m];
    __syncthreads();
    for (int e = tid; e < (G << (LOG_R - cl)); e += blockDim.x) {
      const int kl = (e >> log_ns) & ((1 << (LOG_R - cl)) - 1);
      const int gl2 = ((e >> (log_ns + LOG_R - cl)) << log_ns) | (e & (ns - 1));
      const int64_t g2 = g0 + gl2;
      if (g2 >= a.total) continue;
      const int k = ((kl >> lb) << LOG_TR) | ((int)rank << lb) | (kl & ((1 << lb) - 1));
      const int64_t b2 = g2 >> log_nr, j2 = g2 & (((int64_t)1 << log_nr) - 1);
      const int64_t idx =
          ((j2 >> log_ns) << (log_ns + LOG_R)) + (j2 & (ns - 1)) + ((int64_t)k << log_ns);
      dst[b2 * a.d_dist + idx * a.d_stride] = sm[cluster_lslot<C, LOG_R>(kl, gl2, q)];
    }
  } else {
#pragma unroll
    for (int m = 0; m < P; ++m) sm[rslot<C, LOG_R>(t + m * TR, gl, log_g, true)] = v[m];
    __syncthreads();
    for (int e = tid; e < (G << LOG_R); e += blockDim.x) {
      const int k = (e >> log_ns) & ((1 << LOG_R) - 1);
      const int gl2 = ((e >> (log_ns + LOG_R)) << log_ns) | (e & (ns - 1));
      const int64_t g2 = g0 + gl2;
      if (g2 >= a.total) continue;
      const int64_t b2 = g2 >> log_nr, j2 = g2 & (((int64_t)1 << log_nr) - 1);
      const int64_t idx =
          ((j2 >> log_ns) << (log_ns + LOG_R)) + (j2 & (ns - 1)) + ((int64_t)k << log_ns);
      dst[b2 * a.d_dist + idx * a.d_stride] = sm[rslot<C, LOG_R>(k, gl2, log_g, true)];
    }
  }
}

/* The kernel: at most 512 threads (the compiler's register limit 128), or
 * with MAXREG > 0 at most MAXREG registers a thread (more blocks an SM) */
template <class T, int LOG_R, int LOG_P>
__global__ void __launch_bounds__(512) stockham_reg(pass_args a) {
  stockham_reg_body<T, LOG_R, LOG_P, false>(a);
}
template <class T, int LOG_R, int LOG_P, int MAXREG>
__global__ void __maxnreg__(MAXREG) stockham_reg_cap(pass_args a) {
  stockham_reg_body<T, LOG_R, LOG_P, false>(a);
}
/* The cluster kernel (sm_90; launched with a cluster dimension, planned in
 * tuning builds only: TRIDI_FFT_CLUSTER_LOG2) */
template <class T, int LOG_R, int LOG_P, int MAXREG>
__global__ void __maxnreg__(MAXREG) stockham_reg_cluster(pass_args a) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  stockham_reg_body<T, LOG_R, LOG_P, true>(a);
#else
  __trap();
#endif
}

} /* namespace tridi_fft */

#endif
