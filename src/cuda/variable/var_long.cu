/* Systems of a variable-size batch longer than the tile kernels take: the
 * reference Thomas recurrences (src/ref/ref_thomas.c: same operations, same
 * checks, same info codes), one thread a system, all long systems of the
 * batch in one launch.  c' goes to the plan's workspace and d' to x (x may
 * be d: each d_i is read before x_i is written), so these systems move 9
 * words an unknown instead of 5; the systems are sorted by length at plan
 * time so that the threads of a warp end together.  Long systems are the
 * tail of the batches this kind serves (a few long dendrites among many
 * short ones); a batch of only long systems is better served by the scalar
 * kind's long-system kernels. */
#include "var_kernels.cuh"

namespace tridi_cuda {

template <typename T>
__global__ void __launch_bounds__(128) var_long_kernel(VarParams p, VarLong lg) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= lg.count) return;
  const int64_t s = lg.sys[t], first = lg.first[t], n = lg.n[t], st = lg.stride;
  const T *A = (const T *)p.op[0] + first, *B = (const T *)p.op[1] + first;
  const T *C = (const T *)p.op[2] + first, *D = (const T *)p.op[3] + first;
  T *X = (T *)p.op[4] + first;
  T *W = (T *)lg.ws + lg.ws_off[t];
  int32_t code = 0;
  T cp = 0, dp = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T ai = i > 0 ? __ldg(A + i * st) : (T)0;
    const T bi = __ldg(B + i * st);
    const T ci = i < n - 1 ? __ldg(C + i * st) : (T)0;
    const T di = D[i * st];
    if (!finite_(ai) || !finite_(bi) || !finite_(ci) || !finite_(di)) {
      code = (int32_t)(-(i + 1));
      break;
    }
    const T m = bi - ai * cp;
    if (m == (T)0) {
      code = (int32_t)(i + 1);
      break;
    }
    const T r = (T)1 / m;
    cp = ci * r;
    dp = (di - ai * dp) * r;
    if (!finite_(cp) || !finite_(dp) || !finite_(r)) {
      code = (int32_t)(-(i + 1));
      break;
    }
    W[i] = cp;
    X[i * st] = dp;
  }
  if (code == 0) {
    T xn = X[(n - 1) * st];
    for (int64_t i = n - 2; i >= 0; --i) {
      xn = X[i * st] - W[i] * xn;
      if (!finite_(xn)) {
        code = (int32_t)(-(i + 1));
        break;
      }
      X[i * st] = xn;
    }
  }
  if (p.info) p.info[s] = code;
}

cudaError_t var_long_launch(bool f32, const VarParams &p, const VarLong &lg, cudaStream_t stream) {
  const unsigned blocks = (unsigned)((lg.count + 127) / 128);
  if (f32)
    var_long_kernel<float><<<blocks, 128, 0, stream>>>(p, lg);
  else
    var_long_kernel<double><<<blocks, 128, 0, stream>>>(p, lg);
  return cudaGetLastError();
}

} /* namespace tridi_cuda */
