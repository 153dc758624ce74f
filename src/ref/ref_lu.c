/* The reference pivoting solver (ref_pivot.c, LAPACK ?gtsv) on the systems
 * of a plan: system s of the scalar layout, and the REF backend's
 * ref_lu_partial row, every system in order on one thread.  The CPU rows
 * run the same per-system function over threads (src/cpu/pivot/), and
 * TRIDI_PIVOT_AUTO's second pass uses it to solve flagged systems again
 * (plan.c, through the kind's pivot_system). */
#include "backends.h"
#include "ref_pivot.h"

int32_t tridi_ref_pivot_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
                                     int64_t s, void *work) {
  const tridi_layout *L = &plan->lay;
  int64_t off[TRIDI_NUM_OPERANDS];
  tridi_layout_offsets(L, s, off);
  const int64_t *st = L->axis_stride;
  if (plan->dtype == TRIDI_F32) {
    const float *const *p = (const float *const *)args->op;
    return tridi_ref_pivot_f32(L->n, p[0] + off[0], st[0], p[1] + off[1], st[1], p[2] + off[2],
                               st[2], p[3] + off[3], st[3], (float *)args->op[4] + off[4], st[4],
                               (float *)work);
  }
  const double *const *p = (const double *const *)args->op;
  return tridi_ref_pivot_f64(L->n, p[0] + off[0], st[0], p[1] + off[1], st[1], p[2] + off[2], st[2],
                             p[3] + off[3], st[3], (double *)args->op[4] + off[4], st[4],
                             (double *)work);
}

size_t tridi_ref_pivot_work_bytes(const struct tridi_plan_s *plan) {
  const uint64_t n = (uint64_t)plan->n_max;
  if (n > SIZE_MAX / 4 / plan->esize / 3) return 0;
  const size_t b = ((size_t)TRIDI_REF_PIVOT_WORK(n) * plan->esize + 63) & ~(size_t)63;
  return b ? b : 64;
}

tridi_status tridi_ref_lu_init(struct tridi_plan_s *plan) {
  plan->ws_bytes = tridi_ref_pivot_work_bytes(plan);
  if (plan->ws_bytes == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: ref_lu_partial workspace overflows");
  return TRIDI_SUCCESS;
}

tridi_status tridi_ref_lu_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  tridi_status st = TRIDI_SUCCESS;
  for (int64_t s = 0; s < plan->nsys; ++s) {
    const int32_t code = plan->kops->pivot_system(plan, args, s, args->ws);
    if (args->info) args->info[s] = code;
    if (code && st == TRIDI_SUCCESS) st = tridi_info_status(code);
  }
  return st;
}
