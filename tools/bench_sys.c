/* What every kind of `tridi bench` shares (tools/bench.h): the dominant
 * random data, the checks of a solution over a kind's systems, the LAPACK
 * baseline per system, and small helpers. */
#include "bench.h"
#include "bench_util.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double bench_bytes(const bench_case *bc) {
  return bc->words_per_unknown * (double)bc->unknowns * (double)tridi_dtype_size(bc->dtype);
}

int64_t bench_max_alloc(const bench_case *bc) {
  int64_t m = 0;
  for (int op = 0; op < BENCH_NOPS; ++op)
    if (bc->alloc_elems[op] > m) m = bc->alloc_elems[op];
  return m;
}

void bench_note_plan(tridi_plan plan, bench_result *res) {
  tridi_plan_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  if (tridi_plan_get_info(plan, &info) != TRIDI_SUCCESS) return;
  snprintf(res->alg, sizeof res->alg, "%s", tridi_alg_name(info.alg));
  snprintf(res->kernel, sizeof res->kernel, "%s", info.kernel != NULL ? info.kernel : "");
  res->threads = info.backend == TRIDI_BACKEND_CUDA ? 0 : info.num_threads;
}

int bench_split_list(char *s, char **items, int max) {
  int k = 0;
  for (char *p = s;;) {
    char *comma = strchr(p, ',');
    if (comma != NULL) *comma = '\0';
    if (*p == '\0') return -2;
    if (k == max) return -1;
    items[k++] = p;
    if (comma == NULL) return k;
    p = comma + 1;
  }
}

/* ---- data ---------------------------------------------------------------- */

static inline uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* uniform in [0, 1) from 53 random bits */
static inline double u01(uint64_t r) { return (double)(r >> 11) * (1.0 / 9007199254740992.0); }

void bench_fill_dominant(const bench_case *bc, uint64_t seed, const bench_data *data, int threads) {
  const int64_t m = bench_max_alloc(bc);
  const int64_t ma = bc->alloc_elems[0], mb = bc->alloc_elems[1];
  const int64_t mc = bc->alloc_elems[2], md = bc->alloc_elems[3];
  const int f64 = bc->dtype == TRIDI_F64;
  void *a = (void *)data->a, *b = (void *)data->b, *c = (void *)data->c, *d = (void *)data->d;
  const uint64_t key = splitmix64(seed ^ 0x7472696469ull) ^ (uint64_t)bc->n * 0x100000001B3ull;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t k = 0; k < m; ++k) {
    const uint64_t r0 = splitmix64(key + 4 * (uint64_t)k);
    const uint64_t r1 = splitmix64(key + 4 * (uint64_t)k + 1);
    const uint64_t r2 = splitmix64(key + 4 * (uint64_t)k + 2);
    const uint64_t r3 = splitmix64(key + 4 * (uint64_t)k + 3);
    const double va = 2.0 * u01(r0) - 1.0, vc = 2.0 * u01(r1) - 1.0, vd = 2.0 * u01(r2) - 1.0;
    double vb = fabs(va) + fabs(vc) + 0.5 + u01(r3);
    if (r3 & 1u) vb = -vb;
    if (f64) {
      if (k < ma) ((double *)a)[k] = va;
      if (k < mb) ((double *)b)[k] = vb;
      if (k < mc) ((double *)c)[k] = vc;
      if (k < md) ((double *)d)[k] = vd;
    } else {
      if (k < ma) ((float *)a)[k] = (float)va;
      if (k < mb) ((float *)b)[k] = (float)vb;
      if (k < mc) ((float *)c)[k] = (float)vc;
      if (k < md) ((float *)d)[k] = (float)vd;
    }
  }
  memset(data->x, 0xFF, (size_t)bc->alloc_elems[4] * tridi_dtype_size(bc->dtype));
}

/* ---- checks -------------------------------------------------------------- */

#define LOAD(P, e) (f64 ? ((const double *)(P))[e] : (double)((const float *)(P))[e])

/* Max over systems of ||A x - d||_inf / (||A||_inf ||x||_inf + ||d||_inf),
 * computed in double; +inf when any x is NaN/Inf. */
static double max_residual(const bench_case *bc, const bench_data *data, int threads) {
  const int f64 = bc->dtype == TRIDI_F64;
  double worst = 0.0;
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads) reduction(max : worst)
  for (int64_t s = 0; s < bc->batch; ++s) {
    bench_sys S;
    bc->kind->system(bc, s, &S);
    const int64_t n = S.n;
    const int64_t *o = S.off, *inc = S.inc;
    double rmax = 0.0, amax = 0.0, xmax = 0.0, dmax = 0.0;
    int finite = 1;
    for (int64_t i = 0; i < n; ++i) {
      const double xi = LOAD(data->x, o[4] + i * inc[4]), bi = LOAD(data->b, o[1] + i * inc[1]);
      const double di = LOAD(data->d, o[3] + i * inc[3]);
      double r = bi * xi - di, arow = fabs(bi);
      if (i > 0) {
        const double ai = LOAD(data->a, o[0] + i * inc[0]);
        r += ai * LOAD(data->x, o[4] + (i - 1) * inc[4]);
        arow += fabs(ai);
      }
      if (i < n - 1) {
        const double ci = LOAD(data->c, o[2] + i * inc[2]);
        r += ci * LOAD(data->x, o[4] + (i + 1) * inc[4]);
        arow += fabs(ci);
      }
      if (!isfinite(xi)) finite = 0;
      if (fabs(r) > rmax) rmax = fabs(r);
      if (arow > amax) amax = arow;
      if (fabs(xi) > xmax) xmax = fabs(xi);
      if (fabs(di) > dmax) dmax = fabs(di);
    }
    const double den = amax * xmax + dmax;
    const double rel = !finite ? INFINITY : (den > 0.0 ? rmax / den : rmax);
    if (rel > worst) worst = rel;
  }
  return worst;
}
#undef LOAD

/* 1 when every element of x that no system touches still holds the poison
 * (all-ones bytes). */
static int padding_untouched(const bench_case *bc, const bench_data *data, unsigned char *mask,
                             int threads) {
  const int64_t m = bc->alloc_elems[4];
  if (m == bc->unknowns) return 1; /* x's systems do not share elements: none outside */
  const size_t es = tridi_dtype_size(bc->dtype);
  memset(mask, 0, (size_t)m);
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
  for (int64_t s = 0; s < bc->batch; ++s) {
    bench_sys S;
    bc->kind->system(bc, s, &S);
    for (int64_t i = 0; i < S.n; ++i) mask[S.off[4] + i * S.inc[4]] = 1;
  }
  int ok = 1;
  const unsigned char *xb = data->x;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(&& : ok)
  for (int64_t k = 0; k < m; ++k) {
    if (mask[k]) continue;
    for (size_t j = 0; j < es; ++j)
      if (xb[(size_t)k * es + j] != 0xFF) ok = 0;
  }
  return ok;
}

void bench_check_rows(const bench_case *bc, const bench_data *data, int threads,
                      unsigned char *mask, bench_check *out) {
  const double eps = bc->dtype == TRIDI_F64 ? DBL_EPSILON : (double)FLT_EPSILON;
  out->bound = 4.0 * (double)(bc->nmax > 8 ? bc->nmax : 8) * eps;
  out->residual = max_residual(bc, data, threads);
  out->untouched = padding_untouched(bc, data, mask, threads);
}

/* ---- LAPACK ?gtsv per system ---------------------------------------------- */

/* LAPACK (Fortran calling convention, 32-bit integers: LP64 OpenBLAS /
 * reference LAPACK).  ?gtsv overwrites dl, d, du and b. */
void sgtsv_(const int *n, const int *nrhs, float *dl, float *d, float *du, float *b,
            const int *ldb, int *info);
void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b,
            const int *ldb, int *info);

/* One pass: every system gathered into contiguous per-thread scratch (a as
 * dl, b, c as du, d as the right-hand side), ?gtsv, the solution copied out
 * to x; OpenMP over systems.  Returns 1 when some ?gtsv info was non-zero. */
#define DEFINE_GTSV_PASS(T, GTSV)                                                          \
  static int gtsv_pass_##T(const bench_case *bc, const bench_opts *opts,                  \
                           const bench_data *data, T *scratch) {                          \
    const int64_t nmax = bc->nmax;                                                        \
    const T *A = data->a, *B = data->b, *C = data->c, *D = data->d;                       \
    T *X = data->x;                                                                       \
    int bad = 0;                                                                          \
    _Pragma("omp parallel num_threads(opts->threads) reduction(|| : bad)") {              \
      T *dl = scratch + (size_t)omp_get_thread_num() * 4u * (size_t)nmax;                 \
      T *dd = dl + nmax, *du = dd + nmax, *rhs = du + nmax;                               \
      _Pragma("omp for schedule(static)") for (int64_t s = 0; s < bc->batch; ++s) {       \
        bench_sys S;                                                                      \
        bc->kind->system(bc, s, &S);                                                      \
        const int64_t n = S.n, *o = S.off, *inc = S.inc;                                  \
        if (n == 0) continue;                                                             \
        const int nn = (int)n, nrhs = 1, ldb = nn;                                        \
        for (int64_t i = 0; i < n - 1; ++i) {                                             \
          dl[i] = A[o[0] + (i + 1) * inc[0]]; /* dl(i) = a(i+1) */                        \
          du[i] = C[o[2] + i * inc[2]];                                                   \
        }                                                                                 \
        for (int64_t i = 0; i < n; ++i) {                                                 \
          dd[i] = B[o[1] + i * inc[1]];                                                   \
          rhs[i] = D[o[3] + i * inc[3]];                                                  \
        }                                                                                 \
        int info = 0;                                                                     \
        GTSV(&nn, &nrhs, dl, dd, du, rhs, &ldb, &info);                                   \
        if (info != 0) bad = 1;                                                           \
        for (int64_t i = 0; i < n; ++i) X[o[4] + i * inc[4]] = rhs[i];                    \
      }                                                                                   \
    }                                                                                     \
    return bad;                                                                           \
  }
DEFINE_GTSV_PASS(float, sgtsv_)
DEFINE_GTSV_PASS(double, dgtsv_)

static int lapack_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                      bench_result *res) {
  const int f64 = bc->dtype == TRIDI_F64;
  snprintf(res->baseline, sizeof res->baseline, "lapack_%s", f64 ? "dgtsv" : "sgtsv");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  if (bc->nmax > 0x7fffffff) {
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED;
    return 1;
  }
  if (bc->nmax == 0 || bc->batch == 0) {
    res->baseline_ms = 0.0;
    return 0;
  }
  const size_t es = f64 ? sizeof(double) : sizeof(float);
  void *scratch = bench_alloc((size_t)opts->threads * 4u * (size_t)bc->nmax * es + 64);
  double *t_ms = malloc(sizeof(double) * (size_t)opts->reps);
  if (scratch == NULL || t_ms == NULL) {
    bench_free(scratch);
    free(t_ms);
    res->baseline_status = TRIDI_ERR_ALLOC;
    return 1;
  }
  int bad = 0;
  for (int r = -opts->warmup; r < opts->reps; ++r) {
    const double t0 = bench_now();
    bad |= f64 ? gtsv_pass_double(bc, opts, data, scratch) : gtsv_pass_float(bc, opts, data, scratch);
    const double t1 = bench_now();
    if (r >= 0) t_ms[r] = (t1 - t0) * 1e3;
  }
  res->baseline_ms = bench_median(t_ms, opts->reps);
  if (bad) res->baseline_status = TRIDI_ERR_ZERO_PIVOT; /* ?gtsv info > 0: singular */
  free(t_ms);
  bench_free(scratch);
  return bad;
}

const bench_baseline bench_baseline_lapack = {
    .name = "LAPACK ?gtsv per system",
    .backend = TRIDI_BACKEND_CPU,
    .run = lapack_run,
};
