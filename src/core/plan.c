/* The planner and execute entry points: options, the kind's normalisation,
 * the backend's resolution, the scan of the kind's solver rows, workspace
 * and locking; execute-time argument checks (NULL, alignment, then the
 * kind's overlap rules).  Nothing here names a kind or a backend: those are
 * the kinds table (kinds.c) and the backends table (backends.c). */
#include "tridi_internal.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char op_names[TRIDI_NUM_OPERANDS] = {'a', 'b', 'c', 'd', 'x'};

/* The first release's tridi_options ended with `flags`: a struct of that
 * size (a binary built against the old header) gets the defaults of the
 * fields it lacks. */
#define OPTIONS_MIN_SIZE (offsetof(tridi_options, flags) + sizeof(unsigned int))

/* The caller's options as this release reads them: the fields its struct
 * holds, the defaults for the others (struct_size checked first). */
static tridi_status read_options(const tridi_options *o, tridi_options *eff) {
  if (o->struct_size < OPTIONS_MIN_SIZE)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->struct_size = %zu; call tridi_options_init",
                           o->struct_size);
  tridi_options_init(eff);
  memcpy(eff, o, o->struct_size < sizeof *eff ? o->struct_size : sizeof *eff);
  eff->struct_size = sizeof *eff;
  return TRIDI_SUCCESS;
}

static tridi_status check_options(const tridi_options *o) {
  if (!tridi_backend_valid(o->backend))
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->backend = %d is unknown",
                           (int)o->backend);
  if (!tridi_alg_valid(o->alg))
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->alg = %d is unknown",
                           (int)o->alg);
  if (o->num_threads < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->num_threads = %d is negative", o->num_threads);
  if (!tridi_simd_valid(o->simd))
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->simd = %d is unknown",
                           (int)o->simd);
  if (o->device < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->device = %d is negative",
                           o->device);
  if (o->flags != 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->flags = %#x; no flags are defined", o->flags);
  if (!tridi_pivot_valid(o->pivot))
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->pivot = %d is unknown (TRIDI_PIVOT_AUTO, "
                           "_NONE or _PARTIAL)",
                           (int)o->pivot);
  if (o->assume_dominant != 0 && o->assume_dominant != 1)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->assume_dominant = %d; it must be 0 or 1",
                           o->assume_dominant);
  if (tridi_alg_pivots(o->alg) && o->pivot == TRIDI_PIVOT_NONE)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->alg = %s pivots but opts->pivot = "
                           "TRIDI_PIVOT_NONE",
                           tridi_alg_name(o->alg));
  if (o->alg != TRIDI_ALG_AUTO && !tridi_alg_pivots(o->alg) && o->pivot == TRIDI_PIVOT_PARTIAL)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->alg = %s does not pivot but opts->pivot = "
                           "TRIDI_PIVOT_PARTIAL; use TRIDI_ALG_AUTO or TRIDI_ALG_LU_PARTIAL",
                           tridi_alg_name(o->alg));
  /* no pivots to watch and no check afterwards: on a system that is not
   * diagonally dominant their answer can be wrong with info 0, so the
   * caller has to declare dominance */
  if (tridi_alg_requires_dominance(o->alg) && !o->assume_dominant)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->alg = %s neither pivots nor checks its "
                           "result, so it is only for diagonally dominant systems: set "
                           "opts->assume_dominant = 1 to declare them so, or use TRIDI_ALG_AUTO",
                           tridi_alg_name(o->alg));
  return TRIDI_SUCCESS;
}

static void plan_free(struct tridi_plan_s *p) {
  if (!p) return;
  if (p->solver && p->solver->destroy) p->solver->destroy(p);
  if (p->resolve_priv && p->bops && p->bops->pass_destroy) p->bops->pass_destroy(p);
  if (p->ws && p->bops) p->bops->ws_free(p, p->ws);
  if (p->kops && p->kops->release) p->kops->release(p);
  if (p->lock) {
    pthread_mutex_destroy((pthread_mutex_t *)p->lock);
    free(p->lock);
  }
  free(p);
}

/* Append a line to the plan's selection text (cut at its buffer). */
static void note(struct tridi_plan_s *p, const char *name, const char *what) {
  const size_t used = strlen(p->selection);
  if (used + 1 < sizeof p->selection)
    snprintf(p->selection + used, sizeof p->selection - used, "%s%s: %s", used ? "\n" : "", name,
             what);
}

/* 1 when row s is of the family the plan's pivot mode asks for: the
 * pivoting rows for TRIDI_PIVOT_PARTIAL, the others otherwise. */
static int pivot_family(const struct tridi_plan_s *p, const tridi_solver *s) {
  return tridi_alg_pivots(s->alg) == (p->pivot == TRIDI_PIVOT_PARTIAL);
}

/* Choose the solver row (see tridi_solver): a forced algorithm takes its
 * first applying row; AUTO the applying row of lowest auto_rank among the
 * rows of the pivot mode's family.  Every row of the plan's backend gets a
 * line in p->selection.  applies() is pure, so the second pass asks it
 * again for the reasons. */
static tridi_status choose_solver(struct tridi_plan_s *p) {
  const tridi_kind_ops *k = p->kops;
  const int forced = p->requested_alg != TRIDI_ALG_AUTO;
  const tridi_solver *best = NULL;
  for (int i = 0; i < k->num_solvers; ++i) {
    const tridi_solver *s = &k->solvers[i];
    if (s->backend != p->backend) continue;
    if (forced ? s->alg != p->requested_alg : s->auto_rank < 0 || !pivot_family(p, s)) continue;
    if (s->applies && s->applies(p)) continue;
    if (!best || (!forced && s->auto_rank < best->auto_rank)) best = s;
  }
  char buf[112];
  for (int i = 0; i < k->num_solvers; ++i) {
    const tridi_solver *s = &k->solvers[i];
    if (s->backend != p->backend) continue;
    const char *why = s->applies ? s->applies(p) : NULL;
    if (s == best && forced)
      snprintf(buf, sizeof buf, "chosen (forced %s)", tridi_alg_name(s->alg));
    else if (s == best)
      snprintf(buf, sizeof buf, "chosen (lowest rank, %d)", s->auto_rank);
    else if (why)
      snprintf(buf, sizeof buf, "not applicable: %s", why);
    else if (forced ? s->alg != p->requested_alg : s->auto_rank < 0)
      snprintf(buf, sizeof buf, "%s", forced ? "not the forced algorithm" : "explicit only");
    else if (!pivot_family(p, s))
      snprintf(buf, sizeof buf, "%s",
               p->pivot == TRIDI_PIVOT_PARTIAL ? "does not pivot (pivot = partial)"
                                               : "pivots (pivot = partial only)");
    else
      snprintf(buf, sizeof buf, "applies, rank %d", s->auto_rank);
    note(p, s->name, buf);
  }
  if (!best)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "tridi_plan_create: algorithm %s (pivot = %s) is not available for "
                           "backend %s on this %s problem",
                           tridi_alg_name(p->requested_alg), tridi_pivot_name(p->pivot),
                           tridi_backend_name(p->backend), k->name);
  p->solver = best;
  p->alg = best->alg;
  return TRIDI_SUCCESS;
}

static size_t round64(size_t b) { return (b + 63) & ~(size_t)63; }

/* TRIDI_PIVOT_AUTO's second pass (the backend's pass_run): set p->resolve
 * and, when it runs, add its part to the workspace: an info array of nsys
 * entries (for executes without one), then the backend's scratch. */
static tridi_status plan_resolve_ws(struct tridi_plan_s *p) {
  p->resolve = 0;
  if (p->pivot != TRIDI_PIVOT_AUTO || p->assume_dominant || tridi_alg_pivots(p->alg) ||
      !p->bops->pass_init)
    return TRIDI_SUCCESS;
  int available = 0;
  const tridi_status st = p->bops->pass_init(p, &available);
  if (st || !available) return st;
  const uint64_t nsys = (uint64_t)p->nsys;
  if (p->ws_bytes > SIZE_MAX / 4 || nsys > SIZE_MAX / 16 || p->resolve_work > SIZE_MAX / 4)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: the workspace of TRIDI_PIVOT_AUTO's second pass "
                           "overflows");
  p->resolve = 1;
  p->resolve_off = round64(p->ws_bytes);
  p->ws_bytes = p->resolve_off + round64((size_t)nsys * sizeof(int32_t)) + p->resolve_work;
  return TRIDI_SUCCESS;
}

tridi_status tridi_plan_create(tridi_plan *plan, tridi_desc desc, const tridi_options *opts) {
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_create: plan is NULL");
  *plan = NULL;
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_create: desc is NULL");
  tridi_options eff;
  tridi_options_init(&eff);
  tridi_status st = opts ? read_options(opts, &eff) : TRIDI_SUCCESS;
  if (st) return st;
  opts = &eff;
  st = check_options(opts);
  if (st) return st;
  const tridi_kind_ops *kops = tridi_kind_get(desc->kind);
  if (!kops)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED, "tridi_plan_create: kind %s is not implemented",
                           tridi_kind_name(desc->kind));
  struct tridi_plan_s *p = calloc(1, sizeof *p);
  if (!p) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  p->dtype = desc->dtype;
  p->esize = tridi_dtype_size(desc->dtype);
  p->kind = desc->kind;
  p->kops = kops;
  p->requested_alg = opts->alg;
  p->device = opts->device;
  p->pivot = tridi_alg_pivots(opts->alg) ? TRIDI_PIVOT_PARTIAL : opts->pivot;
  p->assume_dominant = opts->assume_dominant;
  p->growth = p->pivot != TRIDI_PIVOT_PARTIAL && !p->assume_dominant;
  st = kops->normalise(desc, p);
  if (st) goto fail;
  /* AUTO is the CPU: CUDA operands are device pointers, never guessed */
  p->backend = opts->backend == TRIDI_BACKEND_AUTO ? TRIDI_BACKEND_CPU : opts->backend;
  p->bops = tridi_backend_get(p->backend);
  if (!p->bops) {
    char upper[16] = {0};
    const char *nm = tridi_backend_name(p->backend);
    for (size_t i = 0; nm[i] && i + 1 < sizeof upper; ++i)
      upper[i] = (char)(nm[i] >= 'a' && nm[i] <= 'z' ? nm[i] - 'a' + 'A' : nm[i]);
    st = tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE,
                         "tridi_plan_create: this build of tridi has no %s backend "
                         "(TRIDI_BACKEND_%s)",
                         upper, upper);
    goto fail;
  }
  st = p->bops->resolve(p, opts);
  if (st) goto fail;
  st = choose_solver(p);
  if (st) goto fail;
  if (p->solver->init) {
    st = p->solver->init(p);
    if (st) {
      if (!tridi_last_error()[0])
        tridi_set_error(st, "tridi_plan_create: %s could not be initialised", p->solver->name);
      goto fail;
    }
  }
  if (!p->kernel_name[0]) strncpy(p->kernel_name, p->solver->name, sizeof p->kernel_name - 1);
  st = plan_resolve_ws(p);
  if (st) goto fail;
  if (p->ws_bytes > 0) {
    st = p->bops->ws_alloc(p, &p->ws, p->ws_bytes);
    if (st) goto fail;
  }
  p->lock = malloc(sizeof(pthread_mutex_t));
  if (!p->lock || pthread_mutex_init((pthread_mutex_t *)p->lock, NULL) != 0) {
    free(p->lock);
    p->lock = NULL;
    st = tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: cannot create the plan's mutex");
    goto fail;
  }
  *plan = p;
  return TRIDI_SUCCESS;

fail:
  plan_free(p);
  return st;
}

tridi_status tridi_plan_destroy(tridi_plan plan) {
  tridi_clear_error();
  plan_free(plan);
  return TRIDI_SUCCESS;
}

tridi_status tridi_plan_workspace_size(tridi_plan plan, size_t *bytes) {
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_workspace_size: plan is NULL");
  if (!bytes) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_workspace_size: bytes is NULL");
  *bytes = plan->ws_bytes;
  return TRIDI_SUCCESS;
}

/* Store `field` of tridi_plan_info when the caller's struct holds it. */
#define INFO_SET(info, field, value)                                                      \
  do {                                                                                    \
    if ((info)->struct_size >= offsetof(tridi_plan_info, field) + sizeof((info)->field)) \
      (info)->field = (value);                                                            \
  } while (0)

tridi_status tridi_plan_get_info(tridi_plan plan, tridi_plan_info *info) {
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_get_info: plan is NULL");
  if (!info) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_get_info: info is NULL");
  /* the first release's struct ended with `kernel` */
  const size_t min_size = offsetof(tridi_plan_info, kernel) + sizeof info->kernel;
  if (info->struct_size < min_size)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_get_info: info->struct_size = %zu; set it to "
                           "sizeof(tridi_plan_info)",
                           info->struct_size);
  info->backend = plan->backend;
  info->alg = plan->alg;
  info->simd = plan->simd;
  info->num_threads = plan->num_threads;
  info->n = plan->n_max;
  info->num_systems = plan->nsys;
  info->kernel = plan->kernel_name;
  INFO_SET(info, kind, plan->kind);
  INFO_SET(info, unknowns, plan->unknowns);
  INFO_SET(info, selection, plan->selection);
  INFO_SET(info, pivot, plan->pivot);
  INFO_SET(info, assume_dominant, plan->assume_dominant);
  return TRIDI_SUCCESS;
}

static tridi_status check_args(tridi_plan plan, const void *const ops[TRIDI_NUM_OPERANDS],
                               const char *fn) {
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: plan is NULL", fn);
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (!ops[k]) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: %c is NULL", fn, op_names[k]);
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if ((uintptr_t)ops[k] % plan->esize)
      return tridi_set_error(TRIDI_ERR_MISALIGNED,
                             "%s: %c = %p is not a multiple of the element size %zu", fn,
                             op_names[k], ops[k], plan->esize);
  return plan->kops->check_overlap(plan, ops, fn);
}

static tridi_status run(tridi_plan plan, const void *const ops[TRIDI_NUM_OPERANDS], int32_t *info,
                        void *stream, void *ws) {
  if (plan->nsys == 0) return TRIDI_SUCCESS;
  if (plan->unknowns == 0 && plan->bops->host) {
    if (info) memset(info, 0, (size_t)plan->nsys * sizeof *info);
    return TRIDI_SUCCESS;
  }
  tridi_args args;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) args.op[k] = ops[k];
  args.info = info;
  args.stream = stream;
  args.ws = ws;
  /* in place the inputs are gone: AUTO only flags */
  const tridi_status st = plan->resolve && ops[TRIDI_OP_X] != ops[TRIDI_OP_D]
                              ? plan->bops->pass_run(plan, &args)
                              : plan->bops->run(plan, &args);
  if (st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE) {
    if (!tridi_last_error()[0])
      tridi_set_error(st, "tridi_execute: numerical breakdown (%s); see the info array",
                      tridi_status_name(st));
  } else if (st == TRIDI_ERR_INACCURATE) {
    if (!tridi_last_error()[0])
      tridi_set_error(st,
                      "tridi_execute: %s: some systems may be inaccurate (info = "
                      "TRIDI_INFO_INACCURATE: element growth without pivoting, or a failed "
                      "accuracy check); their x is written.  TRIDI_PIVOT_PARTIAL, or "
                      "TRIDI_PIVOT_AUTO out of place, solves them with pivoting",
                      plan->solver->name);
  } else if (st && !tridi_last_error()[0]) {
    tridi_set_error(st, "tridi_execute: %s failed", plan->solver->name);
  }
  return st;
}

tridi_status tridi_execute(tridi_plan plan, const void *a, const void *b, const void *c,
                           const void *d, void *x, int32_t *info, void *stream) {
  tridi_clear_error();
  const void *ops[TRIDI_NUM_OPERANDS] = {a, b, c, d, x};
  tridi_status st = check_args(plan, ops, "tridi_execute");
  if (st) return st;
  if (plan->ws_bytes == 0) return run(plan, ops, info, stream, NULL);
  pthread_mutex_lock((pthread_mutex_t *)plan->lock);
  st = run(plan, ops, info, stream, plan->ws);
  pthread_mutex_unlock((pthread_mutex_t *)plan->lock);
  return st;
}

tridi_status tridi_execute_ws(tridi_plan plan, const void *a, const void *b, const void *c,
                              const void *d, void *x, int32_t *info, void *stream, void *workspace,
                              size_t workspace_bytes) {
  tridi_clear_error();
  const void *ops[TRIDI_NUM_OPERANDS] = {a, b, c, d, x};
  tridi_status st = check_args(plan, ops, "tridi_execute_ws");
  if (st) return st;
  if (plan->ws_bytes > 0) {
    if (!workspace)
      return tridi_set_error(TRIDI_ERR_WORKSPACE, "tridi_execute_ws: workspace is NULL but %zu bytes are needed",
                             plan->ws_bytes);
    if (workspace_bytes < plan->ws_bytes)
      return tridi_set_error(TRIDI_ERR_WORKSPACE,
                             "tridi_execute_ws: workspace_bytes = %zu is less than the %zu needed",
                             workspace_bytes, plan->ws_bytes);
    if ((uintptr_t)workspace % TRIDI_ALIGN)
      return tridi_set_error(TRIDI_ERR_WORKSPACE, "tridi_execute_ws: workspace is not 64-byte aligned");
  }
  return run(plan, ops, info, stream, plan->ws_bytes ? workspace : NULL);
}

tridi_status tridi_info_check(tridi_plan plan, const int32_t *info, void *stream,
                              int64_t *first) {
  tridi_clear_error();
  if (first) *first = -1;
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_info_check: plan is NULL");
  if (!info) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_info_check: info is NULL");
  if (plan->nsys == 0) return TRIDI_SUCCESS;
  int64_t s = -1;
  int32_t code = 0;
  const tridi_status st = plan->bops->info_first(plan, info, stream, &s, &code);
  if (st) return st;
  if (first) *first = s;
  if (s < 0) return TRIDI_SUCCESS;
  const tridi_status r = tridi_info_status(code);
  return tridi_set_error(r, "tridi_info_check: system %lld has info %ld (%s)%s", (long long)s,
                         (long)code, tridi_status_name(r),
                         r == TRIDI_ERR_INACCURATE ? ": solved, but element growth without "
                                                      "pivoting (or a failed accuracy check)"
                                                    : "");
}
