/* The C side of tridi's Fortran module: Fortran 2018 C descriptors
 * (ISO_Fortran_binding.h, CFI_cdesc_t) to tridi layouts, without copies.
 *
 * The module (tridi.f90) passes its assumed-rank arrays here as descriptors.
 * A Fortran array x(n_1, ..., n_r) is column-major: dimension 1 varies
 * fastest.  tridi's layouts are row-major in their default strides but take
 * any per-operand strides, so dimension j of the Fortran array (1-based)
 * becomes dimension r - j of the tridi descriptor, and its byte stride
 * (CFI dim[j-1].sm, any sign) divided by the element size becomes the
 * stride.  The systems run along Fortran dimension `dim`, tridi axis r - dim.
 * tridi's info array, row-major over the non-axis dimensions of the tridi
 * shape, is then column-major over the Fortran dimensions other than `dim`:
 * a Fortran array of those extents.
 *
 * a, b, c and d are either of x's rank and shape (an extent of 1 broadcasts
 * with stride 0), of rank 1 with the extent n of dimension `dim` (the same
 * coefficients for every system), or of rank 0 (a constant).
 *
 * d may be NULL (an absent optional argument): an in-place solve, x is d.
 *
 * Every function returns a tridi_status; the message of the last failure of
 * the calling thread is tridi_f_last_error() (the binding's own checks, or
 * tridi_last_error() of the failing tridi call).
 */
#include <ISO_Fortran_binding.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tridi_cfi.h"

#define F_MAX_RANK 7 /* ranks 1..7 (tridi takes up to TRIDI_MAX_RANK = 8) */

static _Thread_local char last_error[512];

const char *tridi_f_last_error(void) { return last_error; }

static tridi_status fail(tridi_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return st;
}

/* a tridi call failed: keep its message */
static tridi_status fail_tridi(tridi_status st) {
  snprintf(last_error, sizeof last_error, "%s", tridi_last_error());
  return st;
}

/* What one call describes: the tridi problem and the five base pointers. */
typedef struct f_layout {
  tridi_dtype dtype;
  int rank; /* Fortran rank of x = tridi rank */
  int axis; /* tridi axis = rank - dim */
  int64_t shape[F_MAX_RANK];
  int64_t strides[TRIDI_NUM_OPERANDS][F_MAX_RANK];
  void *base[TRIDI_NUM_OPERANDS];
  int64_t elems, batch;
} f_layout;

static const char *const op_names[TRIDI_NUM_OPERANDS] = {"a", "b", "c", "d", "x"};

static tridi_dtype dtype_of(const CFI_cdesc_t *desc) {
  if (desc->type == CFI_type_float && desc->elem_len == sizeof(float)) return TRIDI_F32;
  if (desc->type == CFI_type_double && desc->elem_len == sizeof(double)) return TRIDI_F64;
  return (tridi_dtype)0;
}

/* Byte stride of descriptor dimension j in elements, refusing non-multiples
 * (a component of a derived type, say). */
static tridi_status elem_stride(const CFI_cdesc_t *desc, int op, int j, int64_t *out) {
  const CFI_index_t sm = desc->dim[j].sm;
  const int64_t len = (int64_t)desc->elem_len;
  if (desc->dim[j].extent <= 1) {
    *out = 0;
    return TRIDI_SUCCESS;
  }
  if (sm % len != 0)
    return fail(TRIDI_ERR_INVALID_STRIDE,
                "tridi_solve: %s has a stride of %lld bytes along dimension %d, not a multiple "
                "of its element size %lld: tridi takes strides in elements (pass a copy)",
                op_names[op], (long long)sm, j + 1, (long long)len);
  *out = (int64_t)(sm / len);
  return TRIDI_SUCCESS;
}

static tridi_status describe(const CFI_cdesc_t *const ops[TRIDI_NUM_OPERANDS], int dim,
                             f_layout *L) {
  memset(L, 0, sizeof *L);
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    if (!ops[k]) return fail(TRIDI_ERR_NULL_POINTER, "tridi_solve: %s is missing", op_names[k]);
  const CFI_cdesc_t *x = ops[TRIDI_OP_X];
  L->dtype = dtype_of(x);
  if (!L->dtype)
    return fail(TRIDI_ERR_INVALID_DTYPE, "tridi_solve: x must be real(4) or real(8) "
                "(CFI type %d, %zu bytes)", (int)x->type, x->elem_len);
  for (int k = 0; k < TRIDI_OP_X; ++k)
    if (dtype_of(ops[k]) != L->dtype)
      return fail(TRIDI_ERR_INVALID_DTYPE, "tridi_solve: %s and x must have one kind, real(4) "
                  "or real(8)", op_names[k]);
  const int r = x->rank;
  if (r < 1 || r > F_MAX_RANK)
    return fail(TRIDI_ERR_INVALID_RANK, "tridi_solve: x has rank %d; tridi_solve takes ranks 1 "
                "to %d", r, F_MAX_RANK);
  if (dim < 1 || dim > r)
    return fail(TRIDI_ERR_INVALID_AXIS, "tridi_solve: dim = %d is not a dimension of x "
                "(rank %d)", dim, r);
  L->rank = r;
  L->axis = r - dim;
  L->elems = 1;
  L->batch = 1;
  for (int j = 0; j < r; ++j) {
    L->shape[r - 1 - j] = (int64_t)x->dim[j].extent;
    L->elems *= (int64_t)x->dim[j].extent;
    if (j != dim - 1) L->batch *= (int64_t)x->dim[j].extent;
  }
  const int64_t n = L->shape[L->axis];
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
    const CFI_cdesc_t *o = ops[k];
    tridi_status st;
    L->base[k] = o->base_addr;
    if (o->rank == 0) continue; /* a constant: stride 0 everywhere */
    if (o->rank == 1 && r > 1 && k < TRIDI_OP_X) {
      /* the same coefficients (or right-hand side) for every system */
      if (o->dim[0].extent != n && o->dim[0].extent != 1)
        return fail(TRIDI_ERR_INVALID_SHAPE, "tridi_solve: %s has rank 1 and extent %lld; a "
                    "rank-1 %s lies along dim = %d and needs its extent %lld (or 1)",
                    op_names[k], (long long)o->dim[0].extent, op_names[k], dim, (long long)n);
      if ((st = elem_stride(o, k, 0, &L->strides[k][L->axis]))) return st;
      continue;
    }
    if (o->rank != r)
      return fail(TRIDI_ERR_INVALID_SHAPE, "tridi_solve: %s has rank %d but x has rank %d; "
                  "give %s the rank of x, rank 1 (along dim) or rank 0 (a constant)",
                  op_names[k], (int)o->rank, r, op_names[k]);
    for (int j = 0; j < r; ++j) {
      const CFI_index_t e = o->dim[j].extent;
      if (e != x->dim[j].extent && !(e == 1 && k < TRIDI_OP_X))
        return fail(TRIDI_ERR_INVALID_SHAPE, "tridi_solve: extent %lld of %s along dimension "
                    "%d differs from x's %lld", (long long)e, op_names[k], j + 1,
                    (long long)x->dim[j].extent);
      if ((st = elem_stride(o, k, j, &L->strides[k][r - 1 - j]))) return st;
    }
  }
  return TRIDI_SUCCESS;
}

static tridi_status check_info(const CFI_cdesc_t *info, const f_layout *L) {
  if (!info) return TRIDI_SUCCESS;
  if (info->type != CFI_type_int32_t)
    return fail(TRIDI_ERR_INVALID_DTYPE, "tridi_solve: info must be integer(c_int32_t)");
  int64_t size = 1;
  for (int j = 0; j < info->rank; ++j) size *= (int64_t)info->dim[j].extent;
  if (size != L->batch)
    return fail(TRIDI_ERR_INVALID_SHAPE, "tridi_solve: info has %lld elements; it needs one per "
                "system, %lld", (long long)size, (long long)L->batch);
  if (size > 1 && !CFI_is_contiguous(info))
    return fail(TRIDI_ERR_INVALID_STRIDE, "tridi_solve: info must be contiguous");
  return TRIDI_SUCCESS;
}

static tridi_status make_plan(const f_layout *L, const char *alg, int backend, int threads,
                              int device, int assume_dominant, tridi_plan *plan) {
  tridi_desc desc = NULL;
  tridi_status st = tridi_desc_create(&desc, L->dtype, L->rank, L->shape, L->axis);
  if (st) return fail_tridi(st);
  for (int k = 0; k < TRIDI_NUM_OPERANDS && !st; ++k)
    st = tridi_desc_set_strides(desc, (tridi_operand)k, L->strides[k]);
  if (st) {
    fail_tridi(st);
    tridi_desc_destroy(desc);
    return st;
  }
  tridi_options opts;
  tridi_options_init(&opts);
  opts.backend = (tridi_backend)backend;
  opts.num_threads = threads;
  opts.device = device;
  opts.assume_dominant = assume_dominant != 0;
  if (alg && alg[0] && strcmp(alg, "auto") != 0 && (st = tridi_alg_from_name(alg, &opts.alg))) {
    tridi_desc_destroy(desc);
    return fail(st, "tridi_solve: alg = '%s' is not an algorithm (thomas, thomas_pcr, cr, pcr, "
                "rd, cr_pcr, cr_rd, ...)", alg);
  }
  st = tridi_plan_create(plan, desc, &opts);
  if (st) fail_tridi(st);
  tridi_desc_destroy(desc);
  return st;
}

static tridi_status run(tridi_plan plan, const f_layout *L, const CFI_cdesc_t *info) {
  int32_t *info_ptr = info ? (int32_t *)info->base_addr : NULL;
  if (L->elems == 0) { /* nothing to solve; systems of length 0 are solved */
    if (info_ptr) memset(info_ptr, 0, sizeof(int32_t) * (size_t)L->batch);
    return TRIDI_SUCCESS;
  }
  const tridi_status st = tridi_execute(plan, L->base[0], L->base[1], L->base[2], L->base[3],
                                        L->base[4], info_ptr, NULL);
  return st ? fail_tridi(st) : TRIDI_SUCCESS;
}

int tridi_f_solve(const CFI_cdesc_t *a, const CFI_cdesc_t *b, const CFI_cdesc_t *c,
                  const CFI_cdesc_t *d, const CFI_cdesc_t *x, int dim, const CFI_cdesc_t *info,
                  const char *alg, int assume_dominant) {
  if (!d) d = x; /* in place */
  const CFI_cdesc_t *const ops[TRIDI_NUM_OPERANDS] = {a, b, c, d, x};
  f_layout L;
  tridi_status st = describe(ops, dim, &L);
  if (!st) st = check_info(info, &L);
  if (st) return st;
  tridi_plan plan = NULL;
  if ((st = make_plan(&L, alg, TRIDI_BACKEND_AUTO, 0, 0, assume_dominant, &plan))) return st;
  st = run(plan, &L, info);
  tridi_plan_destroy(plan);
  return st;
}

/* ---- plans --------------------------------------------------------------- */

/* A plan and the layout it was made for (checked on each execute). */
struct tridi_f_plan {
  tridi_plan plan;
  f_layout layout;
};

int tridi_f_plan_create(tridi_f_plan **out, const CFI_cdesc_t *a, const CFI_cdesc_t *b,
                        const CFI_cdesc_t *c, const CFI_cdesc_t *d, const CFI_cdesc_t *x, int dim,
                        const char *alg, int backend, int threads, int device,
                        int assume_dominant) {
  if (!d) d = x; /* in place */
  const CFI_cdesc_t *const ops[TRIDI_NUM_OPERANDS] = {a, b, c, d, x};
  if (!out) return fail(TRIDI_ERR_NULL_POINTER, "tridi_plan_create: plan is missing");
  *out = NULL;
  tridi_f_plan *p = calloc(1, sizeof *p);
  if (!p) return fail(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  tridi_status st = describe(ops, dim, &p->layout);
  if (!st)
    st = make_plan(&p->layout, alg, backend, threads, device, assume_dominant, &p->plan);
  if (st) {
    free(p);
    return st;
  }
  *out = p;
  return TRIDI_SUCCESS;
}

int tridi_f_plan_execute(const tridi_f_plan *p, const CFI_cdesc_t *a, const CFI_cdesc_t *b,
                         const CFI_cdesc_t *c, const CFI_cdesc_t *d, const CFI_cdesc_t *x,
                         const CFI_cdesc_t *info) {
  if (!p) return fail(TRIDI_ERR_NULL_POINTER, "tridi_plan_execute: the plan was not created "
                      "(or was destroyed)");
  if (!d) d = x; /* in place */
  const CFI_cdesc_t *const ops[TRIDI_NUM_OPERANDS] = {a, b, c, d, x};
  const f_layout *P = &p->layout;
  f_layout L;
  tridi_status st = describe(ops, P->rank - P->axis, &L);
  if (st) return st;
  if (L.dtype != P->dtype || L.rank != P->rank)
    return fail(TRIDI_ERR_INVALID_DTYPE, "tridi_plan_execute: the arrays' kind or rank differs "
                "from the plan's");
  for (int j = 0; j < L.rank; ++j)
    if (L.shape[j] != P->shape[j])
      return fail(TRIDI_ERR_INVALID_SHAPE, "tridi_plan_execute: x's extent along dimension %d "
                  "is %lld, the plan's %lld", L.rank - j, (long long)L.shape[j],
                  (long long)P->shape[j]);
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    for (int j = 0; j < L.rank; ++j)
      if (L.strides[k][j] != P->strides[k][j])
        return fail(TRIDI_ERR_INVALID_STRIDE, "tridi_plan_execute: %s has stride %lld along "
                    "dimension %d, the plan was made for %lld (make a plan per layout)",
                    op_names[k], (long long)L.strides[k][j], L.rank - j,
                    (long long)P->strides[k][j]);
  if ((st = check_info(info, &L))) return st;
  return run(p->plan, &L, info);
}

void tridi_f_plan_destroy(tridi_f_plan *p) {
  if (!p) return;
  tridi_plan_destroy(p->plan);
  free(p);
}

/* What a plan chose: names copied into Fortran character buffers (blank
 * padded, not NUL-terminated), sizes of the buffers given. */
static void copy_name(const char *s, char *buf, size_t len) {
  if (!buf) return;
  const size_t n = s ? strlen(s) : 0;
  memset(buf, ' ', len);
  memcpy(buf, s, n < len ? n : len);
}

int tridi_f_plan_describe(const tridi_f_plan *p, char *alg, size_t alg_len, char *backend,
                          size_t backend_len, char *kernel, size_t kernel_len,
                          int64_t *workspace_bytes) {
  if (!p) return fail(TRIDI_ERR_NULL_POINTER, "tridi_plan_describe: the plan was not created");
  tridi_plan_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  tridi_status st = tridi_plan_get_info(p->plan, &info);
  if (st) return fail_tridi(st);
  size_t ws = 0;
  if ((st = tridi_plan_workspace_size(p->plan, &ws))) return fail_tridi(st);
  copy_name(tridi_alg_name(info.alg), alg, alg_len);
  copy_name(tridi_backend_name(info.backend), backend, backend_len);
  copy_name(info.kernel, kernel, kernel_len);
  if (workspace_bytes) *workspace_bytes = (int64_t)ws;
  return TRIDI_SUCCESS;
}
