/* Tuning constants of the CPU backend's SIMD Thomas kernel: group width,
 * sub-groups and their c'/d' scratch, tile depth, prefetch, non-temporal
 * stores, and where the fused, chained and pipelined paths apply.
 * cpu_thomas.c plans with them; the kernel (cpu_thomas_kernel.inc) takes the
 * group width.  Each constant says what it is, then one line of the
 * measurement that set it; the whole story, with the commands, is in
 * docs/perf-log.md ("CPU", the version named).  "Intel Xeon" is the
 * development VM of perf-log v17 on, "Zen 4" that of v13-v16.  In
 * TRIDI_CPU_TUNING builds, TRIDI_CPU_* environment variables override most
 * of these choices at plan creation (cpu_thomas.c, read_overrides). */
#ifndef TRIDI_CPU_TUNING_H
#define TRIDI_CPU_TUNING_H

#include <stddef.h>
#include <stdint.h>

/* ---- group width: U vectors of 64 bytes per row, G = U x 64 / sizeof(T) lanes ---- */

/* U on the portable and AVX2 paths (16 ymm registers): U independent division chains a row.
 * Intel host, perf-log CPU v2: in-cache VEC 12.2-13.8 GB/s (U = 1) -> 18.5-19.9 GB/s (U = 2). */
#ifndef TRIDI_CPU_UNROLL
#define TRIDI_CPU_UNROLL 2
#endif
/* U on AVX-512 for layouts without a TRANS operand (32 zmm registers hold 4 chains).
 * Intel host, perf-log CPU v10: U = 8 x0.93-1.12 (middle axis, interleaved f64), not kept. */
#ifndef TRIDI_CPU_UNROLL_AVX512
#define TRIDI_CPU_UNROLL_AVX512 4
#endif
/* U on AVX-512 for TRANS layouts that are neither 64-byte aligned nor all-TRANS (suffix
 * avx512n); the others take U = 1 (suffix avx512s, see avx512_u_of in cpu_thomas.c).
 * Intel Xeon, perf-log CPU v19: padded rows (unfused) with U = 1 x0.92-1.06 against U = 2. */
#ifndef TRIDI_CPU_UNROLL_AVX512_NARROW
#define TRIDI_CPU_UNROLL_AVX512_NARROW 2
#endif

/* ---- sub-groups and c'/d' scratch ---- */

/* Most sub-groups of G lanes one work item sweeps together (tridi_cpu_thomas_priv.sub).
 * Intel host, perf-log CPU v10: 16 or 32 sub-groups for interleaved data x0.82-0.97. */
#define TRIDI_CPU_MAX_SUB 8
/* VEC rows at least this many bytes apart are "far" (interleaved data: a page per row visit);
 * closer rows are a middle axis, which the hardware prefetchers follow.
 * Intel host, perf-log CPU v9: prefetcht1 x1.04-1.19 on far rows; it cost 4-9% on closer ones. */
#define TRIDI_CPU_FAR_ROW_BYTES 4096
/* c'/d' scratch a work item's sub-groups may take where the VEC rows are close (a middle axis).
 * Intel Xeon, perf-log CPU v21: 512 KiB instead x0.87-0.95 for the f64 middle axis at n >= 1024. */
#define TRIDI_CPU_SCRATCH_BUDGET ((size_t)4 << 20)
/* ... and where they are far (interleaved data): an L2-resident scratch.
 * Intel Xeon, perf-log CPU v21: against 4 MiB, f32 x0.99-1.35, f64 x0.97-1.26 at n = 64-4096. */
#define TRIDI_CPU_SCRATCH_BUDGET_FAR ((size_t)256 << 10)
/* The variable kind's strips of INTERLEAVED groups (src/cpu/variable/cpu_var_strip.inc: at most
 * TRIDI_CPU_MAX_SUB groups, chosen per strip since their lengths differ) take this much c'/d'
 * scratch.  Emerald Rapids VM, perf-log "CPU variable INTERLEAVED: strips of groups": 1 MiB with
 * 16-row prefetch against 256 KiB with 8 rows 1.4-1.6x on f32 uniform L = 128, the same on half. */
#define TRIDI_CPU_VAR_STRIP_BUDGET ((size_t)1 << 20)
/* The variable kind's PACKED lanes (src/cpu/variable/cpu_var.c): each lane takes whole
 * consecutive systems up to TRIDI_CPU_VAR_LANE_ROWS rows, capped where the lanes' c'/d' would
 * pass TRIDI_CPU_VAR_LANE_BUDGET per thread (4096 rows with AVX-512), but never below the longest
 * system.  A group costs its longest lane, and a lane ends up to one system short of the target,
 * so the target is many systems long.  Emerald Rapids VM, f64 lengths 128 - (i * 7919 mod 65),
 * 32 M unknowns, 2 threads, 4 alternated pairs: 4096 rows 19.8-22.1 GB/s against 1024 rows
 * 14.4-18.9 (8192 and 16384 rows: slower than 4096). */
#define TRIDI_CPU_VAR_LANE_ROWS 4096
#define TRIDI_CPU_VAR_LANE_BUDGET ((size_t)512 << 10)
/* Beyond this much scratch per thread (a few very long systems), AUTO takes cpu_thomas_ref.
 * A bound on the workspace, not a measured optimum. */
#define TRIDI_CPU_SCRATCH_MAX ((size_t)64 << 20)

/* ---- tile depth ---- */

/* Lines of each system a TRANS tile reads per visit, systems 64-byte aligned (contiguous).
 * Intel Xeon, perf-log CPU v19: with U = 1, 2 lines x1.05 over 4 (f32 n >= 1024). */
#define TRIDI_CPU_TRANS_LINES_ALIGNED 2
/* ... and systems not 64-byte aligned (padded rows: R + 1 lines touched per R).
 * Zen 4, perf-log CPU v13: padded f64 with 2 lines x0.73-0.88 against 4. */
#define TRIDI_CPU_TRANS_LINES 4
/* Rows of a VEC tile where the rows are far apart (f64: 2 K; f32: K).
 * Zen 4, perf-log CPU v13: interleaved f64 x1.02-1.07 against 8-row tiles. */
#define TRIDI_CPU_VEC_FAR_ROWS 16

/* ---- prefetch and stores ---- */

/* Software prefetch distance in tiles of K rows (TRANS tiles deeper than K: one tile).
 * Intel host, perf-log CPU v2: prefetcht0 two tiles ahead 43-52% of copy, none 39-41% (3-D f64). */
#define TRIDI_CPU_PREFETCH_TILES 2
/* TRANS systems of at most this many bytes: the next work item's first tile is prefetched.
 * Zen 4, perf-log CPU v16: contig f32 n = 64 x1.72-1.80, n <= 512 x1.09-1.21; longer x0.91-1.08. */
#define TRIDI_CPU_PF_NEXT_BYTES 4096
/* x is written with non-temporal stores when it is at least this large (5 words instead of 6).
 * Intel host, perf-log CPU v2: 3-D f64 n = 1024 39-41% of copy with them, 27% without. */
#define TRIDI_CPU_NT_BYTES ((int64_t)64 << 20)

/* ---- fused, chained and pipelined work items (AVX-512) ---- */

/* Fused TRANS systems of at most this many bytes, a whole number of tiles or more than one:
 * the last full tile's sweep loads the next work item's first tile (before a partial tail,
 * into a third tile set).
 * Intel Xeon, perf-log CPU v22: padded f32 n = 64 x1.13-1.18; systems >= 2 KiB x0.96-1.01. */
#define TRIDI_CPU_CHAIN_BYTES 1024
/* Pipelined work items (all VEC, close rows) where their two c'/d' scratches fit in this.
 * Intel Xeon, perf-log CPU v24: mid3d f32 n = 64-768 x1.05-1.10; n = 1024 (2 x 512 KiB) x1.00. */
#define TRIDI_CPU_PIPE_SCRATCH ((uint64_t)768 << 10)
/* Rows of one item's forward sweep between rows of the other's backward sweep.
 * Intel Xeon, perf-log CPU v24: 2 or 8 rows x0.96-0.99 against 4. */
#define TRIDI_CPU_PIPE_ROWS 4

#endif /* TRIDI_CPU_TUNING_H */
