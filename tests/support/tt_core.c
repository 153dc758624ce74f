/* The kind-independent part of the test harness: see tt_core.h. */
#define _POSIX_C_SOURCE 200112L
#include "tt_core.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char tt_op_names[TT_NOPS + 1] = "abcdx";

/* ---- seeds, RNG, failures ----------------------------------------------- */

#define TT_DEFAULT_SEED UINT64_C(20261121)

uint64_t tt_seed(void) {
  static int done = 0;
  static uint64_t seed = TT_DEFAULT_SEED;
  if (!done) {
    const char *e = getenv("TRIDI_TEST_SEED");
    if (e && *e) {
      char *end = NULL;
      unsigned long long v = strtoull(e, &end, 0);
      if (end && *end == '\0') seed = (uint64_t)v;
      else fprintf(stderr, "[tridi-test] ignoring TRIDI_TEST_SEED=\"%s\" (not a number)\n", e);
    }
    done = 1;
  }
  return seed;
}

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

uint64_t tt_case_seed(const char *name, uint64_t k) {
  uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a of the test name */
  for (const char *p = name; *p; ++p) h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
  return mix64(tt_seed() ^ mix64(h + k));
}

void tt_rng_init(tt_rng *r, uint64_t seed) { r->s = seed; }

uint64_t tt_rng_u64(tt_rng *r) {
  r->s += UINT64_C(0x9e3779b97f4a7c15);
  return mix64(r->s);
}

double tt_rng_uniform(tt_rng *r, double lo, double hi) {
  const double u = (double)(tt_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * u;
}

int64_t tt_rng_int(tt_rng *r, int64_t lo, int64_t hi) {
  return lo + (int64_t)(tt_rng_u64(r) % (uint64_t)(hi - lo + 1));
}

static long tt_nfail = 0;
static long tt_nmsg = 0;
static int tt_quiet = 0;

int tt_set_quiet(int quiet) {
  const int old = tt_quiet;
  tt_quiet = quiet;
  return old;
}

void tt_fail(const char *fmt, ...) {
  ++tt_nfail;
  if (tt_quiet) return;
  if (tt_nmsg++ >= TT_MAX_MESSAGES) {
    if (tt_nmsg == TT_MAX_MESSAGES + 1)
      fprintf(stderr, "[tridi-test] (further failure messages suppressed)\n");
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "[tridi-test seed=%" PRIu64 "] ", tt_seed());
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* largest passing ratios to the bounds: residual, reference, LAPACK */
static double tt_margin[3];

void tt_note_margin(int which, double ratio) {
  if (which >= 0 && which < 3 && ratio > tt_margin[which]) tt_margin[which] = ratio;
}

long tt_failures(void) { return tt_nfail; }
void tt_reset_failures(void) {
  tt_nfail = 0;
  tt_nmsg = 0;
}

void tt_assert_no_failures(void) {
  const long n = tt_nfail;
  if (tt_verbose())
    fprintf(stderr, "[tridi-test] largest passing ratio to the bound: residual %.3f, reference %.3f, LAPACK %.3f\n",
            tt_margin[0], tt_margin[1], tt_margin[2]);
  tt_reset_failures();
  if (n) {
    fail_msg("%ld check(s) failed; repeat with TRIDI_TEST_SEED=%" PRIu64, n, tt_seed());
  }
}

int tt_verbose(void) {
  const char *e = getenv("TRIDI_TEST_VERBOSE");
  return e && *e && strcmp(e, "0") != 0;
}

int tt_expect_status(tridi_status got, tridi_status want, const char *what) {
  if (got == want) return 1;
  tt_fail("%s: status %s, expected %s (last error: \"%s\")", what, tridi_status_name(got),
          tridi_status_name(want), tridi_last_error());
  return 0;
}

int tt_test_setup(void **state) {
  (void)state;
  tt_reset_failures();
  return 0;
}

int tt_group_setup(void **state) {
  (void)state;
  fprintf(stderr, "[tridi-test] seed %" PRIu64 " (set TRIDI_TEST_SEED to change)\n", tt_seed());
  return 0;
}

/* ---- poison ------------------------------------------------------------------- */

const uint32_t tt_poison_f32 = UINT32_C(0x7fc5a5a5);
const uint64_t tt_poison_f64 = UINT64_C(0x7ff8a5a5a5a5a5a5);

void tt_poison(void *p, size_t es, int64_t count) {
  if (es == 4) {
    for (int64_t j = 0; j < count; ++j) memcpy((char *)p + j * 4, &tt_poison_f32, 4);
  } else {
    for (int64_t j = 0; j < count; ++j) memcpy((char *)p + j * 8, &tt_poison_f64, 8);
  }
}

int tt_is_poison(const void *p, size_t es) {
  return es == 4 ? memcmp(p, &tt_poison_f32, 4) == 0 : memcmp(p, &tt_poison_f64, 8) == 0;
}

/* ---- info arrays ------------------------------------------------------------------ */

void tt_info_alloc(tt_info *I, int64_t nsys) {
  I->nsys = nsys;
  I->mem = malloc((size_t)(nsys + 2 * TT_INFO_GUARD) * sizeof(int32_t));
  I->info = I->mem ? I->mem + TT_INFO_GUARD : NULL;
  if (I->mem) tt_info_poison(I);
}

void tt_info_poison(tt_info *I) {
  for (int64_t j = 0; j < I->nsys + 2 * TT_INFO_GUARD; ++j) I->mem[j] = TT_INFO_POISON;
}

void tt_info_free(tt_info *I) {
  free(I->mem);
  I->mem = I->info = NULL;
}

int tt_info_guards_ok(const tt_info *I, const char *ctx) {
  for (int64_t j = 0; j < TT_INFO_GUARD; ++j) {
    if (I->mem[j] != TT_INFO_POISON || I->info[I->nsys + j] != TT_INFO_POISON) {
      tt_fail("%s: the info array was written outside its %" PRId64 " entries", ctx, I->nsys);
      return 0;
    }
  }
  return 1;
}

/* ---- configurations ------------------------------------------------------------------ */

static void add_cfg(tt_config *cfg, int *k, const char *name, tridi_backend be, tridi_alg alg,
                    tridi_simd simd, int threads) {
  tt_config *c = &cfg[(*k)++];
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s", name);
  tridi_options_init(&c->opts);
  c->opts.backend = be;
  c->opts.alg = alg;
  c->opts.simd = simd;
  c->opts.num_threads = threads;
  /* the configurations of a non-pivoting algorithm test it alone: growth
   * flagged, nothing solved again (TRIDI_PIVOT_AUTO's second pass has
   * configurations of its own, and the NULL options) */
  c->opts.pivot = tridi_alg_pivots(alg) ? TRIDI_PIVOT_PARTIAL : TRIDI_PIVOT_NONE;
  /* CR, PCR and CR+PCR are planned only for systems declared dominant (the
   * suite's problems are) */
  c->opts.assume_dominant = tridi_alg_requires_dominance(alg);
}

static void add_pivot_cfg(tt_config *cfg, int *k, const char *name, tridi_backend be,
                          tridi_alg alg, tridi_simd simd) {
  add_cfg(cfg, k, name, be, alg, simd, 0);
  cfg[*k - 1].opts.pivot = TRIDI_PIVOT_PARTIAL;
}

int tt_configs(tt_config *cfg) {
  int k = 0;
  add_cfg(cfg, &k, "defaults(NULL opts)", TRIDI_BACKEND_AUTO, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO, 0);
  cfg[0].null_opts = 1;
  add_cfg(cfg, &k, "ref/auto", TRIDI_BACKEND_REF, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "ref/thomas_ref", TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_REF, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/auto", TRIDI_BACKEND_CPU, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/thomas_ref", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_REF, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/thomas", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AUTO, 0);
  add_cfg(cfg, &k, "cpu/thomas/3 threads", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AUTO, 3);
  const tridi_simd best = tridi_cpu_simd_detect();
  add_cfg(cfg, &k, "cpu/thomas/portable", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_PORTABLE,
          0);
  if (best >= TRIDI_SIMD_AVX2)
    add_cfg(cfg, &k, "cpu/thomas/avx2", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AVX2, 0);
  if (best >= TRIDI_SIMD_AVX512)
    add_cfg(cfg, &k, "cpu/thomas/avx512", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, TRIDI_SIMD_AVX512,
            0);
  /* TRIDI_PIVOT_AUTO on the CPU backend named (the NULL options take it too) */
  add_cfg(cfg, &k, "cpu/pivot auto", TRIDI_BACKEND_CPU, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO, 0);
  cfg[k - 1].opts.pivot = TRIDI_PIVOT_AUTO;
  /* the pivoting solvers: pivot = partial with the algorithm AUTO (the SIMD
   * kernel, or the reference over systems for batches smaller than a group),
   * and the SIMD kernel forced on the other code paths */
  add_pivot_cfg(cfg, &k, "ref/pivot partial", TRIDI_BACKEND_REF, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO);
  add_pivot_cfg(cfg, &k, "cpu/pivot partial", TRIDI_BACKEND_CPU, TRIDI_ALG_AUTO, TRIDI_SIMD_AUTO);
  add_pivot_cfg(cfg, &k, "cpu/lu_partial/portable", TRIDI_BACKEND_CPU, TRIDI_ALG_LU_PARTIAL,
                TRIDI_SIMD_PORTABLE);
  if (best >= TRIDI_SIMD_AVX2 && best != TRIDI_SIMD_AVX2)
    add_pivot_cfg(cfg, &k, "cpu/lu_partial/avx2", TRIDI_BACKEND_CPU, TRIDI_ALG_LU_PARTIAL,
                  TRIDI_SIMD_AVX2);
  return k;
}

int tt_alg_configs(tt_config *cfg) {
  static const struct {
    tridi_alg alg;
    const char *name;
  } algs[] = {{TRIDI_ALG_CR, "cr"},
              {TRIDI_ALG_PCR, "pcr"},
              {TRIDI_ALG_RD, "rd"},
              {TRIDI_ALG_CR_PCR, "cr_pcr"},
              {TRIDI_ALG_CR_RD, "cr_rd"}};
  int k = 0;
  for (int be = 0; be < 2; ++be)
    for (int j = 0; j < 5; ++j) {
      char name[64];
      snprintf(name, sizeof name, "%s/%s", be ? "cpu" : "ref", algs[j].name);
      add_cfg(cfg, &k, name, be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF, algs[j].alg, TRIDI_SIMD_AUTO, 0);
    }
  return k;
}

void tt_check_plan_info(tridi_plan plan, const tt_config *cfg, int64_t n, int64_t nsys,
                        const char *ctx) {
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_status st = tridi_plan_get_info(plan, &pi);
  if (!tt_expect_status(st, TRIDI_SUCCESS, ctx)) return;
  const tridi_options *o = &cfg->opts;
  const tridi_backend want_be = o->backend == TRIDI_BACKEND_AUTO ? TRIDI_BACKEND_CPU : o->backend;
  const tridi_pivot want_pv = cfg->null_opts ? TRIDI_PIVOT_AUTO
                              : o->alg == TRIDI_ALG_LU_PARTIAL ? TRIDI_PIVOT_PARTIAL
                                                               : o->pivot;
  if (pi.pivot != want_pv)
    tt_fail("%s: plan info pivot %s, expected %s", ctx, tridi_pivot_name(pi.pivot),
            tridi_pivot_name(want_pv));
  if (pi.pivot == TRIDI_PIVOT_PARTIAL ? pi.alg != TRIDI_ALG_LU_PARTIAL
                                      : pi.alg == TRIDI_ALG_LU_PARTIAL)
    tt_fail("%s: plan info alg %s with pivot %s", ctx, tridi_alg_name(pi.alg),
            tridi_pivot_name(pi.pivot));
  if (pi.backend != want_be)
    tt_fail("%s: plan info backend %s, expected %s", ctx, tridi_backend_name(pi.backend),
            tridi_backend_name(want_be));
  if (o->alg != TRIDI_ALG_AUTO ? pi.alg != o->alg : pi.alg == TRIDI_ALG_AUTO)
    tt_fail("%s: plan info alg %s for requested %s", ctx, tridi_alg_name(pi.alg),
            tridi_alg_name(o->alg));
  if (pi.backend == TRIDI_BACKEND_REF && pi.simd != TRIDI_SIMD_AUTO)
    tt_fail("%s: plan info simd %s for a REF plan (expected auto)", ctx, tridi_simd_name(pi.simd));
  if (pi.backend == TRIDI_BACKEND_CPU) {
    const tridi_simd want = o->simd == TRIDI_SIMD_AUTO ? tridi_cpu_simd_detect() : o->simd;
    if ((pi.alg == TRIDI_ALG_THOMAS || pi.alg == TRIDI_ALG_LU_PARTIAL) && pi.simd != want)
      tt_fail("%s: plan info simd %s, expected %s", ctx, tridi_simd_name(pi.simd),
              tridi_simd_name(want));
    if (o->num_threads > 0 && pi.num_threads != o->num_threads)
      tt_fail("%s: plan info num_threads %d, requested %d", ctx, pi.num_threads, o->num_threads);
  }
  if (pi.num_threads < 1) tt_fail("%s: plan info num_threads %d < 1", ctx, pi.num_threads);
  if (pi.n != n || pi.num_systems != nsys)
    tt_fail("%s: plan info n=%" PRId64 " num_systems=%" PRId64 ", expected %" PRId64 " and %" PRId64,
            ctx, pi.n, pi.num_systems, n, nsys);
  if (!pi.kernel || !pi.kernel[0]) tt_fail("%s: plan info kernel name is empty", ctx);
}
