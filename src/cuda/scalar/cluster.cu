/* Cluster kernel of the Thomas-PCR row (sm_90): systems past the
 * single-block kernels, any layout, while a tile fits 16 blocks.  A tile of
 * G systems (adjacent ones on system-adjacent layouts, else one) is cut
 * into K row blocks, one per thread block of a Hopper thread-block cluster
 * (cluster dimension K along x).  Each block eliminates its P chunks of M
 * rows (as the direct kernel) and solves its 2P reduced rows by PCR with
 * its own first and last reduced unknowns (F, L) left as parameters: every
 * reduced unknown becomes x = q + u F + v L.  The two boundary rows of every
 * block then form a tridiagonal system of 2K unknowns per system (F_0, L_0,
 * F_1, L_1, ...), which each block reads through distributed shared memory,
 * one row a lane, and solves by PCR with warp shuffles; then every thread
 * recovers its chunk.  Loads stay G systems wide (32..128 bytes a row) at
 * any n, blocks stay small (cheap PCR, several blocks per SM), and every
 * input is still read once and x written once.  With the growth detection
 * (GROW) every thread checks its rows' residuals (resid.cuh) before x is
 * stored, the block folds them into kResMaxima keys a system, and block 0
 * reads every block's keys through distributed shared memory for the
 * system's verdict. */
#include "../common/launch.h"
#include "chunk.cuh"
#include "pcr_uv.cuh"
#include "plan.h"
#include "resid.cuh"

#include <stdio.h>

namespace tridi_cuda {
namespace {

/* shared memory of the cluster kernel: offsets, flags, the block's two rows
 * of the cluster system, its F and L, and the PCR arrays (bytes); GROW: the
 * neighbouring blocks' L and F and the residual check's keys */
__host__ __device__ constexpr size_t cluster_smem(size_t es, int G, int P, bool grow) {
  return (size_t)G * 5 * 8 + (size_t)G * 8 + 16 +
         es * ((size_t)G * 8 + (size_t)G * 2 + (size_t)10 * G * P +
               (grow ? (size_t)(2 + 2 * kResMaxima) * G : 0));
}

/* The kernel's body (the two kernels below) */
template <typename T, int M, bool UNIT, bool GROW>
__device__ __forceinline__ void cluster_body(KParams p, int logG, int logP, int K) {
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
  T *xnb = rv + (size_t)2 * G * P;                       /* GROW: [G][2] L of block rank - 1, F of rank + 1 */
  using Key = typename ResKey<T>::K;
  Key *slot = (Key *)(xnb + (size_t)2 * G);              /* GROW: [kResMaxima][G] */
  Key *cslot = slot + kResMaxima * G;                    /* GROW, block 0: the cluster's keys */
  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  const int64_t sbase = (int64_t)(blockIdx.x / (unsigned)K) * G;
  const int64_t row0 = ((int64_t)rank * P + chunk) * M;

  tridi_dev_stage_offsets(p, sbase, G, tid, soff);
  if (tid < 2 * G) badrow[tid] = -1; /* own rows; cluster-wide worst rows */
  if (tid == 0) flag[0] = 0;
  if (GROW) {
    for (int i = tid; i < 2 * kResMaxima * G; i += blockDim.x) slot[i] = 0;
    for (int i = tid; i < 2 * G; i += blockDim.x) xnb[i] = 0;
  }
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
      const T qj = warp_pcr<T>(lo, di, up, rh, j, R2, R2);
      if (on && (j >> 1) == rank) xfl[gg * 2 + (j & 1)] = qj;
      if (GROW && on && (j & 1) && (j >> 1) == rank - 1) xnb[gg * 2] = qj;
      if (GROW && on && !(j & 1) && (j >> 1) == rank + 1) xnb[gg * 2 + 1] = qj;
    }
  }
  __syncthreads();

  /* 3. this thread's chunk ends, the chunk, breakdown */
  const T F = xfl[g * 2], L = xfl[g * 2 + 1];
  const T xF = q[0] + u[0] * F + v[0] * L, xL = q[1] + u[1] * F + v[1] * L;
  const T xfin = chunk_xfin<T, M>(cs, row0, neff, xF, xL);
  if (active && row0 < n && !finite_(xfin)) my_bad = clamp_row(row0);
  if (my_bad >= 0) atomicMax(&badrow[g], my_bad);
  /* GROW: the chunk's unknowns in registers from here on (the chunk state
   * is dead: fewer registers while the rows are read again) */
  T x[GROW ? M : 1];
  if constexpr (GROW) {
#pragma unroll
    for (int j = 0; j < M; ++j) x[j] = chunk_x(cs, j, xF, xL);
    /* the residual check: the neighbouring chunks' ends through rs / rp
     * (free since the barrier above), the neighbouring blocks' from the
     * join (xnb) */
    T xm, xp;
    chunk_ends<T>(rs, rp, G, chunk, P, xF, xL, xnb[g * 2], xnb[g * 2 + 1], xm, xp);
    T mx[kResMaxima] = {0, 0, 0, 0, 0};
    const bool on = active && row0 < n;
    if (on) {
      const T *ptr[4];
      int64_t st[4];
      operand_rows<T>(p, soff, G, g, row0, ptr, st);
      const int64_t nrows = n - row0 < M ? n - row0 : M;
      bool vec = false;
      if constexpr (UNIT) { /* the rows again as direct_eliminate read them: 16-byte loads, one
                             * piece of the four operands at a time (fewer live registers) */
        vec = nrows == M;
#pragma unroll
        for (int k = 0; k < 4; ++k) vec = vec && ((uintptr_t)ptr[k] & 15) == 0;
        if (vec) {
          constexpr int NV = (int)(M * sizeof(T) / 16), E = (int)(16 / sizeof(T));
#pragma unroll
          for (int i = 0; i < NV; ++i) {
            union {
              uint4 q[4];
              T e[4][E];
            } w;
#pragma unroll
            for (int k = 0; k < 4; ++k)
              w.q[k] = k < 3 ? __ldg((const uint4 *)ptr[k] + i) : ((const uint4 *)ptr[k])[i];
            chunk_resid<T, M>([&](int k, int j) -> T { return w.e[k][j - i * E]; }, row0, n, nrows, x, xm, xp,
                              mx, i * E, (i + 1) * E);
          }
        }
      }
      if (!vec) chunk_resid_elems<T, M>(ptr, st, row0, n, nrows, x, xm, xp, mx);
    }
    resid_fold<T>(slot, logG, g, mx, on);
  }
  /* cluster-wide breakdown: block 0 collects the blocks' rows after a full
   * barrier and, if a system broke down, re-checks it (reading d) before any
   * block stores x (in place, x is d).  The flag is uniform over the block. */
  cluster_sync(); /* also: every block has gathered the rows above */
  /* every (block, system) pair read by its own thread, all in flight at
   * once; GROW: block 0 also folds every block's keys into cslot, in the
   * same pass (one thread reading the K blocks' keys in turn measured the
   * same: H200, f64 K = 16) */
  for (int e = tid; e < G * K; e += blockDim.x) {
    const int r = e >> logG, gg = e & (G - 1);
    const int b = *cluster_map(badrow + gg, (unsigned)r);
    if (b >= 0) {
      atomicMax(&badrow[G + gg], b);
      flag[0] = 1;
    }
    if constexpr (GROW) { /* launched only with an info array (launch_cluster) */
      if (rank == 0) {
        Key v[kResMaxima];
#pragma unroll
        for (int j = 0; j < kResMaxima; ++j) v[j] = *cluster_map(slot + j * G + gg, (unsigned)r);
#pragma unroll
        for (int j = 0; j < kResMaxima; ++j)
          if (v[j] != 0) atomicMax(&cslot[j * G + gg], v[j]);
      }
    }
  }
  __syncthreads();
  const bool anybad = flag[0] != 0;
  if (rank == 0 && tid < G && active) {
    const int w = anybad ? badrow[G + tid] : -1;
    int32_t code = w >= 0 ? seq_check<T>(p, sbase + tid, w) : 0;
    if constexpr (GROW) {
      if (code == 0) {
        Key k[kResMaxima];
#pragma unroll
        for (int j = 0; j < kResMaxima; ++j) k[j] = cslot[j * G + tid];
        if (resid_inaccurate<T>(k, n)) code = TRIDI_INFO_INACCURATE;
      }
    }
    if (p.info) p.info[sbase + tid] = code;
  }
  /* no block may exit while another still reads its badrow; after a
   * breakdown, x may overwrite d (in place) only after block 0's checks */
  cluster_arrive();
  if (anybad) cluster_wait();
  if constexpr (GROW) {
    if (active) direct_store_x<T, M, UNIT>(p, soff, G, g, row0, n, [&](int j) -> T { return x[j]; });
  } else {
    if (active) direct_store<T, M, UNIT>(p, soff, G, g, row0, n, cs, xF, xL);
  }
  if (!anybad) cluster_wait();
#else
  (void)p;
  (void)logG;
  (void)logP;
  (void)K;
#endif
}

/* The cluster kernel; ptxas picks its registers (up to 128) */
template <typename T, int M, bool UNIT, bool GROW>
__global__ void __launch_bounds__(kTileThreads)
    tridi_thomas_pcr_cluster(KParams p, int logG, int logP, int K) {
  cluster_body<T, M, UNIT, GROW>(p, logG, logP, K);
}

/* The same at most 64 registers: the growth check's f32 chunks of up to 8
 * rows, which took 78 by themselves (the kernel without the check: 64) and
 * lost a quarter of their blocks an SM.  (An explicit bound of one block
 * is not the same as none: the kernel without the check took 92 registers
 * with it, 0.41 -> 0.60 ms on f32 contiguous n = 10000, H200.) */
template <typename T, int M, bool UNIT, bool GROW>
__global__ void __launch_bounds__(kTileThreads, 2)
    tridi_thomas_pcr_cluster64(KParams p, int logG, int logP, int K) {
  cluster_body<T, M, UNIT, GROW>(p, logG, logP, K);
}

/* Whether the cluster kernel has a UNIT variant for chunks of M elements of
 * es bytes (whole 16-byte pieces, at most 64 bytes a thread). */
constexpr bool cluster_unit_tile(int M, size_t es) { return (M * es) % 16 == 0 && M * es <= 64; }

template <typename T, bool GROW, int M, bool UNIT>
const void *cluster_kernel() {
  if constexpr (GROW && sizeof(T) == 4 && M <= 8)
    return (const void *)tridi_thomas_pcr_cluster64<T, M, UNIT, GROW>;
  return (const void *)tridi_thomas_pcr_cluster<T, M, UNIT, GROW>;
}
template <typename T, bool GROW>
const void *pick_cluster(int M, bool unit) {
  return by_m<T>(M, [unit](auto m) -> const void * {
    constexpr int Mv = decltype(m)::value;
    if constexpr (cluster_unit_tile(Mv, sizeof(T)))
      if (unit) return cluster_kernel<T, GROW, Mv, true>();
    return cluster_kernel<T, GROW, Mv, false>();
  });
}
const void *pick_cluster(bool f64, bool grow, int M, bool unit) {
  if (f64) return grow ? pick_cluster<double, true>(M, unit) : pick_cluster<double, false>(M, unit);
  return grow ? pick_cluster<float, true>(M, unit) : pick_cluster<float, false>(M, unit);
}

/* Cluster kernel choice: G systems a tile (gbytes of adjacent systems a row,
 * halved until the tile fits; one system for layouts whose systems are not
 * adjacent), P chunks of M rows per block (threads = G P), K blocks per
 * cluster (<= 16) covering n.  Returns false when no such tile launches on
 * this device (sm_90 and later only). */
bool cluster_shape(ClusterPlan *cl, const Facts &f, int M, int threads, int64_t gbytes, int kmax_wanted,
                   char *name, size_t name_len) {
  const tridi_layout *L = f.L;
  const size_t es = f.es;
  if (f.prop->major < 9) return false;
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
    const bool unit = G == 1 && f.unit_rows && cluster_unit_tile(M, es);
    const void *fn = pick_cluster(f.f64, f.grow, M, unit);
    if (!fn) return false;
    const size_t smem = cluster_smem(es, (int)G, (int)P, f.grow);
    if (smem > f.prop->sharedMemPerBlockOptin) continue;
    /* the kernel without the growth check, for calls without an info array */
    const void *plain = f.grow ? pick_cluster(f.f64, false, M, unit) : fn;
    auto prepare = [&](const void *k) {
      cudaError_t r = allow_smem(k, smem);
      if (r == cudaSuccess && K > 8) r = cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
      return r;
    };
    cudaError_t e = prepare(fn);
    if (e == cudaSuccess && plain != fn) e = prepare(plain);
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
    cl->logG = ilog2(G);
    cl->logP = ilog2(P);
    cl->K = (int)K;
    cl->threads = (int)(G * P);
    cl->smem = smem;
    cl->func = fn;
    cl->func_plain = plain;
    cl->grid = (unsigned)(tiles * K);
    snprintf(name, name_len, "cuda_thomas_pcr_cluster%s_m%d_g%d_p%d_k%d_%s", unit ? "_vec" : "", M, (int)G,
             (int)P, cl->K, f.tn);
    return true;
  }
  return false;
}

} /* namespace */

/* n > 1 past the single-block kernels, while the table's cluster row (and
 * the tuning overrides) allow clusters of two blocks or more: G adjacent
 * systems a tile on system-adjacent layouts (the row's gbytes), else one */
tridi_status plan_cluster(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took) {
  *took = f.n > 1 && f.ctile && f.cluster_kmax >= 2 &&
          cluster_shape(&cp->cluster, f, f.ctile->m, f.ctile->threads,
                        f.sysmajor ? f.ctile->gbytes : (int64_t)f.es, f.cluster_kmax, plan->kernel_name,
                        sizeof plan->kernel_name);
  return TRIDI_SUCCESS;
}

cudaError_t launch_cluster(const CudaPlan &cp, KParams &kp, const tridi_args *, cudaStream_t stream) {
  const ClusterPlan &cl = cp.cluster;
  int logG = cl.logG, logP = cl.logP, K = cl.K;
  void *argv[] = {&kp, &logG, &logP, &K};
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = cluster_config(&attr, K, cl.grid, (unsigned)cl.threads, cl.smem, stream);
  /* without an info array nobody reads the check's verdict */
  return cudaLaunchKernelExC(&cfg, kp.info ? cl.func : cl.func_plain, argv);
}

} /* namespace tridi_cuda */
