/* Reference CR, PCR, RD, CR+PCR and CR+RD (see ref_algs.h), and the REF
 * rows that run them one system after another (the CPU rows, over OpenMP
 * threads, are src/cpu/cpu_algs.c).  AUTO never picks them (auto_rank -1 in
 * src/core/kinds/scalar.c). */
#include "ref_algs.h"

#include "backends.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#define T float
#define SUF f32
#define ISFIN(v) isfinite(v)
#define ABS(v) fabsf(v)
#define EPS FLT_EPSILON
#include "ref_algs_body.inc"
#undef T
#undef SUF
#undef ABS
#undef EPS

#define T double
#define SUF f64
#define ABS(v) fabs(v)
#define EPS DBL_EPSILON
#include "ref_algs_body.inc"
#undef T
#undef SUF
#undef ABS
#undef EPS
#undef ISFIN

int tridi_ref_alg_known(tridi_alg alg) {
  return alg == TRIDI_ALG_CR || alg == TRIDI_ALG_PCR || alg == TRIDI_ALG_RD ||
         alg == TRIDI_ALG_CR_PCR || alg == TRIDI_ALG_CR_RD;
}

int64_t tridi_ref_alg_work_elems(int64_t n) { return n > 0 ? 22 * n : 0; }

int32_t tridi_ref_alg_solve_system(const struct tridi_plan_s *plan, const tridi_args *args, int64_t s,
                            void *work) {
  const tridi_layout *L = &plan->lay;
  int64_t off[TRIDI_NUM_OPERANDS];
  tridi_layout_offsets(L, s, off);
  const int64_t *st = L->axis_stride;
  const int64_t sw = tridi_alg_switch(plan->alg, plan->dtype, L->n);
  if (plan->dtype == TRIDI_F32) {
    const float *const *p = (const float *const *)args->op;
    return tridi_ref_alg_f32(plan->alg, sw, L->n, p[0] + off[0], st[0], p[1] + off[1], st[1],
                             p[2] + off[2], st[2], p[3] + off[3], st[3],
                             (float *)args->op[4] + off[4], st[4], (float *)work);
  }
  const double *const *p = (const double *const *)args->op;
  return tridi_ref_alg_f64(plan->alg, sw, L->n, p[0] + off[0], st[0], p[1] + off[1], st[1],
                           p[2] + off[2], st[2], p[3] + off[3], st[3],
                           (double *)args->op[4] + off[4], st[4], (double *)work);
}

tridi_status tridi_ref_alg_work_bytes(const struct tridi_plan_s *plan, size_t *bytes) {
  const int64_t e = tridi_ref_alg_work_elems(plan->lay.n);
  if (plan->lay.n > INT64_MAX / 22 || (uint64_t)e > (SIZE_MAX - 64) / plan->esize)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: %s workspace overflows size_t",
                           plan->solver ? plan->solver->name : "algorithm");
  *bytes = ((size_t)e * plan->esize + 63) & ~(size_t)63;
  return TRIDI_SUCCESS;
}

/* ---- REF rows ------------------------------------------------------------ */

const char *tridi_ref_alg_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every scalar problem */
  return NULL;
}

tridi_status tridi_ref_alg_init(struct tridi_plan_s *plan) {
  size_t wb = 0;
  tridi_status st = tridi_ref_alg_work_bytes(plan, &wb);
  if (st) return st;
  plan->ws_bytes = wb;
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "ref_%s_%s", tridi_alg_name(plan->alg),
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

tridi_status tridi_ref_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  tridi_status st = TRIDI_SUCCESS;
  for (int64_t s = 0; s < plan->lay.nsys; ++s) {
    const int32_t code = tridi_ref_alg_solve_system(plan, args, s, args->ws);
    if (code == INT32_MIN) return TRIDI_ERR_INTERNAL;
    if (args->info) args->info[s] = code;
    if (code && st == TRIDI_SUCCESS) st = tridi_info_status(code);
  }
  return st;
}
