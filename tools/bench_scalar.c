/* The scalar kind of `tridi bench` (--problem scalar): batches of systems of
 * one length n in five N-d layouts, every operand with the same strides;
 * 5 words per unknown (read a, b, c, d, write x).  Baselines: LAPACK ?gtsv
 * per system on the CPU, cuSPARSE gtsv2StridedBatch / gtsvInterleavedBatch
 * on the GPU. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define MID3D_X 64     /* extent of the fastest dimension of the mid3d layout */
#define LAUNCH_N 64    /* the launch-bound case: LAUNCH_BATCH systems of LAUNCH_N */
#define LAUNCH_BATCH 64

static const char *const scalar_layouts[] = {"contig", "interleaved", "mid3d", "padded", "launch",
                                             NULL};

/* The case `layout` whose described elements take about `elems` elements
 * per operand. */
static int scalar_make_case(bench_case *bc, const char *layout, tridi_dtype dt, int64_t n,
                            int64_t elems) {
  const int64_t es = (int64_t)tridi_dtype_size(dt);
  bc->layout = layout;
  bc->dtype = dt;
  bc->m = 1;
  bc->rank = 2;
  int64_t B = elems / n;
  if (B < 1) B = 1;
  int64_t alloc;
  if (strcmp(layout, "launch") == 0) {
    n = LAUNCH_N;
    B = LAUNCH_BATCH;
    layout = "contig";
    bc->launch = 1;
  }
  bc->n = n;
  if (strcmp(layout, "contig") == 0) {
    bc->shape[0] = B; bc->shape[1] = n; bc->axis = 1;
    bc->strides[0] = n; bc->strides[1] = 1;
    alloc = B * n;
  } else if (strcmp(layout, "interleaved") == 0) {
    /* B rounded down to whole 128-byte rows (as a grid's X extent of 2^k would
     * give, and as mid3d's rows are): rows that start off a 32-byte sector
     * cost the GPU kernels a third sector per access (docs/perf-log.md CUDA
     * v26); those are measured there, not here */
    const int64_t line = 128 / es;
    if (B >= line) B = B / line * line;
    bc->shape[0] = n; bc->shape[1] = B; bc->axis = 0;
    bc->strides[0] = B; bc->strides[1] = 1;
    alloc = B * n;
  } else if (strcmp(layout, "mid3d") == 0) {
    /* TRIDI_BENCH_MID3D_X: another extent of the fastest dimension (measurements
     * of the row stride's effect; docs/perf-log.md CUDA v26) */
    const char *ex = getenv("TRIDI_BENCH_MID3D_X");
    const int64_t X0 = ex && atoll(ex) > 0 ? atoll(ex) : MID3D_X;
    const int64_t X = B >= X0 ? X0 : B, Z = B / X; /* B rounded down */
    B = Z * X;
    bc->rank = 3;
    bc->shape[0] = Z; bc->shape[1] = n; bc->shape[2] = X; bc->axis = 1;
    bc->strides[0] = n * X; bc->strides[1] = X; bc->strides[2] = 1;
    alloc = Z * n * X;
  } else if (strcmp(layout, "padded") == 0) {
    /* the smallest pad >= 3 that leaves rows not 64-byte aligned;
     * TRIDI_BENCH_PAD: another pad, as given (measurements of the padding's
     * effect, e.g. the GPU planner's bound on it) */
    int64_t pad = 3;
    while (((n + pad) * es) % 64 == 0) ++pad;
    const char *ep = getenv("TRIDI_BENCH_PAD");
    if (ep && *ep && atoll(ep) >= 0) pad = atoll(ep);
    bc->shape[0] = B; bc->shape[1] = n; bc->axis = 1;
    bc->strides[0] = n + pad; bc->strides[1] = 1;
    alloc = B * (n + pad);
  } else {
    return 1;
  }
  bc->batch = B;
  bc->nmax = n;
  bc->unknowns = n * B;
  for (int op = 0; op < BENCH_NOPS; ++op) bc->alloc_elems[op] = alloc;
  return 0;
}

/* Row 0 of system s: s's row-major digits over the non-axis extents, times
 * their strides (the order tridi uses for info). */
static void scalar_system(const bench_case *bc, int64_t s, bench_sys *sys) {
  int64_t off = 0;
  for (int k = bc->rank - 1; k >= 0; --k) {
    if (k == bc->axis) continue;
    const int64_t e = bc->shape[k];
    off += (s % e) * bc->strides[k];
    s /= e;
  }
  sys->n = bc->n;
  for (int op = 0; op < BENCH_NOPS; ++op) {
    sys->off[op] = off;
    sys->inc[op] = bc->strides[bc->axis];
  }
}

static tridi_status scalar_make_desc(const bench_case *bc, tridi_desc *desc) {
  tridi_status st = tridi_desc_create(desc, bc->dtype, bc->rank, bc->shape, bc->axis);
  if (st == TRIDI_SUCCESS) st = tridi_desc_set_all_strides(*desc, bc->strides);
  if (st != TRIDI_SUCCESS) {
    tridi_desc_destroy(*desc);
    *desc = NULL;
  }
  return st;
}

#ifdef TRIDI_HAVE_CUDA
/* bench_cusparse.cu: the pivoting peer of cuda_lu_partial */
extern const bench_baseline bench_baseline_cusparse_pivot;
#endif

static const bench_baseline *const scalar_baselines[] = {
    &bench_baseline_lapack,
    &bench_baseline_dropin_cpu,
#ifdef TRIDI_HAVE_CUDA
    &bench_baseline_cusparse_scalar,
    &bench_baseline_cusparse_pivot,
    &bench_baseline_dropin_cuda,
#endif
    NULL};

const bench_kind bench_kind_scalar = {
    .name = "scalar",
    .layouts = scalar_layouts,
    .help = "B systems of length n; all five operands share the strides:\n"
            "  contig      shape (B,n) axis 1\n"
            "  interleaved shape (n,B) axis 0, B a multiple of 128 bytes of systems\n"
            "  mid3d       shape (B/64,n,64) axis 1\n"
            "  padded      shape (B,n) axis 1, row stride n+pad elements (rows not\n"
            "              64-byte aligned)\n"
            "  launch      64 systems of n=64, reported in microseconds per execute\n"
            "baselines: LAPACK ?gtsv per system (cpu); cuSPARSE gtsv2StridedBatch\n"
            "(contig, padded, launch) and gtsvInterleavedBatch (interleaved, mid3d) (cuda);\n"
            "cuSPARSE gtsvInterleavedBatch algorithm 1, LU with partial pivoting, every\n"
            "layout gathered into its interleaved storage outside the timing (cuda);\n"
            "tridi's drop-ins on the same data: tridi_?gtsv_batch (cpu: contig, padded,\n"
            "launch; it pivots, compare with --pivot partial), tridi_cuda_?gtsv_strided_batch\n"
            "/ _interleaved_batch (cuda)\n",
    .words_per_unknown = 5.0,
    .make_case = scalar_make_case,
    .free_case = NULL,
    .system = scalar_system,
    .fill = bench_fill_dominant,
    .check = bench_check_rows,
    .make_desc = scalar_make_desc,
    .baselines = scalar_baselines,
};
