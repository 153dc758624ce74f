/* The LAPACK-compatible entry points (tridi.h: tridi_sgtsv, tridi_dgtsv and
 * their strided batches): LAPACK's arguments and storage (dl, du n-1 long,
 * b overwritten by x, info), LAPACK's partial pivoting, tridi's kernels.
 *
 * One system with one right-hand side is solved by the reference pivoting
 * solver (src/ref/ref_pivot.c, a transcription of dgtsv) in place in b;
 * everything else by a cached plan (compat.h) with pivot = PARTIAL over the
 * layout that describes the arguments without a copy: a = dl - 1 (a[0] is
 * never read, tridi.h), c = du, d = x = b, the matrix broadcast over the
 * right-hand sides (stride 0).  The inputs dl, d, du are never written
 * (LAPACK overwrites them with the factorization). */
#include "compat.h"
#include "ref_pivot.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK has no code for a failed allocation; MKL's routines use -1011. */
#define GTSV_INFO_ALLOC (-1011)
/* work of the reference solver on the stack up to this n */
#define GTSV_STACK_N 512
/* info entries of a plan on the stack up to this count */
#define GTSV_STACK_INFO 256

/* p - 1 element, as the base of an operand whose row 0 is never read (done
 * on integers: the address may lie before the caller's array) */
static const void *minus_one(const void *p, size_t es) {
  return (const void *)((uintptr_t)p - (uintptr_t)es);
}

typedef struct gtsv_args {
  tridi_dtype dt;
  const char *fn;
  int single;    /* tridi_?gtsv (argument positions 1..8), else the batch (1..13) */
  int n, nrhs, batch, ldb;
  const void *dl, *d, *du;
  void *b;
  int64_t sdl, sd, sdu, sb;
  int *info;
} gtsv_args;

/* LAPACK's argument check: the first wrong argument i gives info = -i (every
 * info entry of a batch) and a status saying why. */
static tridi_status bad_arg(const gtsv_args *g, int pos, tridi_status st, const char *why) {
  const int count = g->single ? 1 : g->batch;
  if (g->info)
    for (int s = 0; s < count; ++s) g->info[s] = -pos;
  return tridi_set_error(st, "%s: argument %d: %s (info = %d, as LAPACK)", g->fn, pos, why, -pos);
}

static int misaligned(const void *p, size_t es) { return p && (uintptr_t)p % es != 0; }

static tridi_status check_args(const gtsv_args *g) {
  const size_t es = tridi_dtype_size(g->dt);
  const int S = g->single;
  /* argument positions */
  const int pN = 1, pNRHS = 2, pBATCH = 3;
  const int pDL = S ? 3 : 4, pD = S ? 4 : 6, pDU = S ? 5 : 8, pB = S ? 6 : 10, pLDB = S ? 7 : 11;
  const int work = g->n > 0 && g->nrhs > 0 && g->batch > 0;
  if (g->n < 0) return bad_arg(g, pN, TRIDI_ERR_INVALID_SHAPE, "n < 0");
  if (g->nrhs < 0) return bad_arg(g, pNRHS, TRIDI_ERR_INVALID_SHAPE, "nrhs < 0");
  if (!S && g->batch < 0) return bad_arg(g, pBATCH, TRIDI_ERR_INVALID_SHAPE, "batch < 0");
  if (work && g->n > 1 && !g->dl) return bad_arg(g, pDL, TRIDI_ERR_NULL_POINTER, "dl is NULL");
  if (misaligned(g->dl, es)) return bad_arg(g, pDL, TRIDI_ERR_MISALIGNED, "dl is misaligned");
  if (!S && g->batch > 1 && g->sdl < g->n - 1)
    return bad_arg(g, 5, TRIDI_ERR_INVALID_STRIDE, "stride_dl < n - 1");
  if (work && !g->d) return bad_arg(g, pD, TRIDI_ERR_NULL_POINTER, "d is NULL");
  if (misaligned(g->d, es)) return bad_arg(g, pD, TRIDI_ERR_MISALIGNED, "d is misaligned");
  if (!S && g->batch > 1 && g->sd < g->n)
    return bad_arg(g, 7, TRIDI_ERR_INVALID_STRIDE, "stride_d < n");
  if (work && g->n > 1 && !g->du) return bad_arg(g, pDU, TRIDI_ERR_NULL_POINTER, "du is NULL");
  if (misaligned(g->du, es)) return bad_arg(g, pDU, TRIDI_ERR_MISALIGNED, "du is misaligned");
  if (!S && g->batch > 1 && g->sdu < g->n - 1)
    return bad_arg(g, 9, TRIDI_ERR_INVALID_STRIDE, "stride_du < n - 1");
  if (work && !g->b) return bad_arg(g, pB, TRIDI_ERR_NULL_POINTER, "b is NULL");
  if (misaligned(g->b, es)) return bad_arg(g, pB, TRIDI_ERR_MISALIGNED, "b is misaligned");
  if (g->ldb < (g->n > 1 ? g->n : 1))
    return bad_arg(g, pLDB, TRIDI_ERR_INVALID_STRIDE, "ldb < max(1, n)");
  if (!S && g->batch > 1 && g->sb < (int64_t)g->ldb * g->nrhs)
    return bad_arg(g, 12, TRIDI_ERR_INVALID_STRIDE, "stride_b < ldb * nrhs");
  return TRIDI_SUCCESS;
}

/* Column j of system s of b filled with NaN (a NaN/Inf input or result:
 * info stays 0 as in LAPACK, whose x would be NaN/Inf too). */
static void nan_column(const gtsv_args *g, int64_t s, int64_t j) {
  const size_t es = tridi_dtype_size(g->dt);
  char *col = (char *)g->b + (size_t)((s * g->sb + j * g->ldb) * (int64_t)es);
  for (int64_t i = 0; i < g->n; ++i) {
    if (g->dt == TRIDI_F32) ((float *)(void *)col)[i] = NAN;
    else ((double *)(void *)col)[i] = NAN;
  }
}

/* Status of the lowest-numbered failing system, with a message. */
static tridi_status result(const gtsv_args *g, int64_t s, int32_t code) {
  if (code > 0)
    return tridi_set_error(TRIDI_ERR_ZERO_PIVOT,
                           "%s: system %lld: U(%d,%d) is exactly zero, A is singular (info = %d)",
                           g->fn, (long long)s, (int)code, (int)code, (int)code);
  return tridi_set_error(TRIDI_ERR_NONFINITE,
                         "%s: system %lld: a NaN/Inf input or result at row %d; its x is NaN "
                         "(info = 0, as LAPACK)",
                         g->fn, (long long)s, (int)-code);
}

/* One system, one right-hand side: the reference pivoting solver in b. */
static tridi_status solve_one(const gtsv_args *g) {
  const size_t es = tridi_dtype_size(g->dt);
  const int64_t n = g->n;
  double stack[3 * GTSV_STACK_N];
  void *work = n <= GTSV_STACK_N ? (void *)stack : malloc((size_t)(3 * n) * es);
  if (!work) {
    g->info[0] = GTSV_INFO_ALLOC;
    return tridi_set_error(TRIDI_ERR_ALLOC, "%s: out of memory for %lld elements of work (info = %d)",
                           g->fn, (long long)(3 * n), GTSV_INFO_ALLOC);
  }
  const void *a = minus_one(n > 1 ? g->dl : g->d, es), *c = n > 1 ? g->du : g->d;
  int32_t code;
  if (g->dt == TRIDI_F32)
    code = tridi_ref_pivot_f32(n, (const float *)a, 1, (const float *)g->d, 1, (const float *)c, 1,
                               (const float *)g->b, 1, (float *)g->b, 1, (float *)work);
  else
    code = tridi_ref_pivot_f64(n, (const double *)a, 1, (const double *)g->d, 1,
                               (const double *)c, 1, (const double *)g->b, 1, (double *)g->b, 1,
                               (double *)work);
  if (work != (void *)stack) free(work);
  g->info[0] = code > 0 ? code : 0;
  if (code < 0) nan_column(g, 0, 0);
  return code ? result(g, 0, code) : TRIDI_SUCCESS;
}

/* nrhs = 0: LAPACK still factors A and reports a singular one (info > 0);
 * the reference solver on a zero right-hand side, system by system. */
static tridi_status factor_only(const gtsv_args *g) {
  const size_t es = tridi_dtype_size(g->dt);
  const int64_t n = g->n, B = g->single ? 1 : g->batch;
  char *w = calloc((size_t)(5 * n), es); /* 3n work, n zeros, n x */
  if (!w) {
    for (int64_t s = 0; s < B; ++s) g->info[s] = GTSV_INFO_ALLOC;
    return tridi_set_error(TRIDI_ERR_ALLOC, "%s: out of memory (info = %d)", g->fn, GTSV_INFO_ALLOC);
  }
  tridi_status first = TRIDI_SUCCESS;
  for (int64_t s = 0; s < B; ++s) {
    const char *dl = n > 1 ? (const char *)g->dl + (size_t)(s * g->sdl) * es : NULL;
    const char *d = (const char *)g->d + (size_t)(s * g->sd) * es;
    const char *du = n > 1 ? (const char *)g->du + (size_t)(s * g->sdu) * es : NULL;
    const void *a = minus_one(dl ? (const void *)dl : (const void *)d, es);
    const void *c = du ? (const void *)du : (const void *)d;
    void *zero = w + (size_t)(3 * n) * es, *x = w + (size_t)(4 * n) * es;
    const int32_t code =
        g->dt == TRIDI_F32
            ? tridi_ref_pivot_f32(n, (const float *)a, 1, (const float *)d, 1, (const float *)c, 1,
                                  (const float *)zero, 1, (float *)x, 1, (float *)(void *)w)
            : tridi_ref_pivot_f64(n, (const double *)a, 1, (const double *)d, 1,
                                  (const double *)c, 1, (const double *)zero, 1, (double *)x, 1,
                                  (double *)(void *)w);
    g->info[s] = code > 0 ? code : 0;
    if (code > 0 && first == TRIDI_SUCCESS) first = result(g, s, code);
  }
  free(w);
  return first;
}

/* Anything else: a cached plan with pivot = PARTIAL over the arguments. */
static tridi_status solve_plan(const gtsv_args *g) {
  const size_t es = tridi_dtype_size(g->dt);
  const int64_t n = g->n, nrhs = g->nrhs, B = g->single ? 1 : g->batch;
  tridi_cache_key key;
  memset(&key, 0, sizeof key);
  key.dtype = g->dt;
  key.backend = TRIDI_BACKEND_CPU;
  key.pivot = TRIDI_PIVOT_PARTIAL;
  key.threads = omp_get_max_threads(); /* as a plan made now would take */
  key.rank = 3;
  key.axis = 2;
  key.shape[0] = B;
  key.shape[1] = nrhs;
  key.shape[2] = n;
  const int64_t sdl = g->single ? 0 : g->sdl, sd = g->single ? 0 : g->sd;
  const int64_t sdu = g->single ? 0 : g->sdu, sb = g->single ? 0 : g->sb;
  /* n = 1: a and c are not read; they take d's strides (any stride_dl is valid then) */
  const int64_t st[TRIDI_NUM_OPERANDS][3] = {{n > 1 ? sdl : sd, 0, 1},
                                             {sd, 0, 1},
                                             {n > 1 ? sdu : sd, 0, 1},
                                             {sb, g->ldb, 1},
                                             {sb, g->ldb, 1}};
  memcpy(key.strides, st, sizeof st);
  tridi_plan plan;
  void *h;
  tridi_status s = tridi_cache_acquire(&key, g->fn, &plan, &h);
  if (s) {
    const int count = g->single ? 1 : g->batch;
    for (int q = 0; q < count; ++q) g->info[q] = GTSV_INFO_ALLOC;
    return s;
  }
  const int64_t nsys = B * nrhs;
  int32_t stack[GTSV_STACK_INFO];
  int32_t *ci = nsys <= GTSV_STACK_INFO ? stack : malloc((size_t)nsys * sizeof *ci);
  if (!ci) {
    tridi_cache_release(h);
    for (int64_t q = 0; q < B; ++q) g->info[q] = GTSV_INFO_ALLOC;
    return tridi_set_error(TRIDI_ERR_ALLOC, "%s: out of memory (info = %d)", g->fn, GTSV_INFO_ALLOC);
  }
  /* n = 1: dl and du hold nothing (may be NULL); a and c are not read */
  const void *dl = n > 1 ? g->dl : g->d, *du = n > 1 ? g->du : g->d;
  s = tridi_execute(plan, minus_one(dl, es), g->d, du, g->b, g->b, ci, NULL);
  tridi_cache_release(h);
  if (s == TRIDI_ERR_OVERLAP) {
    if (ci != stack) free(ci);
    return bad_arg(g, g->single ? 6 : 10, s, "b overlaps dl, d or du");
  }
  tridi_status first = TRIDI_SUCCESS;
  for (int64_t q = 0; q < B; ++q) {
    int32_t pos = 0, neg = 0;
    for (int64_t j = 0; j < nrhs; ++j) {
      const int32_t c = ci[q * nrhs + j];
      if (c > 0 && pos == 0) pos = c; /* the matrix's: the same in every column */
      if (c < 0) {
        if (neg == 0) neg = c;
        nan_column(g, q, j);
      }
    }
    g->info[q] = pos;
    if (first == TRIDI_SUCCESS && (pos || neg)) first = result(g, q, pos ? pos : neg);
  }
  if (ci != stack) free(ci);
  return first;
}

static tridi_status gtsv(gtsv_args *g) {
  tridi_clear_error();
  if (!g->info)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: argument %d: info is NULL", g->fn,
                           g->single ? 8 : 13);
  const tridi_status st = check_args(g);
  if (st) return st;
  const int count = g->single ? 1 : g->batch;
  for (int s = 0; s < count; ++s) g->info[s] = 0;
  if (g->n == 0 || count == 0) return TRIDI_SUCCESS; /* LAPACK's quick return */
  if (g->nrhs == 0) return factor_only(g);
  if (g->single && g->nrhs == 1) return solve_one(g);
  return solve_plan(g);
}

tridi_status tridi_sgtsv(int n, int nrhs, const float *dl, const float *d, const float *du,
                         float *b, int ldb, int *info) {
  gtsv_args g = {TRIDI_F32, "tridi_sgtsv", 1, n, nrhs, 1, ldb, dl, d, du, b, 0, 0, 0, 0, info};
  return gtsv(&g);
}

tridi_status tridi_dgtsv(int n, int nrhs, const double *dl, const double *d, const double *du,
                         double *b, int ldb, int *info) {
  gtsv_args g = {TRIDI_F64, "tridi_dgtsv", 1, n, nrhs, 1, ldb, dl, d, du, b, 0, 0, 0, 0, info};
  return gtsv(&g);
}

tridi_status tridi_sgtsv_batch(int n, int nrhs, int batch, const float *dl, int64_t stride_dl,
                               const float *d, int64_t stride_d, const float *du,
                               int64_t stride_du, float *b, int ldb, int64_t stride_b, int *info) {
  gtsv_args g = {TRIDI_F32, "tridi_sgtsv_batch", 0, n, nrhs, batch, ldb, dl, d, du, b,
                 stride_dl, stride_d, stride_du, stride_b, info};
  return gtsv(&g);
}

tridi_status tridi_dgtsv_batch(int n, int nrhs, int batch, const double *dl, int64_t stride_dl,
                               const double *d, int64_t stride_d, const double *du,
                               int64_t stride_du, double *b, int ldb, int64_t stride_b,
                               int *info) {
  gtsv_args g = {TRIDI_F64, "tridi_dgtsv_batch", 0, n, nrhs, batch, ldb, dl, d, du, b,
                 stride_dl, stride_d, stride_du, stride_b, info};
  return gtsv(&g);
}
