/* Small helpers shared by the bench driver and the runners (C and C++). */
#ifndef TRIDI_TOOLS_BENCH_UTIL_H
#define TRIDI_TOOLS_BENCH_UTIL_H

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Aligned allocation for every buffer of the benchmark (copy, solves and
 * baselines alike).  Buffers of 4 MiB or more are 2 MiB aligned and, on
 * Linux, advised to use transparent huge pages, as HPC codes usually run
 * (THP "always" on most clusters; "madvise" on this VM): without them the
 * strided layouts measure TLB misses rather than the solver. */
static inline void *bench_alloc(size_t bytes) {
  const size_t big = (size_t)4 << 20, al = bytes >= big ? (size_t)2 << 20 : 64;
  if (bytes == 0) bytes = 64;
  if (bytes > SIZE_MAX - al) return NULL;
  const size_t rounded = (bytes + al - 1) / al * al;
  void *p = aligned_alloc(al, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p && al > 64) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}
static inline void bench_free(void *p) { free(p); }

/* Wall-clock seconds. */
static inline double bench_now(void) { return omp_get_wtime(); }

/* Median of v[0..k-1] (k >= 1); reorders v. */
static inline double bench_median(double *v, int k) {
  for (int i = 1; i < k; ++i) { /* insertion sort: k is small */
    const double x = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
  return (k % 2) ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

#ifdef __cplusplus
}
#endif
#endif
