/* Internal to src/cpu/pivot: the SIMD kernel of LU with partial pivoting
 * (LAPACK ?gtsv's row interchanges, one right-hand side), vectorised across
 * systems like the Thomas kernel: one lane per system, the interchange
 * chosen per lane with selects.  Its plan is the Thomas kernel's
 * tridi_cpu_thomas_priv (the layout part from tridi_cpu_layout_priv; S
 * sub-groups a work item where x's lanes are contiguous, as the Thomas
 * kernel's) with the kernel pointer set to one of these. */
#ifndef TRIDI_CPU_LU_H
#define TRIDI_CPU_LU_H

#include "cpu_thomas.h"

/* Vectors of 64 bytes per row of the group (G = U x 64 / sizeof(T) lanes),
 * every layout: two independent division chains a row (the pivoting step's
 * chain, compare - select - divide - update, is longer than Thomas's, and
 * the back substitution divides too).  `tridi ab ... PIVOT=partial
 * PIVOT=partial,LU_U=1` (2 threads, 1 GiB, AMD EPYC VM at 74-86 GB/s copy):
 * U = 2 against U = 1 x1.10-1.23 on contiguous systems at n = 64 (f32,
 * f64), x1.24 f64 n = 4096, x0.95-1.09 elsewhere; padded f32 n = 64 x0.83.
 * On an Intel Xeon VM (Cascade Lake, 1 MiB L2) U = 1 was x1.03-1.58 on
 * contiguous and padded systems at n >= 2048 and x0.6-0.9 on the middle
 * axis and interleaved data: machine-dependent, not adopted (perf-log,
 * "CPU pivoting: the pivots' reciprocals"). */
#define TRIDI_CPU_LU_UNROLL 2

/* Per thread: 5 tiles of KT x G (a, b, c, d, x), 2 of staging for unaligned
 * TRANS x, and per sub-group 4G of sweep state and the rows of U and the
 * modified right-hand side, n x 4G. */
#define TRIDI_CPU_LU_DECLARE(SFX)                                                               \
  void tridi_cpu_lu_kernel_##SFX##_f32(const struct tridi_plan_s *,                            \
                                        const tridi_cpu_thomas_priv *, const tridi_args *,     \
                                        int64_t, int64_t, void *, tridi_fail_slot *);           \
  void tridi_cpu_lu_kernel_##SFX##_f64(const struct tridi_plan_s *,                            \
                                        const tridi_cpu_thomas_priv *, const tridi_args *,     \
                                        int64_t, int64_t, void *, tridi_fail_slot *);
TRIDI_CPU_LU_DECLARE(portable)
#ifdef TRIDI_CPU_HAVE_AVX2
TRIDI_CPU_LU_DECLARE(avx2)
#endif
#ifdef TRIDI_CPU_HAVE_AVX512
TRIDI_CPU_LU_DECLARE(avx512)
TRIDI_CPU_LU_DECLARE(avx512s)
#endif

#endif
