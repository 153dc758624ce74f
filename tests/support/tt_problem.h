/* Kind-generic test problems: what every problem kind maps to, and the
 * oracle, generators and checks written once on that description.
 *
 * A problem is a *system set*: five operand buffers a, b, c, d, x of one
 * element type (x may be d: in place), and a list of systems, each with
 * its length n_s and, per operand, the element index of its row 0 (from
 * the operand's base pointer tt_ptr(); negative allowed) and the distance
 * in elements between consecutive rows (tt_sys).  Element (s, i) of
 * operand op is at  tt_ptr(P, op)[sys[s].off[op] + i * sys[s].inc[op]].
 *
 * Every layout of every kind maps to it: an N-d scalar layout (any strides,
 * broadcast inputs with stride 0) gives one entry per system with the same
 * n; a variable-size batch in packed layout gives off = prefix sums of the
 * lengths and inc = 1, in padded interleaved layout off = s and inc = ld;
 * a single long system is nsys = 1; a shared matrix is a, b, c with the
 * same offsets for every system.  (Block systems, m x m blocks, will add an
 * element stride inside a row; see tests/README.md.)
 *
 * A producer (tests/scalar/tt_scalar.c for the N-d scalar layouts) fills a
 * tt_problem_spec -- the kind's hooks (descriptor), a name, the dtype, the
 * systems -- and calls tt_problem_init_sys(), which
 *   - allocates each operand's buffer exactly from the lowest to the highest
 *     used element plus guards (so AddressSanitizer sees overruns) and marks
 *     every element used / ignored (a[0], c[n_s-1]) / unused; an ignored
 *     element beyond the used ones (a[0] of the lowest system, c[n-1] of the
 *     highest) is outside the allocation (the contract: never read), and
 *     the guards are then 0 on that side;
 *   - fills the used input elements with a diagonally dominant random system
 *     (|b| in [3,5], |a|, |c| < 1), NaN everywhere else in the inputs (a
 *     kernel that reads and uses padding or the ignored a[0], c[n-1] fails),
 *     and poisons x with a NaN pattern;
 *   - computes the oracles: the reference Thomas solver
 *     (tridi_ref_thomas_f32/_f64, growth flag included), the reference
 *     pivoting solver (tridi_ref_pivot_f32/_f64) and LAPACK ?gtsv, per
 *     system.
 * Other generators (weakly dominant, Laplacian-like) and breakdown
 * injections (zero pivot at row k, NaN/Inf inputs) refill or edit it.
 *
 * tt_problem_check() then checks a solve: inputs bit-for-bit unchanged;
 * every described x element written; every other element of the x
 * allocation bit-for-bit untouched; per system the relative residual
 * ||Ax-d||/(||A|| ||x|| + ||d||) <= TT_RESID_C * n_s * eps (long double) and
 * the distance to the reference solver and to LAPACK <= close_c * n_s * eps;
 * info equal to the reference solver's, per system.  Which reference
 * solver depends on the plan's pivoting (tt_problem_use_plan,
 * tt_problem_want_info): Thomas without pivoting, the pivoting one with
 * TRIDI_PIVOT_PARTIAL and for the systems TRIDI_PIVOT_AUTO solves again. */
#ifndef TT_PROBLEM_H
#define TT_PROBLEM_H

#include "tt_core.h"

/* Residual bound: relative residual <= TT_RESID_C * max(n_s,1) * eps. */
#define TT_RESID_C 8.0
/* Closeness to the reference solver / LAPACK:
 * ||x - y||inf / ||y||inf <= TT_CLOSE_C * max(n_s,1) * eps. */
#define TT_CLOSE_C 16.0

/* One system: its length and, per operand, the element index of row 0 and
 * the distance between rows (elements; x is d's when in place). */
typedef struct tt_sys {
  int64_t n;
  int64_t off[TT_NOPS];
  int64_t inc[TT_NOPS];
} tt_sys;

/* Values of the use mask. */
enum { TT_UNUSED = 0, TT_USED = 1, TT_IGNORED = 2 };

typedef struct tt_buf {
  unsigned char *mem;  /* allocation (len * esize bytes, exactly: ASan sees overruns) */
  unsigned char *orig; /* contents before the solve */
  int64_t len;         /* elements */
  int64_t base;        /* index in mem of the operand's base pointer (tt_ptr) */
  unsigned char *use;  /* per element: TT_UNUSED / TT_USED / TT_IGNORED bits */
  /* ignored elements (a[0], c[n-1]) outside the allocation: how far the
   * described range reaches below index 0 and above len - 1 (elements); a
   * device mirror that must keep them addressable pads by these */
  int64_t out_lo, out_hi;
} tt_buf;

struct tt_problem;

/* What a kind supplies to the harness: how to describe a problem to the
 * library.  A kind's other differences (layouts, lengths) are all in the
 * system set. */
typedef struct tt_kind {
  const char *name; /* "scalar", "variable", ... */
  /* A descriptor for P (its layout lives in P->kind_data); the caller plans
   * with it and destroys it. */
  tridi_status (*make_desc)(const struct tt_problem *P, tridi_desc *desc);
  /* Optional: scribble on the descriptor right after tridi_plan_create, so
   * that a plan that keeps pointing into it fails. */
  void (*scribble)(tridi_desc desc);
  /* Optional: a printable description of P (default: P->name). */
  const char *(*describe)(const struct tt_problem *P, char *buf, size_t len);
  /* Optional: frees kind_data (default: free()). */
  void (*free_data)(void *data);
} tt_kind;

typedef struct tt_problem {
  char name[160];      /* what the producer calls it (messages) */
  const tt_kind *kind;
  void *kind_data;     /* the producer's layout (owned) */
  tridi_dtype dtype;
  size_t es;           /* element size */
  int inplace;         /* x is d: same buffer, d's offsets */
  int64_t nsys;
  tt_sys *sys;         /* nsys systems */
  int64_t n;           /* the longest system (every system's length for fixed-size kinds) */
  int64_t rows;        /* sum of the lengths */
  int64_t *row0;       /* nsys + 1 prefix sums of the lengths: xref / xlap index of (s, 0) */
  uint64_t seed;
  tt_buf buf[TT_NOPS]; /* buf[TT_X] unused (len 0) when in place */
  double *xref;        /* reference solver solution, rows entries (NaN where it broke down;
                          written where it flagged growth) */
  int32_t *ref_info;   /* reference solver info, nsys */
  double *xlap;        /* LAPACK solution, rows entries (NaN where LAPACK failed) */
  int32_t *lap_info;   /* LAPACK info */
  double *xpiv;        /* reference pivoting solver solution (NaN where it failed) */
  int32_t *piv_info;   /* reference pivoting solver info */
  /* What the plan under test does (tt_problem_use_plan; the default is
   * TRIDI_PIVOT_NONE without assume_dominant, the Thomas oracle's codes):
   * it sets the info and the solution expected of each system. */
  tridi_pivot pivot;
  int assume_dominant;
  double close_c;      /* closeness bound factor: TT_CLOSE_C; INFINITY judges residuals only */
  const unsigned char *info_any_row; /* NULL, or (owned by the caller) per system:
                                        1 = tt_problem_check accepts any NaN/Inf
                                        code -1..-n_s (the row is unspecified) */
} tt_problem;

/* Guards (elements) around each allocation: lead[op] before the lowest
 * described element, tail[op] after the highest.  Allocations are 64-byte
 * aligned, so lead[op] * esize sets the alignment of the lowest element.
 * NULL: defaults (x: 3 and 5, not 64-byte aligned; inputs: 0..3 before, 0
 * after, so ASan sees reads past the end; 0 before too where ignored
 * elements lie below the used ones, so that they are outside). */
typedef struct tt_guards {
  int64_t lead[TT_NOPS];
  int64_t tail[TT_NOPS];
} tt_guards;

/* What a producer hands to tt_problem_init_sys. */
typedef struct tt_problem_spec {
  const tt_kind *kind;
  const char *name;
  tridi_dtype dtype;
  int inplace;       /* x is d (sys[s].off/inc of x are taken from d) */
  int64_t nsys;
  const tt_sys *sys; /* nsys systems, copied */
  void *kind_data;   /* owned by the problem from now on (also on failure) */
} tt_problem_spec;

/* Build a problem from a system set: allocate, fill dominant, compute the
 * oracles.  Returns 0 on success (-1: out of memory, reported with
 * tt_fail; P is then empty). */
int tt_problem_init_sys(tt_problem *P, const tt_problem_spec *spec, uint64_t seed,
                        const tt_guards *g);
void tt_problem_free(tt_problem *P);
/* A printable description (the kind's, else the name). */
const char *tt_problem_str(const tt_problem *P, char *buf, size_t len);

/* Base pointer of operand op (x is d's when in place). */
void *tt_ptr(const tt_problem *P, int op);
/* The buffer that holds x (d's when in place). */
const tt_buf *tt_xbuf(const tt_problem *P);
/* Index in P->buf[op].mem of element (s, i) of operand op (outside 0..len-1
 * for an ignored a[0] / c[n-1] beyond the used elements). */
int64_t tt_elem_index(const tt_problem *P, int op, int64_t s, int64_t i);
/* 1 when element (s, i) of operand op is inside its buffer (0 only for an
 * ignored a[0] / c[n-1] beyond the used elements). */
int tt_problem_present(const tt_problem *P, int op, int64_t s, int64_t i);
/* 1 when operand op's described elements are at distinct addresses. */
int tt_problem_injective(const tt_problem *P, int op);

/* Set element (system s, row i) of operand op (a..d) to v, in the buffer and
 * its original copy.  Call tt_problem_oracle() afterwards. */
void tt_problem_set(tt_problem *P, int op, int64_t s, int64_t i, double v);
double tt_problem_get_orig(const tt_problem *P, int op, int64_t s, int64_t i);
/* Element i of the solution x of system s, as the buffers hold it now. */
double tt_problem_get_x(const tt_problem *P, int64_t s, int64_t i);
/* The oracles' solutions of (s, i). */
double tt_problem_xref(const tt_problem *P, int64_t s, int64_t i);
double tt_problem_xlap(const tt_problem *P, int64_t s, int64_t i);
/* Relative residual |A x - d|_inf / (|A|_inf |x|_inf + |d|_inf) of system s
 * against the original inputs, in long double; INFINITY if x has an Inf or
 * NaN. */
double tt_problem_residual(const tt_problem *P, int64_t s);

/* ---- generators (each ends with tt_problem_oracle) ------------------------- */

/* Diagonally dominant (what tt_problem_init_sys fills): per used input
 * element in buffer order, b = +-[3, 5), a, c, d in [-1, 1). */
void tt_problem_fill_dominant(tt_problem *P, uint64_t seed);
/* Weakly diagonally dominant: |b_i| = |a_i| + |c_i| exactly (in f32 and
 * f64) in every row but the first, which is strictly dominant (|b_0| =
 * |c_0| + 0.5), so the matrix is nonsingular and Thomas has no zero pivot;
 * a_i, c_i = +-k/1024, k in [256, 1023], d_i in [-1, 1).  The last pivot can
 * be small and condition numbers large: sets close_c = INFINITY (residuals
 * are judged, not the distance to the oracles). */
void tt_problem_fill_weak(tt_problem *P, uint64_t seed);
/* A Laplacian-like symmetric positive definite family on which RD's
 * recurrence hardly grows at any n: row i scaled by v_i in +-[1, 2),
 * a_i, c_i = -v_i (1 - u/n^2), b_i = v_i (2 + (1 + u)/n^2), u in [0, 1),
 * d_i in [-1, 1).  (Condition numbers grow like n^2, so only residuals
 * should be judged.) */
void tt_problem_fill_laplacian(tt_problem *P, uint64_t seed);

/* Breakdown injections into system s; each returns the info code the
 * reference solver then gives (0: not possible at this row; nothing set).
 * Call tt_problem_oracle() afterwards. */
/* An exact zero pivot at row k: k = 0: b_0 = 0 (c_0 = 0.75); k >= 1: rows
 * k-1, k set so that b_k - a_k c'_{k-1} = 1 - 2 * 0.5 = 0 exactly.
 * Returns k + 1. */
int32_t tt_problem_zero_pivot(tt_problem *P, int64_t s, int64_t k);
/* Operand op (a..d) at row k set to v (NaN or +-Inf).  Returns -(k + 1);
 * 0 for a_0 and c_{n-1}, which are ignored. */
int32_t tt_problem_nonfinite(tt_problem *P, int64_t s, int op, int64_t k, double v);

/* (Re)compute the reference and LAPACK solutions from the original inputs. */
void tt_problem_oracle(tt_problem *P);
/* Restore every buffer to its original contents (x poisoned again). */
void tt_problem_reset(tt_problem *P);

/* ---- solving and checking ------------------------------------------------------ */

/* Descriptor (kind->make_desc) and plan for this problem; the descriptor is
 * scribbled on and destroyed right after tridi_plan_create: plans must not
 * depend on it.  opts may be NULL. */
tridi_status tt_problem_plan(const tt_problem *P, const tridi_options *opts, tridi_plan *plan);
/* Execute with the problem's pointers. */
tridi_status tt_problem_execute(const tt_problem *P, tridi_plan plan, int32_t *info);

/* Expect what `plan` does (its pivoting and assume_dominant, from
 * tridi_plan_get_info).  tt_problem_solve_check calls it; call it before
 * tt_problem_check / tt_problem_expected_status after an execute of your
 * own. */
void tt_problem_use_plan(tt_problem *P, tridi_plan plan);
/* The info expected of system s under P's pivoting: the Thomas oracle's
 * (ref_info, TRIDI_INFO_INACCURATE dropped with assume_dominant), the
 * pivoting oracle's (piv_info) with TRIDI_PIVOT_PARTIAL, and with
 * TRIDI_PIVOT_AUTO out of place the pivoting oracle's wherever Thomas's is
 * not 0. */
int32_t tt_problem_want_info(const tt_problem *P, int64_t s);
/* 1 when system s is expected to be solved by the pivoting solver. */
int tt_problem_pivoted(const tt_problem *P, int64_t s);

/* Check everything after a solve (see the file comment).  info may be NULL.
 * Systems whose expected info is not 0 are not compared (their x is
 * unspecified; TRIDI_INFO_INACCURATE: written, but not judged).
 * Returns the number of failures recorded. */
long tt_problem_check(const tt_problem *P, const char *ctx, const int32_t *info);
/* Check that nothing at all was written: every buffer equals its original. */
long tt_problem_check_untouched(const tt_problem *P, const char *ctx);
/* Expected execute status: breakdown kind of the lowest system whose
 * expected info (tt_problem_want_info) is not 0. */
tridi_status tt_problem_expected_status(const tt_problem *P);

/* What nsys info codes stand for, by the rule of tridi_execute's return
 * (tridi_info_status): the lowest-numbered system whose code is not 0
 * (*first, -1 when none) and its kind of failure (TRIDI_SUCCESS when none). */
tridi_status tt_info_expected(const int32_t *info, int64_t nsys, int64_t *first);

/* tridi_info_check on the host info array an execute of plan wrote (nsys
 * codes): it must give the execute's own status st and, as first, the
 * lowest-numbered system whose info is not 0 (records a failure otherwise). */
void tt_info_check_agrees(tridi_plan plan, const int32_t *info, int64_t nsys, tridi_status st,
                          const char *ctx);

/* Reset P, poison I, execute, expect status `want`, check everything
 * (tt_problem_check), I's guards and tt_info_check_agrees.  Returns
 * tt_problem_check's count. */
long tt_problem_solve_check(tt_problem *P, tridi_plan plan, tt_info *I, tridi_status want,
                            const char *ctx);

#endif
