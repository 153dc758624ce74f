/* Growth detection of the CUDA kernels on the matrix collection
 * (tests/matrices, docs/accuracy.md "Growth detection on the GPU"):
 *
 *   gpu_scalar    every family, f32 and f64, layouts contiguous, padded
 *                 rows, interleaved and middle axis (3-D), n from 2 to
 *                 100000 (one chunk, staged / direct tiles, the long-system
 *                 kernels), 8 systems (seeds 1..8), through the AUTO choice
 *                 and (n <= 4097) the explicit THOMAS, THOMAS_SHARED and
 *                 THOMAS_SHUFFLE rows;
 *   gpu_variable  the same families as variable-size batches, PACKED and
 *                 INTERLEAVED, lengths 2 .. 40000 in one batch (PACKED: 5000
 *                 in segments of one cluster, 40000 in the segments' three
 *                 launches as well for f64).
 *
 * Each problem is solved twice, with assume_dominant 0 and 1 (kernels
 * compiled with and without the detection: their x may differ in the last
 * bits, and on a numerically singular system one may meet an exact zero
 * pivot the other does not), and for every system: assume_dominant = 1
 * never gives TRIDI_INFO_INACCURATE; a strictly dominant system never
 * breaks down or is flagged with detection; a system the detecting run
 * reports neither broken down nor flagged has a backward error <= 10 n
 * eps (every kernel; the long-system solves, segmented and cluster, by
 * their residual check, which must flag some systems of the collection);
 * a strictly row- or column-dominant system is never flagged; the explicit Thomas rows
 * flag exactly as the CPU rule (src/ref/ref_growth.c) but at a tie; the
 * padding of x is untouched.  Without a visible GPU every test is skipped (exit 77). */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
/* clang-format on */

#include "matgen.h"
#include "ref_pivot.h"
#include "tt_dev.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fails;
#define CHECK(cond, ...)                                                    \
  do {                                                                      \
    if (!(cond)) {                                                          \
      if (++fails <= 40) {                                                  \
        fprintf(stderr, "[test_growth_cuda] %s:%d: ", __func__, __LINE__);  \
        fprintf(stderr, __VA_ARGS__);                                       \
        fputc('\n', stderr);                                                \
      }                                                                     \
    }                                                                       \
  } while (0)

#define B 8 /* systems a problem */
#define PAD_X 1234.5
static const int64_t NS[] = {2, 3, 4, 5, 8, 16, 31, 33, 64, 100, 128, 255, 512, 1000, 2048, 4097, 20000, 100000};
#define NNS ((int)(sizeof NS / sizeof NS[0]))

/* counters printed at the end of each group */
static long n_sys, n_flag, n_broken;
/* systems solved by the segmented and cluster kernels, and flagged there */
static long n_long, n_long_flag;

/* a system of the collection: double values (the f32 ones rounded) */
typedef struct sys {
  int64_t n;
  double *a, *b, *c, *d;
  int dominant; /* strictly row- or column-dominant (as given, after rounding) */
} sys;

static void make_sys(sys *S, const mg_matrix *m, int64_t n, uint64_t seed, int f64) {
  S->n = n;
  S->a = malloc(sizeof(double) * 5 * (size_t)n);
  assert_non_null(S->a);
  S->b = S->a + n;
  S->c = S->b + n;
  S->d = S->c + n;
  double *xt = S->d + n;
  assert_int_equal(mg_generate(m, n, seed, S->a, S->b, S->c), 0);
  if (!f64) {
    mg_round_f32(n, S->a);
    mg_round_f32(n, S->b);
    mg_round_f32(n, S->c);
  }
  mg_xtrue(n, seed, xt);
  mg_matvec(n, S->a, S->b, S->c, xt, S->d);
  if (!f64) mg_round_f32(n, S->d);
  const int weak = !!(m->props & MG_DOM_WEAK);
  S->dominant = !weak && (((m->props & MG_ROW_DOM) && mg_is_row_dominant(n, S->a, S->b, S->c, 0)) ||
                          ((m->props & MG_COL_DOM) && mg_is_col_dominant(n, S->a, S->b, S->c, 0)));
}

/* The checks of one system (see the top): i0/x0 with detection, i1/x1
 * with assume_dominant = 1 (x1 is not compared: other kernels). */
/* resolved: the kernel solves a tile again by the reference recurrences
 * when its growth trigger fires (the packed variable kernel): then x may
 * differ, and a zero pivot of Thomas the hybrid did not meet is reported. */
static void check_sys(const char *what, const sys *S, int f64, int resolved, int32_t i0,
                      int32_t i1, const double *x0, const double *x1) {
  const int64_t n = S->n;
  const double eps = f64 ? DBL_EPSILON : FLT_EPSILON;
  ++n_sys;
  CHECK(i1 != TRIDI_INFO_INACCURATE, "%s: flagged with assume_dominant", what);
  if (i1 != 0 && i0 != 0 && i0 != TRIDI_INFO_INACCURATE) {
    ++n_broken;
    return;
  }
  if (resolved && i0 != 0 && i0 != TRIDI_INFO_INACCURATE) {
    ++n_broken;
    return;
  }
  /* With detection and without (assume_dominant) run different kernel
   * instantiations (GROW = true / false), which nvcc contracts into FMAs
   * differently: x may differ in the last bits, and on a numerically
   * singular system one of them may meet an exact zero pivot the other
   * does not (then the system is broken down, not solved inaccurately). */
  (void)x1;
  if (i0 != 0 && i0 != TRIDI_INFO_INACCURATE) {
    ++n_broken;
    CHECK(!S->dominant, "%s: strictly dominant but breakdown %d with detection", what, (int)i0);
    return;
  }
  n_flag += i0 == TRIDI_INFO_INACCURATE;
  if (S->dominant) CHECK(i0 == 0, "%s: strictly dominant but info %d", what, (int)i0);
  if (i0 != 0) return;
  const double be = mg_backward_error(n, S->a, S->b, S->c, S->d, x0);
  CHECK(be <= 10.0 * (double)n * eps, "%s: info 0 but backward error %.3g > 10 n eps", what, be);
}

/* ---- the scalar kind: layouts ---------------------------------------------- */

enum { L_CONTIG, L_PADDED, L_INTER, L_MID3D, L_COUNT };
static const char *LNAME[L_COUNT] = {"contiguous", "padded", "interleaved", "mid3d"};

typedef struct lay {
  int rank, axis;
  int64_t shape[3], str[3];
  int64_t len; /* elements of each operand's array */
} lay;

static lay make_lay(int kind, int64_t n) {
  lay L;
  memset(&L, 0, sizeof L);
  switch (kind) {
    case L_CONTIG:
    case L_PADDED: {
      const int64_t pitch = kind == L_PADDED ? n + 3 : n;
      L.rank = 2, L.axis = 1;
      L.shape[0] = B, L.shape[1] = n;
      L.str[0] = pitch, L.str[1] = 1;
      L.len = B * pitch;
      break;
    }
    case L_INTER:
      L.rank = 2, L.axis = 0;
      L.shape[0] = n, L.shape[1] = B;
      L.str[0] = B, L.str[1] = 1;
      L.len = n * B;
      break;
    default:
      L.rank = 3, L.axis = 1;
      L.shape[0] = 2, L.shape[1] = n, L.shape[2] = B / 2;
      L.str[0] = n * (B / 2), L.str[1] = B / 2, L.str[2] = 1;
      L.len = n * B;
      break;
  }
  return L;
}

/* element of row i of system s (systems in row-major order of the other dimensions) */
static int64_t lay_off(const lay *L, int64_t s, int64_t i) {
  if (L->rank == 2) return L->axis == 1 ? s * L->str[0] + i : i * L->str[0] + s;
  return (s / (B / 2)) * L->str[0] + i * L->str[1] + (s % (B / 2));
}

/* device array from host doubles (f32: converted) */
static void *up(const double *h, int64_t len, int f64) {
  const size_t es = f64 ? 8 : 4;
  void *tmp = malloc(es * (size_t)len), *dv = NULL;
  assert_non_null(tmp);
  for (int64_t i = 0; i < len; ++i) {
    if (f64) ((double *)tmp)[i] = h[i];
    else ((float *)tmp)[i] = (float)h[i];
  }
  CUDA_OK(cudaMalloc(&dv, es * (size_t)len));
  CUDA_OK(cudaMemcpy(dv, tmp, es * (size_t)len, cudaMemcpyHostToDevice));
  free(tmp);
  return dv;
}
static void down(double *h, const void *dv, int64_t len, int f64) {
  const size_t es = f64 ? 8 : 4;
  void *tmp = malloc(es * (size_t)len);
  assert_non_null(tmp);
  CUDA_OK(cudaMemcpy(tmp, dv, es * (size_t)len, cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i < len; ++i) h[i] = f64 ? ((double *)tmp)[i] : (double)((float *)tmp)[i];
  free(tmp);
}

/* The explicit Thomas rows flag with the CPU rule: their info is the
 * reference's (src/ref/ref_growth.c) unless G lies within 1e-5 of the
 * threshold (nvcc may contract b - a c' into an FMA). */
static void check_cpu_rule(const char *what, const sys *S, int f64, int32_t i0) {
  const int64_t n = S->n;
  double *w = malloc(sizeof(double) * 2 * (size_t)n);
  float *f = malloc(sizeof(float) * 6 * (size_t)n);
  assert_non_null(w);
  assert_non_null(f);
  double g = 0;
  int32_t want;
  if (f64) {
    want = tridi_ref_growth_f64(n, S->a, 1, S->b, 1, S->c, 1, S->d, 1, w, 1, w + n, &g);
  } else {
    float g32 = 0;
    mg_to_f32(n, S->a, f);
    mg_to_f32(n, S->b, f + n);
    mg_to_f32(n, S->c, f + 2 * n);
    mg_to_f32(n, S->d, f + 3 * n);
    want = tridi_ref_growth_f32(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, f + 4 * n, 1, f + 5 * n, &g32);
    g = (double)g32;
  }
  const int tie = fabs(g / 8.0 - 1.0) <= 1e-5;
  if (!tie && (want == 0 || want == TRIDI_INFO_INACCURATE))
    CHECK(i0 == want, "%s: info %d, the CPU rule gives %d (G %.6g)", what, (int)i0, (int)want, g);
  free(w);
  free(f);
}

static int long_kernel(const char *kernel) {
  return strstr(kernel, "_seg_") != NULL || strstr(kernel, "_cluster") != NULL;
}

/* Solve the problem on the device with alg and assume_dominant; x and info
 * back on the host (info NULL: the call gets no info array).  Returns 0
 * when the plan does not exist (explicit algorithm not applicable), else 1. */
static int solve(tridi_desc desc, tridi_alg alg, int assume, int f64, void *const dev[5], int64_t len,
                 double *x, int32_t *info, char *kernel, size_t klen) {
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.alg = alg;
  o.pivot = TRIDI_PIVOT_NONE;
  o.assume_dominant = assume;
  tridi_plan plan = NULL;
  const tridi_status ps = tridi_plan_create(&plan, desc, &o);
  if (ps == TRIDI_ERR_NOT_SUPPORTED) return 0;
  assert_int_equal(ps, TRIDI_SUCCESS);
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  assert_int_equal(tridi_plan_get_info(plan, &pi), TRIDI_SUCCESS);
  snprintf(kernel, klen, "%s", pi.kernel);
  int64_t nsys = 0;
  assert_int_equal(tridi_desc_num_systems(desc, &nsys), TRIDI_SUCCESS);
  int32_t *dinfo = NULL;
  if (info) {
    CUDA_OK(cudaMalloc((void **)&dinfo, sizeof(int32_t) * (size_t)nsys));
    CUDA_OK(cudaMemset(dinfo, 0x55, sizeof(int32_t) * (size_t)nsys));
  }
  assert_int_equal(tridi_execute(plan, dev[0], dev[1], dev[2], dev[3], dev[4], dinfo, NULL), TRIDI_SUCCESS);
  /* what the execute found, by tridi_info_check on the same stream (before
   * any synchronisation: it waits for the stream itself) */
  int64_t first = -2;
  const tridi_status cst = info ? tridi_info_check(plan, dinfo, NULL, &first) : TRIDI_SUCCESS;
  CUDA_OK(cudaDeviceSynchronize());
  down(x, dev[4], len, f64);
  if (info) {
    CUDA_OK(cudaMemcpy(info, dinfo, sizeof(int32_t) * (size_t)nsys, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(dinfo));
    int64_t want;
    const tridi_status wst = tt_info_expected(info, nsys, &want);
    CHECK(cst == wst && first == want, "%s: tridi_info_check gave %s at %lld, info says %s at %lld",
          pi.kernel, tridi_status_name(cst), (long long)first, tridi_status_name(wst), (long long)want);
  }
  tridi_plan_destroy(plan);
  return 1;
}

/* tridi_info_check waits for its stream, so a capturing stream is refused
 * (and the capture is not broken by it) */
static void gpu_info_check_capture(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  const int64_t shape[] = {3, 16};
  tridi_desc desc = NULL;
  assert_int_equal(tridi_desc_create(&desc, TRIDI_F32, 2, shape, 1), TRIDI_SUCCESS);
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  tridi_plan plan = NULL;
  assert_int_equal(tridi_plan_create(&plan, desc, &o), TRIDI_SUCCESS);
  int32_t *dinfo = NULL;
  CUDA_OK(cudaMalloc((void **)&dinfo, 3 * sizeof(int32_t)));
  const int32_t h[3] = {0, 0, 5};
  CUDA_OK(cudaMemcpy(dinfo, h, sizeof h, cudaMemcpyHostToDevice));
  cudaStream_t st;
  CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  int64_t first = 0;
  assert_int_equal(tridi_info_check(plan, dinfo, st, &first), TRIDI_ERR_ZERO_PIVOT);
  assert_int_equal(first, 2);
  CUDA_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
  assert_int_equal(tridi_info_check(plan, dinfo, st, &first), TRIDI_ERR_NOT_SUPPORTED);
  assert_int_equal(first, -1);
  assert_non_null(strstr(tridi_last_error(), "captured"));
  cudaGraph_t g;
  CUDA_OK(cudaStreamEndCapture(st, &g));
  CUDA_OK(cudaGraphDestroy(g));
  assert_int_equal(tridi_info_check(plan, dinfo, st, NULL), TRIDI_ERR_ZERO_PIVOT);
  CUDA_OK(cudaStreamDestroy(st));
  CUDA_OK(cudaFree(dinfo));
  tridi_plan_destroy(plan);
  tridi_desc_destroy(desc);
}

static void gpu_scalar(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  fails = n_sys = n_flag = n_broken = n_long = n_long_flag = 0;
  static const tridi_alg ALGS[] = {TRIDI_ALG_AUTO, TRIDI_ALG_THOMAS, TRIDI_ALG_THOMAS_SHARED,
                                   TRIDI_ALG_THOMAS_SHUFFLE};
  char seen[64][96];
  int nseen = 0;
  for (int f64 = 0; f64 <= 1; ++f64)
    for (int lk = 0; lk < L_COUNT; ++lk)
      for (int in = 0; in < NNS; ++in) {
        const int64_t n = NS[in];
        const lay L = make_lay(lk, n);
        tridi_desc desc = NULL;
        assert_int_equal(tridi_desc_create(&desc, f64 ? TRIDI_F64 : TRIDI_F32, L.rank, L.shape, L.axis),
                         TRIDI_SUCCESS);
        assert_int_equal(tridi_desc_set_all_strides(desc, L.str), TRIDI_SUCCESS);
        double *h = malloc(sizeof(double) * 7 * (size_t)L.len);
        int32_t *i0 = malloc(sizeof(int32_t) * 2 * B);
        assert_non_null(h);
        assert_non_null(i0);
        int32_t *i1 = i0 + B;
        double *x0 = h + 5 * L.len, *x1 = h + 6 * L.len;
        double *sx0 = malloc(sizeof(double) * 2 * (size_t)n), *sx1 = sx0 ? sx0 + n : NULL;
        assert_non_null(sx0);
        for (int k = 0; k < mg_count; ++k) {
          const mg_matrix *m = &mg_matrices[k];
          if ((m->props & MG_DENSE) && n > 128) continue;
          sys S[B];
          for (int64_t e = 0; e < 5 * L.len; ++e) h[e] = e < 4 * L.len ? 0.5 : PAD_X;
          for (int s = 0; s < B; ++s) {
            make_sys(&S[s], m, n, (uint64_t)s + 1, f64);
            for (int64_t i = 0; i < n; ++i) {
              const int64_t e = lay_off(&L, s, i);
              h[e] = S[s].a[i];
              h[L.len + e] = S[s].b[i];
              h[2 * L.len + e] = S[s].c[i];
              h[3 * L.len + e] = S[s].d[i];
            }
          }
          void *dev[5];
          for (int op = 0; op < 4; ++op) dev[op] = up(h + op * L.len, L.len, f64);
          for (int ai = 0; ai < 4; ++ai) {
            if (ai > 0 && n > 4097) break;
            char k0[96], k1[96];
            dev[4] = up(h + 4 * L.len, L.len, f64);
            const int ok0 = solve(desc, ALGS[ai], 0, f64, dev, L.len, x0, i0, k0, sizeof k0);
            CUDA_OK(cudaFree(dev[4]));
            if (!ok0) continue;
            dev[4] = up(h + 4 * L.len, L.len, f64);
            assert_int_equal(solve(desc, ALGS[ai], 1, f64, dev, L.len, x1, i1, k1, sizeof k1), 1);
            CUDA_OK(cudaFree(dev[4]));
            /* the long kernels without an info array run without the check
             * (nobody reads its verdict): the same solve, the same x */
            double *x2 = NULL;
            if (long_kernel(k0)) {
              char k2[96];
              x2 = malloc(sizeof(double) * (size_t)L.len);
              assert_non_null(x2);
              dev[4] = up(h + 4 * L.len, L.len, f64);
              assert_int_equal(solve(desc, ALGS[ai], 0, f64, dev, L.len, x2, NULL, k2, sizeof k2), 1);
              CUDA_OK(cudaFree(dev[4]));
              CHECK(strcmp(k2, k0) == 0, "%s n %lld: kernel %s without info, %s with", m->name,
                    (long long)n, k2, k0);
            }
            int known = 0;
            for (int q = 0; q < nseen; ++q) known |= strcmp(seen[q], k0) == 0;
            if (!known && nseen < 64) snprintf(seen[nseen++], sizeof seen[0], "%s", k0);
            /* the padding of x */
            char *mark = calloc((size_t)L.len, 1);
            assert_non_null(mark);
            for (int s = 0; s < B; ++s)
              for (int64_t i = 0; i < n; ++i) mark[lay_off(&L, s, i)] = 1;
            for (int64_t e = 0; e < L.len; ++e)
              if (!mark[e]) CHECK(x0[e] == PAD_X, "%s %s n %lld %s: x padding written", m->name, LNAME[lk],
                                  (long long)n, k0);
            free(mark);
            for (int s = 0; s < B; ++s) {
              for (int64_t i = 0; i < n; ++i) {
                sx0[i] = x0[lay_off(&L, s, i)];
                sx1[i] = x1[lay_off(&L, s, i)];
              }
              char what[256];
              snprintf(what, sizeof what, "%s %s %s n %lld system %d, %s", m->name, f64 ? "f64" : "f32",
                       LNAME[lk], (long long)n, s, k0);
              check_sys(what, &S[s], f64, 0, i0[s], i1[s], sx0, sx1);
              if (long_kernel(k0)) {
                ++n_long;
                n_long_flag += i0[s] == TRIDI_INFO_INACCURATE;
                /* x of a system solved without breakdown: within a few ulps
                 * of the same kernel's with the check (in practice equal) */
                double xm = 0, dx = 0;
                for (int64_t i = 0; i < n && i0[s] >= 0; ++i) {
                  const int64_t e = lay_off(&L, s, i);
                  xm = fmax(xm, fabs(x0[e]));
                  dx = fmax(dx, fabs(x2[e] - x0[e]));
                }
                const double ulp = f64 ? DBL_EPSILON : FLT_EPSILON;
                CHECK(!(dx > 16 * ulp * xm), "%s: x without info differs by %g (max |x| %g)", what,
                      dx, xm);
              }
              if (ALGS[ai] != TRIDI_ALG_AUTO && i1[s] == 0) check_cpu_rule(what, &S[s], f64, i0[s]);
            }
            free(x2);
          }
          for (int op = 0; op < 4; ++op) CUDA_OK(cudaFree(dev[op]));
          for (int s = 0; s < B; ++s) free(S[s].a);
        }
        free(sx0);
        free(h);
        free(i0);
        tridi_desc_destroy(desc);
      }
  fprintf(stderr,
          "[test_growth_cuda] gpu_scalar: %ld systems, %ld flagged, %ld broken down; %ld solved "
          "by the long-system kernels, %ld of them flagged; kernels:",
          n_sys, n_flag, n_broken, n_long, n_long_flag);
  for (int q = 0; q < nseen; ++q) fprintf(stderr, " %s", seen[q]);
  fputc('\n', stderr);
  assert_true(n_flag > 0);
  assert_true(n_long_flag > 0);
  assert_int_equal(fails, 0);
}

/* ---- the variable kind ------------------------------------------------------ */

static const int64_t LENS[] = {2, 3, 5, 16, 33, 64, 100, 257, 512, 1000, 2048, 5000, 40000};
#define NB ((int)(sizeof LENS / sizeof LENS[0]))

static void gpu_variable(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  fails = n_sys = n_flag = n_broken = 0;
  int64_t off[NB + 1], rows = 0;
  off[0] = 0;
  for (int s = 0; s < NB; ++s) {
    off[s + 1] = off[s] + LENS[s];
    rows = LENS[s] > rows ? LENS[s] : rows;
  }
  for (int f64 = 0; f64 <= 1; ++f64)
    for (int packed = 0; packed <= 1; ++packed) {
      const int64_t len = packed ? off[NB] : rows * NB;
      tridi_desc desc = NULL;
      assert_int_equal(tridi_desc_create_variable(&desc, f64 ? TRIDI_F64 : TRIDI_F32, NB, LENS,
                                                  packed ? TRIDI_VAR_PACKED : TRIDI_VAR_INTERLEAVED,
                                                  packed ? 0 : rows, packed ? 0 : NB),
                       TRIDI_SUCCESS);
      double *h = malloc(sizeof(double) * 7 * (size_t)len);
      double *sx = malloc(sizeof(double) * 2 * (size_t)rows);
      assert_non_null(h);
      assert_non_null(sx);
      double *x0 = h + 5 * len, *x1 = h + 6 * len;
      int32_t i0[NB], i1[NB];
      for (int k = 0; k < mg_count; ++k) {
        const mg_matrix *m = &mg_matrices[k];
        if (m->props & MG_DENSE) continue;
        sys S[NB];
        for (int64_t e = 0; e < 5 * len; ++e) h[e] = e < 4 * len ? 0.5 : PAD_X;
#define VOFF(s, i) (packed ? off[s] + (i) : (i) * NB + (s))
        for (int s = 0; s < NB; ++s) {
          make_sys(&S[s], m, LENS[s], (uint64_t)s + 1, f64);
          for (int64_t i = 0; i < LENS[s]; ++i) {
            h[VOFF(s, i)] = S[s].a[i];
            h[len + VOFF(s, i)] = S[s].b[i];
            h[2 * len + VOFF(s, i)] = S[s].c[i];
            h[3 * len + VOFF(s, i)] = S[s].d[i];
          }
        }
        void *dev[5];
        char k0[96], k1[96];
        for (int op = 0; op < 4; ++op) dev[op] = up(h + op * len, len, f64);
        dev[4] = up(h + 4 * len, len, f64);
        assert_int_equal(solve(desc, TRIDI_ALG_AUTO, 0, f64, dev, len, x0, i0, k0, sizeof k0), 1);
        CUDA_OK(cudaFree(dev[4]));
        dev[4] = up(h + 4 * len, len, f64);
        assert_int_equal(solve(desc, TRIDI_ALG_AUTO, 1, f64, dev, len, x1, i1, k1, sizeof k1), 1);
        for (int op = 0; op < 5; ++op) CUDA_OK(cudaFree(dev[op]));
        for (int s = 0; s < NB; ++s) {
          const int64_t n = LENS[s];
          for (int64_t i = 0; i < n; ++i) {
            sx[i] = x0[VOFF(s, i)];
            sx[rows + i] = x1[VOFF(s, i)];
          }
          char what[256];
          snprintf(what, sizeof what, "%s %s %s n %lld system %d, %s", m->name, f64 ? "f64" : "f32",
                   packed ? "packed" : "interleaved", (long long)n, s, k0);
          check_sys(what, &S[s], f64, packed, i0[s], i1[s], sx, sx + rows);
          free(S[s].a);
        }
#undef VOFF
      }
      free(h);
      free(sx);
      tridi_desc_destroy(desc);
    }
  fprintf(stderr, "[test_growth_cuda] gpu_variable: %ld systems, %ld flagged, %ld broken down\n", n_sys,
          n_flag, n_broken);
  assert_true(n_flag > 0);
  assert_int_equal(fails, 0);
}

int main(int argc, char **argv) {
  tt_dev_detect();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gpu_scalar),
      cmocka_unit_test(gpu_variable),
      cmocka_unit_test(gpu_info_check_capture),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  const int rc = cmocka_run_group_tests(tests, NULL, NULL);
  if (!g_have_gpu) {
    fprintf(stderr, "test_growth_cuda: all tests skipped: %s\n", g_skip_reason);
    return 77;
  }
  return rc;
}
