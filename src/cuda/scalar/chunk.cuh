/* The Thomas-PCR core shared by the staged, direct, segmented, cluster and
 * streaming kernels (the algorithm: src/cuda/scalar/thomas_pcr.cu, and
 * docs/cuda.md): the modified Thomas sweep that eliminates a chunk of M
 * rows into its two rows of the reduced system (ChunkState, FwdSweep,
 * chunk_eliminate), the reduced system's solve in shared memory
 * (pcr_reduced), chunk loads and stores straight between device memory and
 * registers, and the breakdown re-check.  Device code, C++ only. */
#ifndef TRIDI_CUDA_SCALAR_CHUNK_CUH
#define TRIDI_CUDA_SCALAR_CHUNK_CUH

#include "../common/device.cuh"
#include "plan.h"

#include <stdint.h>

#include <type_traits>

namespace tridi_cuda {

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

/* ---- growth detection ------------------------------------------------------
 * (docs/accuracy.md, "Growth detection on the GPU").  Per thread: max N,
 * the chunk sweep's growth bound 2.5 max(|u| + |a alpha|) over its pivots
 * (GrowAcc), the |L||U| row sums of the chunk's first row and of the
 * step-2 pivot of the reduced solve (in the original rows' units), and
 * max |b| over the chunk's rows < n (dmx); per system, in a shared slot
 * (red, a 32-bit key: red_key), or in registers where the system's threads
 * are lanes of one warp (the staged kernel with P <= 32): max |b|.  A
 * system is flagged when some thread's max N > 8 max |b| of the system
 * (TRIDI_GROWTH_LIMIT) or, where its reduced system after step 2 has more
 * than two rows (P > 2), the residual of its step-2 row after the solve,
 * in original units, exceeds
 * max(kResidualTol, n) eps (max |b| |y_L| + w|q|, the row's own y_L and
 * w|q|: stricter than the system's maxima, and on the host model it flags
 * 4 more systems of 6020, no dominant one; the property wanted is a backward error <=
 * 10 n eps, and PCR's residual grows with the reduced system's length):
 * the reduced solve is PCR, not backward stable on ill-conditioned systems
 * whatever the growth (measured on the host model,
 * tests/cuda/growth_model.c). */
constexpr int kResidualTol = 64;
/* shared slots of a system for pcr_reduced's red: max |b| */
constexpr int kRedSlots = 1;
/* shared slots of a thread for pcr_reduced's keep: the step-2 row s, p, q, w */
constexpr int kKeepSlots = 4;
/* the slots a system's shared memory holds: none without the detection */
__host__ __device__ constexpr int red_slots(bool grow) { return grow ? kRedSlots : 0; }
/* pcr_reduced's shared slots for a block of `threads` threads and G systems
 * (red, then keep; none without the detection).  The kernels take the
 * template, resolved before any optimisation: a plain call with run-time
 * G, even returning 0, changed the GROW = false kernels' code (nvcc 13.0) */
template <bool GROW>
__host__ __device__ __forceinline__ size_t grow_slots(int G, int threads) {
  if constexpr (GROW)
    return (size_t)kRedSlots * G + (size_t)kKeepSlots * threads;
  else
    return 0;
}
inline size_t grow_slots(bool grow, int G, int threads) {
  return grow ? grow_slots<true>(G, threads) : 0;
}

template <typename T>
__device__ __forceinline__ T eps_() {
  return sizeof(T) == 4 ? (T)1.1920928955078125e-07 : (T)2.220446049250313e-16;
}
/* pcr_reduced's residual tolerance for systems of n rows: max(64, n) eps */
template <typename T>
__device__ __forceinline__ T residual_tol(int64_t n) {
  return (T)(n > kResidualTol ? n : kResidualTol) * eps_<T>();
}
/* The long systems' residual verdict (resid.cuh, var_segments.cu): whether
 * a residual bound r (max |A x - d|, plus what the caller adds) fails
 * residual_tol(n) (A X + D), A = max row sum, X = max |x|, D = max |d|.
 * tol A first: A X alone may overflow where the bound does not (an x near
 * the type's largest value), and an infinite bound would pass anything. */
template <typename T>
__device__ __forceinline__ bool resid_fails(T r, T A, T X, T D, int64_t n) {
  const T tol = residual_tol<T>(n);
  return !(r <= (tol * A) * X + tol * D);
}
/* The neighbouring chunks' end unknowns for a residual check: this thread
 * publishes its chunk's first and last unknowns xF, xL in rs / rp (the
 * caller's last barrier ended their other use), then takes the previous
 * chunk's last (xm) and the next chunk's first (xp), chunks G threads apart
 * and P of them, or `before` / `after` at the tile's ends.  One barrier;
 * every thread of the block calls it. */
template <typename T>
__device__ __forceinline__ void chunk_ends(T *rs, T *rp, int G, int chunk, int P, T xF, T xL,
                                           T before, T after, T &xm, T &xp) {
  const int tid = threadIdx.x;
  rs[tid] = xF;
  rp[tid] = xL;
  __syncthreads();
  xm = chunk > 0 ? rp[tid - G] : before;
  xp = chunk < P - 1 ? rs[tid + G] : after;
}
template <typename T>
__device__ __forceinline__ T fmax_(T x, T y) {
  return x > y ? x : y;
}
/* A system's shared slot (red) holds the 32-bit key of its non-negative
 * maximum: f32 the value's bits, f64 its high word (max |b| is a high word
 * already, GrowAcc).
 * Non-negative floats order as their bits, NaN above Inf.  32-bit keys
 * take native shared atomicMax and one warp reduction (f64 values took a
 * compare-and-swap loop an atomic and two shuffles a step). */
__device__ __forceinline__ unsigned red_key(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned red_key(double v) { return (unsigned)__double2hiint(v); }
template <typename T>
__device__ __forceinline__ T red_val(unsigned k);
template <>
__device__ __forceinline__ float red_val<float>(unsigned k) {
  return __uint_as_float(k);
}
template <>
__device__ __forceinline__ double red_val<double>(unsigned k) {
  return __hiloint2double((int)k, 0);
}
/* *slot = max(*slot, key) by the threads of a system, `lst` lanes apart,
 * P of them in a run of the block's threads.  WRED (lst = 1: the staged
 * kernel's system-major order, a system's lanes an aligned run of
 * min(P, 32) lanes of a warp): first the maximum over the system's lanes
 * of the warp (one REDUX on sm_80 and later, shuffles before), then one
 * atomic a warp and system instead of up to 32 on one address; every
 * thread of the block calls it together.  The system-adjacent kernels (a
 * warp spans 32 / G chunks of a system, 1 or 2 for G = 16, 32) keep the
 * plain atomic. */
/* The maximum of key over the system's lanes of this warp (the staged
 * kernel's order: a system's lanes an aligned run of min(P, 32) lanes),
 * in every one of them; every thread of the block calls it together. */
__device__ __forceinline__ unsigned red_warp_max(unsigned key, int P) {
  const int span = P < 32 ? P : 32;
  const int nt = (int)blockDim.x;
  const unsigned wmask = nt >= 32 ? 0xffffffffu : (1u << nt) - 1u; /* blocks: 2^k threads */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const int lane = (int)(threadIdx.x & 31);
  const unsigned mask = span == 32 ? 0xffffffffu : (((1u << span) - 1u) << (lane & ~(span - 1))) & wmask;
  return __reduce_max_sync(mask, key);
#else
  for (int o = 1; o < span; o <<= 1) key = max(key, __shfl_xor_sync(wmask, key, o));
  return key;
#endif
}
template <bool WRED>
__device__ __forceinline__ void red_max_sys(unsigned *slot, unsigned key, int lst, int P) {
  (void)lst;
  if constexpr (WRED) {
    const int span = P < 32 ? P : 32;
    const int lane = (int)(threadIdx.x & 31);
    key = red_warp_max(key, P);
    if ((lane & (span - 1)) == 0) atomicMax(slot, key);
  } else {
    atomicMax(slot, key);
  }
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
 * v23).
 *
 * GROW: also the growth detection (above): wL the |pivot| of this thread's
 * L row, nmx / dmx its chunk's maxima, rtol the residual tolerance
 * (residual_tol), red the system's kRedSlots shared slots (zeroed by the
 * caller before a barrier that precedes this call; NULL: use the thread's
 * own maxima instead), keep this thread's 4 shared slots kst apart for the
 * step-2 row (NULL: registers).  Without WRED max |b| goes to red before
 * step 1's barrier, so step 2 compares max N (its pivot's N added) with
 * the system's max |b| at once and keeps only the verdict; the step-2 row
 * waits in keep: nothing of the detection stays in registers across the
 * PCR barriers.  WRED: the system's lanes reduce in the warp before each
 * atomic (red_max_sys), and max |b| and the N verdict come after the
 * barrier as before (fewer spills there); with P <= 32 and WARP the
 * warp's reduction is the system's (no slot: red is only tested for NULL),
 * so the verdict comes at step 2.  After step 4's barrier each
 * thread checks the residual of its step-2 row (the F rows hold by their
 * back substitution in step 4): no extra barrier.  Returns this thread's verdict (the system is flagged
 * when any of its threads returns true). */
template <typename T, bool GROW = false, bool WRED = false, bool WARP = WRED>
__device__ __forceinline__ bool pcr_reduced(T *rs, T *rp, T *rq, int base, int stride, int li,
                                            int R, T &sF, T &pF, T &qF, T &sL, T &pL, T &qL,
                                            T *red = nullptr, T *keep = nullptr, int kst = 0, T wL = 0,
                                            T nmx = 0, T dmx = 0, T rtol = 0) {
  const int c = li >> 1, P = R >> 1;
  const int half = P * stride; /* offset of the arrays' second half */
  /* 1. the F rows, for the left neighbour */
  int o = base + c * stride;
  rs[o] = sF;
  rp[o] = pF;
  rq[o] = qF;
  /* red: zeroed by the caller before an earlier barrier.  EARLY: max |b|
   * before this barrier (complete after it), the N verdict at step 2 (nmx
   * dies there); the staged kernel (WRED) spilled less with both after it
   * (ptxas, f64 M = 4 / 16: docs/perf-log.md) */
  constexpr bool EARLY = !WRED;
  unsigned *ured = (unsigned *)red; /* the slots' 32-bit keys (red_key) */
  /* RESID: the residual check of the step-2 rows only where the reduced
   * system has more than two of them (P > 2; docs/accuracy.md: on P <= 2
   * it never flagged a system the growth maxima did not, on the host
   * model).  WARP (WRED, P <= 32): the system's lanes are one warp's, and
   * the warp reduction leaves its max |b| in every one of them: no slot,
   * no atomic, and the N verdict at step 2 (max N dies there) */
  const bool resid = P > 2;
  const bool warp = GROW && WRED && WARP && red && P <= 32;
  if (GROW && EARLY && red) red_max_sys<WRED>(ured, red_key(dmx), stride, P);
  __syncthreads();
  T dsys = dmx; /* WARP: the system's max |b| */
  if (GROW && !EARLY && red) {
    if (warp) dsys = red_val<T>(red_warp_max(red_key(dmx), P));
    else red_max_sys<WRED>(ured, red_key(dmx), stride, P);
  }
  T sn = 0, pn = 0, qn = 0;
  if (c + 1 < P) {
    sn = rs[o + stride];
    pn = rp[o + stride];
    qn = rq[o + stride];
  }
  /* 2. L row with u_F (own F row) and u_F' (next chunk's F row) eliminated:
   * s y_{c-1} + y_c + pp y_{c+1} = q, y_c the chunk's last unknown; GROW
   * keeps that row (s1, p1, q1) and its units w1 (in keep, or registers),
   * and the growth verdict of max N against the system's max |b| */
  T s, pp, q, s1 = 0, p1 = 0, q1 = 0, w1 = 0;
  bool nflag = false;
  {
    const T den = (T)1 - sL * pF - pL * sn;
    if (GROW) {
      nmx = fmax_(nmx, wL * (((T)1 + fabs(sL) * (((T)2 + fabs(sF)) + fabs(pF))) +
                             fabs(pL) * (((T)2 + fabs(sn)) + fabs(pn))));
      w1 = wL * fabs(den);
      if (EARLY) nflag = nmx > (T)TRIDI_GROWTH_LIMIT * (red ? red_val<T>(ured[0]) : dmx);
      else if (warp) nflag = nmx > (T)TRIDI_GROWTH_LIMIT * dsys;
    }
    const T r = rcp_<T>(den);
    s = -r * sL * sF;
    pp = -r * pL * pn;
    q = r * (qL - sL * qF - pL * qn);
    if (GROW && resid) {
      if (keep) {
        keep[0] = s;
        keep[kst] = pp;
        keep[2 * kst] = q;
        keep[3 * kst] = w1;
      } else {
        s1 = s;
        p1 = pp;
        q1 = q;
      }
    }
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
  bool flag = false;
  if (GROW) {
    /* 5. the residual of the step-2 row in original units (w1) against
     * rtol (max |b| |y_L| + w1 |q1|), max |b| of the system (red == NULL:
     * this thread's own, stricter) */
    const T Dm = warp ? dsys : (red ? red_val<T>(ured[0]) : dmx);
    bool rbad = false;
    if (resid) {
      const T ynext = c + 1 < P ? rq[o + stride] : (T)0;
      if (keep) {
        s1 = keep[0];
        p1 = keep[kst];
        q1 = keep[2 * kst];
        w1 = keep[3 * kst];
      }
      const T Ym = fabs(q), WQm = w1 * fabs(q1);
      const T rL = q1 - s1 * yprev - q - p1 * ynext;
      /* rtol Dm first: Dm Ym alone may overflow where the bound does not,
       * and an infinite bound would pass any residual */
      const T tol = (rtol * Dm) * Ym + rtol * WQm;
      rbad = !(fabs(rL) * w1 <= tol);
    }
    if (!EARLY && !warp) nflag = nmx > (T)TRIDI_GROWTH_LIMIT * Dm;
    flag = nflag || rbad;
  }
  qF = qF - sF * yprev - pF * q;
  qL = q;
  sF = pF = sL = pL = (T)0;
  return flag;
}

/* The system's slot badrow_g before finish_info (the kernels set it with
 * their tile's barrier); -1 there means growth flagged, r >= 0 a breakdown
 * near row r (which wins).  Without GROW the slot starts at -1 (no flag). */
constexpr int kNoBad = -2;
template <bool GROW>
constexpr int no_bad() {
  return GROW ? kNoBad : -1;
}

/* Common tail of the kernels, after the reduced solve: decide breakdown and
 * growth (GROW: grown is this thread's verdict, pcr_reduced's) and
 * write info.  Returns after a barrier, so x may be stored afterwards (in
 * place, x is d: the sequential check must finish reading d first). */
template <typename T, bool GROW = false>
__device__ __forceinline__ void finish_info(const KParams &p, int64_t s, bool active, bool leader,
                                            int my_bad, int *badrow_g, bool grown = false) {
  if (my_bad >= 0) atomicMax(badrow_g, my_bad);
  else if (GROW && grown) atomicMax(badrow_g, -1);
  const int any_bad = __syncthreads_or(my_bad >= 0 || (GROW && grown));
  int32_t code = 0;
  if (any_bad) {
    if constexpr (GROW) {
      if (leader && active) {
        const int v = *badrow_g;
        if (v >= 0) code = seq_check<T>(p, s, v);
        else if (v == -1) code = TRIDI_INFO_INACCURATE;
      }
    } else {
      if (leader && active && *badrow_g >= 0) code = seq_check<T>(p, s, *badrow_g);
    }
    __syncthreads();
  }
  if (leader && active && p.info) p.info[s] = code;
}

/* Blocks of the staged and direct kernels have at most kTileThreads (512)
 * threads; tiles of up to 32 bytes a thread and operand get 64 registers
 * (two blocks an SM), larger ones 128. */
template <typename T, int M>
struct TileMinBlocks {
  static constexpr int value = sizeof(T) * M <= 32 ? 2 : 1;
};

/* ---- the chunk elimination ------------------------------------------------ */

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
  /* growth (set by chunk_eliminate with GROW only), over the chunk's rows
   * < n: nmx = max(N of the first row, 2.5 max Y) (GrowAcc), dmx = max |b|
   * (pcr_reduced compares nmx with 8 times the system's dmx and scales its
   * residual tolerance by it), and |pivot| of its L row (0 when that row
   * is >= n) */
  T nmx, dmx, wL;
  bool b0_zero;
  /* SEG: a segment of the chunk before its last one grew (chunk_eliminate) */
  bool seg_grown;
};

/* N and D of a row eliminated by a sweep: u = b - a gm the pivot, al the
 * spike coefficient of the row above (docs/accuracy.md; the streaming
 * kernel's two sweeps; chunk_eliminate keeps the cheaper GrowAcc) */
template <typename T>
__device__ __forceinline__ void growth_row(T a, T b, T c, T gm, T al, T &nmx, T &dmx) {
  const T t = fabs(a) + fabs(c);
  const T u = b - a * gm;
  nmx = fmax_(nmx, (t + fabs(a) * (fabs(gm) + (T)2 * fabs(al))) + fabs(u));
  dmx = fmax_(dmx, t + fabs(b));
}

/* The chunk sweep's growth maxima (docs/accuracy.md): per row k of the
 * sweep, Y_k = |u_k| + |a_k alpha_{k-1}| (u_k = b_k - a_k gamma_{k-1} the
 * pivot, a_k alpha_{k-1} the spike product the sweep forms anyway), and
 * |b_k|: two maxima and one add a row, on values already in registers.
 * |a_k gamma_{k-1}| = |b_k - u_k| <= |b_k| + |u_k| gives N_k <= D_k + 2 Y_k
 * (N, D: growth_row), so N_k > 8 max D implies Y_k > 3.5 max D >= 3.5 max|b|:
 * flagging 2.5 max Y > 8 max|b| (Y > 3.2 max|b|) flags whatever the N rule
 * flagged.  Strictly row- or column-dominant systems have Y_k <= 3 max|b|
 * (row: |gamma| + |alpha| <= 1, so Y_k <= |b_k| + |a_k|; column: |a_{k+1}|
 * <= |u_k|, so |u_k| <= |b_k| + |c_{k-1}| and |a_k alpha_{k-1}| <= |a_1| <=
 * |b_0|), never flagged.  f64 keeps the maxima as the high words of the
 * non-negative doubles (an unsigned max, one instruction instead of a
 * compare and two selects): max Y rounded up to the next high word (Inf
 * for Inf or NaN), max |b| rounded down, which only flags more.  |b|'s
 * high word is maxed as a float (one FMNMX with its abs modifier instead
 * of a mask and an unsigned max): non-negative floats order as their bits,
 * and the words that read as f32 NaN (|b| >= 2^1017) drop out, a smaller
 * max |b|, which again only flags more. */
template <typename T>
struct GrowAcc;
template <>
struct GrowAcc<float> {
  float y = 0.f, b = 0.f;
  __device__ __forceinline__ void row(float u, float x, float bk) {
    y = fmaxf(y, fabsf(u) + fabsf(x));
    b = fmaxf(b, fabsf(bk));
  }
  __device__ __forceinline__ float ymax() const { return y; }
  __device__ __forceinline__ float bmax() const { return b; }
  /* the maxima start again where t (selects: no branch) */
  __device__ __forceinline__ void reset_if(bool t) {
    y = t ? 0.f : y;
    b = t ? 0.f : b;
  }
};
template <>
struct GrowAcc<double> {
  unsigned y = 0u; /* high word */
  float b = 0.f;    /* high word of |b|, as the bits of a float */
  __device__ __forceinline__ void row(double u, double x, double bk) {
    y = max(y, (unsigned)__double2hiint(fabs(u) + fabs(x)));
    b = fmaxf(b, fabsf(__int_as_float(__double2hiint(bk))));
  }
  __device__ __forceinline__ double ymax() const {
    return __hiloint2double((int)min(y + 1u, 0x7ff00000u), 0);
  }
  __device__ __forceinline__ double bmax() const { return __hiloint2double(__float_as_int(b), 0); }
  __device__ __forceinline__ void reset_if(bool t) {
    y = t ? 0u : y;
    b = t ? 0.f : b;
  }
};
/* the factor of max Y against max N's threshold (8): Y > 3.2 max|b| */
constexpr double kGrowY = 2.5;

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
  }  /* step and last with the growth maxima of the row (GrowAcc): the spike
   * product a alt formed first (the same operations otherwise) */
  __device__ __forceinline__ void step_g(T ak, T bk, T ck, T dk, bool in, GrowAcc<T> &ga) {
    const T u = bk - ak * gmt;
    const T x = ak * alt;
    if (in) ga.row(u, x, bk);
    const T r = rcp_<T>(u);
    gmt = r * ck;
    dlt = r * (dk - ak * dlt);
    alt = -r * x;
  }
  __device__ __forceinline__ T last_g(T aL, T bL, T cL, T dL, bool in, GrowAcc<T> &ga, T &sL, T &pL,
                                      T &qL) const {
    const T u = bL - aL * gmt;
    const T x = aL * alt;
    if (in) ga.row(u, x, bL);
    const T inv = rcp_<T>(u);
    sL = -x * inv;
    pL = cL * inv;
    qL = (dL - aL * dlt) * inv;
    return u;
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
 * row n-1 need masking; otherwise rows >= n are identity rows (not read).
 * SEG (with GROW; the PACKED kernel, whose chunks may hold several systems,
 * each first row's a zeroed): a row whose a is 0 starts a new segment of
 * the chunk, the segment before it is checked with its own maxima (kGrowY
 * max Y > 8 max |b|, the first segment's first-row N against its max |b| at
 * the end) and the maxima start again, so that a system's growth is never
 * measured against a larger-scale neighbour's |b|; c.seg_grown says that
 * one of those segments grew, c.nmx / c.dmx are the last segment's.  Each
 * segment's maxima bound its own rows' (a split where a system has a zero
 * a by itself only checks more strictly); tests/cuda/growth_model.c
 * (own == 2) models it. */
template <typename T, int M, bool FULL, bool GROW = false, bool SEG = false, typename Load, typename CS>
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
  GrowAcc<T> ga;
  FwdSweep<T> f;
  [[maybe_unused]] unsigned seg_split = 0u, seg_grown = 0u;
  [[maybe_unused]] T seg_bfirst = (T)0;
  if constexpr (GROW && SEG)
    if (FULL || row0 < n) ga.row((T)0, (T)0, b0);
  /* SEG: row k (< n) with a = 0 closes the segment before it.  Selects,
   * not a branch: a branch a row (with its convergence barrier) and bool
   * flags in bytes nearly doubled the elimination's instructions
   * (docs/perf-log.md, "Where the tiles' growth detection spends its
   * instructions") */
  [[maybe_unused]] auto seg_row = [&](int k, T ak) {
    const bool t = (FULL || row0 + k < n) && ak == (T)0;
    const bool g = (T)kGrowY * ga.ymax() > (T)TRIDI_GROWTH_LIMIT * ga.bmax();
    seg_bfirst = t && !seg_split ? ga.bmax() : seg_bfirst;
    seg_grown |= (unsigned)(t && g);
    seg_split |= (unsigned)t;
    ga.reset_if(t);
  };
#pragma unroll
  for (int k = 1; k < M - 1; ++k) {
    const T ak = get(0, k), bk = get(1, k), ck = get(2, k), dk = get(3, k);
    nonfin += ak * (T)0 + bk * (T)0 + ck * (T)0 + dk * (T)0;
    if constexpr (GROW && SEG) seg_row(k, ak);
    if constexpr (GROW)
      f.step_g(ak, bk, ck, dk, FULL || row0 + k < n, ga);
    else
      f.step(ak, bk, ck, dk);
    c.dl[k] = f.dlt;
    c.al[k] = f.alt;
    c.gm[k] = f.gmt;
  }
  {
    const T aL = get(0, M - 1), bL = get(1, M - 1), cL = get(2, M - 1), dLv = get(3, M - 1);
    nonfin += aL * (T)0 + bL * (T)0 + cL * (T)0 + dLv * (T)0;
    if constexpr (GROW && SEG) seg_row(M - 1, aL);
    if constexpr (GROW) {
      const bool in = FULL || row0 + M - 1 < n;
      const T u = f.last_g(aL, bL, cL, dLv, in, ga, c.sL, c.pL, c.qL);
      c.wL = in ? fabs(u) : (T)0;
    } else {
      f.last(aL, bL, cL, dLv, c.sL, c.pL, c.qL);
    }
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
    if constexpr (GROW) {
      /* the first row's N in full (once a chunk), beside kGrowY max Y */
      const bool in = FULL || row0 < n;
      const T nF = ((fabs(a0) + fabs(c0)) + fabs(c0) * (fabs(a1) + fabs(g1))) + fabs(b0 - c0 * a1);
      if constexpr (SEG) {
        /* b0 is in the first segment's maxima already */
        if (seg_split) {
          c.seg_grown = seg_grown || (in && nF > (T)TRIDI_GROWTH_LIMIT * seg_bfirst);
          c.nmx = (T)kGrowY * ga.ymax();
        } else {
          c.seg_grown = false;
          c.nmx = fmax_(in ? nF : (T)0, (T)kGrowY * ga.ymax());
        }
      } else {
        if (in) ga.row((T)0, (T)0, b0);
        c.nmx = fmax_(in ? nF : (T)0, (T)kGrowY * ga.ymax());
      }
      c.dmx = ga.bmax();
    }
  }
  c.nonfin = nonfin;
  c.b0_zero = b0 == (T)0;
}

/* chunk_eliminate for rows [row0, row0 + M): the bounds-free variant when
 * the whole chunk lies below neff */
template <typename T, int M, bool GROW = false, typename Load>
__device__ __forceinline__ void eliminate_chunk(const Load &ld, int64_t row0, int64_t neff, ChunkState<T, M> &cs) {
  if (row0 + M <= neff)
    chunk_eliminate<T, M, true, GROW>(ld, row0, neff, cs);
  else
    chunk_eliminate<T, M, false, GROW>(ld, row0, neff, cs);
}

template <typename T, typename CS>
__device__ __forceinline__ T chunk_x(const CS &c, int j, T xF, T xL) {
  constexpr int M = CS::kM;
  return j == 0 ? xF : (j == M - 1 ? xL : c.dl[j] - c.al[j] * xF - c.gm[j] * xL);
}

/* ---- chunks straight between device memory and registers ------------------
 * (the direct, segmented and cluster kernels) */

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
template <typename T, int M, bool UNIT = false, bool GROW = false>
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
      chunk_eliminate<T, M, true, GROW>([&](int k, int j) -> T { return v.e[k][j]; }, row0, neff, cs);
      return;
    }
  }
  auto ld = [&](int k, int j) -> T { return k < 3 ? __ldg(ptr[k] + j * st[k]) : ptr[k][j * st[k]]; };
  eliminate_chunk<T, M, GROW>(ld, row0, neff, cs);
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

/* x of the chunk's rows < n, x_j = xat(j), straight to device memory (UNIT:
 * as in direct_eliminate, 16-byte stores for a full aligned chunk) */
template <typename T, int M, bool UNIT = false, typename XAt>
__device__ __forceinline__ void direct_store_x(const KParams &p, const int64_t *soff, int G, int g,
                                               int64_t row0, int64_t n, const XAt &xat) {
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
      for (int j = 0; j < M; ++j) v.e[j] = xat(j);
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
      for (int j = 0; j < M; ++j, xr += sx) *xr = xat(j);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < M; ++j)
    if (row0 + j < n) X[(row0 + j) * sx] = xat(j);
}

/* direct_store_x of the chunk's x from its state and ends */
template <typename T, int M, bool UNIT = false>
__device__ __forceinline__ void direct_store(const KParams &p, const int64_t *soff, int G, int g,
                                             int64_t row0, int64_t n, const ChunkState<T, M> &cs, T xF, T xL) {
  direct_store_x<T, M, UNIT>(p, soff, G, g, row0, n, [&](int j) -> T { return chunk_x(cs, j, xF, xL); });
}

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_SCALAR_CHUNK_CUH */
