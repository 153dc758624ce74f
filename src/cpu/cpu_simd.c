/* Runtime SIMD detection for the CPU backend: which kernel variants were
 * compiled in (TRIDI_CPU_HAVE_AVX2 / TRIDI_CPU_HAVE_AVX512, set by
 * src/cpu/CMakeLists.txt) and which the running CPU and OS can execute. */
#include "cpu_thomas.h"

#include <omp.h>

#if (defined(__x86_64__) || defined(_M_X64)) && defined(__GNUC__)
#define TRIDI_CPU_X86_GNU 1
#else
#define TRIDI_CPU_X86_GNU 0
#endif

/* __builtin_cpu_supports also checks that the OS saves the AVX / AVX-512
 * register state (XCR0), so a "yes" means the instructions can run. */
static int cpu_has_avx512(void) {
#if TRIDI_CPU_X86_GNU && defined(TRIDI_CPU_HAVE_AVX512)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("fma");
#else
  return 0;
#endif
}

static int cpu_has_avx2(void) {
#if TRIDI_CPU_X86_GNU && defined(TRIDI_CPU_HAVE_AVX2)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return 0;
#endif
}

tridi_simd tridi_cpu_simd_detect_impl(void) {
  if (cpu_has_avx512()) return TRIDI_SIMD_AVX512;
  if (cpu_has_avx2()) return TRIDI_SIMD_AVX2;
  return TRIDI_SIMD_PORTABLE;
}

int tridi_cpu_simd_supported(tridi_simd simd) {
  switch (simd) {
    case TRIDI_SIMD_AUTO:
    case TRIDI_SIMD_PORTABLE: return 1;
    case TRIDI_SIMD_AVX2: return cpu_has_avx2();
    case TRIDI_SIMD_AVX512: return cpu_has_avx512();
  }
  return 0;
}

int tridi_cpu_max_threads(void) { return omp_get_max_threads(); }
