/* cuda_lu_partial's streamed tile (lu_stream.cuh): for n where the plain
 * tile (lu_scalar.cu) keeps few systems resident.  A block of kTileBlock
 * threads takes G systems; chunk q + 1 of their rows is copied
 * (cp.async, coalesced as in the plain tile) while the G eliminating
 * threads work through chunk q; the factors (3 words a row) stay in shared
 * memory for the back substitution; x is stored from there.  A system the
 * fast form does not solve is solved by its thread with lu_system from
 * global memory (exact codes), its x written directly. */
#include "lu_stream.cuh"

namespace tridi_cuda {
namespace {

template <typename T>
__device__ __forceinline__ void copy_chunk(const LuParams &p, int q, const int64_t *so, const int *flag, T *S) {
  const int G = p.G, logG = p.logG, P = p.P;
  const int t = threadIdx.x, nt = blockDim.x;
  const int64_t n = p.n, base = (int64_t)q * kStreamRows;
  T *buf = S + (size_t)(q & 1) * kStreamRows * P;
#pragma unroll 1
  for (int k = 0; k < 4; ++k) {
    const T *src = (const T *)p.op[k];
    const int64_t as = p.as[k];
    const bool rf = (p.rowsfast >> k) & 1;
    for (int e = t; e < kStreamRows * G; e += nt) {
      int r, g;
      if (rf) {
        r = e & (kStreamRows - 1);
        g = e >> kStreamLogRows;
      } else {
        r = e >> logG;
        g = e & (G - 1);
      }
      const int64_t row = base + r;
      if (row >= n || !flag[g] || (k == 0 && row == 0) || (k == 2 && row == n - 1)) continue;
      cp_async_elem(&buf[(size_t)r * P + k * G + g], src + so[k * G + g] + row * as);
    }
  }
}

template <typename T>
__global__ void __launch_bounds__(128) lu_stream(LuParams p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int G = p.G, P = p.P, Q = 3 * p.G + 1;
  int64_t *so = (int64_t *)smem_raw;
  int *flag = (int *)(so + 5 * G); /* 1: solve here; 2: x stored by the fallback */
  T *S = (T *)(smem_raw + stream_head_bytes(G));
  T *F = S + (size_t)2 * kStreamRows * P;
  const int t = threadIdx.x;
  const int64_t n = p.n, s0 = (int64_t)blockIdx.x * G;
  tridi_dev_stage_offsets(p, s0, G, t, so);
  if (t < G) flag[t] = s0 + t < p.nsys;
  __syncthreads();
  const int nchunks = (int)((n + kStreamRows - 1) >> kStreamLogRows);
  copy_chunk<T>(p, 0, so, flag, S);
  cp_async_commit();
  StreamState<T> st;
  st.dk = st.uk = st.rk = (T)0;
  st.fail = 0;
  for (int q = 0; q < nchunks; ++q) {
    if (q + 1 < nchunks) copy_chunk<T>(p, q + 1, so, flag, S);
    cp_async_commit(); /* one group an iteration, empty or not */
    cp_async_wait_prev(); /* chunk q has landed (this thread's copies) */
    __syncthreads();      /* ... and every thread's */
    if (t < G && flag[t]) {
      const T *Sb = S + (size_t)(q & 1) * kStreamRows * P + t;
      const int64_t base = (int64_t)q * kStreamRows;
      const int lr1 = n - base < kStreamRows ? (int)(n - base) : kStreamRows;
      if (q == 0) stream_row0<T>(st, Sb, G, n);
      stream_steps<T>(st, Sb, P, G, base, q == 0 ? 1 : 0, lr1, n, F + t, Q);
    }
    __syncthreads(); /* buffer q & 1 is free for chunk q + 2 */
  }
  if (t < G && flag[t]) {
    int32_t code = 0;
    if (stream_back<T>(st, n, F + t, Q, G) != 0) {
      FactorRows<T> m;
      m.A = (const T *)p.op[0] + so[t];
      m.B = (const T *)p.op[1] + so[G + t];
      m.C = (const T *)p.op[2] + so[2 * G + t];
      m.D = (const T *)p.op[3] + so[3 * G + t];
      m.X = (T *)p.op[4] + so[4 * G + t];
      m.sa = p.as[0];
      m.sb = p.as[1];
      m.sc = p.as[2];
      m.sd = p.as[3];
      m.sx = p.as[4];
      m.F = F + t;
      m.Q = Q;
      m.G = G;
      code = lu_system<T>(n, m);
      flag[t] = 2;
    }
    if (p.info) p.info[s0 + t] = code;
  }
  __syncthreads();
  T *X = (T *)p.op[4];
  const int64_t xs = p.as[4];
  const bool rf = (p.rowsfast >> 4) & 1;
  const uint32_t total = (uint32_t)n * (uint32_t)G;
  for (uint32_t e = t; e < total; e += blockDim.x) {
    uint32_t r, g;
    if (rf) {
      g = fdiv(e, p.ndiv);
      r = e - g * (uint32_t)n;
    } else {
      r = e >> p.logG;
      g = e & (G - 1);
    }
    if (flag[g] == 1) X[so[4 * G + g] + (int64_t)r * xs] = F[(size_t)r * Q + 2 * G + g];
  }
}

} /* namespace */

const void *lu_stream_kernel(bool f64) {
  return f64 ? (const void *)lu_stream<double> : (const void *)lu_stream<float>;
}

cudaError_t lu_stream_launch(bool f64, unsigned grid, int threads, size_t smem, const LuParams &p,
                             cudaStream_t stream) {
  if (f64)
    lu_stream<double><<<grid, threads, smem, stream>>>(p);
  else
    lu_stream<float><<<grid, threads, smem, stream>>>(p);
  return cudaGetLastError();
}

} /* namespace tridi_cuda */
