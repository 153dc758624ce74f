/* Streaming kernel of the Thomas-PCR row: any n, any layout, the fallback
 * when no other family takes the plan.  G = 2^logG systems a block (threads
 * of a warp spread over adjacent systems first), P threads a system, m rows
 * each: each thread sweeps its chunk twice to form the reduced rows, then
 * once more to solve, keeping the forward factors in shared memory or the
 * plan's workspace (gridDim.x * G * P * m elements).  Re-reads come from L2
 * at best: the slowest family. */
#include "../common/launch.h"
#include "chunk.cuh"
#include "plan.h"

#include <stdio.h>

namespace tridi_cuda {
namespace {

constexpr int kMaxThreads = 1024;

template <typename T, bool SMEM_FACTORS, bool GROW>
__global__ void __launch_bounds__(kMaxThreads)
    tridi_thomas_pcr_stream(KParams p, int logG, int P, int64_t m) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = 1 << logG;
  const int tid = threadIdx.x;
  int64_t *soff = (int64_t *)smem_raw;
  int *badrow = (int *)(soff + 5 * G);
  T *rs = (T *)(badrow + 2 * G);
  T *rp = rs + (size_t)2 * G * P;
  T *rq = rp + (size_t)2 * G * P;
  T *red = rq + (size_t)2 * G * P; /* GROW: [G][kRedSlots] growth maxima, [kKeepSlots][G P] (pcr_reduced) */

  const int g = tid & (G - 1);
  const int chunk = tid >> logG;
  const int64_t n = p.n;
  /* forward factors of phase 3: G P m values, in shared memory when they fit
   * (SMEM_FACTORS, no workspace), else in this block's slice of the workspace */
  T *wsb = SMEM_FACTORS ? red + grow_slots<GROW>(G, G * P) : (T *)p.ws + (size_t)blockIdx.x * G * P * m;

  for (int64_t sbase = (int64_t)blockIdx.x * G; sbase < p.nsys;
       sbase += (int64_t)gridDim.x * G) {
    tridi_dev_stage_offsets(p, sbase, G, tid, soff);
    if (tid < G) badrow[tid] = badrow[G + tid] = -1;
    if (GROW) {
      if (tid < G) badrow[tid] = kNoBad;
      for (int i = tid; i < kRedSlots * G; i += blockDim.x) red[i] = (T)0;
    }
    __syncthreads();
    const bool active = sbase + g < p.nsys;
    const int64_t row0 = (int64_t)chunk * m;
    const T *ops[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) ops[k] = (const T *)p.op[k] + soff[k * G + g];
    auto val = [&](int k, int64_t row) -> T {
      if (!active || row >= n) return identity_value<T>(k);
      if ((k == 0 && row == 0) || (k == 2 && row == n - 1)) return (T)0;
      const int64_t idx = row * p.as[k];
      return k < 3 ? __ldg(ops[k] + idx) : ops[k][idx];
    };

    /* 1a. forward sweep with u_0 as parameter -> reduced row L */
    T sL, pL, qL;
    T nonfin = 0; /* see the staged kernel */
    /* growth (chunk.cuh): rows 1 .. m-1 in 1a, row 0 and the backward
     * sweep's pivots in 1b; rows >= n are not the system's */
    T nmx = 0, dmx = 0, wL = 0;
    {
      FwdSweep<T> f;
      for (int64_t k = 1; k < m - 1; ++k) {
        const int64_t row = row0 + k;
        const T ak = val(0, row), bk = val(1, row), ck = val(2, row), dk = val(3, row);
        nonfin += ak * (T)0 + bk * (T)0 + ck * (T)0 + dk * (T)0;
        if (GROW && active && row < n) growth_row(ak, bk, ck, f.gmt, f.alt, nmx, dmx);
        f.step(ak, bk, ck, dk);
      }
      const int64_t row = row0 + m - 1;
      const T aL = val(0, row), bL = val(1, row), cL = val(2, row), dLv = val(3, row);
      nonfin += aL * (T)0 + bL * (T)0 + cL * (T)0 + dLv * (T)0;
      if (GROW) {
        const bool in = active && row < n;
        if (in) growth_row(aL, bL, cL, f.gmt, f.alt, nmx, dmx);
        wL = in ? fabs(bL - aL * f.gmt) : (T)0;
      }
      f.last(aL, bL, cL, dLv, sL, pL, qL);
    }
    /* 1b. backward sweep with u_{m-1} as parameter -> reduced row F */
    T sF, pF, qF;
    bool b0_zero;
    {
      T dlt = 0, blt = -1, gmt = 0;
      for (int64_t k = m - 2; k >= 1; --k) {
        const int64_t row = row0 + k;
        const T ak = val(0, row), bk = val(1, row), ck = val(2, row), dk = val(3, row);
        if (GROW && active && row < n) { /* the mirrored sweep's pivots (D counted in 1a) */
          T dummy = 0;
          growth_row(ck, bk, ak, gmt, blt, nmx, dummy);
        }
        const T r = rcp_<T>(bk - ck * gmt);
        gmt = r * ak;
        dlt = r * (dk - ck * dlt);
        blt = -r * ck * blt;
      }
      const T a0 = val(0, row0), b0 = val(1, row0), c0 = val(2, row0), d0 = val(3, row0);
      b0_zero = b0 == (T)0;
      nonfin += a0 * (T)0 + b0 * (T)0 + c0 * (T)0 + d0 * (T)0;
      if (GROW && active && row0 < n) growth_row(c0, b0, a0, gmt, blt, nmx, dmx);
      const T inv = rcp_<T>(b0 - c0 * gmt);
      sF = a0 * inv;
      pF = -c0 * blt * inv;
      qF = (d0 - c0 * dlt) * inv;
    }
    /* 2. reduced system: rows of system g are strided by G in the arrays */
    bool grown = false;
    if constexpr (GROW)
      grown = pcr_reduced<T, true>(rs, rp, rq, g, G, 2 * chunk, 2 * P, sF, pF, qF, sL, pL, qL, red + kRedSlots * g,
                                   red + kRedSlots * G + tid, G * P, wL, nmx, dmx, residual_tol<T>(n));
    else
      pcr_reduced<T>(rs, rp, rq, g, G, 2 * chunk, 2 * P, sF, pF, qF, sL, pL, qL);
    const T xF = qF, xL = qL;
    int my_bad = (active && ((chunk == 0 && b0_zero) || !finite_(nonfin)))
                     ? clamp_row(row0)
                     : -1;
    if (active && row0 < n && !finite_(xF)) my_bad = clamp_row(row0);
    if (active && row0 + m - 1 < n && !finite_(xL))
      my_bad = clamp_row(row0 + m - 1);
    finish_info<T, GROW>(p, sbase + g, active, chunk == 0, my_bad, &badrow[g], grown);

    /* 3. solve the chunk with both ends known: e_k -> x, gamma_k -> ws */
    if (active && row0 < n) {
      T *X = (T *)p.op[4] + soff[4 * G + g];
      const int64_t sx = p.as[4];
      const int64_t last = (row0 + m - 1 < n) ? m - 1 : n - row0; /* rows [row0, row0+last) interior */
      T e = xF, gmt = 0;
      for (int64_t k = 1; k < last; ++k) {
        const int64_t row = row0 + k;
        const T ak = val(0, row), bk = val(1, row), ck = val(2, row), dk = val(3, row);
        const T r = rcp_<T>(bk - ak * gmt);
        gmt = r * ck;
        e = r * (dk - ak * e);
        X[row * sx] = e;
        wsb[((size_t)k * P + chunk) * G + g] = gmt;
      }
      T u;
      if (row0 + m - 1 < n) {
        u = xL;
        X[(row0 + m - 1) * sx] = xL;
      } else {
        u = 0; /* rows past n are identity rows: x = 0, and c_{n-1} = 0 */
      }
      T ufin = 0; /* NaN when an interior x is not finite */
      for (int64_t k = last - 1; k >= 1; --k) {
        const int64_t row = row0 + k;
        u = X[row * sx] - wsb[((size_t)k * P + chunk) * G + g] * u;
        X[row * sx] = u;
        ufin += u * (T)0;
      }
      X[row0 * sx] = xF;
      if (!finite_(ufin)) atomicMax(&badrow[G + g], clamp_row(row0));
    }
    /* an interior x that overflowed in phase 3 (after info was written,
     * and in place d is gone): -(first row of the chunk + 1), as the
     * direct kernel reports it, unless info already holds a breakdown code */
    __syncthreads();
    if (p.info && chunk == 0 && active && badrow[G + g] >= 0 &&
        (p.info[sbase + g] == 0 || (GROW && p.info[sbase + g] == TRIDI_INFO_INACCURATE)))
      p.info[sbase + g] = -(badrow[G + g] + 1);
    __syncthreads();
  }
}

template <typename T, bool GROW>
const void *pick_stream(bool smem_factors) {
  return smem_factors ? (const void *)tridi_thomas_pcr_stream<T, true, GROW>
                      : (const void *)tridi_thomas_pcr_stream<T, false, GROW>;
}

const void *stream_kernel(bool f64, bool grow, bool smem_factors) {
  if (f64) return grow ? pick_stream<double, true>(smem_factors) : pick_stream<double, false>(smem_factors);
  return grow ? pick_stream<float, true>(smem_factors) : pick_stream<float, false>(smem_factors);
}

} /* namespace */

/* Takes every plan: adjacent systems across a warp when they are adjacent
 * in memory, else one system a block; as many chunks as 1024 threads hold;
 * a grid of the blocks resident at once. */
tridi_status plan_streaming(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took) {
  *took = true;
  const tridi_layout *L = f.L;
  const int64_t n = f.n;
  const size_t es = f.es;
  StreamPlan *sp = &cp->stream;
  int64_t G = f.sysmajor ? (int64_t)(32 / es) : 1;
  if (G > L->nsys) G = 1ll << ilog2(L->nsys);
  if (G > L->nsys) G >>= 1;
  if (G < 1) G = 1;
  int64_t P = kMaxThreads / G;
  while (P > 1 && (n + P - 1) / P < 2) P >>= 1;
  int64_t m = (n + P - 1) / P;
  if (m < 2) m = 2;
  sp->logG = ilog2(G);
  sp->P = (int)P;
  sp->m = m;
  sp->threads = (int)(G * P);
  sp->smem = (size_t)G * (5 * 8 + 8) + es * ((size_t)6 * G * P + grow_slots(f.grow, (int)G, (int)(G * P)));
  const size_t factors = es * (size_t)G * P * m;
  const bool smem_factors = sp->smem + factors <= f.smem_max;
  if (smem_factors) sp->smem += factors;
  sp->func = stream_kernel(f.f64, f.grow, smem_factors);
  cudaError_t e = allow_smem(sp->func, sp->smem);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaFuncSetAttribute");
  int per_sm = 0;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sp->func, sp->threads, sp->smem);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (per_sm < 1) per_sm = 1;
  int64_t blocks = (L->nsys + G - 1) / G;
  const int64_t resident = (int64_t)per_sm * f.prop->multiProcessorCount;
  if (blocks > resident) blocks = resident;
  sp->grid = (unsigned)blocks;
  plan->ws_bytes = smem_factors ? 0 : (size_t)blocks * G * P * m * es;
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_thomas_pcr_stream%s_g%d_p%d_m%lld_%s",
           smem_factors ? "" : "_ws", (int)G, sp->P, (long long)m, f.tn);
  return TRIDI_SUCCESS;
}

cudaError_t launch_streaming(const CudaPlan &cp, KParams &kp, const tridi_args *, cudaStream_t stream) {
  const StreamPlan &sp = cp.stream;
  int logG = sp.logG, P = sp.P;
  int64_t m = sp.m;
  void *argv[] = {&kp, &logG, &P, &m};
  return cudaLaunchKernel(sp.func, dim3(sp.grid), dim3(sp.threads), argv, sp.smem, stream);
}

} /* namespace tridi_cuda */
