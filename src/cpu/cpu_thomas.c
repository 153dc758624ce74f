/* The cpu_thomas solver row: plan-time choice of the lane dimension, the
 * per-operand loaders/storers and the kernel variant; execute runs the
 * kernel over lane groups with a static OpenMP schedule. */
#include "cpu_thomas.h"
#include "backends.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Overrides of the plan's choices, for tuning experiments: in TRIDI_CPU_TUNING builds, the
 * environment variable TRIDI_CPU_<NAME> sets knob <name> while a plan is created (`tridi ab` sets
 * them per variant; docs/cpu.md "Tuning experiments").  In other builds no knob is ever set.
 *   TRANS_U, VEC_U     vectors per row of the AVX-512 group (1, 2 or 4), for layouts with a
 *                      TRANS operand / for the others (perf-log v13-v17's WIDE=1 is TRANS_U=4,
 *                      WIDE=0 TRANS_U=2)
 *   BUDGET_KB          c'/d' scratch of a work item's sub-groups, KiB
 *   TRANS_LINES        lines of each system per TRANS tile (> 0)
 *   VEC_KT             rows per tile of layouts without a TRANS operand (> 0)
 *   PIPE, PIPE_ROWS    0: no pipelined work items; rows per pipelined step (> 0)
 *   PIPE_FAR           1: pipelined work items for VEC rows far apart too
 *   NT                 0: no non-temporal stores of x
 *   PREFETCH, PF_ROWS  software prefetch distance in tiles, or (if > 0) in rows
 *   PF_HINT            prefetch into 0 = L1, 1 = L2, 2 = prefetcht2, 3 = nta, 4 = prefetchw
 *   RUNS               0: x stored tile by tile (no row runs, no whole-line TRANS runs)
 *   FUSE               0: no fused sweep of all-TRANS layouts
 *   CHAIN              0/1: fused sweeps chained across work items, whatever the system size
 *   X_DIRECT           0: VEC x never streamed by the backward sweep itself
 *   PF_NEXT            0/1: prefetch of the next work item's first TRANS tile
 *   X_JOIN             0: unaligned TRANS x writes the lines two systems share in two parts */
typedef struct cpu_knob {
  int set;     /* the variable exists */
  long long v; /* its value (atoll) */
} cpu_knob;
typedef struct cpu_overrides {
  cpu_knob trans_u, vec_u, budget_kb, trans_lines, vec_kt, pipe, pipe_rows, pipe_far, nt,
      prefetch, pf_rows, pf_hint, runs, fuse, chain, x_direct, pf_next, x_join;
} cpu_overrides;

/* The knobs in effect: in TRIDI_CPU_TUNING builds every variable is read into *o, in other builds
 * none is set (a constant, so that the compiler drops the overrides).  Called once at the top of
 * each planning entry point (applies, init). */
#ifndef TRIDI_CPU_TUNING
static const cpu_overrides no_overrides;
#endif
static const cpu_overrides *read_overrides(cpu_overrides *o) {
#ifdef TRIDI_CPU_TUNING
  memset(o, 0, sizeof *o);
  const struct {
    const char *name;
    cpu_knob *knob;
  } knobs[] = {
      {"TRIDI_CPU_TRANS_U", &o->trans_u},     {"TRIDI_CPU_VEC_U", &o->vec_u},
      {"TRIDI_CPU_BUDGET_KB", &o->budget_kb}, {"TRIDI_CPU_TRANS_LINES", &o->trans_lines},
      {"TRIDI_CPU_VEC_KT", &o->vec_kt},       {"TRIDI_CPU_PIPE", &o->pipe},
      {"TRIDI_CPU_PIPE_ROWS", &o->pipe_rows}, {"TRIDI_CPU_PIPE_FAR", &o->pipe_far},
      {"TRIDI_CPU_NT", &o->nt},               {"TRIDI_CPU_PREFETCH", &o->prefetch},
      {"TRIDI_CPU_PF_ROWS", &o->pf_rows},     {"TRIDI_CPU_PF_HINT", &o->pf_hint},
      {"TRIDI_CPU_RUNS", &o->runs},           {"TRIDI_CPU_FUSE", &o->fuse},
      {"TRIDI_CPU_CHAIN", &o->chain},         {"TRIDI_CPU_X_DIRECT", &o->x_direct},
      {"TRIDI_CPU_PF_NEXT", &o->pf_next},     {"TRIDI_CPU_X_JOIN", &o->x_join},
  };
  for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; ++i) {
    const char *e = getenv(knobs[i].name);
    if (e) {
      knobs[i].knob->set = 1;
      knobs[i].knob->v = atoll(e);
    }
  }
  return o;
#else
  (void)o;
  return &no_overrides;
#endif
}

/* The lane dimension: the batch dim with the smallest nonzero |stride| of x
 * (the innermost such dim on ties); -1 when there is none. */
static int lane_dim_of(const tridi_layout *L) {
  int lane_dim = -1;
  int64_t best = 0;
  for (int j = 0; j < L->nbatch; ++j) {
    const int64_t sx = L->bstride[TRIDI_OP_X][j];
    const int64_t a = sx < 0 ? -sx : sx; /* |INT64_MIN| cannot be a valid stride here */
    if (a != 0 && (best == 0 || a <= best)) {
      best = a;
      lane_dim = j;
    }
  }
  return lane_dim;
}

/* Access class of operand k given the lane dimension. */
static tridi_cpu_class class_of(const tridi_layout *L, int lane_dim, int k) {
  if (lane_dim < 0) return k == TRIDI_OP_X ? TRIDI_CPU_GATHER : TRIDI_CPU_BCAST;
  const int64_t ls = L->bstride[k][lane_dim];
  if (ls == 1) return TRIDI_CPU_VEC;
  if (ls == 0) return k == TRIDI_OP_X ? TRIDI_CPU_GATHER : TRIDI_CPU_BCAST;
  if (L->axis_stride[k] == 1) return TRIDI_CPU_TRANS;
  return TRIDI_CPU_GATHER;
}

/* Layout facts that set the group width and the TRANS tile depth.
 * trans: some operand is TRANS; aligned: every TRANS operand's systems start
 * a multiple of 64 bytes apart (contiguous systems; padded rows are not);
 * inputs: a, b, c and d are all TRANS (the fused sweep applies). */
static void trans_facts(const struct tridi_plan_s *plan, int *trans, int *aligned, int *inputs) {
  const int ld = lane_dim_of(&plan->lay);
  *trans = 0;
  *aligned = 1;
  *inputs = 1;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (class_of(&plan->lay, ld, k) == TRIDI_CPU_TRANS) {
      *trans = 1;
      const int64_t ls = plan->lay.bstride[k][ld];
      if (((ls < 0 ? -ls : ls) * (int64_t)plan->esize) % 64 != 0) *aligned = 0;
    } else if (k != TRIDI_OP_X) {
      *inputs = 0;
    }
  *inputs = *inputs && *trans;
}

/* Vectors per row (U) of the AVX-512 group.  TRANS layouts (contiguous
 * systems) take one vector per row (16 f32 / 8 f64 lanes) where every TRANS
 * operand's systems are 64-byte aligned or a, b, c, d are all TRANS (then
 * with the fused sweep), the narrow group otherwise: the reads of a TRANS
 * tile are one short run per lane and operand, and the L2 streamer does not
 * follow 32 lanes x 4 operands of them (perf-log CPU v19, v20).  Other
 * layouts take TRIDI_CPU_UNROLL_AVX512. */
static int avx512_u_of(const struct tridi_plan_s *plan, const cpu_overrides *ov) {
  int trans, aligned, inputs;
  trans_facts(plan, &trans, &aligned, &inputs);
  int u = TRIDI_CPU_UNROLL_AVX512;
  if (trans) u = aligned || inputs ? 1 : TRIDI_CPU_UNROLL_AVX512_NARROW;
  const cpu_knob *k = trans ? &ov->trans_u : &ov->vec_u;
  if (k->set) {
    const int v = (int)k->v;
    if (v == 1 || v == TRIDI_CPU_UNROLL_AVX512_NARROW || v == TRIDI_CPU_UNROLL_AVX512) u = v;
  }
  return u;
}

/* Lanes per group G. */
static int lanes_of(const struct tridi_plan_s *plan, const cpu_overrides *ov) {
  const int u = plan->simd == TRIDI_SIMD_AVX512 ? avx512_u_of(plan, ov) : TRIDI_CPU_UNROLL;
  return (int)(64 / plan->esize) * u;
}
static int rows_of(const struct tridi_plan_s *plan) { return (int)(64 / plan->esize); }

static size_t round64(size_t b) { return (b + 63) & ~(size_t)63; }

/* Per-thread scratch bytes for G = lanes, S sub-groups and tiles of KT rows: 4 tiles of KT x G
 * (a, b, c, d), one of KT x S G (x), two of KT x G (staging for unaligned TRANS x), 4 of KT x G
 * (the next a, b, c, d tiles of the fused sweep), 4 more of KT x G (the next work item's first
 * tiles while the tail of this one waits in the second set), S x TRIDI_CPU_STATE G of sweep state,
 * S x n x 2G of c'/d'.
 * 0 on size_t overflow. */
static size_t scratch_bytes(const struct tridi_plan_s *plan, int lanes, int S, int KT) {
  const size_t G = (size_t)lanes, K = (size_t)KT, es = plan->esize;
  const uint64_t n = (uint64_t)plan->lay.n;
  if (n > (SIZE_MAX / 4) / (2 * G * es * (size_t)S)) return 0;
  return round64(((14 + (size_t)S) * K * G + TRIDI_CPU_STATE * G * (size_t)S +
                   2 * (size_t)n * G * (size_t)S) *
                 es);
}

const char *tridi_cpu_thomas_applies(const struct tridi_plan_s *plan) {
  cpu_overrides knobs;
  const cpu_overrides *ov = read_overrides(&knobs);
  if (plan->requested_alg == TRIDI_ALG_AUTO) {
    const int G = lanes_of(plan, ov);
    /* Fewer systems than one group of lanes, or c'/d' scratch beyond
     * TRIDI_CPU_SCRATCH_MAX per thread (a few very long systems): the scalar
     * solver over systems (cpu_thomas_ref) does as well with n elements of
     * scratch.  The rule must not depend on the thread count, so that the
     * same problem gives the same bits with any number of threads. */
    if (plan->lay.nsys < (int64_t)G) return "fewer systems than one group of lanes";
    const size_t scr = scratch_bytes(plan, G, 1, rows_of(plan));
    if (scr == 0 || scr > TRIDI_CPU_SCRATCH_MAX) return "c'/d' scratch above 64 MiB per thread";
  }
  return NULL;
}

/* The kernel's name (see cpu_thomas.h). */
void tridi_cpu_kernel_name(struct tridi_plan_s *plan, const tridi_cpu_thomas_priv *P,
                           const char *row, const char *simd, int group) {
  const char *kind = P->cls[TRIDI_OP_X] == TRIDI_CPU_TRANS ? "transpose"
                     : P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC ? "vector"
                                                           : "gather";
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "%s_%s_%s_%s_g%d", row, kind, simd,
           plan->dtype == TRIDI_F32 ? "f32" : "f64", group);
}

/* The layout part of the plan (see cpu_thomas.h). */
void tridi_cpu_layout_priv(const struct tridi_plan_s *plan, tridi_cpu_thomas_priv *P) {
  const tridi_layout *L = &plan->lay;
  P->n = L->n;
  P->lane_dim = lane_dim_of(L);
  P->lane_ext = P->lane_dim >= 0 ? L->bext[P->lane_dim] : 1;
  /* system-number step of each batch dim (row-major over bext) */
  int64_t sysmul[TRIDI_MAX_RANK];
  int64_t m = 1;
  for (int j = L->nbatch - 1; j >= 0; --j) {
    sysmul[j] = m;
    m *= L->bext[j];
  }
  P->lane_sys = P->lane_dim >= 0 ? sysmul[P->lane_dim] : 0;
  P->nodims = 0;
  P->nouter = 1;
  for (int j = 0; j < L->nbatch; ++j) {
    if (j == P->lane_dim) continue;
    const int o = P->nodims++;
    P->oext[o] = L->bext[j];
    P->osys[o] = sysmul[j];
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) P->ostride[k][o] = L->bstride[k][j];
    P->nouter *= L->bext[j];
  }

  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    P->astride[k] = L->axis_stride[k];
    P->lstride[k] = P->lane_dim >= 0 ? L->bstride[k][P->lane_dim] : 0;
    P->cls[k] = class_of(L, P->lane_dim, k);
  }
  P->sub = 1;
}

int tridi_cpu_subgroups(const tridi_cpu_thomas_priv *P, int G, size_t sub_bytes, int far, int cap) {
  cpu_overrides knobs;
  const cpu_overrides *ov = read_overrides(&knobs);
  size_t budget = far ? TRIDI_CPU_SCRATCH_BUDGET_FAR : TRIDI_CPU_SCRATCH_BUDGET;
  if (ov->budget_kb.set) budget = (size_t)ov->budget_kb.v << 10;
  const int64_t maxsub = (P->lane_ext + G - 1) / G;
  int sub = 1;
  while (sub < cap && sub < maxsub && (size_t)(sub + 1) * sub_bytes <= budget) ++sub;
  return sub;
}

tridi_status tridi_cpu_thomas_init(struct tridi_plan_s *plan) {
  cpu_overrides knobs;
  const cpu_overrides *ov = read_overrides(&knobs);
  const tridi_layout *L = &plan->lay;
  const int G = lanes_of(plan, ov);
  if (scratch_bytes(plan, G, 1, rows_of(plan)) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: cpu_thomas needs n x %d x 2 elements of scratch per "
                           "thread; n = %lld is too large",
                           G, (long long)L->n);
  tridi_cpu_thomas_priv *P = calloc(1, sizeof *P);
  if (!P) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  tridi_cpu_layout_priv(plan, P);

  /* Sub-groups: where rows are contiguous across lanes (VEC), sweep S
   * neighbouring groups tile by tile together, so that each row is read as
   * one run of S x 64 bytes per operand (whole pages for a middle axis, far
   * fewer page and stream switches for interleaved data), as long as their
   * c'/d' scratch fits the budget. */
  int64_t minrow = -1; /* bytes between the rows of the closest VEC operand */
  for (int k = 0; k < 4; ++k)
    if (P->cls[k] == TRIDI_CPU_VEC) {
      const int64_t as = P->astride[k] < 0 ? -P->astride[k] : P->astride[k];
      const int64_t r = as * (int64_t)plan->esize;
      if (minrow < 0 || r < minrow) minrow = r;
    }
  P->sub = 1;
  if (P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC)
    P->sub = tridi_cpu_subgroups(P, G, (size_t)L->n * 2 * (size_t)G * plan->esize,
                                 minrow >= TRIDI_CPU_FAR_ROW_BYTES, TRIDI_CPU_MAX_SUB);
  /* TRANS operands: tiles of R x K rows, so that each visit of a system
   * reads R consecutive lines (see docs/perf-log.md) */
  const int near_rows = minrow >= 0 && minrow < TRIDI_CPU_FAR_ROW_BYTES;
  int trans, trans_al, trans_in;
  trans_facts(plan, &trans, &trans_al, &trans_in);
  P->tile_rows = rows_of(plan);
  if (trans) {
    const int lines = trans_al ? TRIDI_CPU_TRANS_LINES_ALIGNED : TRIDI_CPU_TRANS_LINES;
    P->tile_rows = rows_of(plan) * lines;
  } else if (minrow >= TRIDI_CPU_FAR_ROW_BYTES) {
    P->tile_rows = TRIDI_CPU_VEC_FAR_ROWS;
  } else if (P->sub > 1 && near_rows) {
    /* S sub-groups of rows close together (a middle axis): half tiles, so that
     * the sub-groups take turns in smaller steps along each operand's stream
     * (docs/perf-log.md, v12) */
    P->tile_rows = rows_of(plan) / 2;
  }
  if (ov->trans_lines.set && (int)ov->trans_lines.v > 0 && trans)
    P->tile_rows = rows_of(plan) * (int)ov->trans_lines.v;
  if (ov->vec_kt.set && (int)ov->vec_kt.v > 0 && !trans) P->tile_rows = (int)ov->vec_kt.v;
  /* Software pipelining of work items (perf-log CPU v24): every operand VEC,
   * rows close together (a middle axis); two c'/d' scratches and sweep states. */
  {
    int all_vec = 1, pipe_far = 0; /* pipe_far: far rows too (tuning only) */
    P->pipe_rows = TRIDI_CPU_PIPE_ROWS;
    if (ov->pipe_far.set) pipe_far = (int)ov->pipe_far.v;
    if (ov->pipe_rows.set && (int)ov->pipe_rows.v > 0) P->pipe_rows = (int)ov->pipe_rows.v;
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
      if (P->cls[k] != TRIDI_CPU_VEC) all_vec = 0;
    const uint64_t two =
        2 * (uint64_t)P->sub * (uint64_t)L->n * 2 * (uint64_t)G * (uint64_t)plan->esize;
    P->pipe = all_vec && (near_rows || pipe_far) && plan->simd == TRIDI_SIMD_AVX512 &&
              two <= TRIDI_CPU_PIPE_SCRATCH;
    if (ov->pipe.set) P->pipe = P->pipe && (int)ov->pipe.v;
  }
  const size_t scr = scratch_bytes(plan, G, P->pipe ? 2 * P->sub : P->sub, P->tile_rows);
  const size_t ws = scr ? tridi_run_systems_ws_bytes(plan, scr) : 0;
  if (ws == 0) {
    free(P);
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: cpu_thomas workspace overflows");
  }
  P->ngroups = (P->lane_ext + (int64_t)G * P->sub - 1) / ((int64_t)G * P->sub);
  P->nwork = P->nouter * P->ngroups;

  const int64_t xbytes = L->n * (int64_t)plan->esize; /* per system; product may overflow */
  P->nt_stores = (P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC || P->cls[TRIDI_OP_X] == TRIDI_CPU_TRANS) &&
                 plan->simd != TRIDI_SIMD_PORTABLE && xbytes > 0 &&
                 L->nsys >= TRIDI_CPU_NT_BYTES / xbytes;
  /* TRANS tiles are R lines deep already: one tile ahead is far enough; else
   * TRIDI_CPU_PREFETCH_TILES full tiles (K rows) ahead */
  P->prefetch = P->tile_rows > rows_of(plan)
                    ? 1
                    : (TRIDI_CPU_PREFETCH_TILES * rows_of(plan) + P->tile_rows - 1) / P->tile_rows;
  /* VEC rows close together (a middle axis): the hardware prefetchers follow
   * them, and software prefetches only cost issue slots and miss buffers
   * (perf-log CPU v10, v14) */
  if (!trans && near_rows) P->prefetch = 0;
  /* Software prefetches fill L2 (prefetcht1) rather than L1, which leaves the
   * L1 fill buffers to the demand loads: for TRANS operands (many line streams)
   * and for VEC rows a page or more apart (interleaved data), which the L2
   * streamer does not follow.  VEC rows closer together (a middle axis) keep
   * prefetcht0 (perf-log CPU v9, v11). */
  P->pf_hint = trans || minrow >= TRIDI_CPU_FAR_ROW_BYTES;
  if (ov->nt.set) P->nt_stores = P->nt_stores && (int)ov->nt.v;
  if (ov->prefetch.set) P->prefetch = (int)ov->prefetch.v;
  if (ov->pf_rows.set) P->pf_rows = (int)ov->pf_rows.v;
  if (ov->runs.set) P->no_runs = !(int)ov->runs.v;
  if (ov->x_join.set) P->no_join = !(int)ov->x_join.v;
  if (ov->pf_hint.set) P->pf_hint = (int)ov->pf_hint.v;
  P->pf_dist = P->pf_rows > 0 ? (int64_t)P->pf_rows : (int64_t)P->prefetch * P->tile_rows;
  /* a, b, c, d all TRANS: the forward sweep loads the next tile as it goes
   * (forward_tt, AVX-512 only), with the one-vector group (avx512_u_of;
   * perf-log CPU v14, v20) */
  P->fuse = trans_in;
  /* ... and, for systems of at most TRIDI_CPU_CHAIN_BYTES that are a whole
   * number of tiles, one group a work item, across work items: the last
   * tile's sweep loads the next item's first tile (prefetched when the item
   * starts) */
  int chain = L->n * (int64_t)plan->esize <= TRIDI_CPU_CHAIN_BYTES;
  /* VEC x streamed by the backward sweep (perf-log CPU v23): non-temporal
   * stores, rows a multiple of 64 bytes apart (the kernel checks where each
   * run starts) */
  const int64_t xrow = P->astride[TRIDI_OP_X] < 0 ? -P->astride[TRIDI_OP_X] : P->astride[TRIDI_OP_X];
  int x_direct = 1;
  if (ov->fuse.set) P->fuse = trans_in && (int)ov->fuse.v;
  if (ov->chain.set) chain = (int)ov->chain.v;
  if (ov->x_direct.set) x_direct = (int)ov->x_direct.v;
  /* a whole number of tiles (the last tile's sweep loads the next item's first tile), or more
   * than one tile (the last full tile's sweep does, and the partial tail waits in a tile set of
   * its own) */
  P->chain = chain && P->fuse && P->sub == 1 && (L->n % P->tile_rows == 0 || L->n > P->tile_rows);
  P->x_direct = x_direct && P->nt_stores && P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC &&
                (xrow * (int64_t)plan->esize) % 64 == 0;
  /* Short systems on TRANS layouts: a work item's first tile is prefetched by
   * the item before it (before its backward sweep), since its own prefetches
   * run only one tile ahead and a short system has one or two tiles
   * (perf-log CPU v16) */
  P->pf_next = trans && L->n * (int64_t)plan->esize <= TRIDI_CPU_PF_NEXT_BYTES;
  if (ov->pf_next.set) P->pf_next = (int)ov->pf_next.v;
  P->scratch_bytes = scr;
  P->growth = plan->growth;

  const int f32 = plan->dtype == TRIDI_F32;
  const char *simd = "portable";
  P->kernel = f32 ? tridi_cpu_thomas_kernel_portable_f32 : tridi_cpu_thomas_kernel_portable_f64;
  switch (plan->simd) {
#ifdef TRIDI_CPU_HAVE_AVX512
    case TRIDI_SIMD_AVX512:
      simd = "avx512";
      if (G == 64 / (int)plan->esize * TRIDI_CPU_UNROLL_AVX512_NARROW)
        P->kernel = f32 ? tridi_cpu_thomas_kernel_avx512n_f32 : tridi_cpu_thomas_kernel_avx512n_f64;
      else if (G == 64 / (int)plan->esize)
        P->kernel = f32 ? tridi_cpu_thomas_kernel_avx512s_f32 : tridi_cpu_thomas_kernel_avx512s_f64;
      else
        P->kernel = f32 ? tridi_cpu_thomas_kernel_avx512_f32 : tridi_cpu_thomas_kernel_avx512_f64;
      break;
#endif
#ifdef TRIDI_CPU_HAVE_AVX2
    case TRIDI_SIMD_AVX2:
      simd = "avx2";
      P->kernel = f32 ? tridi_cpu_thomas_kernel_avx2_f32 : tridi_cpu_thomas_kernel_avx2_f64;
      break;
#endif
    default: break;
  }
  tridi_cpu_kernel_name(plan, P, "cpu_thomas", simd, G * P->sub);
  plan->ws_bytes = ws;
  plan->priv = P;
  return TRIDI_SUCCESS;
}

/* the work items [w0, w1) of one thread: its share of the groups */
static void run_items(const struct tridi_plan_s *plan, const tridi_args *args, const void *ctx,
                      int64_t w0, int64_t w1, void *work, tridi_fail_slot *slot) {
  const tridi_cpu_thomas_priv *P = (const tridi_cpu_thomas_priv *)ctx;
  P->kernel(plan, P, args, w0, w1, work, slot);
}

tridi_status tridi_cpu_thomas_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  const tridi_cpu_thomas_priv *P = (const tridi_cpu_thomas_priv *)plan->priv;
  return tridi_run_ranges(plan, args, P->nwork, run_items, P, P->scratch_bytes);
}

void tridi_cpu_thomas_destroy(struct tridi_plan_s *plan) {
  free(plan->priv);
  plan->priv = NULL;
}
