/* The reference solvers of variable-size batches: the reference Thomas and
 * the reference pivoting solver (ref_pivot.h) on each system in turn, one
 * thread.  The oracles of the variable kind's other rows; the pivoting one
 * is also the kind's pivot_system (TRIDI_PIVOT_AUTO's second pass). */
#include "backends.h"
#include "kinds/variable.h"
#include "ref_pivot.h"

int32_t tridi_ref_var_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
                                   int64_t s, void *work) {
  const tridi_var_problem *v = tridi_var_of(plan);
  int64_t o, st;
  tridi_var_system(v, s, &o, &st);
  const int64_t n = v->len[s];
  int32_t code;
  if (plan->dtype == TRIDI_F32) {
    const float *const *p = (const float *const *)args->op;
    code = tridi_ref_thomas_f32(n, p[0] + o, st, p[1] + o, st, p[2] + o, st, p[3] + o, st,
                                (float *)args->op[4] + o, st, (float *)work);
  } else {
    const double *const *p = (const double *const *)args->op;
    code = tridi_ref_thomas_f64(n, p[0] + o, st, p[1] + o, st, p[2] + o, st, p[3] + o, st,
                                (double *)args->op[4] + o, st, (double *)work);
  }
  return code == TRIDI_INFO_INACCURATE && !plan->growth ? 0 : code;
}

int32_t tridi_ref_var_pivot_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
                                         int64_t s, void *work) {
  const tridi_var_problem *v = tridi_var_of(plan);
  int64_t o, st;
  tridi_var_system(v, s, &o, &st);
  const int64_t n = v->len[s];
  if (plan->dtype == TRIDI_F32) {
    const float *const *p = (const float *const *)args->op;
    return tridi_ref_pivot_f32(n, p[0] + o, st, p[1] + o, st, p[2] + o, st, p[3] + o, st,
                               (float *)args->op[4] + o, st, (float *)work);
  }
  const double *const *p = (const double *const *)args->op;
  return tridi_ref_pivot_f64(n, p[0] + o, st, p[1] + o, st, p[2] + o, st, p[3] + o, st,
                             (double *)args->op[4] + o, st, (double *)work);
}

tridi_status tridi_ref_var_init(struct tridi_plan_s *plan) {
  plan->ws_bytes = (size_t)tridi_var_of(plan)->nmax * plan->esize;
  return TRIDI_SUCCESS;
}

tridi_status tridi_ref_var_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  tridi_status st = TRIDI_SUCCESS;
  for (int64_t s = 0; s < plan->nsys; ++s) {
    const int32_t code = tridi_ref_var_solve_system(plan, args, s, args->ws);
    if (args->info) args->info[s] = code;
    if (code && st == TRIDI_SUCCESS) st = tridi_info_status(code);
  }
  return st;
}
