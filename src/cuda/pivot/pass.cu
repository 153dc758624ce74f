/* TRIDI_PIVOT_AUTO's second pass on the CUDA backend (tridi_backend_ops
 * pass_init / pass_destroy / pass_run; the core calls pass_run for executes
 * out of place).  pass_run enqueues the plan's non-pivoting solve with an
 * info array (the caller's, else the one of the workspace) and, on the same
 * stream, a kernel that solves again with partial pivoting every system
 * whose info is not 0 (zero pivot, NaN/Inf, TRIDI_INFO_INACCURATE) and
 * writes its x and the pivoting solver's info.  No host synchronisation
 * and no host-side decision: the flags stay on the device, so the pair is
 * capturable in a CUDA graph; an execute that flags nothing costs one read
 * of info (a tile whose systems are all 0 exits after reading them).
 *   scalar kind    the cuda_lu_partial kernels with RESOLVE (lu_scalar.cu):
 *                  a tile of G systems in shared memory, or one thread a
 *                  system with its scratch in the workspace;
 *   variable kind  one thread a flagged system (var_resolve below), its
 *                  rows read from global memory, u, du, du2 in the
 *                  workspace: only flagged systems do any work. */
#include "cuda_pivot.h"
#include "lu.cuh"

#include "../../core/kinds/variable.h"

#include <stdlib.h>
#include <string.h>

namespace tridi_cuda {
namespace {

/* scratch of the flagged systems' threads (3 nmax elements each) */
constexpr size_t kVarScratchBudget = (size_t)16 << 20;

struct VarPassParams {
  const void *op[TRIDI_NUM_OPERANDS];
  int32_t *info;
  const int64_t *off; /* B + 1 prefix sums of the lengths (device) */
  void *scratch;      /* nthreads x 3 nmax elements */
  int64_t nsys, ld, nmax, nthreads;
  int packed;
};

/* plan->resolve_priv of a CUDA plan */
struct PassPlan {
  LuPlan lu;        /* scalar kind */
  int64_t *off;     /* variable kind: the lengths' prefix sums on the device */
  int64_t nthreads; /* variable kind: threads of var_resolve */
};

template <typename T>
__global__ void __launch_bounds__(256) var_resolve(VarPassParams p) {
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= p.nthreads) return;
  /* the info of kScan systems loaded before any is looked at: the scan of a
   * batch with nothing flagged is kScan times fewer dependent round trips to
   * memory (one a system was a latency-bound chain of B / nthreads loads) */
  constexpr int kScan = 16;
  for (int64_t s0 = tid; s0 < p.nsys; s0 += kScan * p.nthreads) {
    int32_t code[kScan];
#pragma unroll
    for (int k = 0; k < kScan; ++k) {
      const int64_t s = s0 + k * p.nthreads;
      code[k] = s < p.nsys ? p.info[s] : 0;
    }
#pragma unroll 1
    for (int k = 0; k < kScan; ++k) {
      if (code[k] == 0) continue;
      const int64_t s = s0 + k * p.nthreads; /* this thread's system: no other reads or writes its info */
      const int64_t first = p.packed ? p.off[s] : s, st = p.packed ? 1 : p.ld;
      const int64_t n = p.off[s + 1] - p.off[s];
      GlobalRows<T> m;
      m.A = (const T *)p.op[0] + first;
      m.B = (const T *)p.op[1] + first;
      m.C = (const T *)p.op[2] + first;
      m.D = (const T *)p.op[3] + first;
      m.X = (T *)p.op[4] + first;
      m.sa = m.sb = m.sc = m.sd = m.sx = st;
      m.w = (T *)p.scratch + tid;
      m.n = n;
      m.W = p.nthreads;
      m.pf = 0;
      p.info[s] = lu_system<T>(n, m);
    }
  }
}

size_t round64(size_t b) { return (b + 63) & ~(size_t)63; }

} /* namespace */
} /* namespace tridi_cuda */

extern "C" tridi_status tridi_cuda_pass_init(struct tridi_plan_s *plan, int *available) {
  using namespace tridi_cuda;
  *available = 0;
  if (plan->kind != TRIDI_KIND_SCALAR && plan->kind != TRIDI_KIND_VARIABLE) return TRIDI_SUCCESS;
  PassPlan *pp = (PassPlan *)calloc(1, sizeof *pp);
  if (!pp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of host memory");
  plan->resolve_priv = pp;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_plan_create: cudaSetDevice(%d)", plan->device);
  if (plan->kind == TRIDI_KIND_SCALAR) {
    const tridi_status st = lu_plan_scalar(plan, true, &pp->lu);
    if (st) return st;
    plan->resolve_work = pp->lu.tile ? 0 : pp->lu.scratch_bytes;
    *available = 1;
    return TRIDI_SUCCESS;
  }
  const tridi_var_problem *v = tridi_var_of(plan);
  const int64_t B = v->nsys;
  cudaError_t e = cudaMalloc((void **)&pp->off, (size_t)(B + 1) * sizeof(int64_t));
  if (e != cudaSuccess) {
    pp->off = NULL;
    return cuda_error(e, "tridi_plan_create: cudaMalloc of the second pass's %lld offsets", (long long)B + 1);
  }
  e = cudaMemcpy(pp->off, v->off, (size_t)(B + 1) * sizeof(int64_t), cudaMemcpyHostToDevice);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: copy of the second pass's offsets");
  const uint64_t per = (uint64_t)3 * (uint64_t)v->nmax * plan->esize;
  int64_t nt = per ? (int64_t)(kVarScratchBudget / per) : 65536;
  if (nt > 65536) nt = 65536;
  if (nt > B) nt = B;
  if (nt < 1) nt = 1;
  pp->nthreads = nt;
  plan->resolve_work = round64((size_t)nt * (size_t)per);
  *available = 1;
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_pass_destroy(struct tridi_plan_s *plan) {
  using namespace tridi_cuda;
  PassPlan *pp = (PassPlan *)plan->resolve_priv;
  if (!pp) return;
  if (pp->off) tridi_cuda_free(pp->off, plan->device);
  free(pp);
  plan->resolve_priv = NULL;
}

extern "C" tridi_status tridi_cuda_pass_run(const struct tridi_plan_s *plan, tridi_args *args) {
  using namespace tridi_cuda;
  const PassPlan *pp = (const PassPlan *)plan->resolve_priv;
  DeviceGuard dg(plan->device);
  if (dg.err != cudaSuccess) return cuda_error(dg.err, "tridi_execute: cudaSetDevice(%d)", plan->device);
  char *ws = (char *)args->ws;
  if (!args->info) args->info = (int32_t *)(void *)(ws + plan->resolve_off);
  const tridi_status st = plan->solver->execute(plan, args);
  if (st) return st;
  void *scratch = ws + plan->resolve_off + round64((size_t)plan->nsys * sizeof(int32_t));
  cudaStream_t stream = (cudaStream_t)args->stream;
  cudaError_t e;
  if (plan->kind == TRIDI_KIND_SCALAR) {
    e = lu_launch_scalar(plan, pp->lu, true, args, scratch, stream);
  } else {
    const tridi_var_problem *v = tridi_var_of(plan);
    VarPassParams p;
    memset(&p, 0, sizeof p);
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) p.op[k] = args->op[k];
    p.info = args->info;
    p.off = pp->off;
    p.scratch = scratch;
    p.nsys = v->nsys;
    p.ld = v->ld;
    p.nmax = v->nmax;
    p.nthreads = pp->nthreads;
    p.packed = v->layout == TRIDI_VAR_PACKED;
    const unsigned grid = (unsigned)((pp->nthreads + 255) / 256);
    if (plan->dtype == TRIDI_F64)
      var_resolve<double><<<grid, 256, 0, stream>>>(p);
    else
      var_resolve<float><<<grid, 256, 0, stream>>>(p);
    e = cudaGetLastError();
  }
  if (e != cudaSuccess) return cuda_error(e, "tridi_execute: launch of TRIDI_PIVOT_AUTO's second pass");
  return TRIDI_SUCCESS;
}
