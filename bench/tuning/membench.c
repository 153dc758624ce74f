/* tridi_membench (TRIDI_CPU_TUNING builds on x86-64 with AVX-512): what the
 * memory system of this machine gives to the access patterns of a batched
 * Thomas solve, against the parallel memcpy copy that `tridi bench` divides by.
 *
 * Patterns, all f32, every thread on its own contiguous share, medians of
 * --rounds rounds in which every pattern runs once:
 *   copy      memcpy of 2 x size/2 (read + write bytes counted), as tridi bench
 *   read4     four arrays read (16 B per element)
 *   ntwrite   one array written with non-temporal stores (4 B per element)
 *   stream4   read a, b, c, d and write x non-temporally in one pass (20 B)
 *   thomas    a real Thomas solve on blocks of n rows x --lanes lanes (16, 32
 *             or 64; the middle axis of a 3-D array): forward sweep to an L2
 *             scratch, then the backward sweep writing x (non-temporal, rows
 *             descending)
 *   pipe      the same, with the forward sweep of block b alternating every
 *             --chunk rows with the backward sweep of block b - 1
 *   read4t    four arrays of contiguous systems of n rows read in the order
 *             of the TRANS loader: groups of --tlanes systems, tiles of
 *             --tlines lines per system, operand by operand; --tpf 0: no
 *             prefetch, 1/2: prefetcht1/t0 of the next tile's lines, 3/4/5:
 *             the next group's lines in address order (t1/t2/t0) spread over
 *             the tiles
 *   read4s    interleaved systems, (n, N / n) arrays: a work item reads a strip
 *             of --swidth floats of every row, --stile rows a turn, with
 *             prefetcht1 --spf rows ahead (0: none)
 * Buffers come from bench_alloc (2 MiB aligned, transparent huge pages), as
 * in tridi bench.
 * Output: GB/s (5 words per unknown for stream4, thomas and pipe) and % of the
 * copy.  docs/perf-log.md (CPU v17) has the figures of the development VM and
 * what they mean for the solver. */
#define _DEFAULT_SOURCE /* madvise (bench_util.h) */
#include <getopt.h>
#include <immintrin.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

enum { P_COPY, P_READ4, P_NTWRITE, P_STREAM4, P_THOMAS, P_PIPE, P_READ4T, P_READ4S, P_NUM };
static const char *const names[P_NUM] = {"copy", "read4", "ntwrite", "stream4", "thomas", "pipe", "read4t", "read4s"};

typedef struct {
  float *a, *b, *c, *d, *x, *src, *dst;
  size_t N;   /* elements per array (a multiple of the block) */
  int n;      /* rows per block (system length) */
  int chunk;  /* rows per turn of the pipelined variant */
  int tlanes, tlines, tpf; /* read4t: systems per group, lines per system per tile, prefetch */
  int swidth, stile, spf;  /* read4s: strip width (floats), rows per tile, prefetch rows ahead */
  int lanes;               /* thomas, pipe: lanes per block row (16, 32, 64) */
} bufs;

#define LANES 64 /* most lanes per block row (--lanes 16, 32 or 64: 1, 2 or 4 vectors of 16) */
#if defined(__GNUC__)
#define MB_INLINE static inline __attribute__((always_inline))
#else
#define MB_INLINE static inline
#endif

static void range(size_t total, size_t *lo, size_t *hi) {
  const int t = omp_get_thread_num(), T = omp_get_num_threads();
  *lo = total * (size_t)t / (size_t)T;
  *hi = total * (size_t)(t + 1) / (size_t)T;
}

/* forward sweep of rows [r0, r1) of one block (rows of L floats) */
MB_INLINE void fwd_rows(const float *a, const float *b, const float *c, const float *d, float *cpdp,
                        int r0, int r1, __m512 *cp, __m512 *dp, const int L) {
  const __m512 one = _mm512_set1_ps(1.f);
  for (int r = r0; r < r1; ++r)
    for (int u = 0; u < L / 16; ++u) {
      const size_t o = (size_t)r * (size_t)L + (size_t)u * 16;
      const __m512 av = _mm512_load_ps(a + o);
      const __m512 m = _mm512_fnmadd_ps(av, cp[u], _mm512_load_ps(b + o));
      const __m512 rr = _mm512_div_ps(one, m);
      cp[u] = _mm512_mul_ps(_mm512_load_ps(c + o), rr);
      dp[u] = _mm512_mul_ps(_mm512_fnmadd_ps(av, dp[u], _mm512_load_ps(d + o)), rr);
      _mm512_store_ps(cpdp + 2 * o - (size_t)u * 16, cp[u]);
      _mm512_store_ps(cpdp + 2 * o - (size_t)u * 16 + L, dp[u]);
    }
}

/* backward sweep of rows [r0, r1) of one block, rows descending */
MB_INLINE void bwd_rows(const float *cpdp, float *x, int r0, int r1, __m512 *xv, const int L) {
  for (int r = r1 - 1; r >= r0; --r)
    for (int u = 0; u < L / 16; ++u) {
      const size_t o = (size_t)r * (size_t)L + (size_t)u * 16;
      const float *q = cpdp + 2 * o - (size_t)u * 16;
      xv[u] = _mm512_fnmadd_ps(_mm512_load_ps(q), xv[u], _mm512_load_ps(q + L));
      _mm512_stream_ps(x + o, xv[u]);
    }
}

/* the thomas / pipe patterns on blocks [lo, hi) of n rows x L lanes */
MB_INLINE void solve_blocks(int p, const bufs *B, size_t lo, size_t hi, float *scr, const int L) {
  const size_t blk = (size_t)B->n * (size_t)L;
  __m512 cp[4], dp[4], xv[4];
  if (p == P_THOMAS) {
    for (size_t k = lo; k < hi; ++k) {
      const size_t o = k * blk;
      for (int u = 0; u < 4; ++u) cp[u] = dp[u] = xv[u] = _mm512_setzero_ps();
      fwd_rows(B->a + o, B->b + o, B->c + o, B->d + o, scr, 0, B->n, cp, dp, L);
      bwd_rows(scr, B->x + o, 0, B->n, xv, L);
    }
    return;
  }
  for (size_t k = lo; k <= hi; ++k) {
    float *sc = scr + (k & 1) * 2 * blk, *sp = scr + ((k + 1) & 1) * 2 * blk;
    for (int u = 0; u < 4; ++u) cp[u] = dp[u] = xv[u] = _mm512_setzero_ps();
    for (int j = 0; j < B->n; j += B->chunk) {
      const int j1 = j + B->chunk < B->n ? j + B->chunk : B->n;
      if (k < hi)
        fwd_rows(B->a + k * blk, B->b + k * blk, B->c + k * blk, B->d + k * blk, sc, j, j1, cp, dp,
                 L);
      if (k > lo) bwd_rows(sp, B->x + (k - 1) * blk, B->n - j1, B->n - j, xv, L);
    }
  }
}

static volatile float membench_sink;

static double run(int p, const bufs *B) {
  const double t0 = omp_get_wtime();
  float total = 0.f;
#pragma omp parallel reduction(+ : total)
  {
    size_t lo, hi;
    if (p == P_COPY) {
      range(B->N * 2, &lo, &hi);
      memcpy(B->dst + lo, B->src + lo, (hi - lo) * sizeof(float));
    } else if (p == P_READ4 || p == P_NTWRITE || p == P_STREAM4) {
      range(B->N / 16, &lo, &hi);
      __m512 acc = _mm512_setzero_ps();
      for (size_t i = lo * 16; i < hi * 16; i += 16) {
        if (p == P_NTWRITE) {
          _mm512_stream_ps(B->x + i, acc);
          continue;
        }
        const __m512 v = _mm512_add_ps(_mm512_add_ps(_mm512_load_ps(B->a + i), _mm512_load_ps(B->b + i)),
                                       _mm512_add_ps(_mm512_load_ps(B->c + i), _mm512_load_ps(B->d + i)));
        if (p == P_STREAM4)
          _mm512_stream_ps(B->x + i, v);
        else
          acc = _mm512_add_ps(acc, v);
      }
      total += _mm512_reduce_add_ps(acc);
    } else if (p == P_READ4T) {
      /* contiguous systems of n rows, read as the TRANS loader does: groups of
       * tlanes systems, tiles of tlines lines per system, operand by operand */
      const int G = B->tlanes, R = B->tlines * 16, n = B->n;
      const size_t grp = (size_t)G * (size_t)n;
      range(B->N / grp, &lo, &hi);
      __m512 acc = _mm512_setzero_ps();
      const float *ops[4] = {B->a, B->b, B->c, B->d};
      for (size_t k = lo; k < hi; ++k)
        for (int r0 = 0; r0 < n; r0 += R) {
          if (B->tpf >= 3) { /* the next group's region in address order, spread over the tiles */
            const size_t per = (grp + 15) / 16 / (size_t)((n + R - 1) / R); /* lines per tile per op */
            const size_t first = (size_t)(r0 / R) * per;
            for (int o = 0; o < 4; ++o)
              for (size_t j = first; k + 1 < hi && j < first + per + 1 && j * 16 < grp; ++j) {
                const char *q = (const char *)(ops[o] + (k + 1) * grp + j * 16);
                if (B->tpf == 3) _mm_prefetch(q, _MM_HINT_T1);
                else if (B->tpf == 4) _mm_prefetch(q, _MM_HINT_T2);
                else _mm_prefetch(q, _MM_HINT_T0);
              }
          } else if (B->tpf)
            for (int o = 0; o < 4; ++o)
              for (int l = 0; l < G; ++l)
                for (int r = 0; r < R; r += 16) {
                  /* may point past the array: integer arithmetic, never dereferenced */
                  const char *q = (const char *)((uintptr_t)(ops[o] + k * grp + (size_t)l * n) +
                                                 (uintptr_t)(r0 + R + r) * sizeof(float));
                  if (B->tpf == 1)
                    _mm_prefetch(q, _MM_HINT_T1);
                  else
                    _mm_prefetch(q, _MM_HINT_T0);
                }
          for (int o = 0; o < 4; ++o)
            for (int l = 0; l < G; ++l)
              for (int r = 0; r < R && r0 + r < n; r += 16)
                acc = _mm512_add_ps(acc, _mm512_load_ps(ops[o] + k * grp + (size_t)l * n + r0 + r));
        }
      total += _mm512_reduce_add_ps(acc);
    } else if (p == P_READ4S) {
      /* interleaved systems: the arrays are n rows of N / n floats; a work
       * item reads a strip of swidth floats of every row, stile rows at a
       * time per operand (as the VEC sweep of interleaved data) */
      const size_t W = (size_t)B->swidth, rowlen = B->N / (size_t)B->n;
      const int KT = B->stile, n = B->n;
      range(rowlen / W, &lo, &hi);
      __m512 acc = _mm512_setzero_ps();
      const float *ops[4] = {B->a, B->b, B->c, B->d};
      for (size_t k = lo; k < hi; ++k)
        for (int r0 = 0; r0 < n; r0 += KT)
          for (int r = r0; r < r0 + KT && r < n; ++r)
            for (int o = 0; o < 4; ++o) {
              const float *q = ops[o] + (size_t)r * rowlen + k * W;
              if (B->spf && r + B->spf < n)
                for (size_t j = 0; j < W; j += 16)
                  _mm_prefetch((const char *)(q + (size_t)B->spf * rowlen + j), _MM_HINT_T1);
              for (size_t j = 0; j < W; j += 16) acc = _mm512_add_ps(acc, _mm512_load_ps(q + j));
            }
      total += _mm512_reduce_add_ps(acc);
    } else {
      const size_t blk = (size_t)B->n * (size_t)B->lanes;
      range(B->N / blk, &lo, &hi);
      float *scr = aligned_alloc(64, 2 * 2 * blk * sizeof(float));
      if (scr != NULL) {
        switch (B->lanes) { /* constant lane counts: the sweeps' loops unrolled */
          case 16: solve_blocks(p, B, lo, hi, scr, 16); break;
          case 32: solve_blocks(p, B, lo, hi, scr, 32); break;
          default: solve_blocks(p, B, lo, hi, scr, 64); break;
        }
        free(scr);
      }
    }
  }
  const double t = omp_get_wtime() - t0;
  membench_sink = total; /* keeps the reads */
  return t;
}

static int cmp(const void *x, const void *y) {
  const double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(int argc, char **argv) {
  double size_mb = 1024; /* as tridi bench */
  int rounds = 7;
  bufs B = {.n = 256, .chunk = 4, .tlanes = 16, .tlines = 2, .tpf = 1, .swidth = 512,
            .stile = 16, .spf = 16, .lanes = 64};
  static const struct option longopts[] = {{"size-mb", required_argument, NULL, 's'},
                                            {"rounds", required_argument, NULL, 'r'},
                                            {"n", required_argument, NULL, 'n'},
                                            {"chunk", required_argument, NULL, 'c'},
                                            {"tlanes", required_argument, NULL, 'G'},
                                            {"tlines", required_argument, NULL, 'L'},
                                            {"tpf", required_argument, NULL, 'P'},
                                            {"swidth", required_argument, NULL, 'W'},
                                            {"lanes", required_argument, NULL, 'l'},
                                            {"stile", required_argument, NULL, 'K'},
                                            {"spf", required_argument, NULL, 'F'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
  int ch;
  while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (ch) {
      case 's': size_mb = atof(optarg); break;
      case 'r': rounds = atoi(optarg); break;
      case 'n': B.n = atoi(optarg); break;
      case 'c': B.chunk = atoi(optarg); break;
      case 'G': B.tlanes = atoi(optarg); break;
      case 'L': B.tlines = atoi(optarg); break;
      case 'P': B.tpf = atoi(optarg); break;
      case 'W': B.swidth = atoi(optarg); break;
      case 'l': B.lanes = atoi(optarg); break;
      case 'K': B.stile = atoi(optarg); break;
      case 'F': B.spf = atoi(optarg); break;
      default:
        fprintf(ch == 'h' ? stdout : stderr,
                "usage: tridi_membench [--size-mb M (1024)] [--rounds R (7)] [--n ROWS (256)]\n"
                "                      [--chunk ROWS (4)] [--tlanes G (16)] [--tlines L (2)]\n"
                "                      [--tpf 0..5 (1)] [--swidth W (512)] [--stile R (16)]\n"
                "                      [--spf R (16)] [--lanes 16|32|64 (64)]\n"
                "                      (threads: OMP_NUM_THREADS)\n");
        return ch == 'h' ? 0 : 2;
    }
  }
  if (size_mb <= 0 || rounds < 1 || rounds > 1000 || B.n < 1 || B.chunk < 1 || B.tlanes < 1 ||
      64 % B.tlanes != 0 || B.tlines < 1 || B.tpf < 0 || B.tpf > 5 || B.swidth < 16 ||
      B.swidth % 16 != 0 || B.stile < 1 || B.spf < 0 ||
      (B.lanes != 16 && B.lanes != 32 && B.lanes != 64)) {
    fprintf(stderr, "tridi_membench: bad option value\n");
    return 2;
  }
  const int n = B.n;
  const size_t blk = (size_t)n * LANES;
  B.N = (size_t)(size_mb * 1048576.0 / 5 / sizeof(float)) / blk * blk;
  if (B.N == 0) {
    fprintf(stderr, "tridi_membench: --size-mb too small for --n\n");
    return 2;
  }
  float **arr[7] = {&B.a, &B.b, &B.c, &B.d, &B.x, &B.src, &B.dst};
  for (int k = 0; k < 7; ++k) {
    const size_t len = (k < 5 ? B.N : 2 * B.N) * sizeof(float);
    *arr[k] = bench_alloc(len); /* 2 MiB aligned, transparent huge pages, as tridi bench */
    if (*arr[k] == NULL) {
      fprintf(stderr, "tridi_membench: out of memory\n");
      return 1;
    }
  }
#pragma omp parallel
  { /* first touch by the threads that use the data; a diagonally dominant system */
    size_t lo, hi;
    range(B.N, &lo, &hi);
    for (size_t i = lo; i < hi; ++i) {
      B.a[i] = B.c[i] = 0.25f;
      B.b[i] = 2.f;
      B.d[i] = 1.f;
      B.x[i] = 0.f;
    }
    range(2 * B.N, &lo, &hi);
    for (size_t i = lo; i < hi; ++i) B.src[i] = B.dst[i] = 1.f;
  }
  const double bytes[P_NUM] = {16.0 * (double)B.N, 16.0 * (double)B.N, 4.0 * (double)B.N,
                               20.0 * (double)B.N, 20.0 * (double)B.N, 20.0 * (double)B.N,
                               16.0 * (double)B.N,
                               16.0 * (double)n *
                                   (double)((B.N / (size_t)n) / (size_t)B.swidth * (size_t)B.swidth)};
  double *t = malloc(sizeof(double) * (size_t)rounds * P_NUM);
  if (t == NULL) return 1;
  for (int p = 0; p < P_NUM; ++p) (void)run(p, &B); /* warm-up */
  for (int r = 0; r < rounds; ++r)
    for (int p = 0; p < P_NUM; ++p) t[p * rounds + r] = run(p, &B);
  printf("# tridi_membench: %d threads, %.0f MiB per pattern, block %d rows x %d lanes, chunk %d, "
         "median of %d rounds\n",
         omp_get_max_threads(), 5.0 * (double)B.N * sizeof(float) / 1048576.0, n, B.lanes, B.chunk,
         rounds);
  double copy = 0;
  for (int p = 0; p < P_NUM; ++p) {
    qsort(t + p * rounds, (size_t)rounds, sizeof(double), cmp);
    const double gbps = bytes[p] / t[p * rounds + rounds / 2] / 1e9;
    if (p == P_COPY) copy = gbps;
    printf("%-8s %7.1f GB/s  %5.1f%% of copy\n", names[p], gbps, 100.0 * gbps / copy);
  }
  free(t);
  for (int k = 0; k < 7; ++k) bench_free(*arr[k]);
  return 0;
}
