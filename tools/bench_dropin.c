/* The drop-in entry points of tridi (tridi.h) as rows of the scalar kind's
 * `tridi bench`, on the same data as the native API: tridi_?gtsv_batch
 * (LAPACK storage) on the CPU for the layouts whose systems are contiguous
 * (contig, padded, launch), reading a from row 1 on as LAPACK's dl (base
 * a + 1, stride the row stride: a[0] is not read) and c as du.  It solves in
 * place in b, so each repeat first copies d into x (the described elements
 * only, untimed).  It pivots (LAPACK's partial pivoting): the like-for-like
 * native row is `--pivot partial`.  docs/benchmarks.md, "Drop-in rows". */
#include "bench.h"
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* x's systems from d (untimed) */
static void copy_d_to_x(const bench_case *bc, const bench_data *data, int threads) {
  const size_t es = tridi_dtype_size(bc->dtype);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t s = 0; s < bc->batch; ++s) {
    bench_sys S;
    bc->kind->system(bc, s, &S);
    memcpy((char *)data->x + (size_t)S.off[4] * es, (const char *)data->d + (size_t)S.off[3] * es,
           (size_t)S.n * es);
  }
}

static int dropin_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                      bench_result *res) {
  const int f64 = bc->dtype == TRIDI_F64;
  snprintf(res->baseline, sizeof res->baseline, "tridi_%s", f64 ? "dgtsv_batch" : "sgtsv_batch");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  const int contiguous = bc->rank == 2 && bc->axis == 1 && bc->strides[1] == 1;
  if (!contiguous || bc->n > 0x7fffffff || bc->batch > 0x7fffffff || bc->strides[0] > 0x7fffffff) {
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED; /* LAPACK storage: contiguous systems */
    return 1;
  }
  double *t_ms = malloc(sizeof(double) * (size_t)opts->reps);
  int *info = malloc(sizeof(int) * (size_t)(bc->batch > 0 ? bc->batch : 1));
  if (!t_ms || !info) {
    free(t_ms);
    free(info);
    res->baseline_status = TRIDI_ERR_ALLOC;
    return 1;
  }
  const size_t es = tridi_dtype_size(bc->dtype);
  const int n = (int)bc->n, B = (int)bc->batch, ld = (int)bc->strides[0];
  const void *dl = (const char *)data->a + es; /* a from row 1: LAPACK's dl */
  tridi_status st = TRIDI_SUCCESS;
  for (int r = -opts->warmup; r < opts->reps && st == TRIDI_SUCCESS; ++r) {
    copy_d_to_x(bc, data, opts->threads);
    const double t0 = bench_now();
    st = f64 ? tridi_dgtsv_batch(n, 1, B, dl, ld, data->b, ld, data->c, ld, data->x, n > 0 ? n : 1,
                                 ld, info)
             : tridi_sgtsv_batch(n, 1, B, dl, ld, data->b, ld, data->c, ld, data->x, n > 0 ? n : 1,
                                 ld, info);
    const double t1 = bench_now();
    if (r >= 0) t_ms[r] = (t1 - t0) * 1e3;
  }
  if (st == TRIDI_SUCCESS) res->baseline_ms = bench_median(t_ms, opts->reps);
  else res->baseline_status = st;
  free(t_ms);
  free(info);
  return st != TRIDI_SUCCESS;
}

const bench_baseline bench_baseline_dropin_cpu = {
    .name = "tridi_?gtsv_batch (the LAPACK drop-in)",
    .backend = TRIDI_BACKEND_CPU,
    .run = dropin_run,
};
