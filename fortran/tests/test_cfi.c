/* The Fortran binding's descriptor shim (tridi_cfi.c) from C: arrays of every
 * rank 1..7 made with CFI_establish and cut with CFI_section (steps of 1, 2,
 * -1, -2 per dimension, as Fortran sections are), solved along every
 * dimension in real(4) and real(8), broadcast and in place, checked against
 * a long-double Thomas and for untouched memory around x; then each refusal
 * (a byte stride that is no whole number of elements, kinds, ranks, shapes,
 * dim, info) with its status, and plans.  Exit status 0 on success. */
#include <ISO_Fortran_binding.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tridi_cfi.h"

#define MAXR 7

static int failures = 0;
#define CHECK(cond, ...)                                        \
  do {                                                          \
    if (!(cond)) {                                              \
      ++failures;                                               \
      fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                             \
      fprintf(stderr, "\n");                                    \
    }                                                           \
  } while (0)

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static double uniform(void) { /* in [-1, 1) */
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

/* An array section: a big contiguous buffer (NaN) and a descriptor of the
 * section with the given extents and steps. */
typedef struct section {
  void *buf;
  size_t buf_elems, elem;
  CFI_CDESC_T(MAXR) big;
  CFI_CDESC_T(MAXR) sec;
} section;

static void make_section(section *s, CFI_type_t type, int rank, const CFI_index_t *ext,
                         const int *step) {
  CFI_index_t big_ext[MAXR], lo[MAXR], up[MAXR], st[MAXR];
  s->elem = type == CFI_type_float ? sizeof(float) : sizeof(double);
  s->buf_elems = 1;
  for (int j = 0; j < rank; ++j) {
    const CFI_index_t e = ext[j] > 0 ? ext[j] : 1;
    big_ext[j] = e * abs(step[j]);
    s->buf_elems *= (size_t)big_ext[j];
    /* the section runs forward from 0 or backward from the last element */
    lo[j] = step[j] > 0 ? 0 : big_ext[j] - 1;
    st[j] = step[j];
    up[j] = lo[j] + (ext[j] - 1) * step[j];
  }
  s->buf = malloc(s->buf_elems * s->elem);
  for (size_t i = 0; i < s->buf_elems; ++i) {
    if (type == CFI_type_float) ((float *)s->buf)[i] = NAN;
    else ((double *)s->buf)[i] = NAN;
  }
  CFI_cdesc_t *big = (CFI_cdesc_t *)&s->big, *sec = (CFI_cdesc_t *)&s->sec;
  int rc = CFI_establish(big, s->buf, CFI_attribute_other, type, 0, (CFI_rank_t)rank, big_ext);
  CHECK(rc == CFI_SUCCESS, "CFI_establish %d", rc);
  rc = CFI_establish(sec, NULL, CFI_attribute_other, type, 0, (CFI_rank_t)rank, NULL);
  CHECK(rc == CFI_SUCCESS, "CFI_establish %d", rc);
  rc = CFI_section(sec, big, lo, up, st);
  CHECK(rc == CFI_SUCCESS, "CFI_section %d", rc);
}

static long double get(const CFI_cdesc_t *d, const CFI_index_t *sub) {
  CFI_index_t s[MAXR];
  for (int j = 0; j < d->rank; ++j) s[j] = d->dim[j].extent == 1 ? 0 : sub[j];
  const void *p = d->rank ? CFI_address(d, s) : d->base_addr;
  return d->type == CFI_type_float ? (long double)*(const float *)p : (long double)*(const double *)p;
}

static void set(const CFI_cdesc_t *d, const CFI_index_t *sub, double v) {
  void *p = CFI_address(d, sub);
  if (d->type == CFI_type_float) *(float *)p = (float)v;
  else *(double *)p = v;
}

static int64_t count_finite(const section *s) {
  int64_t n = 0;
  for (size_t i = 0; i < s->buf_elems; ++i)
    n += s->elem == 4 ? !isnan(((float *)s->buf)[i]) : !isnan(((double *)s->buf)[i]);
  return n;
}

/* Visit every subscript tuple of extents ext (column-major), calling f. */
typedef void (*visit_fn)(const CFI_index_t *sub, void *ctx);
static void visit(int rank, const CFI_index_t *ext, visit_fn f, void *ctx) {
  CFI_index_t sub[MAXR] = {0};
  int64_t total = 1;
  for (int j = 0; j < rank; ++j) total *= ext[j];
  for (int64_t i = 0; i < total; ++i) {
    f(sub, ctx);
    for (int j = 0; j < rank; ++j) {
      if (++sub[j] < ext[j]) break;
      sub[j] = 0;
    }
  }
}

typedef struct fill_ctx {
  const CFI_cdesc_t *op;
  int is_b;
} fill_ctx;
static void fill_one(const CFI_index_t *sub, void *ctx) {
  fill_ctx *c = ctx;
  set(c->op, sub, c->is_b ? 5.0 + uniform() : uniform());
}

typedef struct check_ctx {
  const CFI_cdesc_t *op[5]; /* a b c d x (d: the copy of the right-hand side) */
  int dim, rank;
  const CFI_index_t *ext;
  double tol;
  double worst;
} check_ctx;

/* operand k of the check at problem subscripts sub: full, rank 1 along dim, or rank 0 */
static long double op_at(const check_ctx *c, int k, const CFI_index_t *sub) {
  const CFI_cdesc_t *d = c->op[k];
  if (d->rank == c->rank) return get(d, sub);
  if (d->rank == 1) return get(d, &sub[c->dim - 1]);
  return get(d, NULL);
}

/* at the first row of each system: long-double Thomas and comparison */
static void check_system(const CFI_index_t *sub0, void *vctx) {
  check_ctx *c = vctx;
  const int j = c->dim - 1;
  if (sub0[j] != 0) return;
  const int64_t n = c->ext[j];
  long double cp[64], dp[64], x[64];
  CFI_index_t sub[MAXR];
  memcpy(sub, sub0, sizeof sub);
  for (int64_t i = 0; i < n; ++i) {
    sub[j] = i;
    const long double a = i ? op_at(c, 0, sub) : 0, b = op_at(c, 1, sub);
    const long double cc = i < n - 1 ? op_at(c, 2, sub) : 0, d = op_at(c, 3, sub);
    const long double m = b - (i ? a * cp[i - 1] : 0);
    cp[i] = cc / m;
    dp[i] = (d - (i ? a * dp[i - 1] : 0)) / m;
  }
  long double scale = 0;
  for (int64_t i = n - 1; i >= 0; --i) {
    x[i] = dp[i] - (i < n - 1 ? cp[i] * x[i + 1] : 0);
    if (fabsl(x[i]) > scale) scale = fabsl(x[i]);
  }
  for (int64_t i = 0; i < n; ++i) {
    sub[j] = i;
    const double err = (double)(fabsl(op_at(c, 4, sub) - x[i]) / (scale > 0 ? scale : 1));
    if (!(err <= c->worst)) c->worst = isnan(err) ? INFINITY : err;
  }
}

/* One solve: rank, extents, dim, kind, the operands' forms (0 full, 1 rank 1
 * along dim, 2 rank 0), steps per operand, in place or not. */
static void one_case(CFI_type_t type, int rank, const CFI_index_t *ext, int dim, const int *form,
                     const int (*steps)[MAXR], int in_place) {
  section s[5], dcopy;
  CFI_index_t n1[1] = {ext[dim - 1]};
  for (int k = 0; k < 5; ++k) {
    if (k == 3 && in_place) continue;
    const int f = k < 4 ? form[k] : 0;
    if (f == 0) make_section(&s[k], type, rank, ext, steps[k]);
    else if (f == 1) make_section(&s[k], type, 1, n1, steps[k]);
    else make_section(&s[k], type, 0, NULL, steps[k]);
    if (k < 4) {
      fill_ctx fc = {(CFI_cdesc_t *)&s[k].sec, k == 1};
      if (f == 2) set(fc.op, NULL, k == 1 ? 5.5 : 0.3);
      else visit(f == 0 ? rank : 1, f == 0 ? ext : n1, fill_one, &fc);
    }
  }
  CFI_cdesc_t *x = (CFI_cdesc_t *)&s[4].sec;
  if (in_place) {  /* x holds d on entry; keep a copy for the check */
    fill_ctx fc = {x, 0};
    visit(rank, ext, fill_one, &fc);
    const int contiguous[MAXR] = {1, 1, 1, 1, 1, 1, 1};
    make_section(&dcopy, type, rank, ext, contiguous);
    CFI_cdesc_t *dc = (CFI_cdesc_t *)&dcopy.sec;
    CFI_index_t sub[MAXR] = {0};
    int64_t total = 1;
    for (int j = 0; j < rank; ++j) total *= ext[j];
    for (int64_t i = 0; i < total; ++i) {
      set(dc, sub, (double)get(x, sub));
      for (int j = 0; j < rank; ++j) {
        if (++sub[j] < ext[j]) break;
        sub[j] = 0;
      }
    }
  }
  const CFI_cdesc_t *d = in_place ? NULL : (CFI_cdesc_t *)&s[3].sec;
  const int st = tridi_f_solve((CFI_cdesc_t *)&s[0].sec, (CFI_cdesc_t *)&s[1].sec,
                               (CFI_cdesc_t *)&s[2].sec, d, x, dim, NULL, "auto", 0);
  CHECK(st == TRIDI_SUCCESS, "rank %d dim %d: %s", rank, dim, tridi_f_last_error());
  int64_t total = 1;
  for (int j = 0; j < rank; ++j) total *= ext[j];
  CHECK(count_finite(&s[4]) == total, "rank %d dim %d: %lld elements of x's buffer written, "
        "%lld expected", rank, dim, (long long)count_finite(&s[4]), (long long)total);
  check_ctx cc = {{(CFI_cdesc_t *)&s[0].sec, (CFI_cdesc_t *)&s[1].sec, (CFI_cdesc_t *)&s[2].sec,
                   in_place ? (CFI_cdesc_t *)&dcopy.sec : (CFI_cdesc_t *)&s[3].sec, x},
                  dim, rank, ext, 0, 0};
  const double eps = type == CFI_type_float ? 1.2e-7 : 2.3e-16;
  visit(rank, ext, check_system, &cc);
  CHECK(cc.worst <= 32.0 * (double)ext[dim - 1] * eps, "rank %d dim %d type %d: error %.3g",
        rank, dim, (int)type, cc.worst);
  for (int k = 0; k < 5; ++k)
    if (!(k == 3 && in_place)) free(s[k].buf);
  if (in_place) free(dcopy.buf);
}

static void sweep(void) {
  static const int step_choices[4] = {1, 2, -1, -2};
  int cases = 0;
  for (int t = 0; t < 2; ++t) {
    const CFI_type_t type = t ? CFI_type_double : CFI_type_float;
    for (int rank = 1; rank <= MAXR; ++rank) {
      CFI_index_t ext[MAXR];
      for (int j = 0; j < rank; ++j) ext[j] = 2 + (j * 5 + rank) % 3; /* 2..4 */
      for (int dim = 1; dim <= rank; ++dim) {
        for (int variant = 0; variant < 4; ++variant) {
          int steps[5][MAXR], form[4] = {0, 0, 0, 0};
          for (int k = 0; k < 5; ++k)
            for (int j = 0; j < MAXR; ++j) steps[k][j] = step_choices[(k + j + variant + dim) % 4];
          if (variant == 1) form[0] = form[2] = 1;         /* one matrix, rank-1 a and c */
          if (variant == 2) form[0] = form[1] = form[2] = 2; /* constant diagonals */
          if (variant == 3 && rank > 1) form[1] = 1;
          one_case(type, rank, ext, dim, form, (const int(*)[MAXR])steps, variant == 3);
          ++cases;
        }
      }
    }
  }
  printf("sweep: %d cases (ranks 1..%d, every dim, real(4) and real(8))\n", cases, MAXR);
  fflush(stdout);
}

/* ---- refusals --------------------------------------------------------------- */

static void refusals(void) {
  double buf[64], four[64], out[64];
  float fbuf[64];
  for (int i = 0; i < 64; ++i) buf[i] = 1.0, four[i] = 4.0, fbuf[i] = 1.0f, out[i] = 0;
  CFI_CDESC_T(2) a, b4, x, f, odd, info;
  const CFI_index_t ext[2] = {4, 3};
  CFI_establish((CFI_cdesc_t *)&a, buf, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  CFI_establish((CFI_cdesc_t *)&b4, four, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  const CFI_cdesc_t *B4 = (CFI_cdesc_t *)&b4;
  CFI_establish((CFI_cdesc_t *)&x, out, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  CFI_establish((CFI_cdesc_t *)&f, fbuf, CFI_attribute_other, CFI_type_float, 0, 2, ext);
  const CFI_cdesc_t *A = (CFI_cdesc_t *)&a, *X = (CFI_cdesc_t *)&x, *F = (CFI_cdesc_t *)&f;
  /* a derived-type component: 12-byte steps over 8-byte reals */
  CFI_establish((CFI_cdesc_t *)&odd, buf, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  odd.dim[0].sm = 12;
  odd.dim[1].sm = 48;
  int st = tridi_f_solve((CFI_cdesc_t *)&odd, A, A, A, X, 1, NULL, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_STRIDE && strstr(tridi_f_last_error(), "12 bytes"), "%d %s", st,
        tridi_f_last_error());
  st = tridi_f_solve(A, A, A, A, (CFI_cdesc_t *)&odd, 1, NULL, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_STRIDE, "%d", st);
  st = tridi_f_solve(A, F, A, A, X, 1, NULL, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_DTYPE && strstr(tridi_f_last_error(), "b and x"), "%d %s", st,
        tridi_f_last_error());
  st = tridi_f_solve(A, A, A, A, X, 3, NULL, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_AXIS, "%d", st);
  st = tridi_f_solve(A, A, A, A, X, 0, NULL, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_AXIS, "%d", st);
  CFI_CDESC_T(2) small;
  const CFI_index_t ext2[2] = {4, 2};
  CFI_establish((CFI_cdesc_t *)&small, buf, CFI_attribute_other, CFI_type_double, 0, 2, ext2);
  st = tridi_f_solve(A, A, (CFI_cdesc_t *)&small, A, X, 1, NULL, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_SHAPE && strstr(tridi_f_last_error(), "dimension 2"), "%d %s", st,
        tridi_f_last_error());
  CFI_CDESC_T(1) r1;
  const CFI_index_t e3[1] = {3};
  CFI_establish((CFI_cdesc_t *)&r1, buf, CFI_attribute_other, CFI_type_double, 0, 1, e3);
  st = tridi_f_solve((CFI_cdesc_t *)&r1, A, A, A, X, 1, NULL, "auto", 0); /* n = 4 along dim 1 */
  CHECK(st == TRIDI_ERR_INVALID_SHAPE, "%d", st);
  st = tridi_f_solve((CFI_cdesc_t *)&r1, B4, A, A, X, 2, NULL, "auto", 0); /* n = 3 along dim 2 */
  CHECK(st == TRIDI_SUCCESS, "%d %s", st, tridi_f_last_error());
  CFI_CDESC_T(0) scalar;
  CFI_establish((CFI_cdesc_t *)&scalar, buf, CFI_attribute_other, CFI_type_double, 0, 0, NULL);
  st = tridi_f_solve(A, A, A, A, (CFI_cdesc_t *)&scalar, 1, NULL, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_RANK, "%d", st);
  st = tridi_f_solve(A, A, A, A, X, 1, NULL, "no_such_alg", 0);
  CHECK(st == TRIDI_ERR_INVALID_OPTION && strstr(tridi_f_last_error(), "no_such_alg"), "%d", st);
  /* an algorithm that neither pivots nor checks: only with the declaration */
  st = tridi_f_solve(A, A, A, A, X, 1, NULL, "pcr", 0);
  CHECK(st == TRIDI_ERR_INVALID_OPTION && strstr(tridi_f_last_error(), "assume_dominant"), "%d %s",
        st, tridi_f_last_error());
  /* info: one int32 per system */
  int32_t iv[8];
  const CFI_index_t ie[1] = {2};
  CFI_establish((CFI_cdesc_t *)&info, iv, CFI_attribute_other, CFI_type_int32_t, 0, 1, ie);
  st = tridi_f_solve(A, A, A, A, X, 1, (CFI_cdesc_t *)&info, "auto", 0);
  CHECK(st == TRIDI_ERR_INVALID_SHAPE && strstr(tridi_f_last_error(), "info"), "%d", st);
  /* zero pivot in system 2 (of 3) at row 2: b = 1, a = c = 1 -> pivots 1, 0 */
  const CFI_index_t ie3[1] = {3};
  CFI_establish((CFI_cdesc_t *)&info, iv, CFI_attribute_other, CFI_type_int32_t, 0, 1, ie3);
  double bb[12];
  for (int i = 0; i < 12; ++i) bb[i] = i / 4 == 1 ? 1.0 : 4.0;
  CFI_CDESC_T(2) B;
  CFI_establish((CFI_cdesc_t *)&B, bb, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  /* the default pivot mode (TRIDI_PIVOT_AUTO) solves that system again with
   * partial pivoting (tridiag(1, 1, 1) of order 4 is regular): no failure left */
  st = tridi_f_solve(A, (CFI_cdesc_t *)&B, A, A, X, 1, (CFI_cdesc_t *)&info, "auto", 0);
  CHECK(st == TRIDI_SUCCESS && iv[0] == 0 && iv[1] == 0 && iv[2] == 0, "%d info %d %d %d",
        st, iv[0], iv[1], iv[2]);
}

static void plans(void) {
  double a[24], b[24], x[24], y[48];
  for (int i = 0; i < 24; ++i) a[i] = 1.0, b[i] = 4.0, x[i] = 1.0;
  for (int i = 0; i < 48; ++i) y[i] = 1.0;
  CFI_CDESC_T(2) A, Bd, X, Y, Yf;
  const CFI_index_t ext[2] = {6, 4}, ey[2] = {12, 4};
  CFI_establish((CFI_cdesc_t *)&A, a, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  CFI_establish((CFI_cdesc_t *)&Bd, b, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  CFI_establish((CFI_cdesc_t *)&X, x, CFI_attribute_other, CFI_type_double, 0, 2, ext);
  CFI_establish((CFI_cdesc_t *)&Yf, y, CFI_attribute_other, CFI_type_double, 0, 2, ey);
  CFI_establish((CFI_cdesc_t *)&Y, NULL, CFI_attribute_other, CFI_type_double, 0, 2, NULL);
  const CFI_index_t lo[2] = {0, 0}, up[2] = {10, 3}, step[2] = {2, 1};
  CFI_section((CFI_cdesc_t *)&Y, (CFI_cdesc_t *)&Yf, lo, up, step);
  tridi_f_plan *p = NULL;
  int st = tridi_f_plan_create(&p, (CFI_cdesc_t *)&A, (CFI_cdesc_t *)&Bd, (CFI_cdesc_t *)&A, NULL,
                               (CFI_cdesc_t *)&X, 2, "auto", TRIDI_BACKEND_CPU, 1, 0, 0);
  CHECK(st == TRIDI_SUCCESS && p, "%d %s", st, tridi_f_last_error());
  for (int rep = 0; rep < 3; ++rep) {
    st = tridi_f_plan_execute(p, (CFI_cdesc_t *)&A, (CFI_cdesc_t *)&Bd, (CFI_cdesc_t *)&A, NULL,
                              (CFI_cdesc_t *)&X, NULL);
    CHECK(st == TRIDI_SUCCESS, "%d %s", st, tridi_f_last_error());
  }
  st = tridi_f_plan_execute(p, (CFI_cdesc_t *)&A, (CFI_cdesc_t *)&Bd, (CFI_cdesc_t *)&A, NULL,
                            (CFI_cdesc_t *)&Y, NULL);
  CHECK(st == TRIDI_ERR_INVALID_STRIDE && strstr(tridi_f_last_error(), "plan"), "%d %s", st,
        tridi_f_last_error());
  char alg[32], backend[16], kernel[96];
  int64_t ws = -1;
  st = tridi_f_plan_describe(p, alg, sizeof alg, backend, sizeof backend, kernel, sizeof kernel, &ws);
  CHECK(st == TRIDI_SUCCESS && strncmp(backend, "cpu ", 4) == 0 && ws >= 0, "%d", st);
  tridi_f_plan_destroy(p);
  st = tridi_f_plan_execute(NULL, (CFI_cdesc_t *)&A, (CFI_cdesc_t *)&Bd, (CFI_cdesc_t *)&A, NULL,
                            (CFI_cdesc_t *)&X, NULL);
  CHECK(st == TRIDI_ERR_NULL_POINTER, "%d", st);
}

int main(void) {
  sweep();
  refusals();
  plans();
  if (failures) {
    fprintf(stderr, "test_cfi: %d checks failed\n", failures);
    return 1;
  }
  printf("test_cfi: all checks passed\n");
  return 0;
}
