/* One case of the pivoting tests and of the growth table: a matrix of the
 * collection (tests/matrices) at one n, seed and element type, solved by the
 * reference pivoting solver, by the reference Thomas with the growth
 * indicator, and by LAPACK ?gtsv, each judged against the higher-precision
 * reference. */
#ifndef TRIDI_PIVOT_CASE_H
#define TRIDI_PIVOT_CASE_H

#include <stdint.h>

#include "matgen.h"

typedef enum pv_dtype { PV_F32 = 0, PV_F64 = 1 } pv_dtype;

/* info, backward and forward error of one solver on the case (errors are
 * NaN when info != 0) */
typedef struct pv_result {
  int32_t info;
  double berr, ferr;
} pv_result;

typedef struct pv_case {
  const mg_matrix *m;
  int64_t n;
  uint64_t seed;
  pv_dtype dt;
  int32_t ref_info; /* the higher-precision reference's info (0: solved) */
  double cond;      /* LAPACK's estimate of cond_inf of the system as given */
  double growth;    /* G of the non-pivoting elimination (element type) */
  pv_result thomas; /* tridi_ref_growth_*: Thomas, no pivoting */
  pv_result pivot;  /* tridi_ref_pivot_* */
  pv_result lapack; /* ?gtsv */
  double eps;       /* of the element type: 2^-23 or 2^-52 */
} pv_case;

/* Run the case; 0, or -1 when the matrix could not be generated or memory
 * ran out.  The forward errors are against the reference solution of the
 * system each solver was given (the f32 system: the f64 values rounded). */
int pv_run(const mg_matrix *m, int64_t n, uint64_t seed, pv_dtype dt, pv_case *out);
/* The same on coefficients already generated (mg_generate(m, n, seed, ...)
 * in double; rounded here for PV_F32), so that the dense generators run
 * once for both element types. */
int pv_run_coeffs(const mg_matrix *m, int64_t n, uint64_t seed, pv_dtype dt, const double *a0,
                  const double *b0, const double *c0, pv_case *out);

/* The bound of the growth-detection property: 10 n eps. */
static inline double pv_berr_bound(const pv_case *c) {
  return 10.0 * (double)c->n * c->eps;
}

#endif /* TRIDI_PIVOT_CASE_H */
