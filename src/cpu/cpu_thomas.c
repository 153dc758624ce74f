/* The cpu_thomas solver row: plan-time choice of the lane dimension, the
 * per-operand loaders/storers and the kernel variant; execute runs the
 * kernel over lane groups with a static OpenMP schedule. */
#include "cpu_thomas.h"
#include "backends.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* x is written with non-temporal stores when it is at least this large:
 * then it would not stay in cache for the caller anyway, and streaming
 * saves the read-for-ownership of every line (5 instead of 6 words of
 * traffic per unknown).  See docs/perf-log.md. */
#define TRIDI_CPU_NT_BYTES ((int64_t)64 << 20)
/* Software prefetch distance for the transposed (contiguous-system) and
 * strided-vector layouts, in tiles (KT rows).  See docs/perf-log.md. */
#define TRIDI_CPU_PREFETCH_TILES 2

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

/* AVX-512 group of a TRANS layout (contiguous systems): one vector per row
 * (16 f32 / 8 f64 lanes) where every TRANS operand's systems are 64-byte
 * aligned or a, b, c, d are all TRANS (then with the fused sweep); the narrow
 * group (U = 2) otherwise.  The reads of a TRANS tile are one short run per
 * lane and operand; with 32 lanes x 4 operands the L2 streamer does not
 * follow them (`tridi_membench --tlanes 32` reads 51-61% of copy, 16 lanes
 * 69-72% at n >= 1024, Intel Xeon).  perf-log CPU v19/v20, `tridi ab` on the
 * Intel Xeon VM against U = 2: contig f32 (fused) x1.08-1.23, f64 x1.06-1.18;
 * padded (fused) f32 x1.07-1.31, f64 x1.07-1.21. */

/* Vectors per row (U) of the AVX-512 group: 4 (VEC layouts), 2 or 1 (TRANS). */
static int avx512_u_of(const struct tridi_plan_s *plan) {
  int trans, aligned, inputs;
  trans_facts(plan, &trans, &aligned, &inputs);
  int u = TRIDI_CPU_UNROLL_AVX512;
  if (trans) u = aligned || inputs ? 1 : TRIDI_CPU_UNROLL_AVX512_NARROW;
#ifdef TRIDI_CPU_TUNING
  /* 1, 2 or 4 vectors per row, for TRANS layouts / for the others (TRANS_U
   * replaces the WIDE knob of perf-log v13-v17: WIDE=1 is TRANS_U=4, WIDE=0 TRANS_U=2) */
  const char *e = getenv(trans ? "TRIDI_CPU_TRANS_U" : "TRIDI_CPU_VEC_U");
  if (e) {
    const int v = atoi(e);
    if (v == 1 || v == TRIDI_CPU_UNROLL_AVX512_NARROW || v == TRIDI_CPU_UNROLL_AVX512) u = v;
  }
#endif
  return u;
}

static int lanes_of(const struct tridi_plan_s *plan) {
  const int u = plan->simd == TRIDI_SIMD_AVX512 ? avx512_u_of(plan) : TRIDI_CPU_UNROLL;
  return (int)(64 / plan->esize) * u;
}
static int rows_of(const struct tridi_plan_s *plan) { return (int)(64 / plan->esize); }

static size_t round64(size_t b) { return (b + 63) & ~(size_t)63; }

/* Per-thread scratch bytes for S sub-groups and tiles of KT rows: 4 tiles of KT x G (a, b, c, d),
 * one of KT x S G (x), two of KT x G (staging for unaligned TRANS x), 4 of KT x G (the next
 * a, b, c, d tiles of the fused sweep), S x 4G of sweep state, S x n x 2G of c'/d'.  0 on size_t
 * overflow. */
static size_t scratch_bytes(const struct tridi_plan_s *plan, int S, int KT) {
  const size_t G = (size_t)lanes_of(plan), K = (size_t)KT, es = plan->esize;
  const uint64_t n = (uint64_t)plan->lay.n;
  if (n > (SIZE_MAX / 4) / (2 * G * es * (size_t)S)) return 0;
  return round64(((10 + (size_t)S) * K * G + 4 * G * (size_t)S + 2 * (size_t)n * G * (size_t)S) *
                 es);
}

/* c'/d' scratch a thread may use for the sub-groups of a VEC work item whose
 * rows are less than 4 KiB apart (a middle axis).  Wider row runs (more
 * sub-groups) beat keeping c'/d' in L2 there: 4 MiB measured 12-28% faster
 * than 1 MiB for the f64 middle axis at n >= 1024 on the first Intel VM
 * (docs/perf-log.md, v8), and 512 KiB x0.87-0.95 on the Intel Xeon (v21). */
#define TRIDI_CPU_SCRATCH_BUDGET ((size_t)4 << 20)
/* Rows 4 KiB or more apart (interleaved data): at most this much c'/d' per
 * work item, so that it stays in L2.  Against 4 MiB (the rule before, chosen
 * on earlier hosts, perf-log v9/v13), `tridi ab` on the Intel Xeon VM (2 MB
 * L2): f32 x1.06-1.35, f64 x1.06-1.26 at n >= 128; 256 KiB x1.02-1.07 over
 * 512 KiB at n = 128-512 (perf-log CPU v21).  Fewer lanes a group instead
 * (U = 2 or 1) measured x0.88-1.01 / x0.60-0.70. */
#define TRIDI_CPU_SCRATCH_BUDGET_FAR ((size_t)256 << 10)
/* Lines of each system a TRANS tile reads per visit: 2 where the systems are
 * 64-byte aligned (the five tiles then take 20 KB of a 32 KB L1D at f32 with
 * the narrow group; 4 lines took 40 KB; with one vector per row, 4 lines were
 * x0.95 on the Intel Xeon, perf-log CPU v19), 4 for padded rows (their unaligned
 * loads touch R + 1 lines per R, and 2 lines cost f64 12-27%).  Measured on
 * Zen 4, perf-log CPU v13: aligned f32 n >= 128 x1.06-x1.18, f64 n <= 256
 * x1.14-x1.16, f64 n >= 1024 x1.00. */
#define TRIDI_CPU_TRANS_LINES_ALIGNED 2
#define TRIDI_CPU_TRANS_LINES 4
/* VEC rows a page or more apart (interleaved data): tiles of this many rows
 * (f64: 2 K; f32: K), so each page visit reads a longer run of rows (Zen 4,
 * perf-log CPU v13: f64 x1.02-x1.07; KT = K before). */
#define TRIDI_CPU_VEC_FAR_ROWS 16
/* Fused TRANS systems of at most this many bytes: the last tile's sweep of a
 * work item loads the next item's first tile.  Intel Xeon VM, perf-log CPU
 * v22: contig f32 n = 64 / 128 x1.07 / x1.02, padded f32 n = 64 / 128 / 256
 * x1.13 / x1.08 / x1.03, padded f64 n = 64 x1.09; systems of 2 KiB or more
 * x0.96-1.01. */
#define TRIDI_CPU_CHAIN_BYTES 1024
/* Software-pipelined work items (all VEC, rows < 4 KiB apart) where their
 * two c'/d' scratches take at most this many bytes.  Intel Xeon VM (2 MB L2),
 * perf-log CPU v24: middle axis f32 n = 64-768 x1.05-1.10, f64 n = 64-256
 * x1.07-1.08; two scratches of 1 MiB (f32 n = 1024) x1.00. */
#define TRIDI_CPU_PIPE_SCRATCH ((uint64_t)768 << 10)
/* TRANS systems of at most this many bytes: prefetch the next work item's first tile. */
#define TRIDI_CPU_PF_NEXT_BYTES 4096
/* Beyond this much scratch per thread, AUTO prefers cpu_thomas_ref. */
#define TRIDI_CPU_SCRATCH_MAX ((size_t)64 << 20)

const char *tridi_cpu_thomas_applies(const struct tridi_plan_s *plan) {
  if (plan->requested_alg == TRIDI_ALG_AUTO) {
    /* Fewer systems than one group of lanes, or c'/d' scratch beyond
     * TRIDI_CPU_SCRATCH_MAX per thread (a few very long systems): the scalar
     * solver over systems (cpu_thomas_ref) does as well with n elements of
     * scratch.  The rule must not depend on the thread count, so that the
     * same problem gives the same bits with any number of threads. */
    if (plan->lay.nsys < (int64_t)lanes_of(plan)) return "fewer systems than one group of lanes";
    const size_t scr = scratch_bytes(plan, 1, rows_of(plan));
    if (scr == 0 || scr > TRIDI_CPU_SCRATCH_MAX) return "c'/d' scratch above 64 MiB per thread";
  }
  return NULL;
}

tridi_status tridi_cpu_thomas_init(struct tridi_plan_s *plan) {
  const tridi_layout *L = &plan->lay;
  const int G = lanes_of(plan);
  if (scratch_bytes(plan, 1, rows_of(plan)) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: cpu_thomas needs n x %d x 2 elements of scratch per "
                           "thread; n = %lld is too large",
                           G, (long long)L->n);
  tridi_cpu_thomas_priv *P = calloc(1, sizeof *P);
  if (!P) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
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
  if (P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC) {
    size_t budget = minrow >= 4096 ? TRIDI_CPU_SCRATCH_BUDGET_FAR : TRIDI_CPU_SCRATCH_BUDGET;
#ifdef TRIDI_CPU_TUNING
    const char *e = getenv("TRIDI_CPU_BUDGET_KB");
    if (e) budget = (size_t)atoll(e) << 10;
#endif
    const int64_t maxsub = (P->lane_ext + G - 1) / G;
    while (P->sub < TRIDI_CPU_MAX_SUB && P->sub < maxsub &&
           (size_t)(P->sub + 1) * (size_t)L->n * 2 * (size_t)G * plan->esize <= budget)
      ++P->sub;
  }
  /* TRANS operands: tiles of R x K rows, so that each visit of a system
   * reads R consecutive lines (see docs/perf-log.md) */
  const int near_rows = minrow >= 0 && minrow < 4096;
  int trans, trans_al, trans_in;
  trans_facts(plan, &trans, &trans_al, &trans_in);
  P->tile_rows = rows_of(plan);
  if (trans) {
    const int lines = trans_al ? TRIDI_CPU_TRANS_LINES_ALIGNED : TRIDI_CPU_TRANS_LINES;
    P->tile_rows = rows_of(plan) * lines;
  } else if (minrow >= 4096) {
    P->tile_rows = TRIDI_CPU_VEC_FAR_ROWS;
  } else if (P->sub > 1 && near_rows) {
    /* S sub-groups of rows close together (a middle axis): half tiles, so that
     * the sub-groups take turns in smaller steps along each operand's stream
     * (docs/perf-log.md, v12) */
    P->tile_rows = rows_of(plan) / 2;
  }
#ifdef TRIDI_CPU_TUNING
  {
    const char *e = getenv("TRIDI_CPU_TRANS_LINES");
    if (e && atoi(e) > 0 && trans) P->tile_rows = rows_of(plan) * atoi(e);
    e = getenv("TRIDI_CPU_VEC_KT");
    if (e && atoi(e) > 0 && !trans) P->tile_rows = atoi(e);
  }
#endif
  /* Software pipelining of work items (perf-log CPU v24): every operand VEC,
   * rows close together (a middle axis); two c'/d' scratches and sweep states. */
  {
    int all_vec = 1, pipe_far = 0; /* pipe_far: rows >= 4 KiB apart too (tuning only) */
    P->pipe_rows = 4;
#ifdef TRIDI_CPU_TUNING
    const char *e = getenv("TRIDI_CPU_PIPE_FAR");
    if (e) pipe_far = atoi(e);
    e = getenv("TRIDI_CPU_PIPE_ROWS");
    if (e && atoi(e) > 0) P->pipe_rows = atoi(e);
#endif
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
      if (P->cls[k] != TRIDI_CPU_VEC) all_vec = 0;
    const uint64_t two =
        2 * (uint64_t)P->sub * (uint64_t)L->n * 2 * (uint64_t)G * (uint64_t)plan->esize;
    P->pipe = all_vec && (near_rows || pipe_far) && plan->simd == TRIDI_SIMD_AVX512 &&
              two <= TRIDI_CPU_PIPE_SCRATCH;
#ifdef TRIDI_CPU_TUNING
    e = getenv("TRIDI_CPU_PIPE");
    if (e) P->pipe = P->pipe && atoi(e);
#endif
  }
  const size_t scr = scratch_bytes(plan, P->pipe ? 2 * P->sub : P->sub, P->tile_rows);
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
  /* VEC rows closer than 4 KiB (a middle axis): the hardware prefetchers follow
   * them, and software prefetches only cost issue slots and miss buffers
   * (Zen 4, perf-log CPU v14: mid3d f32 x1.08-1.31, f64 x1.07-1.11 without
   * them; on the Intel host of v10, x1.01-1.05) */
  if (!trans && near_rows) P->prefetch = 0;
  /* Software prefetches fill L2 (prefetcht1) rather than L1, which leaves the
   * L1 fill buffers to the demand loads: for TRANS operands (many line streams)
   * and for VEC rows a page or more apart (interleaved data), which the L2
   * streamer does not follow.  VEC rows closer together (a middle axis) keep
   * prefetcht0 (docs/perf-log.md, v9 and v11). */
  P->pf_hint = trans || minrow >= 4096;
#ifdef TRIDI_CPU_TUNING
  {
    const char *e = getenv("TRIDI_CPU_NT");
    if (e) P->nt_stores = P->nt_stores && atoi(e);
    e = getenv("TRIDI_CPU_PREFETCH");
    if (e) P->prefetch = atoi(e);
    e = getenv("TRIDI_CPU_PF_ROWS");
    if (e) P->pf_rows = atoi(e);
    e = getenv("TRIDI_CPU_RUNS");
    if (e) P->no_runs = !atoi(e);
    e = getenv("TRIDI_CPU_PF_HINT");
    if (e) P->pf_hint = atoi(e);
  }
#endif
  P->pf_dist = P->pf_rows > 0 ? (int64_t)P->pf_rows : (int64_t)P->prefetch * P->tile_rows;
  /* a, b, c, d all TRANS: the forward sweep loads the next tile as it goes
   * (forward_tt, AVX-512 only), with the one-vector group (avx512_u_of).
   * Intel Xeon VM, perf-log CPU v20: f32 contig x1.08-1.23, padded f32
   * x1.07-1.31 and f64 x1.07-1.21 against the unfused plans (on Zen 4, v14,
   * only aligned f64 gained: there f32 ran it with 32 lanes and index-vector
   * transposes, and GCC spilled the sweep state). */
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
#ifdef TRIDI_CPU_TUNING
  {
    const char *e = getenv("TRIDI_CPU_FUSE");
    if (e) P->fuse = trans_in && atoi(e);
    e = getenv("TRIDI_CPU_CHAIN");
    if (e) chain = atoi(e);
    e = getenv("TRIDI_CPU_X_DIRECT");
    if (e) x_direct = atoi(e);
  }
#endif
  P->chain = chain && P->fuse && P->sub == 1 && L->n % P->tile_rows == 0;
  P->x_direct = x_direct && P->nt_stores && P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC &&
                (xrow * (int64_t)plan->esize) % 64 == 0;
  /* Short systems on TRANS layouts: a work item's first tile is prefetched by
   * the item before it (before its backward sweep), since its own prefetches
   * run only one tile ahead and a short system has one or two tiles.  Zen 4,
   * perf-log CPU v16: n * sizeof(T) <= 4 KiB x1.03-1.80 (f32 n = 64 x1.72 /
   * x1.80), longer systems x0.96-1.03. */
  P->pf_next = trans && L->n * (int64_t)plan->esize <= TRIDI_CPU_PF_NEXT_BYTES;
#ifdef TRIDI_CPU_TUNING
  {
    const char *e = getenv("TRIDI_CPU_PF_NEXT");
    if (e) P->pf_next = atoi(e);
  }
#endif
  P->scratch_bytes = scr;

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
  const char *kind = P->cls[TRIDI_OP_X] == TRIDI_CPU_TRANS ? "transpose"
                     : P->cls[TRIDI_OP_X] == TRIDI_CPU_VEC ? "vector"
                                                           : "gather";
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_thomas_%s_%s_%s_g%d", kind, simd,
           f32 ? "f32" : "f64", G * P->sub);
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
