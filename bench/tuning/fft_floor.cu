/* fft_floor: the data-movement floor of one FFT pass on the GPU with its
 * exchanges through one block's shared memory or through a thread-block
 * cluster's distributed shared memory (DSMEM, sm_90).
 *
 * Each block takes a tile of P * T points (T threads, P points a thread in
 * registers, as the register FFT kernel src/cuda/fft/stockham_reg.cuh holds
 * them), reads it from global memory in coalesced runs, passes it through a
 * sequence of exchanges and writes it back in coalesced runs, with no
 * arithmetic.  An exchange is a barrier (the previous exchange's reads are
 * done), P stores a thread, a barrier and P loads a thread from its own
 * slots; the pattern names the kind of each exchange:
 *   b  one block's shared memory: st.shared, __syncthreads (the register
 *      kernel's block exchange);
 *   c  the cluster's: an all-to-all across the cluster's C blocks, point m
 *      of each thread stored into block m mod C (a mapa a point, a
 *      st.shared::cluster, the cluster barrier), so (C - 1) / C of the
 *      points cross blocks (the cluster kernel's exchange);
 *   l  the cluster path to the block's own memory (mapa to its own rank,
 *      st.shared::cluster, the cluster barrier): c without the network.
 * "-" is the pattern without exchanges (load and store only).  The
 * register kernel's one-pass c32 plan of 2^12 points runs as "bb" (stages
 * of radix 16, 16, 16), a 2^13 plan as "bbb" (16, 16, 16, 2); a cluster
 * plan puts c in place of each b.
 *
 * --occ K pads each block's shared memory so that at most K blocks share
 * an SM, as the register kernel's register cap allows (c32: 3 blocks of
 * 256 threads, c64: 4); 0 leaves occupancy to the hardware.
 *
 * It prints the effective bandwidth (the tile's bytes read and written /
 * time, the FFT bench's model of one pass) beside the same run's copy
 * bandwidth (the FFT bench's copy kernel, its fastest run), and "ok" when
 * the output is a permutation of the input (a checksum).  No pass with that
 * data movement can exceed it.
 *
 * Build: CMake target tridi_fft_floor, with -DTRIDI_CUDA_TUNING=ON (or
 * nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Itools -Isrc/cuda bench/tuning/fft_floor.cu):
 *   tridi_fft_floor [--dtype c32,c64] [--cluster 0,1,2,3] [--pattern -,b,bb,c,cc]
 *                   [--threads 256] [--occ 0,3] [--total-log2 24] [--reps 20]
 * CSV on stdout. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

extern "C" {
#include "bench_util.h"
}
#include "bench_cuda_time.cuh"
#include "common/cluster.cuh"
#include "floor_cli.h"

namespace {

enum { kBlock = 1, kCluster = 2, kLocal = 3 };

/* prog: 2 bits an exchange (kBlock, kCluster, kLocal), nx exchanges */
template <class C, int LOG_P, bool CLUSTER>
__global__ void __launch_bounds__(512)
    fft_floor(const C *__restrict__ src, C *__restrict__ dst, unsigned prog, int nx) {
  constexpr int P = 1 << LOG_P;
  extern __shared__ __align__(16) unsigned char fft_floor_smem[];
  C *sm = reinterpret_cast<C *>(fft_floor_smem);
  const int tid = threadIdx.x, log_t = 31 - __clz((int)blockDim.x);
  unsigned rank = 0;
  int cl = 0;
  if constexpr (CLUSTER) {
    rank = tridi_cuda::cluster_rank();
    cl = 31 - __clz((int)tridi_cuda::cluster_blocks());
  }
  const int64_t base = (int64_t)blockIdx.x << (log_t + LOG_P);
  C v[P];
#pragma unroll
  for (int m = 0; m < P; ++m) v[m] = src[base + (m << log_t) + tid];
  for (int x = 0; x < nx; ++x) {
    const unsigned k = (prog >> (2 * x)) & 3u;
    if (!CLUSTER || k == kBlock) {
      if (x > 0) __syncthreads();
#pragma unroll
      for (int m = 0; m < P; ++m) sm[(((m + 1) & (P - 1)) << log_t) + tid] = v[m];
      __syncthreads();
    } else {
      if (x > 0) tridi_cuda::cluster_sync();
#pragma unroll
      for (int m = 0; m < P; ++m) {
        const unsigned d = k == kCluster ? (unsigned)m & ((1u << cl) - 1) : rank;
        const int slot = k == kCluster ? (((m >> cl) | ((int)rank << (LOG_P - cl))) << log_t) + tid
                                       : (((m + 1) & (P - 1)) << log_t) + tid;
        tridi_cuda::dsmem_store(tridi_cuda::dsmem_addr(&sm[slot], d), v[m]);
      }
      tridi_cuda::cluster_sync();
    }
#pragma unroll
    for (int m = 0; m < P; ++m) v[m] = sm[(m << log_t) + tid];
  }
#pragma unroll
  for (int m = 0; m < P; ++m) dst[base + (m << log_t) + tid] = v[m];
}

__global__ void floor_copy(const float4 *__restrict__ s, float4 *__restrict__ d, size_t n4) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x)
    d[i] = s[i];
}

int cuda_ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return 1;
  fprintf(stderr, "tridi_fft_floor: %s: %s\n", what, cudaGetErrorString(e));
  (void)cudaGetLastError();
  return 0;
}

/* "bbc" -> prog, nx; false on a character other than b, c, l, or more than 8 */
bool parse_pattern(const std::string &p, unsigned *prog, int *nx, bool *cluster) {
  *prog = 0, *nx = 0, *cluster = false;
  if (p == "-") return true;
  if (p.size() > 8) return false;
  for (char ch : p) {
    const unsigned k = ch == 'b' ? kBlock : ch == 'c' ? kCluster : ch == 'l' ? kLocal : 0;
    if (!k) return false;
    if (k != kBlock) *cluster = true;
    *prog |= k << (2 * *nx);
    ++*nx;
  }
  return true;
}

/* one configuration: the median time in ms, or < 0 on an error */
template <class C, int LOG_P>
double run_case(const C *din, C *dout, int64_t total, int threads, int cl, size_t smem,
                unsigned prog, int nx, int reps) {
  const int64_t tile = (int64_t)threads << LOG_P;
  const unsigned grid = (unsigned)(total / tile);
  if (cl == 0) {
    auto k = fft_floor<C, LOG_P, false>;
    if (!cuda_ok(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
                 "cudaFuncSetAttribute"))
      return -1;
    const double ms = bench_cuda_time_ms([&] { k<<<grid, threads, smem>>>(din, dout, prog, nx); },
                                         reps, 2, 0, nullptr);
    return cuda_ok(cudaGetLastError(), "launch") ? ms : -1;
  }
  auto k = fft_floor<C, LOG_P, true>;
  if (!cuda_ok(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
               "cudaFuncSetAttribute"))
    return -1;
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg =
      tridi_cuda::cluster_config(&attr, 1 << cl, grid, (unsigned)threads, smem, 0);
  cudaError_t e = cudaSuccess;
  const double ms = bench_cuda_time_ms(
      [&] {
        const cudaError_t r = cudaLaunchKernelEx(&cfg, k, din, dout, prog, nx);
        if (r != cudaSuccess) e = r;
      },
      reps, 2, 0, nullptr);
  return cuda_ok(e, "cudaLaunchKernelEx") && cuda_ok(cudaGetLastError(), "launch") ? ms : -1;
}

template <class C, int LOG_P>
int run_dtype(const char *dname, int64_t total, int threads, const std::vector<long long> &cls,
              const std::vector<std::string> &pats, const std::vector<long long> &occs, int reps,
              double copy_gbps) {
  typedef decltype(C().x) R;
  const size_t bytes = sizeof(C) * (size_t)total;
  std::vector<C> h((size_t)total);
  double sum_in = 0;
  for (int64_t i = 0; i < total; ++i) {
    h[(size_t)i].x = (R)1, h[(size_t)i].y = (R)(i & 1023);
    sum_in += (double)(i & 1023);
  }
  C *din = nullptr, *dout = nullptr;
  if (!cuda_ok(cudaMalloc(&din, bytes), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&dout, bytes), "cudaMalloc") ||
      !cuda_ok(cudaMemcpy(din, h.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy"))
    return 1;
  int dev = 0, smem_sm = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
  int rc = 0;
  for (long long cl : cls)
    for (long long occ : occs)
      for (const std::string &p : pats) {
        unsigned prog;
        int nx;
        bool needs_cluster;
        if (!parse_pattern(p, &prog, &nx, &needs_cluster) || cl < 0 || cl > 3 ||
            (1 << cl) > (1 << LOG_P) || (needs_cluster && cl == 0)) {
          fprintf(stderr, "tridi_fft_floor: skipped pattern %s with cluster %lld\n", p.c_str(), cl);
          continue;
        }
        size_t smem = sizeof(C) * ((size_t)threads << LOG_P);
        if (occ > 0) { /* 1 KiB a block is the runtime's own */
          const size_t pad = (size_t)smem_sm / (size_t)occ - 1024 + 16;
          if (pad > smem) smem = pad;
        }
        cudaMemset(dout, 0, bytes);
        const double ms =
            run_case<C, LOG_P>(din, dout, total, threads, (int)cl, smem, prog, nx, reps);
        if (ms < 0) {
          rc = 1;
          continue;
        }
        cudaMemcpy(h.data(), dout, bytes, cudaMemcpyDeviceToHost);
        double sum_out = 0, ones = 0;
        for (int64_t i = 0; i < total; ++i)
          sum_out += (double)h[(size_t)i].y, ones += (double)h[(size_t)i].x;
        const bool ok = sum_out == sum_in && ones == (double)total;
        if (!ok) rc = 1;
        const double gbps = 2.0 * (double)bytes / (ms * 1e6);
        printf("%s,%lld,%d,%lld,%s,%lld,%.4f,%.1f,%.1f,%.1f,%s\n", dname, cl, threads, occ,
               p.c_str(), (long long)total, ms, gbps, copy_gbps, 100.0 * gbps / copy_gbps,
               ok ? "ok" : "FAILED");
        fflush(stdout);
      }
  cudaFree(din);
  cudaFree(dout);
  return rc;
}

double copy_gbps(size_t bytes, int reps) {
  void *a = nullptr, *b = nullptr;
  if (!cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&b, bytes), "cudaMalloc"))
    return -1;
  cudaMemset(a, 1, bytes);
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  double best = 0;
  bench_cuda_time_ms(
      [&] { floor_copy<<<sms * 8, 256>>>((const float4 *)a, (float4 *)b, bytes / 16); }, reps, 2, 0,
      &best);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * (double)bytes / (best * 1e6);
}

} /* namespace */

int main(int argc, char **argv) {
  const char *dtypes = "c32,c64", *cl_s = "0,1,2,3", *pat_s = "-,b,bb,bbb,l,ll,c,cc,ccc,bc,bbc";
  const char *occ_s = "0";
  int threads = 256, total_log2 = 24, reps = 20;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!v) {
      fprintf(stderr, "tridi_fft_floor: %s needs a value\n", a);
      return 2;
    }
    if (!strcmp(a, "--dtype"))
      dtypes = v;
    else if (!strcmp(a, "--cluster"))
      cl_s = v;
    else if (!strcmp(a, "--pattern"))
      pat_s = v;
    else if (!strcmp(a, "--occ"))
      occ_s = v;
    else if (!strcmp(a, "--threads"))
      threads = atoi(v);
    else if (!strcmp(a, "--total-log2"))
      total_log2 = atoi(v);
    else if (!strcmp(a, "--reps"))
      reps = atoi(v);
    else {
      fprintf(stderr, "tridi_fft_floor: unknown option %s\n", a);
      return 2;
    }
    ++i;
  }
  if (threads < 32 || threads > 512 || (threads & (threads - 1)) || total_log2 < 16 ||
      total_log2 > 30 || reps < 1) {
    fprintf(stderr, "tridi_fft_floor: --threads 32..512 (a power of 2), --total-log2 16..30\n");
    return 2;
  }
  const int64_t total = (int64_t)1 << total_log2;
  const std::vector<long long> cls = floor_parse_list(cl_s), occs = floor_parse_list(occ_s);
  const std::vector<std::string> pats = floor_split_list(pat_s);
  int rc = 0;
  printf("dtype,cluster_log2,threads,occ,pattern,total,ms,gbps,copy_gbps,pct_copy,check\n");
  for (const std::string &d : floor_split_list(dtypes)) {
    const size_t esz = d == "c64" ? 16 : 8;
    const double cg = copy_gbps(esz * (size_t)total, reps);
    if (cg <= 0) return 1;
    if (d == "c32")
      rc |= run_dtype<float2, 4>("c32", total, threads, cls, pats, occs, reps, cg);
    else if (d == "c64")
      rc |= run_dtype<double2, 3>("c64", total, threads, cls, pats, occs, reps, cg);
    else
      fprintf(stderr, "tridi_fft_floor: unknown dtype %s\n", d.c_str()), rc = 2;
  }
  return rc;
}
