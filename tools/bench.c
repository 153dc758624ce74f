/* `tridi bench`: verifies and benchmarks the library on this machine --
 * the options.  The sweep is tools/bench_run.c, the problem kinds
 * tools/bench_kinds.c, the backends tools/bench_cpu.c and bench_cuda.cu.
 * See docs/benchmarks.md. */
#include "bench_driver.h"
#include "bench_fft.h"
#include "commands.h"

#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_known_unstable(tridi_alg alg) { return alg == TRIDI_ALG_RD || alg == TRIDI_ALG_CR_RD; }

int bench_alg_pivot_ok(tridi_alg alg, tridi_pivot pv) {
  if (alg == TRIDI_ALG_LU_PARTIAL) return pv != TRIDI_PIVOT_NONE;
  return alg == TRIDI_ALG_AUTO || pv != TRIDI_PIVOT_PARTIAL;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: tridi bench [options]\n"
          "\n"
          "Verify and benchmark tridi on this machine: effective bandwidth\n"
          "(words per unknown * unknowns * sizeof(T) / time; 5 words for scalar\n"
          "systems) against the copy bandwidth and the stream limit (one pass that\n"
          "reads four arrays and writes one) measured in the same run, the relative\n"
          "residual of every system, and baselines (LAPACK ?gtsv per system on the\n"
          "CPU, cuSPARSE on the GPU) on the same data.\n"
          "\n"
          "options:\n"
          "  --problem NAME    problem kind:");
  for (int k = 0; bench_kinds[k] != NULL; ++k)
    fprintf(f, "%s %s%s", k ? "," : "", bench_kinds[k]->name, k ? "" : " (default)");
  fprintf(f,
          ", fft (its own options: tridi bench --problem fft --help)\n"
          "  --backend LIST    cpu, cuda or all (default: cpu, plus cuda when available)\n"
          "  --dtype LIST      f32,f64 (default both)\n"
          "  --n LIST          the kind's length parameter (default: the kind's list;\n"
          "                    scalar 32,33,64,100,128,...,1000,1024,...,10000,16384,\n"
          "                    --quick: 32,33,100,256,1000,2048,10000,16384)\n"
          "  --layout LIST     layouts of the problem kind (default all; below); where\n"
          "                    they are named part/part, a part selects all it is in\n"
          "  --alg LIST        algorithms run on every case, e.g. auto,thomas,cr,pcr,rd,\n"
          "                    cr_pcr,cr_rd,lu_partial (default auto); after each case the\n"
          "                    fastest and auto's share of it are printed (docs/algorithms.md)\n"
          "  --pivot LIST      pivoting for each algorithm: none, partial, auto (default\n"
          "                    auto, the library's default; docs/accuracy.md); combinations\n"
          "                    that cannot be planned (a non-pivoting algorithm with\n"
          "                    partial, lu_partial with none) and partial on a backend\n"
          "                    without a pivoting solver are skipped\n"
          "  --assume-dominant plan with assume_dominant = 1 (no growth detection; the\n"
          "                    CPU and CUDA scalar runners; docs/accuracy.md).  cr, pcr and\n"
          "                    cr_pcr are always planned so: they require it\n"
          "  --size-mb MIB     working set of a,b,c,d,x per case (default 1024; --quick 64)\n"
          "  --ref-mb MIB      working set of the copy and stream references (default:\n"
          "                    CPU max(4 x last-level cache, 1024); CUDA max(4 x L2,\n"
          "                    the case's); 4 x cache is 256 where its size is unknown)\n"
          "  --quick           small working set, fewer n, fewer repeats\n"
          "  --threads N       CPU threads for tridi, the references and the baseline\n"
          "                    (default: omp_get_max_threads())\n"
          "  --reps N          timed executes per case, median reported (default 10; --quick 5)\n"
          "  --warmup N        untimed executes first (default 1)\n"
          "  --baseline-reps N timed baseline passes per case (default 3)\n"
          "  --no-baseline     skip the baselines\n"
          "  --csv FILE        write one row per case (and baseline) to FILE\n"
          "  --seed N          seed of the random systems (default 1)\n"
          "  --quiet           no progress lines on stderr\n"
          "  --verbose         runner diagnostics on stderr\n"
          "  --help            this text\n"
          "\n");
  for (int k = 0; bench_kinds[k] != NULL; ++k)
    fprintf(f, "--problem %s: %s\n", bench_kinds[k]->name, bench_kinds[k]->help);
  fprintf(f,
          "verification: a case passes when plan and execute succeed, the relative\n"
          "residual of every system is within 4*max(n,8)*eps and no element of x\n"
          "outside the systems was written.  Known-unstable algorithms (rd, cr_rd:\n"
          "docs/accuracy.md) that do not pass are shown as \"not verified (known\n"
          "unstable)\" (check column \"unstable\"), counted apart, and are not failures.\n"
          "\n"
          "exit status: 0 every case verified or not verified (known unstable); 1 a\n"
          "case failed (residual above the bound, plan or execute error, or x written\n"
          "outside the systems); 2 usage error (bad option or value, empty list item,\n"
          "unavailable backend).\n");
}

/* ---- option parsing ------------------------------------------------------ */

static int parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  char *end = NULL;
  const long long v = strtoll(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return 0;
  *out = (int64_t)v;
  return 1;
}

/* Split the value of --`opt` into items; prints why on failure (an empty
 * item, too many items) and returns 0 then. */
static int split_opt(const char *opt, char *arg, char **items, int max, int *count) {
  char copy[512];
  snprintf(copy, sizeof copy, "%s", arg);
  const int k = bench_split_list(arg, items, max);
  if (k == -2) {
    fprintf(stderr, "tridi bench: --%s '%s': empty item in the list\n", opt, copy);
    return 0;
  }
  if (k < 0) {
    fprintf(stderr, "tridi bench: --%s '%s': more than %d items\n", opt, copy, max);
    return 0;
  }
  *count = k;
  return 1;
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
  int k;
  if (!split_opt("backend", arg, items, 8, &k)) return 0;
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

/* 1 when the --layout item `item` selects the kind's layout `name`: the
 * same name, or one part of a name made of parts joined by '/' (a kind whose
 * cases are storage/distribution, e.g. "packed/uniform", is selected by
 * "packed" -- every distribution -- or by "uniform" -- every storage). */
static int layout_selects(const char *item, const char *name) {
  if (strcmp(item, name) == 0) return 1;
  const size_t k = strlen(item);
  for (const char *p = name; *p != '\0';) {
    const size_t part = strcspn(p, "/");
    if (part == k && strncmp(p, item, k) == 0) return 1;
    p += part;
    if (*p == '/') ++p;
  }
  return 0;
}

static int parse_layouts(bench_config *cfg, char *arg) {
  char *items[BENCH_MAX_LAYOUTS];
  int k;
  if (!split_opt("layout", arg, items, BENCH_MAX_LAYOUTS, &k)) return 0;
  cfg->nlayouts = 0;
  for (int i = 0; i < k; ++i) {
    int found = 0;
    for (int j = 0; cfg->kind->layouts[j] != NULL; ++j) {
      if (!layout_selects(items[i], cfg->kind->layouts[j])) continue;
      int dup = 0;
      for (int q = 0; q < cfg->nlayouts; ++q) dup |= cfg->layouts[q] == cfg->kind->layouts[j];
      if (!dup && cfg->nlayouts == BENCH_MAX_LAYOUTS) {
        fprintf(stderr, "tridi bench: --layout: more than %d layouts\n", BENCH_MAX_LAYOUTS);
        return 0;
      }
      if (!dup) cfg->layouts[cfg->nlayouts++] = cfg->kind->layouts[j];
      found = 1;
    }
    if (!found) {
      fprintf(stderr, "tridi bench: unknown layout '%s' for --problem %s (", items[i],
              cfg->kind->name);
      for (int j = 0; cfg->kind->layouts[j] != NULL; ++j)
        fprintf(stderr, "%s%s", j ? ", " : "", cfg->kind->layouts[j]);
      fprintf(stderr, ")\n");
      return 0;
    }
  }
  return 1;
}

static int parse_algs(bench_config *cfg, char *arg) {
  char *items[BENCH_MAX_ALGS];
  int k;
  if (!split_opt("alg", arg, items, BENCH_MAX_ALGS, &k)) return 0;
  cfg->nalgs = 0;
  for (int i = 0; i < k; ++i) {
    int found = -1;
    for (int a = TRIDI_ALG_AUTO; a <= TRIDI_ALG_LU_PARTIAL; ++a)
      if (strcmp(items[i], tridi_alg_name((tridi_alg)a)) == 0) found = a;
    if (found < 0) {
      fprintf(stderr, "tridi bench: unknown algorithm '%s' (", items[i]);
      for (int a = TRIDI_ALG_AUTO; a <= TRIDI_ALG_LU_PARTIAL; ++a)
        fprintf(stderr, "%s%s", a ? ", " : "", tridi_alg_name((tridi_alg)a));
      fprintf(stderr, ")\n");
      return 0;
    }
    cfg->algs[cfg->nalgs++] = (tridi_alg)found;
  }
  return 1;
}

static int parse_pivots(bench_config *cfg, char *arg) {
  char *items[3];
  int k;
  if (!split_opt("pivot", arg, items, 3, &k)) return 0;
  cfg->npivots = 0;
  for (int i = 0; i < k; ++i) {
    tridi_pivot pv;
    if (tridi_pivot_from_name(items[i], &pv) != TRIDI_SUCCESS) {
      fprintf(stderr, "tridi bench: unknown pivoting '%s' (none, partial, auto)\n", items[i]);
      return 0;
    }
    cfg->pivots[cfg->npivots++] = pv;
  }
  return 1;
}

static int parse_args(int argc, char **argv, bench_config *cfg) {
  enum {
    O_BACKEND = 256, O_DTYPE, O_N, O_LAYOUT, O_SIZE, O_QUICK, O_THREADS, O_REPS, O_WARMUP,
    O_BREPS, O_NOBASE, O_CSV, O_SEED, O_QUIET, O_VERBOSE, O_HELP, O_ALG, O_PROBLEM, O_REF,
    O_PIVOT, O_ASSUME_DOM
  };
  static const struct option longopts[] = {
      {"backend", required_argument, NULL, O_BACKEND},
      {"dtype", required_argument, NULL, O_DTYPE},
      {"n", required_argument, NULL, O_N},
      {"layout", required_argument, NULL, O_LAYOUT},
      {"size-mb", required_argument, NULL, O_SIZE},
      {"ref-mb", required_argument, NULL, O_REF},
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
      {"pivot", required_argument, NULL, O_PIVOT},
      {"assume-dominant", no_argument, NULL, O_ASSUME_DOM},
      {"problem", required_argument, NULL, O_PROBLEM},
      {NULL, 0, NULL, 0}};
  int quick = 0, have_n = 0, have_size = 0, have_reps = 0;
  char *backend_arg = NULL, *layout_arg = NULL;
  int64_t v;
  memset(cfg, 0, sizeof *cfg);
  cfg->kind = bench_kinds[0];
  cfg->opts.reps = 10;
  cfg->opts.warmup = 1;
  cfg->opts.threads = omp_get_max_threads();
  cfg->baseline = 1;
  cfg->baseline_reps = 3;
  cfg->seed = 1;
  cfg->size_mb = 1024.0;
  cfg->dtypes[0] = TRIDI_F32;
  cfg->dtypes[1] = TRIDI_F64;
  cfg->ndtypes = 2;
  cfg->algs[0] = TRIDI_ALG_AUTO;
  cfg->nalgs = 1;
  cfg->pivots[0] = TRIDI_PIVOT_AUTO;
  cfg->npivots = 1;

  optind = 1; /* argv[0] is "bench" */
  opterr = 1;
  int c;
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    switch (c) {
      case O_PROBLEM:
        cfg->kind = bench_find_kind(optarg);
        if (cfg->kind == NULL) {
          fprintf(stderr, "tridi bench: unknown problem kind '%s' (", optarg);
          for (int k = 0; bench_kinds[k] != NULL; ++k)
            fprintf(stderr, "%s%s", k ? ", " : "", bench_kinds[k]->name);
          fprintf(stderr, ")\n");
          return 0;
        }
        break;
      case O_BACKEND: backend_arg = optarg; break;
      case O_LAYOUT: layout_arg = optarg; break; /* after --problem, whatever the order */
      case O_DTYPE: {
        char *items[4];
        int k;
        if (!split_opt("dtype", optarg, items, 4, &k)) return 0;
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
        char *items[BENCH_MAX_LIST];
        int k;
        if (!split_opt("n", optarg, items, BENCH_MAX_LIST, &k)) return 0;
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
      case O_SIZE:
      case O_REF: {
        char *end = NULL;
        const double mb = strtod(optarg, &end);
        if (end == optarg || *end != '\0' || !(mb > 0.0) || mb > 1e7) goto bad;
        if (c == O_SIZE) {
          cfg->size_mb = mb;
          have_size = 1;
        } else {
          cfg->ref_mb = mb;
        }
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
      case O_NOBASE: cfg->baseline = 0; break;
      case O_CSV: cfg->csv_path = optarg; break;
      case O_SEED:
        if (!parse_int64(optarg, 0, INT64_MAX, &v)) goto bad;
        cfg->seed = (uint64_t)v;
        break;
      case O_ALG:
        if (!parse_algs(cfg, optarg)) return 0;
        break;
      case O_PIVOT:
        if (!parse_pivots(cfg, optarg)) return 0;
        break;
      case O_ASSUME_DOM: cfg->opts.assume_dominant = 1; break;
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
  if (layout_arg != NULL) {
    if (!parse_layouts(cfg, layout_arg)) return 0;
  } else {
    for (int j = 0; cfg->kind->layouts[j] != NULL && j < BENCH_MAX_LAYOUTS; ++j)
      cfg->layouts[cfg->nlayouts++] = cfg->kind->layouts[j];
  }
  if (quick) {
    if (!have_size) cfg->size_mb = 64.0;
    if (!have_reps) cfg->opts.reps = 5;
  }
  if (!have_n) {
    /* powers of two, and the odd, small and not-power-of-two lengths users
     * have (33, 100, 1000, 10000); a kind whose length parameter means
     * something else gives its own lists */
    static const int64_t full[] = {32, 33, 64, 100, 128, 256, 512, 1000, 1024, 2048, 4096, 8192,
                                   10000, 16384, 0};
    static const int64_t q[] = {32, 33, 100, 256, 1000, 2048, 10000, 16384, 0};
    const int64_t *kn = quick ? cfg->kind->quick_n : cfg->kind->default_n;
    const int64_t *src = kn != NULL ? kn : quick ? q : full;
    cfg->nns = 0;
    while (src[cfg->nns] != 0 && cfg->nns < BENCH_MAX_LIST) {
      cfg->ns[cfg->nns] = src[cfg->nns];
      ++cfg->nns;
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

/* 1 when the command line asks for --problem fft (its own driver,
 * tools/bench_fft.c: the FFT has no systems, residuals or operands a..x) */
static int wants_fft(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--problem=fft") == 0) return 1;
    if (strcmp(argv[i], "--problem") == 0 && i + 1 < argc && strcmp(argv[i + 1], "fft") == 0)
      return 1;
  }
  return 0;
}

int tridi_cmd_bench(int argc, char **argv) {
  if (wants_fft(argc, argv)) return bench_fft_main(argc, argv);
  bench_config cfg;
  if (!parse_args(argc, argv, &cfg)) return TRIDI_EXIT_USAGE;
  return bench_run(&cfg);
}
