/* `tridi accuracy`: the accuracy study of paper 001 section 5.4, extended
 * (docs/accuracy.md).
 *
 * For each matrix family, element type and n, one batch of random systems
 * is solved by every algorithm asked for (through tridi plans, like any
 * user) and by LAPACK ?gtsv (partial pivoting) in the same precision.  Each
 * solution is judged against a reference solution: dgtsv on the same
 * (rounded) data in double, refined twice with residuals in long double.
 * Per algorithm and case the tool prints one CSV row: how many systems the
 * algorithm reported as failed (info != 0: zero divisor, NaN/Inf, RD's
 * accuracy check, growth without pivoting; `flagged` counts those with
 * TRIDI_INFO_INACCURATE) and, over the others, the median and maximum of
 *   relative residual  ||A x - d||inf / (||A||inf ||x||inf + ||d||inf)
 *   forward error      ||x - x*||inf / ||x*||inf.
 * The non-pivoting algorithms run with TRIDI_PIVOT_NONE (each alone, growth
 * flagged); lu_partial is the pivoting solver; auto is what the default
 * options give (TRIDI_PIVOT_AUTO: no pivoting, then the flagged and failed
 * systems solved again with pivoting).
 *
 * Families (a_0 = c_{n-1} = 0):
 *   dominant  a_i, c_i uniform in (-1, 1), b_i = +-(3..5): diagonally
 *             dominant (the test suite's systems);
 *   close     "random matrices with close values in each row": v_i = +-(1..2),
 *             a_i, b_i, c_i = v_i (1 + 0.02 u), u uniform in (-1, 1);
 *   laplace   a_i, c_i = -v_i (1 - u/n^2), b_i = v_i (2 + (1 + u)/n^2),
 *             u in (0, 1): symmetric positive definite up to row scaling,
 *             condition ~ n^2, RD's recurrence grows only mildly;
 * d_i uniform in (-1, 1); and every family of the test-matrix collection
 * (tests/matrices, docs/matrices.md: library tridi_matgen) by its name,
 * each system its own seed, d = A x_true with x_true ~ N(3, 1) (its
 * `dominant` is the one above). */
#include "commands.h"
#include "matgen.h"
#include "tridi.h"

#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sgtsv_(const int *n, const int *nrhs, float *dl, float *d, float *du, float *b,
            const int *ldb, int *info);
void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b,
            const int *ldb, int *info);

enum { FAM_DOMINANT, FAM_CLOSE, FAM_LAPLACE, NOWN };
/* the tool's own families, then the collection's (mg_matrices, but its
 * `dominant`, which is the tool's); NFAM_MAX bounds their number */
#define NFAM_MAX 64
static const char *fam_names[NFAM_MAX] = {"dominant", "close", "laplace"};
static const mg_matrix *fam_mat[NFAM_MAX];
static int nfam = NOWN;
static void collect_families(void) {
  nfam = NOWN;
  for (int k = 0; k < mg_count && nfam < NFAM_MAX; ++k) {
    if (strcmp(mg_matrices[k].name, "dominant") == 0) continue;
    fam_mat[nfam] = &mg_matrices[k];
    fam_names[nfam++] = mg_matrices[k].name;
  }
}
/* the collection's dense (O(n^3)) generators stop at this n */
#define DENSE_NMAX 512

/* "lapack" is ?gtsv; the rest are tridi algorithms, with the pivoting
 * mode they run with ("auto": the default options). */
#define ALG_LAPACK (-1)
typedef struct alg_entry {
  const char *name;
  int alg; /* tridi_alg or ALG_LAPACK */
  tridi_pivot pivot;
} alg_entry;
static const alg_entry all_algs[] = {
    {"lapack", ALG_LAPACK, TRIDI_PIVOT_NONE},
    {"thomas_ref", TRIDI_ALG_THOMAS_REF, TRIDI_PIVOT_NONE},
    {"thomas", TRIDI_ALG_THOMAS, TRIDI_PIVOT_NONE},
    {"cr", TRIDI_ALG_CR, TRIDI_PIVOT_NONE},
    {"pcr", TRIDI_ALG_PCR, TRIDI_PIVOT_NONE},
    {"rd", TRIDI_ALG_RD, TRIDI_PIVOT_NONE},
    {"cr_pcr", TRIDI_ALG_CR_PCR, TRIDI_PIVOT_NONE},
    {"cr_rd", TRIDI_ALG_CR_RD, TRIDI_PIVOT_NONE},
    {"lu_partial", TRIDI_ALG_LU_PARTIAL, TRIDI_PIVOT_PARTIAL},
    {"auto", TRIDI_ALG_AUTO, TRIDI_PIVOT_AUTO},
};
#define NALL ((int)(sizeof all_algs / sizeof all_algs[0]))

/* splitmix64 */
static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}
static double urand(uint64_t *s, double lo, double hi) {
  return lo + (hi - lo) * (double)(rng_next(s) >> 11) * 0x1.0p-53;
}

static void acc_usage(FILE *f) {
  fprintf(f,
          "usage: tridi accuracy [options]\n"
          "\n"
          "Accuracy of every algorithm against LAPACK ?gtsv (partial pivoting) on\n"
          "random batches: relative residual and forward error (median and max over\n"
          "the systems an algorithm solved) and the number it reported as failed\n"
          "(of which `flagged`: growth without pivoting, or RD's check).\n"
          "CSV on stdout, one row per (family, dtype, n, algorithm); see\n"
          "docs/accuracy.md and scripts/plot_accuracy.py.\n"
          "\n"
          "options:\n"
          "  --family LIST   dominant,close,laplace and the test-matrix collection's\n"
          "                  families by name (docs/matrices.md: uniform, lesp,\n"
          "                  tiny_first_pivot, zero_diag, helmholtz, ...; its randsvd_*\n"
          "                  only up to n = 512); default: all\n"
          "  --dtype LIST    f32,f64 (default: both)\n"
          "  --n LIST        system lengths (default 8,16,...,4096)\n"
          "  --alg LIST      lapack,thomas_ref,thomas,cr,pcr,rd,cr_pcr,cr_rd (each with\n"
          "                  pivot none), lu_partial (the pivoting solver), auto (the\n"
          "                  default options: pivot auto) (default: all but thomas,\n"
          "                  which gives thomas_ref's bits)\n"
          "  --batch N       systems per case (default 64)\n"
          "  --backend B     ref or cpu (default ref)\n"
          "  --seed S        random seed (default 2010)\n"
          "  -o, --output F  write the CSV to F\n"
          "  -h, --help      this text\n"
          "\n"
          "exit status: 0 done (failures an algorithm reported are data, not errors),\n"
          "1 a plan or execute failed outright, 2 usage error.\n");
}

/* Parse a comma list of names into flags; returns 0 on an unknown name. */
static int parse_names(const char *arg, const char *const *names, int count, int *on,
                       const char *what) {
  for (int k = 0; k < count; ++k) on[k] = 0;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int found = 0;
    for (int k = 0; k < count; ++k)
      if (strcmp(tok, names[k]) == 0) on[k] = found = 1;
    if (!found) {
      fprintf(stderr, "tridi accuracy: unknown %s '%s'\n", what, tok);
      return 0;
    }
  }
  return 1;
}

/* Values of one case in double (the f32 case rounds them first); returns 0,
 * or -1 when a collection generator failed. */
static int fill(int fam, int64_t n, int64_t batch, uint64_t *rng, double *a, double *b,
                double *c, double *d, double *xt) {
  if (fam >= NOWN) {
    const uint64_t base = rng_next(rng);
    for (int64_t s = 0; s < batch; ++s) {
      const int64_t o = s * n;
      if (mg_generate(fam_mat[fam], n, base + (uint64_t)s, a + o, b + o, c + o)) return -1;
      mg_xtrue(n, base + (uint64_t)s, xt);
      mg_matvec(n, a + o, b + o, c + o, xt, d + o);
    }
    return 0;
  }
  const double nn = (double)n * (double)n;
  for (int64_t s = 0; s < batch; ++s)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = s * n + i;
      if (fam == FAM_DOMINANT) {
        a[j] = urand(rng, -1, 1);
        c[j] = urand(rng, -1, 1);
        b[j] = urand(rng, 3, 5) * ((rng_next(rng) & 1) ? 1 : -1);
      } else if (fam == FAM_CLOSE) {
        const double v = urand(rng, 1, 2) * ((rng_next(rng) & 1) ? 1 : -1);
        a[j] = v * (1 + 0.02 * urand(rng, -1, 1));
        b[j] = v * (1 + 0.02 * urand(rng, -1, 1));
        c[j] = v * (1 + 0.02 * urand(rng, -1, 1));
      } else {
        const double v = urand(rng, 1, 2) * ((rng_next(rng) & 1) ? 1 : -1);
        a[j] = -v * (1 - urand(rng, 0, 1) / nn);
        b[j] = v * (2 + (1 + urand(rng, 0, 1)) / nn);
        c[j] = -v * (1 - urand(rng, 0, 1) / nn);
      }
      d[j] = urand(rng, -1, 1);
      if (i == 0) a[j] = 0;
      if (i == n - 1) c[j] = 0;
    }
  return 0;
}

/* Residual r = d - A x in long double. */
static void residual(int64_t n, const double *a, const double *b, const double *c,
                     const double *d, const double *x, long double *r) {
  for (int64_t i = 0; i < n; ++i) {
    long double v = (long double)d[i] - (long double)b[i] * x[i];
    if (i > 0) v -= (long double)a[i] * x[i - 1];
    if (i < n - 1) v -= (long double)c[i] * x[i + 1];
    r[i] = v;
  }
}

/* Reference solution: dgtsv + two steps of refinement.  Returns 0 when
 * dgtsv failed (singular to working precision). */
static int reference(int64_t n, const double *a, const double *b, const double *c,
                     const double *d, double *x, double *w) {
  double *dl = w, *dd = w + n, *du = w + 2 * n, *rhs = w + 3 * n;
  long double *r = (long double *)(w + 4 * n);
  const int ni = (int)n, one = 1;
  int info = 0;
  for (int step = 0; step < 3; ++step) {
    for (int64_t i = 0; i < n; ++i) {
      dd[i] = b[i];
      if (i + 1 < n) {
        dl[i] = a[i + 1];
        du[i] = c[i];
      }
    }
    if (step == 0) {
      memcpy(rhs, d, (size_t)n * sizeof *rhs);
    } else {
      residual(n, a, b, c, d, x, r);
      for (int64_t i = 0; i < n; ++i) rhs[i] = (double)r[i];
    }
    dgtsv_(&ni, &one, dl, dd, du, rhs, &ni, &info);
    if (info != 0) return 0;
    for (int64_t i = 0; i < n; ++i) x[i] = step == 0 ? rhs[i] : x[i] + rhs[i];
  }
  return 1;
}

static int cmp_double(const void *p, const void *q) {
  const double u = *(const double *)p, v = *(const double *)q;
  return (u > v) - (u < v);
}

typedef struct stats {
  int64_t failed, flagged;
  int32_t first_info;
  double res_med, res_max, fe_med, fe_max;
} stats;

/* Judge the solutions x (batch x n, in double) of one algorithm. */
static void judge(int64_t n, int64_t batch, const double *a, const double *b, const double *c,
                  const double *d, const double *x, const double *xref, const int32_t *info,
                  const int *refok, double *tmp_res, double *tmp_fe, long double *r, stats *st) {
  int64_t k = 0;
  st->failed = st->flagged = 0;
  st->first_info = 0;
  for (int64_t s = 0; s < batch; ++s) {
    st->flagged += info[s] == TRIDI_INFO_INACCURATE;
    if (info[s] != 0) {
      if (!st->failed++) st->first_info = info[s];
      continue;
    }
    if (!refok[s]) continue;
    const int64_t o = s * n;
    residual(n, a + o, b + o, c + o, d + o, x + o, r);
    long double nr = 0, na = 0, nx = 0, nd = 0, ne = 0, ns = 0;
    for (int64_t i = 0; i < n; ++i) {
      const long double ra = fabsl((long double)a[o + i]) + fabsl((long double)b[o + i]) +
                             fabsl((long double)c[o + i]);
      nr = fmaxl(nr, fabsl(r[i]));
      na = fmaxl(na, ra);
      nx = fmaxl(nx, fabsl((long double)x[o + i]));
      nd = fmaxl(nd, fabsl((long double)d[o + i]));
      ne = fmaxl(ne, fabsl((long double)x[o + i] - xref[o + i]));
      ns = fmaxl(ns, fabsl((long double)xref[o + i]));
      if (!isfinite(x[o + i])) nr = ne = INFINITY;
    }
    tmp_res[k] = (double)(nr / (na * nx + nd));
    tmp_fe[k] = (double)(ne / (ns > 0 ? ns : 1));
    ++k;
  }
  if (k == 0) {
    st->res_med = st->res_max = st->fe_med = st->fe_max = NAN;
    return;
  }
  qsort(tmp_res, (size_t)k, sizeof *tmp_res, cmp_double);
  qsort(tmp_fe, (size_t)k, sizeof *tmp_fe, cmp_double);
  st->res_med = tmp_res[k / 2];
  st->res_max = tmp_res[k - 1];
  st->fe_med = tmp_fe[k / 2];
  st->fe_max = tmp_fe[k - 1];
}

/* Solve the batch with a tridi plan; x and info out.  Returns a status. */
static tridi_status run_tridi(tridi_dtype dt, tridi_backend be, tridi_alg alg, tridi_pivot pv,
                              int64_t n, int64_t batch, const void *a, const void *b,
                              const void *c, const void *d, void *x, int32_t *info) {
  const int64_t shape[2] = {batch, n};
  tridi_desc desc = NULL;
  tridi_status st = tridi_desc_create(&desc, dt, 2, shape, 1);
  if (st) return st;
  tridi_options o;
  tridi_options_init(&o);
  o.backend = be;
  o.alg = alg;
  o.pivot = pv;
  tridi_plan plan = NULL;
  st = tridi_plan_create(&plan, desc, &o);
  tridi_desc_destroy(desc);
  if (st) return st;
  st = tridi_execute(plan, a, b, c, d, x, info, NULL);
  tridi_plan_destroy(plan);
  return st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE || st == TRIDI_ERR_INACCURATE
             ? TRIDI_SUCCESS
             : st;
}

int tridi_cmd_accuracy(int argc, char **argv) {
  static const struct option longopts[] = {
      {"family", required_argument, NULL, 'f'}, {"dtype", required_argument, NULL, 't'},
      {"n", required_argument, NULL, 'n'},      {"alg", required_argument, NULL, 'a'},
      {"batch", required_argument, NULL, 'b'},  {"backend", required_argument, NULL, 'B'},
      {"seed", required_argument, NULL, 's'},   {"output", required_argument, NULL, 'o'},
      {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
  collect_families();
  int fam_on[NFAM_MAX], dt_on[2] = {1, 1}, alg_on[NALL];
  for (int k = 0; k < nfam; ++k) fam_on[k] = 1;
  for (int k = 0; k < NALL; ++k) alg_on[k] = all_algs[k].alg != TRIDI_ALG_THOMAS;
  int64_t ns[64];
  int nn = 0;
  for (int64_t v = 8; v <= 4096; v *= 2) ns[nn++] = v;
  int64_t batch = 64;
  uint64_t seed = 2010;
  tridi_backend be = TRIDI_BACKEND_REF;
  const char *out = NULL;
  static const char *const dt_names[2] = {"f32", "f64"};
  const char *alg_names[NALL];
  for (int k = 0; k < NALL; ++k) alg_names[k] = all_algs[k].name;
  optind = 1;
  int ch;
  while ((ch = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
    switch (ch) {
      case 'f':
        if (!parse_names(optarg, fam_names, nfam, fam_on, "family")) return TRIDI_EXIT_USAGE;
        break;
      case 't':
        if (!parse_names(optarg, dt_names, 2, dt_on, "dtype")) return TRIDI_EXIT_USAGE;
        break;
      case 'a':
        if (!parse_names(optarg, alg_names, NALL, alg_on, "algorithm")) return TRIDI_EXIT_USAGE;
        break;
      case 'n': {
        nn = 0;
        char buf[512];
        snprintf(buf, sizeof buf, "%s", optarg);
        for (char *tok = strtok(buf, ","); tok && nn < 64; tok = strtok(NULL, ",")) {
          char *end = NULL;
          const long long v = strtoll(tok, &end, 10);
          if (!end || *end || v < 1 || v > (1LL << 24)) {
            fprintf(stderr, "tridi accuracy: bad n '%s' (1 .. 2^24)\n", tok);
            return TRIDI_EXIT_USAGE;
          }
          ns[nn++] = v;
        }
        break;
      }
      case 'b': {
        char *end = NULL;
        const long long v = strtoll(optarg, &end, 10);
        if (!end || *end || v < 1 || v > (1LL << 20)) {
          fprintf(stderr, "tridi accuracy: bad --batch '%s'\n", optarg);
          return TRIDI_EXIT_USAGE;
        }
        batch = v;
        break;
      }
      case 'B':
        if (strcmp(optarg, "ref") == 0) be = TRIDI_BACKEND_REF;
        else if (strcmp(optarg, "cpu") == 0) be = TRIDI_BACKEND_CPU;
        else {
          fprintf(stderr, "tridi accuracy: --backend must be ref or cpu\n");
          return TRIDI_EXIT_USAGE;
        }
        break;
      case 's': seed = strtoull(optarg, NULL, 0); break;
      case 'o': out = optarg; break;
      case 'h': acc_usage(stdout); return TRIDI_EXIT_OK;
      default: acc_usage(stderr); return TRIDI_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tridi accuracy: unexpected argument '%s'\n", argv[optind]);
    return TRIDI_EXIT_USAGE;
  }
  FILE *f = out ? fopen(out, "w") : stdout;
  if (!f) {
    fprintf(stderr, "tridi accuracy: cannot write %s\n", out);
    return TRIDI_EXIT_USAGE;
  }
  fprintf(f, "backend,family,dtype,n,alg,systems,failed,first_info,resid_median,resid_max,"
             "ferr_median,ferr_max,flagged\n");
  int64_t nmax = 1;
  for (int q = 0; q < nn; ++q)
    if (ns[q] > nmax) nmax = ns[q];
  const size_t cells = (size_t)(nmax * batch);
  double *a = malloc(cells * sizeof *a), *b = malloc(cells * sizeof *b);
  double *c = malloc(cells * sizeof *c), *d = malloc(cells * sizeof *d);
  double *x = malloc(cells * sizeof *x), *xref = malloc(cells * sizeof *xref);
  double *w = malloc((size_t)nmax * 8 * sizeof *w), *xt = malloc((size_t)nmax * sizeof *xt);
  long double *r = malloc((size_t)nmax * sizeof *r);
  double *tr = malloc((size_t)batch * sizeof *tr), *tf = malloc((size_t)batch * sizeof *tf);
  int32_t *info = malloc((size_t)batch * sizeof *info);
  int *refok = malloc((size_t)batch * sizeof *refok);
  /* f32 copies: a, b, c, d, x and LAPACK scratch */
  float *fa = malloc(cells * sizeof *fa), *fb = malloc(cells * sizeof *fb);
  float *fc = malloc(cells * sizeof *fc), *fd = malloc(cells * sizeof *fd);
  float *fx = malloc(cells * sizeof *fx), *fw = malloc((size_t)nmax * 3 * sizeof *fw);
  int rc = 0;
  if (!a || !b || !c || !d || !x || !xref || !w || !xt || !r || !tr || !tf || !info || !refok ||
      !fa || !fb || !fc || !fd || !fx || !fw) {
    fprintf(stderr, "tridi accuracy: out of memory\n");
    rc = TRIDI_EXIT_FAIL;
    goto done;
  }
  for (int fam = 0; fam < nfam; ++fam) {
    if (!fam_on[fam]) continue;
    for (int t = 0; t < 2; ++t) {
      if (!dt_on[t]) continue;
      const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
      for (int q = 0; q < nn; ++q) {
        const int64_t n = ns[q];
        if (fam >= NOWN && (fam_mat[fam]->props & MG_DENSE) && n > DENSE_NMAX) continue;
        uint64_t rng = seed ^ ((uint64_t)fam << 56) ^ ((uint64_t)t << 48) ^ (uint64_t)n;
        if (fill(fam, n, batch, &rng, a, b, c, d, xt)) {
          fprintf(stderr, "tridi accuracy: %s n=%lld: the generator failed\n", fam_names[fam],
                  (long long)n);
          rc = TRIDI_EXIT_FAIL;
          continue;
        }
        const size_t m = (size_t)(n * batch);
        if (dt == TRIDI_F32) /* the data the f32 solvers see, exactly */
          for (size_t j = 0; j < m; ++j) {
            fa[j] = (float)a[j];
            fb[j] = (float)b[j];
            fc[j] = (float)c[j];
            fd[j] = (float)d[j];
            a[j] = fa[j];
            b[j] = fb[j];
            c[j] = fc[j];
            d[j] = fd[j];
          }
        for (int64_t s = 0; s < batch; ++s) {
          const int64_t o = s * n;
          refok[s] = reference(n, a + o, b + o, c + o, d + o, xref + o, w);
        }
        for (int k = 0; k < NALL; ++k) {
          if (!alg_on[k]) continue;
          const alg_entry *E = &all_algs[k];
          if (E->alg == ALG_LAPACK) {
            const int ni = (int)n, one = 1;
            for (int64_t s = 0; s < batch; ++s) {
              const int64_t o = s * n;
              int li = 0;
              if (dt == TRIDI_F32) {
                float *dl = fw, *dd = fw + n, *du = fw + 2 * n;
                for (int64_t i = 0; i < n; ++i) {
                  dd[i] = fb[o + i];
                  fx[o + i] = fd[o + i];
                  if (i + 1 < n) {
                    dl[i] = fa[o + i + 1];
                    du[i] = fc[o + i];
                  }
                }
                sgtsv_(&ni, &one, dl, dd, du, fx + o, &ni, &li);
                for (int64_t i = 0; i < n; ++i) x[o + i] = fx[o + i];
              } else {
                double *dl = w, *dd = w + n, *du = w + 2 * n;
                for (int64_t i = 0; i < n; ++i) {
                  dd[i] = b[o + i];
                  x[o + i] = d[o + i];
                  if (i + 1 < n) {
                    dl[i] = a[o + i + 1];
                    du[i] = c[o + i];
                  }
                }
                dgtsv_(&ni, &one, dl, dd, du, x + o, &ni, &li);
              }
              info[s] = li; /* > 0: exactly singular U(li,li) */
            }
          } else {
            tridi_status st;
            if (dt == TRIDI_F32) {
              st = run_tridi(dt, be, (tridi_alg)E->alg, E->pivot, n, batch, fa, fb, fc, fd, fx,
                             info);
              for (size_t j = 0; j < m; ++j) x[j] = fx[j];
            } else {
              st = run_tridi(dt, be, (tridi_alg)E->alg, E->pivot, n, batch, a, b, c, d, x, info);
            }
            if (st) {
              fprintf(stderr, "tridi accuracy: %s n=%lld: %s (%s)\n", E->name, (long long)n,
                      tridi_status_name(st), tridi_last_error());
              rc = TRIDI_EXIT_FAIL;
              continue;
            }
          }
          stats S;
          judge(n, batch, a, b, c, d, x, xref, info, refok, tr, tf, r, &S);
          fprintf(f, "%s,%s,%s,%lld,%s,%lld,%lld,%d,%.3e,%.3e,%.3e,%.3e,%lld\n",
                  tridi_backend_name(be), fam_names[fam], dt_names[t], (long long)n, E->name,
                  (long long)batch, (long long)S.failed, (int)S.first_info, S.res_med, S.res_max,
                  S.fe_med, S.fe_max, (long long)S.flagged);
        }
        fflush(f);
      }
    }
  }
done:
  free(a); free(b); free(c); free(d); free(x); free(xref); free(w); free(xt); free(r); free(tr);
  free(tf);
  free(info); free(refok); free(fa); free(fb); free(fc); free(fd); free(fx); free(fw);
  if (out && f) fclose(f);
  return rc;
}

