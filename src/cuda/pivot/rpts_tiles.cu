/* The cuda_lu_tiles row: the partitioned elimination with partial pivoting
 * inside partitions (rpts.cuh, Klein & Strzodka, ICPP 2021) on tiles of
 * whole systems, shaped like the non-pivoting tiles (src/cuda/scalar/
 * tiles.cu, src/cuda/variable/var_packed.cu).  Every layout, n <= 2048,
 * from n = 48 (f32) / 64 (f64) for systems stored one after another, from
 * 96 for the others.
 *
 * A block of P = 256 threads takes a tile of R = 2048 rows holding
 * floor(R / n) whole systems.  Batches whose systems are stored one after
 * another (every operand unit-stride, system s at element s n) are copied
 * into shared memory in 16-byte pieces (var_tile_load); any other layout
 * (interleaved, strided, a middle axis, broadcast operands) element by
 * element from each system's own offset and strides (GATHER: rt_gather_load,
 * coalesced along a system's rows or along a row's systems), into the same
 * positions, so that the rest of the kernel is one.  Operand a of each
 * system's first row and c of its last are zeroed there, so the tile is
 * one block-diagonal tridiagonal system whose systems decouple exactly:
 * partial pivoting never takes a row across a system boundary (its
 * candidate has a zero in the pivot column).
 *   1. Thread t keeps rows 8t .. 8t + 7 of the tile in registers and
 *      reduces them by the two pivoting sweeps (rpts_reduce_rows) to two
 *      rows of the coarse system (2P = 512 rows).
 *   2. The coarse system by the same recursion in shared memory: 512 rows
 *      by 64 threads, then 128, 32 and the 8-row top by warp 0 alone
 *      (__syncwarp, not block barriers); x back down the levels.
 *   3. Each thread recomputes its interior (rpts_substitute_rows), its
 *      rows read again from the tile.
 *   4. The acceptance check of every system from the registers: max |A x -
 *      d| <= kRptsTau eps (||A|| ||x|| + ||d||), x and the bound finite
 *      (rpts_scalar.cu's rule); a chunk holds rows of at most two systems
 *      (n >= 8), whose maxima go to the systems' shared slots.
 *   5. Accepted systems get x (16-byte stores when the whole tile passed)
 *      and info 0; the others are left untouched with info 1 and solved by
 *      cuda_lu_partial's exact kernel (RESOLVE) in a second launch on the
 *      same stream, which also gives LAPACK's codes for singular and
 *      non-finite systems.  In place is safe: a rejected system's d is
 *      never written.
 * Global traffic of an accepted system: 5 words a row (plus one read of
 * its info by the second launch).  No host synchronisation:
 * graph-capturable. */
#include "../variable/var_kernels.cuh"
#include "cuda_pivot.h"
#include "lu.cuh"
#include "rpts.cuh"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace tridi_cuda {
namespace {

constexpr int kRtM = kRptsM;      /* rows a thread (the partition) */
constexpr int kRtP = kVarThreads; /* threads a block */
constexpr int kRtR = kRtM * kRtP; /* rows a tile */
/* divisions by the fast reciprocal (rpts.cuh rpts_div): the acceptance
 * check judges the final x, so rounding costs at most a fallback */
constexpr bool kRtFast = true;
/* The smallest n the row takes.  The kernel needs n >= M (a chunk then
 * holds rows of at most two systems); below these cuda_lu_partial (one
 * thread a system) is faster.  H200, % of copy, cuda_lu_partial against
 * this row (docs/perf-log.md, "Pivoting tiles on every layout"):
 * contiguous f32 n = 40: 40.6 / 41.1 against 39.3; n = 48: 36.5 / 36.9
 * against 40.5; f64 n = 48 / 64: 42.1 / 34.1 against 36.2; GATHER tiles
 * (interleaved, middle axis) n = 64: f32 33.1, f64 35.1 against 27.4, 27.4;
 * n = 96: 24.8, 25.5 against 27.6, 27.7.  Batches of adjacent systems
 * (lu.cuh lu_systems_adjacent) leave n below kLuAdjacentTilesMinN to
 * cuda_lu_partial's global form. */
constexpr int kRtMinNF32 = 48;
constexpr int kRtMinNF64 = 64;
constexpr int kRtMinNGather = 96;
static_assert(kRtMinNF32 >= kRtM && kRtMinNF64 >= kRtM && kRtMinNGather >= kRtM,
              "a chunk must hold rows of at most two systems");
/* The largest n of f32 GATHER tiles whose rows are copied along a row's
 * systems (b's rows not unit-stride: interleaved, middle axis): from n =
 * 1025 a tile holds one system, a copy request moves 4 bytes, and
 * cuda_lu_partition is faster from 1536.  H200, 1 GiB, % of copy, this row
 * against cuda_lu_partition: interleaved n = 1025 / 1536 / 2048 7.8 / 6.3 /
 * 5.8 against 7.6 / 8.2 / 8.5, middle axis 8.2 / 8.5 / 8.6 against 7.7 /
 * 8.4 / 9.0 (docs/perf-log.md, "Gathered pivoting tiles of one system").
 * f64 keeps the row to 2048 (n = 2048: 11.7 against 9.5). */
constexpr int kRtMaxNGatherRowsF32 = 1535;

/* The coarse system's levels: 2P = 512 rows, then 128, 32 and the 8-row
 * top (kRtL = 3 reductions).  rpts_levels' rule in closed form, usable in
 * the constant expressions of rt_lvl (rpts_levels' array is not); the
 * static_assert ties the two. */
__host__ __device__ constexpr int rt_level_n(int l) {
  int n = 2 * kRtP;
  for (int i = 0; i < l; ++i) n = 2 * ((n + kRtM - 1) / kRtM);
  return n;
}
__host__ __device__ constexpr int rt_levels() {
  int l = 0;
  while (rt_level_n(l) > kRptsTop) ++l;
  return l;
}
constexpr int kRtL = rt_levels();
constexpr bool rt_levels_are_rpts() {
  int nl[kRptsMaxLevels] = {};
  if (rpts_levels(2 * kRtP, nl) != kRtL) return false;
  for (int l = 0; l <= kRtL; ++l)
    if (nl[l] != rt_level_n(l)) return false;
  return true;
}
static_assert(rt_levels_are_rpts(), "the coarse levels must be rpts_levels' for 2P rows");
static_assert(rt_level_n(1) / kRtM <= 32, "the coarse levels above the first are warp 0's");
/* their elements in shared memory (a constant: rows and x of every level) */
constexpr size_t kRtLevelsElems = rpts_levels_elems(2 * kRtP, 1);

/* Level l's descriptor (RptsLevel, G = 1) from the coarse area's base.  A
 * template, so that every offset, size and stride is a compile-time
 * constant: built from the level number at run time (a loop over the
 * levels below), it cost the serial coarse solve its index arithmetic at
 * every access. */
__host__ __device__ constexpr int rt_level_off(int l) {
  int off = 0;
  for (int i = 0; i < l; ++i) off += 5 * kRtM * rpts_stride(rt_level_n(i), kRtM, 1);
  return off;
}
template <typename T, int l>
__device__ __forceinline__ RptsLevel<T> rt_lvl(T *base) {
  constexpr int off = rt_level_off(l), nl = rt_level_n(l), S = rpts_stride(nl, kRtM, 1);
  constexpr int parts = l < kRtL ? (nl + kRtM - 1) / kRtM : 0;
  return RptsLevel<T>{base + off, base + off + 4 * kRtM * S, S, nl, parts};
}

/* Level L's x from the level above (C): partition tid's interior from its
 * ends, into L.x */
template <typename T>
__device__ __forceinline__ void rt_substitute_level(const RptsLevel<T> &L, const RptsLevel<T> &C, int tid) {
  T x[kRtM], xp, xn;
  rpts_substitute<T, kRtM, kRtFast>(L, C, 1, 0, tid, x, xp, xn);
#pragma unroll
  for (int j = 0; j < kRtM; ++j) L.x[rpts_xidx<T, kRtM>(L, 1, 0, tid * kRtM + j)] = x[j];
}

/* Levels l .. kRtL of the coarse system by warp 0 (tid < 32): reduce
 * level l into l + 1, solve the levels above, then level l's x from
 * theirs.  Between levels only __syncwarp. */
template <typename T, int l>
__device__ __forceinline__ void rt_coarse_warp(T *base, int tid) {
  constexpr int M = kRtM;
  if constexpr (l == kRtL) {
    if (tid == 0) rpts_top<T, M, kRtFast>(rt_lvl<T, l>(base), 1, 0);
    __syncwarp();
  } else {
    const RptsLevel<T> L = rt_lvl<T, l>(base), C = rt_lvl<T, l + 1>(base);
    static_assert(rt_level_n(l) % M == 0, "whole partitions: every x of the level is stored");
    if (tid < L.P) rpts_reduce<T, M, kRtFast>(L, C, 1, 0, tid);
    __syncwarp();
    rt_coarse_warp<T, l + 1>(base, tid);
    if (tid < L.P) rt_substitute_level<T>(L, C, tid);
    __syncwarp();
  }
}

/* Shared memory of a block (bytes): the tile [4][LDS], the coarse levels,
 * the systems' slots [4][P] (|r|, ||A||, |x|, |d| maxima) and verdicts [P] */
template <typename T>
__host__ __device__ constexpr size_t rt_tile_bytes() {
  return (size_t)4 * var_tile_lds<T>(kRtM) * sizeof(T);
}
template <typename T>
__host__ __device__ inline size_t rt_slots_off() {
  return (rt_tile_bytes<T>() + kRtLevelsElems * sizeof(T) + 15) & ~(size_t)15;
}
template <typename T>
__host__ __device__ inline size_t rt_smem_bytes() {
  return rt_slots_off<T>() + (size_t)4 * kRtP * sizeof(typename RptsKey<T>::U) + (size_t)kRtP * sizeof(int);
}

/* MINB: blocks an SM the registers must allow.  The kernel waits mostly at
 * barriers while a few threads solve the coarse levels, so more blocks an
 * SM help, up to where spills lengthen that serial chain: f32 3 (80
 * registers; 4 allows 64, which spilled 296 bytes: 34.5 against 33 % of
 * copy; with the coarse levels' indices computed at run time 4 had been
 * the better, 23.5 against 22), f64 2 (128 registers; its shared memory
 * allows no more).  Tuning builds compile 2, 3 and 4 for both
 * (TRIDI_CUDA_RT_MINB). */
template <typename T>
constexpr int kRtMinB = sizeof(T) == 4 ? 3 : 2;
/* GATHER tiles (any layout): G = floor(R / n) systems a tile, staged from
 * their own offsets and strides into the tile's positions q n + r, one
 * element copy each.  The systems' offsets (int64 [5][G]) live in the coarse
 * levels' area while it is free: before step 1 and after step 3. */
static_assert((size_t)5 * kRtP * sizeof(int64_t) <= kRtLevelsElems * sizeof(float),
              "the offsets of up to P systems fit in the coarse levels' area");
/* tile element e -> system q, row r: along a system's rows where operand
 * b's rows are unit-stride (g.rowsfast: the plan keeps b's bit only;
 * g.ndiv divides by n), else along a row's systems (g.ndiv divides by G):
 * coalesced either way */
__device__ __forceinline__ void rt_gather_pos(const LuParams &g, int e, int n, int G, int &q, int &r) {
  if (g.rowsfast) {
    q = (int)fdiv((uint32_t)e, g.ndiv);
    r = e - q * n;
  } else {
    r = (int)fdiv((uint32_t)e, g.ndiv);
    q = e - r * G;
  }
}
/* the tile's nsys systems into buf (row r of system q at var_pad(q n + r)),
 * issued and committed; a_0 and c_{n-1} are not read (the caller zeroes
 * them); the rows from nsys n to the end of that chunk become identity rows */
template <typename T, int M, int P>
__device__ __forceinline__ void rt_gather_load(const LuParams &g, const int64_t *so, int G, int n, int nsys, T *buf,
                                               int LDS, int tid) {
  const int total = G * n;
  for (int e = tid; e < total; e += P) {
    int q, r;
    rt_gather_pos(g, e, n, G, q, r);
    if (q >= nsys) continue;
    const int pos = var_pad<T>(q * n + r);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (!(k == 0 && r == 0) && !(k == 2 && r == n - 1))
        cp_async_elem(buf + k * LDS + pos, (const T *)g.op[k] + so[k * G + q] + (int64_t)r * g.as[k]);
  }
  cp_async_commit();
  const int nrows = nsys * n, tail = (M - nrows % M) % M;
  if (tid < tail) {
    const int e = var_pad<T>(nrows + tid);
    buf[e] = (T)0;
    buf[LDS + e] = (T)1;
    buf[2 * LDS + e] = (T)0;
    buf[3 * LDS + e] = (T)0;
  }
}

template <typename T, int MINB, bool GATHER>
__global__ void __launch_bounds__(kRtP, MINB) rpts_tiles_kernel(VarParams p, LuParams g) {
  constexpr int M = kRtM, P = kRtP, V = Vec<T>::n;
  using K = RptsKey<T>;
  using U = typename K::U;
  static_assert(M % V == 0 && (128 / sizeof(T)) % M == 0, "chunks must be whole 16-byte pieces of a pad period");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  constexpr int LDS = var_tile_lds<T>(M);
  T *buf = (T *)smem_raw; /* [4][LDS]: a, b, c, d; x reuses a */
  U *slot = (U *)(smem_raw + rt_slots_off<T>());
  int *okf = (int *)(slot + 4 * P);
  T *const lvbase = buf + 4 * LDS; /* the coarse levels (rt_lvl) */
  const RptsLevel<T> L0 = rt_lvl<T, 0>(lvbase), L1 = rt_lvl<T, 1>(lvbase);
  const int tid = threadIdx.x;
  const int r0 = tid * M, pr0 = var_pad<T>(r0);
  const int n = (int)p.uni_n;
  const T tol = (T)kRptsTau * (sizeof(T) == 8 ? (T)DBL_EPSILON : (T)FLT_EPSILON);

  for (int64_t ti = blockIdx.x; ti < p.ntiles; ti += gridDim.x) {
    const int64_t sys0 = ti * p.uni_spt;
    const int64_t left = p.nsys - sys0;
    const int nsys = (int)(left < p.uni_spt ? left : p.uni_spt);
    const int64_t row0 = sys0 * p.uni_n;
    const int nrows = nsys * n;
    /* the 16-byte phase of the tile (var_packed.cu; 0 for GATHER) */
    int ph = !GATHER && p.ph0 >= 0 ? (int)((p.ph0 + row0) & (V - 1)) : 0;
    const bool vec = !GATHER && p.ph0 >= 0 && nrows + ph <= P * M;
    if (!vec) ph = 0;
    const int npos = nrows + ph;

    if constexpr (GATHER) {
      int64_t *so = (int64_t *)lvbase;
      tridi_dev_stage_offsets(g, sys0, (int)p.uni_spt, tid, so);
      __syncthreads();
      rt_gather_load<T, M, P>(g, so, (int)p.uni_spt, n, nsys, buf, LDS, tid);
    } else {
      var_tile_load<T, M, P>(p, row0, nrows, ph, vec, buf, LDS, tid);
    }
    for (int i = tid; i < 4 * P; i += P) slot[i] = 0;
    cp_async_wait_prev0();
    __syncthreads();
    /* the systems decouple: a_0 and c_{n-1} (never read) read as zero */
    for (int q = tid; q < nsys; q += P) {
      const int r = q * n + ph;
      buf[var_pad<T>(r)] = (T)0;
      buf[2 * LDS + var_pad<T>(r + n - 1)] = (T)0;
    }
    __syncthreads();

    /* 1. the chunk's rows into registers (identity rows past the tile) and
     * its two coarse rows.  The rows are read again from the tile for step
     * 3 rather than kept through the coarse solve (registers: f64 spilled) */
    const bool live = r0 < npos;
    auto load_rows = [&](RptsRow<T>(&R)[M]) {
      if (live) {
        VarChunk<T, M> v;
        var_chunk_load<T, M>(v, buf, LDS, pr0);
#pragma unroll
        for (int j = 0; j < M; ++j) R[j] = RptsRow<T>{v.e[0][j], v.e[1][j], v.e[2][j], v.e[3][j]};
      } else {
#pragma unroll
        for (int j = 0; j < M; ++j) R[j] = RptsRow<T>{(T)0, (T)1, (T)0, (T)0};
      }
    };
    {
      RptsRow<T> R[M], up, lo;
      load_rows(R);
      rpts_reduce_rows<T, M, kRtFast>(R, up, lo);
      rpts_put_row<T, M>(L0, 1, 0, 2 * tid, up);
      rpts_put_row<T, M>(L0, 1, 0, 2 * tid + 1, lo);
    }
    __syncthreads();

    /* 2. the coarse system: level 0 by the block, the rest by warp 0 */
    if (tid < L0.P) rpts_reduce<T, M, kRtFast>(L0, L1, 1, 0, tid);
    __syncthreads();
    if (tid < 32) rt_coarse_warp<T, 1>(lvbase, tid);
    __syncthreads();
    if (tid < L0.P) rt_substitute_level<T>(L0, L1, tid);
    __syncthreads();

    /* 3. the chunk's x: its ends and neighbours from the coarse x */
    RptsRow<T> R[M];
    load_rows(R);
    T x[M];
    const T *X0 = L0.x;
    x[0] = X0[rpts_xidx<T, M>(L0, 1, 0, 2 * tid)];
    x[M - 1] = X0[rpts_xidx<T, M>(L0, 1, 0, 2 * tid + 1)];
    const T xp = tid > 0 ? X0[rpts_xidx<T, M>(L0, 1, 0, 2 * tid - 1)] : (T)0;
    const T xn = tid < P - 1 ? X0[rpts_xidx<T, M>(L0, 1, 0, 2 * tid + 2)] : (T)0;
    rpts_substitute_rows<T, M, kRtFast>(R, x, xp, xn);

    /* 4. the acceptance maxima of the chunk's rows, per system: q0 the
     * system of its first tile row, rows j >= split belong to q0 + 1 */
    if (live) {
      const int rel = r0 - ph;
      const int q0 = rel > 0 ? rel / n : 0;
      const int split = ph + (q0 + 1) * n - r0;
      U m1[4] = {0, 0, 0, 0}, m2[4] = {0, 0, 0, 0};
#pragma unroll
      for (int j = 0; j < M; ++j) {
        const int pos = r0 + j;
        const bool valid = pos >= ph && pos < npos;
        const T xm = j > 0 ? x[j > 0 ? j - 1 : 0] : xp;
        const T xq = j < M - 1 ? x[j < M - 1 ? j + 1 : j] : xn;
        const T res = ((R[j].a * xm + R[j].b * x[j]) + R[j].c * xq) - R[j].d;
        const U kv[4] = {K::of(res), K::of((fabs(R[j].a) + fabs(R[j].b)) + fabs(R[j].c)), K::of(x[j]),
                         K::of(R[j].d)};
        const bool second = j >= split;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          m1[k] = valid && !second && kv[k] > m1[k] ? kv[k] : m1[k];
          m2[k] = valid && second && kv[k] > m2[k] ? kv[k] : m2[k];
        }
      }
      if (q0 < nsys)
#pragma unroll
        for (int k = 0; k < 4; ++k) atomicMax(&slot[k * P + q0], m1[k]);
      if (split < M && q0 + 1 < nsys)
#pragma unroll
        for (int k = 0; k < 4; ++k) atomicMax(&slot[k * P + q0 + 1], m2[k]);
    }
    __syncthreads();

    /* 5. the verdicts; x into the tile's a (every read of a is done) */
    int bad = 0;
    for (int q = tid; q < nsys; q += P) {
      const T rm = K::val(slot[q]), am = K::val(slot[P + q]), xm = K::val(slot[2 * P + q]);
      const T bound = am * xm + K::val(slot[3 * P + q]);
      const bool ok = isfinite(xm) && isfinite(bound) && rm <= tol * bound;
      okf[q] = ok;
      p.info[sys0 + q] = ok ? 0 : 1;
      bad |= !ok;
    }
    if (live) var_chunk_store<T, M>(buf, pr0, x);
    if constexpr (GATHER) {
      /* x to each accepted system's own rows; the offsets again (the levels
       * are done: their last reads were step 3's) */
      const int G = (int)p.uni_spt;
      int64_t *so = (int64_t *)lvbase;
      tridi_dev_stage_offsets(g, sys0, G, tid, so);
      __syncthreads();
      (void)bad;
      T *X = (T *)g.op[4];
      const int64_t xs = g.as[4];
      for (int e = tid; e < G * n; e += P) {
        int q, r;
        rt_gather_pos(g, e, n, G, q, r);
        if (q < nsys && okf[q]) X[so[4 * G + q] + (int64_t)r * xs] = buf[var_pad<T>(q * n + r)];
      }
    } else if (!__syncthreads_or(bad)) {
      var_tile_store<T, P>(p, row0, nrows, ph, vec, buf, tid);
    } else {
      /* the accepted systems only: a rejected one keeps its inputs (in
       * place: d) for the exact second launch */
      T *X = (T *)p.op[4] + row0;
      for (int e = tid; e < nrows; e += P)
        if (okf[e / n]) X[e] = buf[var_pad<T>(e + ph)];
    }
    __syncthreads();
  }
}

struct RtPlan {
  LuFallback fb; /* the exact second pass (RESOLVE) and the flags */
  int blocks;
  size_t smem;
  int minb;
  bool gather; /* not one after another: GATHER tiles */
  VarParams v; /* the tiles (nsys, ntiles, uni_n, uni_spt); execute sets op,
                  info and ph0 */
  LuParams g;  /* GATHER: the layout, rowsfast and ndiv (rt_gather_pos);
                  execute sets op[] */
};

size_t rt_smem(bool f64) { return f64 ? rt_smem_bytes<double>() : rt_smem_bytes<float>(); }

/* the kernel's register bound: 0, kRtMinB; measurement builds take
 * TRIDI_CUDA_RT_MINB=2, 3 or 4 */
int rt_minb() {
#ifdef TRIDI_CUDA_TUNING
  if (const char *e = getenv("TRIDI_CUDA_RT_MINB"))
    if (atoi(e) >= 2 && atoi(e) <= 4) return atoi(e);
#endif
  return 0;
}
template <typename T, bool GATHER>
auto rt_kernel_of(int minb) -> void (*)(VarParams, LuParams) {
#ifdef TRIDI_CUDA_TUNING
  if (minb == 2) return rpts_tiles_kernel<T, 2, GATHER>;
  if (minb == 3) return rpts_tiles_kernel<T, 3, GATHER>;
  if (minb == 4) return rpts_tiles_kernel<T, 4, GATHER>;
#endif
  (void)minb;
  return rpts_tiles_kernel<T, kRtMinB<T>, GATHER>;
}
template <typename T>
auto rt_kernel_of(int minb, bool gather) -> void (*)(VarParams, LuParams) {
  return gather ? rt_kernel_of<T, true>(minb) : rt_kernel_of<T, false>(minb);
}
const void *rt_kernel(bool f64, int minb, bool gather) {
  return f64 ? (const void *)rt_kernel_of<double>(minb, gather) : (const void *)rt_kernel_of<float>(minb, gather);
}

} /* namespace */
} /* namespace tridi_cuda */

/* ------------------------------------------------------------------------ */
/* The cuda_lu_tiles row (C linkage)                                         */
/* ------------------------------------------------------------------------ */

extern "C" const char *tridi_cuda_rpts_tiles_applies(const struct tridi_plan_s *plan) {
  using namespace tridi_cuda;
  const tridi_layout *L = &plan->lay;
#ifdef TRIDI_CUDA_TUNING
  /* measurement builds: TRIDI_CUDA_LU_TILES=0 leaves the plan to the other rows */
  if (const char *e = getenv("TRIDI_CUDA_LU_TILES"))
    if (*e && atoi(e) == 0) return "turned off (TRIDI_CUDA_LU_TILES=0, a tuning build)";
#endif
  const bool dense = tiles_dense_systems(L);
  int min_n = !dense ? kRtMinNGather : plan->dtype == TRIDI_F64 ? kRtMinNF64 : kRtMinNF32;
  /* adjacent systems: cuda_lu_partial's global form below kLuAdjacentTilesMinN */
  int64_t adj_lo, adj_hi;
  lu_adjacent_range(&adj_lo, &adj_hi);
  const bool adjacent = !dense && adj_hi > min_n && lu_systems_adjacent(L, plan->esize);
  if (adjacent) min_n = (int)adj_hi;
#ifdef TRIDI_CUDA_TUNING
  /* measurement builds: TRIDI_CUDA_RT_MINN moves the smallest n (>= M) */
  if (const char *e = getenv("TRIDI_CUDA_RT_MINN"))
    if (atoi(e) >= kRtM) min_n = atoi(e);
#endif
  if (L->n < min_n)
    return dense      ? "n below 48 (f32) / 64 (f64): cuda_lu_partial is faster there (measured on the H200)"
           : adjacent ? "n below 224 (neighbouring systems adjacent in memory): cuda_lu_partial is faster there "
                        "(measured on the H200)"
                      : "n below 96 (systems not one after another): cuda_lu_partial is faster there (measured on "
                        "the H200)";
  if (L->n > kRtR) return "n above the tile (2048 rows)";
  if (!dense && plan->dtype == TRIDI_F32 && !(lu_rowsfast(L) & 2) && L->n > kRtMaxNGatherRowsF32)
    return "n above 1535 in f32 with rows copied across systems: cuda_lu_partition is faster there "
           "(measured on the H200)";
  int optin = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, plan->device) != cudaSuccess) {
    (void)cudaGetLastError(); /* not sticky: leave no error behind */
    return "the device's shared-memory limit could not be queried";
  }
  if (rt_smem(plan->dtype == TRIDI_F64) > (size_t)optin) return "the tile does not fit in shared memory";
  return NULL;
}

extern "C" tridi_status tridi_cuda_rpts_tiles_init(struct tridi_plan_s *plan) {
  using namespace tridi_cuda;
  RtPlan *rp = (RtPlan *)calloc(1, sizeof *rp);
  if (!rp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of host memory");
  plan->priv = rp;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_plan_create: cudaSetDevice(%d)", plan->device);
  const tridi_layout *L = &plan->lay;
  const bool f64 = plan->dtype == TRIDI_F64;
  rp->smem = rt_smem(f64);
  rp->minb = rt_minb();
  rp->gather = !tiles_dense_systems(L);
  const void *fn = rt_kernel(f64, rp->minb, rp->gather);
  cudaError_t e = allow_smem(fn, rp->smem);
  int per_sm = 0, sms = 0;
  if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, kRtP, rp->smem);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, plan->device);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cuda_lu_tiles kernel attributes");
  const int64_t spt = rp->gather ? kRtR / L->n : tiles_systems_per_tile(L->n, kRtR, plan->esize, 16);
  if (rp->gather) {
    /* the systems' own offsets and strides (tridi_dev_stage_offsets) */
    set_layout_params(rp->g, L);
    rp->g.rowsfast = lu_rowsfast(L) & 2; /* operand b's bit only (rt_gather_pos) */
    rp->g.ndiv = make_fastdiv((uint32_t)(rp->g.rowsfast ? L->n : spt));
  }
  rp->v.nsys = L->nsys;
  rp->v.ntiles = (L->nsys + spt - 1) / spt;
  rp->v.uni_n = L->n;
  rp->v.uni_spt = spt;
  rp->blocks = var_persistent_blocks(per_sm, sms, rp->v.ntiles);
  const tridi_status st = lu_fallback_plan(plan, &rp->fb);
  if (st) return st;
  if (rp->gather)
    snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_lu_tiles_r%d_g%d_%s", kRtR, (int)spt,
             f64 ? "f64" : "f32");
  else
    snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_lu_tiles_r%d_%s", kRtR, f64 ? "f64" : "f32");
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_rpts_tiles_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  using namespace tridi_cuda;
  const RtPlan *rp = (const RtPlan *)plan->priv;
  const tridi_layout *L = &plan->lay;
  if (L->nsys == 0) return TRIDI_SUCCESS;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  cudaStream_t stream = (cudaStream_t)args->stream;
  VarParams p = rp->v;
  set_operands(p, args->op);
  p.info = lu_fallback_info(rp->fb, args);
  LuParams g = rp->g; /* zero for dense tiles */
  if (rp->gather) {
    p.ph0 = -1;
    set_operands(g, args->op);
  } else {
    p.ph0 = var_packed_phase(args->op, plan->esize);
  }
  if (plan->dtype == TRIDI_F64) rt_kernel_of<double>(rp->minb, rp->gather)<<<rp->blocks, kRtP, rp->smem, stream>>>(p, g);
  else rt_kernel_of<float>(rp->minb, rp->gather)<<<rp->blocks, kRtP, rp->smem, stream>>>(p, g);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return cuda_error(e, "tridi_execute: launch of the cuda_lu_tiles kernel");
  /* the rejected systems (info 1) by the exact elimination */
  e = lu_fallback_launch(plan, rp->fb, args, stream);
  if (e != cudaSuccess) return cuda_error(e, "tridi_execute: launch of the cuda_lu_tiles fallback");
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_rpts_tiles_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
