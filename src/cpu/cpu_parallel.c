/* OpenMP over work items for the host solvers: ranges of items per thread
 * (the SIMD Thomas kernel's groups), one system at a time (cpu_thomas_ref,
 * the CPU rows of CR/PCR/RD), and the failure slots every host solver shares
 * (see src/core/backends.h). */
#include "backends.h"

#include <omp.h>

void tridi_fail_reset(tridi_fail_slot *slots, int nthr) {
  for (int t = 0; t < nthr; ++t) {
    slots[t].sys = INT64_MAX;
    slots[t].info = 0;
    slots[t].internal = 0;
  }
}

tridi_status tridi_fail_status(const tridi_fail_slot *slots, int nthr) {
  int64_t sys = INT64_MAX;
  int32_t info = 0;
  for (int t = 0; t < nthr; ++t) {
    if (slots[t].internal) return TRIDI_ERR_INTERNAL;
    if (slots[t].sys < sys) {
      sys = slots[t].sys;
      info = slots[t].info;
    }
  }
  return tridi_info_status(info);
}

size_t tridi_run_systems_ws_bytes(const struct tridi_plan_s *plan, size_t work_bytes) {
  const size_t per = work_bytes + sizeof(tridi_fail_slot);
  if (work_bytes > SIZE_MAX / 2 || (size_t)plan->num_threads > SIZE_MAX / per) return 0;
  return (size_t)plan->num_threads * per;
}

tridi_status tridi_run_ranges(const struct tridi_plan_s *plan, const tridi_args *args, int64_t total,
                              tridi_range_fn fn, const void *ctx, size_t work_bytes) {
  const int nthr = plan->num_threads;
  tridi_fail_slot *slots = (tridi_fail_slot *)args->ws;
  char *work = (char *)args->ws + (size_t)nthr * sizeof(tridi_fail_slot);
  tridi_fail_reset(slots, nthr);
#pragma omp parallel num_threads(nthr)
  {
    /* static schedule: thread t takes a contiguous block of items */
    const int t = omp_get_thread_num();
    int64_t b, e;
    tridi_static_range(total, t, omp_get_num_threads(), &b, &e);
    if (t < nthr && b < e) fn(plan, args, ctx, b, e, work + (size_t)t * work_bytes, &slots[t]);
  }
  return tridi_fail_status(slots, nthr);
}

/* tridi_run_systems' items: one system each, through the caller's fn */
static void run_system_range(const struct tridi_plan_s *plan, const tridi_args *args,
                             const void *ctx, int64_t s0, int64_t s1, void *work,
                             tridi_fail_slot *slot) {
  const tridi_system_fn fn = *(const tridi_system_fn *)ctx;
  for (int64_t s = s0; s < s1; ++s) {
    const int32_t code = fn(plan, args, s, work);
    if (code == INT32_MIN) {
      slot->internal = 1;
      break;
    }
    if (args->info) args->info[s] = code;
    tridi_fail_note(slot, s, code);
  }
}

tridi_status tridi_run_systems(const struct tridi_plan_s *plan, const tridi_args *args,
                               tridi_system_fn fn, size_t work_bytes) {
  return tridi_run_ranges(plan, args, plan->lay.nsys, run_system_range, &fn, work_bytes);
}
