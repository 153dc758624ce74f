/* The CUDA pivoting solvers (cuda_lu_tiles for n = 48 (f32) / 64 (f64), 96
 * or, for adjacent systems, 224 .. 2048; cuda_lu_partition to 4096; else
 * cuda_lu_partial, one thread a system at n = 64 .. 223 on batches of
 * adjacent systems: all are TRIDI_ALG_LU_PARTIAL, so the groups below that
 * force it run the partitioned rows and their exact fallback for those n)
 * and TRIDI_PIVOT_AUTO's second pass (cuda_lu_partial's kernels) on
 * the CUDA backend, on the device mirror of the harness's problems
 * (tt_dev.h); every solve is judged by tt_problem_check: inputs and padding
 * untouched, x written exactly where described, residual and info against
 * the reference pivoting solver (tt_problem_use_plan).
 *   gpu_lu_layouts     contiguous, interleaved, strided, middle axis,
 *                      broadcast matrix, in place; f32/f64; n = 1 .. 3000
 *                      (the shared-memory tile and the workspace path);
 *                      systems uniform in (-1, 1): interchanges everywhere;
 *   gpu_lu_collection  every family of tests/matrices, f32/f64, contiguous
 *                      and interleaved: residual of the pivoting solver;
 *   gpu_lu_breakdown   NaN/Inf inputs, singular systems (zero columns),
 *                      overflow: the reference's exact codes (n = 128
 *                      interleaved: the fast global form's re-solve);
 *   gpu_auto           AUTO out of place (systems the non-pivoting solver
 *                      breaks down on come out solved, info 0), with and
 *                      without the caller's info, in place (no second
 *                      pass), both kinds;
 *   gpu_auto_growth    AUTO on systems that only the growth flag catches
 *                      (first pivot 1e-20; n = 500, and 20000 for the
 *                      long-system kernels); skipped, saying so, where the
 *                      CUDA kernels do not flag growth;
 *   gpu_auto_graph     an AUTO execute captured into a CUDA graph and
 *                      replayed;
 *   gpu_partition      cuda_lu_partition chosen for n = 2049 .. 4096, the
 *                      collection on every layout, f32/f64, backward error
 *                      within 10x of ?gtsv's, with and without info, some
 *                      executes in a graph (in place among them);
 *   gpu_tiles          cuda_lu_tiles (n = 48 (f32) / 64 (f64) .. 2048 for
 *                      systems one after another: 16-byte copies; n = 96
 *                      (224 where neighbouring systems are adjacent) ..
 *                      2048 on the other layouts: gathered tiles; f32 to
 *                      1535 where rows are copied across systems) on the
 *                      collection, as gpu_partition, and the rows around
 *                      its limits (cuda_lu_partial's global form below). */
#include "matgen_problem.h"
#include "tt_dev.h"
#include "tt_variable.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tridi_options cuda_opts(tridi_alg alg) {
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.alg = alg;
  return o;
}

/* Solve P on the GPU with a plan of opts (stream 0, or a graph of one
 * execute replayed twice, d restored between the replays in place), info
 * or NULL; check everything.  Returns the failures. */
static long run_gpu(tt_problem *P, const tridi_options *o, int with_info, int graph, const char *what) {
  char lay[300], where[700];
  snprintf(where, sizeof where, "%s [%s]", what, tt_problem_str(P, lay, sizeof lay));
  tridi_plan plan = NULL;
  if (!tt_expect_status(tt_problem_plan(P, o, &plan), TRIDI_SUCCESS, where)) return 1;
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_plan_get_info(plan, &pi);
  snprintf(where + strlen(where), sizeof where - strlen(where), " kernel %s", pi.kernel);
  if (tt_verbose()) fprintf(stderr, "%s\n", where);
  if (pi.backend != TRIDI_BACKEND_CUDA) tt_fail("%s: plan backend is %d", where, (int)pi.backend);
  tt_problem_reset(P);
  tt_problem_use_plan(P, plan);
  dev_problem D;
  dev_upload(P, &D);
  tt_info I;
  tt_info_alloc(&I, P->nsys);
  int32_t *info = with_info ? dev_info(&D) : NULL;
  if (!graph) {
    tt_expect_status(tridi_execute(plan, dev_ptr(P, &D, TT_A), dev_ptr(P, &D, TT_B), dev_ptr(P, &D, TT_C),
                                   dev_ptr(P, &D, TT_D), dev_ptr(P, &D, TT_X), info, NULL),
                     TRIDI_SUCCESS, where);
    CUDA_OK(cudaDeviceSynchronize());
  } else {
    cudaStream_t st;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CUDA_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    tt_expect_status(tridi_execute(plan, dev_ptr(P, &D, TT_A), dev_ptr(P, &D, TT_B), dev_ptr(P, &D, TT_C),
                                   dev_ptr(P, &D, TT_D), dev_ptr(P, &D, TT_X), info, st),
                     TRIDI_SUCCESS, where);
    CUDA_OK(cudaStreamEndCapture(st, &g));
    CUDA_OK(cudaGraphInstantiate(&ge, g, 0));
    CUDA_OK(cudaGraphLaunch(ge, st));
    /* in place the first replay left x in d: the second must solve the
     * original right-hand sides again (P's host buffers still hold them) */
    if (P->inplace)
      CUDA_OK(cudaMemcpyAsync(D.mem[TT_D], P->buf[TT_D].mem, (size_t)P->buf[TT_D].len * P->es,
                              cudaMemcpyHostToDevice, st));
    CUDA_OK(cudaGraphLaunch(ge, st));
    CUDA_OK(cudaStreamSynchronize(st));
    CUDA_OK(cudaGraphExecDestroy(ge));
    CUDA_OK(cudaGraphDestroy(g));
    CUDA_OK(cudaStreamDestroy(st));
  }
  dev_download(P, &D, with_info ? &I : NULL);
  const long f = tt_problem_check(P, where, with_info ? I.info : NULL);
  tt_info_free(&I);
  dev_free(&D);
  tridi_plan_destroy(plan);
  return f;
}

/* ---- problems ------------------------------------------------------------ */

typedef enum { L_CONTIG, L_INTERLEAVED, L_STRIDED, L_MIDDLE, L_BCAST, L_INPLACE, NLAY } lay_kind;
static const char *lay_name[NLAY] = {"contiguous", "interleaved", "strided", "middle", "bcast", "inplace"};

static void make_layout(tt_layout *L, lay_kind k, tridi_dtype dt, int64_t n, int64_t b, tt_rng *r) {
  switch (k) {
    case L_CONTIG:
    case L_INPLACE:
      tt_build_contiguous(L, dt, n, b, r);
      L->inplace = k == L_INPLACE;
      break;
    case L_INTERLEAVED:
      tt_build_interleaved(L, dt, n, b, r);
      break;
    case L_STRIDED:
      tt_build_strided(L, dt, n, b, r);
      break;
    case L_MIDDLE: {
      const int64_t z = b > 40 ? 5 : 2;
      const int64_t sh[3] = {z, n, (b + z - 1) / z};
      tt_layout_packed(L, lay_name[k], dt, 3, sh, 1);
      break;
    }
    default: { /* one matrix, every right-hand side: a, b, c stride 0 across the batch */
      const int64_t sh[2] = {b, n};
      tt_layout_packed(L, lay_name[k], dt, 2, sh, 1);
      const int64_t st[2] = {0, 1};
      for (int op = 0; op < 3; ++op) tt_layout_strides(L, op, st);
      break;
    }
  }
}

/* Every used input uniform in (-1, 1) (a, b, c: not dominant, interchanges
 * at about half the rows), then the oracles; residuals are judged (the
 * systems are not all well conditioned). */
static void fill_uniform(tt_problem *P, uint64_t seed) {
  tt_rng r;
  tt_rng_init(&r, seed);
  for (int64_t s = 0; s < P->nsys; ++s)
    for (int64_t i = 0; i < P->sys[s].n; ++i)
      for (int op = TT_A; op <= TT_D; ++op) {
        if ((op == TT_A && i == 0) || (op == TT_C && i == P->sys[s].n - 1)) continue;
        tt_problem_set(P, op, s, i, tt_rng_uniform(&r, -1.0, 1.0));
      }
  P->close_c = INFINITY;
  tt_problem_oracle(P);
}

static int64_t batch_for(int64_t n) {
  int64_t b = 40000 / (n > 0 ? n : 1);
  if (b > 300) b = 300;
  if (b < 3) b = 3;
  return b;
}

/* ---- the pivoting row ---------------------------------------------------- */

static void gpu_lu_layouts(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t ns[] = {1, 2, 3, 5, 17, 32, 33, 100, 200, 257, 513, 1000, 3000};
  const tridi_options o = cuda_opts(TRIDI_ALG_LU_PARTIAL);
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int l = 0; l < NLAY; ++l)
      for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("gpu_lu_layouts", k));
        tt_layout L;
        make_layout(&L, (lay_kind)l, t ? TRIDI_F64 : TRIDI_F32, ns[i], batch_for(ns[i]), &r);
        tt_problem P;
        if (tt_problem_init(&P, &L, tt_case_seed("gpu_lu_layouts_p", k++), NULL)) continue;
        fill_uniform(&P, tt_case_seed("gpu_lu_layouts_v", k));
        run_gpu(&P, &o, 1, 0, lay_name[l]);
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

static void gpu_lu_collection(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t ns[] = {64, 128, 300, 1000};
  const tridi_options o = cuda_opts(TRIDI_ALG_LU_PARTIAL);
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int l = 0; l < 2; ++l)
      for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
        const int64_t n = ns[i];
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("gpu_lu_coll", k));
        tt_layout L;
        make_layout(&L, l ? L_INTERLEAVED : L_CONTIG, t ? TRIDI_F64 : TRIDI_F32, n, 2 * mg_count, &r);
        tt_problem P;
        if (tt_problem_init(&P, &L, tt_case_seed("gpu_lu_coll_p", k++), NULL)) continue;
        /* system s: family s mod mg_count (left dominant where it cannot be made) */
        for (int64_t s = 0; s < P.nsys; ++s)
          (void)tt_problem_set_matrix(&P, s, &mg_matrices[s % mg_count], tt_case_seed("gpu_lu_coll_m", (uint64_t)s));
        P.close_c = INFINITY;
        tt_problem_oracle(&P);
        /* whether a numerically singular member breaks down may depend on
         * FMA: one the pivoting oracle did not solve becomes tiny_first_pivot
         * (gpu_lu_breakdown tests the codes) */
        const mg_matrix *tiny = mg_by_name("tiny_first_pivot");
        for (int64_t s = 0; s < P.nsys; ++s)
          if (P.piv_info[s] != 0 && tiny) (void)tt_problem_set_matrix(&P, s, tiny, (uint64_t)s);
        tt_problem_oracle(&P);
        run_gpu(&P, &o, 1, 0, "collection");
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

static void gpu_lu_breakdown(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t ns[] = {1, 2, 3, 8, 64, 128, 300, 2000};
  const tridi_options o = cuda_opts(TRIDI_ALG_LU_PARTIAL);
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int l = 0; l < 3; ++l)
      for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
        const int64_t n = ns[i], mid = n / 2, late = n - 1;
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("gpu_lu_bd", k));
        tt_layout L;
        /* 40 systems: interleaved rows of at least 128 bytes (n = 128 takes the
         * global form there, breakdowns through its exact re-solve) */
        make_layout(&L, (lay_kind)l, t ? TRIDI_F64 : TRIDI_F32, n, 40, &r);
        tt_problem P;
        if (tt_problem_init(&P, &L, tt_case_seed("gpu_lu_bd_p", k++), NULL)) continue;
        if (P.nsys < 9) {
          tt_fail("breakdown: %" PRId64 " systems, 9 needed", P.nsys);
          tt_problem_free(&P);
          continue;
        }
        const double big = P.es == 4 ? 0.75 * FLT_MAX : 0.75 * DBL_MAX;
        tt_problem_nonfinite(&P, 1, TT_D, mid, NAN);
        tt_problem_nonfinite(&P, 2, TT_B, 0, INFINITY);
        if (n > 1) tt_problem_nonfinite(&P, 3, TT_A, late, -INFINITY);
        if (n > 1) tt_problem_nonfinite(&P, 4, TT_C, 0, NAN);
        /* a zero column: singular whatever the interchanges */
        tt_problem_set(&P, TT_B, 5, mid, 0.0);
        if (mid > 0) tt_problem_set(&P, TT_C, 5, mid - 1, 0.0);
        if (mid < n - 1) tt_problem_set(&P, TT_A, 5, mid + 1, 0.0);
        /* a zero row at the end */
        tt_problem_set(&P, TT_B, 6, late, 0.0);
        if (n > 1) tt_problem_set(&P, TT_A, 6, late, 0.0);
        /* overflow in the back substitution: x_0 = big / 1e-3 (no
         * interchange at row 0: |a_1| < |b_0|) */
        tt_problem_set(&P, TT_B, 7, 0, 1e-3);
        tt_problem_set(&P, TT_D, 7, 0, big);
        if (n > 1) tt_problem_set(&P, TT_A, 7, 1, 1e-4);
        /* b_0 = 0: the non-pivoting solver's zero pivot, solved here */
        if (n > 1) tt_problem_set(&P, TT_B, 8, 0, 0.0);
        tt_problem_oracle(&P);
        run_gpu(&P, &o, 1, 0, "breakdown");
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

/* ---- the partitioned row (cuda_lu_partition) ------------------------------ */

/* The kernel name of P's plan under o ("" when planning failed). */
static void plan_kernel(const tt_problem *P, const tridi_options *o, char *buf, size_t len) {
  buf[0] = 0;
  tridi_plan plan = NULL;
  if (tt_problem_plan(P, o, &plan) != TRIDI_SUCCESS) return;
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_plan_get_info(plan, &pi);
  snprintf(buf, len, "%s", pi.kernel);
  tridi_plan_destroy(plan);
}

/* Every system LAPACK solved: backward error of the GPU's x (as downloaded
 * into P) within 10 max(?gtsv's backward error, eps) (docs/accuracy.md). */
static long partition_berr(const tt_problem *P, const char *what) {
  long f = 0;
  const double eps = P->es == 4 ? FLT_EPSILON : DBL_EPSILON;
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int64_t n = P->sys[s].n;
    if (n == 0 || P->lap_info[s] != 0) continue;
    double *v = malloc(sizeof(double) * 6 * (size_t)n);
    if (!v) {
      tt_fail("%s: out of memory", what);
      return f + 1;
    }
    double *a = v, *b = v + n, *c = v + 2 * n, *d = v + 3 * n, *x = v + 4 * n, *xl = v + 5 * n;
    for (int64_t i = 0; i < n; ++i) {
      a[i] = i > 0 ? tt_problem_get_orig(P, TT_A, s, i) : 0;
      b[i] = tt_problem_get_orig(P, TT_B, s, i);
      c[i] = i < n - 1 ? tt_problem_get_orig(P, TT_C, s, i) : 0;
      d[i] = tt_problem_get_orig(P, TT_D, s, i);
      x[i] = tt_problem_get_x(P, s, i);
      xl[i] = tt_problem_xlap(P, s, i);
    }
    const double be = mg_backward_error(n, a, b, c, d, x), bl = mg_backward_error(n, a, b, c, d, xl);
    if (!(be <= 10 * fmax(bl, eps))) {
      tt_fail("%s: system %" PRId64 " (n = %" PRId64 "): backward error %.3g, ?gtsv %.3g", what, s, n, be, bl);
      ++f;
    }
    free(v);
  }
  return f;
}

/* The planner's rule for the layouts of gpu_tiles (rpts_tiles.cu, lu.cuh):
 * batches of adjacent systems (the last batch dimension of stride +-1 in
 * every operand, 0 allowed in the inputs, at least 128 bytes wide) take
 * cuda_lu_partial's global form at n = 64 .. 223 and the tiles from 224;
 * other layouts whose systems are not one after another take the gathered
 * tiles from 96, systems one after another from 48 (f32) / 64 (f64); f32
 * gathered tiles whose rows are copied across systems (b's rows not
 * unit-stride) stop at 1535, and every layout at 2048: cuda_lu_partition
 * above. */
static const char *tiles_row_want(const tt_layout *L, lay_kind lay, int64_t n) {
  const int f64 = L->dtype == TRIDI_F64, dense = lay == L_CONTIG || lay == L_INPLACE;
  int last = -1;
  for (int k = 0; k < L->rank; ++k)
    if (k != L->axis && L->shape[k] > 1) last = k;
  int adjacent = !dense && last >= 0 && L->shape[last] * (f64 ? 8 : 4) >= 128;
  for (int op = 0; adjacent && op < TT_NOPS; ++op) {
    const int64_t st = op == TT_X && L->inplace ? L->strides[TT_D][last] : L->strides[op][last];
    adjacent = st == 1 || st == -1 || (st == 0 && op != TT_X);
  }
  const int64_t lo = adjacent ? 224 : !dense ? 96 : f64 ? 64 : 48;
  const int64_t bax = L->strides[TT_B][L->axis];
  if (n < lo) return adjacent && n >= 64 ? "cuda_lu_partial_global_fast" : "cuda_lu_partial_";
  if (n > 2048 || (!dense && !f64 && n >= 1536 && bax != 1 && bax != -1)) return "cuda_lu_partition_";
  return "cuda_lu_tiles_";
}

/* One case of the collection (family s mod mg_count; the dense randsvd ones
 * only to n = 1000, uniform instead above) on layout lay: the plan's kernel
 * must start with want; then run_gpu's checks and partition_berr.  k: the
 * case number (seeds; odd: with the caller's info; 3 mod 4: in a graph). */
static void collection_case(lay_kind lay, tridi_dtype dt, int64_t n, int64_t nsys, uint64_t k,
                            const char *want, const char *group) {
  const tridi_options o = cuda_opts(TRIDI_ALG_LU_PARTIAL);
  const mg_matrix *uni = mg_by_name("uniform"), *tiny = mg_by_name("tiny_first_pivot");
  if (!uni || !tiny) fail_msg("the collection has no uniform or tiny_first_pivot family");
  tt_rng r;
  tt_rng_init(&r, tt_case_seed(group, k));
  tt_layout L;
  make_layout(&L, lay, dt, n, nsys, &r);
  tt_problem P;
  if (tt_problem_init(&P, &L, tt_case_seed(group, k + 1000000), NULL)) return;
  for (int64_t s = 0; s < P.nsys; ++s) {
    const mg_matrix *m = &mg_matrices[s % mg_count];
    if ((m->props & MG_DENSE) && n > 1000) m = uni;
    (void)tt_problem_set_matrix(&P, s, m, tt_case_seed("gpu_partition_m", (uint64_t)s));
  }
  P.close_c = INFINITY;
  tt_problem_oracle(&P);
  /* as gpu_lu_collection: a member the pivoting oracle did not solve
   * becomes tiny_first_pivot (breakdown codes: gpu_lu_breakdown) */
  for (int64_t s = 0; s < P.nsys; ++s)
    if (P.piv_info[s] != 0) (void)tt_problem_set_matrix(&P, s, tiny, (uint64_t)s);
  tt_problem_oracle(&P);
  if (!want) want = tiles_row_want(&L, lay, n);
  char kern[128], where[200];
  plan_kernel(&P, &o, kern, sizeof kern);
  snprintf(where, sizeof where, "%s %s n %" PRId64 " %s", group, lay_name[lay], n, dt == TRIDI_F64 ? "f64" : "f32");
  if (strncmp(kern, want, strlen(want)) != 0) tt_fail("%s: kernel %s, not %s*", where, kern, want);
  run_gpu(&P, &o, (int)(k & 1), k % 4 == 3, where);
  partition_berr(&P, where);
  tt_problem_free(&P);
}

static void gpu_partition(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  /* n above the tiles row's 2048 (the host oracle of n = 3000 made the
   * group too slow for one device call); k % 4 == 3 in a graph, f64 in
   * place among them */
  static const int64_t ns[] = {2049, 4096};
  static const lay_kind lays[] = {L_CONTIG, L_INTERLEAVED, L_STRIDED, L_MIDDLE, L_INPLACE};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t l = 0; l < sizeof lays / sizeof lays[0]; ++l)
      for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i)
        collection_case(lays[l], t ? TRIDI_F64 : TRIDI_F32, ns[i], 2 * mg_count, k++, "cuda_lu_partition_",
                        "gpu_partition");
  tt_assert_no_failures();
}

/* The tiles row (cuda_lu_tiles), n = 48 (f32) / 64 (f64) (96 for the
 * gathered tiles, 224 where neighbouring systems are adjacent) .. 2048
 * (tiles of 42 systems down to one; the n around those limits go to the
 * other rows, cuda_lu_partial's global form at n = 64 .. 223 on adjacent
 * systems), the collection, f32/f64, with and without info, in a graph.
 * Systems one after another (contiguous, in place: the 16-byte copies) at
 * ten n, and n = 1024 with 600 systems: more tiles than the persistent
 * grid's blocks.  The gathered tiles on interleaved, strided (random
 * per-operand strides, some negative), middle-axis and broadcast-matrix
 * layouts at fourteen n: rows along a system (broadcast, some strided) and
 * along a row's systems (interleaved, middle axis; f32 to n = 1535, then
 * cuda_lu_partition). */
static void gpu_tiles(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t ns[] = {47, 48, 63, 64, 65, 255, 683, 2047, 2048, 2049};
  static const int64_t gns[] = {48, 63, 64, 95, 96, 100, 191, 223, 224, 513, 1535, 1536, 2048, 2049};
  static const lay_kind lays[] = {L_CONTIG, L_INPLACE, L_INTERLEAVED, L_STRIDED, L_MIDDLE, L_BCAST};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t) {
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    for (size_t l = 0; l < sizeof lays / sizeof lays[0]; ++l) {
      const int dense = lays[l] == L_CONTIG || lays[l] == L_INPLACE;
      const int64_t *list = dense ? ns : gns;
      const size_t cnt = dense ? sizeof ns / sizeof ns[0] : sizeof gns / sizeof gns[0];
      for (size_t i = 0; i < cnt; ++i) {
        const int64_t n = list[i], nsys = n <= 256 ? 3 * mg_count + 1 : 2 * mg_count;
        collection_case(lays[l], dt, n, nsys, k++, NULL, "gpu_tiles"); /* tiles_row_want */
      }
    }
    collection_case(L_CONTIG, dt, 1024, 600, k++, "cuda_lu_tiles_", "gpu_tiles");
  }
  tt_assert_no_failures();
}

/* ---- TRIDI_PIVOT_AUTO's second pass ---------------------------------------- */

/* Systems 1 mod 3 have a zero first pivot (b_0 = 0, the rest dominant: the
 * pivoting solver solves them), system 5 has a NaN (stays -k): the
 * non-pivoting solver's info says which to solve again.  c_0 = a_1 = 1 keep
 * those systems well conditioned (the leading block [0 1; 1 b_1]): the
 * Thomas-PCR hybrid need not meet the zero pivot (its chunk elimination
 * runs from both ends) and may solve them itself, backward stably, and its
 * x must then agree with LAPACK's to the harness's cond-free bound. */
static void break_some(tt_problem *P) {
  for (int64_t s = 1; s < P->nsys; s += 3)
    if (P->sys[s].n > 1) {
      tt_problem_set(P, TT_B, s, 0, 0.0);
      tt_problem_set(P, TT_C, s, 0, 1.0);
      tt_problem_set(P, TT_A, s, 1, 1.0);
    }
  if (P->nsys > 5) tt_problem_nonfinite(P, 5, TT_D, P->sys[5].n - 1, NAN);
  tt_problem_oracle(P);
}

static void gpu_auto(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const int64_t ns[] = {2, 7, 64, 300, 1000, 5000};
  const tridi_options o = cuda_opts(TRIDI_ALG_AUTO); /* pivot = AUTO: the default */
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int l = 0; l < NLAY; ++l)
      for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i)
        for (int with_info = 0; with_info < 2; ++with_info) {
          tt_rng r;
          tt_rng_init(&r, tt_case_seed("gpu_auto", k));
          tt_layout L;
          make_layout(&L, (lay_kind)l, t ? TRIDI_F64 : TRIDI_F32, ns[i], batch_for(ns[i]), &r);
          tt_problem P;
          if (tt_problem_init(&P, &L, tt_case_seed("gpu_auto_p", k++), NULL)) continue;
          break_some(&P);
          run_gpu(&P, &o, with_info, 0, with_info ? "auto" : "auto, info NULL");
          tt_problem_free(&P);
        }
  /* the variable kind */
  static const tridi_var_layout vl[2] = {TRIDI_VAR_PACKED, TRIDI_VAR_INTERLEAVED};
  for (int t = 0; t < 2; ++t)
    for (int li = 0; li < 2; ++li)
      for (int inplace = 0; inplace < 2; ++inplace)
        for (int with_info = 0; with_info < 2; ++with_info) {
          tt_rng r;
          tt_rng_init(&r, tt_case_seed("gpu_auto_var", k));
          int64_t len[200];
          tt_var_lengths(len, 200, TT_VAR_UNIFORM, 60, &r);
          len[4] = 3000;
          tt_problem P;
          if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, vl[li], 200, len, 3, 0, inplace,
                                  tt_case_seed("gpu_auto_var_p", k++)))
            continue;
          break_some(&P);
          run_gpu(&P, &o, with_info, 0, "auto variable");
          tt_problem_free(&P);
        }
  tt_assert_no_failures();
}

/* 1 when the CUDA non-pivoting kernels flag growth (TRIDI_INFO_INACCURATE)
 * on a tiny first pivot: what gpu_auto_growth needs. */
static int cuda_flags_growth(const mg_matrix *tiny) {
  tt_rng r;
  tt_rng_init(&r, tt_case_seed("gpu_growth_probe", 0));
  tt_layout L;
  make_layout(&L, L_CONTIG, TRIDI_F64, 500, 4, &r);
  tt_problem P;
  if (tt_problem_init(&P, &L, tt_case_seed("gpu_growth_probe_p", 0), NULL)) return 0;
  for (int64_t s = 0; s < P.nsys; ++s) (void)tt_problem_set_matrix(&P, s, tiny, (uint64_t)s);
  tridi_options o = cuda_opts(TRIDI_ALG_AUTO);
  o.pivot = TRIDI_PIVOT_NONE;
  tridi_plan plan = NULL;
  int flagged = 0;
  if (tt_problem_plan(&P, &o, &plan) == TRIDI_SUCCESS) {
    dev_problem D;
    dev_upload(&P, &D);
    tt_info I;
    tt_info_alloc(&I, P.nsys);
    (void)tridi_execute(plan, dev_ptr(&P, &D, TT_A), dev_ptr(&P, &D, TT_B), dev_ptr(&P, &D, TT_C),
                        dev_ptr(&P, &D, TT_D), dev_ptr(&P, &D, TT_X), dev_info(&D), NULL);
    CUDA_OK(cudaDeviceSynchronize());
    dev_download(&P, &D, &I);
    for (int64_t s = 0; s < P.nsys; ++s) flagged |= I.info[s] == TRIDI_INFO_INACCURATE;
    tt_info_free(&I);
    dev_free(&D);
    tridi_plan_destroy(plan);
  }
  tt_problem_free(&P);
  return flagged;
}

static void gpu_auto_growth(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  const tridi_options o = cuda_opts(TRIDI_ALG_AUTO);
  const mg_matrix *tiny = mg_by_name("tiny_first_pivot");
  if (!tiny) fail_msg("the collection has no tiny_first_pivot family");
  if (!cuda_flags_growth(tiny)) {
    fprintf(stderr, "skipped: the CUDA kernels do not flag growth (TRIDI_INFO_INACCURATE) in this build\n");
    skip();
  }
  uint64_t k = 0;
  /* n = 500: the single-block kernels; n = 20000: the long-system kernels
   * (cluster on contiguous, segmented on interleaved rows), whose flag is
   * their residual check */
  for (int big = 0; big < 2; ++big)
    for (int t = 0; t < 2; ++t)
      for (int l = 0; l < 2; ++l) {
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("gpu_auto_growth", k));
        tt_layout L;
        make_layout(&L, l ? L_INTERLEAVED : L_CONTIG, t ? TRIDI_F64 : TRIDI_F32, big ? 20000 : 500,
                    big ? 8 : 64, &r);
        tt_problem P;
        if (tt_problem_init(&P, &L, tt_case_seed("gpu_auto_growth_p", k++), NULL)) continue;
        for (int64_t s = 0; s < P.nsys; s += 2)
          (void)tt_problem_set_matrix(&P, s, tiny, (uint64_t)s);
        P.close_c = INFINITY;
        tt_problem_oracle(&P);
        run_gpu(&P, &o, 1, 0, "auto growth");
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

static void gpu_auto_graph(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  const tridi_options o = cuda_opts(TRIDI_ALG_AUTO);
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int l = 0; l < 2; ++l)
      for (int with_info = 0; with_info < 2; ++with_info) {
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("gpu_auto_graph", k));
        tt_layout L;
        make_layout(&L, l ? L_INTERLEAVED : L_CONTIG, t ? TRIDI_F64 : TRIDI_F32, 200, 100, &r);
        tt_problem P;
        if (tt_problem_init(&P, &L, tt_case_seed("gpu_auto_graph_p", k++), NULL)) continue;
        break_some(&P);
        run_gpu(&P, &o, with_info, 1, "auto graph");
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  tt_dev_detect();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gpu_lu_layouts), cmocka_unit_test(gpu_lu_collection),
      cmocka_unit_test(gpu_lu_breakdown), cmocka_unit_test(gpu_auto),
      cmocka_unit_test(gpu_auto_growth), cmocka_unit_test(gpu_auto_graph),
      cmocka_unit_test(gpu_partition),
      cmocka_unit_test(gpu_tiles),
  };
  const int rc = TT_RUN_GROUP(tests, argc, argv);
  if (!g_have_gpu) {
    fprintf(stderr, "test_pivot_cuda: all tests skipped: %s\n", g_skip_reason);
    return 77;
  }
  return rc;
}
