/* The `tridi` command: `tridi info`, `tridi bench` (see docs/benchmarks.md),
 * `tridi solve` and `tridi accuracy` (docs/accuracy.md). */
#include "bench.h"
#include "commands.h"

#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: tridi <command> [options]\n"
          "\n"
          "commands:\n"
          "  info     version, compiled backends, SIMD level, threads, GPU\n"
          "  bench    verify and benchmark the library on this machine\n"
          "           (tridi bench --help for its options)\n"
          "  solve    solve systems given as CSV columns a,b,c,d; writes x\n"
          "  accuracy accuracy of every algorithm against LAPACK (docs/accuracy.md)\n"
          "\n"
          "  tridi --help | --version\n");
}

/* `tridi info --solvers`: the solver table, and how the planner chooses for
 * one scalar and one variable-size problem (--backend, --dtype, --n, --batch). */
static int print_solvers(tridi_backend be, tridi_dtype dt, int64_t n, int64_t batch) {
  printf("solver rows (kind, backend, algorithm, AUTO rank; -1: only when forced):\n");
  for (int i = 0; i < tridi_num_solvers(); ++i) {
    tridi_solver_desc sd;
    sd.struct_size = sizeof sd;
    if (tridi_get_solver(i, &sd) != TRIDI_SUCCESS) return TRIDI_EXIT_FAIL;
    printf("  %-24s %-9s %-5s %-15s %2d\n", sd.name, tridi_kind_name(sd.kind), tridi_backend_name(sd.backend),
           tridi_alg_name(sd.alg), sd.auto_rank);
  }
  tridi_options o;
  tridi_options_init(&o);
  o.backend = be;
  for (int k = 0; k < 2; ++k) {
    tridi_desc d = NULL;
    tridi_status st;
    if (k == 0) {
      const int64_t shape[2] = {batch, n};
      st = tridi_desc_create(&d, dt, 2, shape, 1);
      printf("\nscalar %s, %lld systems of n = %lld, contiguous, backend %s:\n", tridi_dtype_name(dt),
             (long long)batch, (long long)n, tridi_backend_name(be));
    } else {
      int64_t *len = malloc((size_t)(batch > 0 ? batch : 1) * sizeof *len);
      if (!len) return TRIDI_EXIT_FAIL;
      for (int64_t s = 0; s < batch; ++s) len[s] = 1 + (s * 7919) % (2 * n); /* lengths 1 .. 2n */
      st = tridi_desc_create_variable(&d, dt, batch, len, TRIDI_VAR_PACKED, 0, 0);
      free(len);
      printf("\nvariable %s, %lld packed systems of lengths 1 .. %lld, backend %s:\n", tridi_dtype_name(dt),
             (long long)batch, (long long)(2 * n), tridi_backend_name(be));
    }
    tridi_plan plan = NULL;
    if (!st) st = tridi_plan_create(&plan, d, &o);
    tridi_desc_destroy(d);
    if (st) {
      printf("  no plan: %s (%s)\n", tridi_status_name(st), tridi_last_error());
      continue;
    }
    tridi_plan_info pi;
    pi.struct_size = sizeof pi;
    tridi_plan_get_info(plan, &pi);
    printf("  kernel %s\n", pi.kernel);
    for (const char *l = pi.selection; *l;) {
      const char *e = strchr(l, '\n');
      const int len = e ? (int)(e - l) : (int)strlen(l);
      printf("  %.*s\n", len, l);
      l += len + (e ? 1 : 0);
    }
    tridi_plan_destroy(plan);
  }
  return TRIDI_EXIT_OK;
}

int tridi_cmd_info(int argc, char **argv) {
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
                                           {"solvers", no_argument, NULL, 's'},
                                           {"backend", required_argument, NULL, 'b'},
                                           {"dtype", required_argument, NULL, 'd'},
                                           {"n", required_argument, NULL, 'n'},
                                           {"batch", required_argument, NULL, 'B'},
                                           {NULL, 0, NULL, 0}};
  optind = 1;
  int c, solvers = 0;
  tridi_backend be = TRIDI_BACKEND_CPU;
  tridi_dtype dt = TRIDI_F64;
  int64_t n = 1000, batch = 1000;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
      case 'h':
        printf("usage: tridi info [--solvers [--backend ref|cpu|cuda] [--dtype f32|f64] [--n N]\n"
               "                  [--batch B]]\n\n"
               "Print the version, the backends compiled in, the SIMD level and thread count the\n"
               "CPU backend uses, and the GPU when there is one.  --solvers: the solver table\n"
               "(src/core/kinds/) and how the planner chooses its row for a contiguous scalar\n"
               "batch and a packed variable-size batch (default cpu, f64, n = 1000, 1000\n"
               "systems).\n");
        return TRIDI_EXIT_OK;
      case 's': solvers = 1; break;
      case 'b':
        if (!strcmp(optarg, "ref")) be = TRIDI_BACKEND_REF;
        else if (!strcmp(optarg, "cpu")) be = TRIDI_BACKEND_CPU;
        else if (!strcmp(optarg, "cuda")) be = TRIDI_BACKEND_CUDA;
        else {
          fprintf(stderr, "tridi info: --backend %s: expected ref, cpu or cuda\n", optarg);
          return TRIDI_EXIT_USAGE;
        }
        break;
      case 'd':
        if (!strcmp(optarg, "f32")) dt = TRIDI_F32;
        else if (!strcmp(optarg, "f64")) dt = TRIDI_F64;
        else {
          fprintf(stderr, "tridi info: --dtype %s: expected f32 or f64\n", optarg);
          return TRIDI_EXIT_USAGE;
        }
        break;
      case 'n':
      case 'B': {
        char *end = NULL;
        const long long v = strtoll(optarg, &end, 10);
        if (!end || *end || v < 1) {
          fprintf(stderr, "tridi info: --%s %s: expected a positive integer\n", c == 'n' ? "n" : "batch",
                  optarg);
          return TRIDI_EXIT_USAGE;
        }
        if (c == 'n') n = v;
        else batch = v;
        break;
      }
      default: return TRIDI_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tridi info: unexpected argument '%s'\n", argv[optind]);
    return TRIDI_EXIT_USAGE;
  }
  if (solvers) return print_solvers(be, dt, n, batch);
  int major = 0, minor = 0, patch = 0;
  tridi_version(&major, &minor, &patch);
  printf("tridi %d.%d.%d\n", major, minor, patch);
  printf("backends:\n");
  const tridi_backend backends[] = {TRIDI_BACKEND_REF, TRIDI_BACKEND_CPU, TRIDI_BACKEND_CUDA};
  for (size_t i = 0; i < sizeof backends / sizeof backends[0]; ++i)
    printf("  %-5s %s\n", tridi_backend_name(backends[i]),
           tridi_backend_available(backends[i]) ? "available" : "not available");
  printf("cpu:     %s\n", bench_runner_cpu.device_name());
  printf("simd:    %s\n", tridi_simd_name(tridi_cpu_simd_detect()));
  printf("threads: %d (omp_get_max_threads; set OMP_NUM_THREADS to change)\n",
         omp_get_max_threads());
#ifdef TRIDI_HAVE_CUDA
  printf("gpu:     %s\n", bench_runner_cuda.available() ? bench_runner_cuda.device_name()
                                                        : "none visible");
#else
  printf("gpu:     CUDA backend not compiled in\n");
#endif
  return TRIDI_EXIT_OK;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return TRIDI_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "info") == 0) return tridi_cmd_info(argc - 1, argv + 1);
  if (strcmp(cmd, "bench") == 0) return tridi_cmd_bench(argc - 1, argv + 1);
  if (strcmp(cmd, "solve") == 0) return tridi_cmd_solve(argc - 1, argv + 1);
  if (strcmp(cmd, "accuracy") == 0) return tridi_cmd_accuracy(argc - 1, argv + 1);
#ifdef TRIDI_CPU_TUNING
  if (strcmp(cmd, "ab") == 0) return tridi_cmd_ab(argc - 1, argv + 1);
#endif
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    usage(stdout);
    return TRIDI_EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    int major = 0, minor = 0, patch = 0;
    tridi_version(&major, &minor, &patch);
    printf("tridi %d.%d.%d\n", major, minor, patch);
    return TRIDI_EXIT_OK;
  }
  fprintf(stderr, "tridi: unknown command '%s'\n", cmd);
  usage(stderr);
  return TRIDI_EXIT_USAGE;
}
