/* Oracles and checks of the FFT's tests (tests/fft, tests/cuda): seeded
 * complex data, the naive DFT in long double, FFTW (where it was found at
 * configure time), the relative 2-norm error of a result.  Complex arrays
 * of doubles are (re, im) pairs. */
#ifndef TRIDI_TESTS_FFT_ORACLE_H
#define TRIDI_TESTS_FFT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "tridi.h"

/* count complex values uniform in [-1, 1)^2, a function of (seed, index) */
void fo_fill(double *x, int64_t count, uint64_t seed);
/* y = the DFT of x (n points, exponent sign `sign`), summed in long double
 * with exact twiddles: the oracle for n up to a few thousand */
void fo_naive_dft(int64_t n, int sign, const double *x, double *y);
/* 1 when the tests were built with FFTW */
int fo_have_fftw(void);
/* y = FFTW's transform of x (double precision, FFTW_ESTIMATE); 0 when FFTW
 * is absent (y untouched) */
int fo_fftw(int64_t n, int sign, const double *x, double *y);
/* Store the doubles x (count complex values) as dtype at dst with stride
 * `stride` elements; load the reverse. */
void fo_store(tridi_dtype dt, const double *x, int64_t count, void *dst, int64_t stride);
void fo_load(tridi_dtype dt, const void *src, int64_t count, int64_t stride, double *x);
/* ||got - ref||_2 / ||ref||_2 over n complex values (0 when both are 0) */
double fo_rel_err(int64_t n, const double *ref, const double *got);
/* eps of a complex dtype's real type */
double fo_eps(tridi_dtype dt);
/* k with 2^k >= n (the log2 of a power of two) */
int fo_log2(int64_t n);
/* the tests' error bound c log2(n) eps (at least c eps) */
double fo_bound(double c, tridi_dtype dt, int64_t n);

#endif
