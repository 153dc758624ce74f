// Broadcasting, layouts and the plan cache (see problem.h).
#include "problem.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace tridipy {

static const char *const kNames[4] = {"a", "b", "c", "d"};

std::string Problem::shape_str() const {
  std::string s = "(";
  for (int i = 0; i < rank; ++i) {
    s += std::to_string(shape[i]);
    if (rank == 1 || i + 1 < rank) s += ",";
    if (i + 1 < rank) s += " ";
  }
  return s + ")";
}

[[noreturn]] static void value_error(const char *fn, const std::string &msg) {
  throw nb::value_error((std::string(fn) + ": " + msg).c_str());
}

// Dimension of the problem that dimension i of operand k maps to.
static int target_dim(const View &v, int k, int i, int rank, int axis) {
  if (k < 3 && v.ndim == 1 && rank > 1) return axis;  // a 1-d coefficient lies along the axis
  return rank - v.ndim + i;
}

void broadcast(const char *fn, View *const in[4], int64_t axis, Problem &p) {
  // dtype and device: one of each for all four
  for (int k = 0; k < 4; ++k) {
    if (in[k]->dtype == 0 || in[k]->dtype != in[3]->dtype) {
      std::string msg = "a, b, c and d must all be float32 or all float64 arrays (tridi never "
                        "casts: convert explicitly, e.g. with .astype); got";
      for (int j = 0; j < 4; ++j) msg += std::string(j ? ", " : " ") + kNames[j] + " " + in[j]->dtype_name;
      throw nb::type_error((std::string(fn) + ": " + msg).c_str());
    }
  }
  for (int k = 0; k < 3; ++k) {
    if (in[k]->dev_type != in[3]->dev_type || in[k]->dev_id != in[3]->dev_id) {
      const bool cpu_k = !in[k]->on_gpu(), cpu_d = !in[3]->on_gpu();
      if (cpu_k && cpu_d) continue;  // pinned host memory is host memory
      value_error(fn, std::string(kNames[k]) + " is on " + in[k]->device_name() + " but d is on " +
                          in[3]->device_name() + ": put all operands on one device");
    }
  }
  const View &dv = *in[3];
  if (!dv.on_gpu() && dv.dev_type != kDevCPU && dv.dev_type != kDevCUDAHost)
    value_error(fn, "d is on " + dv.device_name() + "; tridi solves host arrays and CUDA arrays");
  p.dtype = dv.dtype;
  p.dev_type = dv.on_gpu() ? kDevCUDA : kDevCPU;
  p.dev_id = dv.on_gpu() ? dv.dev_id : 0;

  int rank = 0;
  for (int k = 0; k < 4; ++k) rank = in[k]->ndim > rank ? in[k]->ndim : rank;
  if (rank == 0)
    value_error(fn, "all operands are 0-d; the systems run along an axis, so d (or a coefficient) "
                    "needs at least one dimension");
  if (axis < -rank || axis >= rank)
    value_error(fn, "axis " + std::to_string(axis) + " is out of bounds for a problem of " +
                        std::to_string(rank) + " dimensions");
  p.rank = rank;
  p.axis = static_cast<int>(axis < 0 ? axis + rank : axis);

  for (int j = 0; j < rank; ++j) p.shape[j] = 1;
  for (int k = 0; k < 4; ++k) {
    const View &v = *in[k];
    for (int i = 0; i < v.ndim; ++i) {
      const int j = target_dim(v, k, i, rank, p.axis);
      const int64_t e = v.shape[i];
      if (p.shape[j] == 1) {
        p.shape[j] = e;
      } else if (e != 1 && e != p.shape[j]) {
        std::string msg = "operands could not be broadcast together with shapes";
        for (int m = 0; m < 4; ++m) msg += std::string(m ? ", " : " ") + kNames[m] + " " + in[m]->shape_str();
        msg += " along axis " + std::to_string(p.axis);
        for (int m = 0; m < 3; ++m)
          if (in[m]->ndim == 1 && rank > 1)
            msg += std::string(" (") + kNames[m] +
                   " is 1-d: it lies along the solve axis, so its length must be the system "
                   "length or 1)";
        value_error(fn, msg);
      }
    }
  }
  for (int k = 0; k < 4; ++k) {
    const View &v = *in[k];
    for (int j = 0; j < rank; ++j) p.strides[k][j] = 0;
    for (int i = 0; i < v.ndim; ++i) {
      const int j = target_dim(v, k, i, rank, p.axis);
      p.strides[k][j] = (v.shape[i] == 1 || p.shape[j] <= 1) ? 0 : v.strides[i];
    }
    p.ptr[k] = v.data;
  }
  p.elems = 1;
  p.batch = 1;
  p.batch_rank = 0;
  for (int j = 0; j < rank; ++j) {
    p.elems *= p.shape[j];
    if (j != p.axis) {
      p.batch *= p.shape[j];
      p.batch_shape[p.batch_rank++] = p.shape[j];
    }
  }
}

void bind_out(const char *fn, const View &out, Problem &p) {
  bool same = out.ndim == p.rank;
  for (int j = 0; same && j < p.rank; ++j) same = out.shape[j] == p.shape[j];
  if (!same)
    value_error(fn, "out has shape " + out.shape_str() + " but the solution has shape " + p.shape_str());
  if (out.dtype != p.dtype)
    throw nb::type_error((std::string(fn) + ": out has dtype " + out.dtype_name +
                          " but the operands are " + dtype_str(p.dtype))
                             .c_str());
  const bool out_gpu = out.on_gpu();
  if (out_gpu != p.on_gpu() || (out_gpu && out.dev_id != p.dev_id))
    value_error(fn, "out is on " + out.device_name() + " but d is on " +
                        (p.on_gpu() ? "cuda:" + std::to_string(p.dev_id) : std::string("cpu")));
  for (int j = 0; j < p.rank; ++j) p.strides[TRIDI_OP_X][j] = p.shape[j] > 1 ? out.strides[j] : 0;
  p.ptr[TRIDI_OP_X] = out.data;
}

void contiguous_strides(const Problem &p, int64_t *strides) {
  int64_t s = 1;
  for (int j = p.rank - 1; j >= 0; --j) {
    strides[j] = s;
    s *= p.shape[j] > 0 ? p.shape[j] : 1;
  }
}

void bind_new_x(Problem &p, char *data) {
  int64_t s[kMaxRank];
  contiguous_strides(p, s);
  for (int j = 0; j < p.rank; ++j) p.strides[TRIDI_OP_X][j] = p.shape[j] > 1 ? s[j] : 0;
  p.ptr[TRIDI_OP_X] = data;
}

[[noreturn]] void raise_status(const char *fn, tridi_status st) {
  raise_status(fn, st, tridi_last_error());
}

[[noreturn]] void raise_status(const char *fn, tridi_status st, const std::string &detail) {
  const std::string msg = std::string(fn) + ": " + tridi_status_name(st) + ": " + detail;
  switch (st) {
    case TRIDI_ERR_ALLOC: throw std::bad_alloc();
    case TRIDI_ERR_INVALID_DTYPE: throw nb::type_error(msg.c_str());
    case TRIDI_ERR_BACKEND_UNAVAILABLE:
    case TRIDI_ERR_DEVICE:
    case TRIDI_ERR_INTERNAL: throw std::runtime_error(msg);
    default: throw nb::value_error(msg.c_str());
  }
}

int resolve_backend(const Problem &p, const PlanOptions &o) {
  if (o.backend != TRIDI_BACKEND_AUTO) return o.backend;
  return p.on_gpu() ? TRIDI_BACKEND_CUDA : TRIDI_BACKEND_CPU;
}

PlanPtr make_plan(const char *fn, const Problem &p, const PlanOptions &o) {
  const int backend = resolve_backend(p, o);
  if ((backend == TRIDI_BACKEND_CUDA) != p.on_gpu())
    value_error(fn, std::string("the operands are on ") + (p.on_gpu() ? "a CUDA device" : "the host") +
                        " but the plan's backend is " + tridi_backend_name((tridi_backend)backend));
  tridi_desc desc = nullptr;
  tridi_status st = tridi_desc_create(&desc, (tridi_dtype)p.dtype, p.rank, p.shape, p.axis);
  if (st) raise_status(fn, st);
  for (int k = 0; k < TRIDI_NUM_OPERANDS && !st; ++k)
    st = tridi_desc_set_strides(desc, (tridi_operand)k, p.strides[k]);
  if (st) {
    const std::string detail = tridi_last_error();  // before tridi_desc_destroy clears it
    tridi_desc_destroy(desc);
    raise_status(fn, st, detail);
  }
  tridi_options opts;
  tridi_options_init(&opts);
  opts.backend = (tridi_backend)backend;
  opts.alg = (tridi_alg)o.alg;
  opts.pivot = (tridi_pivot)o.pivot;
  opts.num_threads = o.threads;
  opts.assume_dominant = o.assume_dominant;
  opts.device = p.on_gpu() ? p.dev_id : 0;
  auto holder = std::make_shared<PlanHolder>();
  st = tridi_plan_create(&holder->plan, desc, &opts);
  const std::string detail = st ? tridi_last_error() : "";
  tridi_desc_destroy(desc);
  if (st) raise_status(fn, st, detail);
  return holder;
}

// ---- the plan cache ---------------------------------------------------------

namespace {

// Everything a plan depends on, as plain integers (compared with memcmp).
struct Key {
  int32_t dtype, rank, axis, backend, alg, pivot, threads, device, assume_dominant, unused;
  int64_t shape[kMaxRank];
  int64_t strides[TRIDI_NUM_OPERANDS][kMaxRank];
};

struct Entry {
  Key key;
  uint64_t hash;
  PlanPtr plan;
};

constexpr size_t kCacheSize = 32;
std::mutex cache_mutex;
std::vector<Entry> cache;  // most recently used first

// A hash of the key, a word at a time (the key is a whole number of 64-bit
// words: a multiply per word, about 50 of them).
uint64_t key_hash(const Key &key) {
  static_assert(sizeof(Key) % sizeof(uint64_t) == 0, "Key is a whole number of words");
  uint64_t w[sizeof(Key) / sizeof(uint64_t)];
  std::memcpy(w, &key, sizeof key);
  uint64_t h = 1469598103934665603ull;
  for (uint64_t v : w) h = (h ^ v) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

}  // namespace

PlanPtr cached_plan(const char *fn, const Problem &p, const PlanOptions &o) {
  Key key;
  std::memset(&key, 0, sizeof key);
  key.dtype = p.dtype;
  key.rank = p.rank;
  key.axis = p.axis;
  key.backend = resolve_backend(p, o);
  key.alg = o.alg;
  key.pivot = o.pivot;
  key.threads = o.threads;
  key.device = p.on_gpu() ? p.dev_id : 0;
  key.assume_dominant = o.assume_dominant;
  for (int j = 0; j < p.rank; ++j) {
    key.shape[j] = p.shape[j];
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) key.strides[k][j] = p.strides[k][j];
  }
  uint64_t h = 0;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    // a loop of calls on one layout finds its plan first, without hashing
    if (!cache.empty() && std::memcmp(&cache.front().key, &key, sizeof key) == 0)
      return cache.front().plan;
    h = key_hash(key);
    for (size_t i = 1; i < cache.size(); ++i) {
      if (cache[i].hash == h && std::memcmp(&cache[i].key, &key, sizeof key) == 0) {
        Entry e = std::move(cache[i]);
        cache.erase(cache.begin() + static_cast<std::ptrdiff_t>(i));
        cache.insert(cache.begin(), std::move(e));
        return cache.front().plan;
      }
    }
  }
  PlanPtr plan = make_plan(fn, p, o);  // outside the lock: planning may take a while
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (cache.size() >= kCacheSize) cache.pop_back();
  cache.insert(cache.begin(), Entry{key, h, plan});
  return plan;
}

void clear_plan_cache() {
  std::vector<Entry> old;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    old.swap(cache);
  }
}

size_t plan_cache_size() {
  std::lock_guard<std::mutex> lock(cache_mutex);
  return cache.size();
}

}  // namespace tridipy
