/* The variable-size batch kind: B systems of different lengths in a packed
 * or a padded interleaved storage (tridi_desc_create_variable).  Its
 * descriptor becomes a tridi_var_problem (variable.h); its solver rows
 * follow. */
#include "variable.h"

#include "kinds.h"

#include <stdlib.h>
#include <string.h>

static void var_release(struct tridi_plan_s *plan) {
  tridi_var_problem *v = (tridi_var_problem *)plan->problem;
  if (!v) return;
  free(v->len);
  free(v->off);
  free(v);
  plan->problem = NULL;
}

static tridi_status var_normalise(const struct tridi_desc_s *d, struct tridi_plan_s *plan) {
  /* the descriptor was validated by tridi_desc_create_variable */
  const int64_t B = d->var_nsys;
  tridi_var_problem *v = calloc(1, sizeof *v);
  if (!v) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  plan->problem = v;
  v->layout = d->var_layout;
  v->nsys = B;
  v->rows = d->var_rows;
  v->ld = d->var_ld;
  v->len = malloc((size_t)(B > 0 ? B : 1) * sizeof *v->len);
  v->off = malloc((size_t)(B + 1) * sizeof *v->off);
  if (!v->len || !v->off)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory for %lld lengths",
                           (long long)B);
  if (B > 0) memcpy(v->len, d->var_lengths, (size_t)B * sizeof *v->len);
  v->off[0] = 0;
  v->nmin = B > 0 ? INT64_MAX : 0;
  for (int64_t s = 0; s < B; ++s) {
    const int64_t n = v->len[s];
    v->off[s + 1] = v->off[s] + n;
    if (n < v->nmin) v->nmin = n;
    if (n > v->nmax) v->nmax = n;
  }
  v->total = v->off[B];
  /* one past the highest described element (overlap checks) */
  v->span = v->total;
  if (v->layout == TRIDI_VAR_INTERLEAVED) {
    v->span = 0;
    for (int64_t s = 0; s < B; ++s) {
      const int64_t end = (v->len[s] - 1) * v->ld + s + 1;
      if (end > v->span) v->span = end;
    }
  }
  /* the used elements of each operand (a: rows 1.., c: rows ..n_s-2) */
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    v->lo[k] = INT64_MAX;
    v->hi[k] = 0;
  }
  for (int64_t s = 0; s < B; ++s) {
    int64_t first, stride;
    tridi_var_system(v, s, &first, &stride);
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
      const int64_t r0 = k == TRIDI_OP_A ? 1 : 0;
      const int64_t r1 = k == TRIDI_OP_C ? v->len[s] - 2 : v->len[s] - 1;
      if (r0 > r1) continue;
      if (first + r0 * stride < v->lo[k]) v->lo[k] = first + r0 * stride;
      if (first + r1 * stride + 1 > v->hi[k]) v->hi[k] = first + r1 * stride + 1;
    }
  }
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (v->lo[k] >= v->hi[k]) v->lo[k] = v->hi[k] = 0;
  if (v->span > INT64_MAX / (int64_t)plan->esize)
    return tridi_set_error(TRIDI_ERR_INVALID_SHAPE,
                           "tridi_plan_create: %lld elements per operand overflow a byte offset",
                           (long long)v->span);
  plan->nsys = B;
  plan->n_max = v->nmax;
  plan->unknowns = v->total;
  return TRIDI_SUCCESS;
}

/* 1 when the described elements of x (at xb) and the used elements of
 * operand k (at pb) may share a byte.  PACKED: byte ranges.  INTERLEAVED:
 * each row uses the first B elements of a pitch of ld elements, so two
 * arrays whose distance modulo the pitch leaves B elements on both sides
 * never meet (two batches interleaved in one array). */
static int var_overlaps(const tridi_var_problem *v, size_t es, int k, const void *x,
                        const void *p) {
  const intptr_t e = (intptr_t)es;
  const intptr_t xlo = (intptr_t)x + (intptr_t)v->lo[TRIDI_OP_X] * e;
  const intptr_t xhi = (intptr_t)x + (intptr_t)v->hi[TRIDI_OP_X] * e;
  const intptr_t plo = (intptr_t)p + (intptr_t)v->lo[k] * e;
  const intptr_t phi = (intptr_t)p + (intptr_t)v->hi[k] * e;
  const intptr_t xb = (intptr_t)x, pb = (intptr_t)p;
  if (plo == phi || xhi <= plo || phi <= xlo) return 0;
  if (v->layout == TRIDI_VAR_PACKED) return 1;
  const intptr_t pitch = (intptr_t)v->ld * (intptr_t)es, used = (intptr_t)v->nsys * (intptr_t)es;
  intptr_t r = (xb - pb) % pitch;
  if (r < 0) r += pitch;
  return !(r >= used && pitch - r >= used);
}

static tridi_status var_check_overlap(const struct tridi_plan_s *plan,
                                      const void *const ops[TRIDI_NUM_OPERANDS], const char *fn) {
  static const char names[] = "abcd";
  const tridi_var_problem *v = tridi_var_of(plan);
  if (v->nsys == 0) return TRIDI_SUCCESS;
  for (int k = 0; k < TRIDI_OP_X; ++k) {
    if (k == TRIDI_OP_D && ops[TRIDI_OP_X] == ops[TRIDI_OP_D]) continue; /* in place */
    if (var_overlaps(v, plan->esize, k, ops[TRIDI_OP_X], ops[k]))
      return tridi_set_error(TRIDI_ERR_OVERLAP,
                             "%s: x overlaps %c (only x == d is allowed: an in-place solve)", fn,
                             names[k]);
  }
  return TRIDI_SUCCESS;
}

static const tridi_solver variable_solvers[] = {
    /* REF: the oracle, systems in order. */
    {"ref_var_thomas", TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_REF, 0, NULL, tridi_ref_var_init,
     tridi_ref_var_execute, NULL},
    /* CPU: SIMD lanes over systems of similar length, binned at plan time;
     * the reference over systems (balanced by unknowns) where the c'/d'
     * scratch of a group would pass 64 MiB. */
    {"cpu_var_thomas", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, 0, tridi_cpu_var_applies,
     tridi_cpu_var_init, tridi_cpu_var_execute, tridi_cpu_var_destroy},
    {"cpu_var_thomas_ref", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_REF, 1, NULL,
     tridi_cpu_var_ref_init, tridi_cpu_var_ref_execute, NULL},
    /* Pivoting (pivot = partial): the reference LAPACK ?gtsv elimination per
     * system, in order (REF) and over threads balanced by unknowns (CPU). */
    {"ref_var_lu_partial", TRIDI_BACKEND_REF, TRIDI_ALG_LU_PARTIAL, 0, NULL, tridi_ref_lu_init,
     tridi_ref_lu_execute, NULL},
    {"cpu_var_lu_partial_ref", TRIDI_BACKEND_CPU, TRIDI_ALG_LU_PARTIAL, 0, NULL,
     tridi_cpu_var_lu_ref_init, tridi_cpu_var_lu_ref_execute, NULL},
#ifdef TRIDI_HAVE_CUDA
    /* CUDA (src/cuda/variable/, docs/variable.md): PACKED systems in tiles
     * of whole systems, one thread block a tile, systems longer than a tile
     * in segments or one thread-block cluster each; INTERLEAVED ones in
     * groups of neighbouring systems binned by their longest, H blocks a
     * group up to 8192 rows, one thread a system beyond. */
    {"cuda_var_thomas_pcr", TRIDI_BACKEND_CUDA, TRIDI_ALG_THOMAS_PCR, 0, tridi_cuda_var_applies,
     tridi_cuda_var_init, tridi_cuda_var_execute, tridi_cuda_var_destroy},
#endif
};

const tridi_kind_ops tridi_kind_variable = {
    .kind = TRIDI_KIND_VARIABLE,
    .name = "variable",
    .normalise = var_normalise,
    .check_overlap = var_check_overlap,
    .release = var_release,
    .solvers = variable_solvers,
    .num_solvers = (int)(sizeof variable_solvers / sizeof variable_solvers[0]),
    .pivot_system = tridi_ref_var_pivot_solve_system,
    .pivot_work = tridi_ref_pivot_work_bytes,
};
