/* One case of the pivoting tests and of the growth table (pivot_case.h). */
#include "pivot_case.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_pivot.h"
#include "tridi.h" /* TRIDI_INFO_INACCURATE */

/* Thomas's info without its growth flag: the cases report G itself, and
 * judge the flagged systems' x like any other. */
static int32_t unflag(int32_t info) { return info == TRIDI_INFO_INACCURATE ? 0 : info; }

static void judge(int64_t n, const double *a, const double *b, const double *c, const double *d,
                  const double *x, const long double *xref, int32_t ref_info, pv_result *r) {
  if (r->info != 0) {
    r->berr = r->ferr = NAN;
    return;
  }
  r->berr = mg_backward_error(n, a, b, c, d, x);
  r->ferr = ref_info == 0 ? mg_forward_error(n, x, xref) : NAN;
}

int pv_run(const mg_matrix *m, int64_t n, uint64_t seed, pv_dtype dt, pv_case *out) {
  double *g = malloc(sizeof(double) * 3 * (size_t)n);
  int rc = -1;
  if (g && mg_generate(m, n, seed, g, g + n, g + 2 * n) == 0)
    rc = pv_run_coeffs(m, n, seed, dt, g, g + n, g + 2 * n, out);
  free(g);
  return rc;
}

int pv_run_coeffs(const mg_matrix *m, int64_t n, uint64_t seed, pv_dtype dt, const double *a0,
                  const double *b0, const double *c0, pv_case *out) {
  memset(out, 0, sizeof *out);
  out->m = m;
  out->n = n;
  out->seed = seed;
  out->dt = dt;
  out->eps = dt == PV_F32 ? 0x1.0p-23 : 0x1.0p-52;
  const size_t sz = (size_t)n;
  double *buf = malloc(sizeof(double) * sz * 10);
  long double *xref = malloc(sizeof(long double) * sz);
  float *fbuf = malloc(sizeof(float) * sz * 8);
  int rc = -1;
  if (!buf || !xref || !fbuf) goto out;
  double *a = buf, *b = a + n, *c = b + n, *d = c + n, *xt = d + n, *x = xt + n;
  double *w = x + n; /* 3n */
  memcpy(a, a0, sizeof(double) * sz);
  memcpy(b, b0, sizeof(double) * sz);
  memcpy(c, c0, sizeof(double) * sz);
  mg_system(n, seed, dt == PV_F32, a, b, c, xt, d);
  out->ref_info = mg_ref_solve(n, a, b, c, d, xref);
  if (out->ref_info < 0) goto out;
  out->cond = mg_cond_inf(n, a, b, c);

  if (dt == PV_F64) {
    out->thomas.info = unflag(tridi_ref_growth_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w, &out->growth));
    judge(n, a, b, c, d, x, xref, out->ref_info, &out->thomas);
    out->pivot.info = tridi_ref_pivot_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w);
    judge(n, a, b, c, d, x, xref, out->ref_info, &out->pivot);
    out->lapack.info = mg_lapack_gtsv_f64(n, a, b, c, d, x);
    judge(n, a, b, c, d, x, xref, out->ref_info, &out->lapack);
  } else {
    float *fa = fbuf, *fb = fa + n, *fc = fb + n, *fd = fc + n, *fx = fd + n, *fw = fx + n;
    mg_to_f32(n, a, fa);
    mg_to_f32(n, b, fb);
    mg_to_f32(n, c, fc);
    mg_to_f32(n, d, fd);
    float g = 0;
    out->thomas.info = unflag(tridi_ref_growth_f32(n, fa, 1, fb, 1, fc, 1, fd, 1, fx, 1, fw, &g));
    out->growth = g;
    mg_from_f32(n, fx, x);
    judge(n, a, b, c, d, x, xref, out->ref_info, &out->thomas);
    out->pivot.info = tridi_ref_pivot_f32(n, fa, 1, fb, 1, fc, 1, fd, 1, fx, 1, fw);
    mg_from_f32(n, fx, x);
    judge(n, a, b, c, d, x, xref, out->ref_info, &out->pivot);
    out->lapack.info = mg_lapack_gtsv_f32(n, fa, fb, fc, fd, fx);
    mg_from_f32(n, fx, x);
    judge(n, a, b, c, d, x, xref, out->ref_info, &out->lapack);
  }
  rc = 0;
out:
  free(buf);
  free(xref);
  free(fbuf);
  return rc;
}
