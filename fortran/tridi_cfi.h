/* The C functions behind tridi's Fortran module (tridi_cfi.c), for C code
 * that holds Fortran descriptors (and for the tests).  The Fortran module
 * tridi.f90 is the interface users call. */
#ifndef TRIDI_CFI_H
#define TRIDI_CFI_H

#include <ISO_Fortran_binding.h>
#include <stddef.h>
#include <stdint.h>

#include "tridi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tridi_f_plan tridi_f_plan;

/** Solve along Fortran dimension `dim` (1-based) of x; d NULL: in place;
 *  info NULL or an int32 array of one element per system; alg "auto" or an
 *  algorithm name.  Returns a tridi_status; tridi_f_last_error() says why. */
int tridi_f_solve(const CFI_cdesc_t *a, const CFI_cdesc_t *b, const CFI_cdesc_t *c,
                  const CFI_cdesc_t *d, const CFI_cdesc_t *x, int dim, const CFI_cdesc_t *info,
                  const char *alg, int assume_dominant);

/** A plan for these arrays' layout (d NULL: in place). */
int tridi_f_plan_create(tridi_f_plan **plan, const CFI_cdesc_t *a, const CFI_cdesc_t *b,
                        const CFI_cdesc_t *c, const CFI_cdesc_t *d, const CFI_cdesc_t *x, int dim,
                        const char *alg, int backend, int threads, int device,
                        int assume_dominant);

/** Execute a plan on arrays of the plan's shapes and strides (checked). */
int tridi_f_plan_execute(const tridi_f_plan *plan, const CFI_cdesc_t *a, const CFI_cdesc_t *b,
                         const CFI_cdesc_t *c, const CFI_cdesc_t *d, const CFI_cdesc_t *x,
                         const CFI_cdesc_t *info);

void tridi_f_plan_destroy(tridi_f_plan *plan);

int tridi_f_plan_describe(const tridi_f_plan *plan, char *alg, size_t alg_len, char *backend,
                          size_t backend_len, char *kernel, size_t kernel_len,
                          int64_t *workspace_bytes);

/** Why the last call of this thread failed. */
const char *tridi_f_last_error(void);

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_CFI_H */
