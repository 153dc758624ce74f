/* Tuning table of the CUDA Thomas-PCR backend: which tile the planner uses,
 * by kernel family, element type and system length.  Built from the sweeps
 * in docs/cuda.md ("Tuning table": NVIDIA H200, `scripts/gpu.sh tune`, the
 * best M and block size per row, % of the measured copy bandwidth there).
 *
 *  - staged kernel (systems along the contiguous axis, and any layout that is
 *    not system-adjacent): the tile of G systems is copied to shared memory,
 *    each thread keeps 3 M intermediates in registers; `threads` is the block
 *    size it aims at (G = threads / P, P = pow2ceil(n / M));
 *  - direct kernel (neighbouring systems adjacent: interleaved batches, the
 *    middle axes of N-d arrays): loads straight to registers, G = 128 bytes of
 *    adjacent systems when P allows; `threads` is unused.
 *
 * A row applies while n <= max_n; past the last row of a family, or when the
 * tile does not fit (512 threads, shared memory), the streaming kernel takes
 * over. */
#ifndef TRIDI_CUDA_TUNING_H
#define TRIDI_CUDA_TUNING_H

#include "tridi.h"

typedef enum tridi_cuda_family { TRIDI_CUDA_STAGED = 0, TRIDI_CUDA_DIRECT = 1 } tridi_cuda_family;

typedef struct tridi_cuda_tile {
  tridi_cuda_family family;
  tridi_dtype dtype;
  long long max_n; /* largest n the row covers (rows of a family sorted by max_n) */
  int m;           /* rows per thread (compiled tiles: 4, 8; 16 for f32) */
  int threads;     /* staged: target threads per block (<= 512) */
  int pipe;        /* staged: 1 = double-buffered persistent variant when it fits
                      (measured slower on the H200 so far: off everywhere) */
} tridi_cuda_tile;

static const tridi_cuda_tile tridi_cuda_tiles[] = {
    /* family, dtype, max_n, M, threads, pipe */
    {TRIDI_CUDA_STAGED, TRIDI_F32, 8192, 16, 128, 0},
    {TRIDI_CUDA_STAGED, TRIDI_F64, 4096, 8, 128, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F32, 512, 8, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F32, 8192, 16, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F64, 256, 4, 0, 0},
    {TRIDI_CUDA_DIRECT, TRIDI_F64, 4096, 8, 0, 0},
};
static const int tridi_cuda_ntiles = (int)(sizeof tridi_cuda_tiles / sizeof tridi_cuda_tiles[0]);

#endif /* TRIDI_CUDA_TUNING_H */
