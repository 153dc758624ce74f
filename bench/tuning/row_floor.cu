/* row_floor: the memory floor of one access shape on the GPU: interleaved
 * batches (element i of system s at i * B + s, rows of B systems) read by
 * threads that each walk M consecutive rows of one system, with G adjacent
 * systems across a warp's lanes, as the direct Thomas-PCR kernel reads them
 * (src/cuda/scalar/direct.cu: G systems a block, P = ceil(n / M) threads a
 * system).  A warp's load then touches 32 / G rows, G * sizeof(T) bytes of
 * each: one 32-byte sector of each of 8 lines for G = 8 f32, a whole
 * 128-byte line of each of one row for G = 32 f32.
 *
 * For each G it times one pass that reads a, b, c, d at every element and
 * writes x = a + b + c + d (nothing else: no solve, no shared memory, 256
 * threads a block whatever G is, so only the request shape changes) and
 * prints its effective bandwidth in the bench's 5-word model beside the
 * same run's device-to-device copy.  No kernel with that access shape can
 * exceed it on that device.
 *
 * --shape tiles: the access shape of the tiles of whole systems
 * (src/cuda/scalar/tiles.cu, the variable kind's PACKED kernel) on a
 * contiguous batch: persistent blocks of 256 threads, each copying a tile of
 * 256 M rows of a, b, c, d into shared memory in 16-byte cp.async pieces,
 * waiting for it, then writing that tile's x = a + b + c + d in 16-byte
 * stores, a barrier, the next tile (M = 16 f32 / 8 f64: the kernel's 4096 /
 * 2048-row tiles and its shared memory, so its blocks an SM); beside it the
 * plain stream over the same arrays (--shape stream).
 *
 * --shape padded, padded_elem: the bench's padded layout (systems of n rows
 * at a row stride ld = n + pad, the smallest pad >= 3 that leaves rows not
 * 64-byte aligned), persistent blocks of 256 threads taking tiles of whole
 * systems (a multiple of 16 bytes, at most the tiles kernel's rows): padded
 * copies each tile's whole span, padding included, in 16-byte cp.async
 * pieces (what tiles spanning the padding would read); padded_elem copies
 * only the real elements, one element-size cp.async each (the staged
 * kernel's copies where rows are not 16-byte aligned).  Both then store x
 * of the real rows only, element by element.
 *
 * Build: CMake target tridi_row_floor, with -DTRIDI_CUDA_TUNING=ON (or
 * nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Itools bench/tuning/row_floor.cu):
 *   tridi_row_floor [--shape rows,tiles,stream,padded,padded_elem] [--n 1000]
 *                   [--dtype f32,f64]
 *                   [--gbytes 32,64,128] [--m 16] [--size-mb 512] [--reps 10]
 * CSV on stdout (rows: g and row_bytes as above; tiles and stream: 0). */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

extern "C" {
#include "bench_util.h"
}
#include "bench_cuda_time.cuh"
#include "floor_cli.h"

namespace {

constexpr int kThreads = 256;

/* block (gx, gy): systems gx * G .. + G - 1, row chunks gy * (256 / G) ..;
 * thread t: system g = t % G, chunk p = t / G, rows p * M .. p * M + M - 1,
 * every load of the chunk issued before the first use (the direct kernel's
 * register tile) */
template <typename T, int M>
__global__ void __launch_bounds__(kThreads)
    row_floor(const T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ c,
              const T *__restrict__ d, T *__restrict__ x, int64_t n, int64_t B, int G) {
  const int g = threadIdx.x % G;
  const int64_t p = (int64_t)blockIdx.y * (kThreads / G) + threadIdx.x / G;
  const int64_t s = (int64_t)blockIdx.x * G + g;
  const int64_t r0 = p * M;
  if (s >= B || r0 >= n) return;
  T v[M];
#pragma unroll
  for (int k = 0; k < M; ++k) {
    const int64_t i = (r0 + k) * B + s;
    v[k] = r0 + k < n ? a[i] + b[i] + c[i] + d[i] : T(0);
  }
#pragma unroll
  for (int k = 0; k < M; ++k)
    if (r0 + k < n) x[(r0 + k) * B + s] = v[k];
}

/* asynchronous copies into shared memory (cp.async, sm_80 and later; plain
 * copies before, so that a tuning build for every architecture compiles) */
template <int BYTES>
__device__ __forceinline__ void copy_async(void *dst, const void *src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  if (BYTES == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(BYTES));
#else
  if (BYTES == 16) *(float4 *)dst = *(const float4 *)src;
  else if (BYTES == 8) *(double *)dst = *(const double *)src;
  else *(float *)dst = *(const float *)src;
#endif
}

__device__ __forceinline__ void copy_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
#endif
}

/* tiles of R = 256 M rows through shared memory (the tiles kernel's phases
 * without its solve); total a multiple of 16 / sizeof(T) */
template <typename T, int M>
__global__ void __launch_bounds__(kThreads)
    tile_floor(const T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ c,
               const T *__restrict__ d, T *__restrict__ x, int64_t total) {
  constexpr int R = kThreads * M, V = 16 / (int)sizeof(T);
  extern __shared__ __align__(16) unsigned char smem[];
  T *sh = (T *)smem; /* 4 R */
  const T *src[4] = {a, b, c, d};
  const int64_t ntiles = (total + R - 1) / R;
  for (int64_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const int64_t r0 = t * R;
    const int rows = (int)(total - r0 < R ? total - r0 : R);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      for (int v = threadIdx.x; v < rows / V; v += kThreads)
        copy_async<16>(sh + k * R + v * V, src[k] + r0 + (int64_t)v * V);
    copy_wait();
    __syncthreads();
    for (int v = threadIdx.x; v < rows / V; v += kThreads) {
      T o[V];
#pragma unroll
      for (int e = 0; e < V; ++e) {
        const int i = v * V + e;
        o[e] = sh[i] + sh[R + i] + sh[2 * R + i] + sh[3 * R + i];
      }
      *(float4 *)(x + r0 + (int64_t)v * V) = *(const float4 *)o;
    }
    __syncthreads();
  }
}

template <typename T, int M, bool SPAN>
__global__ void __launch_bounds__(kThreads)
    padded_floor(const T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ c,
                 const T *__restrict__ d, T *__restrict__ x, int64_t nsys, int n, int ld,
                 int spt) {
  constexpr int R = kThreads * M, V = 16 / (int)sizeof(T);
  extern __shared__ __align__(16) unsigned char smem[];
  T *sh = (T *)smem; /* 4 R */
  const T *src[4] = {a, b, c, d};
  const int64_t ntiles = (nsys + spt - 1) / spt;
  for (int64_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const int64_t e0 = t * spt * (int64_t)ld;
    const int span = (int)(nsys - t * spt < spt ? nsys - t * spt : spt) * ld;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      if (SPAN) {
        for (int v = threadIdx.x; v < (span + V - 1) / V; v += kThreads)
          copy_async<16>(sh + k * R + v * V, src[k] + e0 + (int64_t)v * V);
      } else {
        for (int e = threadIdx.x; e < span; e += kThreads)
          if (e % ld < n) copy_async<(int)sizeof(T)>(sh + k * R + e, src[k] + e0 + e);
      }
    }
    copy_wait();
    __syncthreads();
    for (int e = threadIdx.x; e < span; e += kThreads)
      if (e % ld < n) x[e0 + e] = sh[e] + sh[R + e] + sh[2 * R + e] + sh[3 * R + e];
    __syncthreads();
  }
}

template <typename T>
__global__ void stream_floor(const T *__restrict__ a, const T *__restrict__ b,
                             const T *__restrict__ c, const T *__restrict__ d,
                             T *__restrict__ x, int64_t total) {
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < total;
       k += (int64_t)gridDim.x * blockDim.x)
    x[k] = a[k] + b[k] + c[k] + d[k];
}

int fail(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return 0;
  fprintf(stderr, "tridi_row_floor: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

/* fn's shared memory allowed and its blocks an SM (0 on failure) */
template <typename F>
int smem_blocks(F fn, size_t smem) {
  int per_sm = 0;
  if (fail(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
           "smem") ||
      fail(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, kThreads, smem),
           "occupancy"))
    return 0;
  return per_sm;
}

template <class F>
double time_ms(F f, int reps, cudaStream_t s) {
  return bench_cuda_time_ms(f, reps, 1, s, nullptr);
}

template <typename T, int M>
void launch(const T *const *op, T *x, int64_t n, int64_t B, int G, cudaStream_t s) {
  const int64_t P = (n + M - 1) / M;
  const int64_t per = kThreads / G;
  const dim3 grid((unsigned)((B + G - 1) / G), (unsigned)((P + per - 1) / per));
  row_floor<T, M><<<grid, kThreads, 0, s>>>(op[0], op[1], op[2], op[3], x, n, B, G);
}

template <typename T>
int run(int64_t n, int M, const std::vector<long long> &gbytes, double size_mb, int reps,
        cudaStream_t s, const char *dev) {
  const size_t es = sizeof(T);
  /* B a multiple of 32: every row a whole number of 128-byte lines */
  int64_t B = (int64_t)(size_mb * 1048576.0 / (5.0 * (double)n * (double)es));
  B = std::max<int64_t>(32, B / 32 * 32);
  const size_t bytes = (size_t)(n * B) * es;
  T *op[5] = {};
  int rc = 0;
  for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMalloc(&op[k], bytes), "cudaMalloc");
  for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMemsetAsync(op[k], 0, bytes, s), "memset");
  if (!rc) {
    const double copy_ms = time_ms(
        [&] { cudaMemcpyAsync(op[4], op[0], bytes, cudaMemcpyDeviceToDevice, s); }, reps, s);
    const double copy_gbps = 2.0 * (double)bytes / copy_ms * 1e-6;
    for (long long gb : gbytes) {
      const int G = (int)(gb / (long long)es);
      if (G < 1 || G > 32 || (G & (G - 1))) continue;
      const double ms = time_ms(
          [&] {
            if (M == 8) launch<T, 8>(op, op[4], n, B, G, s);
            else if (M == 4) launch<T, 4>(op, op[4], n, B, G, s);
            else launch<T, 16>(op, op[4], n, B, G, s);
          },
          reps, s);
      rc = fail(cudaGetLastError(), "launch") || fail(cudaStreamSynchronize(s), "kernel");
      if (rc) break;
      const double gbps = 5.0 * (double)bytes / ms * 1e-6;
      printf("%s,rows,%s,%lld,%lld,%d,%d,%lld,%.1f,%.4f,%.1f,%.1f\n", dev, es == 4 ? "f32" : "f64",
             (long long)n, (long long)B, M, G, gb, copy_gbps, ms, gbps, 100.0 * gbps / copy_gbps);
      fflush(stdout);
    }
  }
  for (int k = 0; k < 5; ++k) cudaFree(op[k]);
  return rc;
}

/* --shape padded / padded_elem: the bench's padded batch of systems of n rows */
template <typename T>
int run_padded(bool span, int64_t n, double size_mb, int reps, cudaStream_t s, const char *dev,
               int sms) {
  const size_t es = sizeof(T);
  constexpr int M = sizeof(T) == 4 ? 16 : 8, R = kThreads * M;
  int64_t pad = 3;
  while (((n + pad) * (int64_t)es) % 64 == 0) ++pad;
  const int64_t ld = n + pad;
  int64_t spt = R / ld;
  while (spt > 0 && (spt * ld * (int64_t)es) % 16 != 0) --spt;
  if (spt < 1) return 0; /* no tile of whole systems fits */
  const int64_t B = (int64_t)(size_mb * 1048576.0 / (5.0 * (double)ld * (double)es));
  const size_t bytes = (size_t)(B * ld) * es + 16; /* the last span's piece */
  T *op[5] = {};
  int rc = 0;
  for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMalloc(&op[k], bytes), "cudaMalloc");
  for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMemsetAsync(op[k], 0, bytes, s), "memset");
  const size_t smem = (size_t)4 * R * es;
  auto fn = span ? padded_floor<T, M, true> : padded_floor<T, M, false>;
  const int per_sm = rc ? 0 : smem_blocks(fn, smem);
  if (!rc && per_sm < 1) rc = 1;
  if (!rc) {
    const double copy_ms = time_ms(
        [&] { cudaMemcpyAsync(op[4], op[0], bytes, cudaMemcpyDeviceToDevice, s); }, reps, s);
    const double copy_gbps = 2.0 * (double)bytes / copy_ms * 1e-6;
    const double ms = time_ms(
        [&] {
          fn<<<per_sm * sms, kThreads, smem, s>>>(op[0], op[1], op[2], op[3], op[4], B, (int)n,
                                                  (int)ld, (int)spt);
        },
        reps, s);
    rc = fail(cudaGetLastError(), "launch") || fail(cudaStreamSynchronize(s), "kernel");
    if (!rc) {
      const double gbps = 5.0 * (double)(B * n) * (double)es / ms * 1e-6; /* real unknowns */
      printf("%s,%s,%s,%lld,%lld,%d,%lld,0,%.1f,%.4f,%.1f,%.1f\n", dev,
             span ? "padded" : "padded_elem", es == 4 ? "f32" : "f64", (long long)n, (long long)B,
             M, (long long)spt, copy_gbps, ms, gbps, 100.0 * gbps / copy_gbps);
      fflush(stdout);
    }
  }
  for (int k = 0; k < 5; ++k) cudaFree(op[k]);
  return rc;
}

/* --shape tiles / stream: a contiguous batch of the same bytes */
template <typename T>
int run_flat(bool tiles, double size_mb, int reps, cudaStream_t s, const char *dev, int sms) {
  const size_t es = sizeof(T);
  constexpr int M = sizeof(T) == 4 ? 16 : 8;
  const int64_t total = (int64_t)(size_mb * 1048576.0 / (5.0 * (double)es)) / 4096 * 4096;
  const size_t bytes = (size_t)total * es;
  T *op[5] = {};
  int rc = 0;
  for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMalloc(&op[k], bytes), "cudaMalloc");
  for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMemsetAsync(op[k], 0, bytes, s), "memset");
  const size_t smem = (size_t)4 * kThreads * M * es;
  const int per_sm = rc || !tiles ? 0 : smem_blocks(tile_floor<T, M>, smem);
  if (!rc && tiles && per_sm < 1) rc = 1;
  if (!rc) {
    const double copy_ms = time_ms(
        [&] { cudaMemcpyAsync(op[4], op[0], bytes, cudaMemcpyDeviceToDevice, s); }, reps, s);
    const double copy_gbps = 2.0 * (double)bytes / copy_ms * 1e-6;
    const double ms = time_ms(
        [&] {
          if (tiles)
            tile_floor<T, M><<<per_sm * sms, kThreads, smem, s>>>(op[0], op[1], op[2], op[3],
                                                                  op[4], total);
          else
            stream_floor<T><<<sms * 8, 512, 0, s>>>(op[0], op[1], op[2], op[3], op[4], total);
        },
        reps, s);
    rc = fail(cudaGetLastError(), "launch") || fail(cudaStreamSynchronize(s), "kernel");
    if (!rc) {
      const double gbps = 5.0 * (double)bytes / ms * 1e-6;
      printf("%s,%s,%s,%lld,%lld,%d,0,0,%.1f,%.4f,%.1f,%.1f\n", dev, tiles ? "tiles" : "stream",
             es == 4 ? "f32" : "f64", (long long)total, 1ll, tiles ? M : 0, copy_gbps, ms, gbps,
             100.0 * gbps / copy_gbps);
      fflush(stdout);
    }
  }
  for (int k = 0; k < 5; ++k) cudaFree(op[k]);
  return rc;
}

/* whether the comma list s names t */
bool has_token(const char *s, const char *t) {
  const size_t l = strlen(t);
  for (const char *p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : nullptr)
    if (!strncmp(p, t, l) && (p[l] == ',' || p[l] == '\0')) return true;
  return false;
}

} /* namespace */

int main(int argc, char **argv) {
  std::vector<long long> ns = {1000}, gbytes = {32, 64, 128};
  bool f32 = true, f64 = true, rows = true, tiles = false, stream = false, padded = false,
       padded_elem = false;
  int M = 16, reps = 10;
  double size_mb = 512;
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k], *val = k + 1 < argc ? argv[k + 1] : nullptr;
    if (val == nullptr) {
      fprintf(stderr,
              "usage: tridi_row_floor [--shape rows,tiles,stream,padded,padded_elem] [--n N,...]"
              " [--dtype f32,f64]"
              " [--gbytes 32,64,128] [--m 4|8|16] [--size-mb MIB] [--reps N]\n");
      return 2;
    }
    if (!strcmp(a, "--shape"))
      rows = has_token(val, "rows"), tiles = has_token(val, "tiles"),
      stream = has_token(val, "stream"), padded = has_token(val, "padded"),
      padded_elem = has_token(val, "padded_elem");
    else if (!strcmp(a, "--n")) ns = floor_parse_list(val);
    else if (!strcmp(a, "--gbytes")) gbytes = floor_parse_list(val);
    else if (!strcmp(a, "--dtype"))
      f32 = strstr(val, "f32") != nullptr, f64 = strstr(val, "f64") != nullptr;
    else if (!strcmp(a, "--m")) M = atoi(val);
    else if (!strcmp(a, "--size-mb")) size_mb = atof(val);
    else if (!strcmp(a, "--reps")) reps = std::max(1, atoi(val));
    else {
      fprintf(stderr, "tridi_row_floor: unknown option %s\n", a);
      return 2;
    }
    ++k;
  }
  if (M != 4 && M != 8 && M != 16) {
    fprintf(stderr, "tridi_row_floor: --m must be 4, 8 or 16\n");
    return 2;
  }
  cudaStream_t s;
  if (fail(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream")) return 1;
  cudaDeviceProp prop;
  if (fail(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  printf("device,shape,dtype,n,batch,m,g,row_bytes,copy_gbps,floor_ms,floor_gbps,pct_copy\n");
  int rc = 0;
  for (int k = 0; k < 2 && !rc; ++k) {
    const bool t = k == 0;
    if (!(t ? tiles : stream)) continue;
    if (f32 && !rc) rc = run_flat<float>(t, size_mb, reps, s, prop.name, prop.multiProcessorCount);
    if (f64 && !rc) rc = run_flat<double>(t, size_mb, reps, s, prop.name, prop.multiProcessorCount);
  }
  for (int k = 0; k < 2 && !rc; ++k) {
    const bool span = k == 0;
    if (!(span ? padded : padded_elem)) continue;
    for (long long n : ns) {
      const int sms = prop.multiProcessorCount;
      if (f32 && !rc) rc = run_padded<float>(span, n, size_mb, reps, s, prop.name, sms);
      if (f64 && !rc) rc = run_padded<double>(span, n, size_mb, reps, s, prop.name, sms);
    }
  }
  for (long long n : ns) {
    if (!rows) break;
    if (f32 && !rc) rc = run<float>(n, M, gbytes, size_mb, reps, s, prop.name);
    if (f64 && !rc) rc = run<double>(n, M, gbytes, size_mb, reps, s, prop.name);
  }
  cudaStreamDestroy(s);
  return rc;
}
