/* INTERLEAVED (padded) variable-size batches on the GPU: row i of system s
 * at i*ld + s.  A block takes G neighbouring systems (32 bytes of a row:
 * one memory sector) and P threads per system, M rows each (the scalar
 * direct kernel's mapping: thread (c, g), g fastest, so that the G threads
 * of a chunk row read one sector); each system's own length ends its rows:
 * rows past it are identity rows, never read or written, and a sector whose
 * systems have all ended is not read at all.  The chunk elimination and the
 * reduced system are the scalar kernels' (src/cuda/scalar/chunk.cuh).
 * A launch takes the groups (of one sector's systems) of one length bin,
 * listed in p.groups, so that a block is shaped for its own group's longest
 * system, not the batch's; H = 2^logH blocks share a group, block b taking
 * the G = sector / H systems (b mod H) G .. of group p.groups[b / H].  H > 1
 * only where one block of at most 512 threads cannot take the bin's longest
 * system (bins beyond 1024 rows f32 / 2048 f64, up to one system a block):
 * the H blocks of a sector run side by side (consecutive block numbers), so
 * the sector comes from DRAM once, but each reads a part of it, which made
 * H > 1 slower wherever H = 1 fits (docs/perf-log.md, "Variable INTERLEAVED:
 * blocks a sector"). */
#include "common/launch.h"
#include "var_kernels.cuh"

namespace tridi_cuda {

/* Threads a block at most: 128 registers a thread for the M = 16 chunks. */
constexpr int kVarInterThreads = 512;

/* Both INTERLEAVED kernels after the chunk elimination: the reduced solve,
 * the breakdown and growth checks (a system that fails is checked again by
 * the sequential recurrences from its inputs, which is why x is stored
 * last: in place x is d), info, and x for the rows below the system's
 * length.  Every thread of the block calls it (it holds barriers). */
template <typename T, int M, bool GROW>
__device__ __forceinline__ void var_inter_finish(const VarParams &p, T *rs, T *rp, T *rq, T *red, int *badrow,
                                                 int G, int g, int P, int c, int64_t s, int64_t n,
                                                 ChunkState<T, M> &cs) {
  const int tid = threadIdx.x;
  const int64_t row0 = (int64_t)c * M;
  const int64_t ld = p.ld;
  bool grown = false;
  if constexpr (GROW)
    grown = pcr_reduced<T, true>(rs, rp, rq, g, G, 2 * c, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL,
                                 red + kRedSlots * g, red + kRedSlots * G + tid, G * P, cs.wL, cs.nmx, cs.dmx,
                                 residual_tol<T>(n));
  else
    pcr_reduced<T>(rs, rp, rq, g, G, 2 * c, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
  const T xF = cs.qF, xL = cs.qL;

  int my_bad = (row0 < n && ((c == 0 && cs.b0_zero) || !finite_(cs.nonfin))) ? (int)row0 : -1;
#pragma unroll
  for (int j = 0; j < M; ++j)
    if (row0 + j < n && !finite_(chunk_x(cs, j, xF, xL))) my_bad = (int)(row0 + j);
  if (my_bad >= 0) atomicMax(&badrow[g], my_bad);
  else if (GROW && grown) atomicMax(&badrow[g], -1); /* a breakdown row wins */
  if (__syncthreads_or(my_bad >= 0 || (GROW && grown))) {
    /* in place x is d: the re-check reads d before any x is stored */
    if (c == 0 && n > 0 && badrow[g] >= 0) {
      const int32_t code = var_seq_check<T>(p, s, ld, n, (int32_t)(-(badrow[g] + 1)));
      if (p.info) p.info[s] = code;
    } else if (GROW && c == 0 && n > 0 && badrow[g] == -1 && p.info) {
      p.info[s] = TRIDI_INFO_INACCURATE;
    }
    __syncthreads();
  }
  if (c == 0 && n > 0 && (GROW ? badrow[g] == kNoBad : badrow[g] < 0) && p.info) p.info[s] = 0;
  T *X = (T *)p.op[4];
#pragma unroll
  for (int j = 0; j < M; ++j)
    if (row0 + j < n) X[(row0 + j) * ld + s] = chunk_x(cs, j, xF, xL);
}

template <typename T, int M, bool GROW>
__global__ void __launch_bounds__(kVarInterThreads) var_inter_kernel(VarParams p, int G, int logG, int P, int logH) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T *rs = (T *)smem_raw, *rp = rs + 2 * P * G, *rq = rp + 2 * P * G;
  T *red = rq + 2 * P * G; /* GROW: [G][kRedSlots] growth maxima, [kKeepSlots][G P] (pcr_reduced) */
  int *badrow = (int *)(red + grow_slots<GROW>(G, G * P)); /* [G] */
  const int tid = threadIdx.x;
  const int g = tid & (G - 1), c = tid >> logG;
  const int64_t s = (__ldg(p.groups + (blockIdx.x >> logH)) << (logG + logH)) +
                    ((int64_t)(blockIdx.x & ((1u << logH) - 1)) << logG) + g;
  const int64_t n = s < p.nsys ? p.len[s] : 0; /* 0: not this kernel's system */
  const int64_t row0 = (int64_t)c * M;
  const int64_t ld = p.ld;
  if (c == 0) {
    badrow[g] = no_bad<GROW>();
    if (GROW)
      for (int k = 0; k < kRedSlots; ++k) red[kRedSlots * g + k] = (T)0;
  }
  if (GROW) __syncthreads(); /* pcr_reduced adds to red before its first barrier */
  /* a, b, c through the read-only path; d may be x (in place) */
  auto ldv = [&](int k, int j) -> T {
    const T *src = (const T *)p.op[k] + (row0 + j) * ld + s;
    return k < 3 ? __ldg(src) : *src;
  };

  ChunkState<T, M> cs;
  if (row0 + M <= n)
    chunk_eliminate<T, M, true, GROW>(ldv, row0, n, cs);
  else
    chunk_eliminate<T, M, false, GROW>(ldv, row0, n, cs);
  var_inter_finish<T, M, GROW>(p, rs, rp, rq, red, badrow, G, g, P, c, s, n, cs);
}

/* The pipelined variant (one block a group, H = 1): a persistent grid whose
 * blocks walk the launch's groups t, t + grid, ... and copy the next
 * group's rows into a shared tile (cp.async) while they finish the current
 * one (reduced solve, checks, x stores), as the scalar kernel
 * tridi_thomas_pcr_direct_pipe does for fixed n.  Tile: operand k, chunk c,
 * row j, system g at k P CP + c CP + j G + g, the chunk pitch CP = M G +
 * pad (CP = G mod 128 bytes: a warp's chunks start in different banks).
 * Only rows below each system's own length are copied (the chunk
 * elimination reads no row past it): 16-byte pieces of V systems where the
 * row is below all V lengths and the arrays allow it, element copies at the
 * ragged ends, so padding is never read. */

/* system g's length in group t of the launch (0: past the batch, or long) */
__device__ __forceinline__ int var_group_len(const VarParams &p, int64_t t, int logG, int g) {
  const int64_t s = (__ldg(p.groups + t) << logG) + g;
  return s < p.nsys ? p.len[s] : 0;
}

/* operand k's array: constant indices into the parameters, so that a loop
 * over k does not copy VarParams to local memory */
template <typename T>
__device__ __forceinline__ const T *var_op(const VarParams &p, int k) {
  return (const T *)(k == 0 ? p.op[0] : k == 1 ? p.op[1] : k == 2 ? p.op[2] : p.op[3]);
}

template <typename T, int M>
__device__ __forceinline__ void var_pipe_copy(const VarParams &p, int64_t t, const int *len, int G, int logG,
                                              int CP, int KS, T *tile) {
  constexpr int V = 16 / sizeof(T);
  constexpr int logM = M == 4 ? 2 : (M == 8 ? 3 : 4);
  const int tid = threadIdx.x, nth = blockDim.x;
  const int64_t s0 = __ldg(p.groups + t) << logG, ld = p.ld;
  int rows = 0;
  for (int g = 0; g < G; ++g) rows = len[g] > rows ? len[g] : rows;
  bool vec = (ld * (int64_t)sizeof(T)) % 16 == 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) vec = vec && ((uintptr_t)(var_op<T>(p, k) + s0) & 15) == 0;
  /* pieces of W = 2^logV systems of a row: 16 bytes where the arrays allow
   * it, else single elements */
  const int logV = vec ? (V == 4 ? 2 : 1) : 0, W = 1 << logV;
  const int logW = logG - logV; /* pieces a row */
  const int total = rows << logW;
#pragma unroll 1
  for (int k = 0; k < 4; ++k) {
    const T *base = var_op<T>(p, k) + s0;
    T *dst = tile + k * KS;
#pragma unroll 1
    for (int i = tid; i < total; i += nth) {
      const int v = (i & ((1 << logW) - 1)) << logV, r = i >> logW;
      T *d = dst + (r >> logM) * CP + (r & (M - 1)) * G + v;
      const T *src = base + (int64_t)r * ld + v;
      int lo = len[v];
      for (int e = 1; e < W; ++e) lo = len[v + e] < lo ? len[v + e] : lo;
      if (r < lo) {
        if (vec) cp_async16(d, src);
        else cp_async_elem<T>(d, src);
      } else {
        for (int e = 0; e < W; ++e)
          if (r < len[v + e]) cp_async_elem<T>(d + e, src + e);
      }
    }
  }
  cp_async_commit();
}

template <typename T, int M, bool GROW>
__global__ void __launch_bounds__(kVarInterThreads, sizeof(T) == 4 && M == 8 ? 2 : 1)
    var_inter_pipe_kernel(VarParams p, int G, int logG, int P, int CP, int64_t ngroups) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T *rs = (T *)smem_raw, *rp = rs + 2 * P * G, *rq = rp + 2 * P * G;
  T *red = rq + 2 * P * G; /* GROW: [G][kRedSlots] growth maxima, [kKeepSlots][G P] (pcr_reduced) */
  int *badrow = (int *)(red + grow_slots<GROW>(G, G * P)); /* [G] */
  int *lenb = badrow + G;                                  /* [2][G]: two groups' lengths, alternating */
  T *tile = (T *)(((uintptr_t)(lenb + 2 * G) + 15) & ~(uintptr_t)15);
  const int tid = threadIdx.x;
  const int g = tid & (G - 1), c = tid >> logG;
  const int KS = P * CP;
  int64_t t = blockIdx.x;
  if (t >= ngroups) return;
  if (tid < G) lenb[tid] = var_group_len(p, t, logG, tid);
  __syncthreads();
  var_pipe_copy<T, M>(p, t, lenb, G, logG, CP, KS, tile);
  for (int buf = 0; t < ngroups; t += gridDim.x, buf ^= 1) {
    const int64_t tn = t + gridDim.x;
    const int *len = lenb + buf * G, *lenn = lenb + (buf ^ 1) * G;
    if (c == 0) {
      badrow[g] = no_bad<GROW>();
      if (GROW)
        for (int k = 0; k < kRedSlots; ++k) red[kRedSlots * g + k] = (T)0;
    }
    if (tn < ngroups && tid < G) lenb[(buf ^ 1) * G + tid] = var_group_len(p, tn, logG, tid);
    cp_async_wait_prev0();
    __syncthreads();
    const int64_t s = (__ldg(p.groups + t) << logG) + g, n = len[g];
    const T *src = tile + c * CP + g;
    ChunkState<T, M> cs;
    eliminate_chunk<T, M, GROW>([&](int k, int j) -> T { return src[k * KS + j * G]; }, (int64_t)c * M, n, cs);
    __syncthreads(); /* the tile is free: the next group's copy runs under the finish */
    if (tn < ngroups) var_pipe_copy<T, M>(p, tn, lenn, G, logG, CP, KS, tile);
    var_inter_finish<T, M, GROW>(p, rs, rp, rq, red, badrow, G, g, P, c, s, n, cs);
    __syncthreads();
  }
}

/* the pipelined kernel's chunk pitch and shared memory for shape (M, P) */
int var_pipe_cp(bool f32, int M) {
  const int es = f32 ? 4 : 8, G = var_inter_sector(f32), Lb = 128 / es;
  int CP = M * G;
  while (CP % Lb != G % Lb) CP += G;
  return CP;
}
size_t var_pipe_smem(bool f32, bool grow, int M, int P) {
  const size_t es = f32 ? 4 : 8;
  const int G = var_inter_sector(f32);
  const size_t head = ((size_t)6 * P * G + grow_slots(grow, G, G * P)) * es + (size_t)3 * G * sizeof(int);
  return (head + 15) / 16 * 16 + es * (size_t)4 * P * var_pipe_cp(f32, M);
}

template <typename T, int M>
const void *var_pipe_fn(bool grow) {
  return grow ? (const void *)var_inter_pipe_kernel<T, M, true> : (const void *)var_inter_pipe_kernel<T, M, false>;
}
const void *var_pipe_kernel(bool f32, bool grow, int M) {
  switch (M) {
    case 4: return f32 ? var_pipe_fn<float, 4>(grow) : var_pipe_fn<double, 4>(grow);
    case 8: return f32 ? var_pipe_fn<float, 8>(grow) : var_pipe_fn<double, 8>(grow);
    default: return f32 ? var_pipe_fn<float, 16>(grow) : NULL; /* f64 M = 16: its tile never fits */
  }
}

/* The groups p.groups[0 .. ngroups - 1], H = 2^logH blocks each, in
 * launches of at most the grid's 2^31 - 1 blocks. */
template <typename T, int M>
cudaError_t var_inter_launch_t(bool grow, const VarParams &p, int64_t ngroups, int G, int P, int logH,
                               cudaStream_t stream) {
  const size_t smem =
      ((size_t)6 * P * G + grow_slots(grow, G, G * P)) * sizeof(T) + (size_t)G * sizeof(int);
  int logG = 0;
  while ((1 << logG) < G) ++logG;
  const int64_t max_groups = (int64_t)0x7fffffff >> logH; /* the grid's limit in blocks */
  VarParams q = p;
  for (int64_t b0 = 0; b0 < ngroups; b0 += max_groups) {
    const unsigned blocks = (unsigned)((ngroups - b0 < max_groups ? ngroups - b0 : max_groups) << logH);
    q.groups = p.groups + b0;
    if (grow)
      var_inter_kernel<T, M, true><<<blocks, G * P, smem, stream>>>(q, G, logG, P, logH);
    else
      var_inter_kernel<T, M, false><<<blocks, G * P, smem, stream>>>(q, G, logG, P, logH);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

/* Rows a thread for groups whose short systems have at most nmax rows, and
 * the threads a system (a power of two, G P <= kVarInterThreads, G = the
 * sector's 8 (f32) or 4 (f64) systems / 2^logH): the smallest M of 4, 8, 16
 * that fits.  Returns G, 0 when none fits (nmax above kVarInterThreads / G
 * x 16). */
int var_inter_shape(bool f32, int logH, int64_t nmax, int *M, int *P) {
  const int G = var_inter_sector(f32) >> logH;
  static const int Ms[3] = {4, 8, 16};
  for (int i = 0; i < 3; ++i) {
    int p = 1;
    while ((int64_t)p * Ms[i] < nmax) p <<= 1;
    if (p < 2) p = 2;
    if (p * G <= kVarInterThreads) {
      *M = Ms[i];
      *P = p;
      return G;
    }
  }
  return 0;
}

/* One bin: the ngroups groups listed at p.groups, shape (M, P) from
 * var_inter_shape on the bin's longest system. */
cudaError_t var_inter_launch(bool f32, bool grow, const VarParams &p, int64_t ngroups, int M, int P, int logH,
                             cudaStream_t stream) {
  const int G = var_inter_sector(f32) >> logH;
  switch (M) {
    case 4:
      return f32 ? var_inter_launch_t<float, 4>(grow, p, ngroups, G, P, logH, stream)
                 : var_inter_launch_t<double, 4>(grow, p, ngroups, G, P, logH, stream);
    case 8:
      return f32 ? var_inter_launch_t<float, 8>(grow, p, ngroups, G, P, logH, stream)
                 : var_inter_launch_t<double, 8>(grow, p, ngroups, G, P, logH, stream);
    default:
      return f32 ? var_inter_launch_t<float, 16>(grow, p, ngroups, G, P, logH, stream)
                 : var_inter_launch_t<double, 16>(grow, p, ngroups, G, P, logH, stream);
  }
}

/* A bin's pipelined plan (H = 1 bins): the persistent grid, 0 where the
 * tile does not fit in the device's shared memory (the plain kernel then);
 * sets the kernel's shared-memory attribute.  Plan time, device current. */
cudaError_t var_inter_pipe_grid(bool f32, bool grow, int M, int P, int64_t ngroups, int sms, int optin,
                                int *blocks) {
  *blocks = 0;
  const size_t smem = var_pipe_smem(f32, grow, M, P);
  if (smem > (size_t)optin) return cudaSuccess;
  const void *fn = var_pipe_kernel(f32, grow, M);
  if (!fn) return cudaSuccess;
  cudaError_t e = allow_smem(fn, smem);
  int per_sm = 0;
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, var_inter_sector(f32) * P, smem);
  if (e != cudaSuccess || per_sm < 1) return e;
  *blocks = var_persistent_blocks(per_sm, sms, ngroups);
  return cudaSuccess;
}

cudaError_t var_inter_pipe_launch(bool f32, bool grow, const VarParams &p, int64_t ngroups, int M, int P,
                                  int blocks, cudaStream_t stream) {
  int G = var_inter_sector(f32), logG = 0, Pv = P, CP = var_pipe_cp(f32, M);
  while ((1 << logG) < G) ++logG;
  VarParams q = p;
  int64_t ng = ngroups;
  void *argv[] = {&q, &G, &logG, &Pv, &CP, &ng};
  return cudaLaunchKernel(var_pipe_kernel(f32, grow, M), dim3((unsigned)blocks), dim3((unsigned)(G * P)), argv,
                          var_pipe_smem(f32, grow, M, P), stream);
}

} /* namespace tridi_cuda */
