/* The streamed tile of cuda_lu_partial (lu_stream.cu): what one thread does
 * between the block's barriers, host-compatible so that it can be checked
 * on the CPU.  A block holds G systems; their rows arrive in chunks of
 * kStreamRows rows (two staging buffers, [row][operand][system], pitch
 * P = 4G + 1) while the G eliminating threads work on the previous chunk,
 * and only the factors stay on chip: row r of U over u_r (du', du2', y')
 * at F[r Q + j G + g], Q = 3G + 1 (j = 0, 1, 2; x replaces y').  Three
 * words a row instead of the tile's four: a third more systems resident,
 * and the copies overlap the elimination. */
#ifndef TRIDI_CUDA_PIVOT_LU_STREAM_CUH
#define TRIDI_CUDA_PIVOT_LU_STREAM_CUH

#include "lu.cuh"

namespace tridi_cuda {

constexpr int kStreamLogRows = 5;
constexpr int kStreamRows = 1 << kStreamLogRows;

/* The elimination's state between rows: row k as updated so far */
template <typename T>
struct StreamState {
  T dk, uk, rk;
  int fail; /* a check failed: the system goes to lu_system */
};

/* Row 0 from the first chunk (S: the buffer's column of the system) */
template <typename T>
__host__ __device__ __forceinline__ void stream_row0(StreamState<T> &st, const T *S, int G, int64_t n) {
  st.dk = S[G];
  st.uk = n > 1 ? S[2 * G] : (T)0;
  st.rk = S[3 * G];
  st.fail = !lu_finite(st.dk) || !lu_finite(st.uk) || !lu_finite(st.rk);
}

/* The steps that consume the chunk's local rows lr0 .. lr1 - 1 (global row
 * base + lr), lu_system_fast's operations; F: the factor column of the
 * system. */
template <typename T>
__host__ __device__ __forceinline__ void stream_steps(StreamState<T> &st, const T *S, int P, int G, int64_t base,
                                                      int lr0, int lr1, int64_t n, T *F, int Q) {
  if (st.fail || lr0 >= lr1) return;
  T dk = st.dk, uk = st.uk, rk = st.rk;
  const T *rp = S + (int64_t)lr0 * P;
  T al = rp[0], bl = rp[G], cl = base + lr0 < n - 1 ? rp[2 * G] : (T)0, dl = rp[3 * G];
  for (int lr = lr0; lr < lr1; ++lr) {
    const int64_t row = base + lr; /* row k + 1 */
    T an = (T)0, bn = (T)0, cn = (T)0, dn = (T)0;
    if (lr + 1 < lr1) {
      const T *np = S + (int64_t)(lr + 1) * P;
      an = np[0];
      bn = np[G];
      cn = row + 1 < n - 1 ? np[2 * G] : (T)0;
      dn = np[3 * G];
    }
    if (!lu_finite(al) || !lu_finite(bl) || !lu_finite(cl) || !lu_finite(dl)) {
      st.fail = 1;
      return;
    }
    const bool sw = !(fabs(dk) >= fabs(al));
    const T piv = sw ? al : dk;
    const T r = lu_rcp(piv);
    if (!lu_finite(r)) {
      st.fail = 1;
      return;
    }
    const T f = (sw ? dk : al) * r;
    const T U = sw ? bl : uk, U2 = sw ? cl : (T)0, Y = sw ? dl : rk;
    T *fr = F + (row - 1) * Q;
    fr[0] = U * r;
    fr[G] = U2 * r;
    fr[2 * G] = Y * r;
    const T nd = (sw ? uk : bl) - f * U;
    const T nu = (sw ? (T)0 : cl) - f * U2;
    const T nr = (sw ? rk : dl) - f * Y;
    if (!lu_finite(nd) || !lu_finite(nr)) {
      st.fail = 1;
      return;
    }
    dk = nd;
    uk = nu;
    rk = nr;
    al = an;
    bl = bn;
    cl = cn;
    dl = dn;
  }
  st.dk = dk;
  st.uk = uk;
  st.rk = rk;
}

/* The last pivot and the back substitution; x replaces y' in F.  0 when
 * solved, else the system goes to lu_system. */
template <typename T>
__host__ __device__ __forceinline__ int stream_back(const StreamState<T> &st, int64_t n, T *F, int Q, int G) {
  if (st.fail) return 1;
  const T r = lu_rcp(st.dk);
  if (!lu_finite(r)) return 1;
  T xb = st.rk * r;
  if (!lu_finite(xb)) return 1;
  F[(n - 1) * Q + 2 * G] = xb;
  if (n == 1) return 0;
  T *f2 = F + (n - 2) * Q;
  T xa = f2[2 * G] - f2[0] * xb;
  if (!lu_finite(xa)) return 1;
  T yi = (T)0, ui = (T)0, u2i = (T)0;
  if (n > 2) {
    const T *f3 = F + (n - 3) * Q;
    yi = f3[2 * G];
    ui = f3[0];
    u2i = f3[G];
  }
  f2[2 * G] = xa;
  for (int64_t i = n - 3; i >= 0; --i) {
    const T xi = yi - ui * xa - u2i * xb;
    if (i > 0) {
      const T *fp = F + (i - 1) * Q;
      yi = fp[2 * G];
      ui = fp[0];
      u2i = fp[G];
    }
    if (!lu_finite(xi)) return 1;
    F[i * Q + 2 * G] = xi;
    xb = xa;
    xa = xi;
  }
  return 0;
}

/* lu_system's rows for a system the streamed form did not solve: inputs
 * from global memory, u, du, du2 in the system's factor column, y and x
 * in x (x may be d: d_{k+1} is read before y_k is stored). */
template <typename T>
struct FactorRows {
  const T *A, *B, *C, *D;
  T *X;
  int64_t sa, sb, sc, sd, sx;
  T *F;
  int Q, G;
  __host__ __device__ T a(int64_t i) const { return A[i * sa]; }
  __host__ __device__ T b(int64_t i) const { return B[i * sb]; }
  __host__ __device__ T c(int64_t i) const { return C[i * sc]; }
  __host__ __device__ T d(int64_t i) const { return D[i * sd]; }
  __host__ __device__ void put(int64_t k, T u, T du, T du2, T y) {
    T *f = F + k * Q;
    f[0] = u;
    f[G] = du;
    f[2 * G] = du2;
    X[k * sx] = y;
  }
  __host__ __device__ void put_last(int64_t k, T u) { F[k * Q] = u; }
  __host__ __device__ void ahead(int64_t) const {} /* the rare re-solve: no prefetch */
  __host__ __device__ T u(int64_t i) const { return F[i * Q]; }
  __host__ __device__ T du(int64_t i) const { return F[i * Q + G]; }
  __host__ __device__ T du2(int64_t i) const { return F[i * Q + 2 * G]; }
  __host__ __device__ T y(int64_t i) const { return X[i * sx]; }
  __host__ __device__ void x(int64_t i, T v) { X[i * sx] = v; }
};

/* Shared memory of a streamed block: offsets and flags, two staging
 * buffers, the factors */
__host__ __device__ inline size_t stream_head_bytes(int G) {
  return ((size_t)5 * G * sizeof(int64_t) + (size_t)G * sizeof(int) + 15) & ~(size_t)15;
}
inline size_t stream_smem_bytes(int G, int64_t n, size_t es) {
  return stream_head_bytes(G) + (size_t)2 * kStreamRows * (4 * G + 1) * es + (size_t)n * (3 * G + 1) * es;
}

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_PIVOT_LU_STREAM_CUH */
