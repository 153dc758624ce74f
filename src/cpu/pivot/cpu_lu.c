/* The cpu_lu_partial solver row: LU with partial pivoting (LAPACK ?gtsv)
 * on SIMD lanes across systems (cpu_lu_kernel.inc).  Plan time: the layout
 * part of the Thomas kernel's plan (tridi_cpu_layout_priv), then the group
 * width, tile depth, prefetch and stores with the Thomas kernel's rules
 * (src/cpu/tuning.h), S sub-groups a work item; execute runs the kernel over
 * the work items with a static OpenMP schedule. */
#include "cpu_lu.h"

#include <stdio.h>
#include <stdlib.h>

static int has_trans(const tridi_cpu_thomas_priv *P) {
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (P->cls[k] == TRIDI_CPU_TRANS) return 1;
  return 0;
}

/* Every TRANS operand's systems start a multiple of 64 bytes apart. */
static int trans_aligned(const struct tridi_plan_s *plan, const tridi_cpu_thomas_priv *P) {
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    const int64_t ls = P->lstride[k] < 0 ? -P->lstride[k] : P->lstride[k];
    if (P->cls[k] == TRIDI_CPU_TRANS && (ls * (int64_t)plan->esize) % 64 != 0) return 0;
  }
  return 1;
}

/* In TRIDI_CPU_TUNING builds the environment variable TRIDI_CPU_LU_U (1 or
 * TRIDI_CPU_LU_UNROLL) sets the vectors per row of the AVX-512 group while a
 * plan is created (`tridi ab ... PIVOT=partial,LU_U=2`); 0 = unset. */
static int lu_u_override(void) {
#ifdef TRIDI_CPU_TUNING
  const char *e = getenv("TRIDI_CPU_LU_U");
  const int v = e ? atoi(e) : 0;
  return v == 1 || v == TRIDI_CPU_LU_UNROLL ? v : 0;
#else
  return 0;
#endif
}

/* Lanes per group (see TRIDI_CPU_LU_UNROLL). */
static int lanes_of(const struct tridi_plan_s *plan) {
  int u = TRIDI_CPU_LU_UNROLL;
  if (plan->simd == TRIDI_SIMD_AVX512 && lu_u_override()) u = lu_u_override();
  return (int)(64 / plan->esize) * u;
}

/* Per-thread scratch bytes for S sub-groups (cpu_lu.h); 0 on size_t
 * overflow. */
static size_t scratch_bytes(const struct tridi_plan_s *plan, int G, int S, int KT) {
  const uint64_t n = (uint64_t)plan->lay.n, es = plan->esize;
  if (n > (SIZE_MAX / 8) / (4 * (uint64_t)G * (uint64_t)S * es)) return 0;
  const size_t elems = (size_t)(7 * (uint64_t)KT * G + (uint64_t)S * (4 * (uint64_t)G + 4 * n * G));
  return (elems * es + 63) & ~(size_t)63;
}

/* The most sub-groups a work item takes: TRIDI_CPU_MAX_SUB, or in
 * TRIDI_CPU_TUNING builds TRIDI_CPU_LU_SUB (1..TRIDI_CPU_MAX_SUB). */
static int lu_sub_cap(void) {
#ifdef TRIDI_CPU_TUNING
  const char *e = getenv("TRIDI_CPU_LU_SUB");
  const int v = e ? atoi(e) : 0;
  if (v >= 1 && v <= TRIDI_CPU_MAX_SUB) return v;
#endif
  return TRIDI_CPU_MAX_SUB;
}

const char *tridi_cpu_lu_applies(const struct tridi_plan_s *plan) {
  if (plan->requested_alg != TRIDI_ALG_AUTO) return NULL;
  const int G = lanes_of(plan);
  /* as cpu_thomas: independent of the thread count, so that the same
   * problem gives the same bits with any number of threads */
  if (plan->lay.nsys < (int64_t)G) return "fewer systems than one group of lanes";
  const size_t scr = scratch_bytes(plan, G, 1, (int)(64 / plan->esize) * TRIDI_CPU_TRANS_LINES);
  if (scr == 0 || scr > TRIDI_CPU_SCRATCH_MAX) return "U scratch above 64 MiB per thread";
  return NULL;
}

tridi_status tridi_cpu_lu_init(struct tridi_plan_s *plan) {
  tridi_cpu_thomas_priv *P = calloc(1, sizeof *P);
  if (!P) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  tridi_cpu_layout_priv(plan, P);
  const int K = (int)(64 / plan->esize);
  const int trans = has_trans(P);
  const int G = lanes_of(plan);
  int64_t minrow = -1; /* bytes between the rows of the closest VEC operand */
  for (int k = 0; k < 4; ++k)
    if (P->cls[k] == TRIDI_CPU_VEC) {
      const int64_t as = P->astride[k] < 0 ? -P->astride[k] : P->astride[k];
      const int64_t r = as * (int64_t)plan->esize;
      if (minrow < 0 || r < minrow) minrow = r;
    }
  const int far = minrow >= TRIDI_CPU_FAR_ROW_BYTES;
  /* Sub-groups, as the Thomas kernel takes them on a middle axis: where x's
   * lanes are contiguous (VEC) and the rows close together, S neighbouring
   * groups swept tile by tile together, so that each row is read as one run
   * of S G lanes (a whole row of a (B/64, n, 64) array), while their rows
   * of U fit the Thomas kernel's scratch budget.  Intel Xeon, `tridi ab
   * ... - PIVOT=partial,LU_SUB=1 PIVOT=partial` (two runs): mid3d x1.07-1.20
   * at n = 256..4096 (f32 n = 64 x1.01-1.02); on interleaved data (far
   * rows) S = 8 was x0.95 (f32) / x0.97 (f64) at n = 64 and S = 2
   * x1.00-1.03, so far rows keep S = 1 (docs/perf-log.md, "CPU pivoting: sub-groups on the middle axis"). */
  P->sub = 1;
  if (P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC && minrow >= 0 && !far)
    P->sub = tridi_cpu_subgroups(P, G, (size_t)plan->lay.n * 4 * (size_t)G * plan->esize, 0,
                                 lu_sub_cap());
  P->tile_rows = K;
  if (trans)
    P->tile_rows =
        K * (trans_aligned(plan, P) ? TRIDI_CPU_TRANS_LINES_ALIGNED : TRIDI_CPU_TRANS_LINES);
  else if (far)
    P->tile_rows = TRIDI_CPU_VEC_FAR_ROWS;
  P->scratch_bytes = scratch_bytes(plan, G, P->sub, P->tile_rows);
  const size_t ws = P->scratch_bytes ? tridi_run_systems_ws_bytes(plan, P->scratch_bytes) : 0;
  if (ws == 0) {
    free(P);
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: cpu_lu_partial needs n x %d x 4 elements of scratch "
                           "per thread; n = %lld is too large",
                           G, (long long)plan->lay.n);
  }
  P->ngroups = (P->lane_ext + (int64_t)G * P->sub - 1) / ((int64_t)G * P->sub);
  P->nwork = P->nouter * P->ngroups;
  const int64_t xbytes = P->n * (int64_t)plan->esize;
  P->nt_stores = (P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC || P->cls[TRIDI_OP_X] == TRIDI_CPU_TRANS) &&
                 plan->simd != TRIDI_SIMD_PORTABLE && xbytes > 0 &&
                 plan->lay.nsys >= TRIDI_CPU_NT_BYTES / xbytes;
  /* prefetch as the Thomas kernel: TRANS tiles one tile ahead, far VEC rows
   * TRIDI_CPU_PREFETCH_TILES tiles of K rows ahead into L2, VEC rows close
   * together none (the hardware prefetchers follow them) */
  P->prefetch =
      P->tile_rows > K ? 1 : (TRIDI_CPU_PREFETCH_TILES * K + P->tile_rows - 1) / P->tile_rows;
  if (!trans && minrow >= 0 && !far) P->prefetch = 0;
  P->pf_hint = trans || far;
  P->pf_dist = (int64_t)P->prefetch * P->tile_rows;
  /* short TRANS systems: the next work item's first tile is prefetched
   * before the backward sweep (TRIDI_CPU_PF_NEXT_BYTES, as cpu_thomas) */
  P->pf_next = trans && P->n * (int64_t)plan->esize <= TRIDI_CPU_PF_NEXT_BYTES;
  P->growth = 0; /* partial pivoting: growth at most 2, nothing to flag */

  const int f32 = plan->dtype == TRIDI_F32;
  const char *simd = "portable";
  P->kernel = f32 ? tridi_cpu_lu_kernel_portable_f32 : tridi_cpu_lu_kernel_portable_f64;
  switch (plan->simd) {
#ifdef TRIDI_CPU_HAVE_AVX512
    case TRIDI_SIMD_AVX512:
      simd = "avx512";
      if (G == K) /* the one-vector group: tuning only (TRIDI_CPU_LU_U=1) */
        P->kernel = f32 ? tridi_cpu_lu_kernel_avx512s_f32 : tridi_cpu_lu_kernel_avx512s_f64;
      else
        P->kernel = f32 ? tridi_cpu_lu_kernel_avx512_f32 : tridi_cpu_lu_kernel_avx512_f64;
      break;
#endif
#ifdef TRIDI_CPU_HAVE_AVX2
    case TRIDI_SIMD_AVX2:
      simd = "avx2";
      P->kernel = f32 ? tridi_cpu_lu_kernel_avx2_f32 : tridi_cpu_lu_kernel_avx2_f64;
      break;
#endif
    default:
      break;
  }
  tridi_cpu_kernel_name(plan, P, "cpu_lu_partial", simd, G * P->sub);
  plan->ws_bytes = ws;
  plan->priv = P;
  return TRIDI_SUCCESS;
}

/* The plan's private part is the Thomas kernel's (tridi_cpu_thomas_priv
 * with the LU kernel in it), so the Thomas row's execute and destroy serve. */
tridi_status tridi_cpu_lu_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  return tridi_cpu_thomas_execute(plan, args);
}

void tridi_cpu_lu_destroy(struct tridi_plan_s *plan) { tridi_cpu_thomas_destroy(plan); }
