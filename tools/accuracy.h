/* The numerics of `tridi accuracy` (tools/accuracy_eval.c): the families'
 * systems, the reference solutions, LAPACK ?gtsv, the judging of a
 * solution and the operand layouts.  Each spreads the systems of a case
 * over the OpenMP threads, one system a thread at a time, so the results do
 * not depend on the thread count; tools/accuracy.c runs the plans. */
#ifndef TRIDI_TOOLS_ACCURACY_H
#define TRIDI_TOOLS_ACCURACY_H

#include <stdint.h>

#include "matgen.h"
#include "tridi.h"

/* Families: the tool's own, then the collection's (mg_matrices, but its
 * `dominant`, which is the tool's); ACC_NFAM_MAX bounds their number. */
enum { ACC_FAM_DOMINANT, ACC_FAM_CLOSE, ACC_FAM_LAPLACE, ACC_NOWN };
#define ACC_NFAM_MAX 64
extern int acc_nfam;
extern const char *acc_fam_names[ACC_NFAM_MAX];
extern const mg_matrix *acc_fam_mat[ACC_NFAM_MAX]; /* NULL for the tool's own */
void acc_collect_families(void);
/* the collection's dense (O(n^3)) generators stop at this n */
#define ACC_DENSE_NMAX 512

/* Layouts of the operands: contig (system s at s n), interleaved (row i of
 * system s at i batch + s). */
enum { ACC_LAY_CONTIG, ACC_LAY_INTER, ACC_NLAY };

/* Per-thread scratch for systems of length up to nmax. */
typedef struct acc_scratch {
  int threads;
  int64_t nmax;
  double *w;      /* 8 nmax a thread */
  float *fw;      /* 4 nmax a thread */
  long double *r; /* nmax a thread */
  double *xt;     /* nmax a thread */
} acc_scratch;
int acc_scratch_alloc(acc_scratch *S, int64_t nmax); /* 0, or -1: out of memory */
void acc_scratch_free(acc_scratch *S);

/* The values of one case in double, system s at s n (the f32 case rounds
 * them afterwards); rng is the case's stream.  Returns 0, or -1 when a
 * collection generator failed. */
int acc_fill(int fam, int64_t n, int64_t batch, uint64_t *rng, double *a, double *b, double *c,
             double *d, const acc_scratch *S);
/* Reference solutions: dgtsv and two steps of refinement with residuals in
 * long double; refok[s] = 0 where dgtsv failed (singular in double). */
void acc_reference(int64_t n, int64_t batch, const double *a, const double *b, const double *c,
                   const double *d, double *xref, int *refok, const acc_scratch *S);
/* LAPACK ?gtsv in the case's precision (the f32 values are those of a..d,
 * which were rounded); x in double, info LAPACK's. */
void acc_lapack(tridi_dtype dt, int64_t n, int64_t batch, const double *a, const double *b,
                const double *c, const double *d, double *x, int32_t *info, const acc_scratch *S);

typedef struct acc_stats {
  int64_t failed, flagged;
  int32_t first_info;
  double res_med, res_max, fe_med, fe_max;
  int64_t over;    /* systems with info 0 and a relative residual above the bound */
  double over_max; /* the largest of those residuals */
} acc_stats;
/* Judge the solutions x (batch x n, in double) of one algorithm: medians
 * and maxima over the systems with info 0 whose reference was computed,
 * the bound on every system with info 0.  res, fe: batch doubles each. */
void acc_judge(int64_t n, int64_t batch, const double *a, const double *b, const double *c,
               const double *d, const double *x, const double *xref, const int32_t *info,
               const int *refok, double bound, double *res, double *fe, const acc_scratch *S,
               acc_stats *st);

/* The case's values v (double, system s at s n) as operand elements of type
 * dt in layout lay (put), and back (get). */
void acc_put_op(tridi_dtype dt, int lay, int64_t n, int64_t batch, const double *v, void *dst);
void acc_get_op(tridi_dtype dt, int lay, int64_t n, int64_t batch, const void *src, double *v);

#endif
