/* The Thomas-PCR row's plan (src/cuda/scalar/thomas_pcr.cu): the kernels'
 * parameters, what the row derives once from the layout and the tuning
 * table (Facts), what each kernel family keeps for execute (CudaPlan), and
 * the plan and launch functions of the families, one file each:
 *   staged.cu  tiles.cu  direct.cu  segmented.cu  cluster.cu  streaming.cu
 * C++ (included by the .cu files only). */
#ifndef TRIDI_CUDA_SCALAR_PLAN_H
#define TRIDI_CUDA_SCALAR_PLAN_H

#include "../common/device.cuh"
#include "../tuning.h"
#include "tridi_internal.h"

#include <cuda_runtime.h>

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

namespace tridi_cuda {

/* Kernel parameters: the normalised layout, flattened (passed by value). */
struct KParams {
  const void *op[TRIDI_NUM_OPERANDS];
  int32_t *info;
  void *ws;
  int64_t n;
  int64_t nsys;
  int64_t as[TRIDI_NUM_OPERANDS];
  int64_t bext[TRIDI_MAX_RANK];
  int64_t bstride[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
  int nbatch;
  int reused; /* bit k: operand k has a zero batch stride (the same rows serve
                 several systems): the staged kernel copies it through L1 */
};

/* Blocks of the staged and direct kernels have at most this many threads */
constexpr int kTileThreads = 512;
/* Blocks of a thread-block cluster of the cluster kernel (sm_90: more than
 * 8 only as a non-portable cluster size) */
constexpr int kMaxCluster = 16;

/* What the row derives once for a plan and every family's plan() reads:
 * the layout's facts, the device, and the tuning-table rows that apply
 * (after the measurement builds' overrides). */
struct Facts {
  const tridi_layout *L;
  tridi_dtype dtype;
  size_t es;      /* element size */
  bool f64;
  const char *tn; /* "f32" / "f64", for kernel names */
  int64_t n;
  /* neighbouring systems adjacent in x (unit stride of the last batch
   * dimension) and the solve axis not: the direct, segmented and ADJ
   * cluster kernels' layouts */
  bool sysmajor;
  bool unit_rows; /* every operand's rows are unit-stride */
  /* the staged kernel may use 16-byte copies: unit rows, n and every batch
   * stride multiples of 16 bytes (pointer alignment is checked per execute) */
  bool vec_ok;
  int reused;     /* KParams::reused */
  bool grow;      /* plan->growth: the kernels with the growth detection */
  const cudaDeviceProp *prop;
  size_t smem_max; /* shared memory a block may opt in to */
  /* tuning-table rows (NULL: none): the single-block family's (direct when
   * sysmajor, else staged), the cluster kernel's (ADJ or ROW), the
   * segmented solve's */
  const tridi_cuda_tile *tile, *ctile, *stile;
  int cluster_kmax;            /* largest cluster the cluster kernel may use */
  long long pipe_max_extent;   /* TRIDI_CUDA_PIPE_MAX_EXTENT */
};

/* A launch of the direct kernel, or of a kernel of the same shape */
struct DirectCfg {
  const void *func;
  unsigned grid;
  int threads, logG;
  int P; /* threads (chunks) a system; the segment reduction: segments a block */
  size_t smem;
};

struct StagedPlan {
  int G, logG, logP;
  int LD;      /* row pitch of func_vec's tile */
  int LD_main; /* row pitch of func's tile */
  int threads;
  const void *func;     /* element-size or phase-shifted copies */
  size_t smem;
  unsigned grid;
  FastDiv ndiv;         /* func: division by n (phase: by n / V + 2) */
  const void *func_vec; /* 16-byte copies (plain or pipelined), or NULL */
  size_t smem_vec;
  unsigned grid_vec;
  FastDiv ndiv_vec;     /* func_vec: division by n / V */
};

struct DirectPlan {
  DirectCfg k; /* the plain or the pipelined direct kernel */
  int CP;      /* pipelined: chunk pitch of its tile buffer (0: plain) */
};

/* The segmented solve: seg_reduce, the direct kernel on the reduced
 * systems, the segment tiles, seg_info; workspace offsets in bytes */
struct SegPlan {
  DirectCfg reduce, red, tiles;
  const void *info_func;
  int R, S;
  FastDiv sdiv; /* division by S (the tiles' index) */
  int64_t nred; /* 2 S */
  size_t off_red[3], off_one, off_redinfo, off_ovf;
  size_t off_gmax; /* the residual check's maxima (growth detection), else 0 */
  const void *tiles_plain; /* the tiles' kernel without the check: calls without info */
};

struct ClusterPlan {
  const void *func;
  const void *func_plain; /* func without the growth check: calls without info */
  int logG, logP, K; /* K: blocks per cluster */
  int threads;
  size_t smem;
  unsigned grid;
};

struct StreamPlan {
  const void *func;
  int logG, P;
  int64_t m; /* rows per thread */
  int threads;
  size_t smem;
  unsigned grid;
};

/* Tiles of whole systems of a dense batch (tiles.cu: the PACKED kernel of
 * the variable kind with computed tiles) */
struct TilesPlan {
  bool f32, grow;
  int M;          /* rows a thread: tiles of 256 M rows */
  int64_t ld;     /* row stride between systems (>= n; > n: padding rows) */
  int64_t spt;    /* systems a tile */
  int64_t ntiles;
  int blocks;     /* persistent blocks */
};

/* plan->priv of a Thomas-PCR plan */
struct CudaPlan {
  int variant; /* row of the variant table that runs the plan; -1: nothing to
                  solve (n = 0 or no systems: info zeroed) */
  KParams kp;  /* the launch parameters made at plan time (the layout,
                  reused); execute sets op, info and ws */
  StagedPlan staged;
  TilesPlan tiles;
  DirectPlan direct;
  SegPlan seg;
  ClusterPlan cluster;
  StreamPlan stream;
};

/* A family's plan(): *took = true when it takes the plan (its part of cp,
 * plan->kernel_name and plan->ws_bytes set); false to leave it to the next
 * row.  A status other than TRIDI_SUCCESS fails the plan. */
typedef tridi_status (*PlanFn)(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took);
/* A family's launch on the plan's device (the row holds the device guard) */
typedef cudaError_t (*LaunchFn)(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream);

tridi_status plan_segmented(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took);
tridi_status plan_direct(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took);
tridi_status plan_staged(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took);
tridi_status plan_tiles(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took);
tridi_status plan_cluster(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took);
tridi_status plan_streaming(const Facts &f, CudaPlan *cp, struct tridi_plan_s *plan, bool *took);
cudaError_t launch_segmented(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream);
cudaError_t launch_direct(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream);
cudaError_t launch_staged(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream);
cudaError_t launch_tiles(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream);
cudaError_t launch_cluster(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream);
cudaError_t launch_streaming(const CudaPlan &cp, KParams &kp, const tridi_args *args, cudaStream_t stream);

/* tiles.cu, also for the pivoting row of tiles (src/cuda/pivot/rpts_tiles.cu):
 * tiles_dense_systems: every operand unit-stride, system s at element s n
 *   (the batch dimensions dense);
 * tiles_systems_per_tile: whole systems of n rows a tile of R rows holds,
 *   one less where the tile's shift in a piece of `piece` bytes (16: the
 *   pivoting tiles; 128: the scalar tiles' lines) could not fit otherwise
 *   and that system is at most an eighth of the tile. */
bool tiles_dense_systems(const tridi_layout *L);
/* tiles_strided_systems: every operand unit-stride, system s at element
 *   s ld for one ld >= n (*ld; the batch dimensions dense over it) */
bool tiles_strided_systems(const tridi_layout *L, int64_t *ld);
int64_t tiles_systems_per_tile(int64_t n, int64_t R, size_t es, size_t piece);

/* First row of family fam of the tuning table for this dtype and n (NULL:
 * none); thomas_pcr.cu */
const tridi_cuda_tile *find_tile(tridi_cuda_family fam, tridi_dtype dt, int64_t n);

/* The direct kernel for M rows a thread, with the growth detection or
 * without (NULL: not compiled); direct.cu */
const void *direct_kernel(bool f64, int M, bool grow);

/* Direct-kernel shape for systems of n rows, M rows a thread: P =
 * ceil(n / M) chunks (any P; the last chunk partial), G adjacent systems
 * (gbytes a row when P allows, G P <= cap threads; grow: shared memory for
 * the growth detection).
 * False when no block of <= 512 threads holds one system; direct.cu */
bool direct_shape(DirectCfg *dc, int64_t n, int64_t nsys, int M, int cap, size_t es, int gbytes = 128,
                  bool grow = false);

/* The compiled tiles: M = 4, 8, 16 rows a thread, and 32 for f32.  f maps
 * std::integral_constant<int, M> to the kernel's address (NULL: none). */
template <typename T, typename F>
const void *by_m(int M, F f) {
  if (M == 4) return f(std::integral_constant<int, 4>{});
  if (M == 8) return f(std::integral_constant<int, 8>{});
  if (M == 16) return f(std::integral_constant<int, 16>{});
  if constexpr (sizeof(T) == 4) {
    if (M == 32) return f(std::integral_constant<int, 32>{});
  }
  return NULL;
}

} /* namespace tridi_cuda */

#endif /* TRIDI_CUDA_SCALAR_PLAN_H */
