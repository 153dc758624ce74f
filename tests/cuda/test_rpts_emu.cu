/* The partitioned pivoting kernel's arithmetic and shared-memory layout
 * (src/cuda/pivot/rpts.cuh, whose functions also build for the host)
 * driven phase by phase as rpts_tile drives them for one block of G
 * systems (every thread of a phase in turn; the phases are what the
 * kernel's barriers separate), against the host model
 * (tests/cuda/rpts_model.h): x must agree bit for bit (the host pass does
 * not contract into FMAs), for n = 2 .. 4096, G = 1, 4, 32, the systems of
 * the collection.  Compiled by nvcc, runs on the CPU: no GPU needed.  The
 * kernel's acceptance check and refinement step are not emulated (the
 * model's test covers that rule; the GPU test test_pivot_cuda covers the
 * kernel), but its running maximum rpts_fmax is checked on NaNs. */
#include "pivot/rpts.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
extern "C" {
#include "matgen.h"
#include "rpts_model.h"
}
using namespace tridi_cuda;
template <typename T>
static void emulate(int n, int G, const std::vector<std::vector<double>> &A, std::vector<std::vector<T>> &X) {
  constexpr int M = kRptsM;
  int nl[kRptsMaxLevels];
  const int L = rpts_levels(n, nl);
  RptsLevel<T> lv[kRptsMaxLevels];
  size_t tot = 0;
  for (int l = 0; l <= L; ++l) tot += (size_t)5 * M * rpts_stride(nl[l], M, G);
  std::vector<T> mem(tot, (T)777);
  T *m = mem.data();
  for (int l = 0; l <= L; ++l) {
    const int S = rpts_stride(nl[l], M, G);
    lv[l] = RptsLevel<T>{m, m + (size_t)4 * M * S, S, nl[l], l < L ? (nl[l] + M - 1) / M : 0};
    m += (size_t)5 * M * S;
  }
  const int P = L > 0 ? (n + M - 1) / M : 1;
  for (int g = 0; g < G; ++g)
    for (int r = 0; r < n; ++r)
      for (int k = 0; k < 4; ++k) {
        if ((k == 0 && r == 0) || (k == 2 && r == n - 1)) continue;
        lv[0].rows[rpts_idx<T, M>(lv[0], G, g, r, k)] = (T)A[g][k * n + r];
      }
  auto coarse = [&]() {
    for (int l = 0; l < L; ++l)
      for (int t = 0; t < G * P; ++t) { int g = t % G, pp = t / G; if (pp < lv[l].P) rpts_reduce<T, M>(lv[l], lv[l + 1], G, g, pp); }
    for (int g = 0; g < G; ++g) rpts_top<T, M>(lv[L], G, g);
    for (int l = L - 1; l >= 1; --l)
      for (int t = 0; t < G * P; ++t) {
        int g = t % G, pp = t / G;
        if (pp < lv[l].P) { T x[M], xp, xn; rpts_substitute<T, M>(lv[l], lv[l + 1], G, g, pp, x, xp, xn);
          for (int j = 0; j < M; ++j) if (pp * M + j < lv[l].n) lv[l].x[rpts_xidx<T, M>(lv[l], G, g, pp * M + j)] = x[j]; }
      }
  };
  coarse();
  for (int t = 0; t < G * P; ++t) {
    int g = t % G, pp = t / G;
    if (pp < lv[0].P) { T x[M], xp, xn; rpts_substitute<T, M>(lv[0], lv[1], G, g, pp, x, xp, xn);
      for (int j = 0; j < M; ++j) if (pp * M + j < n) lv[0].x[rpts_xidx<T, M>(lv[0], G, g, pp * M + j)] = x[j]; }
  }
  X.assign(G, std::vector<T>(n));
  for (int g = 0; g < G; ++g)
    for (int i = 0; i < n; ++i) X[g][i] = lv[0].x[rpts_xidx<T, M>(lv[0], G, g, i)];
}
/* The acceptance check's running maximum (rpts_fmax) over a thread's rows
 * keeps a NaN wherever it comes in the sequence: first, in the middle,
 * last (a thread of the kernel folds rows pp, pp + Pt, ...; a NaN x or
 * residual that a later finite row hid was a system accepted with NaN). */
static int check_fmax() {
  const double seqs[4][4] = {{NAN, 1, 2, 0.5}, {1, NAN, 2, 0.5}, {1, 2, 0.5, NAN}, {0, NAN, NAN, 3}};
  int bad = 0;
  for (const auto &q : seqs) {
    double m = 0;
    for (double v : q) m = rpts_fmax(m, v);
    if (!std::isnan(m)) { ++bad; printf("[test_rpts_emu] rpts_fmax over {%g, %g, %g, %g}: %g, not NaN\n", q[0], q[1], q[2], q[3], m); }
  }
  double m = 0;
  for (double v : {1.0, (double)INFINITY, 2.0}) m = rpts_fmax(m, v);
  if (!(m == INFINITY)) { ++bad; printf("[test_rpts_emu] rpts_fmax over {1, inf, 2}: %g\n", m); }
  m = 0;
  for (double v : {1.0, 3.0, 2.0}) m = rpts_fmax(m, v);
  if (m != 3.0) { ++bad; printf("[test_rpts_emu] rpts_fmax over {1, 3, 2}: %g\n", m); }
  return bad;
}
int main() {
  int bad = 0, cases = 0;
  const int fbad = check_fmax();
  for (int n : {2, 3, 16, 17, 31, 32, 33, 100, 1000, 4096})
    for (int G : {1, 4, 32}) {
      std::vector<std::vector<double>> A(G, std::vector<double>(4 * n));
      std::vector<std::vector<double>> X;
      for (int g = 0; g < G; ++g) {
        const mg_matrix *mm = &mg_matrices[g % mg_count];
        if (mm->props & MG_DENSE) mm = mg_by_name("uniform");
        double *a = A[g].data();
        mg_generate(mm, n, g + 1, a, a + n, a + 2 * n);
        std::vector<double> xt(n);
        mg_xtrue(n, g + 1, xt.data());
        mg_matvec(n, a, a + n, a + 2 * n, xt.data(), a + 3 * n);
      }
      emulate<double>(n, G, A, X);
      for (int g = 0; g < G; ++g) {
        double *a = A[g].data();
        std::vector<double> xm(n);
        rm_solve_f64(n, kRptsM, kRptsTop, 0, a, a + n, a + 2 * n, a + 3 * n, xm.data(), nullptr);
        double diff = 0;
        for (int i = 0; i < n; ++i) {
          double dd = std::fabs(X[g][i] - xm[i]);
          if (std::isnan(X[g][i]) != std::isnan(xm[i])) dd = INFINITY;
          if (!std::isnan(dd)) diff = std::fmax(diff, dd / (std::fabs(xm[i]) + 1e-300));
        }
        ++cases;
        if (diff > 0) { ++bad; if (bad < 15) printf("[test_rpts_emu] n %d G %d g %d (%s): relative difference %.3g\n", n, G, g, mg_matrices[g % mg_count].name, diff); }
      }
    }
  printf("[test_rpts_emu] %d systems, %d differ from the model\n", cases, bad);
  return bad || fbad || cases == 0 ? 1 : 0;
}
