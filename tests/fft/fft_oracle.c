/* The FFT tests' oracles (fft_oracle.h). */
#include "fft_oracle.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef TRIDI_TEST_HAVE_FFTW
#include <fftw3.h>
#endif

static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void fo_fill(double *x, int64_t count, uint64_t seed) {
  const uint64_t key = mix64(seed);
  for (int64_t i = 0; i < 2 * count; ++i)
    x[i] = 2.0 * ((double)(mix64(key + (uint64_t)i) >> 11) * 0x1p-53) - 1.0;
}

void fo_naive_dft(int64_t n, int sign, const double *x, double *y) {
  const long double two_pi = 6.283185307179586476925286766559L;
  long double *c = malloc(sizeof(long double) * 2 * (size_t)n);
  for (int64_t j = 0; j < n; ++j) {
    c[2 * j] = cosl(two_pi * (long double)j / (long double)n);
    c[2 * j + 1] = (long double)sign * sinl(two_pi * (long double)j / (long double)n);
  }
  for (int64_t k = 0; k < n; ++k) {
    long double sr = 0, si = 0;
    int64_t e = 0; /* j * k mod n */
    for (int64_t j = 0; j < n; ++j) {
      const long double wr = c[2 * e], wi = c[2 * e + 1];
      sr += x[2 * j] * wr - x[2 * j + 1] * wi;
      si += x[2 * j] * wi + x[2 * j + 1] * wr;
      e += k;
      if (e >= n) e -= n;
    }
    y[2 * k] = (double)sr;
    y[2 * k + 1] = (double)si;
  }
  free(c);
}

#ifdef TRIDI_TEST_HAVE_FFTW
int fo_have_fftw(void) { return 1; }
int fo_fftw(int64_t n, int sign, const double *x, double *y) {
  fftw_complex *a = fftw_malloc(sizeof(fftw_complex) * (size_t)n);
  fftw_complex *b = fftw_malloc(sizeof(fftw_complex) * (size_t)n);
  fftw_plan p = fftw_plan_dft_1d((int)n, a, b, sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD,
                                 FFTW_ESTIMATE);
  memcpy(a, x, sizeof(fftw_complex) * (size_t)n);
  fftw_execute(p);
  memcpy(y, b, sizeof(fftw_complex) * (size_t)n);
  fftw_destroy_plan(p);
  fftw_free(a);
  fftw_free(b);
  return 1;
}
#else
int fo_have_fftw(void) { return 0; }
int fo_fftw(int64_t n, int sign, const double *x, double *y) {
  (void)n, (void)sign, (void)x, (void)y;
  return 0;
}
#endif

void fo_store(tridi_dtype dt, const double *x, int64_t count, void *dst, int64_t stride) {
  for (int64_t j = 0; j < count; ++j) {
    if (dt == TRIDI_C32) {
      float *d = (float *)dst + 2 * j * stride;
      d[0] = (float)x[2 * j];
      d[1] = (float)x[2 * j + 1];
    } else {
      double *d = (double *)dst + 2 * j * stride;
      d[0] = x[2 * j];
      d[1] = x[2 * j + 1];
    }
  }
}

void fo_load(tridi_dtype dt, const void *src, int64_t count, int64_t stride, double *x) {
  for (int64_t j = 0; j < count; ++j) {
    if (dt == TRIDI_C32) {
      const float *s = (const float *)src + 2 * j * stride;
      x[2 * j] = s[0];
      x[2 * j + 1] = s[1];
    } else {
      const double *s = (const double *)src + 2 * j * stride;
      x[2 * j] = s[0];
      x[2 * j + 1] = s[1];
    }
  }
}

double fo_rel_err(int64_t n, const double *ref, const double *got) {
  double num = 0, den = 0;
  for (int64_t i = 0; i < 2 * n; ++i) {
    const double d = got[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (num != num) return INFINITY;
  if (den == 0) return num == 0 ? 0 : INFINITY;
  return sqrt(num / den);
}

double fo_eps(tridi_dtype dt) { return dt == TRIDI_C32 ? FLT_EPSILON : DBL_EPSILON; }

int fo_log2(int64_t n) {
  int k = 0;
  while (((int64_t)1 << k) < n) ++k;
  return k;
}

double fo_bound(double c, tridi_dtype dt, int64_t n) {
  const int l = fo_log2(n);
  return c * (l > 1 ? l : 1) * fo_eps(dt);
}
