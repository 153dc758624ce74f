/* Tuning table of the CUDA Thomas-PCR backend: which tile (rows per thread M,
 * threads per block) the planner uses, by element type and system length.
 * The figures behind each row are in docs/cuda.md ("Tuning table").
 *
 * The staged kernel keeps a whole system (or several) on chip: the four
 * inputs of a tile in shared memory (read once from device memory, coalesced),
 * the forward-sweep intermediates in registers (3 M values per thread).  A
 * row applies while n <= max_n; past the last row (or when the tile does not
 * fit the device's shared memory) the streaming kernel takes over. */
#ifndef TRIDI_CUDA_TUNING_H
#define TRIDI_CUDA_TUNING_H

#include "tridi.h"

typedef struct tridi_cuda_tile {
  tridi_dtype dtype;
  long long max_n;  /* largest n the row covers (rows are sorted by max_n) */
  int m;            /* rows per thread (compile-time tile: 4, 8; 16 for f32) */
  int threads;      /* target threads per block (systems per block = threads / P),
                       at most 512 */
} tridi_cuda_tile;

static const tridi_cuda_tile tridi_cuda_tiles[] = {
    /* dtype, max_n, M, threads */
    {TRIDI_F32, 64, 4, 256},
    {TRIDI_F32, 2048, 8, 256},
    {TRIDI_F32, 8192, 16, 512},
    {TRIDI_F64, 64, 4, 256},
    {TRIDI_F64, 1024, 8, 256},
    {TRIDI_F64, 4096, 8, 512},
};
static const int tridi_cuda_ntiles = (int)(sizeof tridi_cuda_tiles / sizeof tridi_cuda_tiles[0]);

#endif /* TRIDI_CUDA_TUNING_H */
