/* Thread-block cluster primitives (sm_90), shared by the scalar cluster
 * kernel (src/cuda/scalar/cluster.cu), the variable kind's segments
 * (src/cuda/variable/var_segments.cu) and the FFT's cluster kernel
 * (src/cuda/fft/stockham_reg.cuh): the split cluster barrier, the block's
 * rank and its cluster's size, another block's shared memory (distributed
 * shared memory), and the launch configuration.  The barriers are not
 * .aligned: a divergent branch may precede them.  Below sm_90 the device
 * functions compile to nothing (rank 0, one block), for the portable PTX
 * builds whose cluster kernels are never launched.  C++ only. */
#ifndef TRIDI_CUDA_CLUSTER_CUH
#define TRIDI_CUDA_CLUSTER_CUH

#include <stdint.h>

namespace tridi_cuda {

/* Split cluster barrier (sm_90): arrive (release) / wait (acquire).  maybe_unused:
 * the compute_80 PTX build compiles the cluster kernel with an empty body. */
[[maybe_unused]] __device__ __forceinline__ void cluster_arrive() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release;\n" ::: "memory");
#endif
}
[[maybe_unused]] __device__ __forceinline__ void cluster_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}
[[maybe_unused]] __device__ __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}
/* arrive without release semantics: only that this block runs (before
 * the first write into another block's shared memory) */
[[maybe_unused]] __device__ __forceinline__ void cluster_arrive_relaxed() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.relaxed;\n" ::: "memory");
#endif
}
[[maybe_unused]] __device__ __forceinline__ unsigned cluster_rank() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
#else
  return 0;
#endif
}
/* the blocks of this block's cluster */
[[maybe_unused]] __device__ __forceinline__ unsigned cluster_blocks() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));
  return r;
#else
  return 1;
#endif
}
/* generic address of `p` (this block's shared memory) in block `rank` of the
 * cluster */
template <typename T>
__device__ __forceinline__ T *cluster_map(T *p, unsigned rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint64_t out;
  asm volatile("mapa.u64 %0, %1, %2;\n" : "=l"(out) : "l"((uint64_t)p), "r"(rank));
  return (T *)out;
#else
  (void)rank;
  return p;
#endif
}

/* The same through a 32-bit shared::cluster address: dsmem_addr(p, rank),
 * then dsmem_store of a complex value (float2, double2) there.  The FFT's
 * cluster kernel spills fewer registers so than through cluster_map's
 * 64-bit generic pointers (ptxas: 92-100 against 116-172 bytes, c32). */
__device__ __forceinline__ unsigned dsmem_addr(const void *p, unsigned rank) {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm("mapa.shared::cluster.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(rank));
#else
  (void)p, (void)rank;
#endif
  return r;
}
template <class C>
__device__ __forceinline__ void dsmem_store(unsigned addr, C x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (sizeof(x.x) == 4)
    asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(x.x), "f"(x.y)
                 : "memory");
  else
    asm volatile("st.shared::cluster.v2.f64 [%0], {%1, %2};" ::"r"(addr), "d"(x.x), "d"(x.y)
                 : "memory");
#else
  (void)addr, (void)x;
#endif
}

/* Launch configuration of a cluster kernel (host): clusters of K blocks
 * along x (*attr must outlive the configuration's use). */
inline cudaLaunchConfig_t cluster_config(cudaLaunchAttribute *attr, int K, unsigned grid,
                                         unsigned threads, size_t smem, cudaStream_t stream) {
  cudaLaunchConfig_t cfg = {};
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = (unsigned)K;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cfg;
}

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_CLUSTER_CUH */
