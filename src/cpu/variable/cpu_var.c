/* The cpu_var_thomas row: SIMD lanes over the systems of a variable-size
 * batch.  At plan time the systems are put into groups of W (one SIMD lane
 * each): PACKED batches sorted by length, longest first, so that the lanes of
 * a group have about the same length and the group costs about its own
 * unknowns; INTERLEAVED batches in their storage order (row i of W
 * neighbouring systems is one vector: a permutation would turn every load
 * into a gather, and the memory lines of a row are read whole anyway).  The
 * threads take contiguous ranges of groups with equal shares of the
 * groups' rows; INTERLEAVED groups are swept in strips of neighbouring
 * groups, row by row (cpu_var_strip.inc). */
#include "cpu_var.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Beyond this much c'/d' scratch per thread, AUTO prefers cpu_var_thomas_ref. */
#define TRIDI_CPU_VAR_SCRATCH_MAX ((size_t)64 << 20)
/* Software prefetch of each lane's rows this far ahead (rows): PACKED
 * batches read W streams per operand, INTERLEAVED rows ld elements apart;
 * both beyond what the hardware prefetchers follow.  INTERLEAVED strips:
 * 16 rows with the 1 MiB budget 1.4-1.6x over 8 rows with 256 KiB on
 * f32 uniform L = 128 (Emerald Rapids VM, docs/perf-log.md). */
#define TRIDI_CPU_VAR_PREFETCH_PACKED 64
#define TRIDI_CPU_VAR_PREFETCH_INTER 16

static int lanes_of(const struct tridi_plan_s *plan) {
  const int bytes = plan->simd == TRIDI_SIMD_AVX512 ? 64 : plan->simd == TRIDI_SIMD_AVX2 ? 32 : 16;
  const int packed = tridi_var_of(plan)->layout == TRIDI_VAR_PACKED;
  return TRIDI_CPU_VAR_UNROLL(bytes, packed) * bytes / (int)plan->esize;
}

/* c'/d' rows (of W lanes) of a thread's scratch: the longest group, or for
 * INTERLEAVED batches as many as the strip budget holds if that is more. */
static int64_t strip_rows_of(const struct tridi_plan_s *plan, int W) {
  const tridi_var_problem *v = tridi_var_of(plan);
  int64_t rows = v->nmax;
  if (v->layout == TRIDI_VAR_INTERLEAVED) {
    const int64_t budget = (int64_t)(TRIDI_CPU_VAR_STRIP_BUDGET / (2 * (size_t)W * plan->esize));
    if (budget > rows) rows = budget;
  }
  return rows;
}

static size_t scratch_of(const struct tridi_plan_s *plan, int W) {
  const tridi_var_problem *v = tridi_var_of(plan);
  /* c', d' (rows x W each), 5 tiles of K x W, the reference's nmax */
  const int64_t rows = strip_rows_of(plan, W);
  const uint64_t elems = (uint64_t)rows * 2 * W + (uint64_t)5 * W * W + (uint64_t)v->nmax;
  if (v->nmax > INT32_MAX || elems > SIZE_MAX / 2 / plan->esize) return 0;
  return ((size_t)elems * plan->esize + 63) & ~(size_t)63;
}

const char *tridi_cpu_var_applies(const struct tridi_plan_s *plan) {
  const size_t scr = scratch_of(plan, lanes_of(plan));
  if (scr == 0 || scr > TRIDI_CPU_VAR_SCRATCH_MAX) return "c'/d' scratch above 64 MiB per thread";
  return NULL;
}

void tridi_cpu_var_destroy(struct tridi_plan_s *plan) {
  tridi_cpu_var_priv *P = (tridi_cpu_var_priv *)plan->priv;
  if (!P) return;
  free(P->sys);
  free(P->gn);
  free(P->cost);
  free(P);
  plan->priv = NULL;
}

/* qsort by length, longest first; ties by system number (a fixed order) */
typedef struct {
  int64_t len, sys;
} len_sys;
static int by_length(const void *p, const void *q) {
  const len_sys *a = (const len_sys *)p, *b = (const len_sys *)q;
  if (a->len != b->len) return a->len > b->len ? -1 : 1;
  return (a->sys > b->sys) - (a->sys < b->sys);
}

tridi_status tridi_cpu_var_init(struct tridi_plan_s *plan) {
  const tridi_var_problem *v = tridi_var_of(plan);
  const int W = lanes_of(plan);
  tridi_cpu_var_priv *P = calloc(1, sizeof *P);
  if (!P) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  plan->priv = P;
  P->lanes = W;
  P->growth = plan->growth;
  P->ngroups = (v->nsys + W - 1) / W;
  P->prefetch = v->layout == TRIDI_VAR_PACKED ? TRIDI_CPU_VAR_PREFETCH_PACKED
                                               : TRIDI_CPU_VAR_PREFETCH_INTER;
  P->sys = malloc((size_t)(P->ngroups > 0 ? P->ngroups : 1) * W * sizeof *P->sys);
  P->gn = malloc((size_t)(P->ngroups > 0 ? P->ngroups : 1) * sizeof *P->gn);
  P->cost = malloc((size_t)(P->ngroups + 1) * sizeof *P->cost);
  if (!P->sys || !P->gn || !P->cost)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory for %lld groups",
                           (long long)P->ngroups);
  for (int64_t k = 0; k < P->ngroups * W; ++k) P->sys[k] = k < v->nsys ? k : -1;
  if (v->layout == TRIDI_VAR_PACKED && v->nsys > 1) {
    len_sys *order = malloc((size_t)v->nsys * sizeof *order);
    if (!order) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
    for (int64_t s = 0; s < v->nsys; ++s) order[s] = (len_sys){v->len[s], s};
    qsort(order, (size_t)v->nsys, sizeof *order, by_length);
    for (int64_t s = 0; s < v->nsys; ++s) P->sys[s] = order[s].sys;
    free(order);
  }
  P->cost[0] = 0;
  for (int64_t g = 0; g < P->ngroups; ++g) {
    int64_t m = 0;
    for (int j = 0; j < W; ++j) {
      const int64_t s = P->sys[g * W + j];
      if (s >= 0 && v->len[s] > m) m = v->len[s];
    }
    P->gn[g] = m;
    P->cost[g + 1] = P->cost[g] + m;
  }
  P->strip_rows = strip_rows_of(plan, W);
  P->scratch_bytes = scratch_of(plan, W);
  if (P->scratch_bytes == 0 ||
      (plan->ws_bytes = tridi_run_systems_ws_bytes(plan, P->scratch_bytes)) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: cpu_var_thomas workspace overflows");
  const int f32 = plan->dtype == TRIDI_F32;
  const int pk = v->layout == TRIDI_VAR_PACKED;
#define PICK(SFX)                                                                      \
  (f32 ? (pk ? tridi_cpu_var_kernel_##SFX##_f32_p : tridi_cpu_var_kernel_##SFX##_f32_i) \
       : (pk ? tridi_cpu_var_kernel_##SFX##_f64_p : tridi_cpu_var_kernel_##SFX##_f64_i))
  const char *isa = "portable";
  P->kernel = PICK(portable);
#ifdef TRIDI_CPU_HAVE_AVX512
  if (plan->simd == TRIDI_SIMD_AVX512) {
    P->kernel = PICK(avx512);
    isa = "avx512";
  }
#endif
#ifdef TRIDI_CPU_HAVE_AVX2
  if (plan->simd == TRIDI_SIMD_AVX2) {
    P->kernel = PICK(avx2);
    isa = "avx2";
  }
#endif
#undef PICK
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_var_thomas_%s_%s_%s_w%d",
           v->layout == TRIDI_VAR_PACKED ? "packed" : "interleaved", isa, f32 ? "f32" : "f64", W);
  return TRIDI_SUCCESS;
}

/* Work item t (a thread) solves the groups that start in the t-th equal
 * share of all groups' rows. */
static void run_share(const struct tridi_plan_s *plan, const tridi_args *args, const void *ctx,
                      int64_t t0, int64_t t1, void *work, tridi_fail_slot *slot) {
  (void)ctx;
  const tridi_cpu_var_priv *P = (const tridi_cpu_var_priv *)plan->priv;
  for (int64_t t = t0; t < t1; ++t) {
    int64_t g0, g1;
    tridi_weighted_range(P->cost, P->ngroups, t, plan->num_threads, &g0, &g1);
    if (g0 < g1) P->kernel(plan, P, args, g0, g1, work, slot);
  }
}

tridi_status tridi_cpu_var_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  const tridi_cpu_var_priv *P = (const tridi_cpu_var_priv *)plan->priv;
  return tridi_run_ranges(plan, args, plan->num_threads, run_share, NULL, P->scratch_bytes);
}
