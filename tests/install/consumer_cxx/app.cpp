// A C++ consumer of an installed tridi (tests/install/run.sh): <tridi.h>
// from C++ (its extern "C" block), the native API on a batch and the
// LAPACK-shaped tridi_dgtsv on one system, each checked by its residual.
// Exit status 0 when every residual is within 8 n eps relative.
#include <tridi.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "consumer (C++): %s: %s\n", what, tridi_last_error());
    ++failures;
  }
}

// relative residual of system s of length n at element stride 1, offset s*n
double residual(const std::vector<double> &a, const std::vector<double> &b,
                const std::vector<double> &c, const std::vector<double> &d,
                const std::vector<double> &x, size_t off, int n) {
  double nr = 0, na = 0, nx = 0, nd = 0;
  for (int i = 0; i < n; ++i) {
    const size_t e = off + (size_t)i;
    double r = b[e] * x[e] - d[e];
    if (i > 0) r += a[e] * x[e - 1];
    if (i < n - 1) r += c[e] * x[e + 1];
    nr = std::max(nr, std::fabs(r));
    na = std::max(na, std::fabs(a[e]) + std::fabs(b[e]) + std::fabs(c[e]));
    nx = std::max(nx, std::fabs(x[e]));
    nd = std::max(nd, std::fabs(d[e]));
  }
  return nr / (na * nx + nd);
}

}  // namespace

int main() {
  const int n = 64, batch = 9;
  const size_t len = (size_t)n * batch;
  std::vector<double> a(len), b(len), c(len), d(len), x(len);
  unsigned long long seed = 7;
  auto uniform = [&seed]() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0;
  };
  for (size_t e = 0; e < len; ++e) {
    a[e] = uniform() - 0.5;
    b[e] = 3.0 + uniform();
    c[e] = uniform() - 0.5;
    d[e] = uniform() - 0.5;
  }

  // native API: shape (batch, n), systems along axis 1
  const int64_t shape[2] = {batch, n};
  tridi_desc desc = nullptr;
  tridi_plan plan = nullptr;
  std::vector<int32_t> info(batch, -99);
  check(tridi_desc_create(&desc, TRIDI_F64, 2, shape, 1) == TRIDI_SUCCESS, "tridi_desc_create");
  check(tridi_plan_create(&plan, desc, nullptr) == TRIDI_SUCCESS, "tridi_plan_create");
  tridi_desc_destroy(desc);
  check(tridi_execute(plan, a.data(), b.data(), c.data(), d.data(), x.data(), info.data(),
                      nullptr) == TRIDI_SUCCESS,
        "tridi_execute");
  tridi_plan_destroy(plan);
  for (int s = 0; s < batch; ++s) {
    check(info[(size_t)s] == 0, "info");
    check(residual(a, b, c, d, x, (size_t)s * n, n) <= 8 * n * DBL_EPSILON, "native residual");
  }

  // LAPACK storage: dl and du n-1 long, b overwritten
  std::vector<double> dl(a.begin() + 1, a.begin() + n), du(c.begin(), c.begin() + n - 1);
  std::vector<double> rhs(d.begin(), d.begin() + n);
  int linfo = -99;
  check(tridi_dgtsv(n, 1, dl.data(), b.data(), du.data(), rhs.data(), n, &linfo) ==
            TRIDI_SUCCESS && linfo == 0,
        "tridi_dgtsv");
  std::vector<double> xs(len, 0.0);
  std::copy(rhs.begin(), rhs.end(), xs.begin());
  check(residual(a, b, c, d, xs, 0, n) <= 8 * n * DBL_EPSILON, "tridi_dgtsv residual");

  int major = -1, minor = -1, patch = -1;
  tridi_version(&major, &minor, &patch);
  check(major == TRIDI_VERSION_MAJOR && minor == TRIDI_VERSION_MINOR, "tridi_version");
  std::printf("consumer (C++): tridi %d.%d.%d, %d failure(s)\n", major, minor, patch, failures);
  return failures ? 1 : 0;
}
