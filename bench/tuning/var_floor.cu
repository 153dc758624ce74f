/* var_floor: the memory floor of a variable-size batch on the GPU, on the
 * cases of `tridi bench --problem variable` (the same lengths: the bench's
 * own case generator, tools/bench_variable.c).
 *
 * For each case it times, on the device, with CUDA events (median of --reps
 * after one untimed pass):
 *   copy   cudaMemcpyAsync of one operand's allocation (2 x its bytes moved);
 *   floor  one pass that reads a, b, c, d at every element a solve must read
 *          and writes x there (x = a + b + c + d), nothing else: PACKED a
 *          plain 4-read / 1-write stream over the unknowns; INTERLEAVED a
 *          thread a system, a warp walking its 32 systems' rows to their
 *          longest, each load predicated on the row being inside its
 *          system, so that a 32-byte sector is moved when any of its
 *          systems reaches the row: what any kernel that reads the layout's
 *          live sectors must move.
 * and prints the floor's effective bandwidth in the bench's 5-word model (5
 * words per real unknown / time) and as a share of the copy: no solve on
 * that layout can exceed it.  Beside it, the sector model (bytes of the
 * live 32-byte sectors of the five operands against 5 words per unknown):
 * the same ceiling counted instead of timed.
 *
 * Build: CMake target tridi_var_floor, with -DTRIDI_CUDA_TUNING=ON:
 *   tridi_var_floor [--n 128,512] [--dtype f32,f64] [--layout packed,interleaved]
 *                   [--size-mb 1024] [--reps 10]          CSV on stdout */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

extern "C" {
#include "bench.h"
#include "bench_util.h"
#include "bench_var.h"
}
#include "bench_cuda_time.cuh"
#include "floor_cli.h"

namespace {

template <typename T>
__global__ void floor_packed(const T *__restrict__ a, const T *__restrict__ b,
                             const T *__restrict__ c, const T *__restrict__ d, T *__restrict__ x,
                             int64_t total) {
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < total;
       k += (int64_t)gridDim.x * blockDim.x)
    x[k] = a[k] + b[k] + c[k] + d[k];
}

/* A warp a 32-system column strip, walking its rows up to the strip's
 * longest system, four rows at a time (all their loads issued together);
 * rows past a system's end are neither read nor written. */
template <typename T>
__global__ void floor_interleaved(const T *__restrict__ a, const T *__restrict__ b,
                                  const T *__restrict__ c, const T *__restrict__ d,
                                  T *__restrict__ x, const int32_t *__restrict__ len, int64_t B,
                                  int64_t ld) {
  const int64_t s = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int n = s < B ? len[s] : 0;
  const int wmax = __reduce_max_sync(0xffffffffu, (unsigned)n);
  for (int i0 = 0; i0 < wmax; i0 += 4) {
    T v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int64_t k = (int64_t)(i0 + u) * ld + s;
      v[u] = i0 + u < n ? a[k] + b[k] + c[k] + d[k] : T(0);
    }
#pragma unroll
    for (int u = 0; u < 4; ++u)
      if (i0 + u < n) x[(int64_t)(i0 + u) * ld + s] = v[u];
  }
}

int fail(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return 0;
  fprintf(stderr, "tridi_var_floor: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

/* Bytes of the live 32-byte sectors of one operand: INTERLEAVED, row i of a
 * sector of 32 / size systems is live when one of them is longer than i. */
double sector_bytes(const bench_case &bc, size_t es) {
  const bench_var_case *v = bench_var_of(&bc);
  if (v->layout == TRIDI_VAR_PACKED) return (double)bc.unknowns * (double)es;
  const int64_t per = 32 / (int64_t)es;
  double rows = 0;
  for (int64_t s0 = 0; s0 < bc.batch; s0 += per) {
    int64_t m = 0;
    for (int64_t s = s0; s < s0 + per && s < bc.batch; ++s) m = std::max(m, v->len[s]);
    rows += (double)m;
  }
  return rows * 32.0;
}

template <typename T>
int run_case(const bench_case &bc, int reps, cudaStream_t s) {
  const bench_var_case *v = bench_var_of(&bc);
  const size_t es = sizeof(T), bytes = (size_t)bc.alloc_elems[0] * es;
  T *op[5] = {};
  int32_t *dlen = nullptr;
  int rc = 0;
  for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMalloc(&op[k], bytes), "cudaMalloc");
  if (!rc) rc = fail(cudaMalloc(&dlen, (size_t)bc.batch * sizeof(int32_t)), "cudaMalloc");
  if (!rc) {
    std::vector<int32_t> hl((size_t)bc.batch);
    for (int64_t k = 0; k < bc.batch; ++k) hl[(size_t)k] = (int32_t)v->len[k];
    rc = fail(cudaMemcpy(dlen, hl.data(), hl.size() * sizeof(int32_t), cudaMemcpyHostToDevice),
              "upload");
    for (int k = 0; k < 5 && !rc; ++k) rc = fail(cudaMemset(op[k], 0, bytes), "cudaMemset");
    /* the legacy stream's copy and sets, before the non-blocking stream uses them */
    if (!rc) rc = fail(cudaDeviceSynchronize(), "upload");
  }
  if (rc) {
    for (int k = 0; k < 5; ++k) cudaFree(op[k]);
    cudaFree(dlen);
    return rc;
  }
  const double copy_ms =
      bench_cuda_time_ms([&] { cudaMemcpyAsync(op[4], op[0], bytes, cudaMemcpyDeviceToDevice, s); },
                         reps, 1, s, nullptr);
  double floor_ms;
  if (v->layout == TRIDI_VAR_PACKED) {
    const unsigned blocks = (unsigned)std::min<int64_t>((bc.unknowns + 255) / 256, 1 << 16);
    floor_ms = bench_cuda_time_ms(
        [&] {
          floor_packed<T><<<blocks, 256, 0, s>>>(op[0], op[1], op[2], op[3], op[4], bc.unknowns);
        },
        reps, 1, s, nullptr);
  } else {
    const unsigned grid = (unsigned)((bc.batch + 127) / 128);
    floor_ms = bench_cuda_time_ms(
        [&] {
          floor_interleaved<T>
              <<<grid, 128, 0, s>>>(op[0], op[1], op[2], op[3], op[4], dlen, bc.batch, v->ld);
        },
        reps, 1, s, nullptr);
  }
  rc = fail(cudaStreamSynchronize(s), "kernels");
  if (!rc) {
    const double copy_gbps = 2.0 * (double)bytes / copy_ms * 1e-6;
    const double model = 5.0 * (double)bc.unknowns * (double)es; /* the bench's bytes */
    const double floor_gbps = model / floor_ms * 1e-6;
    const double sectors = 5.0 * sector_bytes(bc, es);
    printf("%s,%s,%lld,%lld,%lld,%.1f,%.4f,%.1f,%.1f,%.3f\n", bc.layout, es == 4 ? "f32" : "f64",
           (long long)bc.n, (long long)bc.batch, (long long)bc.unknowns, copy_gbps, floor_ms,
           floor_gbps, 100.0 * floor_gbps / copy_gbps, model / sectors);
    fflush(stdout);
  }
  for (int k = 0; k < 5; ++k) cudaFree(op[k]);
  cudaFree(dlen);
  return rc;
}

} /* namespace */

int main(int argc, char **argv) {
  std::vector<long long> ns = {128, 512};
  bool f32 = true, f64 = true, packed = true, inter = true;
  double size_mb = 1024;
  int reps = 10;
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k], *val = k + 1 < argc ? argv[k + 1] : nullptr;
    if (val == nullptr) {
      fprintf(stderr,
              "usage: tridi_var_floor [--n L,...] [--dtype f32,f64] [--layout packed,interleaved]"
              " [--size-mb MIB] [--reps N]\n");
      return 2;
    }
    if (!strcmp(a, "--n"))
      ns = floor_parse_list(val);
    else if (!strcmp(a, "--dtype"))
      f32 = strstr(val, "f32") != nullptr, f64 = strstr(val, "f64") != nullptr;
    else if (!strcmp(a, "--layout"))
      packed = strstr(val, "packed") != nullptr, inter = strstr(val, "interleaved") != nullptr;
    else if (!strcmp(a, "--size-mb"))
      size_mb = atof(val);
    else if (!strcmp(a, "--reps"))
      reps = std::max(1, atoi(val));
    else {
      fprintf(stderr, "tridi_var_floor: unknown option %s\n", a);
      return 2;
    }
    ++k;
  }
  cudaStream_t s;
  if (fail(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream")) return 1;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf(
      "# %s; floor: 5 words per real unknown / time of the live-data pass; sector_model: the same "
      "bytes"
      " / the live 32-byte sectors\n",
      prop.name);
  printf(
      "layout,dtype,n,batch,unknowns,copy_gbps,floor_ms,floor_gbps,floor_pct_copy,sector_model\n");
  static const char *const dists[] = {"uniform", "half", "lognormal", "bimodal"};
  int rc = 0;
  for (int st = 0; st < 2; ++st) {
    if (!(st ? inter : packed)) continue;
    for (int dt = 0; dt < 2; ++dt) {
      if (!(dt ? f64 : f32)) continue;
      const size_t es = dt ? 8 : 4;
      for (long long L : ns)
        for (const char *dist : dists) {
          char layout[64];
          snprintf(layout, sizeof layout, "%s/%s", st ? "interleaved" : "packed", dist);
          bench_case bc;
          memset(&bc, 0, sizeof bc);
          bc.kind = &bench_kind_variable;
          bc.words_per_unknown = 5;
          const int64_t elems = (int64_t)(size_mb * 1048576.0 / (5.0 * (double)es));
          if (bench_kind_variable.make_case(&bc, layout, dt ? TRIDI_F64 : TRIDI_F32, L, elems) !=
              0) {
            fprintf(stderr, "tridi_var_floor: no case %s L = %lld\n", layout, L);
            rc = 1;
            continue;
          }
          rc |= dt ? run_case<double>(bc, reps, s) : run_case<float>(bc, reps, s);
          bench_kind_variable.free_case(&bc);
        }
    }
  }
  cudaStreamDestroy(s);
  return rc;
}
