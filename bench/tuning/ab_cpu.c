/* `tridi ab` (TRIDI_CPU_TUNING builds only): A/B comparison of CPU plan
 * variants inside one process.
 *
 * Bandwidth on a shared VM drifts by 10-50% between runs, so comparing two
 * `tridi bench` runs cannot resolve changes of a few percent.  Here every
 * variant gets its own plan (the TRIDI_CPU_* tuning variables of the variant
 * are set while its plan is created; src/cpu/cpu_thomas.c reads them there),
 * all plans solve the same data, and each round times one parallel copy and
 * one execute of every variant in turn (starting with a different variant each
 * round), so drift hits all of them alike.
 * Reported: median GB/s of each variant, % of the median copy bandwidth, and
 * the ratio to the first variant.  Every variant's x must equal the first
 * variant's bit for bit (tuning changes the schedule, never the arithmetic);
 * a mismatch is reported and makes the exit status 1.  A variant may also
 * set the plan's pivoting or algorithm (PIVOT=partial, ALG=lu_partial: the
 * pivoting solver against the non-pivoting one in one process); its x is
 * then not compared.  --simd picks the SIMD path of every plan.
 *
 * Method and results: docs/perf-log.md (CPU, "Method from v8 on").  Built
 * into the `tridi` command by bench/tuning/CMakeLists.txt. */
#include "bench.h"
#include "bench_util.h"
#include "commands.h"

#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AB_MAX_VARIANTS 16
#define AB_MAX_LIST 32

static void ab_usage(FILE *f) {
  fprintf(f,
          "usage: tridi ab [options] VARIANT [VARIANT...]\n"
          "\n"
          "Time CPU plan variants of the same cases against each other in one\n"
          "process (interleaved rounds, copy bandwidth timed every round).\n"
          "\n"
          "VARIANT: '-' for the default plan, or KEY=VALUE[,KEY=VALUE...] with KEY a\n"
          "TRIDI_CPU_* tuning variable (the TRIDI_CPU_ prefix may be left out), set\n"
          "while that variant's plan is created: NT, PREFETCH, PF_ROWS, PF_HINT,\n"
          "RUNS, BUDGET_KB, TRANS_LINES, VEC_KT, ... (src/cpu/cpu_thomas.c); or\n"
          "PIVOT (none, partial, auto) or ALG (an algorithm name): the plan's\n"
          "options (x is then not compared with variant 0's).\n"
          "\n"
          "options:\n"
          "  --dtype LIST     f32,f64 (default both)\n"
          "  --layout LIST    contig,interleaved,mid3d,padded (default all four)\n"
          "  --n LIST         system lengths (default 64,256,1024,4096)\n"
          "  --size-mb MIB    working set of a,b,c,d,x per case (default 1024, as tridi bench)\n"
          "  --rounds N       rounds per case, medians reported (default 9)\n"
          "  --threads N      threads (default omp_get_max_threads())\n"
          "  --simd LEVEL     SIMD path of every plan: auto, portable, avx2, avx512\n"
          "\n"
          "exit status: 0, 1 when a variant's x differs from the first variant's\n"
          "or an execute fails, 2 usage error.\n");
}

/* Set (set = 1) or unset the variables of one variant spec; its PIVOT and
 * ALG keys go to *o instead (when o is not NULL; checked either way). */
static int ab_env(const char *spec, int set, tridi_options *o) {
  if (strcmp(spec, "-") == 0) return 0;
  char buf[512];
  if (strlen(spec) >= sizeof buf) return -1;
  strcpy(buf, spec);
  char *save = NULL;
  for (char *kv = strtok_r(buf, ",", &save); kv != NULL; kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    if (eq == NULL || eq == kv) return -1;
    *eq = '\0';
    if (strcmp(kv, "PIVOT") == 0 || strcmp(kv, "ALG") == 0) {
      tridi_options tmp;
      if (o == NULL) o = &tmp;
      const tridi_status st = kv[0] == 'P' ? tridi_pivot_from_name(eq + 1, &o->pivot)
                                           : tridi_alg_from_name(eq + 1, &o->alg);
      if (st != TRIDI_SUCCESS) return -1;
      continue;
    }
    char name[160];
    snprintf(name, sizeof name, "%s%s", strncmp(kv, "TRIDI_CPU_", 10) == 0 ? "" : "TRIDI_CPU_",
             kv);
    if (set ? setenv(name, eq + 1, 1) : unsetenv(name)) return -1;
  }
  return 0;
}

static double ab_copy_ms(char *dst, const char *src, size_t bytes, int threads) {
  const double t0 = bench_now();
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const size_t per = (bytes / (size_t)T + 4095) / 4096 * 4096;
    const size_t lo = per * (size_t)t < bytes ? per * (size_t)t : bytes;
    const size_t hi = lo + per < bytes ? lo + per : bytes;
    memcpy(dst + lo, src + lo, hi - lo);
  }
  return (bench_now() - t0) * 1e3;
}

int tridi_cmd_ab(int argc, char **argv) {
  static const struct option longopts[] = {
      {"dtype", required_argument, NULL, 't'},   {"layout", required_argument, NULL, 'l'},
      {"n", required_argument, NULL, 'n'},       {"size-mb", required_argument, NULL, 's'},
      {"rounds", required_argument, NULL, 'r'},  {"threads", required_argument, NULL, 'T'},
      {"simd", required_argument, NULL, 'S'},    {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  tridi_simd simd = TRIDI_SIMD_AUTO;
  char dtypes_s[64] = "f32,f64", layouts_s[128] = "contig,interleaved,mid3d,padded",
       ns_s[256] = "64,256,1024,4096";
  int64_t size_mb = 1024; /* as tridi bench (perf-log CPU v24: 512 MiB read higher here) */
  int rounds = 9, threads = omp_get_max_threads();
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
      case 't': snprintf(dtypes_s, sizeof dtypes_s, "%s", optarg); break;
      case 'l': snprintf(layouts_s, sizeof layouts_s, "%s", optarg); break;
      case 'n': snprintf(ns_s, sizeof ns_s, "%s", optarg); break;
      case 's': size_mb = atoll(optarg); break;
      case 'r': rounds = atoi(optarg); break;
      case 'T': threads = atoi(optarg); break;
      case 'S': {
        static const tridi_simd levels[] = {TRIDI_SIMD_AUTO, TRIDI_SIMD_PORTABLE, TRIDI_SIMD_AVX2,
                                            TRIDI_SIMD_AVX512};
        int found = 0;
        for (size_t i = 0; i < sizeof levels / sizeof levels[0]; ++i)
          if (strcmp(optarg, tridi_simd_name(levels[i])) == 0) {
            simd = levels[i];
            found = 1;
          }
        if (!found) {
          ab_usage(stderr);
          return TRIDI_EXIT_USAGE;
        }
        break;
      }
      case 'h': ab_usage(stdout); return TRIDI_EXIT_OK;
      default: ab_usage(stderr); return TRIDI_EXIT_USAGE;
    }
  }
  const int nvar = argc - optind;
  if (nvar < 1 || nvar > AB_MAX_VARIANTS || size_mb < 1 || rounds < 1 || threads < 1) {
    ab_usage(stderr);
    return TRIDI_EXIT_USAGE;
  }
  char **var = argv + optind;
  for (int v = 0; v < nvar; ++v)
    if (ab_env(var[v], 1, NULL) || ab_env(var[v], 0, NULL)) {
      fprintf(stderr, "tridi ab: bad variant '%s'\n", var[v]);
      return TRIDI_EXIT_USAGE;
    }
  char *dt_items[AB_MAX_LIST], *lay_items[AB_MAX_LIST], *n_items[AB_MAX_LIST];
  const int ndt = bench_split_list(dtypes_s, dt_items, AB_MAX_LIST);
  const int nlay = bench_split_list(layouts_s, lay_items, AB_MAX_LIST);
  const int nn = bench_split_list(ns_s, n_items, AB_MAX_LIST);
  int bad = ndt < 1 || nlay < 1 || nn < 1;
  for (int i = 0; i < ndt && !bad; ++i)
    bad = strcmp(dt_items[i], "f32") != 0 && strcmp(dt_items[i], "f64") != 0;
  for (int i = 0; i < nlay && !bad; ++i)
    bad = strcmp(lay_items[i], "contig") != 0 && strcmp(lay_items[i], "interleaved") != 0 &&
          strcmp(lay_items[i], "mid3d") != 0 && strcmp(lay_items[i], "padded") != 0;
  for (int i = 0; i < nn && !bad; ++i) bad = atoll(n_items[i]) < 1;
  if (bad) {
    fprintf(stderr, "tridi ab: bad --dtype, --layout or --n list\n");
    ab_usage(stderr);
    return TRIDI_EXIT_USAGE;
  }

  const size_t bytes = (size_t)size_mb << 20;
  char *csrc = bench_alloc(bytes / 2), *cdst = bench_alloc(bytes / 2);
  if (csrc == NULL || cdst == NULL) {
    fprintf(stderr, "tridi ab: out of memory\n");
    return TRIDI_EXIT_FAIL;
  }
  memset(csrc, 1, bytes / 2);
  memset(cdst, 0, bytes / 2);
  tridi_options opt;
  tridi_options_init(&opt);
  opt.backend = TRIDI_BACKEND_CPU;
  opt.num_threads = threads;
  opt.simd = simd;

  printf("# tridi ab: %d threads, SIMD %s, %lld MiB per case, %d rounds; ratio = speed / "
         "variant 0's\n",
         threads, tridi_simd_name(simd), (long long)size_mb, rounds);
  for (int v = 0; v < nvar; ++v) printf("# variant %d: %s\n", v, var[v]);
  printf("%-4s %-11s %6s %-3s %-40s %7s %6s %6s %6s\n", "type", "layout", "n", "var", "kernel",
         "GB/s", "copy", "%copy", "ratio");
  int failed = 0;
  for (int di = 0; di < ndt; ++di)
    for (int li = 0; li < nlay; ++li)
      for (int ni = 0; ni < nn; ++ni) {
        const tridi_dtype dt = strcmp(dt_items[di], "f32") == 0 ? TRIDI_F32 : TRIDI_F64;
        const int64_t es = (int64_t)tridi_dtype_size(dt);
        bench_case bc;
        memset(&bc, 0, sizeof bc);
        bc.kind = &bench_kind_scalar;
        bc.words_per_unknown = bench_kind_scalar.words_per_unknown;
        bench_kind_scalar.make_case(&bc, lay_items[li], dt, atoll(n_items[ni]),
                                    (int64_t)(bytes / 5) / es);
        const size_t xb = (size_t)bc.alloc_elems[4] * (size_t)es; /* every operand alike */
        void *buf[5], *xref = bench_alloc(xb);
        int ok = xref != NULL;
        for (int k = 0; k < 5; ++k)
          if ((buf[k] = bench_alloc(xb)) == NULL) ok = 0;
        if (!ok) {
          fprintf(stderr, "tridi ab: out of memory\n");
          return TRIDI_EXIT_FAIL;
        }
        const bench_data data = {buf[0], buf[1], buf[2], buf[3], buf[4]};
        bench_fill_dominant(&bc, 1, &data, threads);
        tridi_plan plan[AB_MAX_VARIANTS] = {0};
        char kname[AB_MAX_VARIANTS][96];
        int same_arith[AB_MAX_VARIANTS]; /* 1: x must equal variant 0's */
        tridi_options vopt[AB_MAX_VARIANTS];
        for (int v = 0; v < nvar && ok; ++v) {
          tridi_desc desc = NULL;
          vopt[v] = opt;
          ab_env(var[v], 1, &vopt[v]);
          same_arith[v] = vopt[v].pivot == vopt[0].pivot && vopt[v].alg == vopt[0].alg;
          tridi_status st = bench_kind_scalar.make_desc(&bc, &desc);
          if (st == TRIDI_SUCCESS) st = tridi_plan_create(&plan[v], desc, &vopt[v]);
          ab_env(var[v], 0, NULL);
          tridi_desc_destroy(desc);
          tridi_plan_info info;
          info.struct_size = sizeof info;
          kname[v][0] = '\0';
          if (st == TRIDI_SUCCESS && tridi_plan_get_info(plan[v], &info) == TRIDI_SUCCESS)
            snprintf(kname[v], sizeof kname[v], "%s", info.kernel);
          if (st != TRIDI_SUCCESS) {
            fprintf(stderr, "tridi ab: plan: %s\n", tridi_last_error());
            ok = 0;
          }
        }
        double *t = calloc((size_t)(nvar + 1) * (size_t)rounds, sizeof(double));
        if (t == NULL) ok = 0;
        for (int r = -1; r < rounds && ok; ++r) { /* r = -1: warm-up */
          const double cms = ab_copy_ms(cdst, csrc, bytes / 2, threads);
          if (r >= 0) t[r] = cms;
          /* the variants take turns at coming first after the copy (whose dirty
           * lines are still being written back): rotate the order each round */
          for (int j = 0; j < nvar && ok; ++j) {
            const int v = r < 0 ? j : (j + r) % nvar;
            const double t0 = bench_now();
            const tridi_status st = tridi_execute(plan[v], buf[0], buf[1], buf[2], buf[3],
                                                  buf[4], NULL, NULL);
            const double ms = (bench_now() - t0) * 1e3;
            if (st != TRIDI_SUCCESS) {
              fprintf(stderr, "tridi ab: execute: %s\n", tridi_last_error());
              ok = 0;
            }
            if (r >= 0) t[(size_t)(v + 1) * (size_t)rounds + (size_t)r] = ms;
            if (r == -1) { /* each variant's x against variant 0's */
              if (v == 0) {
                memcpy(xref, buf[4], xb);
              } else if (same_arith[v] && memcmp(xref, buf[4], xb) != 0) {
                printf("# MISMATCH: variant %d's x differs from variant 0's\n", v);
                failed = 1;
              }
            }
          }
        }
        if (ok) {
          const double copy = 2.0 * (double)(bytes / 2) / (bench_median(t, rounds) * 1e-3) / 1e9;
          double g0 = 0;
          for (int v = 0; v < nvar; ++v) {
            const double ms = bench_median(t + (size_t)(v + 1) * (size_t)rounds, rounds);
            const double g = bench_bytes(&bc) / (ms * 1e-3) / 1e9;
            if (v == 0) g0 = g;
            printf("%-4s %-11s %6lld %-3d %-40s %7.1f %6.1f %6.1f %6.3f\n", dt_items[di],
                   lay_items[li], (long long)bc.n, v, kname[v], g, copy, 100.0 * g / copy, g / g0);
          }
          fflush(stdout);
        } else {
          failed = 1;
        }
        free(t);
        for (int v = 0; v < nvar; ++v) tridi_plan_destroy(plan[v]);
        for (int k = 0; k < 5; ++k) bench_free(buf[k]);
        bench_free(xref);
      }
  bench_free(csrc);
  bench_free(cdst);
  return failed ? TRIDI_EXIT_FAIL : TRIDI_EXIT_OK;
}
