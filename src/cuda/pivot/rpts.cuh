/* The partitioned pivoting solver's arithmetic for one system of a block
 * (recursive partitions with partial pivoting inside each, Klein & Strzodka,
 * ICPP 2021): the steps of the host model tests/cuda/rpts_model_t.h, in its
 * order (nvcc contracts a - r*b into an FMA).  Rows live in shared memory
 * (RptsLevel): level 0 is the staged tile, level l >= 1 the coarse rows the
 * level below wrote.  C++ only. */
#ifndef TRIDI_CUDA_PIVOT_RPTS_CUH
#define TRIDI_CUDA_PIVOT_RPTS_CUH

#include "../common/device.cuh"

#include <cuda_runtime.h>

#include <stdint.h>

/* the functions below also build for the host (the emulation check of the
 * kernel against the host model): unroll only in device code */
#ifdef __CUDA_ARCH__
#define RPTS_UNROLL _Pragma("unroll")
#else
#define RPTS_UNROLL
#endif

namespace tridi_cuda {

/* the partition size (every level) and the one-thread top level's limit */
constexpr int kRptsM = 8;
constexpr int kRptsTop = 16;
constexpr int kRptsMaxLevels = 8;
/* acceptance: residual <= kRptsTau eps (||A|| ||x|| + ||d||) (rpts_model.h) */
constexpr double kRptsTau = 4.0;

/* The acceptance check's running maximum of |residual|, |x|, ||A||, |d|
 * over a thread's rows: a NaN, once met, must stay (a non-finite system is
 * never accepted), whichever values come after it. */
__host__ __device__ inline double rpts_fmax(double m, double v) {
  return m != m || v <= m ? m : v; /* m NaN: kept; v NaN: taken */
}

template <typename T>
struct RptsRow {
  T a, b, c, d;
};

/* One level's rows and unknowns in shared memory, partition-major so that
 * the threads of a warp (consecutive systems g, then partitions p) touch
 * consecutive words: row r = p M + j, operand k of system g at
 * (j * 4 + k) * S + p * G + g, its x at j * S + p * G + g; S = the plane stride (>= Pt G, = 1 mod 8 so that
 * a warp copying consecutive rows of one system hits distinct banks).
 * Rows >= n are identity rows (not stored); a_0 and c_{n-1} read as 0. */
template <typename T>
struct RptsLevel {
  T *rows;
  T *x;
  int S;  /* plane stride in elements */
  int n;  /* rows of the level */
  int P;  /* partitions reduced at this level (0 at the top level) */
};

/* the plane stride of a level of n rows, G systems */
__host__ __device__ constexpr int rpts_stride(int n, int M, int G) {
  const int Pt = (n + M - 1) / M;
  return Pt * G + ((9 - (Pt * G) % 8) % 8);
}

template <typename T, int M>
__host__ __device__ __forceinline__ size_t rpts_idx(const RptsLevel<T> &L, int G, int g, int r, int k) {
  return ((size_t)((r % M) * 4 + k) * L.S) + (size_t)(r / M) * G + g;
}
template <typename T, int M>
__host__ __device__ __forceinline__ size_t rpts_xidx(const RptsLevel<T> &L, int G, int g, int r) {
  return (size_t)(r % M) * L.S + (size_t)(r / M) * G + g;
}

template <typename T, int M>
__host__ __device__ __forceinline__ RptsRow<T> rpts_row(const RptsLevel<T> &L, int G, int g, int r) {
  if (r >= L.n) return RptsRow<T>{(T)0, (T)1, (T)0, (T)0};
  const T *q = L.rows + rpts_idx<T, M>(L, G, g, r, 0);
  const size_t s = (size_t)L.S;
  return RptsRow<T>{r > 0 ? q[0] : (T)0, q[s], r < L.n - 1 ? q[2 * s] : (T)0, q[3 * s]};
}

/* The FAST reciprocal: f32 the hardware's approximation with subnormals
 * flushed (one MUFU.RCP; rcp_'s rcp.approx.f32 adds a range test and two
 * scalings around it, five dependent instructions on every pivoting step's
 * chain), f64 rcp_ (an approximation and a Newton step: the approximation
 * alone is not an f64 quotient).  Zero or Inf where |b| is beyond 2^126 or
 * below 2^-126. */
#ifdef __CUDA_ARCH__
template <typename T>
__device__ __forceinline__ T rpts_rcp(T b) {
  return rcp_<T>(b);
}
template <>
__device__ __forceinline__ float rpts_rcp<float>(float b) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(b));
  return r;
}
#endif

/* a / b: IEEE (the host model's operation), or FAST on the device: a times
 * the fast reciprocal (rpts_rcp; a few ulps, zero or Inf beyond the exponent
 * range, where IEEE division might still be finite).  FAST is for kernels
 * whose acceptance check judges the final x (any x it accepts has a
 * backward error of about 8 eps, whatever rounding made it): a wrong
 * quotient costs a fallback, never a wrong answer. */
template <bool FAST, typename T>
__host__ __device__ __forceinline__ T rpts_div(T a, T b) {
#ifdef __CUDA_ARCH__
  if constexpr (FAST) return a * rpts_rcp<T>(b);
#endif
  return a / b;
}

/* One sweep step (rpts_model_t.h rm_step), branch-free: returns true when
 * the next row was the pivot. */
template <bool FAST = false, typename T>
__host__ __device__ __forceinline__ bool rpts_step(T &s0, T &s1, T &s2, T &sd, T ca, T cb, T cc, T cd) {
  const bool sw = fabs(ca) > fabs(s1);
  const T r = rpts_div<FAST>(sw ? s1 : ca, sw ? ca : s1);
  const T n1 = (sw ? s2 : cb) - r * (sw ? cb : s2);
  const T n2 = sw ? -r * cc : cc;
  const T nd = (sw ? sd : cd) - r * (sw ? cd : sd);
  s0 = sw ? s0 : -r * s0;
  s1 = n1;
  s2 = n2;
  sd = nd;
  return sw;
}

/* The two sweeps of a partition's rows R[0..M-1] (registers): lo, the
 * lower coarse row (x_first, x_last, x_next: a, b, c), from the downward
 * sweep; up, the upper one (x_prev, x_first, x_last), from the upward. */
template <typename T, int M, bool FAST = false>
__host__ __device__ __forceinline__ void rpts_reduce_rows(const RptsRow<T> (&R)[M], RptsRow<T> &up,
                                                         RptsRow<T> &lo) {
  T s0 = R[1].a, s1 = R[1].b, s2 = R[1].c, sd = R[1].d;
  T u0 = R[M - 2].c, u1 = R[M - 2].b, u2 = R[M - 2].a, ud = R[M - 2].d;
RPTS_UNROLL
  for (int j = 2; j < M; ++j) {
    rpts_step<FAST>(s0, s1, s2, sd, R[j].a, R[j].b, R[j].c, R[j].d);
    const int k = M - 1 - j;
    rpts_step<FAST>(u0, u1, u2, ud, R[k].c, R[k].b, R[k].a, R[k].d);
  }
  lo = RptsRow<T>{s0, s1, s2, sd};
  up = RptsRow<T>{u2, u1, u0, ud};
}

/* coarse row r of level C := w */
template <typename T, int M>
__host__ __device__ __forceinline__ void rpts_put_row(const RptsLevel<T> &C, int G, int g, int r,
                                                     const RptsRow<T> &w) {
  T *q = C.rows + rpts_idx<T, M>(C, G, g, r, 0);
  const size_t s = (size_t)C.S;
  q[0] = w.a;
  q[s] = w.b;
  q[2 * s] = w.c;
  q[3 * s] = w.d;
}

/* Partition p of level L -> coarse rows 2p, 2p+1 of level C. */
template <typename T, int M, bool FAST = false>
__host__ __device__ __forceinline__ void rpts_reduce(const RptsLevel<T> &L, const RptsLevel<T> &C, int G, int g,
                                            int p) {
  RptsRow<T> R[M];
RPTS_UNROLL
  for (int j = 0; j < M; ++j) R[j] = rpts_row<T, M>(L, G, g, p * M + j);
  RptsRow<T> up, lo;
  rpts_reduce_rows<T, M, FAST>(R, up, lo);
  rpts_put_row<T, M>(C, G, g, 2 * p + 1, lo);
  rpts_put_row<T, M>(C, G, g, 2 * p, up);
}

/* The interior of a partition (rows R, registers) from its boundary
 * values x[0], x[M-1] and its neighbours' xp (row before), xn (row after)
 * (rpts_model_t.h's recomputation); fills x[1..M-2]. */
template <typename T, int M, bool FAST = false>
__host__ __device__ __forceinline__ void rpts_substitute_rows(const RptsRow<T> (&R)[M], T (&x)[M], T xp, T xn) {
  T q1[M], q2[M], q3[M], qd[M];
  T s0 = 0, s1 = R[1].b, s2 = R[1].c, sd = R[1].d - R[1].a * x[0];
RPTS_UNROLL
  for (int j = 2; j < M - 1; ++j) {
    const T t1 = s1, t2 = s2, td = sd;
    const bool sw = rpts_step<FAST>(s0, s1, s2, sd, R[j].a, R[j].b, R[j].c, R[j].d);
    q1[j - 1] = sw ? R[j].a : t1;
    q2[j - 1] = sw ? R[j].b : t2;
    q3[j - 1] = sw ? R[j].c : (T)0;
    qd[j - 1] = sw ? R[j].d : td;
  }
  const bool last = fabs(R[M - 1].a) > fabs(s1);
  x[M - 2] = last ? rpts_div<FAST>(R[M - 1].d - R[M - 1].b * x[M - 1] - R[M - 1].c * xn, R[M - 1].a)
                  : rpts_div<FAST>(sd - s2 * x[M - 1], s1);
RPTS_UNROLL
  for (int k = M - 3; k >= 1; --k) x[k] = rpts_div<FAST>(qd[k] - q2[k] * x[k + 1] - q3[k] * x[k + 2], q1[k]);
  if (M > 3 && fabs(R[0].c) > fabs(q1[1])) x[1] = rpts_div<FAST>(R[0].d - R[0].a * xp - R[0].b * x[0], R[0].c);
}

/* The interior of partition p of level L from the boundary values in C.x
 * (rpts_model_t.h's recomputation); x: the partition's M values. */
template <typename T, int M, bool FAST = false>
__host__ __device__ __forceinline__ void rpts_substitute(const RptsLevel<T> &L, const RptsLevel<T> &C, int G, int g,
                                                int p, T (&x)[M], T &xp, T &xn) {
  RptsRow<T> R[M];
RPTS_UNROLL
  for (int j = 0; j < M; ++j) R[j] = rpts_row<T, M>(L, G, g, p * M + j);
  xp = p > 0 ? C.x[rpts_xidx<T, M>(C, G, g, 2 * p - 1)] : (T)0;
  xn = p < L.P - 1 ? C.x[rpts_xidx<T, M>(C, G, g, 2 * p + 2)] : (T)0;
  x[0] = C.x[rpts_xidx<T, M>(C, G, g, 2 * p)];
  x[M - 1] = C.x[rpts_xidx<T, M>(C, G, g, 2 * p + 1)];
  rpts_substitute_rows<T, M, FAST>(R, x, xp, xn);
}

/* ?gtsv's elimination (rpts_model_t.h rm_gepp) of the top level (n <=
 * kRptsTop rows) by one thread; x into L.x. */
template <typename T, int M, bool FAST = false>
__host__ __device__ __forceinline__ void rpts_top(const RptsLevel<T> &L, int G, int g) {
  const int n = L.n;
  T b[kRptsTop], c[kRptsTop], du2[kRptsTop], d[kRptsTop], a[kRptsTop];
  for (int i = 0; i < n; ++i) {
    const RptsRow<T> r = rpts_row<T, M>(L, G, g, i);
    a[i] = r.a;
    b[i] = r.b;
    c[i] = r.c;
    d[i] = r.d;
    du2[i] = 0;
  }
  for (int i = 0; i < n - 1; ++i) {
    const T al = a[i + 1];
    if (fabs(b[i]) >= fabs(al)) {
      const T f = rpts_div<FAST>(al, b[i]);
      b[i + 1] = b[i + 1] - f * c[i];
      d[i + 1] = d[i + 1] - f * d[i];
    } else {
      const T f = rpts_div<FAST>(b[i], al);
      b[i] = al;
      const T t = b[i + 1];
      b[i + 1] = c[i] - f * t;
      if (i < n - 2) {
        du2[i] = c[i + 1];
        c[i + 1] = -f * c[i + 1];
      }
      c[i] = t;
      const T td = d[i];
      d[i] = d[i + 1];
      d[i + 1] = td - f * d[i + 1];
    }
  }
  T x1 = rpts_div<FAST>(d[n - 1], b[n - 1]), x2 = 0;
  L.x[rpts_xidx<T, M>(L, G, g, n - 1)] = x1;
  for (int i = n - 2; i >= 0; --i) {
    const T xi = rpts_div<FAST>(d[i] - c[i] * x1 - du2[i] * x2, b[i]);
    L.x[rpts_xidx<T, M>(L, G, g, i)] = xi;
    x2 = x1;
    x1 = xi;
  }
}

/* The levels of an n-row system: sizes n_0 = n, n_{l+1} = 2 ceil(n_l / M)
 * while n_l > kRptsTop and the next is smaller.  Returns the number of
 * reductions; nl[0..L] the sizes.  Host and device (the plan sizes the
 * shared memory with it). */
__host__ __device__ constexpr int rpts_levels(int n, int *nl) {
  int L = 0;
  nl[0] = n;
  while (L < kRptsMaxLevels - 1 && nl[L] > kRptsTop) {
    const int next = 2 * ((nl[L] + kRptsM - 1) / kRptsM);
    if (next >= nl[L]) break;
    nl[++L] = next;
  }
  return L;
}

/* Elements of the levels of n-row systems in shared memory, G systems:
 * rows and x, 5 M S a level (RptsLevel).  Host and device, constant where
 * n and G are (cuda_lu_tiles' fixed coarse system). */
__host__ __device__ constexpr size_t rpts_levels_elems(int n, int G) {
  int nl[kRptsMaxLevels] = {};
  const int L = rpts_levels(n, nl);
  size_t e = 0;
  for (int l = 0; l <= L; ++l) e += (size_t)5 * kRptsM * rpts_stride(nl[l], kRptsM, G);
  return e;
}

/* The acceptance maxima of non-negative values as their bits: an integer
 * atomicMax orders them as the numbers, and a NaN (positive after fabs)
 * lies above Inf, so a system with a NaN anywhere is never accepted. */
template <typename T>
struct RptsKey;
template <>
struct RptsKey<float> {
  using U = unsigned;
  static __device__ __forceinline__ U of(float v) { return __float_as_uint(fabsf(v)); }
  static __device__ __forceinline__ float val(U k) { return __uint_as_float(k); }
};
template <>
struct RptsKey<double> {
  using U = unsigned long long;
  static __device__ __forceinline__ U of(double v) { return (U)__double_as_longlong(fabs(v)); }
  static __device__ __forceinline__ double val(U k) { return __longlong_as_double((long long)k); }
};

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_PIVOT_RPTS_CUH */
