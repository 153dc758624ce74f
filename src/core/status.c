/* Status names and messages, the per-thread error detail, names of enums,
 * version, aligned allocation. */
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

size_t tridi_dtype_size(tridi_dtype dtype) {
  switch (dtype) {
    case TRIDI_F32: return 4;
    case TRIDI_F64: return 8;
    case TRIDI_C32: return 8;
    case TRIDI_C64: return 16;
  }
  return 0;
}

const char *tridi_dtype_name(tridi_dtype dtype) {
  switch (dtype) {
    case TRIDI_F32: return "f32";
    case TRIDI_F64: return "f64";
    case TRIDI_C32: return "c32";
    case TRIDI_C64: return "c64";
  }
  return "unknown";
}

const char *tridi_backend_name(tridi_backend backend) {
  switch (backend) {
    case TRIDI_BACKEND_AUTO: return "auto";
    case TRIDI_BACKEND_REF: return "ref";
    case TRIDI_BACKEND_CPU: return "cpu";
    case TRIDI_BACKEND_CUDA: return "cuda";
  }
  return "unknown";
}

const char *tridi_alg_name(tridi_alg alg) {
  static const char *names[] = {"auto",   "thomas_ref", "thomas", "thomas_shared",
                                "thomas_shuffle", "thomas_pcr", "cr", "pcr", "rd",
                                "cr_pcr", "cr_rd"};
  int a = (int)alg;
  return (a >= 0 && a < (int)(sizeof names / sizeof names[0])) ? names[a] : "unknown";
}

const char *tridi_simd_name(tridi_simd simd) {
  switch (simd) {
    case TRIDI_SIMD_AUTO: return "auto";
    case TRIDI_SIMD_PORTABLE: return "portable";
    case TRIDI_SIMD_AVX2: return "avx2";
    case TRIDI_SIMD_AVX512: return "avx512";
  }
  return "unknown";
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
