/* Systems of a variable-size batch longer than the tile kernels take
 * (INTERLEAVED; PACKED: only those the segments of var_segments.cu could
 * not solve, and the info of every one): the reference Thomas recurrences
 * (src/ref/ref_thomas.c: same operations, same checks, same info codes,
 * the same growth flag), one thread a system, all long systems of the
 * batch in one launch.  c' goes to the plan's workspace and d' to x (x may
 * be d: each d_i is read before x_i is written), so these systems move 9
 * words an unknown instead of 5; the systems are sorted by length at plan
 * time so that the threads of a warp end together.  Long systems are the
 * tail of the batches this kind serves (a few long dendrites among many
 * short ones); a batch of only long systems is better served by the scalar
 * kind's long-system kernels. */
#include "var_kernels.cuh"

namespace tridi_cuda {

template <typename T, bool GROW>
__global__ void __launch_bounds__(128) var_long_kernel(VarParams p, VarLong lg) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= lg.count) return;
  const int64_t s = lg.sys[t], first = lg.first[t], n = lg.n[t], st = lg.stride;
  if (lg.sysbad && !lg.sysbad[t]) {
    /* solved by the segments (var_segments.cu): info from their status,
     * the first row with x not finite, else TRIDI_INFO_INACCURATE if any
     * segment's residual check failed */
    if (p.info) {
      const int S = var_seg_count(n, var_seg_phase<T>(p, first), lg.cap);
      int32_t code = 0;
      for (int k = 0; k < S && code >= 0; ++k) {
        const int32_t c = lg.segst[lg.seg0[t] + k];
        code = c < 0 || code == 0 ? c : code;
      }
      p.info[s] = code;
    }
    return;
  }
  const T *A = (const T *)p.op[0] + first, *B = (const T *)p.op[1] + first;
  const T *C = (const T *)p.op[2] + first, *D = (const T *)p.op[3] + first;
  T *X = (T *)p.op[4] + first;
  T *W = (T *)lg.ws + lg.ws_off[t];
  /* rows in blocks of U whose loads are all issued before the block's
   * recurrences: one memory latency a block instead of one a row */
  constexpr int U = 8;
  int32_t code = 0;
  T cp = 0, dp = 0, nmax = 0, dmax = 0;
  for (int64_t i0 = 0; i0 < n && code == 0; i0 += U) {
    T a[U], b[U], c[U], d[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int64_t i = i0 + u;
      const bool in = i < n;
      a[u] = in && i > 0 ? __ldg(A + i * st) : (T)0;
      b[u] = in ? __ldg(B + i * st) : (T)1;
      c[u] = in && i < n - 1 ? __ldg(C + i * st) : (T)0;
      d[u] = in ? D[i * st] : (T)0;
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int64_t i = i0 + u;
      if (i >= n || code != 0) break;
      if (!finite_(a[u]) || !finite_(b[u]) || !finite_(c[u]) || !finite_(d[u])) {
        code = (int32_t)(-(i + 1));
        break;
      }
      const T acp = GROW ? a[u] * cp : (T)0;
      const T m = GROW ? b[u] - acp : b[u] - a[u] * cp;
      if (m == (T)0) {
        code = (int32_t)(i + 1);
        break;
      }
      if (GROW) var_growth_row<T>(a[u], b[u], c[u], acp, m, nmax, dmax);
      const T r = (T)1 / m;
      cp = c[u] * r;
      dp = (d[u] - a[u] * dp) * r;
      if (!finite_(cp) || !finite_(dp) || !finite_(r)) {
        code = (int32_t)(-(i + 1));
        break;
      }
      W[i] = cp;
      X[i * st] = dp;
    }
  }
  if (code == 0) {
    T xn = X[(n - 1) * st];
    for (int64_t i1 = n - 1; i1 > 0 && code == 0; i1 -= U) { /* rows i1 - U .. i1 - 1 */
      T w[U], xv[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t i = i1 - 1 - u;
        w[u] = i >= 0 ? W[i] : (T)0;
        xv[u] = i >= 0 ? X[i * st] : (T)0;
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t i = i1 - 1 - u;
        if (i < 0) break;
        xn = xv[u] - w[u] * xn;
        if (!finite_(xn)) {
          code = (int32_t)(-(i + 1));
          break;
        }
        X[i * st] = xn;
      }
    }
  }
  if (GROW && code == 0 && nmax > (T)TRIDI_GROWTH_LIMIT * dmax) code = TRIDI_INFO_INACCURATE;
  if (p.info) p.info[s] = code;
}

cudaError_t var_long_launch(bool f32, bool grow, const VarParams &p, const VarLong &lg, cudaStream_t stream) {
  const unsigned blocks = (unsigned)((lg.count + 127) / 128);
  if (f32) {
    if (grow) var_long_kernel<float, true><<<blocks, 128, 0, stream>>>(p, lg);
    else var_long_kernel<float, false><<<blocks, 128, 0, stream>>>(p, lg);
  } else {
    if (grow) var_long_kernel<double, true><<<blocks, 128, 0, stream>>>(p, lg);
    else var_long_kernel<double, false><<<blocks, 128, 0, stream>>>(p, lg);
  }
  return cudaGetLastError();
}

} /* namespace tridi_cuda */
