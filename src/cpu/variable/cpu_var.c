/* The cpu_var_thomas row: SIMD lanes over the systems of a variable-size
 * batch, W lanes a group.  PACKED batches: each lane takes a contiguous range
 * of the concatenated batch made of whole consecutive systems in storage
 * order, up to a target of rows (lane_rows_of), and a group is W such
 * ranges one after another, so a group reads one contiguous stretch of the
 * batch and costs about its own rows whatever the lengths; the Thomas
 * recurrences run through the system boundaries inside a lane
 * (cpu_var_packed.inc).  INTERLEAVED batches: W neighbouring systems a
 * group in storage order (row i of W neighbouring systems is one vector: a
 * permutation would turn every load into a gather, and the memory lines of
 * a row are read whole anyway), swept in strips of neighbouring groups, row
 * by row (cpu_var_strip.inc).  The threads take contiguous ranges of groups
 * with equal shares of the groups' rows. */
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

/* PACKED: the rows a lane takes at most (whole systems up to this many, at
 * least one): TRIDI_CPU_VAR_LANE_ROWS within the c'/d' budget, about 8 groups
 * for small batches (so that the threads share them), never below the
 * longest system. */
static int64_t lane_rows_of(const struct tridi_plan_s *plan, int W) {
  const tridi_var_problem *v = tridi_var_of(plan);
  const int64_t cap = (int64_t)(TRIDI_CPU_VAR_LANE_BUDGET / (2 * (size_t)W * plan->esize));
  int64_t r = TRIDI_CPU_VAR_LANE_ROWS < cap ? TRIDI_CPU_VAR_LANE_ROWS : cap;
  const int64_t small = (v->total + 8 * W - 1) / (8 * W);
  if (r > small) r = small;
  return r > v->nmax ? r : v->nmax;
}

/* c'/d' rows (of W lanes) of a thread's scratch: PACKED the lane target;
 * INTERLEAVED the longest group, or as many as the strip budget holds if that
 * is more. */
static int64_t strip_rows_of(const struct tridi_plan_s *plan, int W) {
  const tridi_var_problem *v = tridi_var_of(plan);
  if (v->layout == TRIDI_VAR_PACKED) return lane_rows_of(plan, W);
  int64_t rows = v->nmax;
  const int64_t budget = (int64_t)(TRIDI_CPU_VAR_STRIP_BUDGET / (2 * (size_t)W * plan->esize));
  if (budget > rows) rows = budget;
  return rows;
}

static size_t scratch_of(const struct tridi_plan_s *plan, int W) {
  const tridi_var_problem *v = tridi_var_of(plan);
  const int64_t rows = strip_rows_of(plan, W);
  if (v->nmax > INT32_MAX || rows > INT32_MAX) return 0;
  /* c', d' (rows x W each), 5 tiles of K x W, the reference's nmax; PACKED
   * (K = W): two row-mask vectors a block of K rows, three event words of
   * 16 bits a row */
  uint64_t elems = (uint64_t)rows * 2 * W + (uint64_t)5 * W * W + (uint64_t)v->nmax;
  uint64_t extra = 0;
  if (v->layout == TRIDI_VAR_PACKED) {
    elems += 2 * ((uint64_t)rows + (uint64_t)W);
    extra = 3 * 2 * (uint64_t)rows;
  }
  if (elems > SIZE_MAX / 4 / plan->esize) return 0;
  return ((size_t)(elems * plan->esize + extra) + 63) & ~(size_t)63;
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
  free(P->lsys);
  free(P->starts);
  free(P->gn);
  free(P->cost);
  free(P);
  plan->priv = NULL;
}

/* PACKED lanes: whole systems in storage order, each lane up to `rows` rows
 * (at least one system), W lanes a group; the last group's lanes past the
 * batch are empty.  Sets P->ngroups, P->lsys, P->gn, P->starts. */
static tridi_status packed_lanes(const tridi_var_problem *v, tridi_cpu_var_priv *P, int W,
                                 int64_t rows) {
  /* one pass: at most nsys lanes, then the last group's empty lanes and
   * the closing entry */
  P->lsys = malloc((size_t)(v->nsys + W + 1) * sizeof *P->lsys);
  /* bits 0 .. total, and room for a 4-byte read at any row below total */
  P->starts = calloc((size_t)(v->total / 8 + 16), 1);
  if (!P->lsys || !P->starts) return TRIDI_ERR_ALLOC;
  int64_t j = 0;
  for (int64_t s = 0; s < v->nsys;) {
    const int64_t o = v->off[s];
    P->lsys[j++] = s;
    do ++s;
    while (s < v->nsys && v->off[s + 1] - o <= rows);
  }
  P->ngroups = (j + W - 1) / W;
  for (; j <= P->ngroups * W; ++j) P->lsys[j] = v->nsys;
  P->gn = malloc((size_t)(P->ngroups > 0 ? P->ngroups : 1) * sizeof *P->gn);
  if (!P->gn) return TRIDI_ERR_ALLOC;
  for (int64_t g = 0; g < P->ngroups; ++g) {
    int64_t m = 0;
    for (int l = 0; l < W; ++l) {
      const int64_t r = v->off[P->lsys[g * W + l + 1]] - v->off[P->lsys[g * W + l]];
      m = r > m ? r : m;
    }
    P->gn[g] = m;
  }
  for (int64_t s = 0; s <= v->nsys; ++s)
    P->starts[v->off[s] >> 3] |= (unsigned char)(1u << (v->off[s] & 7));
  return TRIDI_SUCCESS;
}

tridi_status tridi_cpu_var_init(struct tridi_plan_s *plan) {
  const tridi_var_problem *v = tridi_var_of(plan);
  const int W = lanes_of(plan);
  tridi_cpu_var_priv *P = calloc(1, sizeof *P);
  if (!P) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  plan->priv = P;
  P->lanes = W;
  P->growth = plan->growth;
  P->strip_rows = strip_rows_of(plan, W);
  if (v->layout == TRIDI_VAR_PACKED) {
    P->prefetch = TRIDI_CPU_VAR_PREFETCH_PACKED;
    P->nt = v->off[v->nsys] * (int64_t)plan->esize >= TRIDI_CPU_NT_BYTES;
    if (packed_lanes(v, P, W, P->strip_rows) != TRIDI_SUCCESS)
      return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory for the lanes");
  } else {
    P->prefetch = TRIDI_CPU_VAR_PREFETCH_INTER;
    P->ngroups = (v->nsys + W - 1) / W;
    P->sys = malloc((size_t)(P->ngroups > 0 ? P->ngroups : 1) * W * sizeof *P->sys);
    P->gn = malloc((size_t)(P->ngroups > 0 ? P->ngroups : 1) * sizeof *P->gn);
    if (!P->sys || !P->gn)
      return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory for %lld groups",
                             (long long)P->ngroups);
    for (int64_t k = 0; k < P->ngroups * W; ++k) P->sys[k] = k < v->nsys ? k : -1;
    for (int64_t g = 0; g < P->ngroups; ++g) {
      int64_t m = 0;
      for (int j = 0; j < W; ++j) {
        const int64_t s = P->sys[g * W + j];
        if (s >= 0 && v->len[s] > m) m = v->len[s];
      }
      P->gn[g] = m;
    }
  }
  P->cost = malloc((size_t)(P->ngroups + 1) * sizeof *P->cost);
  if (!P->cost) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  P->cost[0] = 0;
  for (int64_t g = 0; g < P->ngroups; ++g) P->cost[g + 1] = P->cost[g] + P->gn[g];
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
