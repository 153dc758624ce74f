/* One pass of the multi-pass Stockham FFT (paper 004, sections 2-3): a
 * block loads a tile of TILE complex elements from global memory, G = TILE/R
 * groups of R points each, runs the R-point DFT of every group in shared
 * memory (radix-4 steps, one radix-2 step last where log2 R is odd), and
 * writes the tile back with the Stockham permutation.
 *
 * The pass is step (R, Ns) of the decimation-in-time Stockham FFT of length
 * N (Ns: the product of the radices of the passes before): for the group
 * (transform b, j), j < N/R,
 *
 *   v[r] = src[b][j + r N/R] * w_{Ns R}^(r (j mod Ns)),   r < R,
 *   V    = DFT_R(v)  (natural order),
 *   dst[b][(j / Ns) Ns R + (j mod Ns) + k Ns] = V[k],     k < R,
 *
 * with w_M = exp(sign 2 pi i / M).  Groups are numbered g = b N/R + j over
 * the batch and a block takes G consecutive ones.  The index-digit mapping
 * puts the digits that are contiguous in global memory on the lowest thread
 * bits: on load j (when N/R >= G) or j then r (one transform's whole run,
 * when N/R < G); on store j (when Ns >= G) or (j mod Ns, k) (Ns < G).  The
 * planner (fft_cuda.cu) keeps G >= 8 (c32) / 4 (c64) in every pass of a
 * multi-pass plan, so each run is at least 64 bytes.  Shared memory holds
 * element r of group gl at slot(r, gl) (row-major, swizzled), followed by
 * the R/2 twiddles w_R^k of the inner steps (one sincospi per entry, at the
 * block's start).  The pass twiddles w_{Ns R}^e are sincospi of an exact
 * binary fraction, one per element (accurate to an ulp or two). */
#ifndef TRIDI_CUDA_FFT_STOCKHAM_CUH
#define TRIDI_CUDA_FFT_STOCKHAM_CUH

#include <cuda_runtime.h>
#include <stdint.h>

namespace tridi_fft {

template <class T>
struct cplx;
template <>
struct cplx<float> {
  typedef float2 type;
};
template <>
struct cplx<double> {
  typedef double2 type;
};

/* Arguments of one pass (element units; src and dst are never the same
 * array within a pass, except a one-pass plan executed in place). */
struct pass_args {
  const void *src;
  void *dst;
  int64_t s_stride, s_dist, d_stride, d_dist;
  int64_t total; /* groups: batch * N / R */
  int log_nr;    /* log2(N / R) */
  int log_r;     /* log2 R */
  int log_ns;    /* log2 Ns */
  int sign;      /* -1 forward, +1 inverse */
  /* stockham_reg (stockham_reg.cuh) only: */
  int log_g;             /* log2 G, the groups a block */
  int conj_in, conj_out; /* conjugate on load / store (an inverse plan's first and last pass) */
  int log_rmax;          /* tw: w_Rmax^e, e < Rmax = 2^log_rmax, forward */
  const void *tw;
  int nomath; /* measurement builds only: skip the arithmetic (the data movement alone) */
};

__device__ __forceinline__ void sincospi_(float x, float *s, float *c) {
  sincospif(x, s, c);
}
__device__ __forceinline__ void sincospi_(double x, double *s, double *c) {
  sincospi(x, s, c);
}

/* w_M^e = exp(sign 2 pi i e / M), M = 2^log_m (e reduced mod M); the
 * argument in T where it is exact, else in double */
template <class T>
__device__ __forceinline__ typename cplx<T>::type twiddle(int64_t e, int log_m, int sign) {
  e &= ((int64_t)1 << log_m) - 1;
  T s, c;
  if (sizeof(T) == 8 || log_m <= 24) {
    sincospi_(ldexp((T)e, 1 - log_m), &s, &c);
  } else {
    double sd, cd;
    sincospi(ldexp((double)e, 1 - log_m), &sd, &cd);
    s = (T)sd, c = (T)cd;
  }
  typename cplx<T>::type w;
  w.x = c;
  w.y = sign < 0 ? -s : s;
  return w;
}

/* Shared-memory slot of element `row` of group gl: row-major rows of G
 * groups, the group index XOR-ed with the row's low bits so that
 * row-fastest accesses (one transform's run on load and store) fall into
 * distinct banks as well as group-fastest ones. */
__device__ __forceinline__ int slot(int row, int gl, int G) {
  return row * G + (gl ^ (row & (G - 1)));
}

/* w_R^e, 0 <= e < R, from the table of the first R/2 */
template <class C>
__device__ __forceinline__ C table_w(const C *tw, int e, int R) {
  const int h = R >> 1;
  if (e < h) return tw[e];
  C w = tw[e - h];
  w.x = -w.x;
  w.y = -w.y;
  return w;
}

template <class C>
__device__ __forceinline__ C cmul(C a, C b) {
  C r;
  r.x = a.x * b.x - a.y * b.y;
  r.y = a.x * b.y + a.y * b.x;
  return r;
}

template <class T, int TILE, int THREADS>
__global__ void __launch_bounds__(THREADS) stockham_pass(pass_args a) {
  typedef typename cplx<T>::type C;
  extern __shared__ __align__(16) unsigned char stockham_smem[];
  C *sm = reinterpret_cast<C *>(stockham_smem); /* TILE elements, then R/2 twiddles */
  const int log_r = a.log_r, log_nr = a.log_nr, log_ns = a.log_ns;
  const int R = 1 << log_r;
  int log_g = 0;
  while ((R << log_g) < TILE) ++log_g;
  const int G = 1 << log_g;
  const int64_t NR = (int64_t)1 << log_nr, Ns = (int64_t)1 << log_ns;
  const int64_t g0 = (int64_t)blockIdx.x * G;
  const C *src = (const C *)a.src;
  C *dst = (C *)a.dst;
  /* w_R^k, k < R/2, for the R-point DFT (w_R^(k + R/2) = -w_R^k) */
  C *tw = sm + TILE;
  for (int k = threadIdx.x; k < (R >> 1); k += THREADS) tw[k] = twiddle<T>(k, log_r, a.sign);

  /* load, twiddle w_{Ns R}^(r (j mod Ns)) */
  for (int e = threadIdx.x; e < TILE; e += THREADS) {
    int gl, r;
    if (NR >= G) {
      gl = e & (G - 1);
      r = e >> log_g;
    } else {
      const int nr = (int)NR;
      r = (e >> log_nr) & (R - 1);
      gl = ((e >> (log_nr + log_r)) << log_nr) | (e & (nr - 1));
    }
    const int64_t g = g0 + gl;
    if (g >= a.total) continue;
    const int64_t b = g >> log_nr, j = g & (NR - 1);
    C x = src[b * a.s_dist + (j + ((int64_t)r << log_nr)) * a.s_stride];
    const int64_t e_tw = (int64_t)r * (j & (Ns - 1));
    if (e_tw != 0) x = cmul(x, twiddle<T>(e_tw, log_ns + log_r, a.sign));
    sm[slot(r, gl, G)] = x;
  }
  __syncthreads();

  /* the R-point DFT of every group: Stockham DIT steps in shared memory */
  const T sg = (T)a.sign;
  int log_s = 0; /* log2 of the inner stride ns */
  while (log_s + 2 <= log_r) {
    constexpr int BF = TILE / 4 / THREADS;
    const int Q = R >> 2, ns = 1 << log_s;
    C v[BF][4];
    int to[BF], gl_of[BF];
#pragma unroll
    for (int i = 0; i < BF; ++i) {
      const int bf = threadIdx.x + i * THREADS, gl = bf & (G - 1), u = bf >> log_g;
      const int um = u & (ns - 1);
      gl_of[i] = gl;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        C x = sm[slot(u + q * Q, gl, G)];
        if (q && um) x = cmul(x, table_w(tw, (q * um) << (log_r - log_s - 2), R));
        v[i][q] = x;
      }
      const C A = v[i][0], B = v[i][1], Cc = v[i][2], D = v[i][3];
      C apc, amc, bpd, t;
      apc.x = A.x + Cc.x, apc.y = A.y + Cc.y;
      amc.x = A.x - Cc.x, amc.y = A.y - Cc.y;
      bpd.x = B.x + D.x, bpd.y = B.y + D.y;
      t.x = -sg * (B.y - D.y), t.y = sg * (B.x - D.x); /* sign * i * (b - d) */
      v[i][0].x = apc.x + bpd.x, v[i][0].y = apc.y + bpd.y;
      v[i][1].x = amc.x + t.x, v[i][1].y = amc.y + t.y;
      v[i][2].x = apc.x - bpd.x, v[i][2].y = apc.y - bpd.y;
      v[i][3].x = amc.x - t.x, v[i][3].y = amc.y - t.y;
      to[i] = ((u >> log_s) << (log_s + 2)) + um; /* the row of output 0 */
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BF; ++i)
#pragma unroll
      for (int k = 0; k < 4; ++k) sm[slot(to[i] + k * ns, gl_of[i], G)] = v[i][k];
    __syncthreads();
    log_s += 2;
  }
  if (log_s < log_r) { /* the last step, radix 2: ns = R / 2 */
    constexpr int BF = TILE / 2 / THREADS;
    const int Q = R >> 1, ns = 1 << log_s;
    C v[BF][2];
    int to[BF], gl_of[BF];
#pragma unroll
    for (int i = 0; i < BF; ++i) {
      const int bf = threadIdx.x + i * THREADS, gl = bf & (G - 1), u = bf >> log_g;
      const int um = u & (ns - 1);
      gl_of[i] = gl;
      const C A = sm[slot(u, gl, G)];
      C B = sm[slot(u + Q, gl, G)];
      if (um) B = cmul(B, table_w(tw, um, R));
      v[i][0].x = A.x + B.x, v[i][0].y = A.y + B.y;
      v[i][1].x = A.x - B.x, v[i][1].y = A.y - B.y;
      to[i] = ((u >> log_s) << (log_s + 1)) + um;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < BF; ++i) {
      sm[slot(to[i], gl_of[i], G)] = v[i][0];
      sm[slot(to[i] + ns, gl_of[i], G)] = v[i][1];
    }
    __syncthreads();
  }

  /* store with the Stockham permutation */
  for (int e = threadIdx.x; e < TILE; e += THREADS) {
    int gl, k;
    if (Ns >= G) {
      gl = e & (G - 1);
      k = e >> log_g;
    } else {
      const int ns = (int)Ns;
      k = (e >> log_ns) & (R - 1);
      gl = ((e >> (log_ns + log_r)) << log_ns) | (e & (ns - 1));
    }
    const int64_t g = g0 + gl;
    if (g >= a.total) continue;
    const int64_t b = g >> log_nr, j = g & (NR - 1);
    const int64_t idx =
        ((j >> log_ns) << (log_ns + log_r)) + (j & (Ns - 1)) + ((int64_t)k << log_ns);
    dst[b * a.d_dist + idx * a.d_stride] = sm[slot(k, gl, G)];
  }
}

} /* namespace tridi_fft */

#endif
