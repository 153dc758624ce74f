/* The cpu_thomas_ref solver row: the reference Thomas (src/ref), one system
 * at a time, with the systems split over OpenMP threads (static schedule).
 * The fallback for problems the SIMD kernel does not take, e.g. a few long
 * systems. */
#include "cpu_thomas.h"
#include "backends.h"

#include <omp.h>
#include <stdio.h>

static size_t work_bytes(const struct tridi_plan_s *plan) {
  return ((size_t)plan->lay.n * plan->esize + 63) & ~(size_t)63;
}

int tridi_cpu_ref_applies(const struct tridi_plan_s *plan) {
  return plan->kind == TRIDI_KIND_SCALAR &&
         (plan->dtype == TRIDI_F32 || plan->dtype == TRIDI_F64);
}

tridi_status tridi_cpu_ref_init(struct tridi_plan_s *plan) {
  const size_t per = work_bytes(plan) + sizeof(tridi_cpu_fail);
  if ((uint64_t)plan->lay.n > SIZE_MAX / 2 / plan->esize || (size_t)plan->num_threads > SIZE_MAX / per)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: cpu_thomas_ref workspace overflows");
  plan->ws_bytes = (size_t)plan->num_threads * per;
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_thomas_ref_%s",
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

tridi_status tridi_cpu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  const int nthr = plan->num_threads;
  const int64_t nsys = plan->lay.nsys;
  const size_t wb = work_bytes(plan);
  tridi_cpu_fail *slots = (tridi_cpu_fail *)args->ws;
  char *work = (char *)args->ws + (size_t)nthr * sizeof(tridi_cpu_fail);
  for (int t = 0; t < nthr; ++t) {
    slots[t].sys = INT64_MAX;
    slots[t].info = 0;
  }
#pragma omp parallel num_threads(nthr)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int64_t q = nsys / nt, r = nsys % nt;
    const int64_t s0 = t * q + (t < r ? t : r);
    const int64_t s1 = s0 + q + (t < r ? 1 : 0);
    if (t < nthr) {
      for (int64_t s = s0; s < s1; ++s) {
        const int32_t code = tridi_ref_solve_system(plan, args, s, work + (size_t)t * wb);
        if (args->info) args->info[s] = code;
        tridi_cpu_fail_note(&slots[t], s, code);
      }
    }
  }
  int64_t sys = INT64_MAX;
  int32_t info = 0;
  for (int t = 0; t < nthr; ++t)
    if (slots[t].sys < sys) {
      sys = slots[t].sys;
      info = slots[t].info;
    }
  return tridi_info_status(info);
}
