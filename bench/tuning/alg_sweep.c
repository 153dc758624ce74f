/* alg_sweep: time every CUDA algorithm of tridi on the same data, and sweep
 * the switch size of the hybrids CR+PCR and CR+RD (the figures of
 * docs/algorithms.md "GPU" and "Switch size").
 *
 * For each dtype and n: random systems filling about --size-mb MiB (a, b,
 * c, d, x together) on the device, contiguous ("contig", shape (B, n), axis
 * 1) and interleaved (shape (n, B), axis 0); each algorithm planned once,
 * executed 2 times untimed and 12 times timed with CUDA events (median);
 * effective bandwidth 5 n B sizeof(T) / time; the number of systems it
 * reported in info.  --sweep repeats CR+PCR and CR+RD on the contig case
 * for every switch size below n; it needs a TRIDI_CUDA_TUNING build (the
 * env TRIDI_CUDA_ALG_SWITCH override).  CSV on stdout.
 *
 * Data: --data dominant (a, c, d uniform in (-1, 1), b = +-(2.5..3.5)) or
 * close (row value v = +-(1..2), a, b, c = v (1 + 0.02 u): RD's recurrence
 * does not grow, so RD and CR+RD run to the end instead of stopping at
 * their loss check; only auto, rd, cr_rd are timed there).
 *
 * Build: CMake target tridi_alg_sweep, defined when CUDA is built with
 * -DTRIDI_CUDA_TUNING=ON (it needs a GPU and the switch override):
 *   cmake -S . -B build-tune -DTRIDI_CUDA_TUNING=ON && cmake --build build-tune -j
 *   build-tune/tools/tuning/tridi_alg_sweep ...     (below: ./alg_sweep)
 *   ./alg_sweep --size-mb 256 > dominant.csv
 *   ./alg_sweep --size-mb 64 --sweep > sweep.csv
 *   ./alg_sweep --size-mb 256 --sweep --data close > close.csv */
#include "tridi.h"

#include <cuda_runtime_api.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t sm64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double u01(uint64_t r) { return (double)(r >> 11) * (1.0 / 9007199254740992.0); }

static int cmpd(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void *dbuf[5];
static int32_t *dinfo, *hinfo;

/* Time alg on the case; returns the median ms (NaN on failure); *bad: the
 * systems with info != 0 (-1: no plan, -2: execute failed). */
static double run(tridi_dtype dt, int inter, int64_t n, int64_t B, tridi_alg alg, int64_t *bad,
                  char kernel[96]) {
  int64_t shape[2], st[2];
  int axis;
  if (inter) {
    shape[0] = n; shape[1] = B; axis = 0; st[0] = B; st[1] = 1;
  } else {
    shape[0] = B; shape[1] = n; axis = 1; st[0] = n; st[1] = 1;
  }
  tridi_desc d = NULL;
  tridi_status s = tridi_desc_create(&d, dt, 2, shape, axis);
  if (!s) s = tridi_desc_set_all_strides(d, st);
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.alg = alg;
  /* required to force CR, PCR and CR+PCR (tridi_alg); the sweep's systems are dominant */
  o.assume_dominant = tridi_alg_requires_dominance(alg);
  tridi_plan p = NULL;
  if (!s) s = tridi_plan_create(&p, d, &o);
  tridi_desc_destroy(d);
  kernel[0] = '\0';
  if (s) {
    fprintf(stderr, "alg_sweep: plan %s n=%lld: %s\n", tridi_alg_name(alg), (long long)n,
            tridi_last_error());
    *bad = -1;
    return NAN;
  }
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_plan_get_info(p, &pi);
  snprintf(kernel, 96, "%s", pi.kernel);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  enum { REPS = 12 };
  double t[REPS];
  for (int r = -2; r < REPS && !s; ++r) {
    cudaEventRecord(e0, 0);
    s = tridi_execute(p, dbuf[0], dbuf[1], dbuf[2], dbuf[3], dbuf[4], dinfo, NULL);
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 0) t[r] = ms;
  }
  double med = NAN;
  if (s || cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "alg_sweep: execute %s: %s\n", tridi_alg_name(alg), tridi_last_error());
    *bad = -2;
  } else {
    cudaMemcpy(hinfo, dinfo, (size_t)B * sizeof *hinfo, cudaMemcpyDeviceToHost);
    int64_t k = 0;
    for (int64_t i = 0; i < B; ++i) k += hinfo[i] != 0;
    *bad = k;
    qsort(t, REPS, sizeof *t, cmpd);
    med = t[REPS / 2];
  }
  tridi_plan_destroy(p);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return med;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {{"size-mb", required_argument, NULL, 'm'},
                                           {"sweep", no_argument, NULL, 's'},
                                           {"data", required_argument, NULL, 'd'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  double mb = 128;
  int sweep = 0, close = 0, c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
      case 'm': mb = atof(optarg); break;
      case 's': sweep = 1; break;
      case 'd':
        if (strcmp(optarg, "close") == 0) close = 1;
        else if (strcmp(optarg, "dominant") != 0) {
          fprintf(stderr, "alg_sweep: --data dominant|close\n");
          return 2;
        }
        break;
      case 'h':
        printf("usage: alg_sweep [--size-mb MIB] [--sweep] [--data dominant|close]\n");
        return 0;
      default: return 2;
    }
  }
  if (!(mb > 0 && mb < 1e5)) {
    fprintf(stderr, "alg_sweep: bad --size-mb\n");
    return 2;
  }
  const size_t maxb = (size_t)(mb * 1048576 / 5) + 4096;
  for (int k = 0; k < 5; ++k)
    if (cudaMalloc(&dbuf[k], maxb) != cudaSuccess) {
      fprintf(stderr, "alg_sweep: cudaMalloc failed (no GPU?)\n");
      return 1;
    }
  cudaMalloc((void **)&dinfo, maxb);
  hinfo = malloc(maxb);
  void *h = malloc(maxb);
  if (!hinfo || !h) return 1;
  static const tridi_alg algs[] = {TRIDI_ALG_AUTO, TRIDI_ALG_THOMAS, TRIDI_ALG_THOMAS_SHARED,
                                   TRIDI_ALG_THOMAS_SHUFFLE, TRIDI_ALG_CR, TRIDI_ALG_PCR,
                                   TRIDI_ALG_RD, TRIDI_ALG_CR_PCR, TRIDI_ALG_CR_RD};
  static const int64_t ns[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
  static const int64_t sws[] = {8, 16, 32, 64, 128, 256, 512, 1024, 2048};
  const char *what = close ? "close" : "dominant";
  printf("what,data,dtype,layout,n,batch,alg,kernel,switch,ms,gbps,failed\n");
  for (int t = 0; t < 2; ++t) {
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    const size_t es = t ? 8 : 4;
    for (unsigned q = 0; q < sizeof ns / sizeof ns[0]; ++q) {
      const int64_t n = ns[q];
      const int64_t B = (int64_t)(mb * 1048576 / 5 / (double)es) / n;
      const size_t m = (size_t)(B * n);
      for (int k = 0; k < 4; ++k) { /* a, b, c, d */
        for (size_t j = 0; j < m; ++j) {
          const uint64_t r = sm64(j * 7 + (uint64_t)k * 0x1234567ull + (uint64_t)n);
          double v = 2.0 * u01(r) - 1.0;
          if (k == 1) v = (r & 1 ? 1 : -1) * (2.5 + u01(sm64(r)));
          if (close && k < 3) {
            const uint64_t rv = sm64(j * 7 + (uint64_t)n);
            const double vj = (rv & 1 ? 1 : -1) * (1.0 + u01(sm64(rv)));
            v = vj * (1.0 + 0.02 * (2.0 * u01(r) - 1.0));
          }
          if (t) ((double *)h)[j] = v;
          else ((float *)h)[j] = (float)v;
        }
        cudaMemcpy(dbuf[k], h, m * es, cudaMemcpyHostToDevice);
      }
      const double bytes = 5.0 * (double)m * (double)es;
      for (int inter = 0; inter < 2; ++inter)
        for (unsigned a = 0; a < sizeof algs / sizeof algs[0]; ++a) {
          if (close && algs[a] != TRIDI_ALG_AUTO && algs[a] != TRIDI_ALG_RD &&
              algs[a] != TRIDI_ALG_CR_RD)
            continue;
          int64_t bad = 0;
          char kernel[96];
          const double ms = run(dt, inter, n, B, algs[a], &bad, kernel);
          printf("alg,%s,%s,%s,%lld,%lld,%s,%s,,%.4f,%.1f,%lld\n", what, t ? "f64" : "f32",
                 inter ? "interleaved" : "contig", (long long)n, (long long)B,
                 tridi_alg_name(algs[a]), kernel, ms, bytes / (ms * 1e6), (long long)bad);
          fflush(stdout);
        }
      if (!sweep || n < 128) continue;
      for (int hy = close; hy < 2; ++hy) {
        const tridi_alg alg = hy ? TRIDI_ALG_CR_RD : TRIDI_ALG_CR_PCR;
        for (unsigned w = 0; w < sizeof sws / sizeof sws[0] && sws[w] < n; ++w) {
          char env[32];
          snprintf(env, sizeof env, "%lld", (long long)sws[w]);
          setenv("TRIDI_CUDA_ALG_SWITCH", env, 1);
          int64_t bad = 0;
          char kernel[96];
          const double ms = run(dt, 0, n, B, alg, &bad, kernel);
          printf("switch,%s,%s,contig,%lld,%lld,%s,%s,%lld,%.4f,%.1f,%lld\n", what,
                 t ? "f64" : "f32", (long long)n, (long long)B, tridi_alg_name(alg), kernel,
                 (long long)sws[w], ms, bytes / (ms * 1e6), (long long)bad);
          fflush(stdout);
        }
        unsetenv("TRIDI_CUDA_ALG_SWITCH");
      }
    }
  }
  for (int k = 0; k < 5; ++k) cudaFree(dbuf[k]);
  cudaFree(dinfo);
  free(hinfo);
  free(h);
  return 0;
}
