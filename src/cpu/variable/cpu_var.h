/* Internal to src/cpu/variable: the plan of the cpu_var_thomas row
 * (SIMD lanes over systems of a variable-size batch) and its per-ISA
 * kernels (cpu_var_kernel.inc, compiled once per ISA like the scalar
 * kernel). */
#ifndef TRIDI_CPU_VAR_H
#define TRIDI_CPU_VAR_H

#include "../tuning.h"
#include "backends.h"
#include "kinds/variable.h"

struct tridi_cpu_var_priv;

/* Registers of lanes per group (U) for a register of `bytes` bytes and a
 * PACKED or INTERLEAVED batch: the lanes of a group are U x bytes / sizeof(T)
 * (see cpu_var_kernel_isa.inc). */
#define TRIDI_CPU_VAR_UNROLL(bytes, packed) ((packed) ? 1 : (bytes) == 64 ? 4 : 2)

/* Solve groups [g0, g1) on the calling thread; scratch: this thread's slice
 * of the workspace (priv->scratch_bytes, 64-byte aligned). */
typedef void (*tridi_cpu_var_kernel_fn)(const struct tridi_plan_s *plan,
                                        const struct tridi_cpu_var_priv *P, const tridi_args *args,
                                        int64_t g0, int64_t g1, void *scratch,
                                        tridi_fail_slot *fail);

typedef struct tridi_cpu_var_priv {
  int lanes;            /* W: lanes per group, one SIMD lane each (64 or 32 bytes of T) */
  int64_t ngroups;
  /* INTERLEAVED: ngroups * W system numbers (storage order), -1 for an empty lane */
  int64_t *sys;
  /* PACKED: ngroups * W + 1 ascending system numbers: lane l of group g holds
   * systems lsys[g W + l] .. lsys[g W + l + 1] - 1 (none when equal), whole and
   * consecutive in storage order, so a group is one contiguous stretch of rows */
  int64_t *lsys;
  /* PACKED: bit p set where row p of the packed batch starts a system (and
   * at p = total): each lane's K-row blocks take their first / last row masks
   * from it (lanes cross system boundaries) */
  unsigned char *starts;
  int64_t *gn;          /* ngroups: the longest lane (PACKED rows, INTERLEAVED system) */
  int64_t *cost;        /* ngroups + 1: prefix sums of gn (the threads' shares) */
  int64_t prefetch;     /* rows ahead each lane's next rows are prefetched */
  int growth;           /* flag growth (plan->growth): TRIDI_INFO_INACCURATE */
  int nt;               /* PACKED: whole lines of x written non-temporally (x larger than
                         * TRIDI_CPU_NT_BYTES, beyond the caches) */
  int64_t strip_rows;   /* c'/d' rows (of W lanes) of a thread's scratch: PACKED the lane
                         * target (every lane's rows fit it); INTERLEAVED at least the
                         * longest group, else the strip budget's */
  size_t scratch_bytes; /* per thread: c', d' of strip_rows, the tiles, PACKED's row masks
                         * and events, a reference row buffer */
  tridi_cpu_var_kernel_fn kernel;
} tridi_cpu_var_priv;

/* tridi_cpu_var_kernel_<isa>_<f32|f64>_<p|i>: PACKED or INTERLEAVED. */
#define TRIDI_CPU_VAR_DECLARE1(SFX, TS, L)                                                      \
  void tridi_cpu_var_kernel_##SFX##_##TS##_##L(const struct tridi_plan_s *,                    \
                                                const tridi_cpu_var_priv *, const tridi_args *,   \
                                                int64_t, int64_t, void *, tridi_fail_slot *);
#define TRIDI_CPU_VAR_DECLARE(SFX)       \
  TRIDI_CPU_VAR_DECLARE1(SFX, f32, p)    \
  TRIDI_CPU_VAR_DECLARE1(SFX, f32, i)    \
  TRIDI_CPU_VAR_DECLARE1(SFX, f64, p)    \
  TRIDI_CPU_VAR_DECLARE1(SFX, f64, i)
TRIDI_CPU_VAR_DECLARE(portable)
#ifdef TRIDI_CPU_HAVE_AVX2
TRIDI_CPU_VAR_DECLARE(avx2)
#endif
#ifdef TRIDI_CPU_HAVE_AVX512
TRIDI_CPU_VAR_DECLARE(avx512)
#endif

#endif
