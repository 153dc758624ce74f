/* CPU runner of `tridi bench`: tridi on TRIDI_BACKEND_CPU, the copy
 * bandwidth (OpenMP-parallel memcpy) and the LAPACK ?gtsv baseline. */
#include "bench.h"
#include "bench_util.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK (Fortran calling convention, 32-bit integers: LP64 OpenBLAS /
 * reference LAPACK).  ?gtsv overwrites dl, d, du and b. */
void sgtsv_(const int *n, const int *nrhs, float *dl, float *d, float *du, float *b,
            const int *ldb, int *info);
void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b,
            const int *ldb, int *info);

static int cpu_available(void) { return tridi_backend_available(TRIDI_BACKEND_CPU); }

static const char *cpu_device_name(void) {
  static char name[128];
  if (name[0] != '\0') return name;
  snprintf(name, sizeof name, "cpu");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f == NULL) return name;
  char line[512];
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "model name", 10) == 0) {
      const char *p = strchr(line, ':');
      if (p == NULL) break;
      ++p;
      while (*p == ' ' || *p == '\t') ++p;
      size_t len = strcspn(p, "\n");
      if (len >= sizeof name) len = sizeof name - 1;
      memcpy(name, p, len);
      name[len] = '\0';
      /* commas would break the CSV */
      for (char *q = name; *q != '\0'; ++q)
        if (*q == ',') *q = ';';
      break;
    }
  }
  fclose(f);
  return name;
}

/* Copy `bytes` bytes from one buffer to another with every thread copying
 * its own contiguous chunk; counts read + write bytes. */
static double cpu_copy_gbps(size_t bytes, const bench_opts *opts) {
  const size_t chunk_align = 4096;
  bytes = (bytes + chunk_align - 1) / chunk_align * chunk_align;
  char *src = bench_alloc(bytes), *dst = bench_alloc(bytes);
  if (src == NULL || dst == NULL) {
    bench_free(src);
    bench_free(dst);
    return -1.0;
  }
  const int nt = opts->threads;
  /* first touch by the threads that copy */
#pragma omp parallel num_threads(nt)
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const size_t per = (bytes / (size_t)T + chunk_align - 1) / chunk_align * chunk_align;
    const size_t lo = per * (size_t)t < bytes ? per * (size_t)t : bytes;
    const size_t hi = lo + per < bytes ? lo + per : bytes;
    memset(src + lo, 1, hi - lo);
    memset(dst + lo, 0, hi - lo);
  }
  const int reps = opts->reps < 10 ? 10 : opts->reps;
  double *t_ms = malloc(sizeof(double) * (size_t)reps);
  if (t_ms == NULL) {
    bench_free(src);
    bench_free(dst);
    return -1.0;
  }
  /* Small (cache-resident) buffers: each timed sample repeats the copy
   * `inner` times so that it lasts about 10 ms (set from the warm-up). */
  int inner = 1;
  for (int r = -1; r < reps; ++r) { /* r = -1: warm-up */
    const double t0 = bench_now();
#pragma omp parallel num_threads(nt)
    {
      const int t = omp_get_thread_num(), T = omp_get_num_threads();
      const size_t per = (bytes / (size_t)T + chunk_align - 1) / chunk_align * chunk_align;
      const size_t lo = per * (size_t)t < bytes ? per * (size_t)t : bytes;
      const size_t hi = lo + per < bytes ? lo + per : bytes;
      for (int k = 0; k < inner; ++k) memcpy(dst + lo, src + lo, hi - lo);
    }
    const double t1 = bench_now();
    if (r >= 0) {
      t_ms[r] = (t1 - t0) * 1e3 / inner;
    } else if (t1 - t0 < 0.01) {
      inner = (int)(0.01 / (t1 - t0 > 1e-6 ? t1 - t0 : 1e-6));
      if (inner > 10000) inner = 10000;
      if (inner < 1) inner = 1;
    }
  }
  const double med = bench_median(t_ms, reps);
  free(t_ms);
  bench_free(src);
  bench_free(dst);
  return 2.0 * (double)bytes / (med * 1e-3) / 1e9;
}

static int make_desc(const bench_case *bc, tridi_desc *desc) {
  tridi_status st = tridi_desc_create(desc, bc->dtype, bc->rank, bc->shape, bc->axis);
  if (st != TRIDI_SUCCESS) return (int)st;
  st = tridi_desc_set_all_strides(*desc, bc->strides);
  if (st != TRIDI_SUCCESS) {
    tridi_desc_destroy(*desc);
    *desc = NULL;
  }
  return (int)st;
}

static int cpu_run_case(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                        bench_result *res) {
  res->status = TRIDI_SUCCESS;
  res->ms = res->ms_min = NAN;
  tridi_desc desc = NULL;
  tridi_status st = (tridi_status)make_desc(bc, &desc);
  if (st != TRIDI_SUCCESS) {
    res->status = st;
    if (opts->verbose) fprintf(stderr, "tridi bench: descriptor: %s\n", tridi_last_error());
    return 1;
  }
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CPU;
  o.alg = opts->alg;
  o.num_threads = opts->threads;
  tridi_plan plan = NULL;
  st = tridi_plan_create(&plan, desc, &o);
  tridi_desc_destroy(desc);
  if (st != TRIDI_SUCCESS) {
    res->status = st;
    if (opts->verbose) fprintf(stderr, "tridi bench: plan: %s\n", tridi_last_error());
    return 1;
  }
  bench_note_plan(plan, res);
  double *t_ms = malloc(sizeof(double) * (size_t)opts->reps);
  if (t_ms == NULL) {
    tridi_plan_destroy(plan);
    res->status = TRIDI_ERR_ALLOC;
    return 1;
  }
  /* a breakdown the algorithm reports (e.g. RD's failed accuracy check on
   * dominant systems, --alg rd) is a result, not an error: timed all the
   * same, and the status is shown in the row */
  int hard = 0;
  for (int r = -opts->warmup; r < opts->reps; ++r) {
    const double t0 = bench_now();
    st = tridi_execute(plan, data->a, data->b, data->c, data->d, data->x, NULL, NULL);
    const double t1 = bench_now();
    if (st != TRIDI_SUCCESS) {
      res->status = st;
      if (opts->verbose) fprintf(stderr, "tridi bench: execute: %s\n", tridi_last_error());
      if (st != TRIDI_ERR_ZERO_PIVOT && st != TRIDI_ERR_NONFINITE && st != TRIDI_ERR_INACCURATE) {
        hard = 1;
        break;
      }
    }
    if (r >= 0) t_ms[r] = (t1 - t0) * 1e3;
  }
  if (!hard) {
    res->ms = bench_median(t_ms, opts->reps);
    res->ms_min = t_ms[0];
    for (int r = 1; r < opts->reps; ++r)
      if (t_ms[r] < res->ms_min) res->ms_min = t_ms[r];
  }
  free(t_ms);
  tridi_plan_destroy(plan);
  return st == TRIDI_SUCCESS ? 0 : 1;
}

/* One baseline pass: every system copied into contiguous per-thread scratch
 * (a as dl, b, c as du, d as the right-hand side), ?gtsv, solution copied
 * out to x.  The loop over systems runs on opts->threads OpenMP threads.
 * Returns the first non-zero LAPACK info (0 when all solved). */
#define DEFINE_GTSV_PASS(T, GTSV)                                                          \
  static int gtsv_pass_##T(const bench_case *bc, const bench_opts *opts,                  \
                           const bench_data *data, T *scratch) {                          \
    const int64_t n = bc->n, nsys = bc->batch;                                            \
    const int nn = (int)n, nrhs = 1, ldb = nn > 1 ? nn : 1;                               \
    const T *A = data->a, *B = data->b, *C = data->c, *D = data->d;                       \
    T *X = data->x;                                                                       \
    const int64_t as = bc->strides[bc->axis];                                             \
    int bad = 0;                                                                          \
    _Pragma("omp parallel num_threads(opts->threads) reduction(|| : bad)") {              \
      T *dl = scratch + (size_t)omp_get_thread_num() * 4u * (size_t)n;                    \
      T *dd = dl + n, *du = dd + n, *rhs = du + n;                                        \
      _Pragma("omp for schedule(static)") for (int64_t s = 0; s < nsys; ++s) {            \
        const int64_t o = bench_system_offset(bc, s);                                     \
        for (int64_t i = 0; i < n - 1; ++i) {                                             \
          const int64_t e = o + i * as;                                                   \
          dl[i] = A[e + as]; /* dl(i) = a(i+1) */                                         \
          du[i] = C[e];                                                                   \
        }                                                                                 \
        for (int64_t i = 0; i < n; ++i) {                                                 \
          const int64_t e = o + i * as;                                                   \
          dd[i] = B[e];                                                                   \
          rhs[i] = D[e];                                                                  \
        }                                                                                 \
        int info = 0;                                                                     \
        GTSV(&nn, &nrhs, dl, dd, du, rhs, &ldb, &info);                                   \
        if (info != 0) bad = 1;                                                           \
        for (int64_t i = 0; i < n; ++i) X[o + i * as] = rhs[i];                           \
      }                                                                                   \
    }                                                                                     \
    return bad;                                                                           \
  }
DEFINE_GTSV_PASS(float, sgtsv_)
DEFINE_GTSV_PASS(double, dgtsv_)

static int cpu_run_baseline(const bench_case *bc, const bench_opts *opts,
                            const bench_data *data, bench_result *res) {
  const int f64 = bc->dtype == TRIDI_F64;
  snprintf(res->baseline, sizeof res->baseline, "lapack_%s", f64 ? "dgtsv" : "sgtsv");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  if (bc->n > 0x7fffffff) {
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED;
    return 1;
  }
  if (bc->n == 0 || bc->batch == 0) {
    res->baseline_ms = 0.0;
    return 0;
  }
  const size_t es = f64 ? sizeof(double) : sizeof(float);
  void *scratch = bench_alloc((size_t)opts->threads * 4u * (size_t)bc->n * es + 64);
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
    bad |= f64 ? gtsv_pass_double(bc, opts, data, scratch)
               : gtsv_pass_float(bc, opts, data, scratch);
    const double t1 = bench_now();
    if (r >= 0) t_ms[r] = (t1 - t0) * 1e3;
  }
  res->baseline_ms = bench_median(t_ms, opts->reps);
  if (bad) res->baseline_status = TRIDI_ERR_ZERO_PIVOT; /* ?gtsv info > 0: singular */
  free(t_ms);
  bench_free(scratch);
  return bad;
}

const bench_runner bench_runner_cpu = {
    .name = "cpu",
    .backend = TRIDI_BACKEND_CPU,
    .available = cpu_available,
    .device_name = cpu_device_name,
    .copy_gbps = cpu_copy_gbps,
    .run_case = cpu_run_case,
    .run_baseline = cpu_run_baseline,
};
