/* The cpu_var_thomas_ref and cpu_var_lu_partial_ref rows: the reference
 * Thomas / the reference pivoting solver on every system of a variable-size
 * batch, the systems split over OpenMP threads in contiguous ranges of about
 * equal numbers of unknowns (so that one thread does not get all the long
 * systems). */
#include "backends.h"
#include "kinds/variable.h"

#include <stdio.h>

static size_t work_bytes(const struct tridi_plan_s *plan) {
  return ((size_t)tridi_var_of(plan)->nmax * plan->esize + 63) & ~(size_t)63;
}

tridi_status tridi_cpu_var_lu_ref_init(struct tridi_plan_s *plan) {
  const size_t work = tridi_ref_pivot_work_bytes(plan);
  if (work == 0 || (plan->ws_bytes = tridi_run_systems_ws_bytes(plan, work)) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: cpu_var_lu_partial_ref workspace overflows");
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_var_lu_partial_ref_%s",
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

tridi_status tridi_cpu_var_ref_init(struct tridi_plan_s *plan) {
  if ((plan->ws_bytes = tridi_run_systems_ws_bytes(plan, work_bytes(plan))) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: cpu_var_thomas_ref workspace overflows");
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_var_thomas_ref_%s",
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

/* Work items are the threads: item t solves the systems whose first row lies
 * in the t-th equal share of the unknowns. */
static void solve_share(const struct tridi_plan_s *plan, const tridi_args *args, const void *ctx,
                        int64_t t0, int64_t t1, void *work, tridi_fail_slot *slot) {
  const tridi_system_fn fn = *(const tridi_system_fn *)ctx;
  const tridi_var_problem *v = tridi_var_of(plan);
  for (int64_t t = t0; t < t1; ++t) {
    int64_t s0, s1;
    tridi_weighted_range(v->off, v->nsys, t, plan->num_threads, &s0, &s1);
    for (int64_t s = s0; s < s1; ++s) {
      const int32_t code = fn(plan, args, s, work);
      if (args->info) args->info[s] = code;
      tridi_fail_note(slot, s, code);
    }
  }
}

tridi_status tridi_cpu_var_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  const tridi_system_fn fn = tridi_ref_var_solve_system;
  return tridi_run_ranges(plan, args, plan->num_threads, solve_share, &fn, work_bytes(plan));
}

tridi_status tridi_cpu_var_lu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  const tridi_system_fn fn = tridi_ref_var_pivot_solve_system;
  return tridi_run_ranges(plan, args, plan->num_threads, solve_share, &fn,
                          tridi_ref_pivot_work_bytes(plan));
}
