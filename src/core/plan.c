/* Planner: layout normalisation and validation, backend/algorithm choice,
 * workspace; execute-time argument checks (NULL, alignment, overlap). */
#include "tridi_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char op_names[TRIDI_NUM_OPERANDS] = {'a', 'b', 'c', 'd', 'x'};

static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Exact injectivity test by enumeration, for layouts that fail the nested
 * test: 1 injective, 0 not, -1 too large to check (more than 2^22 elements)
 * or out of memory. */
static int cmp_i64(const void *p, const void *q) {
  const int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
  return (a > b) - (a < b);
}

static int injective_exact(int m, const int64_t *ext, const int64_t *str) {
  int64_t count = 1;
  for (int i = 0; i < m; ++i) {
    if (ext[i] > ((int64_t)1 << 22) / count) return -1;
    count *= ext[i];
  }
  int64_t *offs = malloc((size_t)count * sizeof *offs);
  if (!offs) return -1;
  for (int64_t e = 0; e < count; ++e) {
    int64_t r = e, o = 0;
    for (int i = 0; i < m; ++i) {
      o += (r % ext[i]) * str[i];
      r /= ext[i];
    }
    offs[e] = o;
  }
  qsort(offs, (size_t)count, sizeof *offs, cmp_i64);
  int ok = 1;
  for (int64_t e = 1; e < count && ok; ++e) ok = offs[e] != offs[e - 1];
  free(offs);
  return ok;
}

/* Stride of operand op along dimension k as the backends see it: a
 * dimension of extent 0 or 1 never multiplies a nonzero index, so any int64
 * is accepted there (INT64_MIN included) and the layout records 0, which no
 * backend can overflow by negating or scaling it. */
static int64_t used_stride(const struct tridi_desc_s *d, int op, int k) {
  return d->shape[k] <= 1 ? 0 : d->strides[op][k];
}

/* Fill plan->lay from the descriptor and check every stride.  A stride of
 * INT64_MIN on a dimension of extent > 1 is rejected (its magnitude does not
 * fit in int64, and its offset in bytes would overflow anyway). */
static tridi_status normalise_layout(const struct tridi_desc_s *d, tridi_layout *L,
                                     size_t esize) {
  memset(L, 0, sizeof *L);
  L->n = d->shape[d->axis];
  L->nsys = 1;
  for (int k = 0; k < d->rank; ++k)
    if (k != d->axis) L->nsys *= d->shape[k];
  for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op) {
    L->axis_stride[op] = used_stride(d, op, d->axis);
    int64_t lo = 0, hi = 0, g = 0;
    for (int k = 0; k < d->rank; ++k) {
      const int64_t e = d->shape[k], s = used_stride(d, op, k);
      if (e <= 1) continue;
      if (s == INT64_MIN)
        return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                               "tridi_plan_create: stride[%d] of %c is INT64_MIN on a dimension of "
                               "extent %lld",
                               k, op_names[op], (long long)e);
      const int64_t m = abs64(s);
      if (m != 0 && e - 1 > INT64_MAX / m)
        return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                               "tridi_plan_create: offsets of %c overflow int64 along dimension %d",
                               op_names[op], k);
      const int64_t span = (e - 1) * m;
      if (s > 0) {
        if (hi > INT64_MAX - span)
          return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                                 "tridi_plan_create: offsets of %c overflow int64", op_names[op]);
        hi += span;
      } else if (s < 0) {
        if (lo < -INT64_MAX + span)
          return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                                 "tridi_plan_create: offsets of %c overflow int64", op_names[op]);
        lo -= span;
      }
      if (m) g = gcd64(g, m);
    }
    /* byte offsets must fit as well */
    if (hi > INT64_MAX / (int64_t)esize - 1 || -lo > INT64_MAX / (int64_t)esize - 1)
      return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                             "tridi_plan_create: byte offsets of %c overflow int64", op_names[op]);
    L->min_off[op] = lo;
    L->max_off[op] = hi;
    L->stride_gcd[op] = g;
  }
  int nb = 0;
  for (int k = 0; k < d->rank; ++k) {
    if (k == d->axis || d->shape[k] == 1) continue;
    L->bext[nb] = d->shape[k];
    for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op) L->bstride[op][nb] = used_stride(d, op, k);
    ++nb;
  }
  L->nbatch = nb;

  /* x must map distinct elements to distinct addresses.  Sufficient (and for
   * practical layouts necessary) test: sorted by |stride|, each stride
   * exceeds the span of all smaller ones. */
  if (L->n > 0 && L->nsys > 0) {
    int64_t ext[TRIDI_MAX_RANK], str[TRIDI_MAX_RANK];
    int m = 0;
    for (int k = 0; k < d->rank; ++k) {
      if (d->shape[k] <= 1) continue;
      ext[m] = d->shape[k];
      str[m] = abs64(used_stride(d, TRIDI_OP_X, k));
      ++m;
    }
    for (int i = 1; i < m; ++i) /* insertion sort by stride */
      for (int j = i; j > 0 && str[j] < str[j - 1]; --j) {
        int64_t t = str[j]; str[j] = str[j - 1]; str[j - 1] = t;
        t = ext[j]; ext[j] = ext[j - 1]; ext[j - 1] = t;
      }
    int64_t span = 0; /* span of the smaller dims, already checked not to overflow */
    int nested = 1;
    for (int i = 0; i < m && nested; ++i) {
      if (str[i] <= span) nested = 0;
      const int64_t term = (ext[i] - 1) * str[i];
      span = span > INT64_MAX - term ? INT64_MAX : span + term;
    }
    if (!nested) {
      const int r = injective_exact(m, ext, str);
      if (r <= 0)
        return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                               r == 0 ? "tridi_plan_create: the strides of x map two distinct "
                                        "elements to the same address"
                                      : "tridi_plan_create: the strides of x are not nested "
                                        "(sorted by size, a stride does not exceed the span of "
                                        "the smaller ones) and x has too many elements to prove "
                                        "that no two share an address");
    }
  }
  return TRIDI_SUCCESS;
}

static tridi_status check_options(const tridi_options *o) {
  if (o->struct_size < sizeof(tridi_options))
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->struct_size = %zu; call tridi_options_init",
                           o->struct_size);
  if ((int)o->backend < TRIDI_BACKEND_AUTO || (int)o->backend > TRIDI_BACKEND_CUDA)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->backend = %d is unknown",
                           (int)o->backend);
  if ((int)o->alg < TRIDI_ALG_AUTO || (int)o->alg > TRIDI_ALG_CR_RD)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->alg = %d is unknown",
                           (int)o->alg);
  if (o->num_threads < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->num_threads = %d is negative", o->num_threads);
  if ((int)o->simd < TRIDI_SIMD_AUTO || (int)o->simd > TRIDI_SIMD_AVX512)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->simd = %d is unknown",
                           (int)o->simd);
  if (o->device < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_plan_create: opts->device = %d is negative",
                           o->device);
  if (o->flags != 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_create: opts->flags = %#x; no flags are defined", o->flags);
  return TRIDI_SUCCESS;
}

static void free_workspace(struct tridi_plan_s *p) {
  if (!p->ws) return;
#ifdef TRIDI_HAVE_CUDA
  if (p->backend == TRIDI_BACKEND_CUDA) {
    tridi_cuda_free(p->ws, p->device);
    p->ws = NULL;
    return;
  }
#endif
  tridi_aligned_free(p->ws);
  p->ws = NULL;
}

static void plan_free(struct tridi_plan_s *p) {
  if (!p) return;
  if (p->solver && p->solver->destroy) p->solver->destroy(p);
  free_workspace(p);
  if (p->lock) {
    pthread_mutex_destroy((pthread_mutex_t *)p->lock);
    free(p->lock);
  }
  free(p);
}

tridi_status tridi_plan_create(tridi_plan *plan, tridi_desc desc, const tridi_options *opts) {
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_create: plan is NULL");
  *plan = NULL;
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_create: desc is NULL");
  tridi_options defaults;
  tridi_options_init(&defaults);
  if (!opts) opts = &defaults;
  tridi_status st = check_options(opts);
  if (st) return st;
  if (desc->kind != TRIDI_KIND_SCALAR)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED, "tridi_plan_create: kind %d is not implemented",
                           (int)desc->kind);

  struct tridi_plan_s *p = calloc(1, sizeof *p);
  if (!p) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  p->dtype = desc->dtype;
  p->esize = tridi_dtype_size(desc->dtype);
  p->kind = desc->kind;
  st = normalise_layout(desc, &p->lay, p->esize);
  if (st) goto fail;

  p->backend = opts->backend == TRIDI_BACKEND_AUTO ? TRIDI_BACKEND_CPU : opts->backend;
  p->requested_alg = opts->alg;
  p->device = opts->device;
  p->simd = TRIDI_SIMD_AUTO;
  p->num_threads = 1;
  if (p->backend == TRIDI_BACKEND_CPU) {
    if (opts->simd == TRIDI_SIMD_AUTO) {
      p->simd = tridi_cpu_simd_detect_impl();
    } else if (!tridi_cpu_simd_supported(opts->simd)) {
      st = tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "tridi_plan_create: opts->simd = %s is not supported by this CPU or build",
                           tridi_simd_name(opts->simd));
      goto fail;
    } else {
      p->simd = opts->simd;
    }
    p->num_threads = opts->num_threads > 0 ? opts->num_threads : tridi_cpu_max_threads();
    if (p->num_threads < 1) p->num_threads = 1;
  } else if (p->backend == TRIDI_BACKEND_CUDA) {
#ifdef TRIDI_HAVE_CUDA
    st = tridi_cuda_check_device(p->device);
    if (st) goto fail;
#else
    st = tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE,
                         "tridi_plan_create: this build of tridi has no CUDA backend");
    goto fail;
#endif
  }

  for (int i = 0; i < tridi_solver_count; ++i) {
    const tridi_solver *s = &tridi_solver_table[i];
    if (s->backend != p->backend) continue;
    if (opts->alg != TRIDI_ALG_AUTO && s->alg != opts->alg) continue;
    if (s->applies && !s->applies(p)) continue;
    p->solver = s;
    break;
  }
  if (!p->solver) {
    st = tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                         "tridi_plan_create: algorithm %s is not available for backend %s on this "
                         "problem",
                         tridi_alg_name(opts->alg), tridi_backend_name(p->backend));
    goto fail;
  }
  p->alg = p->solver->alg;
  if (p->solver->init) {
    st = p->solver->init(p);
    if (st) {
      if (!tridi_last_error()[0])
        tridi_set_error(st, "tridi_plan_create: %s could not be initialised", p->solver->name);
      goto fail;
    }
  }
  if (!p->kernel_name[0]) {
    strncpy(p->kernel_name, p->solver->name, sizeof p->kernel_name - 1);
  }
  if (p->ws_bytes > 0) {
#ifdef TRIDI_HAVE_CUDA
    if (p->backend == TRIDI_BACKEND_CUDA) {
      st = tridi_cuda_alloc(&p->ws, p->ws_bytes, p->device);
      if (st) goto fail;
    } else
#endif
    {
      p->ws = tridi_aligned_alloc(p->ws_bytes);
      if (!p->ws) {
        st = tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: cannot allocate %zu bytes of workspace",
                             p->ws_bytes);
        goto fail;
      }
    }
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

tridi_status tridi_plan_get_info(tridi_plan plan, tridi_plan_info *info) {
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_get_info: plan is NULL");
  if (!info) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_plan_get_info: info is NULL");
  if (info->struct_size < sizeof(tridi_plan_info))
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_plan_get_info: info->struct_size = %zu; set it to "
                           "sizeof(tridi_plan_info)",
                           info->struct_size);
  info->backend = plan->backend;
  info->alg = plan->alg;
  info->simd = plan->simd;
  info->num_threads = plan->num_threads;
  info->n = plan->lay.n;
  info->num_systems = plan->lay.nsys;
  info->kernel = plan->kernel_name;
  return TRIDI_SUCCESS;
}

/* 1 when x (operand X) and operand `op` of the plan's layout may share an
 * element, given their base addresses.  Conservative: see docs/layouts.md. */
static int overlaps(const tridi_layout *L, size_t es, int op, const void *x, const void *p) {
  const intptr_t xb = (intptr_t)x, pb = (intptr_t)p, e = (intptr_t)es;
  const intptr_t xlo = xb + (intptr_t)L->min_off[TRIDI_OP_X] * e;
  const intptr_t xhi = xb + ((intptr_t)L->max_off[TRIDI_OP_X] + 1) * e;
  const intptr_t plo = pb + (intptr_t)L->min_off[op] * e;
  const intptr_t phi = pb + ((intptr_t)L->max_off[op] + 1) * e;
  if (xhi <= plo || phi <= xlo) return 0; /* byte ranges disjoint */
  if (op == TRIDI_OP_D && xb == pb) {       /* exact in-place alias? */
    int same = L->axis_stride[TRIDI_OP_X] == L->axis_stride[TRIDI_OP_D] || L->n <= 1;
    for (int j = 0; same && j < L->nbatch; ++j)
      same = L->bstride[TRIDI_OP_X][j] == L->bstride[TRIDI_OP_D][j];
    if (same) return 0;
  }
  /* Every address of x is xb + k*gx*es and of op pb + k*gp*es: with
   * g = gcd(gx, gp) in bytes, element starts differ by delta + g*Z, so no two
   * elements touch when the distance of delta to g*Z is at least es. */
  const int64_t g = gcd64(L->stride_gcd[TRIDI_OP_X], L->stride_gcd[op]) * (int64_t)es;
  if (g == 0) return 1;
  int64_t r = (int64_t)((xb - pb) % (intptr_t)g);
  if (r < 0) r += g;
  return !(r >= (int64_t)es && g - r >= (int64_t)es);
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
  if (plan->lay.n == 0 || plan->lay.nsys == 0) return TRIDI_SUCCESS;
  for (int k = 0; k < TRIDI_OP_X; ++k)
    if (overlaps(&plan->lay, plan->esize, k, ops[TRIDI_OP_X], ops[k]))
      return tridi_set_error(TRIDI_ERR_OVERLAP,
                             "%s: x overlaps %c (only x == d with identical strides is allowed)", fn,
                             op_names[k]);
  return TRIDI_SUCCESS;
}

static tridi_status run(tridi_plan plan, const void *const ops[TRIDI_NUM_OPERANDS], int32_t *info,
                        void *stream, void *ws) {
  if (plan->lay.nsys == 0) return TRIDI_SUCCESS;
  if (plan->lay.n == 0 && plan->backend != TRIDI_BACKEND_CUDA) {
    if (info) memset(info, 0, (size_t)plan->lay.nsys * sizeof *info);
    return TRIDI_SUCCESS;
  }
  tridi_args args;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) args.op[k] = ops[k];
  args.info = info;
  args.stream = stream;
  args.ws = ws;
  tridi_status st = plan->solver->execute(plan, &args);
  if (st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE) {
    if (!tridi_last_error()[0])
      tridi_set_error(st, "tridi_execute: numerical breakdown (%s); see the info array",
                      tridi_status_name(st));
  } else if (st == TRIDI_ERR_INACCURATE) {
    if (!tridi_last_error()[0])
      tridi_set_error(st,
                      "tridi_execute: %s: some systems failed the accuracy check (info = "
                      "TRIDI_INFO_INACCURATE); their x is written but not accurate",
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

int tridi_backend_available(tridi_backend backend) {
  switch (backend) {
    case TRIDI_BACKEND_AUTO:
    case TRIDI_BACKEND_REF:
    case TRIDI_BACKEND_CPU: return 1;
    case TRIDI_BACKEND_CUDA:
#ifdef TRIDI_HAVE_CUDA
      return tridi_cuda_available();
#else
      return 0;
#endif
  }
  return 0;
}

tridi_simd tridi_cpu_simd_detect(void) { return tridi_cpu_simd_detect_impl(); }
