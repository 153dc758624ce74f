/* A consumer of an installed tridi, as a user writes one: plain C, only
 * <tridi.h>, built by tests/install/run.sh through find_package(tridi) and
 * through pkg-config, against the shared and the static library.
 *
 * It solves diagonally dominant batches on the CPU (f64 and f32, systems
 * contiguous and interleaved) and checks every system's relative residual
 * ||Ax - d|| / (||A|| ||x|| + ||d||) <= 8 n eps; checks that the header and
 * the library agree on the version; and checks the CUDA backend's
 * availability against argv[1] ("0": none, e.g. no NVIDIA driver, where a
 * CUDA plan must fail cleanly with TRIDI_ERR_BACKEND_UNAVAILABLE; "any").
 * Exit status 0 when everything holds. */
#include <tridi.h>

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

/* no libm here: whatever the library needs must come from its own link
 * information */
static double absd(double v) { return v < 0 ? -v : v; }
static double maxd(double a, double b) { return a > b ? a : b; }

static void fail(const char *what, tridi_status st) {
  fprintf(stderr, "consumer: %s: %s (%s)\n", what, tridi_status_name(st), tridi_last_error());
  ++failures;
}

static double uniform(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* B systems of length n; interleaved: shape (n, B), axis 0; else (B, n), axis 1. */
static void solve_batch(tridi_dtype dt, int interleaved) {
  enum { B = 37, N = 100 };
  const size_t es = dt == TRIDI_F64 ? sizeof(double) : sizeof(float);
  void *op[5];
  for (int k = 0; k < 5; ++k) op[k] = malloc((size_t)B * N * es);
  if (!op[0] || !op[1] || !op[2] || !op[3] || !op[4]) {
    fprintf(stderr, "consumer: out of memory\n");
    ++failures;
    for (int k = 0; k < 5; ++k) free(op[k]);
    return;
  }
  unsigned long long seed = 2026;
  for (int s = 0; s < B; ++s)
    for (int i = 0; i < N; ++i) {
      const size_t e = interleaved ? (size_t)i * B + s : (size_t)s * N + i;
      const double v[4] = {uniform(&seed) - 0.5, 3.0 + uniform(&seed), uniform(&seed) - 0.5,
                           uniform(&seed) - 0.5};
      for (int k = 0; k < 4; ++k) {
        if (dt == TRIDI_F64) ((double *)op[k])[e] = v[k];
        else ((float *)op[k])[e] = (float)v[k];
      }
    }
  const int64_t shape[2] = {interleaved ? N : B, interleaved ? B : N};
  tridi_desc desc = NULL;
  tridi_plan plan = NULL;
  int32_t info[B];
  tridi_status st = tridi_desc_create(&desc, dt, 2, shape, interleaved ? 0 : 1);
  if (st) fail("tridi_desc_create", st);
  if (!st) st = tridi_plan_create(&plan, desc, NULL);
  if (st && desc) fail("tridi_plan_create", st);
  tridi_desc_destroy(desc);
  if (!st) {
    st = tridi_execute(plan, op[0], op[1], op[2], op[3], op[4], info, NULL);
    if (st) fail("tridi_execute", st);
  }
  tridi_plan_destroy(plan);
  if (!st) {
    const double eps = dt == TRIDI_F64 ? DBL_EPSILON : FLT_EPSILON;
    for (int s = 0; s < B; ++s) {
      double nr = 0, na = 0, nx = 0, nd = 0;
      for (int i = 0; i < N; ++i) {
        double v[5][3];
        for (int k = 0; k < 5; ++k)
          for (int j = -1; j <= 1; ++j) {
            const int r = i + j;
            const size_t e = interleaved ? (size_t)r * B + s : (size_t)s * N + r;
            v[k][j + 1] = r < 0 || r >= N ? 0.0
                          : dt == TRIDI_F64 ? ((double *)op[k])[e]
                                            : (double)((float *)op[k])[e];
          }
        const double a = i > 0 ? v[0][1] : 0.0, b = v[1][1], c = i < N - 1 ? v[2][1] : 0.0;
        const double r = a * v[4][0] + b * v[4][1] + c * v[4][2] - v[3][1];
        nr = maxd(nr, absd(r));
        na = maxd(na, absd(a) + absd(b) + absd(c));
        nx = maxd(nx, absd(v[4][1]));
        nd = maxd(nd, absd(v[3][1]));
      }
      const double res = nr / (na * nx + nd);
      if (info[s] != 0 || !(res <= 8.0 * N * eps)) {
        fprintf(stderr, "consumer: %s %s system %d: info %d, residual %.3g (bound %.3g)\n",
                tridi_dtype_name(dt), interleaved ? "interleaved" : "contiguous", s, (int)info[s], res,
                8.0 * N * eps);
        ++failures;
      }
    }
  }
  for (int k = 0; k < 5; ++k) free(op[k]);
}

int main(int argc, char **argv) {
  const char *want_cuda = argc > 1 ? argv[1] : "any";
  int major = -1, minor = -1, patch = -1;
  tridi_version(&major, &minor, &patch);
  if (major != TRIDI_VERSION_MAJOR || minor != TRIDI_VERSION_MINOR || patch != TRIDI_VERSION_PATCH) {
    fprintf(stderr, "consumer: library %d.%d.%d, header %d.%d.%d\n", major, minor, patch,
            TRIDI_VERSION_MAJOR, TRIDI_VERSION_MINOR, TRIDI_VERSION_PATCH);
    ++failures;
  }
  for (int t = 0; t < 2; ++t)
    for (int il = 0; il < 2; ++il) solve_batch(t ? TRIDI_F32 : TRIDI_F64, il);

  const int cuda = tridi_backend_available(TRIDI_BACKEND_CUDA);
  if (strcmp(want_cuda, "0") == 0) {
    if (cuda != 0) {
      fprintf(stderr, "consumer: tridi_backend_available(CUDA) = %d, expected 0\n", cuda);
      ++failures;
    }
    const int64_t shape[2] = {4, 8};
    tridi_desc desc = NULL;
    tridi_plan plan = NULL;
    tridi_options o;
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CUDA;
    if (tridi_desc_create(&desc, TRIDI_F64, 2, shape, 1) == TRIDI_SUCCESS) {
      const tridi_status st = tridi_plan_create(&plan, desc, &o);
      if (st != TRIDI_ERR_BACKEND_UNAVAILABLE || plan != NULL) {
        fprintf(stderr, "consumer: CUDA plan without a device: %s, expected "
                        "TRIDI_ERR_BACKEND_UNAVAILABLE\n", tridi_status_name(st));
        ++failures;
      }
      tridi_plan_destroy(plan);
    }
    tridi_desc_destroy(desc);
  }
  printf("consumer: tridi %d.%d.%d, CUDA backend available: %d, %s\n", major, minor, patch, cuda,
         failures ? "FAILED" : "all solves within the bound");
  return failures ? 1 : 0;
}
