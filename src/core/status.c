/* Status names and messages, the per-thread error detail, version, aligned
 * allocation.  Names of the other enums are in names.c. */
#include "tridi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIDI_ERRMSG_LEN 512
static _Thread_local char tridi_errmsg[TRIDI_ERRMSG_LEN];

tridi_status tridi_set_error(tridi_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tridi_errmsg, sizeof tridi_errmsg, fmt, ap);
  va_end(ap);
  return status;
}

void tridi_clear_error(void) { tridi_errmsg[0] = '\0'; }

const char *tridi_last_error(void) { return tridi_errmsg; }

typedef struct {
  const char *name;
  const char *message;
} status_row;

/* Indexed by tridi_status value. */
static const status_row status_rows[] = {
    {"TRIDI_SUCCESS", "success"},
    {"TRIDI_ERR_NULL_POINTER", "a required pointer argument is NULL"},
    {"TRIDI_ERR_INVALID_DTYPE", "unknown element type"},
    {"TRIDI_ERR_INVALID_RANK", "rank outside 1..TRIDI_MAX_RANK"},
    {"TRIDI_ERR_INVALID_SHAPE", "negative extent or element count overflows int64"},
    {"TRIDI_ERR_INVALID_AXIS", "solve axis outside 0..rank-1"},
    {"TRIDI_ERR_INVALID_STRIDE", "strides of x alias or an offset overflows int64"},
    {"TRIDI_ERR_INVALID_OPERAND", "operand index outside a, b, c, d, x"},
    {"TRIDI_ERR_INVALID_OPTION", "invalid field in tridi_options"},
    {"TRIDI_ERR_OVERLAP", "x overlaps an input other than as an exact in-place alias of d"},
    {"TRIDI_ERR_MISALIGNED", "array pointer not aligned to the element size"},
    {"TRIDI_ERR_NOT_SUPPORTED", "not supported by this build, backend or algorithm"},
    {"TRIDI_ERR_BACKEND_UNAVAILABLE", "backend not compiled in or no usable device"},
    {"TRIDI_ERR_ALLOC", "memory allocation failed"},
    {"TRIDI_ERR_WORKSPACE", "workspace NULL, too small or misaligned"},
    {"TRIDI_ERR_ZERO_PIVOT", "zero pivot in at least one system (see info)"},
    {"TRIDI_ERR_NONFINITE", "NaN or Inf input or result in at least one system (see info)"},
    {"TRIDI_ERR_DEVICE", "CUDA runtime or kernel launch error"},
    {"TRIDI_ERR_INTERNAL", "internal error in tridi (please report)"},
    {"TRIDI_ERR_INACCURATE", "some systems may be inaccurate: element growth without pivoting or a "
                             "failed accuracy check (see info)"},
};
#define NSTATUS ((int)(sizeof status_rows / sizeof status_rows[0]))

const char *tridi_status_string(tridi_status status) {
  int s = (int)status;
  return (s >= 0 && s < NSTATUS) ? status_rows[s].message : "unknown status";
}

const char *tridi_status_name(tridi_status status) {
  int s = (int)status;
  return (s >= 0 && s < NSTATUS) ? status_rows[s].name : "TRIDI_UNKNOWN_STATUS";
}

void tridi_version(int *major, int *minor, int *patch) {
  if (major) *major = TRIDI_VERSION_MAJOR;
  if (minor) *minor = TRIDI_VERSION_MINOR;
  if (patch) *patch = TRIDI_VERSION_PATCH;
}

void *tridi_aligned_alloc(size_t bytes) {
  if (bytes == 0) bytes = TRIDI_ALIGN;
  size_t rounded = (bytes + TRIDI_ALIGN - 1) / TRIDI_ALIGN * TRIDI_ALIGN;
  if (rounded < bytes) return NULL; /* overflow */
  return aligned_alloc(TRIDI_ALIGN, rounded);
}

void tridi_aligned_free(void *p) { free(p); }
