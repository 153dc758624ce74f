/* tridi_pivot_table: the evidence for the growth threshold (docs/matrices.md).
 *
 *   tridi_pivot_table [--n N] [--seed S]           one markdown table: every
 *       matrix of the collection at n = N (default 512), f64 and f32: the
 *       growth indicator G of non-pivoting Thomas, its backward and forward
 *       errors, and those of the reference pivoting solver and LAPACK ?gtsv;
 *   tridi_pivot_table --sweep [--seeds K] [--nmax N] every matrix at
 *       n in {1, 2, 3, 4, 5, 8, 16, 33, 64, 128, 512, 1000} (up to N; the
 *       dense randsvd ones up to 512) and seeds 1..K (default 4; one seed for
 *       the matrices that do not depend on it), f32 and f64: per matrix the
 *       largest G, the smallest G of a system whose Thomas backward error
 *       exceeds 10 n eps, and for thresholds T = 2 .. 2^20 the systems a
 *       test "G > T" misses (not flagged, backward error > 10 n eps) and
 *       flags needlessly (flagged, backward error <= 10 n eps);
 *   tridi_pivot_table --scan MATRIX [--nmax N] [--seed S]   one matrix at
 *       every n from 1 to N (default 1000): how often G > 8, the largest G,
 *       and the backward errors (the Dorr matrix's evidence);
 *   tridi_pivot_table --small COUNT [--seed S]   COUNT random systems per n
 *       = 2..8 with entries of any scale: the smallest G whose backward
 *       error exceeds 10 n eps (the bound is tightest at small n).
 * Exit status 0, or 1 when a case could not be generated. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pivot_case.h"
#include "ref_pivot.h"

static const char *dt_name(pv_dtype dt) {
  return dt == PV_F32 ? "f32" : "f64";
}

static void fmt_err(char *s, size_t len, const pv_result *r) {
  if (r->info != 0)
    snprintf(s, len, "info %d", (int)r->info);
  else
    snprintf(s, len, "%.1e", r->berr);
}
static void fmt_ferr(char *s, size_t len, const pv_result *r) {
  if (r->info != 0 || isnan(r->ferr))
    snprintf(s, len, "-");
  else
    snprintf(s, len, "%.1e", r->ferr);
}

static const char *props(unsigned p, char *s, size_t len) {
  s[0] = 0;
  if (p & MG_ROW_DOM) strncat(s, "row ", len - strlen(s) - 1);
  if (p & MG_COL_DOM) strncat(s, "col ", len - strlen(s) - 1);
  if (p & MG_SPD) strncat(s, "SPD ", len - strlen(s) - 1);
  size_t l = strlen(s);
  if (l) s[l - 1] = 0;
  return s;
}

static int table(int64_t n, uint64_t seed) {
  printf(
      "n = %lld, seed %llu; G = growth indicator of Thomas (no pivoting); berr = "
      "||Ax-d||/(||A|| ||x||+||d||), ferr = ||x-x*||/||x*|| against the binary128 "
      "reference; bound = 10 n eps; cond = LAPACK's estimate (dgtcon)\n\n",
      (long long)n, (unsigned long long)seed);
  printf(
      "| # | matrix | dominant | dtype | cond | G | Thomas berr | Thomas ferr | berr > bound | "
      "pivot berr | pivot ferr | gtsv berr | gtsv ferr |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < mg_count; ++k) {
    const mg_matrix *m = &mg_matrices[k];
    double *g = malloc(sizeof(double) * 3 * (size_t)n);
    if (!g || mg_generate(m, n, seed, g, g + n, g + 2 * n)) {
      fprintf(stderr, "tridi_pivot_table: cannot generate %s at n = %lld\n", m->name, (long long)n);
      free(g);
      return 1;
    }
    for (int dt = PV_F64; dt >= PV_F32; --dt) {
      pv_case c;
      if (pv_run_coeffs(m, n, seed, (pv_dtype)dt, g, g + n, g + 2 * n, &c)) {
        free(g);
        return 1;
      }
      char tb[32], tf[32], pb[32], pf[32], lb[32], lf[32], pr[32];
      fmt_err(tb, sizeof tb, &c.thomas);
      fmt_ferr(tf, sizeof tf, &c.thomas);
      fmt_err(pb, sizeof pb, &c.pivot);
      fmt_ferr(pf, sizeof pf, &c.pivot);
      fmt_err(lb, sizeof lb, &c.lapack);
      fmt_ferr(lf, sizeof lf, &c.lapack);
      const char *big = c.thomas.info != 0                  ? "failed"
                        : c.thomas.berr > pv_berr_bound(&c) ? "**yes**"
                                                            : "no";
      printf("| %d | %s | %s | %s | %.1e | %.3g | %s | %s | %s | %s | %s | %s | %s |\n", m->id,
             m->name, props(m->props, pr, sizeof pr), dt_name((pv_dtype)dt), c.cond, c.growth, tb,
             tf, big, pb, pf, lb, lf);
    }
    free(g);
  }
  return 0;
}

#define NT 21 /* thresholds 2^1 .. 2^21 */

typedef struct sweep_stat {
  double gmax;        /* largest G of a solved system */
  double gmin_bad;    /* smallest G of a solved system with berr > bound */
  double berr_max_ok; /* largest berr / bound of a solved system with G <= 8 */
  double berr_per_g;  /* largest berr / (eps G) of a solved system */
  long systems, bad, failed;
  long miss[NT], extra[NT];
} sweep_stat;

static void stat_init(sweep_stat *s) {
  memset(s, 0, sizeof *s);
  s->gmin_bad = INFINITY;
}

static void stat_add(sweep_stat *s, const pv_case *c) {
  s->systems++;
  if (c->thomas.info != 0) {
    s->failed++;
    return;
  }
  const int bad = !(c->thomas.berr <= pv_berr_bound(c));
  if (c->growth > s->gmax) s->gmax = c->growth;
  if (bad) {
    s->bad++;
    if (c->growth < s->gmin_bad) s->gmin_bad = c->growth;
  }
  if (c->thomas.berr / (c->eps * c->growth) > s->berr_per_g)
    s->berr_per_g = c->thomas.berr / (c->eps * c->growth);
  if (c->growth <= 8 && c->thomas.berr / pv_berr_bound(c) > s->berr_max_ok)
    s->berr_max_ok = c->thomas.berr / pv_berr_bound(c);
  for (int t = 0; t < NT; ++t) {
    const double T = ldexp(1.0, t + 1);
    const int flagged = !(c->growth <= T);
    if (!flagged && bad) s->miss[t]++;
    if (flagged && !bad) s->extra[t]++;
  }
}

static void stat_merge(sweep_stat *into, const sweep_stat *s) {
  if (s->gmax > into->gmax) into->gmax = s->gmax;
  if (s->gmin_bad < into->gmin_bad) into->gmin_bad = s->gmin_bad;
  if (s->berr_max_ok > into->berr_max_ok) into->berr_max_ok = s->berr_max_ok;
  if (s->berr_per_g > into->berr_per_g) into->berr_per_g = s->berr_per_g;
  into->systems += s->systems;
  into->bad += s->bad;
  into->failed += s->failed;
  for (int t = 0; t < NT; ++t) {
    into->miss[t] += s->miss[t];
    into->extra[t] += s->extra[t];
  }
}

static int sweep(int seeds, int64_t nmax) {
  static const int64_t ns[] = {1, 2, 3, 4, 5, 8, 16, 33, 64, 128, 512, 1000};
  const int nn = (int)(sizeof ns / sizeof ns[0]);
  sweep_stat all[2], dom[2];
  for (int dt = 0; dt < 2; ++dt) {
    stat_init(&all[dt]);
    stat_init(&dom[dt]);
  }
  printf(
      "sweep: n in {1,2,3,4,5,8,16,33,64,128,512,1000} (<= %lld; randsvd <= 512), seeds "
      "1..%d (1 for the fixed matrices); per matrix and dtype: systems, Thomas failed "
      "(info != 0), berr > 10 n eps, largest G, smallest G with berr > 10 n eps, largest "
      "berr/(10 n eps) with G <= 8\n\n",
      (long long)nmax, seeds);
  printf(
      "| # | matrix | dtype | systems | failed | berr > bound | max G | min G, berr > bound | "
      "max berr/bound, G <= 8 | max berr/(eps G) |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < mg_count; ++k) {
    const mg_matrix *m = &mg_matrices[k];
    for (int dt = PV_F64; dt >= PV_F32; --dt) {
      sweep_stat s;
      stat_init(&s);
      const int ks = (m->props & MG_RANDOM) ? seeds : 1;
      for (int in = 0; in < nn; ++in) {
        if (ns[in] > nmax || ((m->props & MG_DENSE) && ns[in] > 512)) continue;
        for (int sd = 1; sd <= ks; ++sd) {
          pv_case c;
          if (pv_run(m, ns[in], (uint64_t)sd, (pv_dtype)dt, &c)) return 1;
          stat_add(&s, &c);
        }
      }
      printf("| %d | %s | %s | %ld | %ld | %ld | %.3g | %.3g | %.2g | %.2g |\n", m->id, m->name,
             dt_name((pv_dtype)dt), s.systems, s.failed, s.bad, s.gmax, s.gmin_bad, s.berr_max_ok,
             s.berr_per_g);
      stat_merge(&all[dt], &s);
      if (m->props & (MG_ROW_DOM | MG_COL_DOM | MG_SPD)) stat_merge(&dom[dt], &s);
    }
  }
  printf(
      "\nover the whole sweep:\n\n| dtype | systems | Thomas failed | berr > bound | "
      "max G, dominant/SPD matrices | min G, berr > bound |\n|---|---|---|---|---|---|\n");
  for (int dt = PV_F64; dt >= PV_F32; --dt)
    printf("| %s | %ld | %ld | %ld | %.4g | %.4g |\n", dt_name((pv_dtype)dt), all[dt].systems,
           all[dt].failed, all[dt].bad, dom[dt].gmax, all[dt].gmin_bad);
  printf(
      "\nthreshold T (flag when G > T): systems missed (not flagged, berr > 10 n eps) / "
      "flagged with berr <= 10 n eps, over all matrices; flagged dominant/SPD systems\n\n"
      "| T | f64 missed | f64 flagged, fine | f64 dominant flagged | f32 missed | "
      "f32 flagged, fine | f32 dominant flagged |\n|---|---|---|---|---|---|---|\n");
  for (int t = 0; t < NT; ++t)
    printf("| %g | %ld | %ld | %ld | %ld | %ld | %ld |\n", ldexp(1.0, t + 1), all[PV_F64].miss[t],
           all[PV_F64].extra[t], dom[PV_F64].extra[t] + dom[PV_F64].miss[t], all[PV_F32].miss[t],
           all[PV_F32].extra[t], dom[PV_F32].extra[t] + dom[PV_F32].miss[t]);
  return 0;
}

/* Every n from 1 to nmax, one seed: how often and how far G of matrix m
 * passes the threshold 8, and the backward errors of those systems. */
static int scan(const mg_matrix *m, int64_t nmax, uint64_t seed) {
  const size_t sz = (size_t)nmax;
  double *w = malloc(sizeof(double) * 10 * sz);
  float *f = malloc(sizeof(float) * 6 * sz);
  if (!w || !f) {
    free(w);
    free(f);
    return 1;
  }
  printf(
      "scan of %s, n = 1..%lld, seed %llu: Thomas without pivoting\n\n| dtype | solved | "
      "failed (info) | G > 8 | largest G (n) | largest berr/eps, G > 8 | largest "
      "berr/(10 n eps) |\n|---|---|---|---|---|---|---|\n",
      m->name, (long long)nmax, (unsigned long long)seed);
  for (int dt = PV_F64; dt >= PV_F32; --dt) {
    long solved = 0, failed = 0, over = 0;
    double gmax = 0, bover = 0, bmax = 0;
    int64_t at = 0;
    for (int64_t n = 1; n <= nmax; ++n) {
      double *a = w, *b = a + n, *c = b + n, *xt = c + n, *d = xt + n, *x = d + n, *ws = x + n;
      if (mg_generate(m, n, seed, a, b, c)) return 1;
      if (dt == PV_F32) {
        mg_round_f32(n, a);
        mg_round_f32(n, b);
        mg_round_f32(n, c);
      }
      mg_xtrue(n, seed, xt);
      mg_matvec(n, a, b, c, xt, d);
      double g = 0, eps = 0x1.0p-52;
      int32_t info;
      if (dt == PV_F64) {
        info = tridi_ref_growth_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, ws, &g);
      } else {
        eps = 0x1.0p-23;
        mg_round_f32(n, d);
        float *fa = f, *fb = fa + n, *fc = fb + n, *fd = fc + n, *fx = fd + n, gf;
        mg_to_f32(n, a, fa);
        mg_to_f32(n, b, fb);
        mg_to_f32(n, c, fc);
        mg_to_f32(n, d, fd);
        info = tridi_ref_growth_f32(n, fa, 1, fb, 1, fc, 1, fd, 1, fx, 1, (float *)ws, &gf);
        g = gf;
        mg_from_f32(n, fx, x);
      }
      if (info) {
        failed++;
        continue;
      }
      solved++;
      const double be = mg_backward_error(n, a, b, c, d, x);
      if (g > gmax) {
        gmax = g;
        at = n;
      }
      if (g > 8) {
        over++;
        bover = fmax(bover, be / eps);
      }
      bmax = fmax(bmax, be / (10.0 * (double)n * eps));
    }
    printf("| %s | %ld | %ld | %ld | %.4g (%lld) | %.3g | %.3g |\n", dt_name((pv_dtype)dt), solved,
           failed, over, gmax, (long long)at, bover, bmax);
  }
  free(w);
  free(f);
  return 0;
}

/* Random small systems, every entry U(-1,1) 10^U(-4,4): the smallest G of a
 * system whose Thomas backward error exceeds 10 n eps, per n and dtype --
 * how low a threshold must be where 10 n eps is tightest. */
static int small_systems(long count, uint64_t seed) {
  printf(
      "random systems, n = 2..8, %ld per n, entries U(-1,1) 10^U(-4,4), seed %llu: Thomas "
      "without pivoting\n\n| n | dtype | solved | berr > 10 n eps | smallest G, berr > "
      "10 n eps | largest berr/(eps G) |\n|---|---|---|---|---|---|\n",
      count, (unsigned long long)seed);
  for (int n = 2; n <= 8; ++n) {
    for (int dt = PV_F64; dt >= PV_F32; --dt) {
      mg_rng r = {seed * 1000 + (uint64_t)n};
      long solved = 0, bad = 0;
      double gmin = INFINITY, worst = 0;
      const double eps = dt == PV_F64 ? 0x1.0p-52 : 0x1.0p-23;
      for (long t = 0; t < count; ++t) {
        double a[8], b[8], c[8], d[8], x[8], w[8];
        for (int i = 0; i < n; ++i) {
          double *v[4] = {&a[i], &b[i], &c[i], &d[i]};
          for (int k = 0; k < 4; ++k)
            *v[k] = mg_rng_uniform(&r, -1, 1) * pow(10.0, mg_rng_uniform(&r, -4, 4));
        }
        a[0] = c[n - 1] = 0;
        double g;
        int32_t info;
        if (dt == PV_F64) {
          info = tridi_ref_growth_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w, &g);
        } else {
          float f[6][8], gf;
          double *v[4] = {a, b, c, d};
          for (int k = 0; k < 4; ++k) {
            mg_round_f32(n, v[k]);
            mg_to_f32(n, v[k], f[k]);
          }
          info = tridi_ref_growth_f32(n, f[0], 1, f[1], 1, f[2], 1, f[3], 1, f[4], 1, f[5], &gf);
          g = gf;
          mg_from_f32(n, f[4], x);
        }
        if (info) continue;
        solved++;
        const double be = mg_backward_error(n, a, b, c, d, x);
        worst = fmax(worst, be / (eps * g));
        if (be > 10.0 * n * eps) {
          bad++;
          gmin = fmin(gmin, g);
        }
      }
      printf("| %d | %s | %ld | %ld | %.3g | %.3g |\n", n, dt_name((pv_dtype)dt), solved, bad, gmin,
             worst);
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  int64_t n = 512, nmax = 1000;
  uint64_t seed = 1;
  int seeds = 4, do_sweep = 0;
  long small_count = 0;
  const char *scan_name = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--sweep")) {
      do_sweep = 1;
    } else if (i + 1 < argc && !strcmp(argv[i], "--small")) {
      small_count = atol(argv[++i]);
    } else if (i + 1 < argc && !strcmp(argv[i], "--scan")) {
      scan_name = argv[++i];
    } else if (i + 1 < argc && !strcmp(argv[i], "--n")) {
      n = atoll(argv[++i]);
    } else if (i + 1 < argc && !strcmp(argv[i], "--nmax")) {
      nmax = atoll(argv[++i]);
    } else if (i + 1 < argc && !strcmp(argv[i], "--seed")) {
      seed = strtoull(argv[++i], NULL, 0);
    } else if (i + 1 < argc && !strcmp(argv[i], "--seeds")) {
      seeds = atoi(argv[++i]);
    } else {
      fprintf(stderr,
              "usage: tridi_pivot_table [--n N] [--seed S] | --sweep [--seeds K] [--nmax N] |\n"
              "       --scan MATRIX [--nmax N] [--seed S] | --small COUNT [--seed S]\n");
      return 2;
    }
  }
  if (n < 1 || seeds < 1 || nmax < 1) {
    fprintf(stderr, "tridi_pivot_table: n, seeds and nmax must be >= 1\n");
    return 2;
  }
  if (small_count > 0) return small_systems(small_count, seed);
  if (scan_name) {
    const mg_matrix *m = mg_by_name(scan_name);
    if (!m) {
      fprintf(stderr, "tridi_pivot_table: no matrix '%s'\n", scan_name);
      return 2;
    }
    return scan(m, nmax, seed);
  }
  return do_sweep ? sweep(seeds, nmax) : table(n, seed);
}
