/* The cuSPARSE-shaped GPU entry points (tridi.h: tridi_cuda_?gtsv_*): the
 * arguments of cusparse?gtsv2StridedBatch, ?gtsvInterleavedBatch and
 * ?gtsv2_nopivot without the handle and the buffer, plus the stream; the
 * solve is a cached CUDA plan (compat.h) of the current device over the
 * caller's storage (m elements of dl, d, du per system: dl[0] and du[m-1]
 * are there, and never used), in place in x, asynchronous on the stream.
 * In a build without CUDA they return TRIDI_ERR_BACKEND_UNAVAILABLE. */
#include "compat.h"

#include <string.h>

static tridi_status bad(const char *fn, tridi_status st, const char *why) {
  return tridi_set_error(st, "%s: %s", fn, why);
}

/* Solve with the cached plan of key on the current device. */
static tridi_status run(tridi_cache_key *key, const char *fn, const void *dl, const void *d,
                        const void *du, void *x, void *stream) {
#ifdef TRIDI_HAVE_CUDA
  int dev = 0;
  tridi_status st = tridi_cuda_current_device(&dev, fn);
  if (st) return st;
  key->backend = TRIDI_BACKEND_CUDA;
  key->device = dev;
  key->stream = stream;
  tridi_plan plan;
  void *h;
  st = tridi_cache_acquire(key, fn, &plan, &h);
  if (st) return st;
  st = tridi_execute(plan, dl, d, du, x, x, NULL, stream);
  tridi_cache_release(h);
  return st;
#else
  (void)key, (void)dl, (void)d, (void)du, (void)x, (void)stream;
  return tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE,
                         "%s: this build of tridi has no CUDA backend", fn);
#endif
}

/* Solve, with the cached plan, systems laid out as a 2-D array
 * of shape (e0, e1) solved along `axis`: the matrices' row stride s0_mat,
 * d's and x's s0_rhs (the other axis unit-stride); pivot: the call's mode. */
static tridi_status run_2d(tridi_dtype dt, tridi_pivot pivot, const char *fn, int axis, int64_t e0,
                           int64_t e1, int64_t s0_mat, int64_t s0_rhs, const void *dl,
                           const void *d, const void *du, void *x, void *stream) {
  tridi_cache_key key;
  memset(&key, 0, sizeof key);
  key.dtype = dt;
  key.pivot = pivot;
  key.rank = 2;
  key.axis = axis;
  key.shape[0] = e0;
  key.shape[1] = e1;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    key.strides[k][0] = k >= TRIDI_OP_D ? s0_rhs : s0_mat;
    key.strides[k][1] = 1;
  }
  return run(&key, fn, dl, d, du, x, stream);
}

static tridi_status strided(tridi_dtype dt, const char *fn, int m, const void *dl, const void *d,
                            const void *du, void *x, int batch_count, int batch_stride,
                            void *stream) {
  tridi_clear_error();
  if (m < 0) return bad(fn, TRIDI_ERR_INVALID_SHAPE, "m < 0");
  if (batch_count < 0) return bad(fn, TRIDI_ERR_INVALID_SHAPE, "batchCount < 0");
  if (batch_count > 1 && batch_stride < m)
    return bad(fn, TRIDI_ERR_INVALID_STRIDE, "batchStride < m");
  if (!dl || !d || !du || !x) return bad(fn, TRIDI_ERR_NULL_POINTER, "dl, d, du or x is NULL");
  return run_2d(dt, TRIDI_PIVOT_NONE, fn, 1, batch_count, m, batch_stride, batch_stride, dl, d, du,
                x, stream);
}

static tridi_status interleaved(tridi_dtype dt, const char *fn, int algo, int m, const void *dl,
                                const void *d, const void *du, void *x, int batch_count,
                                void *stream) {
  tridi_clear_error();
  if (algo == 2)
    return bad(fn, TRIDI_ERR_NOT_SUPPORTED,
               "algo 2 (QR) has no counterpart in tridi; algo 0 (no pivoting) and 1 (LU with "
               "partial pivoting) do");
  if (algo != 0 && algo != 1) return bad(fn, TRIDI_ERR_INVALID_OPTION, "algo must be 0, 1 or 2");
  if (m < 0) return bad(fn, TRIDI_ERR_INVALID_SHAPE, "m < 0");
  if (batch_count < 0) return bad(fn, TRIDI_ERR_INVALID_SHAPE, "batchCount < 0");
  if (!dl || !d || !du || !x) return bad(fn, TRIDI_ERR_NULL_POINTER, "dl, d, du or x is NULL");
  /* algo 1: LU with partial pivoting, tridi's pivoting solver */
  const tridi_pivot pivot = algo == 1 ? TRIDI_PIVOT_PARTIAL : TRIDI_PIVOT_NONE;
  return run_2d(dt, pivot, fn, 0, m, batch_count, batch_count, batch_count, dl, d, du, x, stream);
}

static tridi_status nopivot(tridi_dtype dt, const char *fn, int m, int n, const void *dl,
                            const void *d, const void *du, void *B, int ldb, void *stream) {
  tridi_clear_error();
  if (m < 0) return bad(fn, TRIDI_ERR_INVALID_SHAPE, "m < 0");
  if (n < 0) return bad(fn, TRIDI_ERR_INVALID_SHAPE, "n < 0");
  if (ldb < (m > 1 ? m : 1)) return bad(fn, TRIDI_ERR_INVALID_STRIDE, "ldb < max(1, m)");
  if (!dl || !d || !du || !B) return bad(fn, TRIDI_ERR_NULL_POINTER, "dl, d, du or B is NULL");
  /* one matrix, n right-hand sides */
  return run_2d(dt, TRIDI_PIVOT_NONE, fn, 1, n, m, 0, ldb, dl, d, du, B, stream);
}

tridi_status tridi_cuda_sgtsv_strided_batch(int m, const float *dl, const float *d,
                                            const float *du, float *x, int batch_count,
                                            int batch_stride, void *stream) {
  return strided(TRIDI_F32, "tridi_cuda_sgtsv_strided_batch", m, dl, d, du, x, batch_count,
                 batch_stride, stream);
}

tridi_status tridi_cuda_dgtsv_strided_batch(int m, const double *dl, const double *d,
                                            const double *du, double *x, int batch_count,
                                            int batch_stride, void *stream) {
  return strided(TRIDI_F64, "tridi_cuda_dgtsv_strided_batch", m, dl, d, du, x, batch_count,
                 batch_stride, stream);
}

tridi_status tridi_cuda_sgtsv_interleaved_batch(int algo, int m, const float *dl, const float *d,
                                                const float *du, float *x, int batch_count,
                                                void *stream) {
  return interleaved(TRIDI_F32, "tridi_cuda_sgtsv_interleaved_batch", algo, m, dl, d, du, x,
                     batch_count, stream);
}

tridi_status tridi_cuda_dgtsv_interleaved_batch(int algo, int m, const double *dl,
                                                const double *d, const double *du, double *x,
                                                int batch_count, void *stream) {
  return interleaved(TRIDI_F64, "tridi_cuda_dgtsv_interleaved_batch", algo, m, dl, d, du, x,
                     batch_count, stream);
}

tridi_status tridi_cuda_sgtsv2_nopivot(int m, int n, const float *dl, const float *d,
                                       const float *du, float *B, int ldb, void *stream) {
  return nopivot(TRIDI_F32, "tridi_cuda_sgtsv2_nopivot", m, n, dl, d, du, B, ldb, stream);
}

tridi_status tridi_cuda_dgtsv2_nopivot(int m, int n, const double *dl, const double *d,
                                       const double *du, double *B, int ldb, void *stream) {
  return nopivot(TRIDI_F64, "tridi_cuda_dgtsv2_nopivot", m, n, dl, d, du, B, ldb, stream);
}
