/* `tridi bench --problem fft`: batched complex FFTs of n = 2^k points at a
 * fixed total of 2^T elements (batch = 2^T / n), tridi against FFTW on the
 * CPU and cuFFT on the GPU, same data, same run.  Reported: the median time,
 * GFLOPS = 5 n log2(n) batch / t, the passes over memory of tridi's plan and
 * its effective bandwidth (2 x elements x size x passes / t) against the
 * copy bandwidth measured before the case, the relative 2-norm error of
 * every transform against the oracle (CPU: FFTW's result, or the round trip
 * without FFTW; GPU: tridi's CPU reference), the speed-up over the baseline.
 * The CSV has the columns of docs/benchmarks.md, then gflops, passes,
 * baseline_gflops (docs/fft.md). */
#include "bench_fft.h"
#include "bench.h"
#include "bench_util.h"
#include "commands.h"

#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef TRIDI_BENCH_HAVE_FFTW
#include <fftw3.h>
#endif

#define FFT_MAX_CASES 64
#define FFT_ERR_BOUND_C 2.0 /* bound c log2(n) eps: tridi's error and the oracle's */

typedef struct fft_cfg {
  int cpu, cuda;
  tridi_dtype dtypes[2];
  int ndt;
  int log2n[FFT_MAX_CASES];
  int nlog;
  int total_log2;
  int reps, warmup, threads, device, baseline, quiet;
  const char *csv;
  tridi_fft_direction dir;
} fft_cfg;

static const char fft_csv_columns[] =
    "backend,device,date,dtype,layout,n,batch,alg,kernel,threads,ms,ms_min,gbps,copy_gbps,"
    "pct_copy,residual,residual_bound,ok,baseline,baseline_ms,baseline_gbps,baseline_residual,"
    "speedup,req_alg,problem,m,unknowns,words_per_unknown,stream_gbps,pct_stream,check,pivot,"
    "gflops,passes,baseline_gflops";

static void usage(FILE *f) {
  fprintf(f,
          "usage: tridi bench --problem fft [options]\n"
          "\n"
          "Batched complex FFTs of n = 2^k points, 2^T elements in all (batch = 2^T / n):\n"
          "GFLOPS (5 n log2 n batch / t), passes over memory, effective bandwidth per\n"
          "pass against the copy bandwidth, the error of every transform, and the\n"
          "baseline on the same data (FFTW on the CPU, cuFFT on the GPU).\n"
          "\n"
          "options:\n"
          "  --backend LIST   cpu, cuda or all (default: cpu, plus cuda when available)\n"
          "  --dtype LIST     c32,c64 (f32, f64 accepted; default c32)\n"
          "  --log2n LIST     k of n = 2^k, items A or A-B (default 8-24; --quick 8,12,16)\n"
          "  --n LIST         n itself, powers of two (instead of --log2n)\n"
          "  --total-log2 T   elements per case 2^T (default 24; --quick 20)\n"
          "  --inverse        the inverse transform (default forward)\n"
          "  --threads N      CPU threads for tridi and FFTW (default omp_get_max_threads())\n"
          "  --device N       CUDA device (default 0)\n"
          "  --reps N         timed executes, median reported (default 10; --quick 3)\n"
          "  --warmup N       untimed executes first (default 2)\n"
          "  --no-baseline    skip FFTW / cuFFT (the CPU check is then the round trip)\n"
          "  --csv FILE       one row per case\n"
          "  --quick          small cases, few repeats\n"
          "  --quiet          no progress lines\n"
          "  --help           this text\n");
}

static int parse_log2_list(char *s, fft_cfg *c, int as_n) {
  char *items[FFT_MAX_CASES];
  const int k = bench_split_list(s, items, FFT_MAX_CASES);
  if (k < 0) return 0;
  c->nlog = 0;
  for (int i = 0; i < k; ++i) {
    char *end;
    long a = strtol(items[i], &end, 10), b = a;
    if (!as_n && *end == '-') b = strtol(end + 1, &end, 10);
    if (*end != '\0') return 0;
    if (as_n) {
      int l = 0;
      while (l < 62 && (1L << l) < a) ++l;
      if ((1L << l) != a) {
        fprintf(stderr, "tridi bench: --n %ld is not a power of two\n", a);
        return 0;
      }
      a = b = l;
    }
    if (a < 0 || b > 40 || a > b) return 0;
    for (long l = a; l <= b; ++l) {
      if (c->nlog >= FFT_MAX_CASES) return 0;
      c->log2n[c->nlog++] = (int)l;
    }
  }
  return 1;
}

static int parse(int argc, char **argv, fft_cfg *c) {
  enum { O_BACKEND = 256, O_DTYPE, O_LOG2N, O_N, O_TOTAL, O_INV, O_THREADS, O_DEVICE, O_REPS,
         O_WARMUP, O_NOBASE, O_CSV, O_QUICK, O_QUIET, O_HELP, O_PROBLEM };
  static const struct option lo[] = {
      {"backend", required_argument, NULL, O_BACKEND}, {"dtype", required_argument, NULL, O_DTYPE},
      {"log2n", required_argument, NULL, O_LOG2N},     {"n", required_argument, NULL, O_N},
      {"total-log2", required_argument, NULL, O_TOTAL}, {"inverse", no_argument, NULL, O_INV},
      {"threads", required_argument, NULL, O_THREADS}, {"device", required_argument, NULL, O_DEVICE},
      {"reps", required_argument, NULL, O_REPS},       {"warmup", required_argument, NULL, O_WARMUP},
      {"no-baseline", no_argument, NULL, O_NOBASE},    {"csv", required_argument, NULL, O_CSV},
      {"quick", no_argument, NULL, O_QUICK},           {"quiet", no_argument, NULL, O_QUIET},
      {"help", no_argument, NULL, O_HELP},             {"problem", required_argument, NULL, O_PROBLEM},
      {NULL, 0, NULL, 0}};
  memset(c, 0, sizeof *c);
  c->dtypes[0] = TRIDI_C32;
  c->ndt = 1;
  c->total_log2 = -1;
  c->reps = -1;
  c->warmup = 2;
  c->threads = omp_get_max_threads();
  c->baseline = 1;
  c->dir = TRIDI_FFT_FORWARD;
  int quick = 0, backend_set = 0, opt;
  optind = 1;
  while ((opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
    char *end = NULL;
    switch (opt) {
      case O_PROBLEM: break; /* fft: how we got here */
      case O_BACKEND: {
        char *items[4];
        const int k = bench_split_list(optarg, items, 4);
        if (k < 0) goto bad;
        backend_set = 1;
        c->cpu = c->cuda = 0;
        for (int i = 0; i < k; ++i) {
          if (strcmp(items[i], "cpu") == 0) c->cpu = 1;
          else if (strcmp(items[i], "cuda") == 0) c->cuda = 1;
          else if (strcmp(items[i], "all") == 0) c->cpu = c->cuda = 1;
          else goto bad;
        }
        break;
      }
      case O_DTYPE: {
        char *items[4];
        const int k = bench_split_list(optarg, items, 4);
        if (k < 1 || k > 2) goto bad;
        c->ndt = k;
        for (int i = 0; i < k; ++i) {
          if (!strcmp(items[i], "c32") || !strcmp(items[i], "f32")) c->dtypes[i] = TRIDI_C32;
          else if (!strcmp(items[i], "c64") || !strcmp(items[i], "f64")) c->dtypes[i] = TRIDI_C64;
          else goto bad;
        }
        break;
      }
      case O_LOG2N: if (!parse_log2_list(optarg, c, 0)) goto bad; break;
      case O_N: if (!parse_log2_list(optarg, c, 1)) goto bad; break;
      case O_TOTAL:
        c->total_log2 = (int)strtol(optarg, &end, 10);
        if (*end || c->total_log2 < 0 || c->total_log2 > 34) goto bad;
        break;
      case O_INV: c->dir = TRIDI_FFT_INVERSE; break;
      case O_THREADS:
        c->threads = (int)strtol(optarg, &end, 10);
        if (*end || c->threads < 1) goto bad;
        break;
      case O_DEVICE:
        c->device = (int)strtol(optarg, &end, 10);
        if (*end || c->device < 0) goto bad;
        break;
      case O_REPS:
        c->reps = (int)strtol(optarg, &end, 10);
        if (*end || c->reps < 1) goto bad;
        break;
      case O_WARMUP:
        c->warmup = (int)strtol(optarg, &end, 10);
        if (*end || c->warmup < 0) goto bad;
        break;
      case O_NOBASE: c->baseline = 0; break;
      case O_CSV: c->csv = optarg; break;
      case O_QUICK: quick = 1; break;
      case O_QUIET: c->quiet = 1; break;
      case O_HELP: usage(stdout); exit(TRIDI_EXIT_OK);
      default: usage(stderr); return 0;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tridi bench: unexpected argument '%s'\n", argv[optind]);
    return 0;
  }
  if (c->nlog == 0) {
    static const int q[] = {8, 12, 16};
    if (quick)
      for (int i = 0; i < 3; ++i) c->log2n[c->nlog++] = q[i];
    else
      for (int l = 8; l <= 24; ++l) c->log2n[c->nlog++] = l;
  }
  if (c->total_log2 < 0) c->total_log2 = quick ? 20 : 24;
  if (c->reps < 0) c->reps = quick ? 3 : 10;
  if (!backend_set) {
    c->cpu = 1;
#ifdef TRIDI_HAVE_CUDA
    c->cuda = bench_fft_cuda_available();
#endif
  }
#ifndef TRIDI_HAVE_CUDA
  if (c->cuda) {
    fprintf(stderr, "tridi bench: this build has no CUDA backend\n");
    return 0;
  }
#else
  if (c->cuda && !bench_fft_cuda_available()) {
    fprintf(stderr, "tridi bench: --backend cuda: no CUDA device is visible\n");
    return 0;
  }
#endif
  return 1;
bad:
  fprintf(stderr, "tridi bench: bad value '%s' for an option (see tridi bench --problem fft --help)\n",
          optarg);
  return 0;
}

/* ---- data and checks ----------------------------------------------------------- */

static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* values in [-1, 1), element k a function of k only */
static void fill(tridi_dtype dt, void *x, int64_t count, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < 2 * count; ++i) {
    const double v = 2.0 * ((double)(mix64((uint64_t)i) >> 11) * 0x1p-53) - 1.0;
    if (dt == TRIDI_C32) ((float *)x)[i] = (float)v;
    else ((double *)x)[i] = v;
  }
}

static double elem(tridi_dtype dt, const void *x, int64_t i) {
  return dt == TRIDI_C32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
}

/* max over transforms of ||got - scale * ref|| / ||scale * ref|| */
static double max_rel_err(tridi_dtype dt, int64_t n, int64_t batch, const void *ref, double scale,
                          const void *got, int threads) {
  double worst = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : worst)
  for (int64_t t = 0; t < batch; ++t) {
    double num = 0, den = 0;
    for (int64_t i = 2 * t * n; i < 2 * (t + 1) * n; ++i) {
      const double r = scale * elem(dt, ref, i), d = elem(dt, got, i) - r;
      num += d * d;
      den += r * r;
    }
    double e = den > 0 ? sqrt(num / den) : (num > 0 ? INFINITY : 0);
    if (e != e) e = INFINITY;
    if (e > worst) worst = e;
  }
  return worst;
}

/* ---- the CPU runner and FFTW ---------------------------------------------------- */

static double now_ms(void) { return 1e3 * bench_now(); }

static int cmp_d(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void run_cpu(const fft_cfg *c, tridi_dtype dt, int64_t n, int64_t batch, const void *in,
                    void *out, bench_fft_result *r) {
  tridi_fft_options o;
  tridi_fft_options_init(&o);
  o.backend = TRIDI_BACKEND_CPU;
  o.num_threads = c->threads;
  tridi_fft_plan p = NULL;
  r->status = tridi_fft_plan_create(&p, n, batch, dt, c->dir, &o);
  if (r->status) return;
  tridi_fft_plan_info info = {.struct_size = sizeof info};
  tridi_fft_plan_get_info(p, &info);
  r->passes = info.passes;
  r->threads = info.num_threads;
  snprintf(r->kernel, sizeof r->kernel, "%s", info.kernel);
  double *t = malloc(sizeof(double) * (size_t)c->reps);
  for (int i = 0; i < c->warmup && !r->status; ++i) r->status = tridi_fft_execute(p, in, out, NULL);
  for (int i = 0; i < c->reps && !r->status; ++i) {
    const double t0 = now_ms();
    r->status = tridi_fft_execute(p, in, out, NULL);
    t[i] = now_ms() - t0;
  }
  if (!r->status) {
    qsort(t, (size_t)c->reps, sizeof *t, cmp_d);
    r->ms_min = t[0];
    r->ms = bench_median(t, c->reps);
  }
  free(t);
  tridi_fft_plan_destroy(p);
}

#ifdef TRIDI_BENCH_HAVE_FFTW
/* FFTW's many-transform plan (FFTW_ESTIMATE: no planning time, the data
 * untouched) with c->threads threads where FFTW's OpenMP library is linked */
static void run_fftw(const fft_cfg *c, tridi_dtype dt, int64_t n, int64_t batch, const void *in,
                     void *out, bench_fft_result *r) {
  snprintf(r->baseline, sizeof r->baseline, "fftw3_estimate");
  const int nn = (int)n, hm = (int)batch;
  const int sign = c->dir == TRIDI_FFT_FORWARD ? FFTW_FORWARD : FFTW_BACKWARD;
  const unsigned flags = FFTW_ESTIMATE | FFTW_PRESERVE_INPUT;
  void *plan = NULL;
#ifdef TRIDI_BENCH_HAVE_FFTW_OMP
  fftw_plan_with_nthreads(c->threads);
  fftwf_plan_with_nthreads(c->threads);
#endif
  if (n > INT32_MAX || batch > INT32_MAX) {
    r->baseline_failed = 1;
    return;
  }
  if (dt == TRIDI_C32)
    plan = fftwf_plan_many_dft(1, &nn, hm, (fftwf_complex *)(uintptr_t)in, NULL, 1, nn,
                               (fftwf_complex *)out, NULL, 1, nn, sign, flags);
  else
    plan = fftw_plan_many_dft(1, &nn, hm, (fftw_complex *)(uintptr_t)in, NULL, 1, nn,
                              (fftw_complex *)out, NULL, 1, nn, sign, flags);
  if (!plan) {
    r->baseline_failed = 1;
    return;
  }
  double *t = malloc(sizeof(double) * (size_t)c->reps);
  for (int i = -c->warmup; i < c->reps; ++i) {
    const double t0 = now_ms();
    if (dt == TRIDI_C32) fftwf_execute((fftwf_plan)plan);
    else fftw_execute((fftw_plan)plan);
    if (i >= 0) t[i] = now_ms() - t0;
  }
  r->baseline_ms = bench_median(t, c->reps);
  free(t);
  if (dt == TRIDI_C32) fftwf_destroy_plan((fftwf_plan)plan);
  else fftw_destroy_plan((fftw_plan)plan);
}
#endif

/* the round trip: the inverse of out, over n, against in (no FFTW) */
static double round_trip_err(const fft_cfg *c, tridi_dtype dt, int64_t n, int64_t batch,
                             const void *in, const void *out, void *scratch) {
  tridi_fft_options o;
  tridi_fft_options_init(&o);
  o.num_threads = c->threads;
  tridi_fft_plan p;
  const tridi_fft_direction back = c->dir == TRIDI_FFT_FORWARD ? TRIDI_FFT_INVERSE : TRIDI_FFT_FORWARD;
  if (tridi_fft_plan_create(&p, n, batch, dt, back, &o)) return INFINITY;
  const tridi_status st = tridi_fft_execute(p, out, scratch, NULL);
  tridi_fft_plan_destroy(p);
  if (st) return INFINITY;
  return max_rel_err(dt, n, batch, in, (double)n, scratch, c->threads);
}

/* ---- the sweep ------------------------------------------------------------------- */

static void csv_num(FILE *f, double v) {
  if (v == v) fprintf(f, ",%.6g", v);
  else fputc(',', f);
}

int bench_fft_main(int argc, char **argv) {
  fft_cfg c;
  if (!parse(argc, argv, &c)) return TRIDI_EXIT_USAGE;
  FILE *csv = NULL;
  if (c.csv) {
    csv = fopen(c.csv, "w");
    if (!csv) {
      fprintf(stderr, "tridi bench: cannot write %s\n", c.csv);
      return TRIDI_EXIT_USAGE;
    }
    fprintf(csv, "%s\n", fft_csv_columns);
  }
  char date[32];
  const time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  printf("%-4s %-3s %5s %9s %6s %9s %8s %6s %7s %9s %9s %8s %7s %-6s\n", "be", "dt", "log2n",
         "batch", "passes", "ms", "GFLOPS", "GB/s", "%copy", "error", "base_ms", "base_GF", "speedup",
         "check");
  int cases = 0, failed = 0;
  for (int b = 0; b < 2; ++b) {
    if ((b == 0 && !c.cpu) || (b == 1 && !c.cuda)) continue;
    const char *be = b == 0 ? "cpu" : "cuda";
    char devname[128] = "cpu";
    if (b == 0) snprintf(devname, sizeof devname, "%s", bench_runner_cpu.device_name());
#ifdef TRIDI_HAVE_CUDA
    else snprintf(devname, sizeof devname, "%s", bench_fft_cuda_device_name());
#endif
    for (char *q = devname; *q; ++q)
      if (*q == ',') *q = ';';
    for (int d = 0; d < c.ndt; ++d)
      for (int k = 0; k < c.nlog; ++k) {
        const tridi_dtype dt = c.dtypes[d];
        const int l = c.log2n[k];
        const int64_t n = (int64_t)1 << l;
        const int64_t batch = l >= c.total_log2 ? 1 : ((int64_t)1 << (c.total_log2 - l));
        const size_t es = tridi_dtype_size(dt), bytes = es * (size_t)(n * batch);
        void *in = bench_alloc(bytes), *out = bench_alloc(bytes), *base = bench_alloc(bytes);
        if (!in || !out || !base) {
          fprintf(stderr, "tridi bench: cannot allocate 3 x %zu bytes (log2n %d)\n", bytes, l);
          bench_free(in), bench_free(out), bench_free(base);
          ++failed;
          continue;
        }
        fill(dt, in, n * batch, c.threads);
        memset(out, 0xff, bytes);
        memset(base, 0xff, bytes);
        bench_fft_result r;
        memset(&r, 0, sizeof r);
        r.baseline_ms = NAN;
        double copy = NAN, err = INFINITY, base_err = NAN;
        bench_opts bo = {.reps = 5, .warmup = 1, .threads = c.threads, .device = c.device};
        if (b == 0) {
          copy = bench_runner_cpu.copy_gbps(2 * bytes > ((size_t)16 << 20) ? 2 * bytes : (size_t)16 << 20, &bo);
          run_cpu(&c, dt, n, batch, in, out, &r);
#ifdef TRIDI_BENCH_HAVE_FFTW
          if (c.baseline && !r.status) run_fftw(&c, dt, n, batch, in, base, &r);
#endif
          if (r.status) err = INFINITY;
          else if (r.baseline[0] && !r.baseline_failed)
            err = max_rel_err(dt, n, batch, base, 1.0, out, c.threads);
          else err = round_trip_err(&c, dt, n, batch, in, out, base);
        }
#ifdef TRIDI_HAVE_CUDA
        else {
          copy = bench_fft_cuda_copy_gbps(2 * bytes, 10);
          if (bench_fft_cuda_run(n, batch, dt, c.dir, in, out, base, c.reps, c.warmup, c.device,
                                 c.baseline, &r) == 0) {
            /* the oracle: tridi's CPU reference of the same input */
            void *ref = bench_alloc(bytes);
            tridi_fft_options o;
            tridi_fft_options_init(&o);
            o.num_threads = c.threads;
            tridi_fft_plan p;
            if (ref && tridi_fft_plan_create(&p, n, batch, dt, c.dir, &o) == TRIDI_SUCCESS) {
              if (tridi_fft_execute(p, in, ref, NULL) == TRIDI_SUCCESS) {
                err = max_rel_err(dt, n, batch, ref, 1.0, out, c.threads);
                if (r.baseline[0] && !r.baseline_failed)
                  base_err = max_rel_err(dt, n, batch, ref, 1.0, base, c.threads);
              }
              tridi_fft_plan_destroy(p);
            }
            bench_free(ref);
          }
        }
#endif
        const double eps = dt == TRIDI_C32 ? FLT_EPSILON : DBL_EPSILON;
        const double bound = FFT_ERR_BOUND_C * (l > 1 ? l : 1) * eps;
        const double flops = 5.0 * (double)n * (double)l * (double)batch;
        const double gflops = r.status ? NAN : flops / (r.ms * 1e6);
        const double gbps = r.status ? NAN : 2.0 * (double)bytes * r.passes / (r.ms * 1e6);
        const double pct = 100.0 * gbps / copy;
        const int has_base = r.baseline[0] && !r.baseline_failed && r.baseline_ms == r.baseline_ms;
        const double bgf = has_base ? flops / (r.baseline_ms * 1e6) : NAN;
        const double bgbps = has_base ? 2.0 * (double)bytes / (r.baseline_ms * 1e6) : NAN;
        const double sp = has_base ? r.baseline_ms / r.ms : NAN;
        const int ok = !r.status && err <= bound;
        const char *check = r.status ? tridi_status_name(r.status) : ok ? "ok" : "ERROR";
        ++cases;
        if (!ok) ++failed;
        if (b == 0 && r.baseline[0] && !r.baseline_failed) base_err = 0; /* it is the oracle */
        printf("%-4s %-3s %5d %9lld %6d %9.3f %8.1f %6.1f %7.1f %9.2e %9.3f %8.1f %7.2f %-6s\n", be,
               tridi_dtype_name(dt), l, (long long)batch, r.passes, r.ms, gflops, gbps, pct, err,
               r.baseline_ms, bgf, sp, check);
        fflush(stdout);
        if (csv) {
          fprintf(csv, "%s,%s,%s,%s,packed,%lld,%lld,stockham,%s,%d", be, devname, date,
                  tridi_dtype_name(dt), (long long)n, (long long)batch, r.kernel, r.threads);
          csv_num(csv, r.ms);
          csv_num(csv, r.ms_min);
          csv_num(csv, gbps);
          csv_num(csv, copy);
          csv_num(csv, pct);
          csv_num(csv, err);
          csv_num(csv, bound);
          fprintf(csv, ",%d,%s", ok, r.baseline[0] ? r.baseline : "");
          csv_num(csv, has_base ? r.baseline_ms : NAN);
          csv_num(csv, bgbps);
          csv_num(csv, base_err);
          csv_num(csv, sp);
          fprintf(csv, ",auto,fft,1,%lld,%d,,,%s,", (long long)(n * batch), 2 * r.passes, check);
          csv_num(csv, gflops);
          fprintf(csv, ",%d", r.passes);
          csv_num(csv, bgf);
          fputc('\n', csv);
        }
        bench_free(in), bench_free(out), bench_free(base);
      }
  }
  if (csv) fclose(csv);
  printf("%d cases: %d verified, %d FAILED (error bound %.0f log2(n) eps against %s)\n", cases,
         cases - failed, failed, FFT_ERR_BOUND_C,
         c.cuda && !c.cpu ? "the CPU reference" : "FFTW / the reference");
  return failed ? TRIDI_EXIT_FAIL : TRIDI_EXIT_OK;
}
