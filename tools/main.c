/* The `tridi` command: `tridi info`, `tridi bench` (see docs/benchmarks.md),
 * `tridi solve` and `tridi accuracy` (docs/accuracy.md). */
#include "bench.h"
#include "commands.h"

#include <getopt.h>
#include <omp.h>
#include <stdio.h>
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

int tridi_cmd_info(int argc, char **argv) {
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    if (c == 'h') {
      printf("usage: tridi info\n\nPrint the version, the backends compiled in, the SIMD level\n"
             "and thread count the CPU backend uses, and the GPU when there is one.\n");
      return TRIDI_EXIT_OK;
    }
    return TRIDI_EXIT_USAGE;
  }
  if (optind < argc) {
    fprintf(stderr, "tridi info: unexpected argument '%s'\n", argv[optind]);
    return TRIDI_EXIT_USAGE;
  }
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
