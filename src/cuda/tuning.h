/* Tuning table of the CUDA Thomas-PCR backend: which kernel and tile the
 * planner uses, by kernel family, element type and system length.  Built
 * from the sweeps in docs/cuda.md ("Tuning table": NVIDIA H200, the best M,
 * block size and row width per n, % of the measured copy bandwidth there).
 *
 *  - staged kernel (systems along the contiguous axis, and any layout that is
 *    not system-adjacent): the tile of G systems is copied to shared memory,
 *    each thread keeps 3 M intermediates in registers; `threads` is the block
 *    size it aims at (G = threads / P, P = pow2ceil(n / M));
 *  - direct kernel (neighbouring systems adjacent: interleaved batches, the
 *    middle axes of N-d arrays): loads straight to registers, G = 128 bytes of
 *    adjacent systems when P allows; `threads` caps the block (0: 512; smaller
 *    blocks mean narrower rows, measured slower); `pipe` = 1: the pipelined
 *    variant (next tile copied to shared memory while the current one is
 *    solved) where the layout allows it (TRIDI_CUDA_PIPE_MAX_EXTENT,
 *    TRIDI_CUDA_PIPE_ROW_ALIGN);
 *  - segmented solve (system-adjacent layouts, n from the row's min_n =
 *    `pipe` on): segments of `rows` rows reduced to two rows each, the
 *    reduced systems solved by the direct kernel, then every segment solved
 *    by a direct-kernel tile of M rows a thread (G P <= `threads`, at most
 *    512 bytes of adjacent systems a row); `gbytes`: bytes of adjacent
 *    systems a row of the reduction kernel (0: 128);
 *  - cluster kernel (any layout, n past the single-block rows): a tile is cut
 *    into K <= 16 row blocks of one thread-block cluster (sm_90), joined
 *    through distributed shared memory; `threads` per block, `gbytes` the
 *    bytes of adjacent systems a row (ADJ; ROW layouts take one system).
 *
 * A row applies while n <= max_n (rows of a family sorted by max_n); past
 * the last row of the single-block family, or when its tile does not fit
 * (512 threads, shared memory), the cluster row applies, and past that (more
 * than 16 blocks, or a device without clusters) the streaming kernel. */
#ifndef TRIDI_CUDA_TUNING_H
#define TRIDI_CUDA_TUNING_H

#include "tridi.h"

typedef enum tridi_cuda_family {
  TRIDI_CUDA_STAGED = 0,
  TRIDI_CUDA_DIRECT = 1,
  TRIDI_CUDA_CLUSTER_ADJ = 2, /* cluster kernel, system-adjacent layouts */
  TRIDI_CUDA_CLUSTER_ROW = 3, /* cluster kernel, other layouts */
  TRIDI_CUDA_SEG = 4          /* segmented solve, system-adjacent layouts */
} tridi_cuda_family;

typedef struct tridi_cuda_tile {
  tridi_cuda_family family;
  tridi_dtype dtype;
  long long max_n; /* largest n the row covers (rows of a family sorted by max_n) */
  int m;           /* rows per thread (compiled: 4, 8, 16; 32 for f32) */
  int threads;     /* staged: target threads per block (<= 512); cluster: threads per block */
  int pipe;        /* staged: 1 = double-buffered persistent variant when it fits
                      (measured slower on the H200 so far: off everywhere);
                      direct: 1 = pipelined variant where it applies;
                      segmented: the smallest n the row takes */
  int gbytes;      /* cluster, system-adjacent: bytes of adjacent systems a row */
  int rows;        /* segmented: rows a segment (R = P M; doubled while the
                      2 n / R reduced rows exceed the direct kernel's rows) */
} tridi_cuda_tile;

#define TRIDI_CUDA_ANY_N (1ll << 62)

/* Staged kernel, unit-stride rows whose systems are not 16-byte aligned
 * (padded arrays, unaligned pointers): from this n on, 16-byte copies of
 * each system's aligned pieces with the rows shifted by their phase in
 * shared memory ("_ph"); below it, element-size copies.  H200, padded,
 * % of copy, element → phase: f32 n = 32 42 → 29, 128 45 → 47, 256 48 → 52,
 * 1024 45 → 51, 4096 37 → 44; f64 n = 32 67 → 52, 256 58 → 53, 1024 52 → 55,
 * 4096 34 → 41 (docs/perf-log.md CUDA v11). */
#define TRIDI_CUDA_PH_MIN_N_F32 128
#define TRIDI_CUDA_PH_MIN_N_F64 1024

/* Tiles of whole systems (src/cuda/scalar/tiles.cu) for dense batches of
 * systems stored one after another, instead of the staged kernel: every n
 * from 2 up to the tile (4096 rows f32, 2048 f64).  H200, contig, 512 MiB,
 * --pivot none (growth detection on), % of copy, staged -> tiles, same run
 * (docs/perf-log.md "Tiles of whole systems"): f32 n = 33 26 -> 73, 100
 * 56 -> 85, 1000 62 -> 85, 1365 38 -> 65, 4000 61 -> 85, 4095 44 -> 67, and
 * the powers of two 32 64 -> 89, 128 78 -> 90, 1024 76 -> 90, 2048 71 -> 89;
 * f64 n = 33 38 -> 75, 100 64 -> 86, 1000 73 -> 85, 32 88 -> 89, 256 86 ->
 * 89, 1024 79 -> 89, 2048 72 -> 89. */
#define TRIDI_CUDA_TILES_MAX_N_F32 4096
#define TRIDI_CUDA_TILES_MAX_N_F64 2048

/* Rows at a stride ld > n (padded rows) take the same tiles, the padding
 * read with them, where the padding is at most n / TILES_MAX_PAD_INV rows
 * (a quarter more rows read than the staged kernel's; a cost-model bound,
 * measured at the bench's pad of 3-4 rows only: docs/perf-log.md
 * "Padded rows through the tiles"). */
#define TRIDI_CUDA_TILES_MAX_PAD_INV 4

/* Pipelined direct kernel (rows with pipe = 1): only when every input has
 * its G systems adjacent, rows of 16-byte multiples and a system extent
 * (|axis stride| * n bytes) of at most this.  H100 (docs/perf-log.md CUDA
 * v25): it gained up to 12 points on the middle axis of (B/64, n, 64)
 * arrays (extent 2-1024 KB) and lost 3-20 on interleaved (n, B) batches
 * (extent ~100 MB), with the same tiles and 16-byte copies at n = 512;
 * extents in between were not measured. */
#define TRIDI_CUDA_PIPE_MAX_EXTENT (4ll << 20)
/* ... or, at any extent, when every input's rows are whole 128-byte lines
 * (|axis stride| * sizeof(T) a multiple of this).  H100 (docs/perf-log.md
 * CUDA v26): the loss on interleaved batches came from rows not aligned to
 * sectors (the bench's B = elems / n; ncu, f32 n = 512:
 * 24 L2 sectors per 16-byte cp.async warp request against 16), not from the
 * extent: with B * sizeof(T) a multiple of 128 the pipelined kernel took
 * interleaved f32 n = 128/512/1024 from 87-89/78-79/62-68% to 92-93/83-84/
 * 69-70%, f64 n = 256/512/1024 from 80-83/67-68/63 to 89-90/83-85/66-69%;
 * rows 32- or 64-byte aligned gained nothing (f64 n = 512, 1 GiB set). */
#define TRIDI_CUDA_PIPE_ROW_ALIGN 128

static const tridi_cuda_tile tridi_cuda_tiles[] = {
    /* family, dtype, max_n, M, threads, pipe, gbytes, rows */
    {TRIDI_CUDA_STAGED, TRIDI_F32, 8192, 16, 64, 0, 0, 0},
    /* H100, after the cheaper reduced solve of perf-log CUDA v23 (% of copy
     * contig / padded): f64 n = 2048 M 8 97/85 against M 16 92/74;
     * n = 4096 M 8 85/75 against M 16 87/71 (kept) */
    {TRIDI_CUDA_STAGED, TRIDI_F64, 2048, 8, 64, 0, 0, 0},
    {TRIDI_CUDA_STAGED, TRIDI_F64, 4096, 16, 64, 0, 0, 0},
    /* direct (H100, `scripts/gpu.sh tune`, interleaved / mid3d % of copy):
     * f32 n = 128 M 16 82/78 against M 8 78/75 (H200: a tie); f64 n = 128
     * M 8 85/85 against M 16 69/80, n = 256 74/77 against 71/76 (H200 at
     * 128: 61/72 against 65/70).  H100, after perf-log CUDA v23's reduced
     * solve: f32 n = 1024 M 16 59/67 against M 32 54/57 (n = 2048: M 16
     * 40/50 against M 32 44/52, kept); f64 n = 512 M 8 70/86 against M 16
     * 66/71, n = 1024 59/68 against 58/64 (M 16 with the previous reduced
     * solve: with v23's it spills more and fell to 55/61 and 50/55).  H100,
     * pipelined variant against the plain kernel (perf-log CUDA v25, mid3d %
     * of copy, two runs averaged): f32 n = 32 92/95 (plain kept), 64 95/89, 128 93/88, 256 78/88 (plain
     * kept), 512 88/79, 1024 76/68; f64 n = 32 87/101, 64 95/99, 128 93/95
     * (plain kept), 256 96/84, 512 86/85, 1024 78/69.  H200, with P = ceil(n / M)
     * threads a system (`TRIDI_CUDA_M`, `TRIDI_CUDA_PIPE` sweep, interleaved /
     * mid3d % of copy, docs/perf-log.md "Direct kernels: any number of
     * threads a system"): f32 n = 33..128 plain M 8 against pipelined M 16:
     * n = 33 71/71 against 43/42, 40 82/76 against 49/48, 65 71/63 against
     * 50/48, 100 68/62 against 51/50, 64 78/75 against 71/69, 128 75/70
     * against 69/66 */
    {TRIDI_CUDA_DIRECT, TRIDI_F32, 32, 16, 0, 0, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F32, 256, 8, 0, 0, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F32, 1024, 16, 0, 1, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F32, 2048, 32, 0, 0, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F64, 32, 4, 0, 0, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F64, 128, 8, 0, 0, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F64, 1024, 8, 0, 1, 0, 0},
    {TRIDI_CUDA_CLUSTER_ADJ, TRIDI_F32, 4096, 32, 256, 0, 64, 0},
    {TRIDI_CUDA_CLUSTER_ADJ, TRIDI_F32, TRIDI_CUDA_ANY_N, 32, 512, 0, 32, 0},
    {TRIDI_CUDA_CLUSTER_ADJ, TRIDI_F64, 2048, 16, 128, 0, 64, 0},
    {TRIDI_CUDA_CLUSTER_ADJ, TRIDI_F64, 4096, 16, 256, 0, 64, 0},
    {TRIDI_CUDA_CLUSTER_ADJ, TRIDI_F64, TRIDI_CUDA_ANY_N, 16, 512, 0, 64, 0},
    /* segmented solve (H100, docs/perf-log.md CUDA v21; % of copy,
     * segmented against the direct / cluster kernels): f32 interleaved
     * n = 2048/4096/8192/16384 42.6/44.4/43.9/40.6 against 42.6/41.6/37.8/32.5,
     * mid3d 50.4/49.3/48.6/48.6 against 51.1/47.0/39.8/37.1; f64 interleaved
     * 4096/8192/16384 45.8/44.3/40.7 against 54.1/46.2/37.7, mid3d
     * 49.8/50.1/49.7 against 58.7/51.7/44.8.  Of M = 8, 16 and R = 16...128
     * (f32) and M = 4, 8, R = 16...128 (f64), these were best at every n. */
    {TRIDI_CUDA_SEG, TRIDI_F32, TRIDI_CUDA_ANY_N, 16, 128, 2049, 0, 64},
    {TRIDI_CUDA_SEG, TRIDI_F64, TRIDI_CUDA_ANY_N, 8, 128, 8193, 0, 64},
    /* cluster kernel, one system a tile (contig, padded): H100
     * (`scripts/gpu.sh ctune`, contig, % of copy, two runs): f32 M 8 with 256
     * threads 71.8-72.6 / 69.2-69.7 at n = 8192 / 16384 against M 16 with 128
     * threads 70.3-70.7 / 66.2-67.5 (M 8 128 thr 73.3 / 66.3, M 4 256 thr
     * 42.6 / 37.8, 512 thr 68.5 / 63.6); f64 M 8 with 256 threads 65.6-66.3 /
     * 60.9-61.0 against 128 threads 67.2-68.3 / 58.7-59.2: kept */
    {TRIDI_CUDA_CLUSTER_ROW, TRIDI_F32, TRIDI_CUDA_ANY_N, 8, 256, 0, 0, 0},
    {TRIDI_CUDA_CLUSTER_ROW, TRIDI_F64, TRIDI_CUDA_ANY_N, 8, 128, 0, 0, 0},
};
static const int tridi_cuda_ntiles = (int)(sizeof tridi_cuda_tiles / sizeof tridi_cuda_tiles[0]);

#endif /* TRIDI_CUDA_TUNING_H */
