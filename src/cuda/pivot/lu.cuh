/* LAPACK ?gtsv's elimination (partial pivoting, one fill-in diagonal du2)
 * for one system, run by one CUDA thread, and what the pivoting kernels of
 * src/cuda/pivot share.  lu_system makes the operations and the info codes
 * of the reference (src/ref/ref_pivot.h: same check order, same codes);
 * only the rounding differs (nvcc contracts a - f*b into an FMA).  Where the
 * rows and the factors live is the policy's business:
 *   TileRows    a tile of systems in shared memory, stored [row][operand]
 *               [system] so that the threads of a warp (one system each)
 *               touch consecutive words; the factors (u, du, du2, y) replace
 *               the row's a, b, c, d in place and x replaces y;
 *   GlobalRows  the operands in global memory, u, du, du2 in a scratch of
 *               3n elements a thread (interleaved over threads, so that a
 *               warp's stores are coalesced), y in x (as the reference).
 * C++ only; nothing here leaves the .cu files. */
#ifndef TRIDI_CUDA_PIVOT_LU_CUH
#define TRIDI_CUDA_PIVOT_LU_CUH

#include "../common/device.cuh"
#include "../common/launch.h"
#include "tridi_internal.h"

#include <cuda_runtime.h>

#include <stdint.h>

namespace tridi_cuda {

/* Kernel parameters of the scalar kind's pivoting kernels (by value). */
struct LuParams {
  const void *op[TRIDI_NUM_OPERANDS];
  int32_t *info;
  void *scratch;  /* GlobalRows: nthreads x 3n elements */
  int64_t n;
  int64_t nsys;
  int64_t as[TRIDI_NUM_OPERANDS];
  int64_t bext[TRIDI_MAX_RANK];
  int64_t bstride[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
  int nbatch;
  int G, logG;    /* tile: systems a block (a power of two) */
  int P;          /* tile: row pitch in elements (4G + 1) */
  int rowsfast;   /* tile: bit k, operand k's rows are unit-stride: the
                     threads copy a system's rows, else a row's systems */
  FastDiv ndiv;   /* tile: division by n */
  int64_t nthreads; /* global: threads of the grid (each its scratch slot) */
  int pf;           /* global forms: rows of L2 prefetch ahead (0: none) */
};

template <typename T>
__host__ __device__ __forceinline__ bool lu_finite(T v) {
  return isfinite(v);
}

/* The elimination and back substitution of one system of n rows (n >= 0).
 * Returns the info code (ref_pivot.h's rules).  Host and device: the rows'
 * policy decides where it runs. */
template <typename T, class R>
__host__ __device__ __forceinline__ int32_t lu_system(int64_t n, R &m) {
  if (n <= 0) return 0;
  T dk = m.b(0);
  T uk = n > 1 ? m.c(0) : (T)0;
  T rk = m.d(0);
  if (!lu_finite(dk) || !lu_finite(uk) || !lu_finite(rk)) return -1;
  /* row k+1 in registers before step k: its loads are issued a step ahead,
   * off the dependent chain (row k+2 is never a slot that step k writes) */
  T al = (T)0, bl = (T)0, cl = (T)0, dl = (T)0;
  if (n > 1) {
    al = m.a(1);
    bl = m.b(1);
    cl = n > 2 ? m.c(1) : (T)0;
    dl = m.d(1);
  }
  for (int64_t k = 0; k < n - 1; ++k) {
    m.ahead(k);
    T an = (T)0, bn = (T)0, cn = (T)0, dn = (T)0;
    if (k + 2 < n) {
      an = m.a(k + 2);
      bn = m.b(k + 2);
      cn = k + 2 < n - 1 ? m.c(k + 2) : (T)0;
      dn = m.d(k + 2);
    }
    if (!lu_finite(al) || !lu_finite(bl) || !lu_finite(cl) || !lu_finite(dl))
      return (int32_t)(-(k + 2));
    /* interchange when |u_k| < |a_{k+1}|: selects, no divergence */
    const bool sw = !(fabs(dk) >= fabs(al));
    const T piv = sw ? al : dk;
    if (piv == (T)0) return (int32_t)(k + 1); /* no interchange: a_{k+1} = 0 too */
    const T f = (sw ? dk : al) / piv;
    const T U = sw ? bl : uk, U2 = sw ? cl : (T)0, Y = sw ? dl : rk;
    m.put(k, piv, U, U2, Y);
    /* the other row minus f times the pivot row: row k+1 updated */
    const T nd = (sw ? uk : bl) - f * U;
    const T nu = (sw ? (T)0 : cl) - f * U2;
    const T nr = (sw ? rk : dl) - f * Y;
    if (!lu_finite(nd) || !lu_finite(nr)) return (int32_t)(-(k + 2));
    dk = nd;
    uk = nu;
    rk = nr;
    al = an;
    bl = bn;
    cl = cn;
    dl = dn;
  }
  if (dk == (T)0) return (int32_t)n;
  m.put_last(n - 1, dk);
  T xb = rk / dk;
  if (!lu_finite(xb)) return (int32_t)(-n);
  m.x(n - 1, xb);
  if (n == 1) return 0;
  T xa = (m.y(n - 2) - m.du(n - 2) * xb) / m.u(n - 2);
  if (!lu_finite(xa)) return (int32_t)(-(n - 1));
  m.x(n - 2, xa);
  for (int64_t i = n - 3; i >= 0; --i) {
    const T xi = (m.y(i) - m.du(i) * xa - m.du2(i) * xb) / m.u(i);
    if (!lu_finite(xi)) return (int32_t)(-(i + 1));
    m.x(i, xi);
    xb = xa;
    xa = xi;
  }
  return 0;
}

/* The pivot reciprocal of the fast elimination: device.cuh's rcp_ (f32
 * rcp.approx, f64 rcp.approx + a Newton step: within 1-2 ulp; a pivot that
 * is subnormal, 0 or not finite gives a non-finite reciprocal), plain
 * division on the host. */
template <typename T>
__host__ __device__ __forceinline__ T lu_rcp(T v) {
#ifdef __CUDA_ARCH__
  return rcp_<T>(v);
#else
  return (T)1 / v;
#endif
}

/* The fast form of lu_system for the shared tile: the same interchanges,
 * but the multiplier is q * (1/pivot) with a fast reciprocal, and row k of
 * U is stored scaled by 1/u_k (du/u, du2/u, y/u, computed off the dependent
 * chain), so that the back substitution is two FMAs a row and no division:
 * x_i = y'_i - du'_i x_{i+1} - du2'_i x_{i+2}.  The dependent chain of a
 * row is about half lu_system's (docs/perf-log.md).  Returns 0 when every
 * check passed and x is finite; any other value means "not solved here":
 * the caller solves the system again with lu_system on its intact inputs,
 * which gives the reference's code (a subnormal pivot, whose reciprocal
 * overflows, ends up there as well).  u_k's slot is not written. */
template <typename T, class R>
__host__ __device__ __forceinline__ int lu_system_fast(int64_t n, R &m) {
  if (n <= 0) return 0;
  T dk = m.b(0);
  T uk = n > 1 ? m.c(0) : (T)0;
  T rk = m.d(0);
  if (!lu_finite(dk) || !lu_finite(uk) || !lu_finite(rk)) return 1;
  T al = (T)0, bl = (T)0, cl = (T)0, dl = (T)0;
  if (n > 1) {
    al = m.a(1);
    bl = m.b(1);
    cl = n > 2 ? m.c(1) : (T)0;
    dl = m.d(1);
  }
  for (int64_t k = 0; k < n - 1; ++k) {
    m.ahead(k);
    T an = (T)0, bn = (T)0, cn = (T)0, dn = (T)0;
    if (k + 2 < n) {
      an = m.a(k + 2);
      bn = m.b(k + 2);
      cn = k + 2 < n - 1 ? m.c(k + 2) : (T)0;
      dn = m.d(k + 2);
    }
    if (!lu_finite(al) || !lu_finite(bl) || !lu_finite(cl) || !lu_finite(dl)) return 1;
    const bool sw = !(fabs(dk) >= fabs(al));
    const T piv = sw ? al : dk;
    const T r = lu_rcp(piv);
    if (!lu_finite(r)) return 1; /* zero or subnormal pivot */
    const T f = (sw ? dk : al) * r;
    const T U = sw ? bl : uk, U2 = sw ? cl : (T)0, Y = sw ? dl : rk;
    m.put_scaled(k, U * r, U2 * r, Y * r);
    const T nd = (sw ? uk : bl) - f * U;
    const T nu = (sw ? (T)0 : cl) - f * U2;
    const T nr = (sw ? rk : dl) - f * Y;
    if (!lu_finite(nd) || !lu_finite(nr)) return 1;
    dk = nd;
    uk = nu;
    rk = nr;
    al = an;
    bl = bn;
    cl = cn;
    dl = dn;
  }
  const T r = lu_rcp(dk);
  if (!lu_finite(r)) return 1;
  T xb = rk * r;
  if (!lu_finite(xb)) return 1;
  m.x(n - 1, xb);
  if (n == 1) return 0;
  T xa = m.y(n - 2) - m.du(n - 2) * xb;
  if (!lu_finite(xa)) return 1;
  /* row i's factors loaded before x_{i+1} is stored (a step ahead, as in
   * the elimination): the chain is the two FMAs */
  T yi = (T)0, ui = (T)0, u2i = (T)0;
  if (n > 2) {
    yi = m.y(n - 3);
    ui = m.du(n - 3);
    u2i = m.du2(n - 3);
  }
  m.x(n - 2, xa);
  for (int64_t i = n - 3; i >= 0; --i) {
    const T xi = yi - ui * xa - u2i * xb;
    if (i > 0) {
      yi = m.y(i - 1);
      ui = m.du(i - 1);
      u2i = m.du2(i - 1);
    }
    if (!lu_finite(xi)) return 1;
    m.x(i, xi);
    xb = xa;
    xa = xi;
  }
  return 0;
}

/* Rows of one system in a shared tile: element (row i, operand k) at
 * base[i * P + k * G]; factors u, du, du2, y in the slots of a, b, c, d. */
template <typename T>
struct TileRows {
  T *base;
  int P, G;
  __host__ __device__ T a(int64_t i) const { return base[i * P]; }
  __host__ __device__ T b(int64_t i) const { return base[i * P + G]; }
  __host__ __device__ T c(int64_t i) const { return base[i * P + 2 * G]; }
  __host__ __device__ T d(int64_t i) const { return base[i * P + 3 * G]; }
  /* row k's inputs were read by the step before: its slots are free */
  __host__ __device__ void put(int64_t k, T u, T du, T du2, T y) {
    T *r = base + k * P;
    r[0] = u;
    r[G] = du;
    r[2 * G] = du2;
    r[3 * G] = y;
  }
  __host__ __device__ void put_last(int64_t k, T u) { base[k * P] = u; }
  __host__ __device__ void ahead(int64_t) const {} /* on chip already */
  /* lu_system_fast: row k of U over u_k */
  __host__ __device__ void put_scaled(int64_t k, T du, T du2, T y) {
    T *r = base + k * P;
    r[G] = du;
    r[2 * G] = du2;
    r[3 * G] = y;
  }
  __host__ __device__ T u(int64_t i) const { return base[i * P]; }
  __host__ __device__ T du(int64_t i) const { return base[i * P + G]; }
  __host__ __device__ T du2(int64_t i) const { return base[i * P + 2 * G]; }
  __host__ __device__ T y(int64_t i) const { return base[i * P + 3 * G]; }
  __host__ __device__ void x(int64_t i, T v) { base[i * P + 3 * G] = v; }
};

/* Rows of one system in global memory (element offsets off[k], row
 * strides st[k]); u, du, du2 at w[(j n + i) W] (W: the threads sharing the
 * scratch), y in x.  x may be d: d_{k+1} is read before y_k is stored. */
template <typename T>
struct GlobalRows {
  const T *A, *B, *C, *D;
  T *X;
  int64_t sa, sb, sc, sd, sx;
  T *w;
  int64_t n, W;
  int pf; /* ahead: rows of prefetch (0: none) */
  __host__ __device__ T a(int64_t i) const { return ld(A + i * sa); }
  /* the eliminations' step k: row k + pf of the inputs into L2, so that the
   * loads a step ahead find it there (one thread a system holds few rows in
   * flight; the prefetches raise that without registers) */
  __host__ __device__ void ahead(int64_t k) const {
#ifdef __CUDA_ARCH__
    const int64_t r = k + pf;
    if (pf > 0 && r < n) {
      asm volatile("prefetch.global.L2 [%0];" ::"l"(A + r * sa));
      asm volatile("prefetch.global.L2 [%0];" ::"l"(B + r * sb));
      asm volatile("prefetch.global.L2 [%0];" ::"l"(C + r * sc));
      asm volatile("prefetch.global.L2 [%0];" ::"l"(D + r * sd));
    }
#else
    (void)k;
#endif
  }
  __host__ __device__ T b(int64_t i) const { return ld(B + i * sb); }
  __host__ __device__ T c(int64_t i) const { return ld(C + i * sc); }
  /* a, b, c through the read-only path (never written; d may be x) */
  __host__ __device__ static T ld(const T *p) {
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
  }
  __host__ __device__ T d(int64_t i) const { return D[i * sd]; }
  __host__ __device__ void put(int64_t k, T u, T du, T du2, T y) {
    w[k * W] = u;
    w[(n + k) * W] = du;
    w[(2 * n + k) * W] = du2;
    X[k * sx] = y;
  }
  __host__ __device__ void put_last(int64_t k, T u) { w[k * W] = u; }
  /* lu_system_fast: row k of U over u_k (u's plane unused), y' in x */
  __host__ __device__ void put_scaled(int64_t k, T du, T du2, T y) {
    w[(n + k) * W] = du;
    w[(2 * n + k) * W] = du2;
    X[k * sx] = y;
  }
  __host__ __device__ T u(int64_t i) const { return w[i * W]; }
  __host__ __device__ T du(int64_t i) const { return w[(n + i) * W]; }
  __host__ __device__ T du2(int64_t i) const { return w[(2 * n + i) * W]; }
  __host__ __device__ T y(int64_t i) const { return X[i * sx]; }
  __host__ __device__ void x(int64_t i, T v) { X[i * sx] = v; }
};

/* ---- the scalar kind's plan (lu_scalar.cu) ------------------------------ */

/* How the scalar kind's pivoting kernels run a plan: a tile of G systems a
 * block (smem bytes of shared memory), or one thread a system (nthreads
 * threads, each with 3n elements of scratch). */
struct LuPlan {
  bool tile;
  bool stream; /* tile: the streamed form (lu_stream.cu) */
  bool fast;   /* global: lu_system_fast first, lu_system where it fails
                  (out of place only: the re-solve reads d) */
  int threads;
  size_t smem;
  int64_t resolve_grid; /* tile, second pass: blocks resident on the device */
  size_t scratch_bytes; /* global: k.nthreads x 3n elements, rounded to 64 */
  LuParams k;           /* the launch parameters made at plan time: the
                           layout, the tile's G, logG, P, rowsfast, ndiv or
                           the global form's nthreads, pf; execute sets op,
                           info and scratch */
};

/* Bit k: operand k's rows are unit-stride (LuParams::rowsfast) */
inline int lu_rowsfast(const tridi_layout *L) {
  int r = 0;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (L->axis_stride[k] == 1 || L->axis_stride[k] == -1) r |= 1 << k;
  return r;
}

/* A block of G systems of the tile kernels (lu_tile, lu_stream, rpts_tile),
 * plan time: G, logG, rowsfast and the division by n */
inline void lu_tile_params(LuParams &k, const tridi_layout *L, int G) {
  k.G = G;
  k.logG = ilog2(G);
  k.rowsfast = lu_rowsfast(L);
  k.ndiv = make_fastdiv((uint32_t)L->n);
}

/* Batches whose neighbouring systems are neighbours in memory (interleaved
 * batches, middle axes of N-d arrays): the innermost batch dimension has
 * stride +-1 in x and +-1 or 0 (broadcast) in the inputs, and spans at least
 * one 128-byte line, so that one thread a system reads and writes each row
 * as whole lines across a warp (cuSPARSE gtsvInterleavedBatch's shape). */
inline bool lu_systems_adjacent(const tridi_layout *L, size_t es) {
  if (L->nbatch < 1) return false;
  const int j = L->nbatch - 1;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    const int64_t s = L->bstride[k][j];
    if (s != 1 && s != -1 && !(s == 0 && k < TRIDI_NUM_OPERANDS - 1)) return false;
  }
  return L->bext[j] * (int64_t)es >= 128;
}
/* On those batches, n from kLuGlobalMinN to below kLuAdjacentTilesMinN: the
 * one-thread-a-system global form of cuda_lu_partial (its fast elimination
 * where the execute is out of place), below them the tile and streamed
 * forms, from kLuAdjacentTilesMinN on cuda_lu_tiles (docs/perf-log.md,
 * "Pivoting on interleaved batches: one thread a system at n = 64..223"). */
constexpr int64_t kLuGlobalMinN = 64;
constexpr int64_t kLuAdjacentTilesMinN = 224;
/* The global fast form's L2 prefetch distance in rows (GlobalRows::ahead):
 * 4 (H200, interleaved and middle axis: +1.5..4 points of copy at f32 n =
 * 64..96 and 192..512, f64 n = 128..512; f32 n = 128 lost 1.2; 8 gained
 * less, 16 lost), none for f64 below kLuPrefetchMinNF64 (1..3 points lost
 * there) */
constexpr int kLuGlobalPrefetch = 4;
constexpr int64_t kLuPrefetchMinNF64 = 128;
/* kLuGlobalMinN and kLuAdjacentTilesMinN, or what a measurement build's
 * TRIDI_CUDA_LU_ADJ=lo,hi sets (lo = hi: the rule off) */
void lu_adjacent_range(int64_t *lo, int64_t *hi);

/* Plan the scalar kind's pivoting kernels for plan's layout; resolve: the
 * second pass's kernels (which read info first).  Sets the shared-memory
 * attribute of the kernel it takes. */
tridi_status lu_plan_scalar(const struct tridi_plan_s *plan, bool resolve, LuPlan *lp);
/* Launch them on stream (the caller holds the device guard); scratch:
 * lp.scratch_bytes of device memory.  resolve: only the systems whose info
 * is not 0 are solved (and their x and info written); the others cost one
 * read of info. */
cudaError_t lu_launch_scalar(const struct tridi_plan_s *plan, const LuPlan &lp, bool resolve,
                             const tridi_args *args, void *scratch, cudaStream_t stream);
/* The exact second pass of a row that sends the systems it does not accept
 * back (cuda_lu_partition, cuda_lu_tiles: info 1): the RESOLVE kernels
 * above, planned for the layout.  The workspace holds the pass's scratch
 * (workspace form only), then one int32 flag a system, the info array the
 * row's kernel writes and the pass reads when the caller gives none.
 * lu_fallback_plan: plan time, the pass and plan->ws_bytes;
 * lu_fallback_info: execute, the info array of the call;
 * lu_fallback_launch: execute, the pass on the stream. */
struct LuFallback {
  LuPlan lp;
  size_t flags_off;
};
tridi_status lu_fallback_plan(struct tridi_plan_s *plan, LuFallback *fb);
inline int32_t *lu_fallback_info(const LuFallback &fb, const tridi_args *args) {
  return args->info ? args->info : (int32_t *)((unsigned char *)args->ws + fb.flags_off);
}
cudaError_t lu_fallback_launch(const struct tridi_plan_s *plan, const LuFallback &fb, const tridi_args *args,
                               cudaStream_t stream);
/* The streamed tile (lu_stream.cu): its kernel (for attributes and
 * occupancy) and its launch, G systems a block of 128 threads */
const void *lu_stream_kernel(bool f64);
cudaError_t lu_stream_launch(bool f64, unsigned grid, int threads, size_t smem, const LuParams &p,
                             cudaStream_t stream);

/* A short name of the plan's kernel ("tile_g32", "global") */
const char *lu_kind_name(const LuPlan &lp, char *buf, size_t len);

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_PIVOT_LU_CUH */
