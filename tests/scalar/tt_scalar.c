/* The scalar kind's producer of test problems: see tt_scalar.h. */
#include "tt_scalar.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- layouts --------------------------------------------------------------- */

void tt_layout_packed(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis) {
  memset(L, 0, sizeof *L);
  snprintf(L->name, sizeof L->name, "%s", name);
  L->dtype = dtype;
  L->rank = rank;
  L->axis = axis;
  for (int k = 0; k < rank; ++k) L->shape[k] = shape[k];
  for (int op = 0; op < TT_NOPS; ++op) {
    int64_t s = 1;
    for (int k = rank - 1; k >= 0; --k) {
      L->strides[op][k] = s;
      s *= shape[k] > 0 ? shape[k] : 1;
    }
  }
}

void tt_layout_strides(tt_layout *L, int op, const int64_t *strides) {
  for (int k = 0; k < L->rank; ++k) L->strides[op][k] = strides[k];
}

void tt_layout_shared(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis, const int64_t *strides) {
  tt_layout_packed(L, name, dtype, rank, shape, axis);
  for (int op = 0; op < TT_NOPS; ++op) tt_layout_strides(L, op, strides);
}

int tt_build_contiguous(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r) {
  (void)r;
  const int64_t shape[2] = {batch, n};
  tt_layout_packed(L, "contiguous", dt, 2, shape, 1);
  return 1;
}

int tt_build_interleaved(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r) {
  (void)r;
  const int64_t shape[2] = {n, batch};
  tt_layout_packed(L, "interleaved", dt, 2, shape, 0);
  return 1;
}

int tt_build_strided(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r) {
  const int64_t shape[3] = {2, n, (batch + 1) / 2};
  tt_layout_packed(L, "strided", dt, 3, shape, 1);
  for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(L, op, r, 3, 0);
  return 1;
}

void tt_layout_random_strides(tt_layout *L, int op, tt_rng *r, int max_pad, int allow_bcast) {
  int perm[TRIDI_MAX_RANK];
  for (int k = 0; k < L->rank; ++k) perm[k] = k;
  for (int k = L->rank - 1; k > 0; --k) { /* Fisher-Yates */
    const int j = (int)tt_rng_int(r, 0, k);
    const int t = perm[k];
    perm[k] = perm[j];
    perm[j] = t;
  }
  int64_t cur = 1;
  for (int q = 0; q < L->rank; ++q) { /* perm[0] is the fastest dimension */
    const int k = perm[q];
    const int64_t e = L->shape[k] > 0 ? L->shape[k] : 1;
    int64_t s = cur;
    cur = cur * e + tt_rng_int(r, 0, max_pad);
    if (tt_rng_int(r, 0, 2) == 0) s = -s;
    if (allow_bcast && L->shape[k] > 1 && tt_rng_int(r, 0, 5) == 0) s = 0;
    L->strides[op][k] = s;
  }
}

int64_t tt_layout_n(const tt_layout *L) { return L->shape[L->axis]; }

int64_t tt_layout_nsys(const tt_layout *L) {
  int64_t s = 1;
  for (int k = 0; k < L->rank; ++k)
    if (k != L->axis) s *= L->shape[k];
  return s;
}

void tt_system_offsets(const tt_layout *L, int64_t s, int64_t off[TT_NOPS]) {
  for (int op = 0; op < TT_NOPS; ++op) off[op] = 0;
  for (int k = L->rank - 1; k >= 0; --k) {
    if (k == L->axis) continue;
    const int64_t e = L->shape[k];
    const int64_t idx = s % e;
    s /= e;
    for (int op = 0; op < TT_NOPS; ++op) off[op] += idx * L->strides[op][k];
  }
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int tt_layout_injective(const tt_layout *L, int op) {
  const int64_t n = tt_layout_n(L), nsys = tt_layout_nsys(L);
  if (n == 0 || nsys == 0) return 1;
  int64_t *v = malloc((size_t)(n * nsys) * sizeof *v);
  if (!v) return 0;
  for (int64_t s = 0; s < nsys; ++s) {
    int64_t off[TT_NOPS];
    tt_system_offsets(L, s, off);
    for (int64_t i = 0; i < n; ++i) v[s * n + i] = off[op] + i * L->strides[op][L->axis];
  }
  qsort(v, (size_t)(n * nsys), sizeof *v, cmp_i64);
  int ok = 1;
  for (int64_t j = 1; j < n * nsys && ok; ++j) ok = v[j] != v[j - 1];
  free(v);
  return ok;
}

const char *tt_layout_str(const tt_layout *L, char *buf, size_t len) {
  size_t p = 0;
#define TT_APPEND(...)                                                   \
  do {                                                                   \
    if (p < len) p += (size_t)snprintf(buf + p, len - p, __VA_ARGS__);  \
  } while (0)
  TT_APPEND("%s %s%s shape=(", L->name, tridi_dtype_name(L->dtype), L->inplace ? " in-place" : "");
  for (int k = 0; k < L->rank; ++k) TT_APPEND("%s%" PRId64, k ? "," : "", L->shape[k]);
  TT_APPEND(") axis=%d", L->axis);
  for (int op = 0; op < TT_NOPS; ++op) {
    TT_APPEND(" %c(", tt_op_names[op]);
    for (int k = 0; k < L->rank; ++k) TT_APPEND("%s%" PRId64, k ? "," : "", L->strides[op][k]);
    TT_APPEND(")");
  }
#undef TT_APPEND
  return buf;
}

/* ---- problems --------------------------------------------------------------- */

static tridi_status scalar_make_desc(const tt_problem *P, tridi_desc *desc) {
  const tt_layout *L = tt_problem_layout(P);
  tridi_status st = tridi_desc_create(desc, L->dtype, L->rank, L->shape, L->axis);
  for (int op = 0; op < TT_NOPS && !st; ++op)
    st = tridi_desc_set_strides(*desc, (tridi_operand)op, L->strides[op]);
  return st;
}

static void scalar_scribble(tridi_desc desc) {
  const int64_t junk[TRIDI_MAX_RANK] = {7, 7, 7, 7, 7, 7, 7, 7};
  tridi_status st = tridi_desc_set_all_strides(desc, junk);
  (void)st;
}

static const char *scalar_describe(const tt_problem *P, char *buf, size_t len) {
  return tt_layout_str(tt_problem_layout(P), buf, len);
}

const tt_kind tt_kind_scalar = {
    .name = "scalar",
    .make_desc = scalar_make_desc,
    .scribble = scalar_scribble,
    .describe = scalar_describe,
    .free_data = NULL,
};

const tt_layout *tt_problem_layout(const tt_problem *P) { return (const tt_layout *)P->kind_data; }

int tt_problem_init(tt_problem *P, const tt_layout *L, uint64_t seed, const tt_guards *g) {
  memset(P, 0, sizeof *P);
  tt_layout *copy = malloc(sizeof *copy);
  const int64_t n = tt_layout_n(L), nsys = tt_layout_nsys(L);
  const int empty = n == 0 || nsys == 0;
  tt_sys *sys = malloc((size_t)(nsys > 0 ? nsys : 1) * sizeof *sys);
  if (!copy || !sys) {
    tt_fail("%s: out of memory (%" PRId64 " systems)", L->name, nsys);
    free(copy);
    free(sys);
    return -1;
  }
  *copy = *L;
  if (L->inplace) tt_layout_strides(copy, TT_X, L->strides[TT_D]);
  /* an empty problem (some extent 0) has no elements at all: its systems
   * (when n = 0) have length 0 */
  for (int64_t s = 0; s < nsys; ++s) {
    sys[s].n = empty ? 0 : n;
    tt_system_offsets(copy, s, sys[s].off);
    for (int op = 0; op < TT_NOPS; ++op) sys[s].inc[op] = copy->strides[op][copy->axis];
  }
  const tt_problem_spec spec = {
      .kind = &tt_kind_scalar,
      .name = L->name,
      .dtype = L->dtype,
      .inplace = L->inplace,
      .nsys = nsys,
      .sys = sys,
      .kind_data = copy,
  };
  const int r = tt_problem_init_sys(P, &spec, seed, g);
  free(sys);
  if (r == 0) P->n = n; /* also when there are no systems (the plan reports n) */
  return r;
}
