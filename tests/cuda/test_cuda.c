/* GPU tests of the CUDA backend: the oracle suite of tests/support on device
 * memory (every layout kind, n edge cases, f32/f64, broadcast, in place,
 * padding untouched, breakdown codes), bad arguments, a CUDA-graph capture,
 * two plans on two streams at once, and plans that live together.
 *
 * Each problem is built on the host by tt_problem_init (inputs, poisoned x,
 * reference and LAPACK solutions), copied whole (padding and guards
 * included) to the device, solved there, and every buffer is copied back so
 * that tt_problem_check sees inputs, x, padding and info exactly as the GPU
 * left them.
 *
 * No visible GPU: every test is skipped with the reason (cmocka skip), and
 * main returns 77 so that CTest reports the whole executable as skipped. */
#include "tt_dev.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* env TRIDI_TEST_CUDA_MAXN: skip larger n (keeps compute-sanitizer runs short) */
static int64_t g_maxn = INT64_MAX;

static tridi_options cuda_opts(void) {
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.pivot = TRIDI_PIVOT_NONE; /* the non-pivoting kernels' own codes (AUTO: test_pivot_cuda.c) */
  return o;
}

/* When set, run_gpu also checks that the plan's kernel name contains it */
static const char *g_want_kernel = NULL;

/* Solve P on the GPU (stream 0), check everything.  Returns failures. */
static long run_gpu(tt_problem *P, const char *ctx) {
  char where[512];
  char lay[256];
  snprintf(where, sizeof where, "%s [%s]", ctx, tt_problem_str(P, lay, sizeof lay));
  const tridi_options o = cuda_opts();
  tridi_plan plan = NULL;
  if (!tt_expect_status(tt_problem_plan(P, &o, &plan), TRIDI_SUCCESS, where)) return 1;
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  if (tridi_plan_get_info(plan, &pi) == TRIDI_SUCCESS && tt_verbose())
    fprintf(stderr, "%s: kernel %s\n", where, pi.kernel);
  if (pi.backend != TRIDI_BACKEND_CUDA) tt_fail("%s: plan backend is %d", where, (int)pi.backend);
  if (g_want_kernel && !strstr(pi.kernel, g_want_kernel))
    tt_fail("%s: kernel %s, expected a %s kernel", where, pi.kernel, g_want_kernel);
  dev_problem D;
  dev_upload(P, &D);
  tt_info I;
  tt_info_alloc(&I, P->nsys);
  const tridi_status st = tridi_execute(plan, dev_ptr(P, &D, TT_A), dev_ptr(P, &D, TT_B),
                                        dev_ptr(P, &D, TT_C), dev_ptr(P, &D, TT_D),
                                        dev_ptr(P, &D, TT_X), dev_info(&D), NULL);
  tt_expect_status(st, TRIDI_SUCCESS, where);
  CUDA_OK(cudaDeviceSynchronize());
  dev_download(P, &D, &I);
  snprintf(where + strlen(where), sizeof where - strlen(where), " kernel %s", pi.kernel);
  const long f = tt_problem_check(P, where, I.info);
  tt_info_free(&I);
  dev_free(&D);
  tridi_plan_destroy(plan);
  return f;
}

/* ---- layouts ------------------------------------------------------------- */

static const int64_t k_ns[] = {1,   2,   3,    4,    5,    7,    8,    9,    16,   31,   32,  33,
                               63,  64,  65,   100,  127,  128,  129,  255,  256,  257,  511, 513,
                               1000, 1024, 2047, 2049, 4095, 4096, 4097, 8191, 8192, 8193, 20000};
#define NNS ((int)(sizeof k_ns / sizeof k_ns[0]))

static int64_t batch_for(int64_t n) {
  int64_t b = 60000 / (n > 0 ? n : 1);
  if (b > 300) b = 300;
  if (b < 3) b = 3;
  return b;
}

typedef enum { L_CONTIG, L_INTERLEAVED, L_MIDDLE, L_PADDED, L_NEGATIVE, L_RANDOM, L_BCAST, L_INPLACE } lay_kind;
static const char *lay_name[] = {"contiguous", "interleaved", "middle", "padded",
                                 "negative",   "random",      "bcast",  "inplace"};

/* layout k of b systems of n rows */
static void make_layout_b(tt_layout *L, lay_kind k, tridi_dtype dt, int64_t n, int64_t b, tt_rng *r) {
  switch (k) {
    case L_CONTIG:
    case L_INPLACE: {
      const int64_t sh[2] = {b, n};
      tt_layout_packed(L, lay_name[k], dt, 2, sh, 1);
      L->inplace = k == L_INPLACE;
      break;
    }
    case L_INTERLEAVED: {
      const int64_t sh[2] = {n, b};
      tt_layout_packed(L, lay_name[k], dt, 2, sh, 0);
      break;
    }
    case L_MIDDLE: {
      const int64_t z = b > 40 ? 5 : 2;
      const int64_t sh[3] = {z, n, (b + z - 1) / z};
      tt_layout_packed(L, lay_name[k], dt, 3, sh, 1);
      break;
    }
    case L_PADDED: {
      /* rows of n padded to n + 5, two planes, x with its own padding */
      const int64_t sh[3] = {2, (b + 1) / 2, n};
      tt_layout_packed(L, lay_name[k], dt, 3, sh, 2);
      for (int op = 0; op < TT_NOPS; ++op) {
        const int64_t ld = n + 5 + op;
        const int64_t st[3] = {ld * sh[1] + 3, ld, 1};
        tt_layout_strides(L, op, st);
      }
      break;
    }
    case L_NEGATIVE: {
      const int64_t sh[2] = {n, b};
      tt_layout_packed(L, lay_name[k], dt, 2, sh, 0);
      for (int op = 0; op < TT_NOPS; ++op) {
        const int64_t st[2] = {-b, op % 2 ? -1 : 1};
        tt_layout_strides(L, op, st);
      }
      break;
    }
    case L_RANDOM: {
      const int64_t sh[3] = {3, n, (b + 2) / 3};
      tt_layout_packed(L, lay_name[k], dt, 3, sh, 1);
      for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(L, op, r, 3, 0);
      break;
    }
    case L_BCAST: {
      /* one matrix for every right-hand side (a, b, c stride 0 across the
       * batch), d and x contiguous */
      const int64_t sh[2] = {b, n};
      tt_layout_packed(L, lay_name[k], dt, 2, sh, 1);
      const int64_t st[2] = {0, 1};
      for (int op = 0; op < 3; ++op) tt_layout_strides(L, op, st);
      break;
    }
  }
}

static void make_layout(tt_layout *L, lay_kind k, tridi_dtype dt, int64_t n, tt_rng *r) {
  make_layout_b(L, k, dt, n, batch_for(n), r);
}

static void layouts_for(lay_kind k, int max_n_index) {
  SKIP_WITHOUT_GPU();
  const tridi_dtype dts[2] = {TRIDI_F32, TRIDI_F64};
  for (int t = 0; t < 2; ++t) {
    for (int i = 0; i < NNS && i <= max_n_index; ++i) {
      const int64_t n = k_ns[i];
      if (n > g_maxn) continue;
      tt_rng r;
      tt_rng_init(&r, tt_case_seed(lay_name[k], (uint64_t)(i * 2 + t)));
      tt_layout L;
      make_layout(&L, k, dts[t], n, &r);
      tt_problem P;
      if (tt_problem_init(&P, &L, tt_case_seed(lay_name[k], (uint64_t)(1000 + i * 2 + t)), NULL))
        continue;
      run_gpu(&P, lay_name[k]);
      tt_problem_free(&P);
    }
  }
  tt_assert_no_failures();
}

static void test_contiguous(void **s) { (void)s; layouts_for(L_CONTIG, NNS); }
static void test_interleaved(void **s) { (void)s; layouts_for(L_INTERLEAVED, NNS); }
static void test_middle(void **s) { (void)s; layouts_for(L_MIDDLE, NNS); }
static void test_padded(void **s) { (void)s; layouts_for(L_PADDED, NNS); }
static void test_negative(void **s) { (void)s; layouts_for(L_NEGATIVE, NNS); }
static void test_random(void **s) { (void)s; layouts_for(L_RANDOM, NNS); }
static void test_bcast(void **s) { (void)s; layouts_for(L_BCAST, NNS); }
static void test_inplace(void **s) { (void)s; layouts_for(L_INPLACE, NNS); }

/* A rank-5 layout with random strides, padding and broadcasts everywhere. */
static void test_fuzz(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  for (int k = 0; k < 40; ++k) {
    tt_rng r;
    tt_rng_init(&r, tt_case_seed("fuzz", (uint64_t)k));
    tt_layout L;
    int64_t sh[5];
    const int rank = (int)tt_rng_int(&r, 1, 5);
    for (int j = 0; j < rank; ++j) sh[j] = tt_rng_int(&r, 1, 6);
    const int axis = (int)tt_rng_int(&r, 0, rank - 1);
    sh[axis] = tt_rng_int(&r, 1, k % 4 == 0 ? 6000 : 300);
    if (sh[axis] > g_maxn) sh[axis] = g_maxn;
    tt_layout_packed(&L, "fuzz", k % 2 ? TRIDI_F64 : TRIDI_F32, rank, sh, axis);
    for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(&L, op, &r, 2, op < 4);
    tt_problem P;
    if (tt_problem_init(&P, &L, tt_case_seed("fuzz-data", (uint64_t)k), NULL)) continue;
    run_gpu(&P, "fuzz");
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

/* Many systems: more tiles than resident blocks, so that persistent and
 * pipelined kernels loop over several tiles each. */
static void test_many(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  /* {3, 70000}: longer than the cluster kernel reaches (streaming kernel);
   * the interleaved {64, 100000} and {300, 16384} (f64): the plain and the
   * pipelined direct kernel, whose persistent blocks loop over tiles */
  const int64_t shapes[6][2] = {{120000, 64}, {40000, 128}, {3000, 2048}, {64, 100000}, {3, 70000}, {300, 16384}};
  const int axis[6] = {1, 1, 1, 0, 1, 0};
  for (int k = 0; k < 6; ++k) {
    if (shapes[k][axis[k]] > g_maxn) continue;
    tt_layout L;
    tt_layout_packed(&L, "many", k % 2 ? TRIDI_F64 : TRIDI_F32, 2, shapes[k], axis[k]);
    tt_problem P;
    if (tt_problem_init(&P, &L, tt_case_seed("many", (uint64_t)k), NULL)) continue;
    run_gpu(&P, "many");
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

/* Dense batches of systems stored one after another go to whole-system
 * tiles (src/cuda/scalar/tiles.cu), whatever n's alignment: one system a
 * tile up to two thousand, a partial last tile, tiles that only fit with
 * element copies (n near the tile's 2048 / 4096 rows), more tiles than
 * resident blocks, 2-d and 3-d dense shapes, in place, and a breakdown in a
 * tile beside clean systems (the reference's codes).  So do rows at a
 * stride ld = n + n / 8 + 1 shared by all five operands (padded rows; the
 * harness fills the padding with NaN and checks it untouched), with the
 * same breakdown. */
static void test_tiles(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  static const int64_t ns[] = {2, 3, 33, 101, 1024, 1365, 2045, 2047, 2048, 4093, 4095, 4096};
  long k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
      const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
      const int64_t n = ns[i];
      if (n > g_maxn || (t && n > 2048)) continue;
      /* about 3.5 tiles of systems, and a batch of 150000 unknowns or more
       * (several tiles a block for small n) */
      int64_t b = (t ? 7000 : 14000) / n + 1;
      if (b * n < 150000) b = 150000 / n + 1;
      for (int v = 0; v < 4; ++v) {
        tt_layout L;
        if (v == 3) {
          if (n < 8 || n > 101) continue; /* the padding at most n / 4, several systems a tile */
          const int64_t sh[2] = {b, n}, st[2] = {n + n / 8 + 1, 1};
          tt_layout_packed(&L, "tiles_padded", dt, 2, sh, 1);
          for (int op = 0; op < TT_NOPS; ++op) tt_layout_strides(&L, op, st);
        } else if (v == 1) {
          const int64_t sh[3] = {3, b / 3 + 1, n}; /* batch dimensions collapse */
          tt_layout_packed(&L, "tiles3d", dt, 3, sh, 2);
        } else {
          const int64_t sh[2] = {b, n};
          tt_layout_packed(&L, v ? "tiles_inplace" : "tiles", dt, 2, sh, 1);
          L.inplace = v == 2;
        }
        tt_problem P;
        if (tt_problem_init(&P, &L, tt_case_seed("tiles", (uint64_t)k++), NULL)) continue;
        if ((v == 0 || v == 3) && P.nsys > 3) {
          /* a NaN and a zero first pivot in tiles of clean systems */
          tt_problem_set(&P, TT_D, 1, n / 2, (double)NAN);
          tt_problem_set(&P, TT_B, P.nsys - 2, 0, 0.0);
          tt_problem_oracle(&P);
        }
        g_want_kernel = v == 3 ? "_tiles_ld_r" : "_tiles_r";
        run_gpu(&P, "tiles");
        g_want_kernel = NULL;
        tt_problem_free(&P);
      }
    }
  tt_assert_no_failures();
}

/* ---- breakdown ------------------------------------------------------------- */

/* batch: systems (0: batch_for(n)) */
static void breakdown_case(lay_kind k, tridi_dtype dt, int64_t n, int64_t batch) {
  tt_rng r;
  tt_rng_init(&r, tt_case_seed("breakdown", (uint64_t)n));
  tt_layout L;
  /* at least 8 systems: the seven special ones below and a clean one */
  const int64_t b = batch > 0 ? batch : batch_for(n);
  make_layout_b(&L, k, dt, n, b < 8 ? 8 : b, &r);
  tt_problem P;
  if (tt_problem_init(&P, &L, tt_case_seed("breakdown-data", (uint64_t)(n + k)), NULL)) return;
  const double nan = (double)NAN, inf = (double)INFINITY;
  const int64_t mid = n / 2, late = n - 1;
  if (P.nsys < 6) {
    tt_problem_free(&P);
    return;
  }
  tt_problem_set(&P, TT_D, 1, mid, nan);      /* -(mid+1) */
  tt_problem_set(&P, TT_B, 2, 0, inf);        /* -1 */
  tt_problem_set(&P, TT_B, 3, 0, 0.0);        /* +1 (zero pivot of row 0) */
  tt_problem_set(&P, TT_A, 4, late, 0.0);     /* zero row: +(late+1) */
  tt_problem_set(&P, TT_B, 4, late, 0.0);
  if (n > 2) {                                /* zero row in the middle */
    tt_problem_set(&P, TT_A, 5, mid, 0.0);
    tt_problem_set(&P, TT_B, 5, mid, 0.0);
    tt_problem_set(&P, TT_C, 5, mid, 0.0);
  }
  /* Thomas' forward sweep clean, x_{n-2} = 2 big overflows in the back
   * substitution: the CPU reports -(n-1), the highest row whose Thomas x is
   * not finite.  The GPU must report a NaN/Inf code, but its row depends on
   * the kernel (docs/cuda.md, "How breakdown is detected"): which of its
   * computed x are not finite depends on where its chunks end, and the
   * direct and cluster kernels name a chunk's first row. */
  const int back_ovf = P.nsys > 6 && n >= 2;
  if (back_ovf) {
    const double big = P.es == 4 ? 0.75 * FLT_MAX : 0.75 * DBL_MAX;
    if (n > 2) tt_problem_set(&P, TT_A, 6, n - 2, 0.0);
    tt_problem_set(&P, TT_B, 6, n - 2, 1.0);
    tt_problem_set(&P, TT_C, 6, n - 2, -1.0);
    tt_problem_set(&P, TT_D, 6, n - 2, big);
    tt_problem_set(&P, TT_A, 6, n - 1, 0.0);
    tt_problem_set(&P, TT_B, 6, n - 1, 1.0);
    tt_problem_set(&P, TT_D, 6, n - 1, big);
  }
  tt_problem_oracle(&P);
  unsigned char *any = calloc((size_t)P.nsys, 1); /* info_any_row covers every system */
  if (back_ovf && any) {
    if (P.ref_info[6] != (int32_t)-(n - 1))
      tt_fail("breakdown: the CPU reference gives info %" PRId32
              " for the back-substitution overflow, expected %" PRId64,
              P.ref_info[6], -(n - 1));
    any[6] = 1;
    P.info_any_row = any;
  }
  run_gpu(&P, "breakdown");
  P.info_any_row = NULL;
  free(any);
  tt_problem_free(&P);
}

static void test_breakdown(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  /* 4097, 9000: segmented solve (interleaved) and cluster kernel (contig);
   * 70000: segmented solve with longer segments, and the streaming kernel */
  const int64_t ns[] = {1, 2, 3, 17, 64, 100, 1000, 4097, 9000, 70000};
  for (int t = 0; t < 2; ++t)
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
      if (ns[i] > g_maxn) continue;
      const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
      breakdown_case(L_CONTIG, dt, ns[i], 0);
      breakdown_case(L_INTERLEAVED, dt, ns[i], 0);
      breakdown_case(L_INPLACE, dt, ns[i], 0);
      /* the pipelined direct kernel (perf-log CUDA v25/v26): a middle axis,
       * and interleaved rows of whole 128-byte lines (64 systems) */
      breakdown_case(L_MIDDLE, dt, ns[i], 0);
      breakdown_case(L_INTERLEAVED, dt, ns[i], 64);
    }
  tt_assert_no_failures();
}

/* ---- empty problems --------------------------------------------------------- */

static void test_empty(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  /* n = 0: info must still be zeroed on the device; nsys = 0: nothing */
  const int64_t shapes[2][2] = {{7, 0}, {0, 9}};
  for (int k = 0; k < 2; ++k) {
    tt_layout L;
    tt_layout_packed(&L, "empty", TRIDI_F64, 2, shapes[k], 1);
    tt_problem P;
    if (tt_problem_init(&P, &L, 1, NULL)) continue;
    run_gpu(&P, "empty");
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

/* ---- bad arguments ------------------------------------------------------------ */

static void test_bad_args(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  const int64_t sh[2] = {8, 33};
  tridi_desc desc = NULL;
  assert_int_equal(tridi_desc_create(&desc, TRIDI_F32, 2, sh, 1), TRIDI_SUCCESS);
  tridi_options o = cuda_opts();
  tridi_plan plan = NULL;
  o.device = 9999;
  assert_int_equal(tridi_plan_create(&plan, desc, &o), TRIDI_ERR_INVALID_OPTION);
  assert_null(plan);
  o.device = -1;
  assert_int_equal(tridi_plan_create(&plan, desc, &o), TRIDI_ERR_INVALID_OPTION);
  o = cuda_opts();
  o.alg = TRIDI_ALG_THOMAS_REF; /* no such CUDA solver */
  assert_int_equal(tridi_plan_create(&plan, desc, &o), TRIDI_ERR_NOT_SUPPORTED);
  o = cuda_opts();
  assert_int_equal(tridi_plan_create(&plan, desc, &o), TRIDI_SUCCESS);
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  assert_int_equal(tridi_plan_get_info(plan, &pi), TRIDI_SUCCESS);
  assert_int_equal(pi.backend, TRIDI_BACKEND_CUDA);
  assert_int_equal(pi.alg, TRIDI_ALG_THOMAS_PCR);
  assert_true(strncmp(pi.kernel, "cuda_thomas_pcr", 15) == 0);

  float *buf = NULL;
  const size_t elems = 8 * 33;
  CUDA_OK(cudaMalloc((void **)&buf, 6 * elems * sizeof(float) + 16));
  float *a = buf, *b = a + elems, *c = b + elems, *d = c + elems, *x = d + elems;
  CUDA_OK(cudaMemset(buf, 0, 6 * elems * sizeof(float)));
  const void *in[4] = {a, b, c, d};
  for (int k = 0; k < 5; ++k) {
    const void *p[5] = {in[0], in[1], in[2], in[3], x};
    p[k] = NULL;
    assert_int_equal(tridi_execute(plan, p[0], p[1], p[2], p[3], (void *)p[4], NULL, NULL),
                     TRIDI_ERR_NULL_POINTER);
  }
  assert_int_equal(tridi_execute(plan, (const char *)a + 2, b, c, d, x, NULL, NULL),
                   TRIDI_ERR_MISALIGNED);
  assert_int_equal(tridi_execute(plan, a, b, c, d, (char *)x + 1, NULL, NULL), TRIDI_ERR_MISALIGNED);
  /* x overlapping an input that is not d */
  assert_int_equal(tridi_execute(plan, a, b, c, d, b + 5, NULL, NULL), TRIDI_ERR_OVERLAP);
  /* a valid call on the same buffers works */
  assert_int_equal(tridi_execute(plan, a, b, c, d, x, NULL, NULL), TRIDI_SUCCESS);
  CUDA_OK(cudaDeviceSynchronize());
  cudaFree(buf);
  tridi_plan_destroy(plan);
  tridi_desc_destroy(desc);
}

/* ---- streams and graphs ------------------------------------------------------ */

static void test_graph_capture(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  /* staged f32 / f64, the cluster kernel (launched with a cluster attribute),
   * the streaming kernel, and the segmented solve (four launches, interleaved) */
  const int64_t ns[5] = {64, 1500, 9000, 70000, 5000};
  for (int k = 0; k < 5; ++k) {
    if (ns[k] > g_maxn) continue;
    tt_layout L;
    if (k == 4) {
      const int64_t sh[2] = {ns[k], 40};
      tt_layout_packed(&L, "graph", TRIDI_F32, 2, sh, 0);
    } else {
      const int64_t sh[2] = {batch_for(ns[k]), ns[k]};
      tt_layout_packed(&L, "graph", k == 1 ? TRIDI_F64 : TRIDI_F32, 2, sh, 1);
    }
    tt_problem P;
    if (tt_problem_init(&P, &L, tt_case_seed("graph", (uint64_t)k), NULL)) continue;
    const tridi_options o = cuda_opts();
    tridi_plan plan = NULL;
    assert_int_equal(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS);
    dev_problem D;
    dev_upload(&P, &D);
    cudaStream_t st;
    CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    const tridi_status ts = tridi_execute(plan, dev_ptr(&P, &D, TT_A), dev_ptr(&P, &D, TT_B),
                                          dev_ptr(&P, &D, TT_C), dev_ptr(&P, &D, TT_D),
                                          dev_ptr(&P, &D, TT_X), dev_info(&D), st);
    CUDA_OK(cudaStreamEndCapture(st, &graph));
    assert_int_equal(ts, TRIDI_SUCCESS);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int rep = 0; rep < 3; ++rep) CUDA_OK(cudaGraphLaunch(exec, st));
    CUDA_OK(cudaStreamSynchronize(st));
    tt_info I;
    tt_info_alloc(&I, P.nsys);
    dev_download(&P, &D, &I);
    tt_problem_check(&P, "graph replay", I.info);
    tt_info_free(&I);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(st);
    dev_free(&D);
    tridi_plan_destroy(plan);
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

/* Caller workspace: a plan that needs one (the segmented solve of long
 * interleaved systems) run by tridi_execute_ws on two streams at once, each
 * with its own workspace, one of them without info; the workspace errors. */
static void test_workspace(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  if (g_maxn < 5000) return;
  tt_layout L;
  const int64_t sh[2] = {5000, 40};
  tt_layout_packed(&L, "workspace", TRIDI_F32, 2, sh, 0);
  tt_problem P;
  assert_int_equal(tt_problem_init(&P, &L, tt_case_seed("workspace", 0), NULL), 0);
  const tridi_options o = cuda_opts();
  tridi_plan plan = NULL;
  assert_int_equal(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS);
  size_t wsb = 0;
  assert_int_equal(tridi_plan_workspace_size(plan, &wsb), TRIDI_SUCCESS);
  /* f32 interleaved n = 5000 takes the segmented solve (src/cuda/tuning.h);
   * should the table change, this case must still be one with workspace */
  if (!wsb) tt_fail("workspace: the plan needs no workspace, so tridi_execute_ws goes untested");
  dev_problem D[2];
  cudaStream_t st[2];
  void *ws[2] = {NULL, NULL};
  for (int k = 0; k < 2; ++k) {
    dev_upload(&P, &D[k]);
    CUDA_OK(cudaStreamCreateWithFlags(&st[k], cudaStreamNonBlocking));
    if (wsb) CUDA_OK(cudaMalloc(&ws[k], wsb));
  }
  if (wsb) {
    assert_int_equal(tridi_execute_ws(plan, dev_ptr(&P, &D[0], TT_A), dev_ptr(&P, &D[0], TT_B),
                                      dev_ptr(&P, &D[0], TT_C), dev_ptr(&P, &D[0], TT_D),
                                      dev_ptr(&P, &D[0], TT_X), dev_info(&D[0]), st[0], NULL, wsb),
                     TRIDI_ERR_WORKSPACE);
    assert_int_equal(tridi_execute_ws(plan, dev_ptr(&P, &D[0], TT_A), dev_ptr(&P, &D[0], TT_B),
                                      dev_ptr(&P, &D[0], TT_C), dev_ptr(&P, &D[0], TT_D),
                                      dev_ptr(&P, &D[0], TT_X), dev_info(&D[0]), st[0], ws[0], wsb - 1),
                     TRIDI_ERR_WORKSPACE);
  }
  for (int rep = 0; rep < 3; ++rep)
    for (int k = 0; k < 2; ++k)
      assert_int_equal(tridi_execute_ws(plan, dev_ptr(&P, &D[k], TT_A), dev_ptr(&P, &D[k], TT_B),
                                        dev_ptr(&P, &D[k], TT_C), dev_ptr(&P, &D[k], TT_D),
                                        dev_ptr(&P, &D[k], TT_X), k ? NULL : dev_info(&D[k]), st[k], ws[k],
                                        wsb),
                       TRIDI_SUCCESS);
  for (int k = 0; k < 2; ++k) {
    CUDA_OK(cudaStreamSynchronize(st[k]));
    tt_info I;
    tt_info_alloc(&I, P.nsys);
    dev_download(&P, &D[k], &I);
    tt_problem_check(&P, k ? "workspace, stream 1, no info" : "workspace, stream 0", k ? NULL : I.info);
    tt_info_free(&I);
    cudaStreamDestroy(st[k]);
    if (ws[k]) cudaFree(ws[k]);
    dev_free(&D[k]);
  }
  tridi_plan_destroy(plan);
  tt_problem_free(&P);
  tt_assert_no_failures();
}

static void test_two_streams(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  tt_problem P[2];
  tridi_plan plan[2];
  dev_problem D[2];
  cudaStream_t st[2];
  for (int k = 0; k < 2; ++k) {
    tt_layout L;
    const int64_t shc[2] = {2000, 300}, shi[2] = {5000, 400};
    if (k == 0)
      tt_layout_packed(&L, "stream0", TRIDI_F32, 2, shc, 1);
    else
      tt_layout_packed(&L, "stream1", TRIDI_F64, 2, shi, 0);
    assert_int_equal(tt_problem_init(&P[k], &L, tt_case_seed("streams", (uint64_t)k), NULL), 0);
    const tridi_options o = cuda_opts();
    assert_int_equal(tt_problem_plan(&P[k], &o, &plan[k]), TRIDI_SUCCESS);
    dev_upload(&P[k], &D[k]);
    CUDA_OK(cudaStreamCreateWithFlags(&st[k], cudaStreamNonBlocking));
  }
  for (int rep = 0; rep < 4; ++rep)
    for (int k = 0; k < 2; ++k)
      assert_int_equal(tridi_execute(plan[k], dev_ptr(&P[k], &D[k], TT_A), dev_ptr(&P[k], &D[k], TT_B),
                                     dev_ptr(&P[k], &D[k], TT_C), dev_ptr(&P[k], &D[k], TT_D),
                                     dev_ptr(&P[k], &D[k], TT_X), dev_info(&D[k]), st[k]),
                       TRIDI_SUCCESS);
  for (int k = 0; k < 2; ++k) {
    CUDA_OK(cudaStreamSynchronize(st[k]));
    tt_info I;
    tt_info_alloc(&I, P[k].nsys);
    dev_download(&P[k], &D[k], &I);
    tt_problem_check(&P[k], k ? "stream 1" : "stream 0", I.info);
    tt_info_free(&I);
    cudaStreamDestroy(st[k]);
    dev_free(&D[k]);
    tridi_plan_destroy(plan[k]);
    tt_problem_free(&P[k]);
  }
  tt_assert_no_failures();
}

/* Plans live together: every plan of a group is made before any executes,
 * longest systems first, so that a plan made later with a smaller shared
 * memory footprint for the same kernel cannot change what an earlier plan's
 * launches may take (a kernel's shared-memory attribute belongs to the
 * function, not to the plan). */
static void test_live_plans(void **s) {
  (void)s;
  SKIP_WITHOUT_GPU();
  static const int64_t ns[] = {20000, 8193, 4096, 2049, 1024, 513, 256, 129, 64, 33};
  enum { NP = (int)(sizeof ns / sizeof ns[0]) };
  for (int dt = 0; dt < 2; ++dt)
    for (int lk = 0; lk < 2; ++lk) {
      const lay_kind k = lk ? L_INTERLEAVED : L_CONTIG;
      tt_problem P[NP];
      tridi_plan plan[NP];
      int np = 0;
      for (int i = 0; i < NP; ++i) {
        if (ns[i] > g_maxn) continue;
        int64_t b = ((int64_t)1 << 19) / ns[i];
        if (b < 8) b = 8;
        tt_layout L;
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("live", (uint64_t)(dt * 1000 + lk * 100 + i)));
        make_layout_b(&L, k, dt ? TRIDI_F64 : TRIDI_F32, ns[i], b, &r);
        assert_int_equal(tt_problem_init(&P[np], &L, tt_case_seed("live", (uint64_t)i), NULL), 0);
        const tridi_options o = cuda_opts();
        assert_int_equal(tt_problem_plan(&P[np], &o, &plan[np]), TRIDI_SUCCESS);
        ++np;
      }
      for (int i = 0; i < np; ++i) {
        tridi_plan_info pi;
        memset(&pi, 0, sizeof pi);
        pi.struct_size = sizeof pi;
        assert_int_equal(tridi_plan_get_info(plan[i], &pi), TRIDI_SUCCESS);
        char where[512], lay[256];
        snprintf(where, sizeof where, "live plans [%s] kernel %s", tt_problem_str(&P[i], lay, sizeof lay),
                 pi.kernel);
        dev_problem D;
        dev_upload(&P[i], &D);
        tt_info I;
        tt_info_alloc(&I, P[i].nsys);
        tt_expect_status(tridi_execute(plan[i], dev_ptr(&P[i], &D, TT_A), dev_ptr(&P[i], &D, TT_B),
                                       dev_ptr(&P[i], &D, TT_C), dev_ptr(&P[i], &D, TT_D),
                                       dev_ptr(&P[i], &D, TT_X), dev_info(&D), NULL),
                         TRIDI_SUCCESS, where);
        CUDA_OK(cudaDeviceSynchronize());
        dev_download(&P[i], &D, &I);
        tt_problem_check(&P[i], where, I.info);
        tt_info_free(&I);
        dev_free(&D);
      }
      for (int i = 0; i < np; ++i) {
        tridi_plan_destroy(plan[i]);
        tt_problem_free(&P[i]);
      }
    }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const char *mx = getenv("TRIDI_TEST_CUDA_MAXN");
  if (mx && *mx) g_maxn = strtoll(mx, NULL, 10);
  tt_dev_detect();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_contiguous), cmocka_unit_test(test_interleaved),
      cmocka_unit_test(test_middle),     cmocka_unit_test(test_padded),
      cmocka_unit_test(test_negative),   cmocka_unit_test(test_random),
      cmocka_unit_test(test_bcast),      cmocka_unit_test(test_inplace),
      cmocka_unit_test(test_fuzz),       cmocka_unit_test(test_breakdown),
      cmocka_unit_test(test_many),       cmocka_unit_test(test_tiles),
      cmocka_unit_test(test_empty),      cmocka_unit_test(test_bad_args),
      cmocka_unit_test(test_graph_capture), cmocka_unit_test(test_two_streams),
      cmocka_unit_test(test_workspace),  cmocka_unit_test(test_live_plans),
  };
  const int rc = TT_RUN_GROUP(tests, argc, argv);
  if (!g_have_gpu) {
    fprintf(stderr, "test_cuda: all tests skipped: %s\n", g_skip_reason);
    return 77;
  }
  return rc;
}
