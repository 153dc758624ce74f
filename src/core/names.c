/* The vocabularies of the API: one {value, name} list per enum serves the
 * name functions, tridi_alg_from_name (the tools' parsers) and option
 * validation (a value is valid iff it is named here). */
#include "tridi_internal.h"

#include <string.h>

typedef struct {
  int value;
  const char *name;
} name_row;

#define NROWS(t) ((int)(sizeof(t) / sizeof((t)[0])))

static const char *lookup(const name_row *rows, int n, int value) {
  for (int i = 0; i < n; ++i)
    if (rows[i].value == value) return rows[i].name;
  return "unknown";
}

static const name_row alg_names[] = {
    {TRIDI_ALG_AUTO, "auto"},
    {TRIDI_ALG_THOMAS_REF, "thomas_ref"},
    {TRIDI_ALG_THOMAS, "thomas"},
    {TRIDI_ALG_THOMAS_SHARED, "thomas_shared"},
    {TRIDI_ALG_THOMAS_SHUFFLE, "thomas_shuffle"},
    {TRIDI_ALG_THOMAS_PCR, "thomas_pcr"},
    {TRIDI_ALG_CR, "cr"},
    {TRIDI_ALG_PCR, "pcr"},
    {TRIDI_ALG_RD, "rd"},
    {TRIDI_ALG_CR_PCR, "cr_pcr"},
    {TRIDI_ALG_CR_RD, "cr_rd"},
    {TRIDI_ALG_LU_PARTIAL, "lu_partial"},
};

static const name_row pivot_names[] = {
    {TRIDI_PIVOT_AUTO, "auto"},
    {TRIDI_PIVOT_NONE, "none"},
    {TRIDI_PIVOT_PARTIAL, "partial"},
};

static const name_row backend_names[] = {
    {TRIDI_BACKEND_AUTO, "auto"},
    {TRIDI_BACKEND_REF, "ref"},
    {TRIDI_BACKEND_CPU, "cpu"},
    {TRIDI_BACKEND_CUDA, "cuda"},
};

static const name_row simd_names[] = {
    {TRIDI_SIMD_AUTO, "auto"},
    {TRIDI_SIMD_PORTABLE, "portable"},
    {TRIDI_SIMD_AVX2, "avx2"},
    {TRIDI_SIMD_AVX512, "avx512"},
};

static const name_row dtype_names[] = {
    {TRIDI_F32, "f32"},
    {TRIDI_F64, "f64"},
    {TRIDI_C32, "c32"},
    {TRIDI_C64, "c64"},
};

static const name_row kind_names[] = {
    {TRIDI_KIND_SCALAR, "scalar"},     {TRIDI_KIND_BLOCK, "block"},
    {TRIDI_KIND_VARIABLE, "variable"}, {TRIDI_KIND_TOEPLITZ, "toeplitz"},
    {TRIDI_KIND_DISTRIBUTED, "distributed"},
};

const char *tridi_alg_name(tridi_alg alg) { return lookup(alg_names, NROWS(alg_names), (int)alg); }
const char *tridi_backend_name(tridi_backend b) {
  return lookup(backend_names, NROWS(backend_names), (int)b);
}
const char *tridi_simd_name(tridi_simd s) { return lookup(simd_names, NROWS(simd_names), (int)s); }
const char *tridi_dtype_name(tridi_dtype d) {
  return lookup(dtype_names, NROWS(dtype_names), (int)d);
}
const char *tridi_kind_name(tridi_kind k) { return lookup(kind_names, NROWS(kind_names), (int)k); }
const char *tridi_pivot_name(tridi_pivot p) {
  return lookup(pivot_names, NROWS(pivot_names), (int)p);
}

static int named(const name_row *rows, int n, int value) {
  for (int i = 0; i < n; ++i)
    if (rows[i].value == value) return 1;
  return 0;
}

int tridi_alg_valid(tridi_alg alg) { return named(alg_names, NROWS(alg_names), (int)alg); }
int tridi_backend_valid(tridi_backend b) {
  return named(backend_names, NROWS(backend_names), (int)b);
}
int tridi_simd_valid(tridi_simd s) { return named(simd_names, NROWS(simd_names), (int)s); }
int tridi_pivot_valid(tridi_pivot p) { return named(pivot_names, NROWS(pivot_names), (int)p); }
int tridi_alg_pivots(tridi_alg alg) { return alg == TRIDI_ALG_LU_PARTIAL; }
int tridi_alg_requires_dominance(tridi_alg alg) {
  return alg == TRIDI_ALG_CR || alg == TRIDI_ALG_PCR || alg == TRIDI_ALG_CR_PCR;
}

tridi_status tridi_alg_from_name(const char *name, tridi_alg *alg) {
  tridi_clear_error();
  if (!name) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_alg_from_name: name is NULL");
  if (!alg) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_alg_from_name: alg is NULL");
  for (int i = 0; i < NROWS(alg_names); ++i)
    if (strcmp(alg_names[i].name, name) == 0) {
      *alg = (tridi_alg)alg_names[i].value;
      return TRIDI_SUCCESS;
    }
  return tridi_set_error(TRIDI_ERR_INVALID_OPTION, "tridi_alg_from_name: no algorithm is called '%s'",
                         name);
}

tridi_status tridi_pivot_from_name(const char *name, tridi_pivot *pivot) {
  tridi_clear_error();
  if (!name) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_pivot_from_name: name is NULL");
  if (!pivot)
    return tridi_set_error(TRIDI_ERR_NULL_POINTER, "tridi_pivot_from_name: pivot is NULL");
  for (int i = 0; i < NROWS(pivot_names); ++i)
    if (strcmp(pivot_names[i].name, name) == 0) {
      *pivot = (tridi_pivot)pivot_names[i].value;
      return TRIDI_SUCCESS;
    }
  return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                         "tridi_pivot_from_name: no pivoting mode is called '%s' (auto, none, "
                         "partial)",
                         name);
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
