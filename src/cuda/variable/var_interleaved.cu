/* INTERLEAVED (padded) variable-size batches on the GPU: row i of system s
 * at i*ld + s.  A block takes G neighbouring systems (W = 1 or 4 memory
 * sectors of a row) and P threads per system, M rows each (the scalar
 * direct kernel's mapping: thread (c, g), g fastest, so that the G threads
 * of a chunk row read whole sectors); each system's own length ends its
 * rows: rows past it are identity rows, never read or written, and a sector
 * whose systems have all ended is not read at all.  The chunk elimination
 * and the reduced system are the scalar kernels' (src/cuda/scalar/chunk.cuh).
 * A launch takes the groups (of W sectors' systems) of one length bin,
 * listed in p.groups, so that a block is shaped for its own group's longest
 * system, not the batch's; H = 2^logH blocks share a group, block b taking
 * the G = W sector / H systems (b mod H) G .. of group p.groups[b / H].
 * Wide groups (W = 4: 128-byte rows, the scalar direct kernel's request
 * size) are what the planner takes where the four sectors' bins are at most
 * one apart; one-sector groups elsewhere (var_thomas_pcr.cu).  H > 1 only where one
 * block of at most 512 threads cannot take the bin's longest system: the H
 * blocks of a group run side by side (consecutive block numbers), so its
 * sectors come from DRAM once, but a block reading part of a sector made
 * H > 1 slower wherever H = 1 fits (docs/perf-log.md, "Variable INTERLEAVED:
 * blocks a sector"). */
#include "var_kernels.cuh"

namespace tridi_cuda {

/* Threads a block at most: 128 registers a thread for the M = 16 chunks. */
constexpr int kVarInterThreads = 512;

/* Whether a chunk's rows are loaded into registers before its elimination
 * (PRE): everywhere but f64 M = 16, where the copies spill (424 bytes a
 * thread under the 128-register bound). */
template <typename T, int M>
struct VarPreload {
  static constexpr bool value = !(sizeof(T) == 8 && M == 16);
};

/* PRE: the scalar direct kernel's register bound (TileMinBlocks: two blocks
 * of 512 threads an SM where a chunk is at most 32 bytes an operand), which
 * the register copies of the rows would otherwise break (f32 M = 8 with
 * growth detection: 80 registers, one block an SM). */
template <typename T, int M, bool GROW, bool PRE>
__global__ void __launch_bounds__(kVarInterThreads, PRE ? TileMinBlocks<T, M>::value : 1)
    var_inter_kernel(VarParams p, int G, int logG, int P, int logH) {
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
  if constexpr (PRE) {
    /* All the chunk's loads first, predicated, none behind another: the G
     * systems of a warp end at different rows, and in chunk_eliminate's
     * partial path each row's loads sit behind their own branch, so a chunk
     * holding a system's end waited for one row after another while the
     * block's other warps waited for it at the reduced system's first
     * barrier (docs/perf-log.md, "Variable INTERLEAVED: why it is slower
     * than the padded solve"). */
    T v[4][M];
#pragma unroll
    for (int j = 0; j < M; ++j)
#pragma unroll
      for (int k = 0; k < 4; ++k) v[k][j] = row0 + j < n ? ldv(k, j) : identity_value<T>(k);
    auto ldr = [&](int k, int j) -> T { return v[k][j]; };
    if (row0 + M <= n)
      chunk_eliminate<T, M, true, GROW>(ldr, row0, n, cs);
    else
      chunk_eliminate<T, M, false, GROW>(ldr, row0, n, cs);
  } else {
    if (row0 + M <= n)
      chunk_eliminate<T, M, true, GROW>(ldv, row0, n, cs);
    else
      chunk_eliminate<T, M, false, GROW>(ldv, row0, n, cs);
  }
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
  constexpr bool kPre = VarPreload<T, M>::value;
  bool pre = kPre;
#ifdef TRIDI_CUDA_TUNING
  /* measurement builds: TRIDI_CUDA_VAR_PRELOAD=0, the loads inside the elimination */
  if (const char *ev = getenv("TRIDI_CUDA_VAR_PRELOAD")) pre = kPre && atoi(ev) != 0;
#endif
  VarParams q = p;
  for (int64_t b0 = 0; b0 < ngroups; b0 += max_groups) {
    const unsigned blocks = (unsigned)((ngroups - b0 < max_groups ? ngroups - b0 : max_groups) << logH);
    q.groups = p.groups + b0;
    if (pre == kPre) {
      if (grow)
        var_inter_kernel<T, M, true, kPre><<<blocks, G * P, smem, stream>>>(q, G, logG, P, logH);
      else
        var_inter_kernel<T, M, false, kPre><<<blocks, G * P, smem, stream>>>(q, G, logG, P, logH);
    } else { /* a measurement build's TRIDI_CUDA_VAR_PRELOAD=0 */
#ifdef TRIDI_CUDA_TUNING
      if (grow)
        var_inter_kernel<T, M, true, false><<<blocks, G * P, smem, stream>>>(q, G, logG, P, logH);
      else
        var_inter_kernel<T, M, false, false><<<blocks, G * P, smem, stream>>>(q, G, logG, P, logH);
#endif
    }
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

/* Rows a thread for groups whose short systems have at most nmax rows, and
 * the threads a system (P = ceil(nmax / M), at least 2; G P <= kVarInterThreads, G = W
 * sectors of 8 (f32) or 4 (f64) systems / 2^logH): the smallest M of 4, 8,
 * 16 that fits.  Returns G, 0 when none fits (nmax above kVarInterThreads / G
 * x 16). */
int var_inter_shape(bool f32, int W, int logH, int64_t nmax, int *M, int *P) {
  const int G = W * var_inter_sector(f32) >> logH;
  static const int Ms[3] = {4, 8, 16};
  for (int i = 0; i < 3; ++i) {
    int64_t p = (nmax + Ms[i] - 1) / Ms[i];
#ifdef TRIDI_CUDA_TUNING
    /* measurement builds: the earlier shape, P rounded up to a power of two */
    if (getenv("TRIDI_CUDA_DIRECT_POW2")) {
      int64_t q = 1;
      while (q < p) q <<= 1;
      p = q;
    }
#endif
    if (p < 2) p = 2;
    if (p * G <= kVarInterThreads) {
      *M = Ms[i];
      *P = (int)p;
      return G;
    }
  }
  return 0;
}

/* One bin: the ngroups groups of W sectors listed at p.groups, shape (M, P)
 * from var_inter_shape on the bin's longest system. */
cudaError_t var_inter_launch(bool f32, bool grow, const VarParams &p, int64_t ngroups, int W, int M, int P,
                             int logH, cudaStream_t stream) {
  const int G = W * var_inter_sector(f32) >> logH;
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

} /* namespace tridi_cuda */
