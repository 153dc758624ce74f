/* The variable-size batch kind's test producer (tt_variable.h). */
#include "tt_variable.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tridi_status var_make_desc(const tt_problem *P, tridi_desc *desc) {
  const tt_var_layout *V = (const tt_var_layout *)P->kind_data;
  return tridi_desc_create_variable(desc, P->dtype, V->nsys, V->len, V->layout, V->rows, V->ld);
}

static const char *var_describe(const tt_problem *P, char *buf, size_t len) {
  const tt_var_layout *V = (const tt_var_layout *)P->kind_data;
  int64_t mn = V->nsys > 0 ? INT64_MAX : 0;
  for (int64_t s = 0; s < V->nsys; ++s) mn = V->len[s] < mn ? V->len[s] : mn;
  snprintf(buf, len, "%s %s B=%lld n=%lld..%lld %s%s", P->name, tridi_dtype_name(P->dtype),
           (long long)V->nsys, (long long)mn, (long long)P->n,
           V->layout == TRIDI_VAR_INTERLEAVED ? "interleaved" : "packed",
           P->inplace ? " in place" : "");
  return buf;
}

static void var_free(void *data) {
  tt_var_layout *V = (tt_var_layout *)data;
  if (V) free(V->len);
  free(V);
}

const tt_kind tt_kind_variable = {
    .name = "variable", .make_desc = var_make_desc, .describe = var_describe, .free_data = var_free};

const char *tt_var_dist_name(tt_var_dist d) {
  static const char *names[] = {"uniform", "half", "lognormal", "bimodal", "tiny"};
  return (int)d >= 0 && d < TT_VAR_NDIST ? names[d] : "unknown";
}

static int64_t uni(tt_rng *r, int64_t lo, int64_t hi) { return tt_rng_int(r, lo < 1 ? 1 : lo, hi < 1 ? 1 : hi); }

void tt_var_lengths(int64_t *len, int64_t B, tt_var_dist d, int64_t L, tt_rng *r) {
  for (int64_t s = 0; s < B; ++s) {
    switch (d) {
      case TT_VAR_UNIFORM: len[s] = uni(r, 1, 2 * L); break;
      case TT_VAR_HALF: len[s] = uni(r, L / 2, L); break;
      case TT_VAR_LOGNORMAL: {
        /* mean exp(mu + sigma^2 / 2) = L */
        const double sigma = 0.5, mu = log((double)L) - sigma * sigma / 2;
        double u1 = tt_rng_uniform(r, 1e-12, 1.0), u2 = tt_rng_uniform(r, 0.0, 1.0);
        const double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        const double v = exp(mu + sigma * z);
        len[s] = v < 1.0 ? 1 : (int64_t)v;
        break;
      }
      case TT_VAR_BIMODAL:
        len[s] = tt_rng_int(r, 0, 9) == 0 ? uni(r, 2 * L, 4 * L) : uni(r, L / 4, L / 2);
        break;
      default: /* TT_VAR_TINY */
        len[s] = tt_rng_int(r, 0, 7) == 0 ? 2 * L : tt_rng_int(r, 1, 3);
        break;
    }
  }
}

int tt_var_problem_init(tt_problem *P, tridi_dtype dt, tridi_var_layout layout, int64_t B,
                        const int64_t *len, int64_t ld_pad, int64_t rows_pad, int inplace,
                        uint64_t seed) {
  tt_var_layout *V = calloc(1, sizeof *V);
  tt_sys *sys = calloc((size_t)(B > 0 ? B : 1), sizeof *sys);
  if (V) V->len = malloc((size_t)(B > 0 ? B : 1) * sizeof *V->len);
  if (!V || !sys || !V->len) {
    if (V) free(V->len);
    free(V);
    free(sys);
    tt_fail("tt_var_problem_init: out of memory");
    memset(P, 0, sizeof *P);
    return -1;
  }
  int64_t nmax = 0, off = 0;
  for (int64_t s = 0; s < B; ++s) nmax = len[s] > nmax ? len[s] : nmax;
  V->layout = layout;
  V->nsys = B;
  if (B > 0) memcpy(V->len, len, (size_t)B * sizeof *len);
  if (layout == TRIDI_VAR_INTERLEAVED) {
    V->ld = B + ld_pad;
    if (V->ld < 1) V->ld = 1;
    V->rows = nmax + rows_pad;
  }
  for (int64_t s = 0; s < B; ++s) {
    sys[s].n = len[s];
    for (int op = 0; op < TT_NOPS; ++op) {
      sys[s].off[op] = layout == TRIDI_VAR_PACKED ? off : s;
      sys[s].inc[op] = layout == TRIDI_VAR_PACKED ? 1 : V->ld;
    }
    off += len[s];
  }
  const tt_problem_spec spec = {.kind = &tt_kind_variable,
                                .name = "variable",
                                .dtype = dt,
                                .inplace = inplace,
                                .nsys = B,
                                .sys = sys,
                                .kind_data = V};
  const int rc = tt_problem_init_sys(P, &spec, seed, NULL);
  free(sys);
  return rc;
}

const tt_var_layout *tt_var_problem_layout(const tt_problem *P) {
  return (const tt_var_layout *)P->kind_data;
}
