/* Segmented solve of the Thomas-PCR row: long systems of system-adjacent
 * layouts (interleaved batches, middle axes), from the table row's min_n
 * while the reduced systems fit a direct-kernel row.  Three kernels and the
 * direct kernel in between:
 *  1. seg_reduce: each system is cut into S segments of R rows; one thread a
 *     segment eliminates its interior in one forward sweep (O(1) state) into
 *     the segment's two boundary rows, written to the plan's workspace as a
 *     2S-row tridiagonal system per system (interleaved: row i of system s
 *     at i * nsys + s, unit diagonal shared by all rows);
 *  2. the direct kernel (direct.cu) solves those reduced systems in place;
 *  3. seg (below): every segment is a tile of R rows of the direct kernel's
 *     small-n shape, its neighbours' boundary unknowns known (folded into
 *     d of its first and last rows); tiles run in the reverse order of step
 *     1, so that the first ones read what step 1 left in L2;
 *  4. seg_info: info (only when the caller asks for it).
 * With the growth detection (GROW), step 3 also checks every row's residual
 * (resid.cuh): its tiles fold their maxima into five per system in the
 * workspace (zeroed by step 1), which step 4 turns into
 * TRIDI_INFO_INACCURATE where they fail.
 * Inputs are read twice (9 words of traffic a row against 5); in exchange
 * no tile holds more than R rows of a system on chip (docs/cuda.md,
 * "segmented"). */
#include "../common/launch.h"
#include "chunk.cuh"
#include "plan.h"
#include "resid.cuh"

#include <stdio.h>
#include <string.h>

namespace tridi_cuda {
namespace {

struct SegParams {
  void *red[3];     /* reduced a, c, d (d becomes x), row i of system s at i * nsys + s */
  void *one;        /* one element 1: the reduced diagonal, broadcast */
  int32_t *redinfo; /* info of the reduced solve: nonzero marks a broken system */
  int32_t *ovf;     /* 1 + first row of a chunk with a non-finite x (0: none) */
  void *gmax;       /* GROW: the residual check's kResMaxima keys a system (ResKey),
                     * maximum k of system s at k * nsys + s; else NULL */
  int R, S;
  FastDiv sdiv;     /* division by S */
};

/* One thread a segment: Q (a power of two) segments of G = 2^logG adjacent
 * systems a block.  The segment's rows [s R, s R + R) (rows >= n: identity) give
 *   F: sF u_{-1} + u_0 + pF u_{R-1} = qF,   L: sL u_0 + u_{R-1} + pL u_R = qL
 * as chunk_eliminate does for a chunk, but in one forward sweep: u_1 is
 * carried as D - A u_0 - Gc u_{k+1} while row k is eliminated.  A segment
 * with a NaN/Inf input, or a zero b_0 in the first segment, gets qF = NaN,
 * so the reduced solve reports its system. */
template <typename T>
__global__ void __launch_bounds__(256) tridi_seg_reduce(KParams p, SegParams sp, int logG, int Q) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  int64_t *soff = (int64_t *)smem_raw;
  const int G = 1 << logG;
  const int tid = threadIdx.x, g = tid & (G - 1), q = tid >> logG;
  const int64_t n = p.n, nsys = p.nsys;
  const int R = sp.R, S = sp.S;
  const int64_t nsb = (S + Q - 1) / Q;
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
    if (s == 0) {
      sp.ovf[sys] = 0;
      if (sp.gmax)
        for (int k = 0; k < kResMaxima; ++k) ((typename ResKey<T>::K *)sp.gmax)[k * nsys + sys] = 0;
    }
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

/* This thread's element j of operand k (a, b, c, d) in the check's stash:
 * [k][j][thread], consecutive threads in consecutive words */
template <typename T, int M>
__device__ __forceinline__ T *stash_at(T *stash, int k, int j) {
  return stash + (k * M + j) * blockDim.x + threadIdx.x;
}

/* Chunk rows [row0, row0 + M) of a segment starting at row rbase (the
 * direct kernel's loads), the neighbours' unknowns uprev = x_{rbase-1} and
 * unext = x_{rbase+R} folded into d of the segment's first and last rows;
 * row0 and neff are local to the segment.  stash (non-null): every element
 * read (rows < neff) also goes there as read (stash_at), for the residual
 * check. */
template <typename T, int M>
__device__ __forceinline__ void seg_eliminate(const KParams &p, const int64_t *soff, int G, int g,
                                              int64_t rbase, int64_t row0, int64_t neff, bool hasprev,
                                              bool hasnext, T uprev, T unext, ChunkState<T, M> &cs,
                                              T *stash = nullptr) {
  const T *ptr[4];
  int64_t st[4];
  operand_rows<T>(p, soff, G, g, rbase + row0, ptr, st);
  auto raw = [&](int k, int j) -> T {
    const T v = k < 3 ? __ldg(ptr[k] + j * st[k]) : ptr[k][j * st[k]];
    if (stash) *stash_at<T, M>(stash, k, j) = v;
    return v;
  };
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
 * (t / S) G...; P chunks of M rows a system, R = P M.  GROW: the residual
 * check (resid.cuh), the tile's maxima in kResMaxima G shared keys, then
 * one atomic a key and system into sp.gmax.  STASH (with GROW, where a
 * tile's rows are narrower than a line: seg_shape): the rows
 * as the elimination read them kept in shared memory for the check (4 M
 * elements a thread) instead of read again from L1/L2, whose latency the
 * check's phase otherwise waits on once more. */
template <typename T, int M, bool GROW, bool STASH>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_seg(KParams p, SegParams sp, int logG, int P) {
  static_assert(GROW || !STASH, "the stash serves the residual check");
  using Key = typename ResKey<T>::K;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG;
  const int tid = threadIdx.x;
  int64_t *soff = (int64_t *)smem_raw;
  T *rs = (T *)(soff + 5 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  Key *slot = (Key *)(rq + (size_t)2 * G * P); /* GROW: [kResMaxima][G] */
  T *stash = (T *)(slot + kResMaxima * G);      /* STASH: [4][M][blockDim.x] */
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
    if (GROW)
      for (int i = tid; i < kResMaxima * G; i += blockDim.x) slot[i] = 0;
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
    seg_eliminate<T, M>(p, soff, G, g, rbase, row0, neff, hasprev, hasnext, uprev, unext, cs,
                        STASH ? stash : nullptr);
    pcr_reduced<T>(rs, rp, rq, g, G, 2 * chunk, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
    const T xF = cs.qF, xL = cs.qL;
    const T xfin = chunk_xfin<T, M>(cs, row0, neff, xF, xL);
    if (active && row0 < nseg && (!finite_(cs.nonfin) || !finite_(xfin)))
      atomicMax(&sp.ovf[sys], clamp_row(rbase + row0) + 1);
    if constexpr (GROW) {
      /* the neighbours' x: the chunks' ends through rs / rp (pcr_reduced is
       * done with them after the barrier), the segments' through uprev and
       * unext */
      __syncthreads();
      T xm, xp;
      chunk_ends<T>(rs, rp, G, chunk, P, xF, xL, uprev, unext, xm, xp);
      T mx[kResMaxima] = {0, 0, 0, 0, 0};
      const bool on = active && row0 < nseg;
      if (on) {
        const int64_t left = nseg - row0, nrows = left < M ? left : M;
        T x[M];
#pragma unroll
        for (int j = 0; j < M; ++j) x[j] = chunk_x(cs, j, xF, xL);
        if constexpr (STASH) {
          chunk_resid<T, M>([&](int k, int j) -> T { return *stash_at<T, M>(stash, k, j); },
                            rbase + row0, n, nrows, x, xm, xp, mx);
        } else {
          const T *ptr[4];
          int64_t st[4];
          operand_rows<T>(p, soff, G, g, rbase + row0, ptr, st);
          chunk_resid_elems<T, M>(ptr, st, rbase + row0, n, nrows, x, xm, xp, mx);
        }
        /* the segment's first and last unknowns against the reduced
         * system's, which the neighbouring segments took */
        if (hasprev && chunk == 0) mx[4] = fabs(xF - rx[2 * (int64_t)seg * nsys + sys]);
        if (hasnext && row0 + M == nseg)
          mx[4] = fmax_(mx[4], fabs(xL - rx[(2 * (int64_t)seg + 1) * nsys + sys]));
      }
      resid_fold<T>(slot, logG, g, mx, on);
      __syncthreads();
      for (int i = tid; i < kResMaxima * G; i += blockDim.x) {
        const int gg = i & (G - 1), k = i >> logG;
        if (sbase + gg < nsys && sp.redinfo[sbase + gg] == 0)
          atomicMax((Key *)sp.gmax + k * nsys + sbase + gg, slot[i]);
      }
    }
    if (active) direct_store<T, M>(p, soff, G, g, rbase + row0, n, cs, xF, xL);
    __syncthreads();
  }
}

/* Step 4: info of every system.  A system the reduced solve found broken
 * (a NaN/Inf input, a zero b_0, a breakdown of the segment sweeps or of the
 * reduced solve) has had no x written, so its inputs are intact (in place
 * too) for the reference check; otherwise a non-finite x of step 3 gives
 * -(first row of its chunk + 1), and a failed residual check (sp.gmax)
 * TRIDI_INFO_INACCURATE. */
template <typename T>
__global__ void tridi_seg_info(KParams p, SegParams sp) {
  for (int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; s < p.nsys;
       s += (int64_t)gridDim.x * blockDim.x) {
    int32_t code = 0;
    if (sp.redinfo[s] != 0)
      code = seq_check<T>(p, s, 0);
    else if (sp.ovf[s] > 0)
      code = -sp.ovf[s];
    else if (sp.gmax) {
      typename ResKey<T>::K k[kResMaxima];
      for (int j = 0; j < kResMaxima; ++j) k[j] = ((const typename ResKey<T>::K *)sp.gmax)[j * p.nsys + s];
      if (resid_inaccurate<T>(k, p.n)) code = TRIDI_INFO_INACCURATE;
    }
    p.info[s] = code;
  }
}

template <typename T>
const void *pick_seg(int M, bool grow, bool stash) {
  return by_m<T>(M, [grow, stash](auto m) {
    constexpr int MM = decltype(m)::value;
    return !grow  ? (const void *)tridi_thomas_pcr_seg<T, MM, false, false>
           : stash ? (const void *)tridi_thomas_pcr_seg<T, MM, true, true>
                   : (const void *)tridi_thomas_pcr_seg<T, MM, true, false>;
  });
}

/* The stash of the check (STASH) while a block's shared memory stays
 * within the 48 KiB every device gives without opting in (a build with
 * -DTRIDI_CUDA_SEG_STASH_MAX=0 reads the rows again instead: the A/B of
 * docs/perf-log.md) */
#ifndef TRIDI_CUDA_SEG_STASH_MAX
#define TRIDI_CUDA_SEG_STASH_MAX (48 * 1024)
#endif
constexpr size_t kSegStashMax = TRIDI_CUDA_SEG_STASH_MAX;

/* Segments of R = the row's rows (doubled until the 2 S reduced rows fit a
 * direct-kernel row of the table), tiles of M rows a thread.  Sets the
 * workspace size.  False when no such solve fits. */
bool seg_shape(SegPlan *sg, struct tridi_plan_s *plan, const tridi_cuda_tile *st, const char *tn) {
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
  sg->R = (int)R;
  sg->S = (int)((n + R - 1) / R);
  sg->nred = 2ll * sg->S;
  sg->sdiv = make_fastdiv((uint32_t)sg->S);
  /* segment tiles */
  if (!direct_shape(&sg->tiles, R, nsys, M, st->threads, es, 512)) return false;
  if (sg->tiles.P != R / M) return false; /* tiles of exactly R rows */
  const int64_t ntiles = (nsys + (1 << sg->tiles.logG) - 1) / (1 << sg->tiles.logG) * sg->S;
  if (ntiles >= (1ll << 31)) return false;
  const bool grow = plan->growth != 0;
  if (grow) sg->tiles.smem += (size_t)kResMaxima * ((size_t)1 << sg->tiles.logG) * es;
  /* the stash where a tile's rows are narrower than a 128-byte line (G es <
   * 128): the re-read then moves whole sectors for part of their bytes from
   * L2; with whole lines it is cheap and the stash's shared stores cost
   * more than they save (H200, docs/perf-log.md) */
  const size_t stash = (size_t)4 * M * sg->tiles.threads * es;
  const bool narrow = ((size_t)1 << sg->tiles.logG) * es < 128;
  const bool use_stash = grow && narrow && sg->tiles.smem + stash <= kSegStashMax;
  if (use_stash) sg->tiles.smem += stash;
  sg->tiles.func = f64 ? pick_seg<double>(M, grow, use_stash) : pick_seg<float>(M, grow, use_stash);
  sg->tiles_plain = f64 ? pick_seg<double>(M, false, false) : pick_seg<float>(M, false, false);
  sg->tiles.grid = (unsigned)(ntiles < 0x7fffffffll ? ntiles : 0x7fffffffll);
  /* reduced systems */
  if (!direct_shape(&sg->red, sg->nred, nsys, rt->m, rt->threads, es)) return false;
  sg->red.func = direct_kernel(f64, rt->m, false); /* the reduced systems: no growth detection */
  /* segment reduction: gbytes (default 128) of adjacent systems, 256 threads */
  int64_t Ga = (st->gbytes > 0 ? st->gbytes : 128) / (int64_t)es;
  if (Ga > 256) Ga = 256;
  if (Ga < 1) Ga = 1;
  if (Ga > nsys) Ga = 1ll << ilog2(nsys);
  const int64_t Qa = 256 / Ga;
  sg->reduce.func = f64 ? (const void *)tridi_seg_reduce<double> : (const void *)tridi_seg_reduce<float>;
  sg->reduce.logG = ilog2(Ga);
  sg->reduce.P = (int)Qa;
  sg->reduce.threads = (int)(Ga * Qa);
  sg->reduce.smem = (size_t)Ga * 5 * 8;
  const int64_t ta = (nsys + Ga - 1) / Ga * ((sg->S + Qa - 1) / Qa);
  sg->reduce.grid = (unsigned)(ta < 0x7fffffffll ? ta : 0x7fffffffll);
  sg->info_func = f64 ? (const void *)tridi_seg_info<double> : (const void *)tridi_seg_info<float>;
  if (!sg->tiles.func || !sg->red.func) return false;
  /* workspace: reduced a, c, d; the 1; reduced info; overflow rows; the
   * residual check's maxima */
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
  sg->off_gmax = grow ? off : 0;
  if (grow) off += up((size_t)kResMaxima * nsys * es);
  plan->ws_bytes = off;
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_seg_r%d_m%d_g%d_p%d+red_m%d_p%d_%s",
           sg->R, M, 1 << sg->tiles.logG, sg->tiles.P, rt->m, sg->red.P, tn);
  return true;
}

} /* namespace */

/* System-adjacent layouts with n > 1 from the segmented row's min_n (its
 * `pipe` field), when the solve fits (seg_shape) */
tridi_status plan_segmented(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took) {
  *took = f.sysmajor && f.n > 1 && f.stile && f.n >= f.stile->pipe && seg_shape(&cp->seg, plan, f.stile, f.tn);
  return TRIDI_SUCCESS;
}

cudaError_t launch_segmented(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream) {
  const SegPlan &sg = cp.seg;
  const int64_t nsys = kp.nsys;
  unsigned char *ws = (unsigned char *)args->ws;
  SegParams sp;
  for (int k = 0; k < 3; ++k) sp.red[k] = ws + sg.off_red[k];
  sp.one = ws + sg.off_one;
  sp.redinfo = (int32_t *)(ws + sg.off_redinfo);
  sp.ovf = (int32_t *)(ws + sg.off_ovf);
  /* without an info array nobody reads the check's verdict: the tiles'
   * kernel without it */
  const bool check = sg.off_gmax && args->info; /* without growth tiles_plain is tiles.func */
  sp.gmax = check ? ws + sg.off_gmax : NULL;
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
    kr.as[k] = rop[k] < 0 ? 0 : nsys;
    kr.bstride[k][0] = rop[k] < 0 ? 0 : 1;
  }
  kr.bext[0] = nsys;
  kr.nbatch = 1;
  kr.info = sp.redinfo;
  kr.n = sg.nred;
  kr.nsys = nsys;
  cudaError_t e;
  {
    int lg = sg.reduce.logG, Q = sg.reduce.P;
    void *argv[] = {&kp, &sp, &lg, &Q};
    e = cudaLaunchKernel(sg.reduce.func, dim3(sg.reduce.grid), dim3(sg.reduce.threads), argv, sg.reduce.smem, stream);
  }
  if (e == cudaSuccess) {
    int lg = sg.red.logG, P = sg.red.P;
    void *argv[] = {&kr, &lg, &P};
    e = cudaLaunchKernel(sg.red.func, dim3(sg.red.grid), dim3(sg.red.threads), argv, sg.red.smem, stream);
  }
  if (e == cudaSuccess) {
    int lg = sg.tiles.logG, P = sg.tiles.P;
    void *argv[] = {&kp, &sp, &lg, &P};
    e = cudaLaunchKernel(check ? sg.tiles.func : sg.tiles_plain, dim3(sg.tiles.grid),
                         dim3(sg.tiles.threads), argv, sg.tiles.smem, stream);
  }
  if (e == cudaSuccess && args->info) {
    const int64_t blocks64 = (nsys + 255) / 256;
    void *argv[] = {&kp, &sp};
    e = cudaLaunchKernel(sg.info_func, dim3((unsigned)(blocks64 < 65535 ? blocks64 : 65535)), dim3(256), argv, 0,
                         stream);
  }
  return e;
}

} /* namespace tridi_cuda */
