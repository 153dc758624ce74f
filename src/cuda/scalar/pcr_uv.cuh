/* PCR on a block's reduced rows with the block's first and last unknowns
 * left as two parameters: the scalar cluster kernel
 * (src/cuda/scalar/cluster.cu) and the variable kind's segments of long
 * systems (src/cuda/variable/var_segments.cu), with the thread-block
 * cluster primitives of common/cluster.cuh.  Device code, C++ only. */
#ifndef TRIDI_CUDA_PCR_UV_CUH
#define TRIDI_CUDA_PCR_UV_CUH

#include "chunk.cuh"
#include "common/cluster.cuh"

namespace tridi_cuda {

/* The 2P reduced rows of a block with two parameter columns (the cluster
 * kernel, src/cuda/scalar/cluster.cu, and the variable kind's segments of
 * long systems, src/cuda/variable/var_segments.cu): row i is
 * s x_{i-1} + x_i + p x_{i+1} = q + u F + v L (arrays strided by `stride`
 * from `base`; this thread owns rows li, li + 1).  Solved as pcr_reduced
 * does (one odd-even reduction step, PCR on the P odd rows with alternating
 * array halves, back substitution for the even rows; docs/perf-log.md CUDA
 * v24), with (q, u, v) as the right-hand side.  On return q, u, v hold
 * x = q + u F + v L of both rows.  Every thread of the block must call it. */
template <typename T>
__device__ __forceinline__ void pcr_reduced_uv(T *rs, T *rp, T *rq, T *ru, T *rv, int base,
                                               int stride, int li, int R, T (&s)[2], T (&pp)[2],
                                               T (&q)[2], T (&u)[2], T (&v)[2]) {
  const int c = li >> 1, P = R >> 1;
  const int half = P * stride;
  /* 1. the first rows, for the left neighbour */
  int o = base + c * stride;
  rs[o] = s[0];
  rp[o] = pp[0];
  rq[o] = q[0];
  ru[o] = u[0];
  rv[o] = v[0];
  __syncthreads();
  T sn = 0, pn = 0, qn = 0, un = 0, vn = 0;
  if (c + 1 < P) {
    sn = rs[o + stride];
    pn = rp[o + stride];
    qn = rq[o + stride];
    un = ru[o + stride];
    vn = rv[o + stride];
  }
  /* 2. last row with the own and the next first row eliminated */
  T ys, yp, yq, yu, yv;
  {
    const T r = rcp_<T>((T)1 - s[1] * pp[0] - pp[1] * sn);
    ys = -r * s[1] * s[0];
    yp = -r * pp[1] * pn;
    yq = r * (q[1] - s[1] * q[0] - pp[1] * qn);
    yu = r * (u[1] - s[1] * u[0] - pp[1] * un);
    yv = r * (v[1] - s[1] * v[0] - pp[1] * vn);
  }
  /* 3. PCR on the P last rows, alternating halves */
  int cur = half;
  for (int h = 1; h < P; h <<= 1) {
    o = base + cur + c * stride;
    rs[o] = ys;
    rp[o] = yp;
    rq[o] = yq;
    ru[o] = yu;
    rv[o] = yv;
    __syncthreads();
    T sm = 0, pm = 0, qm = 0, um = 0, vm = 0, sp = 0, pq = 0, qp = 0, up = 0, vp = 0;
    if (c - h >= 0) {
      const int oo = o - h * stride;
      sm = rs[oo];
      pm = rp[oo];
      qm = rq[oo];
      um = ru[oo];
      vm = rv[oo];
    }
    if (c + h < P) {
      const int oo = o + h * stride;
      sp = rs[oo];
      pq = rp[oo];
      qp = rq[oo];
      up = ru[oo];
      vp = rv[oo];
    }
    const T r = rcp_<T>((T)1 - ys * pm - yp * sp);
    yq = r * (yq - ys * qm - yp * qp);
    yu = r * (yu - ys * um - yp * up);
    yv = r * (yv - ys * vm - yp * vp);
    ys = -r * ys * sm;
    yp = -r * yp * pq;
    cur = half - cur;
  }
  /* 4. first rows from the own and the previous last unknowns */
  o = base + cur + c * stride;
  rq[o] = yq;
  ru[o] = yu;
  rv[o] = yv;
  __syncthreads();
  T pq0 = 0, pu0 = 0, pv0 = 0;
  if (c > 0) {
    pq0 = rq[o - stride];
    pu0 = ru[o - stride];
    pv0 = rv[o - stride];
  }
  q[0] = q[0] - s[0] * pq0 - pp[0] * yq;
  u[0] = u[0] - s[0] * pu0 - pp[0] * yu;
  v[0] = v[0] - s[0] * pv0 - pp[0] * yv;
  q[1] = yq;
  u[1] = yu;
  v[1] = yv;
  s[0] = s[1] = pp[0] = pp[1] = (T)0;
}

/* One tridiagonal system of R2 rows (a power of two, at most 32) solved by
 * PCR through warp shuffles, one row a lane: this lane holds row j,
 * lo x_{j-1} + di x_j + up x_{j+1} = rh (lo of row 0 and up of row R2 - 1
 * are ignored); the system's lanes are consecutive within groups of width
 * lanes (width = R2 where several systems share a warp, 32 for one).
 * Returns x_j.  Every lane of the warp must call it (the join of the
 * cluster kernel and of the variable kind's segment clusters). */
template <typename T>
__device__ __forceinline__ T warp_pcr(T lo, T di, T up, T rh, int j, int R2, int width) {
  if (j == 0) lo = 0;
  if (j == R2 - 1) up = 0;
  const T r0 = rcp_<T>(di);
  T sj = lo * r0, pj = up * r0, qj = rh * r0;
  for (int h = 1; h < R2; h <<= 1) {
    const T sm = __shfl_up_sync(0xffffffffu, sj, h, width),
            pm = __shfl_up_sync(0xffffffffu, pj, h, width),
            qm = __shfl_up_sync(0xffffffffu, qj, h, width);
    const T sp = __shfl_down_sync(0xffffffffu, sj, h, width),
            pq = __shfl_down_sync(0xffffffffu, pj, h, width),
            qp = __shfl_down_sync(0xffffffffu, qj, h, width);
    const bool hm = j >= h, hp = j + h < R2;
    const T smv = hm ? sm : (T)0, pmv = hm ? pm : (T)0, qmv = hm ? qm : (T)0;
    const T spv = hp ? sp : (T)0, pqv = hp ? pq : (T)0, qpv = hp ? qp : (T)0;
    const T r = rcp_<T>((T)1 - sj * pmv - pj * spv);
    qj = r * (qj - sj * qmv - pj * qpv);
    const T ns = -r * sj * smv;
    pj = -r * pj * pqv;
    sj = ns;
  }
  return qj;
}

} /* namespace tridi_cuda */

#endif
