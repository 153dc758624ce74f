/* On the GPU: every explicit CUDA algorithm (Thomas without
 * transposition / shared-memory / register-shuffle transposition, CR, PCR,
 * RD, CR+PCR, CR+RD) against the oracles and against the same algorithm on
 * the CPU (src/ref/ref_algs.c, with the switch size the GPU plan used), for
 * n in {1,2,3,5,31,32,33,63,64,65,511,512,513,1000,4097,20000}, f32/f64,
 * contiguous, interleaved, randomly strided and in-place layouts; the
 * breakdown codes of each algorithm, exactly as defined in ref_algs.h; and
 * RD's accuracy check: a system RD or CR+RD reports solved (info 0) is
 * within the suite's residual bound (and, dominant, close to LAPACK), one it
 * reports TRIDI_INFO_INACCURATE has its x written (gpu_rd_small: the small
 * dominant systems where RD's errors once passed as solved).
 *
 * Each problem is built on the host by tt_problem_init, copied whole
 * (padding included) to the device, solved, and copied back, so that
 * tt_problem_check sees x, its padding and info exactly as the GPU left
 * them.  Without a visible GPU every test is skipped (exit 77). */
#include "ref_algs.h"
#include "tt.h"

#include <cuda_runtime_api.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_have_gpu = 0;

#define SKIP_WITHOUT_GPU()                                   \
  do {                                                       \
    if (!g_have_gpu) {                                       \
      fprintf(stderr, "skipped: no CUDA device visible\n");  \
      skip();                                                \
    }                                                        \
  } while (0)

#define CUDA_OK(call)                                                                   \
  do {                                                                                  \
    const cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) fail_msg("%s:%d: %s: %s", __FILE__, __LINE__, #call,          \
                                    cudaGetErrorString(e_));                            \
  } while (0)

/* the list, plus 20000: several CR levels in global memory */
static const int64_t NS[] = {1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 511, 512, 513, 1000, 4097, 20000};
#define NNS ((int)(sizeof NS / sizeof NS[0]))

static const tridi_alg ALGS[] = {TRIDI_ALG_THOMAS, TRIDI_ALG_THOMAS_SHARED, TRIDI_ALG_THOMAS_SHUFFLE,
                                 TRIDI_ALG_CR,     TRIDI_ALG_PCR,           TRIDI_ALG_RD,
                                 TRIDI_ALG_CR_PCR, TRIDI_ALG_CR_RD};
#define NALGS ((int)(sizeof ALGS / sizeof ALGS[0]))

static int is_rd(tridi_alg a) { return a == TRIDI_ALG_RD || a == TRIDI_ALG_CR_RD; }
static int is_thomas(tridi_alg a) {
  return a == TRIDI_ALG_THOMAS || a == TRIDI_ALG_THOMAS_SHARED || a == TRIDI_ALG_THOMAS_SHUFFLE;
}

/* ---- device mirror of a tt_problem ------------------------------------- */

typedef struct dev_problem {
  void *alloc[TT_NOPS];
  void *mem[TT_NOPS];
  int32_t *info;
} dev_problem;

static int has_buf(const tt_problem *P, int op) { return !(op == TT_X && P->inplace); }

/* TRIDI_TEST_DEV_EXACT=1: device arrays of exactly the host buffers' size
 * (for compute-sanitizer memcheck, see tests/README.md) */
static int dev_exact(void) {
  const char *e = getenv("TRIDI_TEST_DEV_EXACT");
  return e && e[0] == '1';
}

static void dev_upload(const tt_problem *P, dev_problem *D) {
  memset(D, 0, sizeof *D);
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    const size_t bytes = (size_t)(P->buf[op].len > 0 ? P->buf[op].len : 1) * P->es;
    /* the ignored a[0], c[n-1] outside the host buffer stay addressable
     * (tt_dev.c: TRIDI_TEST_DEV_EXACT=1 for exact allocations) */
    const int64_t plo = dev_exact() ? 0 : P->buf[op].out_lo;
    const int64_t phi = dev_exact() ? 0 : P->buf[op].out_hi;
    CUDA_OK(cudaMalloc(&D->alloc[op], bytes + (size_t)(plo + phi) * P->es));
    D->mem[op] = (unsigned char *)D->alloc[op] + plo * (int64_t)P->es;
    if (P->buf[op].len > 0)
      CUDA_OK(cudaMemcpy(D->mem[op], P->buf[op].mem, (size_t)P->buf[op].len * P->es,
                         cudaMemcpyHostToDevice));
  }
  CUDA_OK(cudaMalloc((void **)&D->info, (size_t)(P->nsys > 0 ? P->nsys : 1) * sizeof(int32_t)));
  CUDA_OK(cudaMemset(D->info, 0x5e, (size_t)(P->nsys > 0 ? P->nsys : 1) * sizeof(int32_t)));
  CUDA_OK(cudaDeviceSynchronize()); /* before any non-blocking stream reads them (tt_dev.c) */
}

static void *dev_ptr(const tt_problem *P, const dev_problem *D, int op) {
  if (op == TT_X && P->inplace) op = TT_D;
  return (unsigned char *)D->mem[op] + P->buf[op].base * (int64_t)P->es;
}

static void dev_download(tt_problem *P, const dev_problem *D, int32_t *info) {
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op) || P->buf[op].len == 0) continue;
    CUDA_OK(cudaMemcpy(P->buf[op].mem, D->mem[op], (size_t)P->buf[op].len * P->es,
                       cudaMemcpyDeviceToHost));
  }
  if (P->nsys > 0)
    CUDA_OK(cudaMemcpy(info, D->info, (size_t)P->nsys * sizeof(int32_t), cudaMemcpyDeviceToHost));
}

static void dev_free(dev_problem *D) {
  for (int op = 0; op < TT_NOPS; ++op)
    if (D->alloc[op]) cudaFree(D->alloc[op]);
  if (D->info) cudaFree(D->info);
  memset(D, 0, sizeof *D);
}

/* ---- helpers -------------------------------------------------------------- */

/* Switch size the plan used: the "_sw<k>" part of the kernel name (1 if none). */
static int64_t plan_switch(const char *kernel) {
  const char *p = kernel ? strstr(kernel, "_sw") : NULL;
  return p ? strtoll(p + 3, NULL, 10) : 1;
}

/* Same algorithm on the CPU, system s: info and x (n doubles). */
static int32_t cpu_same(const tt_problem *P, tridi_alg alg, int64_t sw, int64_t s, double *x) {
  const int64_t n = P->n;
  const int64_t we = tridi_ref_alg_work_elems(n) + 8;
  int32_t code;
  if (P->es == 4) {
    float *buf = malloc((size_t)(5 * n + we) * sizeof(float));
    float *a = buf, *b = a + n, *c = b + n, *d = c + n, *xx = d + n, *w = xx + n;
    for (int64_t i = 0; i < n; ++i) {
      a[i] = (float)tt_problem_get_orig(P, TT_A, s, i);
      b[i] = (float)tt_problem_get_orig(P, TT_B, s, i);
      c[i] = (float)tt_problem_get_orig(P, TT_C, s, i);
      d[i] = (float)tt_problem_get_orig(P, TT_D, s, i);
    }
    code = is_thomas(alg) ? tridi_ref_thomas_f32(n, a, 1, b, 1, c, 1, d, 1, xx, 1, w)
                          : tridi_ref_alg_f32(alg, sw, n, a, 1, b, 1, c, 1, d, 1, xx, 1, w);
    for (int64_t i = 0; i < n; ++i) x[i] = xx[i];
    free(buf);
  } else {
    double *buf = malloc((size_t)(5 * n + we) * sizeof(double));
    double *a = buf, *b = a + n, *c = b + n, *d = c + n, *xx = d + n, *w = xx + n;
    for (int64_t i = 0; i < n; ++i) {
      a[i] = tt_problem_get_orig(P, TT_A, s, i);
      b[i] = tt_problem_get_orig(P, TT_B, s, i);
      c[i] = tt_problem_get_orig(P, TT_C, s, i);
      d[i] = tt_problem_get_orig(P, TT_D, s, i);
    }
    code = is_thomas(alg) ? tridi_ref_thomas_f64(n, a, 1, b, 1, c, 1, d, 1, xx, 1, w)
                          : tridi_ref_alg_f64(alg, sw, n, a, 1, b, 1, c, 1, d, 1, xx, 1, w);
    for (int64_t i = 0; i < n; ++i) x[i] = xx[i];
    free(buf);
  }
  return code;
}

/* Largest |x_i| of system s if every x_i is finite, else -1. */
static double x_finite_max(const tt_problem *P, int64_t s) {
  double m = 0;
  for (int64_t i = 0; i < P->n; ++i) {
    const double v = tt_problem_get_x(P, s, i);
    if (!isfinite(v)) return -1;
    m = fmax(m, fabs(v));
  }
  return m;
}

/* Relative distance of system s's x to LAPACK's. */
static double lapack_dist(const tt_problem *P, int64_t s) {
  double dl = 0, nl = 0;
  for (int64_t i = 0; i < P->n; ++i) {
    const double xi = tt_problem_get_x(P, s, i), xl = P->xlap[s * P->n + i];
    dl = isfinite(xi) ? fmax(dl, fabs(xi - xl)) : INFINITY;
    nl = fmax(nl, fabs(xl));
  }
  return dl / (nl > 0 ? nl : 1.0);
}

/* Run alg on P on the GPU; info out; returns the status; *kernel gets the
 * plan's kernel name. */
static tridi_status run_gpu(tt_problem *P, tridi_alg alg, int32_t *info, char *kernel, size_t klen,
                            const char *ctx, int with_info) {
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.alg = alg;
  o.pivot = TRIDI_PIVOT_NONE; /* the algorithms' own codes (AUTO: test_pivot_cuda.c) */
  /* CR, PCR and CR+PCR are planned only with the declaration (tridi_alg);
   * their kernels have no detection to switch off */
  o.assume_dominant = tridi_alg_requires_dominance(alg);
  tridi_plan plan = NULL;
  tridi_status st = tt_problem_plan(P, &o, &plan);
  if (!tt_expect_status(st, TRIDI_SUCCESS, ctx)) return st;
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_plan_get_info(plan, &pi);
  snprintf(kernel, klen, "%s", pi.kernel ? pi.kernel : "");
  if (pi.alg != alg) tt_fail("%s: plan runs %s", ctx, tridi_alg_name(pi.alg));
  dev_problem D;
  dev_upload(P, &D);
  st = tridi_execute(plan, dev_ptr(P, &D, TT_A), dev_ptr(P, &D, TT_B), dev_ptr(P, &D, TT_C),
                     dev_ptr(P, &D, TT_D), dev_ptr(P, &D, TT_X), with_info ? D.info : NULL, NULL);
  tt_expect_status(st, TRIDI_SUCCESS, ctx);
  CUDA_OK(cudaDeviceSynchronize());
  dev_download(P, &D, info);
  dev_free(&D);
  tridi_plan_destroy(plan);
  return st;
}

/* One problem, every algorithm: oracle / contract checks and the same
 * algorithm on the CPU. */
static void check_all(tt_problem *P, int mode, const char *lstr) {
  const double eps = P->es == 4 ? FLT_EPSILON : DBL_EPSILON;
  const int64_t n = P->n;
  int32_t *info = malloc((size_t)(P->nsys > 0 ? P->nsys : 1) * sizeof *info);
  double *xc = malloc((size_t)(n > 0 ? n : 1) * sizeof *xc);
  for (int a = 0; a < NALGS; ++a) {
    const tridi_alg alg = ALGS[a];
    char ctx[640], kernel[96];
    snprintf(ctx, sizeof ctx, "[%s] [cuda/%s] [%s]", lstr, tridi_alg_name(alg),
             mode ? "laplacian-like" : "dominant");
    tt_problem_reset(P);
    if (run_gpu(P, alg, info, kernel, sizeof kernel, ctx, 1)) continue;
    if (mode == 0 && !is_rd(alg)) {
      tt_problem_check(P, ctx, info); /* full check: padding, oracles, info */
    } else {
      /* info 0 promises the suite's residual bound, RD included (RD's
       * accuracy check); on the dominant family (condition < 5) also
       * closeness to LAPACK */
      const double rtol = TT_RESID_C * (double)n * eps, ctol = 10 * rtol;
      for (int64_t s = 0; s < P->nsys; ++s) {
        if (info[s] == 0) {
          const double res = tt_problem_residual(P, s);
          if (!(res <= rtol)) tt_fail("%s: system %" PRId64 " info 0 but residual %.3g (bound %.3g)",
                                      ctx, s, res, rtol);
          if (mode == 0 && !(lapack_dist(P, s) <= ctol))
            tt_fail("%s: system %" PRId64 " info 0 but %.3g from LAPACK (bound %.3g)", ctx, s,
                    lapack_dist(P, s), ctol);
        } else if (is_rd(alg) && info[s] == TRIDI_INFO_INACCURATE) {
          if (x_finite_max(P, s) < 0)
            tt_fail("%s: system %" PRId64 " inaccurate but x not written (finite)", ctx, s);
        } else if (!(is_rd(alg) && info[s] < 0 && mode == 0 && info[s] >= -n) &&
                   !(alg == TRIDI_ALG_CR_RD && mode == 0 && info[s] > 0 && info[s] <= n)) {
          /* allowed on the dominant family only: RD's products overflow
           * (-k), CR+RD's c underflows to zero after CR steps (+k) */
          tt_fail("%s: system %" PRId64 ": info %" PRId32 " not allowed here", ctx, s, info[s]);
        }
      }
    }
    /* the same algorithm on the CPU: same verdict where the CPU solves with
     * margin, and close results */
    const int64_t sw = plan_switch(kernel);
    for (int64_t s = 0; s < P->nsys && n > 0; ++s) {
      const int32_t code = cpu_same(P, alg, sw, s, xc);
      if (!is_rd(alg) && code != info[s]) {
        tt_fail("%s: system %" PRId64 ": GPU info %" PRId32 ", CPU %s %" PRId32, ctx, s, info[s],
                kernel, code);
        continue;
      }
      if (code != 0 || info[s] != 0) continue;
      double dm = 0, nm = 0;
      for (int64_t i = 0; i < n; ++i) {
        dm = fmax(dm, fabs(tt_problem_get_x(P, s, i) - xc[i]));
        nm = fmax(nm, fabs(xc[i]));
      }
      /* dominant: both within 16 n eps of the truth; Laplace: cond ~ n^2 */
      const double tol = (mode ? 4.0 * (double)n * (double)n : 32.0 * (double)n) * eps *
                         (is_rd(alg) ? 1e6 : 1.0);
      if (!(dm <= tol * (nm > 0 ? nm : 1)))
        tt_fail("%s: system %" PRId64 ": GPU and CPU %s differ by %.3g (relative; bound %.3g)", ctx,
                s, kernel, dm / (nm > 0 ? nm : 1), tol);
    }
  }
  free(info);
  free(xc);
}

static void run_oracle(const char *name, tt_builder build, int inplace) {
  SKIP_WITHOUT_GPU();
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int in = 0; in < NNS; ++in)
      for (int mode = 0; mode < 2; ++mode) {
        const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
        const int64_t n = NS[in];
        const uint64_t seed = tt_case_seed(name, k++);
        tt_rng rng;
        tt_rng_init(&rng, seed);
        tt_layout L;
        build(&L, dt, n, n <= 65 ? 67 : n <= 4097 ? 7 : 3, &rng);
        L.inplace = inplace;
        tt_problem P;
        if (tt_problem_init(&P, &L, seed, NULL)) continue;
        if (mode) tt_problem_fill_laplacian(&P, seed);
        char lstr[400];
        tt_problem_str(&P, lstr, sizeof lstr);
        check_all(&P, mode, lstr);
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

static void gpu_contiguous(void **s) { (void)s; run_oracle("gpu_algs_contiguous", tt_build_contiguous, 0); }
static void gpu_interleaved(void **s) { (void)s; run_oracle("gpu_algs_interleaved", tt_build_interleaved, 0); }
static void gpu_strided(void **s) { (void)s; run_oracle("gpu_algs_strided", tt_build_strided, 0); }
static void gpu_inplace(void **s) { (void)s; run_oracle("gpu_algs_inplace", tt_build_contiguous, 1); }

/* ---- breakdown: exact codes on the GPU ------------------------------------- */

static void gpu_breakdown(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t BNS[] = {1, 2, 3, 5, 31, 33, 64, 65, 513, 4097};
  enum { S_NAN = 1, S_ZERO = 3, S_OVF = 5, NB = 7 };
  uint64_t k = 0;
  for (int lay = 0; lay < 2; ++lay)
    for (int t = 0; t < 2; ++t)
      for (int in = 0; in < (int)(sizeof BNS / sizeof BNS[0]); ++in)
        for (int a = 0; a < NALGS; ++a) {
          const tridi_alg alg = ALGS[a];
          const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
          const int64_t n = BNS[in];
          const uint64_t seed = tt_case_seed("gpu_algs_breakdown", k++);
          tt_rng rng;
          tt_rng_init(&rng, seed);
          tt_layout L;
          if (lay) tt_build_interleaved(&L, dt, n, NB, &rng);
          else tt_build_contiguous(&L, dt, n, NB, &rng);
          tt_problem P;
          if (tt_problem_init(&P, &L, seed, NULL)) continue;
          tt_problem_fill_laplacian(&P, seed);
          const double big = P.es == 4 ? 0.75 * FLT_MAX : 0.75 * DBL_MAX;
          /* NaN at row n/2: every algorithm checks the inputs first */
          tt_problem_set(&P, TT_D, S_NAN, n / 2, NAN);
          /* the zero divisor: Thomas pivot 1: b_0 = 0; CR/PCR: b_k = 0 at an
           * even row; RD: c_k = 0 */
          int64_t kz = n / 3;
          kz -= kz % 2;
          if (is_thomas(alg)) kz = 0;
          int rd_path = 0;
          char kernel[96] = "";
          if (is_rd(alg)) {
            /* the GPU's switch decides whether CR+RD reaches RD at once */
            int32_t tmp[NB];
            char ctx0[64];
            snprintf(ctx0, sizeof ctx0, "switch probe");
            run_gpu(&P, alg, tmp, kernel, sizeof kernel, ctx0, 1);
            rd_path = alg == TRIDI_ALG_RD || n <= plan_switch(kernel);
          }
          if (rd_path && n >= 2) {
            kz = (n - 1) / 3;
            tt_problem_set(&P, TT_C, S_ZERO, kz, 0.0);
          } else {
            tt_problem_set(&P, TT_B, S_ZERO, kz, 0.0);
          }
          tt_problem_set(&P, TT_D, S_OVF, 0, big);
          tt_problem_set(&P, TT_B, S_OVF, 0, 1e-3);
          if (n > 1) tt_problem_set(&P, TT_A, S_OVF, 1, 0.5);
          tt_problem_oracle(&P);
          int32_t want[NB] = {0};
          want[S_NAN] = (int32_t)-(n / 2 + 1);
          want[S_ZERO] = (int32_t)(kz + 1);
          /* Thomas: the reference Thomas defines the overflow row */
          const int ovf_exact = !is_rd(alg);
          want[S_OVF] = is_thomas(alg) ? P.ref_info[S_OVF] : (n > 1 ? -2 : -1);
          char lstr[400], ctx[640];
          tt_problem_str(&P, lstr, sizeof lstr);
          snprintf(ctx, sizeof ctx, "[breakdown %s] [cuda/%s]", lstr, tridi_alg_name(alg));
          int32_t info[NB];
          tt_problem_reset(&P);
          run_gpu(&P, alg, info, kernel, sizeof kernel, ctx, 1);
          const double rtol = TT_RESID_C * (double)n * (P.es == 4 ? FLT_EPSILON : DBL_EPSILON);
          for (int s = 0; s < NB; ++s) {
            /* RD's accuracy check may report a healthy system (x written) */
            const int inacc = is_rd(alg) && info[s] == TRIDI_INFO_INACCURATE;
            if (inacc && x_finite_max(&P, s) < 0)
              tt_fail("%s: system %d: inaccurate but x not written (finite)", ctx, s);
            if (s == S_OVF && !ovf_exact) {
              if (!(info[s] < 0 && info[s] >= -n) && !(info[s] == 0 && tt_problem_residual(&P, s) <= rtol) &&
                  !inacc)
                tt_fail("%s: system %d: info %" PRId32 ", expected a NaN/Inf code or a solution", ctx,
                        s, info[s]);
            } else if (info[s] != want[s] && !(inacc && want[s] == 0)) {
              tt_fail("%s: system %d: info %" PRId32 ", expected %" PRId32, ctx, s, info[s], want[s]);
            }
          }
          /* info = NULL must be accepted (status only says SUCCESS on CUDA) */
          tt_problem_reset(&P);
          run_gpu(&P, alg, info, kernel, sizeof kernel, ctx, 0);
          tt_problem_free(&P);
        }
  tt_assert_no_failures();
}

/* ---- RD's accuracy check on small systems ---------------------------------- */

/* As tests/algs/test_algs.c rd_small, on the GPU: forced RD and CR+RD on
 * small dominant (n = 2, 3, 7: forward errors up to 1e-10 in f64, 1e-2 in
 * f32) and Laplacian-like systems.  Every system is solved to the suite's
 * bounds or reported TRIDI_INFO_INACCURATE with its x written; n = 1 and
 * systems whose true backward error is clearly inside the check's bound
 * (4 n eps less the check's rounding) are never reported. */
static void gpu_rd_small(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t SN[] = {1, 2, 3, 7};
  const tridi_alg algs[] = {TRIDI_ALG_RD, TRIDI_ALG_CR_RD};
  uint64_t k = 0;
  int64_t clear = 0, reported = 0;
  for (int t = 0; t < 2; ++t)
    for (int in = 0; in < 4; ++in)
      for (int mode = 0; mode < 2; ++mode) {
        const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
        const int64_t n = SN[in];
        const double eps = t ? DBL_EPSILON : FLT_EPSILON;
        const double rtol = TT_RESID_C * (double)n * eps, clear_tol = (TRIDI_RD_BERR_C * (double)n - 5) * eps;
        const uint64_t seed = tt_case_seed("gpu_algs_rd_small", k++);
        tt_rng rng;
        tt_rng_init(&rng, seed);
        tt_layout L;
        tt_build_contiguous(&L, dt, n, 200, &rng);
        tt_problem P;
        if (tt_problem_init(&P, &L, seed, NULL)) continue;
        if (mode) tt_problem_fill_laplacian(&P, seed);
        int32_t *info = malloc((size_t)P.nsys * sizeof *info);
        for (int a = 0; a < 2; ++a) {
          char ctx[200], kernel[96];
          snprintf(ctx, sizeof ctx, "[gpu_rd_small %s n=%" PRId64 " %s] [cuda/%s]", tridi_dtype_name(dt),
                   n, mode ? "laplacian-like" : "dominant", tridi_alg_name(algs[a]));
          tt_problem_reset(&P);
          if (run_gpu(&P, algs[a], info, kernel, sizeof kernel, ctx, 1)) continue;
          int64_t bad = 0;
          for (int64_t s = 0; s < P.nsys; ++s) {
            const double res = tt_problem_residual(&P, s);
            if (res <= clear_tol) ++clear;
            if (info[s] == TRIDI_INFO_INACCURATE) {
              ++reported;
              if (x_finite_max(&P, s) < 0 && bad++ < 3)
                tt_fail("%s: system %" PRId64 ": inaccurate but x not written (finite)", ctx, s);
              if ((n == 1 || res <= clear_tol) && bad++ < 3)
                tt_fail("%s: system %" PRId64 " reported inaccurate with backward error %.3g", ctx, s,
                        res);
            } else if (info[s] != 0) {
              if (bad++ < 3) tt_fail("%s: system %" PRId64 ": info %" PRId32, ctx, s, info[s]);
            } else if (!(res <= rtol) || (mode == 0 && !(lapack_dist(&P, s) <= 10 * rtol))) {
              if (bad++ < 3)
                tt_fail("%s: system %" PRId64 " reported solved but residual %.3g (bound %.3g), "
                        "distance to LAPACK %.3g",
                        ctx, s, res, rtol, lapack_dist(&P, s));
            }
          }
          if (bad > 3) tt_fail("%s: %" PRId64 " systems wrong in all", ctx, bad);
        }
        free(info);
        tt_problem_free(&P);
      }
  if (clear == 0 || reported == 0)
    tt_fail("gpu_rd_small: %" PRId64 " clearly accurate and %" PRId64 " reported systems; expected both",
            clear, reported);
  tt_assert_no_failures();
}

/* ---- a plan for another device than the caller's current one ------------ */

/* Every CUDA row runs on the plan's device (options.device, where its
 * workspace lives) whichever device the calling thread has current, and
 * leaves the caller's current device as it was.  Needs two GPUs. */
static void gpu_other_device(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  int count = 0;
  CUDA_OK(cudaGetDeviceCount(&count));
  if (count < 2) {
    fprintf(stderr, "skipped: the test needs two CUDA devices, %d visible\n", count);
    skip();
  }
  static const tridi_alg algs[] = {TRIDI_ALG_THOMAS_PCR, TRIDI_ALG_THOMAS, TRIDI_ALG_THOMAS_SHARED,
                                   TRIDI_ALG_THOMAS_SHUFFLE, TRIDI_ALG_CR, TRIDI_ALG_PCR,
                                   TRIDI_ALG_RD, TRIDI_ALG_CR_PCR, TRIDI_ALG_CR_RD};
  for (int a = 0; a < (int)(sizeof algs / sizeof algs[0]); ++a) {
    const tridi_alg alg = algs[a];
    const uint64_t seed = tt_case_seed("gpu_algs_other_device", (uint64_t)a);
    tt_rng rng;
    tt_rng_init(&rng, seed);
    tt_layout L;
    tt_build_contiguous(&L, TRIDI_F64, 1000, 7, &rng);
    tt_problem P;
    if (tt_problem_init(&P, &L, seed, NULL)) continue;
    char lstr[400], ctx[640];
    tt_problem_str(&P, lstr, sizeof lstr);
    snprintf(ctx, sizeof ctx, "[plan on device 1, device 0 current] [%s] [cuda/%s]", lstr, tridi_alg_name(alg));
    tridi_options o;
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CUDA;
    o.alg = alg;
    o.device = 1;
    CUDA_OK(cudaSetDevice(0));
    tridi_plan plan = NULL;
    if (!tt_expect_status(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS, ctx)) {
      tt_problem_free(&P);
      continue;
    }
    int32_t *info = malloc((size_t)P.nsys * sizeof *info);
    dev_problem D;
    CUDA_OK(cudaSetDevice(1));
    dev_upload(&P, &D);
    CUDA_OK(cudaSetDevice(0));
    tt_expect_status(tridi_execute(plan, dev_ptr(&P, &D, TT_A), dev_ptr(&P, &D, TT_B), dev_ptr(&P, &D, TT_C),
                                   dev_ptr(&P, &D, TT_D), dev_ptr(&P, &D, TT_X), D.info, NULL),
                     TRIDI_SUCCESS, ctx);
    int cur = -1;
    CUDA_OK(cudaGetDevice(&cur));
    if (cur != 0) tt_fail("%s: device %d is current after tridi_execute, not the caller's 0", ctx, cur);
    CUDA_OK(cudaSetDevice(1));
    CUDA_OK(cudaDeviceSynchronize());
    dev_download(&P, &D, info);
    dev_free(&D);
    if (!is_rd(alg)) {
      tt_problem_check(&P, ctx, info);
    } else { /* RD may report a loss of accuracy (ref_algs.h) */
      const double rtol = TT_RESID_C * (double)P.n * DBL_EPSILON;
      for (int64_t s = 0; s < P.nsys; ++s)
        if (!(info[s] == 0 ? tt_problem_residual(&P, s) <= rtol
                           : info[s] == TRIDI_INFO_INACCURATE || (info[s] < 0 && info[s] >= -P.n)))
          tt_fail("%s: system %" PRId64 ": info %" PRId32 ", residual %.3g", ctx, s, info[s],
                  tt_problem_residual(&P, s));
    }
    free(info);
    tridi_plan_destroy(plan);
    tt_problem_free(&P);
    CUDA_OK(cudaSetDevice(0));
  }
  tt_assert_no_failures();
}

static int setup(void **state) {
  int count = 0;
  g_have_gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  if (!g_have_gpu) (void)cudaGetLastError();
  return tt_group_setup(state);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gpu_contiguous), cmocka_unit_test(gpu_interleaved),
      cmocka_unit_test(gpu_strided),    cmocka_unit_test(gpu_inplace),
      cmocka_unit_test(gpu_breakdown),  cmocka_unit_test(gpu_rd_small),
      cmocka_unit_test(gpu_other_device),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  const int rc = cmocka_run_group_tests(tests, setup, NULL);
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 77;
  return rc;
}
