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
 * The library's promise, checked here: every system a solver returns with
 * info 0 has a relative residual (backward error) <= 10 n eps, eps =
 * FLT_EPSILON or DBL_EPSILON.  Column over_bound counts the systems above
 * it; for the solvers that make the promise (all but lapack and CR, PCR,
 * CR+PCR, which detect nothing) one such system makes the exit status 1.
 *
 * Backends: ref, cpu, and cuda where the tool is built with CUDA
 * (tools/accuracy_cuda.cu: each case's operands are copied to the GPU once,
 * every plan executes on them there, x and info come back and are judged
 * here as on the host).  Layouts: contig (system s at s n) and interleaved
 * (row i of system s at i batch + s): on the GPU they take different
 * kernels (docs/accuracy.md, "On the GPU"); column kernel names the one the
 * plan took.
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
#include "accuracy.h"
#include "commands.h"
#include "tridi.h"
#ifdef TRIDI_HAVE_CUDA
#include "accuracy_cuda.h"
#endif

#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "lapack" is ?gtsv; the rest are tridi algorithms, with the pivoting
 * mode they run with ("auto": the default options).  bounded: the solver
 * promises the bound (a system it returns with info 0 has a backward error
 * <= 10 n eps): it detects growth (the Thomas family, auto), checks its
 * result (RD, CR+RD) or pivots. */
#define ALG_LAPACK (-1)
typedef struct alg_entry {
  const char *name;
  int alg; /* tridi_alg or ALG_LAPACK */
  tridi_pivot pivot;
  int bounded;
} alg_entry;
static const alg_entry all_algs[] = {
    {"lapack", ALG_LAPACK, TRIDI_PIVOT_NONE, 0},
    {"thomas_ref", TRIDI_ALG_THOMAS_REF, TRIDI_PIVOT_NONE, 1},
    {"thomas", TRIDI_ALG_THOMAS, TRIDI_PIVOT_NONE, 1},
    {"thomas_shared", TRIDI_ALG_THOMAS_SHARED, TRIDI_PIVOT_NONE, 1},
    {"thomas_shuffle", TRIDI_ALG_THOMAS_SHUFFLE, TRIDI_PIVOT_NONE, 1},
    {"thomas_pcr", TRIDI_ALG_THOMAS_PCR, TRIDI_PIVOT_NONE, 1},
    {"cr", TRIDI_ALG_CR, TRIDI_PIVOT_NONE, 0},
    {"pcr", TRIDI_ALG_PCR, TRIDI_PIVOT_NONE, 0},
    {"rd", TRIDI_ALG_RD, TRIDI_PIVOT_NONE, 1},
    {"cr_pcr", TRIDI_ALG_CR_PCR, TRIDI_PIVOT_NONE, 0},
    {"cr_rd", TRIDI_ALG_CR_RD, TRIDI_PIVOT_NONE, 1},
    {"lu_partial", TRIDI_ALG_LU_PARTIAL, TRIDI_PIVOT_PARTIAL, 1},
    {"auto", TRIDI_ALG_AUTO, TRIDI_PIVOT_AUTO, 1},
};
#define NALL ((int)(sizeof all_algs / sizeof all_algs[0]))

static const char *const lay_names[ACC_NLAY] = {"contig", "interleaved"};

static void acc_usage(FILE *f) {
  fprintf(f,
          "usage: tridi accuracy [options]\n"
          "\n"
          "Accuracy of every algorithm against LAPACK ?gtsv (partial pivoting) on\n"
          "random batches: relative residual and forward error (median and max over\n"
          "the systems an algorithm solved) and the number it reported as failed\n"
          "(of which `flagged`: growth without pivoting, or RD's check), and the\n"
          "number it returned with info 0 above 10 n eps (`over_bound`).\n"
          "CSV on stdout, one row per (family, dtype, n, algorithm, layout); see\n"
          "docs/accuracy.md and scripts/plot_accuracy.py.\n"
          "\n"
          "options:\n"
          "  --family LIST   dominant,close,laplace and the test-matrix collection's\n"
          "                  families by name (docs/matrices.md: uniform, lesp,\n"
          "                  tiny_first_pivot, zero_diag, helmholtz, ...; its randsvd_*\n"
          "                  only up to n = 512); default: all\n"
          "  --dtype LIST    f32,f64 (default: both)\n"
          "  --n LIST        system lengths (default 8,16,...,4096; cuda:\n"
          "                  1,2,33,100,1000,4096,10000)\n"
          "  --alg LIST      lapack,thomas_ref,thomas,cr,pcr,rd,cr_pcr,cr_rd (each with\n"
          "                  pivot none), lu_partial (the pivoting solver), auto (the\n"
          "                  default options: pivot auto); cuda also thomas_pcr,\n"
          "                  thomas_shared, thomas_shuffle (default: every one the\n"
          "                  backend has, but thomas on ref and cpu, which gives\n"
          "                  thomas_ref's bits there)\n"
          "  --layout LIST   contig,interleaved (default: contig; cuda: both)\n"
          "  --batch N       systems per case (default 64)\n"
          "  --backend B     ref, cpu or cuda (default ref)\n"
          "  --seed S        random seed (default 2010)\n"
          "  -o, --output F  write the CSV to F\n"
          "  -h, --help      this text\n"
          "\n"
          "exit status: 0 done (failures an algorithm reported are data, not errors),\n"
          "1 a plan or execute failed outright, or a solver that promises the bound\n"
          "(all but lapack, cr, pcr, cr_pcr) returned a system with info 0 and a\n"
          "relative residual above 10 n eps, 2 usage error or backend not available.\n");
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

/* A plan for batch systems of length n in layout lay. */
static tridi_status make_plan(tridi_plan *plan, tridi_dtype dt, tridi_backend be,
                              const alg_entry *E, int lay, int64_t n, int64_t batch) {
  const int64_t shape_c[2] = {batch, n}, shape_i[2] = {n, batch};
  tridi_desc desc = NULL;
  tridi_status st = lay == ACC_LAY_INTER ? tridi_desc_create(&desc, dt, 2, shape_i, 0)
                                         : tridi_desc_create(&desc, dt, 2, shape_c, 1);
  if (st) return st;
  tridi_options o;
  tridi_options_init(&o);
  o.backend = be;
  o.alg = (tridi_alg)E->alg;
  o.pivot = E->pivot;
  /* CR, PCR and CR+PCR are planned only with the caller's declaration of
   * dominance; the tool makes it, to show what they return on every family */
  o.assume_dominant = tridi_alg_requires_dominance(o.alg);
  *plan = NULL;
  st = tridi_plan_create(plan, desc, &o);
  tridi_desc_destroy(desc);
  return st;
}

/* Solve the batch in op[0..3] into op[4] and info.  x is poisoned first
 * (NaN) so that a system returned with info 0 but never written is judged
 * above the bound.  CPU/REF statuses that report systems through info are
 * data, not failures. */
static tridi_status run_plan(tridi_plan plan, tridi_backend be, size_t bytes, int64_t batch,
                             void *const op[5], int32_t *info, char *why, size_t why_len) {
  why[0] = '\0';
#ifdef TRIDI_HAVE_CUDA
  if (be == TRIDI_BACKEND_CUDA)
    return acc_cuda_solve(plan, bytes, batch, op[4], info, why, why_len);
#else
  (void)batch;
  (void)why_len;
#endif
  (void)be;
  memset(op[4], 0xff, bytes);
  const tridi_status st = tridi_execute(plan, op[0], op[1], op[2], op[3], op[4], info, NULL);
  return st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE || st == TRIDI_ERR_INACCURATE
             ? TRIDI_SUCCESS
             : st;
}

/* Test hook (env TRIDI_ACCURACY_TEST_CORRUPT=1): change x of system 0 after
 * every tridi solve, so that tests see a broken bound end in exit status 1. */
static void corrupt_for_test(double *x) {
  const char *e = getenv("TRIDI_ACCURACY_TEST_CORRUPT");
  if (e != NULL && strcmp(e, "1") == 0) x[0] += 1.0;
}

static void print_row(FILE *f, tridi_backend be, int fam, int t, int64_t n, const alg_entry *E,
                      int64_t batch, const acc_stats *S, const char *lay, const char *kernel) {
  static const char *const dt_names[2] = {"f32", "f64"};
  fprintf(f, "%s,%s,%s,%lld,%s,%lld,%lld,%d,%.3e,%.3e,%.3e,%.3e,%lld,%s,%lld,%s\n",
          tridi_backend_name(be), acc_fam_names[fam], dt_names[t], (long long)n, E->name,
          (long long)batch, (long long)S->failed, (int)S->first_info, S->res_med, S->res_max,
          S->fe_med, S->fe_max, (long long)S->flagged, lay, (long long)S->over, kernel);
}

/* A solver that promises the bound broke it: say so (the exit status
 * becomes 1).  Returns 1 then, else 0. */
static int report_over(tridi_backend be, int fam, int t, int64_t n, const alg_entry *E,
                       int64_t batch, const char *lay, const acc_stats *S, double bound) {
  if (!E->bounded || S->over == 0) return 0;
  fprintf(stderr,
          "tridi accuracy: %s %s %s n=%lld %s %s: %lld of %lld systems returned with info 0 "
          "have a relative residual above 10 n eps = %.2e (largest %.3e)\n",
          tridi_backend_name(be), acc_fam_names[fam], t ? "f64" : "f32", (long long)n, lay, E->name,
          (long long)S->over, (long long)(batch - S->failed), bound, S->over_max);
  return 1;
}

/* Parse a comma list of n values into ns; returns the count, 0 on error. */
static int parse_ns(const char *arg, int64_t *ns, int cap) {
  int nn = 0;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *tok = strtok(buf, ","); tok && nn < cap; tok = strtok(NULL, ",")) {
    char *end = NULL;
    const long long v = strtoll(tok, &end, 10);
    if (!end || *end || v < 1 || v > (1LL << 24)) {
      fprintf(stderr, "tridi accuracy: bad n '%s' (1 .. 2^24)\n", tok);
      return 0;
    }
    ns[nn++] = v;
  }
  return nn;
}

/* The backend's algorithms: those asked for (given) must exist on it, an
 * error otherwise; by default every one it has, but thomas on ref and cpu.
 * An algorithm exists when a small plan of it can be made.  Returns 0 on
 * a usage error. */
static int select_algs(tridi_backend be, int given, int *alg_on) {
  for (int k = 0; k < NALL; ++k) {
    const alg_entry *E = &all_algs[k];
    if (given && !alg_on[k]) continue;
    if (!given && E->alg == TRIDI_ALG_THOMAS && be != TRIDI_BACKEND_CUDA) {
      alg_on[k] = 0;
      continue;
    }
    alg_on[k] = 1;
    if (E->alg == ALG_LAPACK) continue;
    tridi_plan plan = NULL;
    const tridi_status st = make_plan(&plan, TRIDI_F64, be, E, ACC_LAY_CONTIG, 8, 1);
    tridi_plan_destroy(plan);
    if (st == TRIDI_SUCCESS) continue;
    alg_on[k] = 0;
    if (given) {
      const char *e = tridi_last_error();
      fprintf(stderr, "tridi accuracy: algorithm %s is not available on backend %s: %s%s%s%s\n",
              E->name, tridi_backend_name(be), tridi_status_name(st), *e ? " (" : "", e,
              *e ? ")" : "");
      return 0;
    }
  }
  return 1;
}

/* The backend named by arg, or -1 (with a message) when it is unknown or
 * not available here. */
static int parse_backend(const char *arg) {
  if (strcmp(arg, "ref") == 0) return TRIDI_BACKEND_REF;
  if (strcmp(arg, "cpu") == 0) return TRIDI_BACKEND_CPU;
  if (strcmp(arg, "cuda") != 0) {
    fprintf(stderr, "tridi accuracy: --backend must be ref, cpu or cuda\n");
    return -1;
  }
#ifdef TRIDI_HAVE_CUDA
  if (!tridi_backend_available(TRIDI_BACKEND_CUDA)) {
    fprintf(stderr, "tridi accuracy: backend cuda is not available: no CUDA device is visible\n");
    return -1;
  }
  return TRIDI_BACKEND_CUDA;
#else
  fprintf(stderr, "tridi accuracy: backend cuda is not available: this build has no CUDA "
                  "backend (configure with -DTRIDI_ENABLE_CUDA=ON)\n");
  return -1;
#endif
}

int tridi_cmd_accuracy(int argc, char **argv) {
  static const struct option longopts[] = {
      {"family", required_argument, NULL, 'f'}, {"dtype", required_argument, NULL, 't'},
      {"n", required_argument, NULL, 'n'},      {"alg", required_argument, NULL, 'a'},
      {"batch", required_argument, NULL, 'b'},  {"backend", required_argument, NULL, 'B'},
      {"seed", required_argument, NULL, 's'},   {"output", required_argument, NULL, 'o'},
      {"layout", required_argument, NULL, 'L'}, {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  acc_collect_families();
  int fam_on[ACC_NFAM_MAX], dt_on[2] = {1, 1}, alg_on[NALL], lay_on[ACC_NLAY] = {1, 0};
  int alg_given = 0, lay_given = 0;
  for (int k = 0; k < acc_nfam; ++k) fam_on[k] = 1;
  for (int k = 0; k < NALL; ++k) alg_on[k] = 0;
  int64_t ns[64];
  int nn = 0;
  int64_t batch = 64;
  uint64_t seed = 2010;
  int be_arg = TRIDI_BACKEND_REF;
  const char *out = NULL;
  static const char *const dt_names[2] = {"f32", "f64"};
  const char *alg_names[NALL];
  for (int k = 0; k < NALL; ++k) alg_names[k] = all_algs[k].name;
  optind = 1;
  int ch;
  while ((ch = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
    switch (ch) {
      case 'f':
        if (!parse_names(optarg, acc_fam_names, acc_nfam, fam_on, "family"))
          return TRIDI_EXIT_USAGE;
        break;
      case 't':
        if (!parse_names(optarg, dt_names, 2, dt_on, "dtype")) return TRIDI_EXIT_USAGE;
        break;
      case 'a':
        if (!parse_names(optarg, alg_names, NALL, alg_on, "algorithm")) return TRIDI_EXIT_USAGE;
        alg_given = 1;
        break;
      case 'L':
        if (!parse_names(optarg, lay_names, ACC_NLAY, lay_on, "layout")) return TRIDI_EXIT_USAGE;
        lay_given = 1;
        break;
      case 'n':
        if ((nn = parse_ns(optarg, ns, 64)) == 0) return TRIDI_EXIT_USAGE;
        break;
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
        if ((be_arg = parse_backend(optarg)) < 0) return TRIDI_EXIT_USAGE;
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
  const tridi_backend be = (tridi_backend)be_arg;
  const int cuda = be == TRIDI_BACKEND_CUDA;
  if (nn == 0) {
    /* the GPU's default: each kernel family of the CUDA backend at least
     * once (docs/accuracy.md, "On the GPU": tiles and direct tiles up to
     * 1000, staged, cluster and segmented at 4096 and 10000); no n in
     * 101..512, where the collection's dense generators cost O(n^3) */
    static const int64_t cuda_ns[] = {1, 2, 33, 100, 1000, 4096, 10000};
    if (cuda)
      for (; nn < (int)(sizeof cuda_ns / sizeof cuda_ns[0]); ++nn) ns[nn] = cuda_ns[nn];
    else
      for (int64_t v = 8; v <= 4096; v *= 2) ns[nn++] = v;
  }
  if (!lay_given && cuda) lay_on[ACC_LAY_INTER] = 1;
  if (!select_algs(be, alg_given, alg_on)) return TRIDI_EXIT_USAGE;
  FILE *f = out ? fopen(out, "w") : stdout;
  if (!f) {
    fprintf(stderr, "tridi accuracy: cannot write %s\n", out);
    return TRIDI_EXIT_USAGE;
  }
  fprintf(f, "backend,family,dtype,n,alg,systems,failed,first_info,resid_median,resid_max,"
             "ferr_median,ferr_max,flagged,layout,over_bound,kernel\n");
  int64_t nmax = 1;
  for (int q = 0; q < nn; ++q)
    if (ns[q] > nmax) nmax = ns[q];
  const size_t cells = (size_t)(nmax * batch);
  double *a = malloc(cells * sizeof *a), *b = malloc(cells * sizeof *b);
  double *c = malloc(cells * sizeof *c), *d = malloc(cells * sizeof *d);
  double *x = malloc(cells * sizeof *x), *xref = malloc(cells * sizeof *xref);
  double *tr = malloc((size_t)batch * sizeof *tr), *tf = malloc((size_t)batch * sizeof *tf);
  int32_t *info = malloc((size_t)batch * sizeof *info);
  int *refok = malloc((size_t)batch * sizeof *refok);
  acc_scratch scr; /* per-thread scratch of the numerics */
  void *op[5];     /* a, b, c, d, x of the tridi solves, in the case's dtype and layout */
  int rc = 0, ok = a && b && c && d && x && xref && tr && tf && info && refok;
  ok = acc_scratch_alloc(&scr, nmax) == 0 && ok;
  for (int k = 0; k < 5; ++k) ok = (op[k] = malloc(cells * sizeof(double))) != NULL && ok;
  if (!ok) {
    fprintf(stderr, "tridi accuracy: out of memory\n");
    rc = TRIDI_EXIT_FAIL;
    goto done;
  }
  int64_t nover = 0; /* cases where a bounded solver broke the bound */
  for (int t = 0; t < 2; ++t) {
    if (!dt_on[t]) continue;
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    const double bound_eps = t ? DBL_EPSILON : FLT_EPSILON;
    for (int q = 0; q < nn; ++q) {
      const int64_t n = ns[q];
      const double bound = 10.0 * (double)n * bound_eps;
      const size_t m = (size_t)(n * batch), bytes = m * tridi_dtype_size(dt);
      /* the plans of this (dtype, n), made on first use and kept for every
       * family: they depend on the shape only (a CUDA plan queries the device) */
      tridi_plan plans[ACC_NLAY][NALL];
      int tried[ACC_NLAY][NALL];
      memset(plans, 0, sizeof plans);
      memset(tried, 0, sizeof tried);
      for (int fam = 0; fam < acc_nfam; ++fam) {
        if (!fam_on[fam]) continue;
        if (fam >= ACC_NOWN && (acc_fam_mat[fam]->props & MG_DENSE) && n > ACC_DENSE_NMAX)
          continue;
        uint64_t rng = seed ^ ((uint64_t)fam << 56) ^ ((uint64_t)t << 48) ^ (uint64_t)n;
        if (acc_fill(fam, n, batch, &rng, a, b, c, d, &scr)) {
          fprintf(stderr, "tridi accuracy: %s n=%lld: the generator failed\n", acc_fam_names[fam],
                  (long long)n);
          rc = TRIDI_EXIT_FAIL;
          continue;
        }
        if (dt == TRIDI_F32) /* the data the f32 solvers see, exactly */
          for (size_t j = 0; j < m; ++j) {
            a[j] = (float)a[j];
            b[j] = (float)b[j];
            c[j] = (float)c[j];
            d[j] = (float)d[j];
          }
        acc_reference(n, batch, a, b, c, d, xref, refok, &scr);
        acc_stats S;
        if (alg_on[0]) { /* lapack: once a case, whatever the layouts */
          acc_lapack(dt, n, batch, a, b, c, d, x, info, &scr);
          acc_judge(n, batch, a, b, c, d, x, xref, info, refok, bound, tr, tf, &scr, &S);
          print_row(f, be, fam, t, n, &all_algs[0], batch, &S, "-", t ? "dgtsv" : "sgtsv");
        }
        for (int L = 0; L < ACC_NLAY; ++L) {
          if (!lay_on[L]) continue;
          const double *src[4] = {a, b, c, d};
          for (int k = 0; k < 4; ++k) acc_put_op(dt, L, n, batch, src[k], op[k]);
#ifdef TRIDI_HAVE_CUDA
          char cwhy[256];
          if (cuda && acc_cuda_upload(bytes, batch, (const void *const *)op, cwhy, sizeof cwhy)) {
            fprintf(stderr, "tridi accuracy: %s n=%lld: %s\n", acc_fam_names[fam], (long long)n,
                    cwhy);
            rc = TRIDI_EXIT_FAIL;
            continue;
          }
#endif
          for (int k = 1; k < NALL; ++k) {
            if (!alg_on[k]) continue;
            const alg_entry *E = &all_algs[k];
            if (!tried[L][k]) {
              tried[L][k] = 1;
              const tridi_status st = make_plan(&plans[L][k], dt, be, E, L, n, batch);
              if (st) {
                fprintf(stderr, "tridi accuracy: %s n=%lld %s: no plan: %s (%s)\n", E->name,
                        (long long)n, lay_names[L], tridi_status_name(st), tridi_last_error());
                rc = TRIDI_EXIT_FAIL;
              }
            }
            if (!plans[L][k]) continue;
            char why[256];
            const tridi_status st = run_plan(plans[L][k], be, bytes, batch, op, info, why,
                                             sizeof why);
            if (st) {
              fprintf(stderr, "tridi accuracy: %s n=%lld %s: %s (%s)\n", E->name, (long long)n,
                      lay_names[L], tridi_status_name(st), why[0] ? why : tridi_last_error());
              rc = TRIDI_EXIT_FAIL;
              continue;
            }
            acc_get_op(dt, L, n, batch, op[4], x);
            corrupt_for_test(x);
            acc_judge(n, batch, a, b, c, d, x, xref, info, refok, bound, tr, tf, &scr, &S);
            tridi_plan_info pi;
            pi.struct_size = sizeof pi;
            const char *kernel = tridi_plan_get_info(plans[L][k], &pi) ? "?" : pi.kernel;
            print_row(f, be, fam, t, n, E, batch, &S, lay_names[L], kernel);
            nover += report_over(be, fam, t, n, E, batch, lay_names[L], &S, bound);
          }
        }
        fflush(f);
      }
      for (int L = 0; L < ACC_NLAY; ++L)
        for (int k = 0; k < NALL; ++k) tridi_plan_destroy(plans[L][k]);
    }
  }
  if (nover) {
    fprintf(stderr, "tridi accuracy: %lld cases with systems above the bound (see above)\n",
            (long long)nover);
    rc = TRIDI_EXIT_FAIL;
  }
done:
#ifdef TRIDI_HAVE_CUDA
  if (cuda) acc_cuda_release();
#endif
  free(a); free(b); free(c); free(d); free(x); free(xref); free(tr); free(tf); free(info);
  free(refok);
  acc_scratch_free(&scr);
  for (int k = 0; k < 5; ++k) free(op[k]);
  if (out && f) fclose(f);
  return rc;
}
