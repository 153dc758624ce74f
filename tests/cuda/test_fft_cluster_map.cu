/* The cluster FFT kernel's exchanges (src/cuda/fft/stockham_reg.cuh,
 * cluster_exchange), simulated on the CPU over a whole pass: the threads
 * start in the top mapping's roles (the loads'); at each exchange the
 * stages' puts (the kernel's stage indices: point ((u >> LNS) << (LNS +
 * LRS)) + (u mod NS) + k NS of u = t + i R/P) go to cluster_put_place,
 * every place is inside its buffer and taken once, a local exchange (kind
 * 0) keeps every point in its writer's block, and after the roles change
 * (cluster_role_of) each thread's gets find point t + m R/P of its group;
 * after the last stage the roles are the top mapping's where the store
 * needs it (mode B, mode A with Ns < G).  Every R, points a thread, block
 * size and cluster a plan can take, both modes.  It also counts the
 * exchanges that cross blocks: at most two a pass, one where the store
 * takes any mapping; and in a crossing exchange each warp's stores of one
 * register meet each bank of a block's 128-byte rows at most twice as
 * often as 32 stores must (2 for c32, 4 for c64; cluster_xslot's swizzle
 * meets the least everywhere but c32 R = 2^12 over 8 blocks, mode A's last
 * exchange, twice it; without the swizzle up to 8 times it).  c32 with 16
 * points a thread, c64 with 8, as the tuning table plans them.  Compiled by nvcc, runs on the CPU:
 * no GPU needed (the kernel itself runs in the tuning builds' cuda_fft_cluster* tests). */
#include <cstdio>
#include <map>
#include <set>
#include <type_traits>
#include <vector>

#include "fft/stockham_reg.cuh"

using namespace tridi_fft;

namespace {

struct held {
  int gl, o;
};

template <int LOG_R, int LOG_P>
int check(int log_t, int cl, bool mode_a, bool top_out) {
  typedef typename std::conditional<LOG_P == 3, double2, float2>::type C; /* the table's */
  constexpr int W = 128 / (int)sizeof(C), MOST = (int)sizeof(C) / 4;      /* per row, least */
  constexpr int LOG_TR = LOG_R - LOG_P, TR = 1 << LOG_TR, P = 1 << LOG_P;
  const int log_g = log_t + cl + LOG_P - LOG_R;
  const cluster_geom q{log_g, log_t, cl, mode_a, top_out};
  const int B = 1 << cl, T = 1 << log_t, slots = P << log_t;
  const int abuf = slots + (slots >> (sizeof(C) == 8 ? 4 : 3)); /* the kernel's buffer A */
  const int G = 1 << log_g;
  int bad = 0, crossing = 0;
  auto fail = [&](const char *what, int blk, int tid, int x, int y) {
    if (bad++ < 5)
      printf("R=2^%d P=%d T=%d C=%d mode %c top_out %d: %s (block %d thread %d: %d %d)\n", LOG_R, P,
             T, B, mode_a ? 'A' : 'B', top_out, what, blk, tid, x, y);
  };
  std::vector<int> t((size_t)B * T), gl((size_t)B * T);
  std::vector<int> seen((size_t)G << LOG_R, 0);
  for (int blk = 0; blk < B; ++blk)
    for (int tid = 0; tid < T; ++tid) {
      const size_t h = (size_t)blk * T + tid;
      cluster_role_of<LOG_R, LOG_P>(blk, tid, q, false, t[h], gl[h]);
      if (t[h] < 0 || t[h] >= TR || gl[h] < 0 || gl[h] >= G) {
        fail("top role out of range", blk, tid, t[h], gl[h]);
        continue;
      }
      for (int m = 0; m < P; ++m) ++seen[((size_t)gl[h] << LOG_R) + t[h] + m * TR];
    }
  for (size_t i = 0; i < seen.size(); ++i)
    if (seen[i] != 1) fail("a point held other than once", -1, -1, (int)i, seen[i]);
  std::vector<held> mem[2];
  for (int lns = 0; bad == 0;) {
    const int lrs = LOG_R - lns < LOG_P ? LOG_R - lns : LOG_P;
    if (lns + lrs == LOG_R) break;
    const int lns2 = lns + lrs;
    const bool next_last = lns2 + (LOG_R - lns2 < LOG_P ? LOG_R - lns2 : LOG_P) == LOG_R;
    const int k = cluster_kind(lns == 0, next_last, q);
    const int nb = P >> lrs, ns = 1 << lns;
    crossing += k != 0;
    for (int b = 0; b < 2; ++b) mem[b].assign((size_t)B * abuf, held{-1, -1});
    for (int blk = 0; blk < B; ++blk)
      for (int tid = 0; tid < T; ++tid) {
        const size_t h = (size_t)blk * T + tid;
        for (int i = 0; i < nb; ++i) {
          const int u = t[h] + i * TR;
          const int o0 = ((u >> lns) << (lns + lrs)) + (u & (ns - 1));
          for (int kk = 0; kk < (1 << lrs); ++kk) {
            const int o = o0 + kk * ns;
            const cluster_slot d = cluster_put_place<C, LOG_R, LOG_P>(k, o, gl[h], q);
            const int lim = k == 2 ? slots : abuf;
            if (d.block < 0 || d.block >= B || d.slot < 0 || d.slot >= lim) {
              fail("put outside the buffer", blk, tid, d.block, d.slot);
              continue;
            }
            if (k == 0 && d.block != blk)
              fail("a local exchange leaves the block", blk, tid, o, d.block);
            held &c = mem[k == 2][(size_t)d.block * abuf + d.slot];
            if (c.o >= 0) fail("a place taken twice", blk, tid, d.block, d.slot);
            c = held{gl[h], o};
          }
        }
      }
    /* the banks, where a plan takes the cluster: blocks of 256 or 512
     * threads, a group's threads more than a block's (mode B) or fewer
     * than 2^min_groups_log2 = 4 groups a block (mode A) */
    const bool planned = log_t >= 8 && (mode_a ? log_g < 2 + cl : TR > T);
    if (k != 0 && planned) /* a warp's stores of register (i, kk) */
      for (int blk = 0; blk < B; ++blk)
        for (int w0 = 0; w0 < T; w0 += 32)
          for (int i = 0; i < nb; ++i)
            for (int kk = 0; kk < (1 << lrs); ++kk) {
              std::map<int, std::set<int>> rows;
              for (int lane = 0; lane < 32; ++lane) {
                const size_t h = (size_t)blk * T + w0 + lane;
                const int u = t[h] + i * TR;
                const int o = ((u >> lns) << (lns + lrs)) + (u & (ns - 1)) + kk * ns;
                const cluster_slot d = cluster_put_place<C, LOG_R, LOG_P>(k, o, gl[h], q);
                rows[d.block * W + d.slot % W].insert(d.slot);
              }
              for (const auto &r : rows)
                if ((int)r.second.size() > 2 * MOST)
                  fail("a warp's stores meet a bank too often", blk, w0, (int)r.second.size(), k);
            }
    for (int blk = 0; blk < B; ++blk)
      for (int tid = 0; tid < T; ++tid) {
        const size_t h = (size_t)blk * T + tid;
        if (k != 0) cluster_role_of<LOG_R, LOG_P>(blk, tid, q, cluster_next_low(k), t[h], gl[h]);
        for (int m = 0; m < P; ++m) {
          const int s = cluster_get_slot<C, LOG_R, LOG_P>(k, m, t[h], gl[h], tid, q);
          const held c = s >= 0 && s < abuf ? mem[k == 2][(size_t)blk * abuf + s] : held{-2, -2};
          if (c.gl != gl[h] || c.o != t[h] + m * TR)
            fail("a get finds another point", blk, tid, c.gl, c.o);
        }
      }
    lns = lns2;
  }
  if (top_out)
    for (int blk = 0; blk < B; ++blk)
      for (int tid = 0; tid < T; ++tid) {
        int tt, gg;
        cluster_role_of<LOG_R, LOG_P>(blk, tid, q, false, tt, gg);
        const size_t h = (size_t)blk * T + tid;
        if (tt != t[h] || gg != gl[h]) fail("the store's roles are not top's", blk, tid, t[h], tt);
      }
  if (crossing > (top_out ? 2 : 1)) fail("exchanges across blocks", -1, -1, crossing, 0);
  return bad;
}

/* the tiles a plan can take: 2..8 blocks of 2^7..2^9 threads; mode A with
 * at least one group and a block's threads holding whole groups' lanes,
 * mode B with R / P >= C */
template <int LOG_R, int LOG_P>
int run(int *cases) {
  int bad = 0;
  for (int log_t = 7; log_t <= 9; ++log_t)
    for (int cl = 1; cl <= 3; ++cl) {
      const int log_g = log_t + cl + LOG_P - LOG_R;
      if (log_g < 0) continue;
      if (log_g <= log_t) {
        bad += check<LOG_R, LOG_P>(log_t, cl, true, true) +
               check<LOG_R, LOG_P>(log_t, cl, true, false);
        *cases += 2;
      }
      if (LOG_R - LOG_P >= cl) {
        bad += check<LOG_R, LOG_P>(log_t, cl, false, true);
        ++*cases;
      }
    }
  return bad;
}

} /* namespace */

int main() {
  int cases = 0, bad = 0;
  bad += run<8, 4>(&cases) + run<11, 4>(&cases) + run<12, 4>(&cases) + run<13, 4>(&cases);
  bad += run<14, 4>(&cases) + run<15, 4>(&cases);
  bad += run<7, 3>(&cases) + run<11, 3>(&cases) + run<12, 3>(&cases) + run<13, 3>(&cases);
  bad += run<14, 3>(&cases);
  printf("cluster exchanges: %d tiles, %d errors\n", cases, bad);
  return bad ? 1 : 0;
}
