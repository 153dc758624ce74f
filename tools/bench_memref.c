/* The CPU memory references of `tridi bench`, measured in the same run as
 * the solves (docs/benchmarks.md):
 *
 *   copy    each OpenMP thread memcpy's the first half of its own region
 *           into the second half (read + write counted);
 *   stream  one pass that reads four arrays and writes one with
 *           non-temporal stores, x = a + b + c + d, each thread in its own
 *           region (5 arrays counted): the traffic of a tridiagonal solve
 *           (read a, b, c, d; write x) at the machine's streaming limit.
 *
 * Both use one buffer kept between cases, split into one region per thread
 * and first touched by that thread; sized by the driver to at least four
 * times the last-level cache (bench_llc_bytes), so that no part of it is
 * served from the cache. */
#include "bench.h"
#include "bench_util.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define BENCH_X86 1
#endif

/* ---- the last-level cache --------------------------------------------------- */

/* "32768K" -> bytes */
static size_t parse_size(const char *s) {
  char *end = NULL;
  const unsigned long long v = strtoull(s, &end, 10);
  if (end == s) return 0;
  if (*end == 'K' || *end == 'k') return (size_t)v << 10;
  if (*end == 'M' || *end == 'm') return (size_t)v << 20;
  if (*end == 'G' || *end == 'g') return (size_t)v << 30;
  return (size_t)v;
}

size_t bench_llc_bytes(void) {
  size_t best = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) best = (size_t)l3;
#endif
  /* sysconf may report 0 (or, in a VM, the host's total): take the larger */
  for (int idx = 0; idx < 16; ++idx) {
    char path[128], line[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
    FILE *f = fopen(path, "r");
    if (f == NULL) break;
    if (fgets(line, sizeof line, f) != NULL) {
      const size_t v = parse_size(line);
      if (v > best) best = v;
    }
    fclose(f);
  }
  return best;
}

/* ---- the per-thread regions --------------------------------------------------- */

static struct {
  char *buf;
  size_t bytes;
  int threads;
} g_ref;

#define REGION_ALIGN ((size_t)1 << 16)

/* Bytes of one thread's region (a multiple of 64 KiB, at least 64 KiB). */
static size_t region_bytes(size_t bytes, int threads) {
  size_t r = bytes / (size_t)threads / REGION_ALIGN * REGION_ALIGN;
  return r < REGION_ALIGN ? REGION_ALIGN : r;
}

/* The buffer for `bytes` on `threads` threads, each region first touched by
 * its thread; NULL when out of memory. */
static char *ref_buffer(size_t bytes, int threads) {
  const size_t R = region_bytes(bytes, threads);
  if (g_ref.buf != NULL && g_ref.threads == threads && g_ref.bytes >= R * (size_t)threads)
    return g_ref.buf;
  bench_free(g_ref.buf);
  g_ref.buf = bench_alloc(R * (size_t)threads);
  g_ref.bytes = g_ref.buf != NULL ? R * (size_t)threads : 0;
  g_ref.threads = threads;
  if (g_ref.buf == NULL) return NULL;
  char *buf = g_ref.buf;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    if (t < threads) memset(buf + (size_t)t * R, 0, R);
  }
  return buf;
}

void bench_cpu_release_refs(void) {
  bench_free(g_ref.buf);
  memset(&g_ref, 0, sizeof g_ref);
}

/* ---- the stream kernels --------------------------------------------------------- */

typedef void (*stream_fn)(const double *a, const double *b, const double *c, const double *d,
                          double *x, size_t n);

static void stream_portable(const double *a, const double *b, const double *c, const double *d,
                            double *x, size_t n) {
  for (size_t i = 0; i < n; ++i) x[i] = (a[i] + b[i]) + (c[i] + d[i]);
}

#ifdef BENCH_X86
/* n a multiple of 8, every array 64-byte aligned */
__attribute__((target("avx512f"))) static void stream_avx512(const double *a, const double *b,
                                                              const double *c, const double *d,
                                                              double *x, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    const __m512d s = _mm512_add_pd(_mm512_add_pd(_mm512_load_pd(a + i), _mm512_load_pd(b + i)),
                                    _mm512_add_pd(_mm512_load_pd(c + i), _mm512_load_pd(d + i)));
    _mm512_stream_pd(x + i, s);
  }
  _mm_sfence();
}

__attribute__((target("avx2"))) static void stream_avx2(const double *a, const double *b,
                                                         const double *c, const double *d,
                                                         double *x, size_t n) {
  for (size_t i = 0; i < n; i += 4) {
    const __m256d s = _mm256_add_pd(_mm256_add_pd(_mm256_load_pd(a + i), _mm256_load_pd(b + i)),
                                    _mm256_add_pd(_mm256_load_pd(c + i), _mm256_load_pd(d + i)));
    _mm256_stream_pd(x + i, s);
  }
  _mm_sfence();
}
#endif

static stream_fn pick_stream(const char **name) {
#ifdef BENCH_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    *name = "avx512 nt";
    return stream_avx512;
  }
  if (__builtin_cpu_supports("avx2")) {
    *name = "avx2 nt";
    return stream_avx2;
  }
#endif
  *name = "portable";
  return stream_portable;
}

const char *bench_stream_kind(void) {
  const char *name = NULL;
  (void)pick_stream(&name);
  return name;
}

/* ---- timing ------------------------------------------------------------------------ */

enum { REF_COPY = 0, REF_STREAM = 1 };

/* GB/s of `what` over `bytes`: one untimed pass (which also sets how often a
 * timed sample repeats the pass so that it lasts about 10 ms), then the
 * median of max(5, reps) samples. */
static double ref_gbps(int what, size_t bytes, const bench_opts *opts) {
  const int nt = opts->threads;
  char *buf = ref_buffer(bytes, nt);
  if (buf == NULL) return -1.0;
  const size_t R = region_bytes(bytes, nt);
  const size_t half = R / 2 / 64 * 64, fifth = R / 5 / 64 * 64;
  const char *name = NULL;
  const stream_fn fn = pick_stream(&name);
  const double per_thread = what == REF_COPY ? 2.0 * (double)half : 5.0 * (double)fifth;
  int team = nt; /* the threads that ran (fewer than asked only with dynamic teams) */
  const int reps = opts->reps < 5 ? 5 : opts->reps;
  double *t_ms = malloc(sizeof(double) * (size_t)reps);
  if (t_ms == NULL) return -1.0;
  int inner = 1;
  for (int r = -1; r < reps; ++r) { /* r = -1: untimed */
    const double t0 = bench_now();
#pragma omp parallel num_threads(nt)
    {
#pragma omp single nowait
      team = omp_get_num_threads();
      char *reg = buf + (size_t)omp_get_thread_num() * R;
      for (int k = 0; k < inner; ++k) {
        if (what == REF_COPY) {
          memcpy(reg + half, reg, half);
        } else {
          const double *a = (const double *)reg;
          const size_t n = fifth / sizeof(double);
          fn(a, a + n, a + 2 * n, a + 3 * n, (double *)(reg + 4 * fifth), n);
        }
      }
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
  return per_thread * team / (med * 1e-3) / 1e9;
}

double bench_cpu_copy_gbps(size_t bytes, const bench_opts *opts) { return ref_gbps(REF_COPY, bytes, opts); }
double bench_cpu_stream_gbps(size_t bytes, const bench_opts *opts) {
  return ref_gbps(REF_STREAM, bytes, opts);
}
