/* The scalar kind's producer of test problems: batched systems of one
 * length n in an N-d layout (rank 1..8, any axis, per-operand strides,
 * negative and broadcast ones), mapped to the kind-generic system set of
 * tt_problem.h.  This is the model for other kinds' producers
 * (tests/README.md, "Adding a kind"). */
#ifndef TT_SCALAR_H
#define TT_SCALAR_H

#include "tt_problem.h"

/* ---- layouts -------------------------------------------------------------- */

typedef struct tt_layout {
  char name[160];
  tridi_dtype dtype;
  int rank;
  int axis;
  int64_t shape[TRIDI_MAX_RANK];
  int64_t strides[TT_NOPS][TRIDI_MAX_RANK];
  int inplace; /* x is d: same buffer, strides of d */
} tt_layout;

/* Packed row-major strides for all operands. */
void tt_layout_packed(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis);
/* Set the strides of one operand (strides: rank values). */
void tt_layout_strides(tt_layout *L, int op, const int64_t *strides);
/* tt_layout_packed, then the same strides for every operand. */
void tt_layout_shared(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis, const int64_t *strides);
/* Layout builders shared by the algorithm suites (host and GPU): batch
 * systems of length n, contiguous (batch, n) axis 1, interleaved (n, batch)
 * axis 0, or the middle axis of (2, n, batch/2) with random strides, padding
 * and signs per operand.  Return 1 (0: no such layout for these sizes). */
typedef int (*tt_builder)(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
int tt_build_contiguous(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
int tt_build_interleaved(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
int tt_build_strided(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
/* Random strides for one operand: dimensions stored in a random order, each
 * padded by 0..max_pad elements, each negated with probability 1/3; when
 * allow_bcast, each dimension of extent > 1 gets stride 0 with probability
 * 1/6 (the values stay dominant).  The result never aliases when
 * allow_bcast = 0. */
void tt_layout_random_strides(tt_layout *L, int op, tt_rng *r, int max_pad, int allow_bcast);
int64_t tt_layout_n(const tt_layout *L);
int64_t tt_layout_nsys(const tt_layout *L);
/* 1 when the strides of operand op map distinct elements to distinct
 * addresses (checked exhaustively; only for small problems). */
int tt_layout_injective(const tt_layout *L, int op);
/* Element offsets of row 0 of system s for every operand (system order:
 * row-major over the non-axis dimensions, as tridi's info array). */
void tt_system_offsets(const tt_layout *L, int64_t s, int64_t off[TT_NOPS]);
/* A printable description of a layout ("name f64 shape=(3,5) axis=1 ..."). */
const char *tt_layout_str(const tt_layout *L, char *buf, size_t len);

/* ---- problems --------------------------------------------------------------- */

/* The scalar kind: descriptor = tridi_desc_create + per-operand strides. */
extern const tt_kind tt_kind_scalar;

/* Build the problem of layout L (tt_problem_init_sys on its system set:
 * dominant values, oracles).  Returns 0 on success (-1: out of memory). */
int tt_problem_init(tt_problem *P, const tt_layout *L, uint64_t seed, const tt_guards *g);
/* The layout a scalar problem was built from. */
const tt_layout *tt_problem_layout(const tt_problem *P);

#endif
