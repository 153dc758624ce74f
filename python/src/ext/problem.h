// A solve as tridi sees it: the broadcast shape, the solve axis, the strides
// of the five operands (in elements; 0 where an operand is broadcast), their
// base pointers, and the cached plans that solve it.
#pragma once

#include <memory>

#include "views.h"

namespace tridipy {

// Which backend a problem runs on and with what options: the part of a plan
// key that does not come from the arrays.
struct PlanOptions {
  int backend = TRIDI_BACKEND_AUTO;  // AUTO: CPU for host arrays, CUDA for device arrays
  int alg = TRIDI_ALG_AUTO;
  int pivot = TRIDI_PIVOT_AUTO;
  int threads = 0;
  int device = 0;
  int assume_dominant = 0;  // tridi_options.assume_dominant
};

struct Problem {
  int rank = 0;
  int axis = 0;
  int64_t shape[kMaxRank] = {};
  int64_t strides[TRIDI_NUM_OPERANDS][kMaxRank] = {};
  char *ptr[TRIDI_NUM_OPERANDS] = {};
  int dtype = 0;
  int dev_type = kDevCPU;
  int dev_id = 0;
  int64_t elems = 0;  // product of the shape
  int64_t batch = 0;  // number of systems: product of the shape without the axis
  int batch_rank = 0;
  int64_t batch_shape[kMaxRank] = {};

  bool on_gpu() const { return dev_type == kDevCUDA || dev_type == kDevCUDAManaged; }
  std::string shape_str() const;
};

// Broadcast a, b, c, d (NumPy rules; a 1-d coefficient of a problem of
// higher rank lies along the axis) and fill rank, axis, shape, the strides
// and pointers of a to d, dtype and device.  `axis` may be negative.
// Throws ValueError / TypeError with the function name `fn`.
void broadcast(const char *fn, View *const in[4], int64_t axis, Problem &p);

// Check `out` against the problem (shape, dtype, device) and set x's strides
// and pointer from it.
void bind_out(const char *fn, const View &out, Problem &p);

// Set x as a new C-contiguous array at `data`.
void bind_new_x(Problem &p, char *data);

// Strides of x of a new C-contiguous array of the problem's shape.
void contiguous_strides(const Problem &p, int64_t *strides);

// A tridi plan, destroyed with its last user.
struct PlanHolder {
  tridi_plan plan = nullptr;
  PlanHolder() = default;
  PlanHolder(const PlanHolder &) = delete;
  PlanHolder &operator=(const PlanHolder &) = delete;
  ~PlanHolder() { tridi_plan_destroy(plan); }
};
using PlanPtr = std::shared_ptr<PlanHolder>;

// Make a plan for the problem's layout (no cache).  Throws on failure.
PlanPtr make_plan(const char *fn, const Problem &p, const PlanOptions &o);

// The plan for this layout and options, from a small cache of recent plans
// (made and cached on a miss).  Plans are immutable and tridi_execute is
// thread-safe, so one plan serves every caller.
PlanPtr cached_plan(const char *fn, const Problem &p, const PlanOptions &o);

// Drop every cached plan (at interpreter exit, and for tests).
void clear_plan_cache();
size_t plan_cache_size();

// The backend a problem runs on for the given options (AUTO resolved).
int resolve_backend(const Problem &p, const PlanOptions &o);

// Raise the Python exception for a failed tridi call (not for breakdowns).
[[noreturn]] void raise_status(const char *fn, tridi_status st);
[[noreturn]] void raise_status(const char *fn, tridi_status st, const std::string &detail);

}  // namespace tridipy
