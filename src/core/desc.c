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

tridi_status tridi_desc_create(tridi_desc *desc, tridi_dtype dtype, int rank,
                               const int64_t *shape, int axis) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_create: desc is NULL");
  *desc = NULL;
  if (!shape) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_create: shape is NULL");
  if (dtype != TRIDI_F32 && dtype != TRIDI_F64) {
    if (dtype == TRIDI_C32 || dtype == TRIDI_C64)
      return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                             "tridi_desc_create: dtype %s (complex) is not supported yet",
                             tridi_dtype_name(dtype));
    return tridi_set_error(TRIDI_ERR_INVALID_DTYPE, "tridi_desc_create: dtype = %d is unknown",
                           (int)dtype);
  }
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

tridi_status tridi_desc_set_strides(tridi_desc desc, tridi_operand op, const int64_t *strides) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_strides: desc is NULL");
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
  if (!strides)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_all_strides: strides is NULL");
  for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op)
    for (int k = 0; k < desc->rank; ++k) desc->strides[op][k] = strides[k];
  return TRIDI_SUCCESS;
}

tridi_status tridi_desc_set_kind(tridi_desc desc, tridi_kind kind) {
  tridi_clear_error();
  if (!desc) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_desc_set_kind: desc is NULL");
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
  int64_t s = 1;
  for (int k = 0; k < desc->rank; ++k)
    if (k != desc->axis) s *= desc->shape[k];
  *num_systems = s;
  return TRIDI_SUCCESS;
}

tridi_status tridi_desc_destroy(tridi_desc desc) {
  tridi_clear_error();
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
}
