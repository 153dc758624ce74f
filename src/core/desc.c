/* Problem descriptor and options. */
#include "tridi_internal.h"

#include <stdlib.h>
#include <string.h>

static void packed_strides(int rank, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int k = rank - 1; k >= 0; --k) {
    strides[k] = s;
    /* shape was checked: the product fits in int64 */
    s *= shape[k] > 0 ? shape[k] : 1;
  }
}

static tridi_status check_dtype(tridi_dtype dtype, const char *fn) {
  if (dtype == TRIDI_F32 || dtype == TRIDI_F64) return TRIDI_SUCCESS;
  if (dtype == TRIDI_C32 || dtype == TRIDI_C64)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED, "%s: dtype %s (complex) is not supported yet", fn,
                           tridi_dtype_name(dtype));
  return tridi_set_error(TRIDI_ERR_INVALID_DTYPE, "%s: dtype = %d is unknown", fn, (int)dtype);
}

tridi_status tridi_desc_create(tridi_desc *desc, tridi_dtype dtype, int rank,
                               const int64_t *shape, int axis) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_create: desc is NULL");
  *desc = NULL;
  if (!shape) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_create: shape is NULL");
  tridi_status st = check_dtype(dtype, "tridi_desc_create");
  if (st) return st;
  if (rank < 1 || rank > TRIDI_MAX_RANK)
    return tridi_set_error(TRIDI_ERR_INVALID_RANK,
                           "tridi_desc_create: rank = %d is outside 1..%d", rank, TRIDI_MAX_RANK);
  int64_t total = 1;
  for (int k = 0; k < rank; ++k) {
    if (shape[k] < 0)
      return tridi_set_error(TRIDI_ERR_INVALID_SHAPE,
                             "tridi_desc_create: shape[%d] = %lld is negative", k,
                             (long long)shape[k]);
    if (shape[k] > 0 && total > INT64_MAX / shape[k])
      return tridi_set_error(TRIDI_ERR_INVALID_SHAPE,
                             "tridi_desc_create: the element count overflows int64 at shape[%d]",
                             k);
    total *= shape[k] > 0 ? shape[k] : 1;
  }
  if (axis < 0 || axis >= rank)
    return tridi_set_error(TRIDI_ERR_INVALID_AXIS,
                           "tridi_desc_create: axis = %d is outside 0..%d", axis, rank - 1);
  struct tridi_desc_s *d = calloc(1, sizeof *d);
  if (!d) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_desc_create: out of memory");
  d->dtype = dtype;
  d->kind = TRIDI_KIND_SCALAR;
  d->rank = rank;
  d->axis = axis;
  for (int k = 0; k < rank; ++k) d->shape[k] = shape[k];
  for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op) packed_strides(rank, shape, d->strides[op]);
  *desc = d;
  return TRIDI_SUCCESS;
}

/* Variable-size batches have their storage fixed by tridi_desc_create_variable. */
static tridi_status refuse_variable(tridi_desc desc, const char *fn) {
  if (desc->kind != TRIDI_KIND_VARIABLE) return TRIDI_SUCCESS;
  return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                         "%s: a variable-size batch has no strides (its layout is given to "
                         "tridi_desc_create_variable)",
                         fn);
}

tridi_status tridi_desc_create_variable(tridi_desc *desc, tridi_dtype dtype, int64_t num_systems,
                                        const int64_t *lengths, tridi_var_layout layout,
                                        int64_t rows, int64_t ld) {
  static const char fn[] = "tridi_desc_create_variable";
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: desc is NULL", fn);
  *desc = NULL;
  tridi_status st = check_dtype(dtype, fn);
  if (st) return st;
  if (num_systems < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_SHAPE, "%s: num_systems = %lld is negative", fn,
                           (long long)num_systems);
  if (!lengths && num_systems > 0)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: lengths is NULL", fn);
  if (layout != TRIDI_VAR_PACKED && layout != TRIDI_VAR_INTERLEAVED)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "%s: layout = %d is unknown", fn, (int)layout);
  if (layout == TRIDI_VAR_PACKED && (rows != 0 || ld != 0))
    return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                           "%s: rows = %lld and ld = %lld must be 0 for TRIDI_VAR_PACKED", fn,
                           (long long)rows, (long long)ld);
  if (layout == TRIDI_VAR_INTERLEAVED) {
    if (rows < 0)
      return tridi_set_error(TRIDI_ERR_INVALID_SHAPE, "%s: rows = %lld is negative", fn,
                             (long long)rows);
    if (ld < num_systems || ld < 1)
      return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                             "%s: ld = %lld is less than num_systems = %lld (or 1)", fn,
                             (long long)ld, (long long)num_systems);
    if (rows > 0 && (rows - 1) > (INT64_MAX - num_systems) / ld)
      return tridi_set_error(TRIDI_ERR_INVALID_SHAPE,
                             "%s: rows * ld overflows int64 (rows = %lld, ld = %lld)", fn,
                             (long long)rows, (long long)ld);
  }
  int64_t total = 0;
  for (int64_t s = 0; s < num_systems; ++s) {
    const int64_t n = lengths[s];
    if (n < 1)
      return tridi_set_error(TRIDI_ERR_INVALID_SHAPE, "%s: lengths[%lld] = %lld is not positive", fn,
                             (long long)s, (long long)n);
    if (layout == TRIDI_VAR_INTERLEAVED && n > rows)
      return tridi_set_error(TRIDI_ERR_INVALID_SHAPE,
                             "%s: lengths[%lld] = %lld exceeds the padded extent rows = %lld", fn,
                             (long long)s, (long long)n, (long long)rows);
    if (total > INT64_MAX - n)
      return tridi_set_error(TRIDI_ERR_INVALID_SHAPE,
                             "%s: the total length overflows int64 at lengths[%lld]", fn,
                             (long long)s);
    total += n;
  }
  struct tridi_desc_s *d = calloc(1, sizeof *d);
  int64_t *len = malloc((size_t)(num_systems > 0 ? num_systems : 1) * sizeof *len);
  if (!d || !len) {
    free(d);
    free(len);
    return tridi_set_error(TRIDI_ERR_ALLOC, "%s: out of memory", fn);
  }
  if (num_systems > 0) memcpy(len, lengths, (size_t)num_systems * sizeof *len);
  d->dtype = dtype;
  d->kind = TRIDI_KIND_VARIABLE;
  d->var_nsys = num_systems;
  d->var_lengths = len;
  d->var_layout = layout;
  d->var_rows = rows;
  d->var_ld = ld;
  *desc = d;
  return TRIDI_SUCCESS;
}

tridi_status tridi_desc_set_strides(tridi_desc desc, tridi_operand op, const int64_t *strides) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_strides: desc is NULL");
  tridi_status st = refuse_variable(desc, "tridi_desc_set_strides");
  if (st) return st;
  if ((int)op < 0 || (int)op >= TRIDI_NUM_OPERANDS)
    return tridi_set_error(TRIDI_ERR_INVALID_OPERAND,
                           "tridi_desc_set_strides: op = %d is not one of TRIDI_OP_A..TRIDI_OP_X",
                           (int)op);
  if (!strides)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_strides: strides is NULL");
  for (int k = 0; k < desc->rank; ++k) desc->strides[op][k] = strides[k];
  return TRIDI_SUCCESS;
}

tridi_status tridi_desc_set_all_strides(tridi_desc desc, const int64_t *strides) {
  tridi_clear_error();
  if (!desc)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_all_strides: desc is NULL");
  tridi_status st = refuse_variable(desc, "tridi_desc_set_all_strides");
  if (st) return st;
  if (!strides)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_all_strides: strides is NULL");
  for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op)
    for (int k = 0; k < desc->rank; ++k) desc->strides[op][k] = strides[k];
  return TRIDI_SUCCESS;
}

tridi_status tridi_desc_set_kind(tridi_desc desc, tridi_kind kind) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_kind: desc is NULL");
  if (kind == TRIDI_KIND_VARIABLE || desc->kind == TRIDI_KIND_VARIABLE)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "tridi_desc_set_kind: kind %s is made by tridi_desc_create_variable "
                           "(it needs the lengths)",
                           tridi_kind_name(TRIDI_KIND_VARIABLE));
  if (kind != TRIDI_KIND_SCALAR)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "tridi_desc_set_kind: kind = %d is not implemented in this release",
                           (int)kind);
  desc->kind = kind;
  return TRIDI_SUCCESS;
}

tridi_status tridi_desc_num_systems(tridi_desc desc, int64_t *num_systems) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_num_systems: desc is NULL");
  if (!num_systems)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_num_systems: num_systems is NULL");
  if (desc->kind == TRIDI_KIND_VARIABLE) {
    *num_systems = desc->var_nsys;
    return TRIDI_SUCCESS;
  }
  int64_t s = 1;
  for (int k = 0; k < desc->rank; ++k)
    if (k != desc->axis) s *= desc->shape[k];
  *num_systems = s;
  return TRIDI_SUCCESS;
}

tridi_status tridi_desc_destroy(tridi_desc desc) {
  tridi_clear_error();
  if (desc) free(desc->var_lengths);
  free(desc);
  return TRIDI_SUCCESS;
}

void tridi_options_init(tridi_options *opts) {
  if (!opts) return;
  memset(opts, 0, sizeof *opts);
  opts->struct_size = sizeof *opts;
  opts->backend = TRIDI_BACKEND_AUTO;
  opts->alg = TRIDI_ALG_AUTO;
  opts->num_threads = 0;
  opts->simd = TRIDI_SIMD_AUTO;
  opts->device = 0;
  opts->flags = 0;
  opts->pivot = TRIDI_PIVOT_AUTO;
  opts->assume_dominant = 0;
}
