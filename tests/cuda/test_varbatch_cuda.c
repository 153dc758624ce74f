/* Variable-size batches on the GPU (cuda_var_thomas_pcr): every length
 * distribution, PACKED and INTERLEAVED, f32/f64, in place and not, against
 * the reference per system (tt_problem_check on the device mirror:
 * residual, closeness, info, padding and inputs untouched); systems longer
 * than the kernels' tiles (the scalar plans of the long systems) mixed with
 * short ones; breakdowns reported by their system; info = NULL; PACKED
 * tiles at their edges (fill, 16-byte phase, tiny systems); INTERLEAVED
 * batches of many groups in several bins; a CUDA-graph capture.  Exits 77 without a GPU. */
#include "tt_dev.h"
#include "tt_variable.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tridi_var_layout k_layouts[2] = {TRIDI_VAR_PACKED, TRIDI_VAR_INTERLEAVED};

static tridi_options cuda_opts(void) {
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.pivot = TRIDI_PIVOT_NONE; /* the non-pivoting kernels' own codes (AUTO: test_pivot_cuda.c) */
  return o;
}

/* Solve P on the GPU; with_info = 0 passes info = NULL.  Returns failures. */
static long run_gpu(tt_problem *P, int with_info, const char *what) {
  char lay[300], where[600];
  snprintf(where, sizeof where, "[%s] %s", tt_problem_str(P, lay, sizeof lay), what);
  const tridi_options o = cuda_opts();
  tridi_plan plan = NULL;
  if (!tt_expect_status(tt_problem_plan(P, &o, &plan), TRIDI_SUCCESS, where)) return 1;
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_plan_get_info(plan, &pi);
  snprintf(where + strlen(where), sizeof where - strlen(where), " kernel %s", pi.kernel);
  if (tt_verbose()) fprintf(stderr, "%s\n", where);
  tt_problem_reset(P); /* an in-place solve before this one overwrote d */
  dev_problem D;
  dev_upload(P, &D);
  tt_info I;
  tt_info_alloc(&I, P->nsys);
  const tridi_status st = tridi_execute(plan, dev_ptr(P, &D, TT_A), dev_ptr(P, &D, TT_B),
                                        dev_ptr(P, &D, TT_C), dev_ptr(P, &D, TT_D), dev_ptr(P, &D, TT_X),
                                        with_info ? dev_info(&D) : NULL, NULL);
  tt_expect_status(st, TRIDI_SUCCESS, where);
  CUDA_OK(cudaDeviceSynchronize());
  dev_download(P, &D, with_info ? &I : NULL);
  const long f = tt_problem_check(P, where, with_info ? I.info : NULL);
  tt_info_free(&I);
  dev_free(&D);
  tridi_plan_destroy(plan);
  return f;
}

static void gpu_distributions(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t Ls[] = {6, 64, 400};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int li = 0; li < 2; ++li)
      for (int d = 0; d < TT_VAR_NDIST; ++d)
        for (size_t l = 0; l < sizeof Ls / sizeof Ls[0]; ++l)
          for (int inplace = 0; inplace < 2; ++inplace) {
            tt_rng r;
            tt_rng_init(&r, tt_case_seed("gpu_var_dist", k));
            const int64_t L = Ls[l];
            const int64_t B = 300 + tt_rng_int(&r, 0, 300);
            int64_t *len = malloc((size_t)B * sizeof *len);
            assert_non_null(len);
            tt_var_lengths(len, B, (tt_var_dist)d, L, &r);
            tt_problem P;
            const int rc = tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, k_layouts[li], B, len,
                                               tt_rng_int(&r, 0, 40), tt_rng_int(&r, 0, 3), inplace,
                                               tt_case_seed("gpu_var_dist_p", k++));
            free(len);
            if (rc) continue;
            run_gpu(&P, 1, tt_var_dist_name((tt_var_dist)d));
            tt_problem_free(&P);
          }
  tt_assert_no_failures();
}

/* Systems longer than the kernels take (tiles of 4096 f32 / 2048 f64 rows
 * PACKED, 8192 rows INTERLEAVED) among short ones, and lengths 1..3.
 * INTERLEAVED: the sectors (8 f32 / 4 f64 systems) of systems 10 (1500
 * rows), 18 (2049), 30 (4096) and 5, 39 (5000, 4097) take 2, 4, 8 blocks a
 * sector in f32 (1, 2, 4 in f64; var_interleaved.cu). */
static void gpu_long(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int li = 0; li < 2; ++li) {
      int64_t len[40];
      tt_rng r;
      tt_rng_init(&r, tt_case_seed("gpu_var_long", k));
      for (int s = 0; s < 40; ++s) len[s] = tt_rng_int(&r, 1, 3);
      len[5] = 5000;
      len[10] = 1500;
      len[17] = 9000;
      len[18] = 2049;
      len[30] = 4096;
      len[39] = 4097;
      for (int inplace = 0; inplace < 2; ++inplace) {
        tt_problem P;
        if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, k_layouts[li], 40, len, 3, 1, inplace,
                                tt_case_seed("gpu_var_long_p", k++)))
          continue;
        run_gpu(&P, 1, "long systems");
        run_gpu(&P, 0, "long systems, info NULL");
        tt_problem_free(&P);
      }
    }
  tt_assert_no_failures();
}

static void gpu_breakdown(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int li = 0; li < 2; ++li)
      for (int inplace = 0; inplace < 2; ++inplace) {
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("gpu_var_bd", k));
        int64_t len[300];
        tt_var_lengths(len, 300, TT_VAR_UNIFORM, 40, &r);
        len[3] = 1;
        len[250] = 6000; /* a long one, through its scalar plan */
        tt_problem P;
        if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, k_layouts[li], 300, len, 5, 0, inplace,
                                tt_case_seed("gpu_var_bd_p", k++)))
          continue;
        tt_problem_zero_pivot(&P, 3, 0);        /* b_0 = 0 at n = 1 */
        tt_problem_nonfinite(&P, 10, TT_D, len[10] - 1, NAN);
        tt_problem_nonfinite(&P, 11, TT_B, 0, INFINITY);
        tt_problem_zero_pivot(&P, 100, 0);
        tt_problem_nonfinite(&P, 250, TT_A, 4000, NAN);
        tt_problem_oracle(&P);
        run_gpu(&P, 1, "breakdown");
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

/* INTERLEAVED batches of many groups (4800 systems: 600 groups f32, 1200
 * f64) in several length bins, whose launches share a kernel at different
 * shapes and shared-memory sizes; rows of 16-byte multiples (ld = B) and
 * not (ld = B + 3); in place and not; a zero pivot and a NaN among them. */
static void gpu_inter_many(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t Ls[] = {40, 200};
  const int64_t B = 4800;
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t l = 0; l < sizeof Ls / sizeof Ls[0]; ++l)
      for (int pad = 0; pad < 2; ++pad)
        for (int inplace = 0; inplace < 2; ++inplace) {
          tt_rng r;
          tt_rng_init(&r, tt_case_seed("gpu_var_many", k));
          int64_t *len = malloc((size_t)B * sizeof *len);
          assert_non_null(len);
          tt_var_lengths(len, B, TT_VAR_UNIFORM, Ls[l], &r);
          tt_problem P;
          const int rc = tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, TRIDI_VAR_INTERLEAVED, B, len,
                                             pad ? 3 : 0, 0, inplace, tt_case_seed("gpu_var_many_p", k++));
          free(len);
          if (rc) continue;
          tt_problem_zero_pivot(&P, 1000, 0);
          tt_problem_nonfinite(&P, 3001, TT_D, P.sys[3001].n - 1, NAN);
          tt_problem_oracle(&P);
          run_gpu(&P, 1, "many groups");
          tt_problem_free(&P);
        }
  tt_assert_no_failures();
}

/* INTERLEAVED groups of four sectors (128-byte rows) beside one-sector
 * groups: in units of a sector S (8 f32 / 4 f64 systems), sectors 0-3 of
 * 300..480 rows (f32: one wide group of two blocks; f64: one-sector groups,
 * the wide shape would take 16-row chunks), sectors 4-7 in four different
 * bins (one-sector groups), 8-11 of 1..16 rows and 12-15 of 100..128 (wide,
 * one block), then 2 sectors and 3 systems (a wide group cut by the batch's
 * end); a long system (9000 rows) in sector 1, a zero pivot in sector 9. */
static void gpu_inter_wide(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int inplace = 0; inplace < 2; ++inplace) {
      const int64_t S = t ? 4 : 8, B = 18 * S + 3;
      int64_t *len = malloc((size_t)B * sizeof *len);
      assert_non_null(len);
      static const int64_t mixed[4] = {20, 300, 60, 5};
      for (int64_t s = 0; s < B; ++s) {
        const int64_t q = s / S;
        if (q < 4) len[s] = 300 + (s % 7) * 30;
        else if (q < 8) len[s] = mixed[q - 4] - (s % 4);
        else if (q < 12) len[s] = 1 + (s % 16);
        else len[s] = 100 + (s * 5) % 29;
      }
      len[S + 2] = 9000;
      tt_problem P;
      const int rc = tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, TRIDI_VAR_INTERLEAVED, B, len, 5, 0,
                                         inplace, tt_case_seed("gpu_var_wide", k++));
      free(len);
      if (rc) continue;
      tt_problem_zero_pivot(&P, 9 * S + 1, 0);
      tt_problem_oracle(&P);
      run_gpu(&P, 1, "wide groups");
      tt_problem_free(&P);
    }
  tt_assert_no_failures();
}

/* PACKED tiles at their edges: systems that fill a tile to P M - 3 .. P M
 * rows (with the tile's 16-byte phase they fit shifted or take the element
 * copies), tiles that start at every 16-byte phase, single-system tiles,
 * tiles of one row (a system of length 1 between long ones), systems of
 * length 1..3 at tile starts and ends.  Each problem runs twice: the device
 * arrays alternate between 16-byte aligned (the shifted 16-byte copies)
 * and not (phases that differ between the arrays: the element copies). */
static void gpu_packed_edges(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  /* f32 and f64: tiles of 2048 rows (longest 2048); f32 also 4096 (longest
   * above 2048, and 5000: a long system) */
  static const int64_t lens_a[] = {2048, 1, 2047, 3, 2046, 2, 2045, 2048, 1, 1, 7, 2044, 2045, 1, 2, 3, 100,
                                   2048, 3, 2, 1, 2047, 5, 6, 2043, 1};
  static const int64_t lens_b[] = {4096, 4095, 1, 4094, 2, 4093, 3, 5000, 1, 5000, 2, 3, 4096, 1, 4093, 2, 2,
                                   2050, 2046, 1, 3, 4095, 7};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int set = 0; set < 2; ++set) {
      const int64_t *len = set ? lens_b : lens_a;
      const int64_t B = set ? (int64_t)(sizeof lens_b / sizeof *lens_b) : (int64_t)(sizeof lens_a / sizeof *lens_a);
      for (int inplace = 0; inplace < 2; ++inplace) {
        tt_problem P;
        if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, TRIDI_VAR_PACKED, B, len, 0, 0, inplace,
                                tt_case_seed("gpu_var_edges_p", k++)))
          continue;
        run_gpu(&P, 1, "packed tile edges");
        run_gpu(&P, 1, "packed tile edges, other alignment");
        tt_problem_free(&P);
      }
    }
  tt_assert_no_failures();
}

/* PACKED systems longer than a tile, solved in segments of one tile
 * (src/cuda/variable/var_segments.cu; up to 8 segments a cluster of
 * blocks, longer systems in three launches): lengths at and around multiples of
 * the tile (4096 rows f32, 2048 f64) and far beyond it, each after a system
 * of 1..3 rows so that their first rows take every 16-byte phase; every
 * problem twice (16-byte aligned arrays: the phase-shifted segments; and
 * not: element copies), in place and not, info NULL; then breakdowns in a
 * segment after the first (NaN), in the first (Inf) and a zero first pivot,
 * which the reference solves again (exact info codes, in place too). */
static void gpu_segments(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t) {
    const int64_t cap = t ? 2048 : 4096;
    const int64_t longs[] = {cap + 1, 2 * cap, 2 * cap - 1, 2 * cap + 1, 3 * cap + 5, 2 * cap + 3, 40000, 100003, cap + 2};
    enum { NL = sizeof longs / sizeof longs[0] };
    int64_t len[2 * NL + 1];
    tt_rng r;
    tt_rng_init(&r, tt_case_seed("gpu_var_seg", (uint64_t)t));
    for (int q = 0; q < NL; ++q) {
      len[2 * q] = tt_rng_int(&r, 1, 3);
      len[2 * q + 1] = longs[q];
    }
    len[2 * NL] = 2;
    for (int inplace = 0; inplace < 2; ++inplace) {
      tt_problem P;
      if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, TRIDI_VAR_PACKED, 2 * NL + 1, len, 3, 1, inplace,
                              tt_case_seed("gpu_var_seg_p", k++)))
        continue;
      run_gpu(&P, 1, "segments");
      run_gpu(&P, 1, "segments, other alignment");
      run_gpu(&P, 0, "segments, info NULL");
      tt_problem_nonfinite(&P, 15, TT_D, 2 * cap + 17, NAN); /* 100003 rows: its third segment */
      tt_problem_nonfinite(&P, 9, TT_A, 2 * cap + 1, NAN);   /* 3 cap + 5 rows: one cluster, third block */
      tt_problem_nonfinite(&P, 3, TT_B, 5, INFINITY);
      tt_problem_zero_pivot(&P, 13, 0);
      tt_problem_oracle(&P);
      run_gpu(&P, 1, "segments, breakdowns");
      run_gpu(&P, 1, "segments, breakdowns, other alignment");
      tt_problem_free(&P);
    }
  }
  tt_assert_no_failures();
}

/* One execute captured into a CUDA graph and replayed twice. */
static void gpu_graph(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  for (int li = 0; li < 2; ++li) {
    tt_rng r;
    tt_rng_init(&r, tt_case_seed("gpu_var_graph", (uint64_t)li));
    int64_t len[500];
    tt_var_lengths(len, 500, TT_VAR_BIMODAL, 100, &r);
    len[7] = 5000;
    tt_problem P;
    if (tt_var_problem_init(&P, TRIDI_F32, k_layouts[li], 500, len, 0, 0, 0, tt_case_seed("gpu_var_graph_p", (uint64_t)li)))
      continue;
    const tridi_options o = cuda_opts();
    tridi_plan plan;
    if (!tt_expect_status(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS, "graph plan")) continue;
    dev_problem D;
    dev_upload(&P, &D);
    cudaStream_t st;
    CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CUDA_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    tt_expect_status(tridi_execute(plan, dev_ptr(&P, &D, TT_A), dev_ptr(&P, &D, TT_B), dev_ptr(&P, &D, TT_C),
                                   dev_ptr(&P, &D, TT_D), dev_ptr(&P, &D, TT_X), dev_info(&D), st),
                     TRIDI_SUCCESS, "captured execute");
    CUDA_OK(cudaStreamEndCapture(st, &g));
    CUDA_OK(cudaGraphInstantiate(&ge, g, 0));
    CUDA_OK(cudaGraphLaunch(ge, st));
    CUDA_OK(cudaGraphLaunch(ge, st));
    CUDA_OK(cudaStreamSynchronize(st));
    tt_info I;
    tt_info_alloc(&I, P.nsys);
    dev_download(&P, &D, &I);
    tt_problem_check(&P, li ? "graph interleaved" : "graph packed", I.info);
    tt_info_free(&I);
    CUDA_OK(cudaGraphExecDestroy(ge));
    CUDA_OK(cudaGraphDestroy(g));
    CUDA_OK(cudaStreamDestroy(st));
    dev_free(&D);
    tridi_plan_destroy(plan);
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  tt_dev_detect();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gpu_distributions),
      cmocka_unit_test(gpu_long),
      cmocka_unit_test(gpu_breakdown),
      cmocka_unit_test(gpu_inter_many),
      cmocka_unit_test(gpu_inter_wide),
      cmocka_unit_test(gpu_packed_edges),
      cmocka_unit_test(gpu_segments),
      cmocka_unit_test(gpu_graph),
  };
  const int rc = TT_RUN_GROUP(tests, argc, argv);
  if (!g_have_gpu) {
    fprintf(stderr, "test_varbatch_cuda: all tests skipped: %s\n", g_skip_reason);
    return 77;
  }
  return rc;
}
