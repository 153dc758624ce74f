/* Internal to src/cpu: the execution strategy that tridi_cpu_thomas_init
 * precomputes (plan->priv) and the per-ISA kernel entry points.
 *
 * The SIMD Thomas kernel (cpu_thomas_kernel.inc; cpu_thomas_body.inc lists
 * the files it is made of) is one source compiled once per ISA (portable/,
 * avx2/, avx512/ hold the wrappers that define the name suffix; only those
 * objects get ISA flags).  Each wrapper defines, for f32
 * and f64, a function that solves a range of "work items" (lane groups) on
 * the calling thread; cpu_thomas.c owns the OpenMP region around them. */
#ifndef TRIDI_CPU_THOMAS_H
#define TRIDI_CPU_THOMAS_H

#include "backends.h"

/* TRIDI_CPU_UNROLL* (vectors per row of each kernel build), TRIDI_CPU_MAX_SUB and the planner's
 * other constants.  The AVX-512 kernel is built three times: U = TRIDI_CPU_UNROLL_AVX512 (VEC
 * layouts), U = TRIDI_CPU_UNROLL_AVX512_NARROW (suffix avx512n) and U = 1 (suffix avx512s) for
 * layouts with a TRANS operand (see avx512_u_of in cpu_thomas.c). */
#include "tuning.h"

/* Vectors of G lanes of sweep state per sub-group: forward c', d', check
 * value, max N_i, max D_i (the growth indicator); backward x, check value. */
#define TRIDI_CPU_STATE 5

/* How one operand's lane dimension is laid out (see cpu_thomas_kernel.inc). */
typedef enum tridi_cpu_class {
  TRIDI_CPU_VEC = 0,    /* lane stride 1: row i of G systems is one contiguous vector */
  TRIDI_CPU_BCAST = 1,  /* lane stride 0: one value per row shared by all lanes */
  TRIDI_CPU_TRANS = 2,  /* axis stride 1: each lane is contiguous; G x G in-register transposes */
  TRIDI_CPU_GATHER = 3  /* anything else: scalar loads/stores with both strides */
} tridi_cpu_class;

struct tridi_cpu_thomas_priv;

/* Solve work items [w0, w1) on the calling thread.  scratch: this thread's
 * slice of the workspace (priv->scratch_bytes, 64-byte aligned). */
typedef void (*tridi_cpu_kernel_fn)(const struct tridi_plan_s *plan,
                                    const struct tridi_cpu_thomas_priv *P, const tridi_args *args,
                                    int64_t w0, int64_t w1, void *scratch, tridi_fail_slot *fail);

typedef struct tridi_cpu_thomas_priv {
  int64_t n;            /* system length (>= 1) */
  int lane_dim;         /* batch dim of the lanes (index into lay.bext), -1 if nbatch == 0 */
  int64_t lane_ext;     /* extent of the lane dim (1 if none) */
  int64_t lane_sys;     /* system-number step between neighbouring lanes */
  int tile_rows;        /* KT: rows per tile (K, or R x K when an operand is TRANS) */
  int sub;              /* S: sub-groups of G lanes per work item (1..TRIDI_CPU_MAX_SUB) */
  int64_t ngroups;      /* work items per outer index = ceil(lane_ext / (S G)) */
  int64_t nouter;       /* product of the other batch extents */
  int64_t nwork;        /* nouter * ngroups */
  int nodims;           /* outer dims (batch dims other than lane_dim) */
  int64_t oext[TRIDI_MAX_RANK];
  int64_t osys[TRIDI_MAX_RANK];                         /* system-number step per outer dim */
  int64_t ostride[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];  /* element stride per outer dim */
  int64_t lstride[TRIDI_NUM_OPERANDS];                  /* lane stride per operand */
  int64_t astride[TRIDI_NUM_OPERANDS];                  /* axis stride per operand */
  tridi_cpu_class cls[TRIDI_NUM_OPERANDS];
  int nt_stores;        /* x may be written with non-temporal stores (large problems) */
  int prefetch;         /* software prefetch distance in tiles (0 = none) */
  int pf_rows;          /* if > 0: prefetch distance in rows instead (tuning only) */
  int64_t pf_dist;      /* the prefetch distance in rows the kernel uses (from the two above) */
  int pf_hint;          /* prefetch into 0 = L1 (prefetcht0), 1 = L2 (prefetcht1); tuning also
                           2 = t2, 3 = nta, 4 = prefetchw */
  int no_runs;          /* tuning only: x stored tile by tile (no row runs or aligned TRANS runs) */
  int no_join;          /* tuning only: the lines two systems share written in two parts */
  int fuse;             /* a, b, c, d all TRANS: the forward sweep loads the next tile (AVX-512) */
  int chain;            /* fused sweep, S = 1, n a multiple of tile_rows or more than one tile:
                           the last full tile's sweep loads the next work item's first tile */
  int x_direct;         /* VEC x written non-temporally, rows a multiple of 64 bytes apart: the
                           backward sweep streams x itself where the run starts on a line */
  int pipe;             /* all VEC: the backward sweep of one work item alternates every
                           pipe_rows rows with the forward sweep of the next (AVX-512) */
  int pipe_rows;
  int pf_next;          /* prefetch the next work item's first TRANS tiles before the backward sweep */
  int growth;           /* flag growth (plan->growth): TRIDI_INFO_INACCURATE */
  size_t scratch_bytes; /* per thread, multiple of 64 */
  tridi_cpu_kernel_fn kernel;
} tridi_cpu_thomas_priv;

/* The layout part of a plan, shared with the pivoting kernel (src/cpu/pivot/):
 * n, the lane dimension (the batch dim with the smallest nonzero |stride|
 * of x) and its extent and system step, the outer dims, every operand's
 * axis and lane strides and access class; sub = 1.  The caller sets the
 * rest (group width, tiles, work items, scratch, kernel). */
void tridi_cpu_layout_priv(const struct tridi_plan_s *plan, tridi_cpu_thomas_priv *P);

/* Sub-groups of G lanes a work item takes (x's lanes contiguous): the most,
 * up to cap and to the lane extent, whose scratch of sub_bytes each fits the
 * budget (TRIDI_CPU_SCRATCH_BUDGET, or TRIDI_CPU_SCRATCH_BUDGET_FAR for far
 * rows; TRIDI_CPU_BUDGET_KB in TRIDI_CPU_TUNING builds). */
int tridi_cpu_subgroups(const tridi_cpu_thomas_priv *P, int G, size_t sub_bytes, int far, int cap);

/* plan->kernel_name of a kernel on that layout: "<row>_<transpose|vector|
 * gather>_<simd>_<f32|f64>_g<group width>" (the access class of x). */
void tridi_cpu_kernel_name(struct tridi_plan_s *plan, const tridi_cpu_thomas_priv *P,
                           const char *row, const char *simd, int group);

/* Kernels, one per ISA compiled in and element type. */
#define TRIDI_CPU_DECLARE_KERNELS(SFX)                                                          \
  void tridi_cpu_thomas_kernel_##SFX##_f32(const struct tridi_plan_s *,                        \
                                            const tridi_cpu_thomas_priv *, const tridi_args *, \
                                            int64_t, int64_t, void *, tridi_fail_slot *);       \
  void tridi_cpu_thomas_kernel_##SFX##_f64(const struct tridi_plan_s *,                        \
                                            const tridi_cpu_thomas_priv *, const tridi_args *, \
                                            int64_t, int64_t, void *, tridi_fail_slot *);
TRIDI_CPU_DECLARE_KERNELS(portable)
#ifdef TRIDI_CPU_HAVE_AVX2
TRIDI_CPU_DECLARE_KERNELS(avx2)
#endif
#ifdef TRIDI_CPU_HAVE_AVX512
TRIDI_CPU_DECLARE_KERNELS(avx512)
TRIDI_CPU_DECLARE_KERNELS(avx512n)
TRIDI_CPU_DECLARE_KERNELS(avx512s)
#endif

#endif
