/* Staged kernel of the Thomas-PCR row: systems along the contiguous axis,
 * and any layout whose neighbouring systems are not adjacent.  G systems a
 * block, P = 2^logP threads a system (system-major thread order), M rows a
 * thread.  The block copies the tile of a, b, c, d into shared memory with
 * cp.async (the load policy below), threads read their chunks from there and
 * keep 3 M intermediates in registers (chunk.cuh); x goes back through
 * shared memory.  n up to 8192 (f32) / 4096 (f64): src/cuda/tuning.h. */
#include "../common/launch.h"
#include "chunk.cuh"
#include "plan.h"

#include <stdio.h>

namespace tridi_cuda {
namespace {

/* How the staged kernel copies its tile between device and shared memory;
 * each is its own instantiation, picked per plan (and, for the 16-byte
 * copies, per execute from the pointers' alignment):
 *  kElem:  element-size copies, any stride and alignment;
 *  kVec:   16-byte copies and stores: unit-stride rows, n and every system
 *          offset multiples of 16 bytes, 16-byte aligned arrays;
 *  kPipe:  kVec over a persistent grid with two tile buffers, tile i + 1
 *          copied while tile i is solved;
 *  kPhase: unit-stride rows at any offset: each system's rows sit in shared
 *          memory shifted by their 16-byte phase, so that the 16-byte pieces
 *          inside the system go with one 16-byte copy each and only the
 *          ragged ends element by element. */
enum class StagedCopy { kElem, kVec, kPipe, kPhase };

/* The staged kernel's load policy: the copy, and whether operands that
 * several systems share (KParams::reused) are copied through L1 (kL1: .ca
 * for those operands, chosen at run time; a separate instantiation, because
 * that choice in the copy loop costs the other layouts 4-9%,
 * docs/perf-log.md CUDA v18). */
template <StagedCopy C, bool L1 = false>
struct StagedLoad {
  static constexpr bool kVec = C == StagedCopy::kVec || C == StagedCopy::kPipe;
  static constexpr bool kPipe = C == StagedCopy::kPipe;
  static constexpr bool kPhase = C == StagedCopy::kPhase;
  static constexpr bool kL1 = L1;
};

/* Shared-memory rows are padded by 16 bytes after every 128 bytes: chunk
 * reads of consecutive threads spread over the banks, and 16-byte copies
 * stay aligned. */
template <typename T>
struct Pad {
  static constexpr int W = 128 / sizeof(T);
  static constexpr int V = 16 / sizeof(T);
};

template <typename T>
__device__ __forceinline__ int padded(int r) {
  return r + (r / Pad<T>::W) * Pad<T>::V;
}

/* Bytes of the staged kernel's shared header (per-system offsets of NB
 * tiles and the breakdown rows), rounded up so that the tile buffers that
 * follow are 16-byte aligned (cp.async). */
__host__ __device__ constexpr size_t staged_hdr_bytes(int nb, int G, bool ph = false) {
  return ((size_t)nb * 5 * 8 * G + (size_t)8 * G + (ph ? (size_t)5 * 4 * G : 0) + 15) / 16 * 16;
}

/* G systems of n rows a block (system g: threads g P ... g P + P - 1), the
 * tile staged row by row of each system; logG = log2 G. */
template <typename T, int M, typename LOAD, bool GROW>
__global__ void __launch_bounds__(kTileThreads, TileMinBlocks<T, M>::value)
    tridi_thomas_pcr_staged(KParams p, int G, int logG, int logP, int LD, FastDiv ndiv) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  constexpr bool VEC = LOAD::kVec, PIPE = LOAD::kPipe, PH = LOAD::kPhase, L1 = LOAD::kL1;
  (void)logG; /* every variant takes the same arguments; the row-major copies need only G */
  /* PH: each system's rows sit in shared memory shifted by its 16-byte
   * phase (element r at padded(r + ph)), so that the 16-byte pieces of the
   * row inside the system go with one 16-byte cp.async each and only the
   * ragged ends element by element */
  constexpr int V = VEC ? Vec<T>::n : 1;
  constexpr int VP = Vec<T>::n;
  using VT = typename Vec<T>::type;
  constexpr int NB = PIPE ? 2 : 1; /* tile buffers: PIPE copies tile i+1 while tile i is solved */
  /* GROW: a system of P <= 32 threads keeps its max |b| in the warp
   * (pcr_reduced's WARP); not where the tile spills already (128-byte
   * chunks: f64 M = 16, f32 M = 32; f64 M = 4 in 64 registers), whose
   * spills grew by 12-44 bytes with it (ptxas) */
  constexpr bool kWarpMax = sizeof(T) * M <= 64 && (sizeof(T) == 4 || M >= 8);
  const int P = 1 << logP;
  const int nt = blockDim.x;
  const int tid = threadIdx.x;
  int64_t *soff_all = (int64_t *)smem_raw;        /* [NB][5][G] */
  int *badrow = (int *)(soff_all + NB * 5 * G);   /* [G], 8 bytes each */
  int *phs = badrow + 2 * G;                      /* PH: [5][G] phases */
  T *buf_all = (T *)(smem_raw + staged_hdr_bytes(NB, G, PH)); /* [NB][4][G][LD], 16-byte aligned */
  T *rs = buf_all + (size_t)NB * 4 * G * LD;
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  T *red = rq + (size_t)2 * G * P; /* GROW: [G][kRedSlots], growth maxima of each system */

  const int g = tid >> logP;
  const int chunk = tid & (P - 1);
  const int n = (int)p.n;
  /* vectors (or elements) per system; PH: 16-byte chunks per system */
  const uint32_t nv = PH ? (uint32_t)(n / VP + 2) : (uint32_t)(n / V);
  const uint32_t tot = (uint32_t)G * nv;  /* ndiv divides by nv */
  const int64_t step = (int64_t)gridDim.x * G;

  auto set_offsets = [&](int64_t *so, int64_t sb) {
    tridi_dev_stage_offsets(p, sb, G, tid, so);
    if (PH && tid < G) {
#pragma unroll
      for (int k = 0; k < 5; ++k)
        phs[k * G + tid] = (int)(((uintptr_t)((const T *)p.op[k] + so[k * G + tid]) / sizeof(T)) % VP);
    }
  };
  /* 16-byte asynchronous copies of the four inputs of tile sb (VEC) */
  auto issue_tile = [&](T *bufp, const int64_t *so, int64_t sb) {
    const int gm = (int)((p.nsys - sb) < G ? (p.nsys - sb) : G);
    constexpr int ITER = (M + V - 1) / V;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const T *src = (const T *)p.op[k];
      T *dst = bufp + (size_t)k * G * LD;
#pragma unroll
      for (int j = 0; j < ITER; ++j) {
        const uint32_t e = (uint32_t)tid + (uint32_t)j * (uint32_t)nt;
        const uint32_t gg = fdiv(e, ndiv);
        const uint32_t r = e - gg * nv;
        if (e < tot && (int)gg < gm)
          cp_async16(dst + (int)gg * LD + padded<T>((int)(r * V)), src + so[k * G + gg] + (int64_t)r * V,
                     L1 && ((p.reused >> k) & 1));
      }
    }
  };

  int it = 0;
  if (PIPE && (int64_t)blockIdx.x * G < p.nsys) {
    set_offsets(soff_all, (int64_t)blockIdx.x * G);
    __syncthreads();
    issue_tile(buf_all, soff_all, (int64_t)blockIdx.x * G);
    cp_async_commit();
  }
  for (int64_t sbase = (int64_t)blockIdx.x * G; sbase < p.nsys; sbase += step, ++it) {
    const int cur = PIPE ? (it & 1) : 0;
    int64_t *soff = soff_all + cur * 5 * G;
    T *buf = buf_all + (size_t)cur * 4 * G * LD;
    if (PIPE) {
      if (sbase + step < p.nsys) set_offsets(soff_all + (cur ^ 1) * 5 * G, sbase + step);
    } else {
      set_offsets(soff, sbase);
    }
    if (tid < G) badrow[tid] = no_bad<GROW>();
    if (GROW && (P > 32 || !kWarpMax)) /* else the system's max |b| stays in the warp (pcr_reduced) */
      for (int i = tid; i < kRedSlots * G; i += nt) red[i] = (T)0;
    __syncthreads();
    const int gmax = (int)((p.nsys - sbase) < G ? (p.nsys - sbase) : G);

    /* 1. stage a, b, c, d.  PIPE: tile i+1's copies go out now, tile i's
     * were issued one iteration ago.  VEC: 16-byte asynchronous copies of
     * all four operands in flight at once; otherwise element-size
     * asynchronous copies, also all in flight. */
    if (PIPE) {
      if (sbase + step < p.nsys)
        issue_tile(buf_all + (size_t)(cur ^ 1) * 4 * G * LD, soff_all + (cur ^ 1) * 5 * G, sbase + step);
      cp_async_commit();
      cp_async_wait_prev();
    } else if (VEC) {
      issue_tile(buf, soff, sbase);
      cp_async_commit();
      cp_async_wait_prev0();
    }
    if (PH) {
      /* 16-byte pieces inside each system, ragged ends element by element;
       * chunk c of a system holds elements c VP - ph ... c VP - ph + VP - 1 */
      const uint32_t totp = (uint32_t)G * nv; /* nv: chunks a system (host: n / VP + 2) */
      for (uint32_t e = tid; e < totp; e += nt) {
        const uint32_t gg = fdiv(e, ndiv);
        const uint32_t c = e - gg * nv;
        if ((int)gg >= gmax) continue;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const T *src = (const T *)p.op[k] + soff[k * G + gg];
          T *dst = buf + (size_t)k * G * LD + (size_t)gg * LD + padded<T>((int)(c * VP));
          const int r0 = (int)(c * VP) - phs[k * G + gg];
          if (r0 >= 0 && r0 + VP <= n) {
            cp_async16(dst, src + r0, L1 && ((p.reused >> k) & 1));
          } else {
#pragma unroll
            for (int q = 0; q < VP; ++q)
              if (r0 + q >= 0 && r0 + q < n) cp_async_elem(dst + q, src + r0 + q);
          }
        }
      }
      cp_async_commit();
      cp_async_wait_prev0();
    } else if (!VEC) {
      /* element-size asynchronous copies: all four operands in flight */
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const T *src = (const T *)p.op[k];
        const int64_t st = p.as[k];
        const int64_t *so = soff + k * G;
        T *dst = buf + (size_t)k * G * LD;
#pragma unroll 4
        for (int j = 0; j < M; ++j) {
          const uint32_t e = (uint32_t)tid + (uint32_t)j * (uint32_t)nt;
          const uint32_t gg = fdiv(e, ndiv);
          const uint32_t r = e - gg * nv;
          if (e < tot && (int)gg < gmax)
            cp_async_elem(dst + (int)gg * LD + padded<T>((int)r), src + so[gg] + (int64_t)r * st);
        }
      }
      cp_async_commit();
      cp_async_wait_prev0();
    }
    __syncthreads();

    /* 2. chunk elimination from shared memory */
    const bool active = g < gmax;
    const int64_t neff = active ? n : 0;
    const int row0 = chunk * M;
    /* a chunk never straddles a 16-byte pad: M divides the 128-byte pad
     * period and row0 is a multiple of M, so padded(row0 + j) is
     * padded(row0) + j and every load can be base + constant.  f32 only:
     * there it cut 118 -> 91 registers and gained 6-10% of copy at
     * n = 256..2048; the f64 build of the same code lost 8% at n = 2048
     * (H200, docs/perf-log.md CUDA v10), so f64 keeps the per-load offsets. */
    static_assert(Pad<T>::W % M == 0, "chunks must not straddle a shared-memory pad");
    const int prow0 = padded<T>(row0);
    const T *sa = buf + g * LD;
    const size_t kstride = (size_t)G * LD;
    int ph[5] = {0, 0, 0, 0, 0};
    if (PH) {
#pragma unroll
      for (int k = 0; k < 5; ++k) ph[k] = phs[k * G + (active ? g : 0)];
    }
    auto ld = [&](int k, int j) -> T {
      if constexpr (PH)
        return sa[k * kstride + padded<T>(row0 + j + ph[k])];
      else if constexpr (sizeof(T) == 4)
        return sa[k * kstride + prow0 + j];
      else
        return sa[k * kstride + padded<T>(row0 + j)];
    };
    ChunkState<T, M> cs;
    /* eliminate_chunk's body, written out: through the helper two staged
     * variants compiled to different code (±16-32 SASS instructions, nvcc 13.0) */
    if (row0 + M <= neff)
      chunk_eliminate<T, M, true, GROW>(ld, row0, neff, cs);
    else
      chunk_eliminate<T, M, false, GROW>(ld, row0, neff, cs);

    /* 3. reduced system */
    bool grown = false;
    if constexpr (GROW)
      /* keep: buf's b region, free once step 1's barrier has passed every
       * chunk read (4 G P <= G LD) */
      grown = pcr_reduced<T, true, true, kWarpMax>(rs, rp, rq, g * 2 * P, 1, 2 * chunk, 2 * P, cs.sF, cs.pF,
                                                   cs.qF, cs.sL, cs.pL, cs.qL, red + kRedSlots * g,
                                                   buf + kstride + tid, nt, cs.wL, cs.nmx, cs.dmx,
                                                   residual_tol<T>(n));
    else
      pcr_reduced<T>(rs, rp, rq, g * 2 * P, 1, 2 * chunk, 2 * P, cs.sF, cs.pF, cs.qF, cs.sL, cs.pL, cs.qL);
    const T xF = cs.qF, xL = cs.qL;

    /* 4. unknowns into shared memory (buf's a region is free: every read of
     * buf happened before the PCR barriers), breakdown check, x out */
    int my_bad = (active && ((chunk == 0 && cs.b0_zero) || !finite_(cs.nonfin))) ? row0 : -1;
    if (active) {
      T *xs = buf + g * LD;
#pragma unroll
      for (int j = 0; j < M; ++j) {
        const T xj = chunk_x(cs, j, xF, xL);
        if (row0 + j < n) {
          xs[PH ? padded<T>(row0 + j + ph[4]) : prow0 + j] = xj;
          if (!finite_(xj)) my_bad = row0 + j;
        }
      }
    }
    finish_info<T, GROW>(p, sbase + g, active, chunk == 0, my_bad, &badrow[g], grown);
    __syncthreads();
    if (PH) {
      /* x: whole 16-byte pieces inside each system, ragged ends by element */
      T *X = (T *)p.op[4];
      const int64_t *so = soff + 4 * G;
      for (uint32_t e = tid; e < (uint32_t)G * nv; e += nt) {
        const uint32_t gg = fdiv(e, ndiv);
        const uint32_t c = e - gg * nv;
        if ((int)gg >= gmax) continue;
        const T *xs = buf + (size_t)gg * LD + padded<T>((int)(c * VP));
        T *dst = X + so[gg];
        const int r0 = (int)(c * VP) - phs[4 * G + gg];
        if (r0 >= 0 && r0 + VP <= n) {
          VT v;
#pragma unroll
          for (int q = 0; q < VP; ++q) ((T *)&v)[q] = xs[q];
          *(VT *)(dst + r0) = v;
        } else {
#pragma unroll
          for (int q = 0; q < VP; ++q)
            if (r0 + q >= 0 && r0 + q < n) dst[r0 + q] = xs[q];
        }
      }
    } else {
      T *X = (T *)p.op[4];
      const int64_t *so = soff + 4 * G;
      const int64_t st = p.as[4];
      for (uint32_t e = tid; e < tot; e += nt) {
        const uint32_t gg = fdiv(e, ndiv);
        const uint32_t r = e - gg * nv;
        if ((int)gg < gmax) {
          const int pos = (int)gg * LD + padded<T>((int)(r * V));
          if (VEC) {
            VT v;
#pragma unroll
            for (int q = 0; q < V; ++q) ((T *)&v)[q] = buf[pos + q];
            *(VT *)(X + so[gg] + (int64_t)r * V) = v;
          } else {
            X[so[gg] + (int64_t)r * st] = buf[pos];
          }
        }
      }
    }
    __syncthreads();
  }
}

template <typename T, int M, bool GROW, bool L1>
const void *staged_kernel_l1(StagedCopy c) {
  if (c == StagedCopy::kPhase)
    return (const void *)tridi_thomas_pcr_staged<T, M, StagedLoad<StagedCopy::kPhase, L1>, GROW>;
  if (c == StagedCopy::kPipe)
    return (const void *)tridi_thomas_pcr_staged<T, M, StagedLoad<StagedCopy::kPipe, L1>, GROW>;
  return (const void *)tridi_thomas_pcr_staged<T, M, StagedLoad<StagedCopy::kVec, L1>, GROW>;
}

/* The instantiation for copy c (l1: some operand is shared across the
 * batch; the element-size copies take every operand through L1 anyway) */
template <typename T, int M, bool GROW>
const void *staged_kernel_m(StagedCopy c, bool l1) {
  if (c == StagedCopy::kElem)
    return (const void *)tridi_thomas_pcr_staged<T, M, StagedLoad<StagedCopy::kElem>, GROW>;
  return l1 ? staged_kernel_l1<T, M, GROW, true>(c) : staged_kernel_l1<T, M, GROW, false>(c);
}

/* grow: the instantiation with the growth detection */
template <bool GROW>
const void *staged_kernel_g(bool f64, int M, StagedCopy c, bool l1) {
  if (f64)
    return by_m<double>(M, [c, l1](auto m) { return staged_kernel_m<double, decltype(m)::value, GROW>(c, l1); });
  return by_m<float>(M, [c, l1](auto m) { return staged_kernel_m<float, decltype(m)::value, GROW>(c, l1); });
}

const void *staged_kernel(bool f64, bool grow, int M, StagedCopy c, bool l1 = false) {
  return grow ? staged_kernel_g<true>(f64, M, c, l1) : staged_kernel_g<false>(f64, M, c, l1);
}

size_t staged_smem(size_t es, bool grow, int G, int P, int LD, int nb = 1, bool ph = false) {
  return staged_hdr_bytes(nb, G, ph) +
         es * ((size_t)nb * 4 * G * LD + (size_t)6 * G * P + (size_t)red_slots(grow) * G);
}

} /* namespace */

/* Layouts whose neighbouring systems are not adjacent, while the table has
 * a staged row for n and its tile fits a block (512 threads, shared memory,
 * G n < 2^31): G systems fill the row's target block size. */
tridi_status plan_staged(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took) {
  *took = false;
  if (f.sysmajor || !f.tile) return TRIDI_SUCCESS;
  const tridi_layout *L = f.L;
  const int64_t n = f.n;
  const size_t es = f.es, smem_max = f.smem_max;
  const bool f64 = f.f64;
  StagedPlan *sp = &cp->staged;
  cudaError_t e;
  const int M = f.tile->m;
  const int64_t P = 1ll << ilog2((n + M - 1) / M);
  /* systems per block: fill the target thread count */
  int64_t G = f.tile->threads / P;
  if (G < 1) G = 1;
  if (G > L->nsys) G = 1ll << ilog2(L->nsys);
  while (G * P > kTileThreads && G > 1) G >>= 1;
  const int rows = (int)(P * M), PV = (int)(16 / es);
  /* padded(rows) + 16 bytes; f32: then up to a row pitch of 16 bytes past a
   * multiple of 128, so that the systems of a warp start in different
   * banks (f32 contig n = 32: 61% -> 72% of copy; the same rule cost f64
   * n = 32 90% -> 80% through the extra shared memory, so f64 keeps the
   * short pitch) */
  int LD = rows + (rows / (int)(128 / es)) * PV + PV;
  if (es == 4)
    while (((size_t)LD * es) % 128 != 16) LD += PV;
  while (G > 1 && staged_smem(es, f.grow, (int)G, (int)P, LD) > smem_max) G >>= 1;
  if (!(G * P <= kTileThreads && staged_smem(es, f.grow, (int)G, (int)P, LD) <= smem_max && G * n < (1ll << 31)))
    return TRIDI_SUCCESS;
  *took = true;
  sp->G = (int)G;
  sp->logG = ilog2(G);
  sp->logP = ilog2(P);
  sp->LD = LD;
  sp->threads = (int)(G * P);
  sp->smem = staged_smem(es, f.grow, (int)G, (int)P, LD);
  sp->ndiv = make_fastdiv((uint32_t)n);
  sp->func = staged_kernel(f64, f.grow, M, StagedCopy::kElem);
  sp->LD_main = LD;
  if (!sp->func) return tridi_set_error(TRIDI_ERR_INTERNAL, "tridi_plan_create: no kernel for M = %d", M);
  const int64_t blocks = (L->nsys + G - 1) / G;
  sp->grid = (unsigned)(blocks < 0x7fffffffll ? blocks : 0x7fffffffll);
  const char *variant = "";
  /* unit-stride rows at any offsets: 16-byte copies of each system's
   * aligned pieces, rows shifted by their phase in shared memory (also
   * the fallback of the 16-byte variant when a pointer is unaligned) */
  const size_t smem_plain = sp->smem;
  if (f.unit_rows && n >= (f64 ? TRIDI_CUDA_PH_MIN_N_F64 : TRIDI_CUDA_PH_MIN_N_F32)) {
    const int r = rows + 2 * PV;
    int LDp = r + (r / (int)(128 / es)) * PV + PV;
    if (es == 4)
      while (((size_t)LDp * es) % 128 != 16) LDp += PV;
    const size_t smem_ph = staged_smem(es, f.grow, (int)G, (int)P, LDp, 1, true);
    const void *fph = staged_kernel(f64, f.grow, M, StagedCopy::kPhase, cp->kp.reused);
    if (fph && smem_ph <= smem_max) {
      sp->func = fph;
      sp->LD_main = LDp;
      sp->smem = smem_ph;
      sp->ndiv = make_fastdiv((uint32_t)(n / PV + 2));
      variant = "_ph";
    }
  }
  if (f.vec_ok) {
    /* 16-byte copies; pipelined over a persistent grid (two tile buffers)
     * when the table row asks for it and the second buffer fits */
    sp->ndiv_vec = make_fastdiv((uint32_t)(n / PV));
    const size_t pipe_smem = staged_smem(es, f.grow, (int)G, (int)P, LD, 2);
    sp->smem_vec = smem_plain;
    sp->grid_vec = sp->grid;
    sp->func_vec = staged_kernel(f64, f.grow, M, StagedCopy::kVec, cp->kp.reused);
    variant = "_vec";
    if (f.tile->pipe && pipe_smem <= smem_max && blocks > 1) {
      const void *fp = staged_kernel(f64, f.grow, M, StagedCopy::kPipe, cp->kp.reused);
      e = allow_smem(fp, pipe_smem);
      int per_sm = 0;
      if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fp, sp->threads, pipe_smem);
      if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: occupancy of the pipelined kernel");
      if (per_sm >= 1) {
        const int64_t resident = (int64_t)per_sm * f.prop->multiProcessorCount;
        sp->func_vec = fp;
        sp->smem_vec = pipe_smem;
        sp->grid_vec = (unsigned)(blocks < resident ? blocks : resident);
        variant = "_pipe";
      }
    }
    e = allow_smem(sp->func_vec, sp->smem_vec);
    if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaFuncSetAttribute");
  }
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_staged%s_m%d_g%d_p%d_%s", variant, M,
           sp->G, 1 << sp->logP, f.tn);
  e = allow_smem(sp->func, sp->smem);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaFuncSetAttribute");
  return TRIDI_SUCCESS;
}

/* The 16-byte variant when every pointer is 16-byte aligned, else the
 * element-size (or phase-shifted) one */
cudaError_t launch_staged(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream) {
  const StagedPlan &sp = cp.staged;
  int G = sp.G, logG = sp.logG, logP = sp.logP, LD = sp.LD;
  bool vec = sp.func_vec != NULL;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if ((uintptr_t)args->op[k] % 16 != 0) vec = false;
  FastDiv nd = vec ? sp.ndiv_vec : sp.ndiv;
  if (!vec) LD = sp.LD_main;
  void *argv[] = {&kp, &G, &logG, &logP, &LD, &nd};
  if (vec) return cudaLaunchKernel(sp.func_vec, dim3(sp.grid_vec), dim3(sp.threads), argv, sp.smem_vec, stream);
  return cudaLaunchKernel(sp.func, dim3(sp.grid), dim3(sp.threads), argv, sp.smem, stream);
}

} /* namespace tridi_cuda */
