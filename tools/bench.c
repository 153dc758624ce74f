/* `tridi bench`: verifies and benchmarks the library on this machine.
 *
 * For every backend, dtype, layout and n: random diagonally dominant systems
 * filling a working set of about --size-mb MiB (a, b, c, d, x together),
 * tridi timed (median of --reps executes after warm-up), every system's
 * relative residual checked, the padding of x checked untouched, and a
 * baseline (LAPACK ?gtsv on the CPU, cuSPARSE on the GPU) run on the same
 * data.  See docs/benchmarks.md. */
#include "bench.h"
#include "bench_util.h"
#include "commands.h"

#include <float.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LIST 64
#define MID3D_X 64   /* extent of the fastest dimension of the mid3d layout */
#define LAUNCH_N 64  /* the launch-bound case: LAUNCH_BATCH systems of LAUNCH_N */
#define LAUNCH_BATCH 64
#define LAUNCH_REPS 200 /* at least this many timed executes for the launch case */

static const char *const all_layouts[] = {"contig", "interleaved", "mid3d", "padded", "launch"};
#define NUM_LAYOUTS ((int)(sizeof all_layouts / sizeof all_layouts[0]))

typedef struct bench_config {
  const bench_runner *runners[4];
  int nrunners;
  tridi_dtype dtypes[2];
  int ndtypes;
  int64_t ns[MAX_LIST];
  int nns;
  const char *layouts[NUM_LAYOUTS];
  int nlayouts;
  double size_mb;
  const char *csv_path;
  uint64_t seed;
  int quiet;
  int baseline_reps;
  tridi_alg algs[16]; /* --alg: algorithms run on every case, in order */
  int nalgs;
  bench_opts opts;
} bench_config;

void bench_note_plan(tridi_plan plan, bench_result *res) {
  tridi_plan_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  if (tridi_plan_get_info(plan, &info) != TRIDI_SUCCESS) return;
  snprintf(res->alg, sizeof res->alg, "%s", tridi_alg_name(info.alg));
  snprintf(res->kernel, sizeof res->kernel, "%s", info.kernel != NULL ? info.kernel : "");
  res->threads = info.backend == TRIDI_BACKEND_CUDA ? 0 : info.num_threads;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: tridi bench [options]\n"
          "\n"
          "Verify and benchmark tridi on this machine: effective bandwidth\n"
          "5*n*batch*sizeof(T)/time against the copy bandwidth measured in the\n"
          "same run, the relative residual of every system, and a baseline\n"
          "(LAPACK ?gtsv per system on the CPU) on the same data.\n"
          "\n"
          "options:\n"
          "  --backend LIST    cpu, cuda or all (default: cpu, plus cuda when available)\n"
          "  --dtype LIST      f32,f64 (default both)\n"
          "  --n LIST          system lengths (default 32,64,...,16384; --quick: 32,256,2048,16384)\n"
          "  --layout LIST     contig,interleaved,mid3d,padded,launch (default all)\n"
          "  --alg LIST        algorithms run on every case, e.g. auto,thomas,cr,pcr,rd,\n"
          "                    cr_pcr,cr_rd (default auto); after each case the fastest\n"
          "                    and auto's share of it are printed (docs/algorithms.md)\n"
          "  --size-mb MIB     working set of a,b,c,d,x per case (default 1024; --quick 64)\n"
          "  --quick           small working set, fewer n, fewer repeats\n"
          "  --threads N       CPU threads for tridi, the copy and the baseline\n"
          "                    (default: omp_get_max_threads())\n"
          "  --reps N          timed executes per case, median reported (default 10; --quick 5)\n"
          "  --warmup N        untimed executes first (default 1)\n"
          "  --baseline-reps N timed baseline passes per case (default 3)\n"
          "  --no-baseline     skip the baseline\n"
          "  --csv FILE        write one row per case to FILE\n"
          "  --seed N          seed of the random systems (default 1)\n"
          "  --quiet           no progress lines on stderr\n"
          "  --verbose         runner diagnostics on stderr\n"
          "  --help            this text\n"
          "\n"
          "layouts: contig = shape (B,n) axis 1; interleaved = shape (n,B) axis 0, B\n"
          "a multiple of 128 bytes of systems;\n"
          "mid3d = shape (B/%d,n,%d) axis 1; padded = shape (B,n) axis 1, row stride\n"
          "n+pad elements (rows not 64-byte aligned); launch = %d systems of n=%d,\n"
          "reported in microseconds per execute.\n"
          "\n"
          "exit status: 0 all cases verified, 1 a verification failure (residual above\n"
          "the bound, a failed execute, or padding of x written), 2 usage error.\n",
          MID3D_X, MID3D_X, LAUNCH_BATCH, LAUNCH_N);
}

/* ---- option parsing ------------------------------------------------------ */

static int parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  char *end = NULL;
  const long long v = strtoll(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return 0;
  *out = (int64_t)v;
  return 1;
}

/* Split a comma-separated list (in place) into at most max items. */
int bench_split_list(char *s, char **items, int max) {
  int k = 0;
  for (char *tok = strtok(s, ","); tok != NULL; tok = strtok(NULL, ",")) {
    if (k == max) return -1;
    items[k++] = tok;
  }
  return k;
}

static int add_runner(bench_config *cfg, const bench_runner *r) {
  for (int i = 0; i < cfg->nrunners; ++i)
    if (cfg->runners[i] == r) return 1;
  if (!r->available()) {
    fprintf(stderr, "tridi bench: backend %s is not available on this machine\n", r->name);
    return 0;
  }
  cfg->runners[cfg->nrunners++] = r;
  return 1;
}

static int parse_backends(bench_config *cfg, char *arg) {
  char *items[8];
  const int k = bench_split_list(arg, items, 8);
  if (k <= 0) return 0;
  for (int i = 0; i < k; ++i) {
    if (strcmp(items[i], "cpu") == 0) {
      if (!add_runner(cfg, &bench_runner_cpu)) return 0;
    } else if (strcmp(items[i], "cuda") == 0 || strcmp(items[i], "all") == 0) {
      if (strcmp(items[i], "all") == 0 && !add_runner(cfg, &bench_runner_cpu)) return 0;
#ifdef TRIDI_HAVE_CUDA
      if (!add_runner(cfg, &bench_runner_cuda) && strcmp(items[i], "cuda") == 0) return 0;
#else
      if (strcmp(items[i], "cuda") == 0) {
        fprintf(stderr, "tridi bench: this build has no CUDA backend\n");
        return 0;
      }
#endif
    } else {
      fprintf(stderr, "tridi bench: unknown backend '%s' (cpu, cuda, all)\n", items[i]);
      return 0;
    }
  }
  return 1;
}

static int parse_args(int argc, char **argv, bench_config *cfg) {
  enum {
    O_BACKEND = 256, O_DTYPE, O_N, O_LAYOUT, O_SIZE, O_QUICK, O_THREADS, O_REPS, O_WARMUP,
    O_BREPS, O_NOBASE, O_CSV, O_SEED, O_QUIET, O_VERBOSE, O_HELP, O_ALG
  };
  static const struct option longopts[] = {
      {"backend", required_argument, NULL, O_BACKEND},
      {"dtype", required_argument, NULL, O_DTYPE},
      {"n", required_argument, NULL, O_N},
      {"layout", required_argument, NULL, O_LAYOUT},
      {"size-mb", required_argument, NULL, O_SIZE},
      {"quick", no_argument, NULL, O_QUICK},
      {"threads", required_argument, NULL, O_THREADS},
      {"reps", required_argument, NULL, O_REPS},
      {"warmup", required_argument, NULL, O_WARMUP},
      {"baseline-reps", required_argument, NULL, O_BREPS},
      {"no-baseline", no_argument, NULL, O_NOBASE},
      {"csv", required_argument, NULL, O_CSV},
      {"seed", required_argument, NULL, O_SEED},
      {"quiet", no_argument, NULL, O_QUIET},
      {"verbose", no_argument, NULL, O_VERBOSE},
      {"help", no_argument, NULL, O_HELP},
      {"alg", required_argument, NULL, O_ALG},
      {NULL, 0, NULL, 0}};
  int quick = 0, have_n = 0, have_size = 0, have_reps = 0;
  char *backend_arg = NULL;
  int64_t v;
  memset(cfg, 0, sizeof *cfg);
  cfg->opts.reps = 10;
  cfg->opts.warmup = 1;
  cfg->opts.threads = omp_get_max_threads();
  cfg->opts.baseline = 1;
  cfg->baseline_reps = 3;
  cfg->seed = 1;
  cfg->size_mb = 1024.0;
  cfg->dtypes[0] = TRIDI_F32;
  cfg->dtypes[1] = TRIDI_F64;
  cfg->ndtypes = 2;
  for (int i = 0; i < NUM_LAYOUTS; ++i) cfg->layouts[i] = all_layouts[i];
  cfg->nlayouts = NUM_LAYOUTS;
  cfg->algs[0] = TRIDI_ALG_AUTO;
  cfg->nalgs = 1;

  optind = 1; /* argv[0] is "bench" */
  opterr = 1;
  int c;
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    switch (c) {
      case O_BACKEND: backend_arg = optarg; break;
      case O_DTYPE: {
        char *items[4];
        const int k = bench_split_list(optarg, items, 4);
        if (k <= 0) goto bad;
        cfg->ndtypes = 0;
        for (int i = 0; i < k; ++i) {
          tridi_dtype t;
          if (strcmp(items[i], "f32") == 0) t = TRIDI_F32;
          else if (strcmp(items[i], "f64") == 0) t = TRIDI_F64;
          else {
            fprintf(stderr, "tridi bench: unknown dtype '%s' (f32, f64)\n", items[i]);
            return 0;
          }
          if (cfg->ndtypes < 2) cfg->dtypes[cfg->ndtypes++] = t;
        }
        break;
      }
      case O_N: {
        char *items[MAX_LIST];
        const int k = bench_split_list(optarg, items, MAX_LIST);
        if (k <= 0) goto bad;
        for (int i = 0; i < k; ++i) {
          if (!parse_int64(items[i], 1, INT32_MAX, &cfg->ns[i])) {
            fprintf(stderr, "tridi bench: bad n '%s' (1 .. %d)\n", items[i], INT32_MAX);
            return 0;
          }
        }
        cfg->nns = k;
        have_n = 1;
        break;
      }
      case O_LAYOUT: {
        char *items[NUM_LAYOUTS];
        const int k = bench_split_list(optarg, items, NUM_LAYOUTS);
        if (k <= 0) goto bad;
        cfg->nlayouts = 0;
        for (int i = 0; i < k; ++i) {
          int found = -1;
          for (int j = 0; j < NUM_LAYOUTS; ++j)
            if (strcmp(items[i], all_layouts[j]) == 0) found = j;
          if (found < 0) {
            fprintf(stderr, "tridi bench: unknown layout '%s'\n", items[i]);
            return 0;
          }
          cfg->layouts[cfg->nlayouts++] = all_layouts[found];
        }
        break;
      }
      case O_SIZE: {
        char *end = NULL;
        cfg->size_mb = strtod(optarg, &end);
        if (end == optarg || *end != '\0' || !(cfg->size_mb > 0.0) || cfg->size_mb > 1e7) goto bad;
        have_size = 1;
        break;
      }
      case O_QUICK: quick = 1; break;
      case O_THREADS:
        if (!parse_int64(optarg, 1, 4096, &v)) goto bad;
        cfg->opts.threads = (int)v;
        break;
      case O_REPS:
        if (!parse_int64(optarg, 1, 100000, &v)) goto bad;
        cfg->opts.reps = (int)v;
        have_reps = 1;
        break;
      case O_WARMUP:
        if (!parse_int64(optarg, 0, 100000, &v)) goto bad;
        cfg->opts.warmup = (int)v;
        break;
      case O_BREPS:
        if (!parse_int64(optarg, 1, 100000, &v)) goto bad;
        cfg->baseline_reps = (int)v;
        break;
      case O_NOBASE: cfg->opts.baseline = 0; break;
      case O_CSV: cfg->csv_path = optarg; break;
      case O_SEED:
        if (!parse_int64(optarg, 0, INT64_MAX, &v)) goto bad;
        cfg->seed = (uint64_t)v;
        break;
      case O_ALG: {
        char *items[16];
        const int k = bench_split_list(optarg, items, 16);
        if (k <= 0) goto bad;
        cfg->nalgs = 0;
        for (int i = 0; i < k; ++i) {
          int found = -1;
          for (int a = TRIDI_ALG_AUTO; a <= TRIDI_ALG_CR_RD; ++a)
            if (strcmp(items[i], tridi_alg_name((tridi_alg)a)) == 0) found = a;
          if (found < 0) {
            fprintf(stderr, "tridi bench: unknown algorithm '%s' (auto, thomas_ref, thomas, "
                            "thomas_shared, thomas_shuffle, thomas_pcr, cr, pcr, rd, cr_pcr, "
                            "cr_rd)\n", items[i]);
            return 0;
          }
          cfg->algs[cfg->nalgs++] = (tridi_alg)found;
        }
        break;
      }
      case O_QUIET: cfg->quiet = 1; break;
      case O_VERBOSE: cfg->opts.verbose = 1; break;
      case O_HELP: usage(stdout); exit(TRIDI_EXIT_OK);
      default: usage(stderr); return 0;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tridi bench: unexpected argument '%s'\n", argv[optind]);
    return 0;
  }
  if (quick) {
    if (!have_size) cfg->size_mb = 64.0;
    if (!have_reps) cfg->opts.reps = 5;
  }
  if (!have_n) {
    if (quick) {
      const int64_t q[] = {32, 256, 2048, 16384};
      for (int i = 0; i < 4; ++i) cfg->ns[i] = q[i];
      cfg->nns = 4;
    } else {
      cfg->nns = 0;
      for (int64_t n = 32; n <= 16384; n *= 2) cfg->ns[cfg->nns++] = n;
    }
  }
  if (backend_arg != NULL) {
    if (!parse_backends(cfg, backend_arg)) return 0;
  } else {
    if (!add_runner(cfg, &bench_runner_cpu)) return 0;
#ifdef TRIDI_HAVE_CUDA
    if (bench_runner_cuda.available()) cfg->runners[cfg->nrunners++] = &bench_runner_cuda;
#endif
  }
  return 1;
bad:
  fprintf(stderr, "tridi bench: bad value '%s' for an option (see tridi bench --help)\n",
          optarg);
  return 0;
}

/* ---- cases --------------------------------------------------------------- */

/* Fill a case of `layout` whose described elements take about `elems`
 * elements per operand. */
void bench_make_case(bench_case *bc, const char *layout, tridi_dtype dt, int64_t n,
                     int64_t elems) {
  const int64_t es = (int64_t)tridi_dtype_size(dt);
  memset(bc, 0, sizeof *bc);
  bc->layout = layout;
  bc->dtype = dt;
  bc->rank = 2;
  int64_t B = elems / n;
  if (B < 1) B = 1;
  if (strcmp(layout, "launch") == 0) {
    n = LAUNCH_N;
    B = LAUNCH_BATCH;
    layout = "contig";
  }
  bc->n = n;
  if (strcmp(layout, "contig") == 0) {
    bc->shape[0] = B; bc->shape[1] = n; bc->axis = 1;
    bc->strides[0] = n; bc->strides[1] = 1;
    bc->alloc_elems = B * n;
  } else if (strcmp(layout, "interleaved") == 0) {
    /* B rounded down to whole 128-byte rows (as a grid's X extent of 2^k would
     * give, and as mid3d's rows are): rows that start off a 32-byte sector
     * cost the GPU kernels a third sector per access (docs/perf-log.md CUDA
     * v26); those are measured there, not here */
    const int64_t line = 128 / es;
    if (B >= line) B = B / line * line;
    bc->shape[0] = n; bc->shape[1] = B; bc->axis = 0;
    bc->strides[0] = B; bc->strides[1] = 1;
    bc->alloc_elems = B * n;
  } else if (strcmp(layout, "mid3d") == 0) {
    /* TRIDI_BENCH_MID3D_X: another extent of the fastest dimension (measurements
     * of the row stride's effect; docs/perf-log.md CUDA v26) */
    const char *ex = getenv("TRIDI_BENCH_MID3D_X");
    const int64_t X0 = ex && atoll(ex) > 0 ? atoll(ex) : MID3D_X;
    const int64_t X = B >= X0 ? X0 : B, Z = B / X; /* B rounded down */
    B = Z * X;
    bc->rank = 3;
    bc->shape[0] = Z; bc->shape[1] = n; bc->shape[2] = X; bc->axis = 1;
    bc->strides[0] = n * X; bc->strides[1] = X; bc->strides[2] = 1;
    bc->alloc_elems = Z * n * X;
  } else { /* padded: the smallest pad >= 3 that leaves rows not 64-byte aligned */
    int64_t pad = 3;
    while (((n + pad) * es) % 64 == 0) ++pad;
    bc->shape[0] = B; bc->shape[1] = n; bc->axis = 1;
    bc->strides[0] = n + pad; bc->strides[1] = 1;
    bc->alloc_elems = B * (n + pad);
  }
  bc->batch = B;
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

/* Random diagonally dominant systems over the whole allocation (element k of
 * every operand depends only on seed and k, so the data do not depend on the
 * thread count):  a, c, d uniform in [-1, 1), b = +-(|a| + |c| + 0.5 + u),
 * u uniform in [0, 1).  x is poisoned with all-ones bytes (a NaN). */
void bench_fill_data(const bench_case *bc, uint64_t seed, void *a, void *b, void *c, void *d,
                     void *x, int threads) {
  const int64_t m = bc->alloc_elems;
  const int f64 = bc->dtype == TRIDI_F64;
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
      ((double *)a)[k] = va; ((double *)b)[k] = vb; ((double *)c)[k] = vc; ((double *)d)[k] = vd;
    } else {
      ((float *)a)[k] = (float)va; ((float *)b)[k] = (float)vb;
      ((float *)c)[k] = (float)vc; ((float *)d)[k] = (float)vd;
    }
  }
  memset(x, 0xFF, (size_t)m * tridi_dtype_size(bc->dtype));
}

/* ---- verification -------------------------------------------------------- */

/* Max over systems of ||A x - d||_inf / (||A||_inf ||x||_inf + ||d||_inf),
 * computed in double; +inf when any x is NaN/Inf. */
static double max_residual(const bench_case *bc, const bench_data *data, int threads) {
  const int64_t n = bc->n, nsys = bc->batch, as = bc->strides[bc->axis];
  const int f64 = bc->dtype == TRIDI_F64;
  double worst = 0.0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(max : worst)
  for (int64_t s = 0; s < nsys; ++s) {
    const int64_t o = bench_system_offset(bc, s);
#define LOAD(P, e) (f64 ? ((const double *)(P))[e] : (double)((const float *)(P))[e])
    double rmax = 0.0, amax = 0.0, xmax = 0.0, dmax = 0.0;
    int finite = 1;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t e = o + i * as;
      const double xi = LOAD(data->x, e), bi = LOAD(data->b, e), di = LOAD(data->d, e);
      double r = bi * xi - di, arow = fabs(bi);
      if (i > 0) {
        const double ai = LOAD(data->a, e);
        r += ai * LOAD(data->x, e - as);
        arow += fabs(ai);
      }
      if (i < n - 1) {
        const double ci = LOAD(data->c, e);
        r += ci * LOAD(data->x, e + as);
        arow += fabs(ci);
      }
      if (!isfinite(xi)) finite = 0;
      if (fabs(r) > rmax) rmax = fabs(r);
      if (arow > amax) amax = arow;
      if (fabs(xi) > xmax) xmax = fabs(xi);
      if (fabs(di) > dmax) dmax = fabs(di);
    }
#undef LOAD
    const double den = amax * xmax + dmax;
    const double rel = !finite ? INFINITY : (den > 0.0 ? rmax / den : rmax);
    if (rel > worst) worst = rel;
  }
  return worst;
}

/* Documented bound on the relative residual: 4 * max(n, 8) * eps(T). */
static double residual_bound(const bench_case *bc) {
  const double eps = bc->dtype == TRIDI_F64 ? DBL_EPSILON : (double)FLT_EPSILON;
  return 4.0 * (double)(bc->n > 8 ? bc->n : 8) * eps;
}

/* 1 when every element of x outside the layout still holds the poison
 * (all-ones bytes).  mask: alloc_elems bytes of scratch. */
static int padding_untouched(const bench_case *bc, const bench_data *data, unsigned char *mask,
                             int threads) {
  const int64_t m = bc->alloc_elems, n = bc->n, as = bc->strides[bc->axis];
  if (m == n * bc->batch) return 1; /* no element outside the layout */
  const size_t es = tridi_dtype_size(bc->dtype);
  memset(mask, 0, (size_t)m);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t s = 0; s < bc->batch; ++s) {
    const int64_t o = bench_system_offset(bc, s);
    for (int64_t i = 0; i < n; ++i) mask[o + i * as] = 1;
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

/* ---- output -------------------------------------------------------------- */

static int is_launch(const char *layout) { return strcmp(layout, "launch") == 0; }

static void print_header(void) {
  printf("%-5s %-4s %-12s %6s %9s %-10s %12s %8s %7s %6s %9s %-13s %12s %7s %s\n", "back",
         "type", "layout", "n", "batch", "alg", "time", "GB/s", "copy", "%copy", "residual",
         "baseline", "base time", "speedup", "check");
}

static void fmt_time(char *buf, size_t len, double ms, int launch) {
  if (!(ms == ms)) snprintf(buf, len, "-");
  else if (launch) snprintf(buf, len, "%.2f us", ms * 1e3);
  else snprintf(buf, len, "%.3f ms", ms);
}

static void print_row(const bench_runner *r, const bench_case *bc, const char *layout,
                      const bench_result *res, double copy) {
  char t1[32], t2[32], sp[32];
  const int launch = is_launch(layout);
  fmt_time(t1, sizeof t1, res->ms, launch);
  fmt_time(t2, sizeof t2, res->baseline[0] ? res->baseline_ms : NAN, launch);
  if (res->baseline[0] && res->speedup == res->speedup) snprintf(sp, sizeof sp, "%.2fx", res->speedup);
  else snprintf(sp, sizeof sp, "-");
  const char *check = res->ok ? "ok" : (res->status != TRIDI_SUCCESS ? tridi_status_name(res->status)
                                        : (!res->untouched_ok ? "PADDING-WRITTEN" : "RESIDUAL"));
  printf("%-5s %-4s %-12s %6lld %9lld %-10s %12s %8.1f %7.1f %6.1f %9.2e %-13s %12s %7s %s\n",
         r->name, tridi_dtype_name(bc->dtype), layout, (long long)bc->n, (long long)bc->batch,
         res->alg[0] ? res->alg : "-", t1, res->gbps, copy, res->pct_copy, res->residual,
         res->baseline[0] ? res->baseline : "-", t2, sp, check);
  fflush(stdout);
}

static void csv_header(FILE *f) {
  fprintf(f, "backend,device,date,dtype,layout,n,batch,alg,kernel,threads,ms,ms_min,gbps,"
             "copy_gbps,pct_copy,residual,residual_bound,ok,baseline,baseline_ms,"
             "baseline_gbps,baseline_residual,speedup,req_alg\n");
}

static void csv_row(FILE *f, const bench_runner *r, const char *date, double copy,
                    const bench_case *bc, const char *layout, const bench_result *res,
                    tridi_alg req) {
  fprintf(f, "%s,%s,%s,%s,%s,%lld,%lld,%s,%s,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.3e,%.3e,%d,%s,%.6g,%.6g,"
             "%.3e,%.6g,%s\n",
          r->name, r->device_name(), date, tridi_dtype_name(bc->dtype), layout, (long long)bc->n,
          (long long)bc->batch, res->alg, res->kernel, res->threads, res->ms, res->ms_min,
          res->gbps, copy, res->pct_copy, res->residual, residual_bound(bc), res->ok,
          res->baseline, res->baseline_ms, res->baseline_gbps, res->baseline_residual,
          res->speedup, tridi_alg_name(req));
  fflush(f);
}

/* ---- the sweep ----------------------------------------------------------- */

int tridi_cmd_bench(int argc, char **argv) {
  bench_config cfg;
  if (!parse_args(argc, argv, &cfg)) return TRIDI_EXIT_USAGE;

  const double set_bytes = cfg.size_mb * 1024.0 * 1024.0;
  char date[32];
  const time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

  /* every case, to size the buffers once */
  int ncases = 0;
  size_t max_bytes = 0;
  int64_t max_elems = 0;
  for (int di = 0; di < cfg.ndtypes; ++di)
    for (int li = 0; li < cfg.nlayouts; ++li)
      for (int ni = 0; ni < cfg.nns; ++ni) {
        const int launch = strcmp(cfg.layouts[li], "launch") == 0;
        if (launch && ni > 0) break; /* one launch case per dtype */
        bench_case bc;
        const size_t es = tridi_dtype_size(cfg.dtypes[di]);
        bench_make_case(&bc, cfg.layouts[li], cfg.dtypes[di], cfg.ns[ni],
                  (int64_t)(set_bytes / (5.0 * (double)es)));
        if ((size_t)bc.alloc_elems * es > max_bytes) max_bytes = (size_t)bc.alloc_elems * es;
        if (bc.alloc_elems > max_elems) max_elems = bc.alloc_elems;
        ++ncases;
      }
  ncases *= cfg.nrunners * cfg.nalgs;

  void *buf[5];
  for (int k = 0; k < 5; ++k) buf[k] = bench_alloc(max_bytes);
  unsigned char *mask = bench_alloc((size_t)max_elems);
  if (!buf[0] || !buf[1] || !buf[2] || !buf[3] || !buf[4] || !mask) {
    fprintf(stderr, "tridi bench: cannot allocate 5 x %.0f MiB\n", (double)max_bytes / 1048576.0);
    for (int k = 0; k < 5; ++k) bench_free(buf[k]);
    bench_free(mask);
    return TRIDI_EXIT_FAIL;
  }
  const bench_data data = {buf[0], buf[1], buf[2], buf[3], buf[4]};

  FILE *csv = NULL;
  if (cfg.csv_path != NULL) {
    csv = fopen(cfg.csv_path, "w");
    if (csv == NULL) {
      fprintf(stderr, "tridi bench: cannot write %s\n", cfg.csv_path);
      for (int k = 0; k < 5; ++k) bench_free(buf[k]);
      bench_free(mask);
      return TRIDI_EXIT_USAGE;
    }
    csv_header(csv);
  }

  int failures = 0, done = 0;
  const double t_start = bench_now();
  for (int ri = 0; ri < cfg.nrunners; ++ri) {
    const bench_runner *r = cfg.runners[ri];
    const double copy0 = r->copy_gbps((size_t)(set_bytes / 2.0), &cfg.opts);
    if (r->backend == TRIDI_BACKEND_CPU)
      printf("# tridi bench: backend %s, device %s, %d threads, SIMD %s, %s\n", r->name,
             r->device_name(), cfg.opts.threads, tridi_simd_name(tridi_cpu_simd_detect()), date);
    else
      printf("# tridi bench: backend %s, device %s, %s\n", r->name, r->device_name(), date);
    printf("# copy bandwidth %.1f GB/s at the start (read+write of 2 x %.0f MiB, median), and "
           "again before every case (column copy: %%copy uses it); working set %.0f MiB per "
           "case; residual bound 4*max(n,8)*eps\n",
           copy0, cfg.size_mb / 2.0, cfg.size_mb);
    print_header();
    for (int di = 0; di < cfg.ndtypes; ++di)
      for (int li = 0; li < cfg.nlayouts; ++li)
        for (int ni = 0; ni < cfg.nns; ++ni) {
          const char *layout = cfg.layouts[li];
          if (strcmp(layout, "launch") == 0 && ni > 0) break;
          bench_case bc;
          const size_t es = tridi_dtype_size(cfg.dtypes[di]);
          bench_make_case(&bc, layout, cfg.dtypes[di], cfg.ns[ni],
                    (int64_t)(set_bytes / (5.0 * (double)es)));
          done += cfg.nalgs;
          if (!cfg.quiet)
            fprintf(stderr, "[%d/%d %.0fs] %s %s %s n=%lld batch=%lld\n", done, ncases,
                    bench_now() - t_start, r->name, tridi_dtype_name(bc.dtype), layout,
                    (long long)bc.n, (long long)bc.batch);
          bench_fill_data(&bc, cfg.seed, buf[0], buf[1], buf[2], buf[3], buf[4], cfg.opts.threads);
          /* The copy reference is measured next to each case: on a shared host
           * the memory bandwidth drifts by 2x over minutes (docs/benchmarks.md). */
          const double copy = r->copy_gbps((size_t)(set_bytes / 2.0), &cfg.opts);
          double best_gbps = 0.0, auto_gbps = NAN;
          const char *best_alg = NULL;
          for (int ai = 0; ai < cfg.nalgs; ++ai) {
            const tridi_alg req = cfg.algs[ai];
            bench_result res;
            memset(&res, 0, sizeof res);
            res.baseline_ms = res.baseline_gbps = res.baseline_residual = res.speedup = NAN;
            if (ai > 0) memset(buf[4], 0xFF, (size_t)bc.alloc_elems * es); /* x poisoned again */
            /* the launch-bound case takes microseconds: many more repeats */
            bench_opts ro = cfg.opts;
            ro.alg = req;
            if (is_launch(layout) && ro.reps < LAUNCH_REPS) ro.reps = LAUNCH_REPS;
            r->run_case(&bc, &ro, &data, &res);
            const double bytes = bench_bytes(&bc);
            /* a breakdown the algorithm reported still has a time (bench_cpu.c) */
            const int breakdown =
                res.status == TRIDI_ERR_ZERO_PIVOT || res.status == TRIDI_ERR_NONFINITE ||
                res.status == TRIDI_ERR_INACCURATE;
            if (res.status == TRIDI_SUCCESS || (breakdown && res.ms == res.ms)) {
              res.gbps = res.ms > 0.0 ? bytes / (res.ms * 1e-3) / 1e9 : NAN;
              res.pct_copy = 100.0 * res.gbps / copy;
              res.residual = max_residual(&bc, &data, cfg.opts.threads);
              res.untouched_ok = padding_untouched(&bc, &data, mask, cfg.opts.threads);
            } else {
              res.gbps = res.pct_copy = res.residual = NAN;
            }
            res.ok = res.status == TRIDI_SUCCESS && res.residual <= residual_bound(&bc) &&
                     res.untouched_ok;
            /* RD and CR+RD report (CPU) or leave unsolved (GPU: info only) the
             * dominant systems of this benchmark: RD's error grows like
             * (|b|/|c|)^n (docs/accuracy.md).  Shown, not counted as a failure. */
            const int expected = (req == TRIDI_ALG_RD || req == TRIDI_ALG_CR_RD) &&
                                 res.untouched_ok && (res.status == TRIDI_SUCCESS || breakdown);
            if (!res.ok && !expected) {
              ++failures;
              fprintf(stderr,
                      "tridi bench: FAILED %s %s %s n=%lld alg %s: status %s, residual %.3e "
                      "(bound %.3e), padding %s\n",
                      r->name, tridi_dtype_name(bc.dtype), layout, (long long)bc.n,
                      tridi_alg_name(req), tridi_status_name(res.status), res.residual,
                      residual_bound(&bc), res.untouched_ok ? "untouched" : "WRITTEN");
            }
            if (res.ok && res.gbps > best_gbps) {
              best_gbps = res.gbps;
              best_alg = tridi_alg_name(req);
            }
            if (req == TRIDI_ALG_AUTO && res.ok) auto_gbps = res.gbps;
            if (cfg.nalgs > 1 && req == TRIDI_ALG_AUTO) { /* auto(thomas) */
              char tmp[sizeof res.alg];
              memcpy(tmp, res.alg, sizeof tmp);
              snprintf(res.alg, sizeof res.alg, "auto(%.25s)", tmp);
            }
            if (ai == 0 && cfg.opts.baseline && r->run_baseline != NULL) {
              bench_opts bo = cfg.opts;
              bo.reps = is_launch(layout) ? ro.reps : cfg.baseline_reps;
              bo.warmup = is_launch(layout) ? cfg.opts.warmup : 0; /* its data are warm already */
              memset(buf[4], 0xFF, (size_t)bc.alloc_elems * es);
              r->run_baseline(&bc, &bo, &data, &res);
              if (res.baseline_status == TRIDI_SUCCESS) {
                res.baseline_gbps = bytes / (res.baseline_ms * 1e-3) / 1e9;
                res.baseline_residual = max_residual(&bc, &data, cfg.opts.threads);
                res.speedup = res.baseline_ms / res.ms;
              } else if (!cfg.quiet) {
                fprintf(stderr, "tridi bench: baseline %s: %s\n", res.baseline,
                        tridi_status_name(res.baseline_status));
              }
            }
            print_row(r, &bc, layout, &res, copy);
            if (csv != NULL) csv_row(csv, r, date, copy, &bc, layout, &res, req);
          }
          if (cfg.nalgs > 1 && best_alg != NULL) {
            if (auto_gbps == auto_gbps)
              printf("# fastest: %s %.1f GB/s; auto %.2f of it\n", best_alg, best_gbps,
                     auto_gbps / best_gbps);
            else
              printf("# fastest: %s %.1f GB/s\n", best_alg, best_gbps);
          }
        }
  }
  if (csv != NULL) fclose(csv);
  for (int k = 0; k < 5; ++k) bench_free(buf[k]);
  bench_free(mask);
  if (failures > 0) {
    fprintf(stderr, "tridi bench: %d of %d cases FAILED verification\n", failures, ncases);
    return TRIDI_EXIT_FAIL;
  }
  if (!cfg.quiet) fprintf(stderr, "tridi bench: all %d cases verified (%.0f s)\n", ncases,
                          bench_now() - t_start);
  return TRIDI_EXIT_OK;
}
