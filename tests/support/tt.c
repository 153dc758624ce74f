/* Shared helpers of the tridi test suite: see tt.h. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include "tt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- seeds, RNG, failures ----------------------------------------------- */

#define TT_DEFAULT_SEED UINT64_C(20261121)

uint64_t tt_seed(void) {
  static int done = 0;
  static uint64_t seed = TT_DEFAULT_SEED;
  if (!done) {
    const char *e = getenv("TRIDI_TEST_SEED");
    if (e && *e) {
      char *end = NULL;
      unsigned long long v = strtoull(e, &end, 0);
      if (end && *end == '\0') seed = (uint64_t)v;
      else fprintf(stderr, "[tridi-test] ignoring TRIDI_TEST_SEED=\"%s\" (not a number)\n", e);
    }
    done = 1;
  }
  return seed;
}

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

uint64_t tt_case_seed(const char *name, uint64_t k) {
  uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a of the test name */
  for (const char *p = name; *p; ++p) h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
  return mix64(tt_seed() ^ mix64(h + k));
}

void tt_rng_init(tt_rng *r, uint64_t seed) { r->s = seed; }

uint64_t tt_rng_u64(tt_rng *r) {
  r->s += UINT64_C(0x9e3779b97f4a7c15);
  return mix64(r->s);
}

double tt_rng_uniform(tt_rng *r, double lo, double hi) {
  const double u = (double)(tt_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * u;
}

int64_t tt_rng_int(tt_rng *r, int64_t lo, int64_t hi) {
  return lo + (int64_t)(tt_rng_u64(r) % (uint64_t)(hi - lo + 1));
}

static long tt_nfail = 0;
static long tt_nmsg = 0;

void tt_fail(const char *fmt, ...) {
  ++tt_nfail;
  if (tt_nmsg++ >= TT_MAX_MESSAGES) {
    if (tt_nmsg == TT_MAX_MESSAGES + 1)
      fprintf(stderr, "[tridi-test] (further failure messages suppressed)\n");
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "[tridi-test seed=%" PRIu64 "] ", tt_seed());
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* largest passing ratios to the bounds: residual, reference, LAPACK */
static double tt_margin[3];

long tt_failures(void) { return tt_nfail; }
void tt_reset_failures(void) {
  tt_nfail = 0;
  tt_nmsg = 0;
}

void tt_assert_no_failures(void) {
  const long n = tt_nfail;
  if (tt_verbose())
    fprintf(stderr, "[tridi-test] largest passing ratio to the bound: residual %.3f, reference %.3f, LAPACK %.3f\n",
            tt_margin[0], tt_margin[1], tt_margin[2]);
  tt_reset_failures();
  if (n) {
    fail_msg("%ld check(s) failed; repeat with TRIDI_TEST_SEED=%" PRIu64, n, tt_seed());
  }
}

int tt_verbose(void) {
  const char *e = getenv("TRIDI_TEST_VERBOSE");
  return e && *e && strcmp(e, "0") != 0;
}

int tt_expect_status(tridi_status got, tridi_status want, const char *what) {
  if (got == want) return 1;
  tt_fail("%s: status %s, expected %s (last error: \"%s\")", what, tridi_status_name(got),
          tridi_status_name(want), tridi_last_error());
  return 0;
}

int tt_test_setup(void **state) {
  (void)state;
  tt_reset_failures();
  return 0;
}

int tt_group_setup(void **state) {
  (void)state;
  fprintf(stderr, "[tridi-test] seed %" PRIu64 " (set TRIDI_TEST_SEED to change)\n", tt_seed());
  return 0;
}

/* ---- layouts --------------------------------------------------------------- */

void tt_layout_packed(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis) {
  memset(L, 0, sizeof *L);
  snprintf(L->name, sizeof L->name, "%s", name);
  L->dtype = dtype;
  L->rank = rank;
  L->axis = axis;
  for (int k = 0; k < rank; ++k) L->shape[k] = shape[k];
  for (int op = 0; op < TT_NOPS; ++op) {
    int64_t s = 1;
    for (int k = rank - 1; k >= 0; --k) {
      L->strides[op][k] = s;
      s *= shape[k] > 0 ? shape[k] : 1;
    }
  }
}

void tt_layout_strides(tt_layout *L, int op, const int64_t *strides) {
  for (int k = 0; k < L->rank; ++k) L->strides[op][k] = strides[k];
}

void tt_layout_shared(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis, const int64_t *strides) {
  tt_layout_packed(L, name, dtype, rank, shape, axis);
  for (int op = 0; op < TT_NOPS; ++op) tt_layout_strides(L, op, strides);
}

int tt_build_contiguous(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r) {
  (void)r;
  const int64_t shape[2] = {batch, n};
  tt_layout_packed(L, "contiguous", dt, 2, shape, 1);
  return 1;
}

int tt_build_interleaved(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r) {
  (void)r;
  const int64_t shape[2] = {n, batch};
  tt_layout_packed(L, "interleaved", dt, 2, shape, 0);
  return 1;
}

int tt_build_strided(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r) {
  const int64_t shape[3] = {2, n, (batch + 1) / 2};
  tt_layout_packed(L, "strided", dt, 3, shape, 1);
  for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(L, op, r, 3, 0);
  return 1;
}

void tt_layout_random_strides(tt_layout *L, int op, tt_rng *r, int max_pad, int allow_bcast) {
  int perm[TRIDI_MAX_RANK];
  for (int k = 0; k < L->rank; ++k) perm[k] = k;
  for (int k = L->rank - 1; k > 0; --k) { /* Fisher-Yates */
    const int j = (int)tt_rng_int(r, 0, k);
    const int t = perm[k];
    perm[k] = perm[j];
    perm[j] = t;
  }
  int64_t cur = 1;
  for (int q = 0; q < L->rank; ++q) { /* perm[0] is the fastest dimension */
    const int k = perm[q];
    const int64_t e = L->shape[k] > 0 ? L->shape[k] : 1;
    int64_t s = cur;
    cur = cur * e + tt_rng_int(r, 0, max_pad);
    if (tt_rng_int(r, 0, 2) == 0) s = -s;
    if (allow_bcast && L->shape[k] > 1 && tt_rng_int(r, 0, 5) == 0) s = 0;
    L->strides[op][k] = s;
  }
}

int64_t tt_layout_n(const tt_layout *L) { return L->shape[L->axis]; }

int64_t tt_layout_nsys(const tt_layout *L) {
  int64_t s = 1;
  for (int k = 0; k < L->rank; ++k)
    if (k != L->axis) s *= L->shape[k];
  return s;
}

void tt_system_offsets(const tt_layout *L, int64_t s, int64_t off[TT_NOPS]) {
  for (int op = 0; op < TT_NOPS; ++op) off[op] = 0;
  for (int k = L->rank - 1; k >= 0; --k) {
    if (k == L->axis) continue;
    const int64_t e = L->shape[k];
    const int64_t idx = s % e;
    s /= e;
    for (int op = 0; op < TT_NOPS; ++op) off[op] += idx * L->strides[op][k];
  }
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int tt_layout_injective(const tt_layout *L, int op) {
  const int64_t n = tt_layout_n(L), nsys = tt_layout_nsys(L);
  if (n == 0 || nsys == 0) return 1;
  int64_t *v = malloc((size_t)(n * nsys) * sizeof *v);
  if (!v) return 0;
  for (int64_t s = 0; s < nsys; ++s) {
    int64_t off[TT_NOPS];
    tt_system_offsets(L, s, off);
    for (int64_t i = 0; i < n; ++i) v[s * n + i] = off[op] + i * L->strides[op][L->axis];
  }
  qsort(v, (size_t)(n * nsys), sizeof *v, cmp_i64);
  int ok = 1;
  for (int64_t j = 1; j < n * nsys && ok; ++j) ok = v[j] != v[j - 1];
  free(v);
  return ok;
}

const char *tt_layout_str(const tt_layout *L, char *buf, size_t len) {
  size_t p = 0;
#define TT_APPEND(...)                                                   \
  do {                                                                   \
    if (p < len) p += (size_t)snprintf(buf + p, len - p, __VA_ARGS__);  \
  } while (0)
  TT_APPEND("%s %s%s shape=(", L->name, tridi_dtype_name(L->dtype), L->inplace ? " in-place" : "");
  for (int k = 0; k < L->rank; ++k) TT_APPEND("%s%" PRId64, k ? "," : "", L->shape[k]);
  TT_APPEND(") axis=%d", L->axis);
  static const char names[] = "abcdx";
  for (int op = 0; op < TT_NOPS; ++op) {
    TT_APPEND(" %c(", names[op]);
    for (int k = 0; k < L->rank; ++k) TT_APPEND("%s%" PRId64, k ? "," : "", L->strides[op][k]);
    TT_APPEND(")");
  }
#undef TT_APPEND
  return buf;
}

/* ---- poison ------------------------------------------------------------------- */

const uint32_t tt_poison_f32 = UINT32_C(0x7fc5a5a5);
const uint64_t tt_poison_f64 = UINT64_C(0x7ff8a5a5a5a5a5a5);

void tt_poison(void *p, size_t es, int64_t count) {
  if (es == 4) {
    for (int64_t j = 0; j < count; ++j) memcpy((char *)p + j * 4, &tt_poison_f32, 4);
  } else {
    for (int64_t j = 0; j < count; ++j) memcpy((char *)p + j * 8, &tt_poison_f64, 8);
  }
}

static int is_poison(const void *p, size_t es) {
  return es == 4 ? memcmp(p, &tt_poison_f32, 4) == 0 : memcmp(p, &tt_poison_f64, 8) == 0;
}

/* ---- problems ------------------------------------------------------------------ */

double tt_load(const void *base, size_t es, int64_t idx) {
  if (es == 4) {
    float f;
    memcpy(&f, (const char *)base + idx * 4, 4);
    return f;
  }
  double d;
  memcpy(&d, (const char *)base + idx * 8, 8);
  return d;
}

void tt_store(void *base, size_t es, int64_t idx, double v) {
  if (es == 4) {
    const float f = (float)v;
    memcpy((char *)base + idx * 4, &f, 4);
  } else {
    memcpy((char *)base + idx * 8, &v, 8);
  }
}

static int has_buf(const tt_problem *P, int op) { return !(op == TT_X && P->L.inplace); }

void *tt_ptr(const tt_problem *P, int op) {
  if (op == TT_X && P->L.inplace) op = TT_D;
  const tt_buf *B = &P->buf[op];
  return B->mem + B->base * (int64_t)P->es;
}

static const tt_buf *xbuf(const tt_problem *P) {
  return P->L.inplace ? &P->buf[TT_D] : &P->buf[TT_X];
}

/* Index in buf[op].mem of element (s, i). */
static int64_t elem_index(const tt_problem *P, int op, const int64_t off[TT_NOPS], int64_t i) {
  if (op == TT_X && P->L.inplace) op = TT_D;
  return P->buf[op].base + off[op] + i * P->L.strides[op][P->L.axis];
}

int tt_problem_init(tt_problem *P, const tt_layout *L, uint64_t seed, const tt_guards *g) {
  memset(P, 0, sizeof *P);
  P->L = *L;
  if (L->inplace) tt_layout_strides(&P->L, TT_X, L->strides[TT_D]);
  P->es = tridi_dtype_size(L->dtype);
  P->n = tt_layout_n(L);
  P->nsys = tt_layout_nsys(L);
  P->seed = seed;
  tt_rng rng;
  tt_rng_init(&rng, seed);
  const int64_t n = P->n, nsys = P->nsys;
  const int empty = n == 0 || nsys == 0;

  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    int64_t lo = 0, hi = 0;
    for (int k = 0; k < L->rank && !empty; ++k) {
      const int64_t e = L->shape[k], s = P->L.strides[op][k];
      if (e <= 1) continue;
      if (s > 0) hi += (e - 1) * s;
      else lo += (e - 1) * s;
    }
    int64_t lead, tail;
    if (g) {
      lead = g->lead[op];
      tail = g->tail[op];
    } else if (op == TT_X || (op == TT_D && L->inplace)) {
      lead = 3;
      tail = 5;
    } else {
      lead = (int64_t)((seed + (uint64_t)op) % 4);
      tail = 0;
    }
    tt_buf *B = &P->buf[op];
    B->len = lead + (hi - lo + 1) + tail;
    B->base = lead - lo;
    const size_t bytes = (size_t)B->len * P->es;
    /* 64-byte aligned allocation of exactly `bytes` (ASan sees overruns), so
     * that the guards alone set the base pointer's alignment */
    void *mem = NULL;
    B->mem = posix_memalign(&mem, 64, bytes) == 0 ? mem : NULL;
    B->orig = malloc(bytes);
    B->use = calloc((size_t)B->len, 1);
    if (!B->mem || !B->orig || !B->use) {
      tt_fail("%s: out of memory (%zu bytes)", L->name, bytes);
      tt_problem_free(P);
      return -1;
    }
  }
  /* use masks */
  if (!empty) {
    for (int64_t s = 0; s < nsys; ++s) {
      int64_t off[TT_NOPS];
      tt_system_offsets(&P->L, s, off);
      for (int op = 0; op < TT_NOPS; ++op) {
        if (!has_buf(P, op)) continue;
        tt_buf *B = &P->buf[op];
        for (int64_t i = 0; i < n; ++i) {
          int bit = TT_USED;
          if ((op == TT_A && i == 0) || (op == TT_C && i == n - 1)) bit = TT_IGNORED;
          B->use[elem_index(P, op, off, i)] |= (unsigned char)bit;
        }
      }
    }
  }
  /* values: dominant random where used, NaN elsewhere in inputs, poison in x */
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    tt_buf *B = &P->buf[op];
    if (op == TT_X) {
      tt_poison(B->mem, P->es, B->len);
    } else {
      for (int64_t j = 0; j < B->len; ++j) {
        double v = NAN;
        if (B->use[j] & TT_USED) {
          if (op == TT_B) {
            v = tt_rng_uniform(&rng, 3.0, 5.0);
            if (tt_rng_u64(&rng) & 1) v = -v;
          } else {
            v = tt_rng_uniform(&rng, -1.0, 1.0);
          }
        }
        tt_store(B->mem, P->es, j, v);
      }
    }
    memcpy(B->orig, B->mem, (size_t)B->len * P->es);
  }
  const size_t cells = (size_t)(empty ? 1 : n * nsys);
  P->xref = malloc(cells * sizeof *P->xref);
  P->xlap = malloc(cells * sizeof *P->xlap);
  P->ref_info = calloc((size_t)(nsys > 0 ? nsys : 1), sizeof *P->ref_info);
  P->lap_info = calloc((size_t)(nsys > 0 ? nsys : 1), sizeof *P->lap_info);
  if (!P->xref || !P->xlap || !P->ref_info || !P->lap_info) {
    tt_fail("%s: out of memory (oracle)", L->name);
    tt_problem_free(P);
    return -1;
  }
  tt_problem_oracle(P);
  return 0;
}

void tt_problem_free(tt_problem *P) {
  for (int op = 0; op < TT_NOPS; ++op) {
    free(P->buf[op].mem);
    free(P->buf[op].orig);
    free(P->buf[op].use);
  }
  free(P->xref);
  free(P->xlap);
  free(P->ref_info);
  free(P->lap_info);
  memset(P, 0, sizeof *P);
}

void tt_problem_set(tt_problem *P, int op, int64_t s, int64_t i, double v) {
  int64_t off[TT_NOPS];
  tt_system_offsets(&P->L, s, off);
  const int64_t j = elem_index(P, op, off, i);
  tt_store(P->buf[op].mem, P->es, j, v);
  tt_store(P->buf[op].orig, P->es, j, v);
}

/* element i of operand op's original input / of the current x, for a
 * system whose offsets are off */
static double orig_at(const tt_problem *P, int op, const int64_t off[TT_NOPS], int64_t i) {
  return tt_load(P->buf[op].orig, P->es, elem_index(P, op, off, i));
}

static double x_at(const tt_problem *P, const int64_t off[TT_NOPS], int64_t i) {
  return tt_load(P->buf[P->L.inplace ? TT_D : TT_X].mem, P->es, elem_index(P, TT_X, off, i));
}

double tt_problem_get_orig(const tt_problem *P, int op, int64_t s, int64_t i) {
  int64_t off[TT_NOPS];
  tt_system_offsets(&P->L, s, off);
  return orig_at(P, op, off, i);
}

double tt_problem_get_x(const tt_problem *P, int64_t s, int64_t i) {
  int64_t off[TT_NOPS];
  tt_system_offsets(&P->L, s, off);
  return x_at(P, off, i);
}

double tt_problem_residual(const tt_problem *P, int64_t s) {
  const int64_t n = P->n;
  int64_t off[TT_NOPS];
  tt_system_offsets(&P->L, s, off); /* once, not per element */
  double nr = 0, na = 0, nx = 0, nd = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double xi = x_at(P, off, i), bi = orig_at(P, TT_B, off, i);
    const double di = orig_at(P, TT_D, off, i);
    if (!isfinite(xi)) return INFINITY;
    long double r = (long double)bi * xi - di;
    double ra = fabs(bi);
    if (i > 0) {
      const double ai = orig_at(P, TT_A, off, i);
      r += (long double)ai * x_at(P, off, i - 1);
      ra += fabs(ai);
    }
    if (i < n - 1) {
      const double ci = orig_at(P, TT_C, off, i);
      r += (long double)ci * x_at(P, off, i + 1);
      ra += fabs(ci);
    }
    nr = fmax(nr, fabs((double)r));
    na = fmax(na, ra);
    nx = fmax(nx, fabs(xi));
    nd = fmax(nd, fabs(di));
  }
  return nr / (na * nx + nd);
}

void tt_problem_fill_laplacian(tt_problem *P, uint64_t seed) {
  tt_rng r;
  tt_rng_init(&r, seed ^ UINT64_C(0x1a9));
  const double nn = (double)P->n * (double)P->n;
  for (int64_t s = 0; s < P->nsys; ++s)
    for (int64_t i = 0; i < P->n; ++i) {
      double v = tt_rng_uniform(&r, 1.0, 2.0);
      if (tt_rng_u64(&r) & 1) v = -v;
      if (i > 0) tt_problem_set(P, TT_A, s, i, -v * (1 - tt_rng_uniform(&r, 0, 1) / nn));
      tt_problem_set(P, TT_B, s, i, v * (2 + (1 + tt_rng_uniform(&r, 0, 1)) / nn));
      if (i < P->n - 1) tt_problem_set(P, TT_C, s, i, -v * (1 - tt_rng_uniform(&r, 0, 1) / nn));
      tt_problem_set(P, TT_D, s, i, tt_rng_uniform(&r, -1, 1));
    }
  tt_problem_oracle(P);
}

/* Gather system s of the original inputs into contiguous arrays of the
 * problem's type (4 arrays of n elements in `t`, in order a, b, c, d). */
static void gather(const tt_problem *P, int64_t s, void *t) {
  int64_t off[TT_NOPS];
  tt_system_offsets(&P->L, s, off);
  for (int op = 0; op < 4; ++op)
    for (int64_t i = 0; i < P->n; ++i)
      memcpy((char *)t + (size_t)(op * P->n + i) * P->es,
             P->buf[op].orig + elem_index(P, op, off, i) * (int64_t)P->es, P->es);
}

void tt_problem_oracle(tt_problem *P) {
  const int64_t n = P->n;
  if (n == 0 || P->nsys == 0) return;
  const size_t es = P->es;
  char *t = malloc((size_t)(4 * n) * es); /* a, b, c, d */
  char *w = malloc((size_t)n * es);       /* scratch / x */
  char *x = malloc((size_t)n * es);
  char *dl = malloc((size_t)(n + 1) * es), *dd = malloc((size_t)n * es);
  char *du = malloc((size_t)(n + 1) * es), *rhs = malloc((size_t)n * es);
  if (!t || !w || !x || !dl || !dd || !du || !rhs) {
    tt_fail("%s: out of memory (oracle)", P->L.name);
  } else {
    for (int64_t s = 0; s < P->nsys; ++s) {
      gather(P, s, t);
      int32_t code;
      if (es == 4) {
        const float *f = (const float *)t;
        code = tridi_ref_thomas_f32(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, (float *)x, 1,
                                    (float *)w);
      } else {
        const double *f = (const double *)t;
        code = tridi_ref_thomas_f64(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, (double *)x, 1,
                                    (double *)w);
      }
      P->ref_info[s] = code;
      for (int64_t i = 0; i < n; ++i) P->xref[s * n + i] = code ? NAN : tt_load(x, es, i);
      /* LAPACK ?gtsv: dl = a[1..n-1], d = b, du = c[0..n-2], b = d */
      memcpy(dl, t + (size_t)1 * es, (size_t)(n - 1) * es);
      memcpy(dd, t + (size_t)n * es, (size_t)n * es);
      memcpy(du, t + (size_t)(2 * n) * es, (size_t)(n - 1) * es);
      memcpy(rhs, t + (size_t)(3 * n) * es, (size_t)n * es);
      const int ni = (int)n, one = 1;
      int info = 0;
      if (es == 4) sgtsv_(&ni, &one, (float *)dl, (float *)dd, (float *)du, (float *)rhs, &ni, &info);
      else dgtsv_(&ni, &one, (double *)dl, (double *)dd, (double *)du, (double *)rhs, &ni, &info);
      P->lap_info[s] = info;
      for (int64_t i = 0; i < n; ++i) P->xlap[s * n + i] = info ? NAN : tt_load(rhs, es, i);
    }
  }
  free(t);
  free(w);
  free(x);
  free(dl);
  free(dd);
  free(du);
  free(rhs);
}

void tt_problem_reset(tt_problem *P) {
  for (int op = 0; op < TT_NOPS; ++op)
    if (has_buf(P, op)) memcpy(P->buf[op].mem, P->buf[op].orig, (size_t)P->buf[op].len * P->es);
}

tridi_status tt_problem_plan(const tt_problem *P, const tridi_options *opts, tridi_plan *plan) {
  tridi_desc desc = NULL;
  *plan = NULL;
  tridi_status st = tridi_desc_create(&desc, P->L.dtype, P->L.rank, P->L.shape, P->L.axis);
  if (st) return st;
  for (int op = 0; op < TT_NOPS && !st; ++op)
    st = tridi_desc_set_strides(desc, (tridi_operand)op, P->L.strides[op]);
  if (!st) st = tridi_plan_create(plan, desc, opts);
  /* the plan copies the descriptor: scribble on it and free it right away */
  if (desc) {
    const int64_t junk[TRIDI_MAX_RANK] = {7, 7, 7, 7, 7, 7, 7, 7};
    tridi_status s2 = tridi_desc_set_all_strides(desc, junk);
    (void)s2;
    tridi_desc_destroy(desc);
  }
  return st;
}

tridi_status tt_problem_execute(const tt_problem *P, tridi_plan plan, int32_t *info) {
  return tridi_execute(plan, tt_ptr(P, TT_A), tt_ptr(P, TT_B), tt_ptr(P, TT_C), tt_ptr(P, TT_D),
                       tt_ptr(P, TT_X), info, NULL);
}

long tt_problem_solve_check(tt_problem *P, tridi_plan plan, tt_info *I, tridi_status want,
                            const char *ctx) {
  tt_problem_reset(P);
  tt_info_poison(I);
  tt_expect_status(tt_problem_execute(P, plan, I->info), want, ctx);
  const long f = tt_problem_check(P, ctx, I->info);
  tt_info_guards_ok(I, ctx);
  return f;
}

tridi_status tt_problem_expected_status(const tt_problem *P) {
  for (int64_t s = 0; s < P->nsys; ++s)
    if (P->n > 0 && P->ref_info[s]) return tridi_info_status(P->ref_info[s]);
  return TRIDI_SUCCESS;
}

static double dtype_eps(const tt_problem *P) { return P->es == 4 ? FLT_EPSILON : DBL_EPSILON; }

long tt_problem_check_untouched(const tt_problem *P, const char *ctx) {
  const long before = tt_failures();
  static const char names[] = "abcdx";
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    const tt_buf *B = &P->buf[op];
    if (memcmp(B->mem, B->orig, (size_t)B->len * P->es) != 0) {
      int64_t j = 0;
      while (j < B->len && memcmp(B->mem + j * (int64_t)P->es, B->orig + j * (int64_t)P->es, P->es) == 0)
        ++j;
      tt_fail("%s: buffer of %c was modified by a call that must write nothing (first at element "
              "%" PRId64 " of %" PRId64 ")",
              ctx, names[op], j - B->base, B->len);
    }
  }
  return tt_failures() - before;
}

long tt_problem_check(const tt_problem *P, const char *ctx, const int32_t *info) {
  const long before = tt_failures();
  static const char names[] = "abcdx";
  const size_t es = P->es;
  const int64_t n = P->n, nsys = P->nsys;

  /* inputs bit-for-bit unchanged */
  for (int op = 0; op < 4; ++op) {
    if (op == TT_D && P->L.inplace) continue;
    const tt_buf *B = &P->buf[op];
    if (memcmp(B->mem, B->orig, (size_t)B->len * es) != 0) {
      int64_t j = 0;
      while (j < B->len && memcmp(B->mem + j * (int64_t)es, B->orig + j * (int64_t)es, es) == 0) ++j;
      tt_fail("%s: input %c was modified (first at element %" PRId64 " from the base)", ctx,
              names[op], j - B->base);
    }
  }
  /* x: padding untouched, described elements written */
  const tt_buf *X = xbuf(P);
  /* x of a failed system is unspecified: mark its elements (bit 4) */
  unsigned char *failed = NULL;
  for (int64_t s = 0; s < nsys && n > 0; ++s) {
    if (!P->ref_info[s]) continue;
    if (!failed) failed = calloc((size_t)X->len, 1);
    if (!failed) break;
    int64_t off[TT_NOPS];
    tt_system_offsets(&P->L, s, off);
    for (int64_t i = 0; i < n; ++i) failed[elem_index(P, TT_X, off, i)] = 1;
  }
  int64_t touched = 0, unwritten = 0, first_t = -1, first_u = -1;
  for (int64_t j = 0; j < X->len; ++j) {
    const unsigned char *m = X->mem + j * (int64_t)es;
    if (!(X->use[j] & TT_USED)) {
      if (memcmp(m, X->orig + j * (int64_t)es, es) != 0) {
        if (!touched++) first_t = j;
      }
    } else if (!P->L.inplace && is_poison(m, es) && !(failed && failed[j])) {
      if (!unwritten++) first_u = j;
    }
  }
  free(failed);
  if (touched)
    tt_fail("%s: %" PRId64 " element(s) of the x allocation outside the described elements were "
            "written (first at offset %" PRId64 " from the base)",
            ctx, touched, first_t - X->base);
  if (unwritten)
    tt_fail("%s: %" PRId64 " described element(s) of x were not written (first at offset %" PRId64
            " from the base)",
            ctx, unwritten, first_u - X->base);

  /* per system: residual, reference, LAPACK */
  if (n > 0) {
    const double eps = dtype_eps(P);
    const double rtol = TT_RESID_C * (double)n * eps, ctol = TT_CLOSE_C * (double)n * eps;
    const void *xb = tt_ptr(P, TT_X);
    const int64_t sx = P->L.strides[TT_X][P->L.axis];
    int64_t bad = 0;
    /* blocks of systems, rows outer: memory order for interleaved and
     * contiguous layouts alike */
    enum { BLK = 64 };
    int64_t off[BLK][TT_NOPS];
    long double nr[BLK], na[BLK], nx[BLK], nd[BLK];
    double dref[BLK], nref[BLK], dlap[BLK], nlap[BLK];
    int nan_seen[BLK];
    const int64_t sa = P->L.strides[TT_A][P->L.axis], sb = P->L.strides[TT_B][P->L.axis];
    const int64_t sc = P->L.strides[TT_C][P->L.axis], sd = P->L.strides[TT_D][P->L.axis];
    const unsigned char *ma = P->buf[TT_A].orig + P->buf[TT_A].base * (int64_t)es;
    const unsigned char *mb = P->buf[TT_B].orig + P->buf[TT_B].base * (int64_t)es;
    const unsigned char *mc = P->buf[TT_C].orig + P->buf[TT_C].base * (int64_t)es;
    const unsigned char *md = P->buf[TT_D].orig + P->buf[TT_D].base * (int64_t)es;
#define TT_MAX(m, v) ((v) > (m) ? (v) : (m))
    for (int64_t s0 = 0; s0 < nsys; s0 += BLK) {
      const int nb = (int)(nsys - s0 < BLK ? nsys - s0 : BLK);
      for (int q = 0; q < nb; ++q) {
        tt_system_offsets(&P->L, s0 + q, off[q]);
        nr[q] = na[q] = nx[q] = nd[q] = 0;
        dref[q] = nref[q] = dlap[q] = nlap[q] = 0;
        nan_seen[q] = 0;
      }
      for (int64_t i = 0; i < n; ++i) {
        for (int q = 0; q < nb; ++q) {
          const int64_t s = s0 + q;
          if (P->ref_info[s]) continue;
          const int64_t *o = off[q];
          const double xd = tt_load(xb, es, o[TT_X] + i * sx);
          const long double xi = xd;
          const long double bi = tt_load(mb, es, o[TT_B] + i * sb);
          const long double di = tt_load(md, es, o[TT_D] + i * sd);
          long double r = bi * xi - di, ra = bi < 0 ? -bi : bi;
          if (i > 0) {
            const long double ai = tt_load(ma, es, o[TT_A] + i * sa);
            r += ai * (long double)tt_load(xb, es, o[TT_X] + (i - 1) * sx);
            ra += ai < 0 ? -ai : ai;
          }
          if (i < n - 1) {
            const long double ci = tt_load(mc, es, o[TT_C] + i * sc);
            r += ci * (long double)tt_load(xb, es, o[TT_X] + (i + 1) * sx);
            ra += ci < 0 ? -ci : ci;
          }
          if (r < 0) r = -r;
          nr[q] = TT_MAX(nr[q], r);
          na[q] = TT_MAX(na[q], ra);
          nx[q] = TT_MAX(nx[q], (xi < 0 ? -xi : xi));
          nd[q] = TT_MAX(nd[q], (di < 0 ? -di : di));
          nan_seen[q] |= !isfinite(xd);
          const double xr = P->xref[s * n + i];
          dref[q] = TT_MAX(dref[q], fabs(xd - xr));
          nref[q] = TT_MAX(nref[q], fabs(xr));
          if (!P->lap_info[s]) {
            const double xl = P->xlap[s * n + i];
            dlap[q] = TT_MAX(dlap[q], fabs(xd - xl));
            nlap[q] = TT_MAX(nlap[q], fabs(xl));
          }
        }
      }
      for (int q = 0; q < nb; ++q) {
        const int64_t s = s0 + q;
        if (P->ref_info[s]) continue;
        if (nan_seen[q]) nr[q] = dref[q] = dlap[q] = INFINITY;
        const double rel = (double)(nr[q] / (na[q] * nx[q] + nd[q]));
        const double relref = dref[q] / (nref[q] > 0 ? nref[q] : 1.0);
        const double rellap = dlap[q] / (nlap[q] > 0 ? nlap[q] : 1.0);
        const int ok = rel <= rtol && relref <= ctol && rellap <= ctol;
        if (ok) {
          if (rel / rtol > tt_margin[0]) tt_margin[0] = rel / rtol;
          if (relref / ctol > tt_margin[1]) tt_margin[1] = relref / ctol;
          if (rellap / ctol > tt_margin[2]) tt_margin[2] = rellap / ctol;
        }
        if (!ok) {
          if (bad < 3)
            tt_fail("%s: system %" PRId64 ": relative residual %.3g (bound %.3g), difference to the "
                    "reference solver %.3g, to LAPACK %.3g (bound %.3g); x[0] = %.9g, reference "
                    "%.9g",
                    ctx, s, rel, rtol, relref, rellap, ctol, tt_load(xb, es, off[q][TT_X]), P->xref[s * n]);
          ++bad;
        }
      }
    }
#undef TT_MAX
    if (bad > 3) tt_fail("%s: %" PRId64 " of %" PRId64 " systems wrong in all", ctx, bad, nsys);
  }
  /* info */
  if (info) {
    int64_t bad = 0;
    for (int64_t s = 0; s < nsys; ++s) {
      const int32_t want = n > 0 ? P->ref_info[s] : 0;
      const int any_ok = P->info_any_row && P->info_any_row[s] && info[s] < 0 && info[s] >= -n;
      if (info[s] != want && !any_ok) {
        if (bad < 3)
          tt_fail("%s: info[%" PRId64 "] = %" PRId32 ", expected %" PRId32, ctx, s, info[s], want);
        ++bad;
      }
    }
    if (bad > 3) tt_fail("%s: %" PRId64 " info values wrong in all", ctx, bad);
  }
  return tt_failures() - before;
}

/* ---- info arrays ------------------------------------------------------------------ */

void tt_info_alloc(tt_info *I, int64_t nsys) {
  I->nsys = nsys;
  I->mem = malloc((size_t)(nsys + 2 * TT_INFO_GUARD) * sizeof(int32_t));
  I->info = I->mem ? I->mem + TT_INFO_GUARD : NULL;
  if (I->mem) tt_info_poison(I);
}

void tt_info_poison(tt_info *I) {
  for (int64_t j = 0; j < I->nsys + 2 * TT_INFO_GUARD; ++j) I->mem[j] = TT_INFO_POISON;
}

void tt_info_free(tt_info *I) {
  free(I->mem);
  I->mem = I->info = NULL;
}

int tt_info_guards_ok(const tt_info *I, const char *ctx) {
  for (int64_t j = 0; j < TT_INFO_GUARD; ++j) {
    if (I->mem[j] != TT_INFO_POISON || I->info[I->nsys + j] != TT_INFO_POISON) {
      tt_fail("%s: the info array was written outside its %" PRId64 " entries", ctx, I->nsys);
      return 0;
    }
  }
  return 1;
}

/* ---- configurations ------------------------------------------------------------------ */

static void add_cfg(tt_config *cfg, int *k, const char *name, tridi_backend be, tridi_alg alg,
                    tridi_simd simd, int threads) {
  tt_config *c = &cfg[(*k)++];
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s", name);
  tridi_options_init(&c->opts);
  c->opts.backend = be;
  c->opts.alg = alg;
  c->opts.simd = simd;
  c->opts.num_threads = threads;
}

int tt_configs(tt_config *cfg) {
  int k = 0;
  add_cfg(cfg, &k, "defaults(NULL opts)", TRIDI_BACKEND_AUTO, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO, 0);
  cfg[0].null_opts = 1;
  add_cfg(cfg, &k, "ref/auto", TRIDI_BACKEND_REF, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "ref/thomas_ref", TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_REF, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/auto", TRIDI_BACKEND_CPU, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/thomas_ref", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_REF, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/thomas", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/thomas/3 threads", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AUTO, 3);
  const tridi_simd best = tridi_cpu_simd_detect();
  add_cfg(cfg, &k, "cpu/thomas/portable", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_PORTABLE,
          0);
  if (best >= TRIDI_SIMD_AVX2)
    add_cfg(cfg, &k, "cpu/thomas/avx2", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AVX2, 0);
  if (best >= TRIDI_SIMD_AVX512)
    add_cfg(cfg, &k, "cpu/thomas/avx512", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AVX512,
            0);
  return k;
}

int tt_alg_configs(tt_config *cfg) {
  static const struct {
    tridi_alg alg;
    const char *name;
  } algs[] = {{TRIDI_ALG_CR, "cr"},
              {TRIDI_ALG_PCR, "pcr"},
              {TRIDI_ALG_RD, "rd"},
              {TRIDI_ALG_CR_PCR, "cr_pcr"},
              {TRIDI_ALG_CR_RD, "cr_rd"}};
  int k = 0;
  for (int be = 0; be < 2; ++be)
    for (int j = 0; j < 5; ++j) {
      char name[64];
      snprintf(name, sizeof name, "%s/%s", be ? "cpu" : "ref", algs[j].name);
      add_cfg(cfg, &k, name, be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF, algs[j].alg, TRIDI_SIMD_AUTO, 0);
    }
  return k;
}

void tt_check_plan_info(tridi_plan plan, const tt_config *cfg, int64_t n, int64_t nsys,
                        const char *ctx) {
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_status st = tridi_plan_get_info(plan, &pi);
  if (!tt_expect_status(st, TRIDI_SUCCESS, ctx)) return;
  const tridi_options *o = &cfg->opts;
  const tridi_backend want_be = o->backend == TRIDI_BACKEND_AUTO ? TRIDI_BACKEND_CPU : o->backend;
  if (pi.backend != want_be)
    tt_fail("%s: plan info backend %s, expected %s", ctx, tridi_backend_name(pi.backend),
            tridi_backend_name(want_be));
  if (o->alg != TRIDI_ALG_AUTO ? pi.alg != o->alg : pi.alg == TRIDI_ALG_AUTO)
    tt_fail("%s: plan info alg %s for requested %s", ctx, tridi_alg_name(pi.alg),
            tridi_alg_name(o->alg));
  if (pi.backend == TRIDI_BACKEND_REF && pi.simd != TRIDI_SIMD_AUTO)
    tt_fail("%s: plan info simd %s for a REF plan (expected auto)", ctx, tridi_simd_name(pi.simd));
  if (pi.backend == TRIDI_BACKEND_CPU) {
    const tridi_simd want = o->simd == TRIDI_SIMD_AUTO ? tridi_cpu_simd_detect() : o->simd;
    if (pi.alg == TRIDI_ALG_THOMAS && pi.simd != want)
      tt_fail("%s: plan info simd %s, expected %s", ctx, tridi_simd_name(pi.simd),
              tridi_simd_name(want));
    if (o->num_threads > 0 && pi.num_threads != o->num_threads)
      tt_fail("%s: plan info num_threads %d, requested %d", ctx, pi.num_threads, o->num_threads);
  }
  if (pi.num_threads < 1) tt_fail("%s: plan info num_threads %d < 1", ctx, pi.num_threads);
  if (pi.n != n || pi.num_systems != nsys)
    tt_fail("%s: plan info n=%" PRId64 " num_systems=%" PRId64 ", expected %" PRId64 " and %" PRId64,
            ctx, pi.n, pi.num_systems, n, nsys);
  if (!pi.kernel || !pi.kernel[0]) tt_fail("%s: plan info kernel name is empty", ctx);
}
