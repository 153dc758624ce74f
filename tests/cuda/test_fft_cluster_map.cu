/* The cluster FFT kernel's exchange (src/cuda/fft/stockham_reg.cuh,
 * cluster_slot_of): between two stages every point of a cluster's tile has
 * exactly one place in the cluster's shared memory, inside the block's
 * 2^(log_t + LOG_P) slots, and it is the place from which the thread that
 * holds the point in the next stage reads it (get(m): its own block, slot
 * (m << log_t) + its thread index).  The threads' mapping is the kernel's:
 * mode A ct = t G + gl, mode B ct = gl R/P + t, ct = block 2^log_t +
 * thread.  Every R, points a thread, groups a tile and block size a plan
 * can take, both modes.  Compiled by nvcc, runs on the CPU: no GPU needed
 * (the kernel itself runs in the tuning builds' cuda_fft_cluster* tests). */
#include <cstdio>
#include <vector>

#include "fft/stockham_reg.cuh"

using tridi_fft::cluster_slot;
using tridi_fft::cluster_slot_of;

template <int LOG_R, int LOG_P>
static int check(int log_g, int log_t, bool mode_a) {
  const int G = 1 << log_g, TR = 1 << (LOG_R - LOG_P), P = 1 << LOG_P, T = 1 << log_t;
  const int threads = G * TR, blocks = threads / T, bslots = P << log_t;
  std::vector<int> seen((size_t)blocks * bslots, 0);
  int bad = 0;
  for (int gl = 0; gl < G; ++gl)
    for (int o = 0; o < (1 << LOG_R); ++o) {
      const cluster_slot d = cluster_slot_of<LOG_R, LOG_P>(o, gl, log_g, log_t, mode_a);
      if (d.block < 0 || d.block >= blocks || d.slot < 0 || d.slot >= bslots) {
        if (bad++ < 5)
          printf("R=2^%d P=%d G=%d T=%d mode %c: point %d of group %d outside (%d, %d)\n", LOG_R, P,
                 G, T, mode_a ? 'A' : 'B', o, gl, d.block, d.slot);
        continue;
      }
      ++seen[(size_t)d.block * bslots + d.slot];
    }
  for (size_t i = 0; i < seen.size(); ++i)
    if (seen[i] != 1 && bad++ < 5)
      printf("R=2^%d P=%d G=%d T=%d mode %c: block %zu slot %zu holds %d points\n", LOG_R, P, G, T,
             mode_a ? 'A' : 'B', i / bslots, i % bslots, seen[i]);
  for (int ct = 0; ct < threads; ++ct) {
    const int gl = mode_a ? ct & (G - 1) : ct / TR, t = mode_a ? ct >> log_g : ct & (TR - 1);
    for (int m = 0; m < P; ++m) {
      const cluster_slot d = cluster_slot_of<LOG_R, LOG_P>(t + m * TR, gl, log_g, log_t, mode_a);
      if ((d.block != ct >> log_t || d.slot != (m << log_t) + (ct & (T - 1))) && bad++ < 5)
        printf(
            "R=2^%d P=%d G=%d T=%d mode %c: thread %d reads point %d of group %d at (%d, %d),"
            " it lies at (%d, %d)\n",
            LOG_R, P, G, T, mode_a ? 'A' : 'B', ct, t + m * TR, gl, ct >> log_t,
            (m << log_t) + (ct & (T - 1)), d.block, d.slot);
    }
  }
  return bad;
}

/* every tile of 2..8 blocks of 2^7..2^9 threads holding whole groups */
template <int LOG_R, int LOG_P>
static int run(int *cases) {
  int bad = 0;
  for (int log_t = 7; log_t <= 9; ++log_t)
    for (int cl = 1; cl <= 3; ++cl) {
      const int log_g = log_t + cl + LOG_P - LOG_R; /* the tile's groups */
      if (log_g < 0) continue;
      for (int a = 0; a < 2; ++a) {
        bad += check<LOG_R, LOG_P>(log_g, log_t, a == 1);
        ++*cases;
      }
    }
  return bad;
}

int main() {
  int cases = 0, bad = 0;
  bad += run<4, 4>(&cases) + run<5, 4>(&cases) + run<8, 4>(&cases) + run<11, 4>(&cases);
  bad += run<12, 4>(&cases) + run<13, 4>(&cases) + run<14, 4>(&cases) + run<15, 4>(&cases);
  bad += run<3, 3>(&cases) + run<7, 3>(&cases) + run<12, 3>(&cases) + run<13, 3>(&cases);
  bad += run<14, 3>(&cases);
  printf("cluster exchange: %d tiles, %d errors\n", cases, bad);
  return bad ? 1 : 0;
}
