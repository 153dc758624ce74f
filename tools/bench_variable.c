/* The variable-size kind of `tridi bench` (--problem variable): B systems of
 * different lengths drawn from a distribution of scale L (the case's n), in
 * the two storages of TRIDI_KIND_VARIABLE: packed (systems one after
 * another) and padded interleaved (row i of system s at i*ld + s).  Its
 * layouts are STORAGE/DISTRIBUTION ("packed/uniform", ...).  Traffic model:
 * 5 words per real unknown (the padding is not work).  Baselines on the same
 * data: LAPACK ?gtsv per system and tridi's fixed-size (scalar) solver on
 * the batch padded to its longest system on the CPU; the padded batch and
 * cuSPARSE gtsv2StridedBatch once per length on the GPU
 * (tools/bench_var_cuda.cu).  docs/benchmarks.md describes them. */
#include "bench.h"
#include "bench_util.h"
#include "bench_var.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAR_LD_ALIGN 32           /* interleaved: ld = B rounded up to this many elements */
#define VAR_LOGNORMAL_SIGMA 1.0   /* of ln(length) */
#define VAR_LOGNORMAL_CAP 8       /* log-normal lengths above CAP * L are drawn again */
#define VAR_BIMODAL_LONG 0.1      /* share of long systems in the bimodal distribution */
#define VAR_LENGTH_SEED 0x6c656e67746873ull /* the lengths' own seed (not --seed) */
#define VAR_TWO_PI 6.283185307179586

static const char *const var_layouts[] = {
    "packed/uniform",      "packed/half",      "packed/lognormal",      "packed/bimodal",
    "interleaved/uniform", "interleaved/half", "interleaved/lognormal", "interleaved/bimodal",
    NULL};
static const char *const dist_names[] = {"uniform", "half", "lognormal", "bimodal"};

/* the scale L of the default sweep: short systems (16), the smallest L at
 * which every distribution's mean length is 64 or more (128: bimodal 82),
 * paper 002's L = 512, and long systems */
static const int64_t var_default_n[] = {16, 128, 512, 4096, 0};
static const int64_t var_quick_n[] = {128, 512, 0};

/* ---- lengths ------------------------------------------------------------------ */

static inline uint64_t mix64(uint64_t z) { /* splitmix64 */
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline double unit(uint64_t r) { return (double)(r >> 11) * 0x1p-53; } /* [0, 1) */

/* uniform integer in lo .. hi */
static int64_t uniform_in(int64_t lo, int64_t hi, uint64_t r) {
  const int64_t v = lo + (int64_t)(unit(r) * (double)(hi - lo + 1));
  return v > hi ? hi : v;
}

static void bimodal_parts(int64_t L, int64_t *slo, int64_t *shi, int64_t *llo, int64_t *lhi) {
  *slo = (L + 3) / 4 > 1 ? (L + 3) / 4 : 1;
  *shi = L / 2 > *slo ? L / 2 : *slo;
  *llo = 2 * L;
  *lhi = 4 * L;
}

void bench_var_dist_range(bench_var_dist dist, int64_t L, int64_t *lo, int64_t *hi) {
  int64_t slo, shi, llo, lhi;
  switch (dist) {
    case BENCH_VAR_UNIFORM: *lo = 1; *hi = 2 * L; return;
    case BENCH_VAR_HALF: *lo = (L + 1) / 2; *hi = L; return;
    case BENCH_VAR_LOGNORMAL: *lo = 1; *hi = VAR_LOGNORMAL_CAP * L; return;
    case BENCH_VAR_BIMODAL: break;
  }
  bimodal_parts(L, &slo, &shi, &llo, &lhi);
  *lo = slo;
  *hi = lhi;
}

/* Length of system k: a function of (dist, L, k) only, so every storage and
 * dtype of a distribution gets the same sequence of systems. */
static int64_t draw_length(bench_var_dist dist, int64_t L, uint64_t key, int64_t k) {
  const uint64_t r = key + 64u * (uint64_t)k;
  switch (dist) {
    case BENCH_VAR_UNIFORM: return uniform_in(1, 2 * L, mix64(r));
    case BENCH_VAR_HALF: return uniform_in((L + 1) / 2, L, mix64(r));
    case BENCH_VAR_LOGNORMAL: {
      /* mean exp(mu + sigma^2/2) = L; Box-Muller; above the cap drawn again */
      const double s = VAR_LOGNORMAL_SIGMA, mu = log((double)L) - 0.5 * s * s;
      const double cap = (double)(VAR_LOGNORMAL_CAP * L);
      for (uint64_t j = 0; j < 31; ++j) {
        const double u1 = 1.0 - unit(mix64(r + 2 * j)), u2 = unit(mix64(r + 2 * j + 1));
        const double v = exp(mu + s * sqrt(-2.0 * log(u1)) * cos(VAR_TWO_PI * u2));
        if (v < cap + 0.5) {
          const int64_t n = (int64_t)llround(v);
          return n < 1 ? 1 : n;
        }
      }
      return VAR_LOGNORMAL_CAP * L; /* 31 draws above the cap (p < 0.005^31) */
    }
    case BENCH_VAR_BIMODAL: break;
  }
  int64_t slo, shi, llo, lhi;
  bimodal_parts(L, &slo, &shi, &llo, &lhi);
  if (unit(mix64(r)) < VAR_BIMODAL_LONG) return uniform_in(llo, lhi, mix64(r + 1));
  return uniform_in(slo, shi, mix64(r + 1));
}

static void free_var(bench_var_case *v) {
  if (v == NULL) return;
  free(v->len);
  free(v->off);
  free(v);
}

/* The case STORAGE/DIST: systems drawn until the next one would take the
 * lengths' sum above `elems` (at least one system). */
static int var_make_case(bench_case *bc, const char *layout, tridi_dtype dt, int64_t L,
                         int64_t elems) {
  const char *slash = strchr(layout, '/');
  if (slash == NULL) return 1;
  tridi_var_layout lay;
  if (strncmp(layout, "packed/", 7) == 0) lay = TRIDI_VAR_PACKED;
  else if (strncmp(layout, "interleaved/", 12) == 0) lay = TRIDI_VAR_INTERLEAVED;
  else return 1;
  int dist = -1;
  for (int k = 0; k < 4; ++k)
    if (strcmp(slash + 1, dist_names[k]) == 0) dist = k;
  if (dist < 0 || L < 1 || L > INT64_MAX / (8 * VAR_LOGNORMAL_CAP)) return 1;
  bench_var_case *v = calloc(1, sizeof *v);
  if (v == NULL) return 1;
  v->layout = lay;
  v->dist = (bench_var_dist)dist;
  const uint64_t key = mix64(VAR_LENGTH_SEED ^ (uint64_t)(dist + 1) * 0x9E3779B97F4A7C15ull) ^
                       (uint64_t)L * 0x100000001B3ull;
  int64_t B = 0, cap = 0, total = 0, nmax = 0;
  for (;;) {
    const int64_t n = draw_length(v->dist, L, key, B);
    if (B > 0 && total + n > elems) break;
    if (B == cap) {
      cap = cap ? 2 * cap : 1024;
      int64_t *p = realloc(v->len, (size_t)cap * sizeof *p);
      if (p == NULL) {
        free_var(v);
        return 1;
      }
      v->len = p;
    }
    v->len[B++] = n;
    total += n;
    if (n > nmax) nmax = n;
  }
  v->off = malloc((size_t)(B + 1) * sizeof *v->off);
  if (v->off == NULL) {
    free_var(v);
    return 1;
  }
  v->off[0] = 0;
  for (int64_t s = 0; s < B; ++s) v->off[s + 1] = v->off[s] + v->len[s];
  int64_t alloc = total;
  if (lay == TRIDI_VAR_INTERLEAVED) {
    v->rows = nmax;
    v->ld = (B + VAR_LD_ALIGN - 1) / VAR_LD_ALIGN * VAR_LD_ALIGN;
    if (v->rows > INT64_MAX / v->ld) {
      free_var(v);
      return 1;
    }
    alloc = v->rows * v->ld;
  }
  bc->layout = layout;
  bc->dtype = dt;
  bc->n = L;
  bc->m = 1;
  bc->batch = B;
  bc->nmax = nmax;
  bc->unknowns = total;
  for (int op = 0; op < BENCH_NOPS; ++op) bc->alloc_elems[op] = alloc;
  bc->priv = v;
  return 0;
}

static void var_free_case(bench_case *bc) {
  free_var(bc->priv);
  bc->priv = NULL;
}

/* Row 0 of system s is element *first of every operand, row i *first + i * *inc. */
static inline void first_inc(const bench_var_case *v, int64_t s, int64_t *first, int64_t *inc) {
  if (v->layout == TRIDI_VAR_PACKED) {
    *first = v->off[s];
    *inc = 1;
  } else {
    *first = s;
    *inc = v->ld;
  }
}

static void var_system(const bench_case *bc, int64_t s, bench_sys *sys) {
  const bench_var_case *v = bench_var_of(bc);
  int64_t first, inc;
  first_inc(v, s, &first, &inc);
  sys->n = v->len[s];
  for (int op = 0; op < BENCH_NOPS; ++op) {
    sys->off[op] = first;
    sys->inc[op] = inc;
  }
}

/* ---- data ------------------------------------------------------------------------ */

static inline double get(const void *p, int f64, int64_t k) {
  return f64 ? ((const double *)p)[k] : (double)((const float *)p)[k];
}
static inline void put(void *p, int f64, int64_t k, double v) {
  if (f64) ((double *)p)[k] = v;
  else ((float *)p)[k] = (float)v;
}

/* bench_fill_dominant's systems, then NaN in every element the solve must
 * not use: a of each row 0, c of each last row (tridi.h: their values, NaN
 * included, are ignored), and every interleaved padding element of a, b, c, d
 * (never read): a solver that used any of them would give NaN in x. */
static void var_fill(const bench_case *bc, uint64_t seed, const bench_data *data, int threads) {
  bench_fill_dominant(bc, seed, data, threads);
  const bench_var_case *v = bench_var_of(bc);
  const int f64 = bc->dtype == TRIDI_F64;
  void *ops[4] = {(void *)data->a, (void *)data->b, (void *)data->c, (void *)data->d};
  const int64_t B = bc->batch;
  if (v->layout == TRIDI_VAR_INTERLEAVED) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < v->rows; ++i)
      for (int64_t s = 0; s < v->ld; ++s)
        if (s >= B || i >= v->len[s])
          for (int k = 0; k < 4; ++k) put(ops[k], f64, i * v->ld + s, NAN);
  }
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t s = 0; s < B; ++s) {
    int64_t first, inc;
    first_inc(v, s, &first, &inc);
    put(ops[0], f64, first, NAN);
    put(ops[2], f64, first + (v->len[s] - 1) * inc, NAN);
  }
}

static tridi_status var_make_desc(const bench_case *bc, tridi_desc *desc) {
  const bench_var_case *v = bench_var_of(bc);
  return tridi_desc_create_variable(desc, bc->dtype, bc->batch, v->len, v->layout, v->rows, v->ld);
}

/* ---- copies for the baselines ------------------------------------------------------- */

/* Row i of a system of n rows, read at src, written at dst of the copy:
 * the row itself with a = 0 on row 0 and c = 0 on row n-1 (so the copy's
 * padding never couples to it), or an identity row (b = 1) below it. */
static inline void copy_row(int f64, const bench_data *data, void *a, void *b, void *c, void *d,
                            int64_t i, int64_t n, int64_t src, int64_t dst) {
  if (i < n) {
    put(a, f64, dst, i == 0 ? 0.0 : get(data->a, f64, src));
    put(b, f64, dst, get(data->b, f64, src));
    put(c, f64, dst, i == n - 1 ? 0.0 : get(data->c, f64, src));
    put(d, f64, dst, get(data->d, f64, src));
  } else {
    put(a, f64, dst, 0.0);
    put(b, f64, dst, 1.0);
    put(c, f64, dst, 0.0);
    put(d, f64, dst, 0.0);
  }
}

int64_t bench_var_pad_elems(const bench_case *bc) {
  const bench_var_case *v = bench_var_of(bc);
  return v->layout == TRIDI_VAR_PACKED ? bc->batch * bc->nmax : v->rows * v->ld;
}

void bench_var_pad_fill(const bench_case *bc, const bench_data *data, void *a, void *b, void *c,
                        void *d, int threads) {
  const bench_var_case *v = bench_var_of(bc);
  const int f64 = bc->dtype == TRIDI_F64;
  const int64_t B = bc->batch, nmax = bc->nmax;
  if (v->layout == TRIDI_VAR_PACKED) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (int64_t s = 0; s < B; ++s)
      for (int64_t i = 0; i < nmax; ++i)
        copy_row(f64, data, a, b, c, d, i, v->len[s], v->off[s] + i, s * nmax + i);
  } else {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < v->rows; ++i)
      for (int64_t s = 0; s < v->ld; ++s) {
        const int64_t k = i * v->ld + s;
        if (s < B) {
          copy_row(f64, data, a, b, c, d, i, v->len[s], k, k);
        } else { /* beyond the batch: not part of the padded problem */
          put(a, f64, k, 0.0);
          put(b, f64, k, 0.0);
          put(c, f64, k, 0.0);
          put(d, f64, k, 0.0);
        }
      }
  }
}

tridi_status bench_var_pad_desc(const bench_case *bc, tridi_desc *desc) {
  const bench_var_case *v = bench_var_of(bc);
  if (v->layout == TRIDI_VAR_PACKED) {
    const int64_t shape[2] = {bc->batch, bc->nmax};
    return tridi_desc_create(desc, bc->dtype, 2, shape, 1);
  }
  const int64_t shape[2] = {bc->nmax, bc->batch}, strides[2] = {v->ld, 1};
  tridi_status st = tridi_desc_create(desc, bc->dtype, 2, shape, 0);
  if (st == TRIDI_SUCCESS) st = tridi_desc_set_all_strides(*desc, strides);
  if (st != TRIDI_SUCCESS) {
    tridi_desc_destroy(*desc);
    *desc = NULL;
  }
  return st;
}

void bench_var_pad_unpack_x(const bench_case *bc, const void *xpad, void *x, int threads) {
  const bench_var_case *v = bench_var_of(bc);
  const size_t es = tridi_dtype_size(bc->dtype);
  const char *src = xpad;
  char *dst = x;
  const int64_t B = bc->batch, nmax = bc->nmax;
  if (v->layout == TRIDI_VAR_PACKED) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (int64_t s = 0; s < B; ++s)
      memcpy(dst + (size_t)v->off[s] * es, src + (size_t)(s * nmax) * es, (size_t)v->len[s] * es);
  } else {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < v->rows; ++i)
      for (int64_t s = 0; s < B; ++s)
        if (i < v->len[s]) {
          const size_t k = (size_t)(i * v->ld + s) * es;
          memcpy(dst + k, src + k, es);
        }
  }
}

int bench_var_groups_make(const bench_case *bc, int64_t min_m, bench_var_groups *g) {
  const bench_var_case *v = bench_var_of(bc);
  const int64_t B = bc->batch, top = bc->nmax > min_m ? bc->nmax : min_m;
  memset(g, 0, sizeof *g);
  g->min_m = min_m;
  int64_t *start = calloc((size_t)top + 1, sizeof *start); /* per length: count, then start */
  if (start == NULL) return 1;
  for (int64_t s = 0; s < B; ++s) ++start[v->len[s] > min_m ? v->len[s] : min_m];
  for (int64_t m = 1; m <= top; ++m) g->count += start[m] > 0;
  g->m = malloc((size_t)g->count * sizeof *g->m);
  g->nsys = malloc((size_t)g->count * sizeof *g->nsys);
  g->first = malloc((size_t)(g->count + 1) * sizeof *g->first);
  g->order = malloc((size_t)B * sizeof *g->order);
  g->base = malloc((size_t)B * sizeof *g->base);
  if (!g->m || !g->nsys || !g->first || !g->order || !g->base) {
    free(start);
    bench_var_groups_free(g);
    return 1;
  }
  int64_t gi = 0, p = 0, e = 0;
  for (int64_t m = 1; m <= top; ++m) {
    if (start[m] == 0) continue;
    g->m[gi] = m;
    g->nsys[gi] = start[m];
    g->first[gi] = e;
    for (int64_t j = 0; j < start[m]; ++j) g->base[p + j] = e + j * m;
    e += m * start[m];
    const int64_t cnt = start[m];
    start[m] = p;
    p += cnt;
    ++gi;
  }
  g->first[g->count] = e;
  for (int64_t s = 0; s < B; ++s) g->order[start[v->len[s] > min_m ? v->len[s] : min_m]++] = s;
  free(start);
  return 0;
}

void bench_var_groups_free(bench_var_groups *g) {
  free(g->m);
  free(g->nsys);
  free(g->first);
  free(g->order);
  free(g->base);
  memset(g, 0, sizeof *g);
}

void bench_var_gather(const bench_case *bc, const bench_data *data, const bench_var_groups *g,
                      void *dl, void *dd, void *du, void *rhs, int threads) {
  const bench_var_case *v = bench_var_of(bc);
  const int f64 = bc->dtype == TRIDI_F64;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
  for (int64_t p = 0; p < bc->batch; ++p) {
    const int64_t s = g->order[p], n = v->len[s], m = n > g->min_m ? n : g->min_m;
    int64_t first, inc;
    first_inc(v, s, &first, &inc);
    for (int64_t i = 0; i < m; ++i)
      copy_row(f64, data, dl, dd, du, rhs, i, n, first + i * inc, g->base[p] + i);
  }
}

void bench_var_scatter_x(const bench_case *bc, const bench_var_groups *g, const void *xg, void *x,
                         int threads) {
  const bench_var_case *v = bench_var_of(bc);
  const size_t es = tridi_dtype_size(bc->dtype);
  const char *src = xg;
  char *dst = x;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
  for (int64_t p = 0; p < bc->batch; ++p) {
    const int64_t s = g->order[p];
    int64_t first, inc;
    first_inc(v, s, &first, &inc);
    for (int64_t i = 0; i < v->len[s]; ++i)
      memcpy(dst + (size_t)(first + i * inc) * es, src + (size_t)(g->base[p] + i) * es, es);
  }
}

/* ---- the CPU pad-to-longest baseline ------------------------------------------------ */

/* tridi's CPU scalar solver (--threads, AUTO) on the padded copy: what
 * paper 002 does with a variable batch.  The copy is made and the solution
 * taken back outside the timed region; one untimed execute first (the plan
 * and the copy are new), then opts->reps timed. */
static int pad_cpu_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                       bench_result *res) {
  snprintf(res->baseline, sizeof res->baseline, "tridi_pad_to_longest");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  const size_t bytes = (size_t)bench_var_pad_elems(bc) * tridi_dtype_size(bc->dtype);
  void *p[BENCH_NOPS];
  int ok = 1;
  for (int k = 0; k < BENCH_NOPS; ++k) ok &= (p[k] = bench_alloc(bytes)) != NULL;
  double *t_ms = malloc(sizeof(double) * (size_t)opts->reps);
  tridi_desc desc = NULL;
  tridi_plan plan = NULL;
  tridi_status st = ok && t_ms != NULL ? TRIDI_SUCCESS : TRIDI_ERR_ALLOC;
  if (st == TRIDI_SUCCESS) {
    bench_var_pad_fill(bc, data, p[0], p[1], p[2], p[3], opts->threads);
    st = bench_var_pad_desc(bc, &desc);
  }
  if (st == TRIDI_SUCCESS) {
    tridi_options o;
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CPU;
    o.alg = opts->alg;
    o.assume_dominant = tridi_alg_requires_dominance(o.alg);
    o.num_threads = opts->threads;
    st = tridi_plan_create(&plan, desc, &o);
  }
  for (int r = -1; r < opts->reps && st == TRIDI_SUCCESS; ++r) {
    const double t0 = bench_now();
    st = tridi_execute(plan, p[0], p[1], p[2], p[3], p[4], NULL, NULL);
    const double t1 = bench_now();
    if (r >= 0) t_ms[r] = (t1 - t0) * 1e3;
  }
  if (st == TRIDI_SUCCESS) {
    res->baseline_ms = bench_median(t_ms, opts->reps);
    bench_var_pad_unpack_x(bc, p[4], data->x, opts->threads);
  } else if (opts->verbose) {
    fprintf(stderr, "tridi bench: pad-to-longest: %s\n", tridi_last_error());
  }
  res->baseline_status = st;
  tridi_plan_destroy(plan);
  tridi_desc_destroy(desc);
  free(t_ms);
  for (int k = 0; k < BENCH_NOPS; ++k) bench_free(p[k]);
  return st != TRIDI_SUCCESS;
}

static const bench_baseline bench_baseline_var_pad_cpu = {
    .name = "tridi's scalar solver on the batch padded to its longest system",
    .backend = TRIDI_BACKEND_CPU,
    .run = pad_cpu_run,
};

static const bench_baseline *const var_baselines[] = {
    &bench_baseline_lapack,
    &bench_baseline_var_pad_cpu,
#ifdef TRIDI_HAVE_CUDA
    &bench_baseline_var_pad_cuda,
    &bench_baseline_var_cusparse,
#endif
    NULL};

const bench_kind bench_kind_variable = {
    .name = "variable",
    .layouts = var_layouts,
    .help = "B systems of lengths drawn from a distribution of scale L = n (the\n"
            "lengths have a seed of their own: the same for every storage and dtype;\n"
            "the sum of the lengths is about --size-mb / (5 sizeof(T))).  Layouts\n"
            "STORAGE/DIST; --layout packed selects every distribution of packed,\n"
            "--layout half both storages of half:\n"
            "  packed       systems one after another (offsets: prefix sums)\n"
            "  interleaved  row i of system s at i*ld+s, ld = B rounded up to 32,\n"
            "               rows = the longest system; padding never read or written\n"
            "  uniform      lengths uniform in 1..2L (mean L)\n"
            "  half         uniform in ceil(L/2)..L (paper 002's 256..512 at L = 512)\n"
            "  lognormal    log-normal, sigma 1 (of ln n), mean L before lengths above\n"
            "               8L are drawn again (about 0.94 L after)\n"
            "  bimodal      90% uniform in L/4..L/2, 10% in 2L..4L (dendrites: half the\n"
            "               unknowns in a tenth of the systems)\n"
            "GB/s counts 5 words per real unknown (not the padding).  Default n:\n"
            "16,128,512,4096 (--quick 128,512).\n"
            "baselines: LAPACK ?gtsv per system and tridi's scalar solver on the batch\n"
            "padded to its longest system (cpu); the padded batch, and cuSPARSE\n"
            "gtsv2StridedBatch once per length on systems gathered per length\n"
            "beforehand (gather not timed; lengths 1, 2 padded to 3) (cuda)\n",
    .default_n = var_default_n,
    .quick_n = var_quick_n,
    .words_per_unknown = 5.0,
    .make_case = var_make_case,
    .free_case = var_free_case,
    .system = var_system,
    .fill = var_fill,
    .check = bench_check_rows,
    .make_desc = var_make_desc,
    .baselines = var_baselines,
};
