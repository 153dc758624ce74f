// tridi._tridi: the nanobind extension behind tridi.solve and tridi.Plan.
//
// Every argument is read in place (views.h), broadcast to one problem
// (problem.h) and solved by one tridi_execute with the GIL released.  Plans
// come from a small cache keyed by the whole layout, so that a repeated solve
// costs the argument parsing and the execute only.  New arrays of other
// libraries and their current CUDA stream come from the libraries themselves
// (libs.cpp for CuPy and PyTorch, tridi/_arrays.py for the rest): the
// extension itself never calls the CUDA runtime.
#include <nanobind/stl/string.h>

#include <cstring>
#include <vector>

#include "args.h"
#include "solve.h"

namespace tridipy {

int alg_from_name(const char *fn, const char *name) {
  tridi_alg alg = TRIDI_ALG_AUTO;
  if (tridi_alg_from_name(name, &alg) != TRIDI_SUCCESS) {
    std::string names;
    for (int a = TRIDI_ALG_AUTO; a <= TRIDI_ALG_LU_PARTIAL; ++a)
      names += std::string(a ? ", " : "") + "'" + tridi_alg_name((tridi_alg)a) + "'";
    throw nb::value_error(
        (std::string(fn) + ": alg='" + name + "' is not an algorithm; choose one of " + names).c_str());
  }
  return alg;
}

int pivot_from_name(const char *fn, const char *name) {
  tridi_pivot pv = TRIDI_PIVOT_AUTO;
  if (tridi_pivot_from_name(name, &pv) != TRIDI_SUCCESS)
    throw nb::value_error(
        (std::string(fn) + ": pivot='" + name + "' is not one of 'auto', 'none', 'partial'").c_str());
  return pv;
}

int backend_from_name(const char *fn, const char *name) {
  for (int b = TRIDI_BACKEND_AUTO; b <= TRIDI_BACKEND_CUDA; ++b)
    if (std::strcmp(name, tridi_backend_name((tridi_backend)b)) == 0) return b;
  throw nb::value_error(
      (std::string(fn) + ": backend='" + name + "' is not one of 'auto', 'cpu', 'ref', 'cuda'").c_str());
}

bool is_breakdown(tridi_status st) {
  return st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE || st == TRIDI_ERR_INACCURATE;
}

void parse_all(const char *fn, nb::handle a, nb::handle b, nb::handle c, nb::handle d,
               int64_t axis, nb::handle out, Parsed &r) {
  parse_view(d, r.vd, fn, "d", nullptr, nb::none());
  // an operand that is the same object as one read before is not read again
  // (a is c, out=d): the first view lives as long as the call
  const nb::handle ops[3] = {a, b, c};
  View *const vs[3] = {&r.va, &r.vb, &r.vc};
  static const char *const names[3] = {"a", "b", "c"};
  for (int k = 0; k < 3; ++k) {
    int same = -1;
    if (ops[k].is(d)) same = 3;
    for (int j = 0; j < k && same < 0; ++j)
      if (ops[k].is(ops[j])) same = j;
    if (same < 0)
      parse_view(ops[k], *vs[k], fn, names[k], &r.vd, d);
    else
      vs[k]->share(same == 3 ? r.vd : *vs[same]);
  }
  View *const in[4] = {&r.va, &r.vb, &r.vc, &r.vd};
  broadcast(fn, in, axis, r.p);
  if (!out.is_none()) {
    // out=d in place: d's view when d is an array (not a number or list
    // made into one) known to be writable
    if (out.is(d) && !r.vd.keep.is_valid() &&
        (r.vd.lib == kLibCupy || r.vd.lib == kLibTorch || (r.vd.from_buffer && !r.vd.readonly)))
      r.vo.share(r.vd);
    else
      parse_out_view(out, r.vo, fn);
    bind_out(fn, r.vo, r.p);
  }
}

namespace {

// Allocate x when out is None and point the problem at it.
nb::object make_x(const char *fn, nb::handle d, nb::handle out, Parsed &r) {
  if (!out.is_none()) return nb::borrow(out);
  nb::object x = new_array(r.vd, d, r.p.shape, r.p.rank, dtype_str(r.p.dtype));
  parse_out_view(x, r.vo, fn);
  bind_out(fn, r.vo, r.p);
  return x;
}

// check=True on the GPU: the info array of the last such call, reused by
// the next call of the same library, device and batch shape instead of a new
// allocation.  Its solve is over (the info was read back before it came
// back here), and a call takes it out of the slot while using it, so a
// concurrent call of another thread makes its own.
struct InfoSlot {
  nb::object arr;
  char *data = nullptr;
  int lib = 0, dev = 0, rank = 0;
  int64_t shape[kMaxRank] = {};
};

InfoSlot &info_slot() {
  static InfoSlot *s = new InfoSlot;  // emptied at exit (clear_caches) with the GIL held
  return *s;
}

bool slot_fits(const InfoSlot &s, const View &vd, const Problem &p) {
  if (!s.arr.is_valid() || s.lib != vd.lib || s.dev != p.dev_id || s.rank != p.batch_rank)
    return false;
  for (int j = 0; j < p.batch_rank; ++j)
    if (s.shape[j] != p.batch_shape[j]) return false;
  return true;
}

nb::object take_info(const View &vd, nb::handle d, const Problem &p, bool reuse, char **data) {
  InfoSlot &s = info_slot();
  if (reuse && slot_fits(s, vd, p)) {
    *data = s.data;
    return std::move(s.arr);
  }
  nb::object arr = new_array(vd, d, p.batch_shape, p.batch_rank, "int32");
  *data = new_array_data(vd.lib, arr);
  return arr;
}

void give_back_info(const View &vd, const Problem &p, nb::object arr, char *data) {
  InfoSlot &s = info_slot();
  s.arr = std::move(arr);
  s.data = data;
  s.lib = vd.lib;
  s.dev = p.dev_id;
  s.rank = p.batch_rank;
  for (int j = 0; j < p.batch_rank; ++j) s.shape[j] = p.batch_shape[j];
}

std::string dims_str(const int64_t *s, int n) {
  std::string r = "(";
  for (int j = 0; j < n; ++j)
    r += std::to_string(s[j]) + (j + 1 < n || n == 1 ? "," : "") + (j + 1 < n ? " " : "");
  return r + ")";
}

// A caller's info array (info=): int32, C-ordered, of the batch's shape, on
// the problem's device, writable.
void bind_info(const char *fn, nb::handle h, View &vi, const Problem &p) {
  parse_out_view(h, vi, fn, "info");
  if (vi.dtype != 0 || vi.dtype_name != "int32")
    throw nb::type_error(
        (std::string(fn) + ": info has dtype " + vi.dtype_name + "; it must be an int32 array")
            .c_str());
  bool same = vi.ndim == p.batch_rank;
  for (int j = 0; same && j < p.batch_rank; ++j) same = vi.shape[j] == p.batch_shape[j];
  if (!same)
    throw nb::value_error((std::string(fn) + ": info has shape " + vi.shape_str() +
                           " but the batch (the shape without the axis) is " +
                           dims_str(p.batch_shape, p.batch_rank))
                              .c_str());
  if (vi.on_gpu() != p.on_gpu() || (p.on_gpu() && vi.dev_id != p.dev_id))
    throw nb::value_error((std::string(fn) + ": info is on " + vi.device_name() + " but d is on " +
                           (p.on_gpu() ? "cuda:" + std::to_string(p.dev_id) : std::string("cpu")))
                              .c_str());
  int64_t step = 1;
  for (int j = vi.ndim - 1; j >= 0; --j) {
    if (vi.shape[j] > 1 && vi.strides[j] != step)
      throw nb::value_error((std::string(fn) + ": info must be C-contiguous").c_str());
    step *= vi.shape[j];
  }
}

// Execute `plan` on the parsed problem and return x, or (x, info) when check
// is false.  Breakdowns with check raise tridi.BreakdownError.  `info_arg`:
// the caller's info array, or None.
nb::object execute(const char *fn, const PlanPtr &plan, Parsed &r, nb::handle d, nb::object x,
                   bool check, nb::handle info_arg) {
  Problem &p = r.p;
  nb::object info_obj;
  int32_t *info = nullptr;
  // check=True on the host: the info array lives here, in a per-thread buffer
  // reused by small problems (no allocation per call) or a temporary one
  static thread_local std::vector<int32_t> scratch;
  constexpr size_t kKeep = size_t(1) << 18;  // systems whose info the buffer keeps (1 MiB)
  std::vector<int32_t> large;
  View vi;
  // the stream first: the pool of info arrays is kept per stream
  void *stream = p.on_gpu() && p.elems > 0 ? current_stream(r.vd, d) : nullptr;
  // the info array of a check=True GPU call is reused (CuPy and PyTorch only:
  // their read-back is known to wait for the solve)
  const bool given = !info_arg.is_none();
  const bool reuse =
      !given && p.on_gpu() && check && (r.vd.lib == kLibCupy || r.vd.lib == kLibTorch);
  char *data = nullptr;
  if (given) {
    bind_info(fn, info_arg, vi, p);
    info_obj = nb::borrow(info_arg);
    data = vi.data;
  } else if (p.on_gpu() || !check) {
    bool pooled = false;
    if (!check && p.on_gpu() && p.elems > 0)
      info_obj = pooled_info(r.vd, d, p.batch_shape, p.batch_rank, stream, &data, &pooled);
    if (!info_obj.is_valid()) info_obj = take_info(r.vd, d, p, reuse, &data);
    if (!data) {
      parse_out_view(info_obj, vi, fn);
      data = vi.data;
    }
  }
  if (data) {
    info = reinterpret_cast<int32_t *>(data);
  } else if (static_cast<size_t>(p.batch) <= kKeep) {
    if (scratch.size() < static_cast<size_t>(p.batch)) scratch.resize(static_cast<size_t>(p.batch));
    info = scratch.data();
  } else {
    large.resize(static_cast<size_t>(p.batch));
    info = large.data();
  }
  if (p.elems == 0) {
    // nothing to solve (tridi would touch nothing); systems of length 0 are solved
    if (p.batch > 0 && !info_obj.is_none() && !p.on_gpu())
      std::memset(info, 0, sizeof(int32_t) * static_cast<size_t>(p.batch));
    else if (p.batch > 0 && p.on_gpu())
      arrays_module().attr("fill_zero")(info_obj);
    if (check) return x;
    return nb::make_tuple(x, info_obj);
  }
  tridi_status st;
  {
    nb::gil_scoped_release release;
    st = tridi_execute(plan->plan, p.ptr[0], p.ptr[1], p.ptr[2], p.ptr[3], p.ptr[4], info, stream);
  }
  if (st != TRIDI_SUCCESS && !(is_breakdown(st) && !p.on_gpu())) raise_status(fn, st);
  if (p.on_gpu()) {
    if (!check) return nb::make_tuple(x, info_obj);
    arrays_module().attr("check_info")(fn, info_obj, p.axis);
    if (reuse) give_back_info(r.vd, p, std::move(info_obj), data);
    return x;
  }
  if (st != TRIDI_SUCCESS && check && given) {
    arrays_module().attr("raise_breakdown")(fn, info_obj, tridi_status_name(st), p.axis);
  } else if (st != TRIDI_SUCCESS && check) {
    nb::object host = new_array(r.vd, d, p.batch_shape, p.batch_rank, "int32");
    View vh;
    parse_out_view(host, vh, fn);
    std::memcpy(vh.data, info, sizeof(int32_t) * static_cast<size_t>(p.batch));
    vh.release();
    arrays_module().attr("raise_breakdown")(fn, host, tridi_status_name(st), p.axis);
  }
  if (check) return x;
  return nb::make_tuple(x, info_obj);
}

nb::object solve(nb::handle a, nb::handle b, nb::handle c, nb::handle d, int64_t axis,
                 nb::handle out, const PlanOptions &o, bool check, nb::handle info) {
  const char *fn = "tridi.solve";
  Parsed r;
  parse_all(fn, a, b, c, d, axis, out, r);
  nb::object x = make_x(fn, d, out, r);
  PlanPtr plan = cached_plan(fn, r.p, o);
  return execute(fn, plan, r, d, std::move(x), check, info);
}

// The keyword values of the fast entries, converted as Python would
// (operator.index, bool()); raise as the Python wrapper did.
int64_t index_arg(PyObject *v) {
  if (PyLong_CheckExact(v)) {
    const long long i = PyLong_AsLongLong(v);
    if (i == -1 && PyErr_Occurred()) throw nb::python_error();
    return i;
  }
  nb::object i = nb::steal(PyNumber_Index(v));
  if (!i.is_valid()) throw nb::python_error();
  const long long r = PyLong_AsLongLong(i.ptr());
  if (r == -1 && PyErr_Occurred()) throw nb::python_error();
  return r;
}

bool bool_arg(PyObject *v) {
  const int t = PyObject_IsTrue(v);
  if (t < 0) throw nb::python_error();
  return t != 0;
}

// Interned names of the parameters of tridi.solve and Plan.__call__.
struct ArgNames {
  PyObject *solve[11];  // a, b, c, d, axis, out, alg, pivot, check, info, assume_dominant
  PyObject *call[7];    // a, b, c, d, out, check, info
  PyObject *auto_;
};

const ArgNames &arg_names() {
  static ArgNames *n = nullptr;
  if (!n) {
    n = new ArgNames;
    const char *s[11] = {"a", "b", "c", "d", "axis", "out", "alg", "pivot", "check", "info",
                         "assume_dominant"};
    for (int i = 0; i < 11; ++i) n->solve[i] = intern(s[i]);
    const char *c[7] = {"a", "b", "c", "d", "out", "check", "info"};
    for (int i = 0; i < 7; ++i) n->call[i] = intern(c[i]);
    n->auto_ = intern("auto");
  }
  return *n;
}

// solve(a, b, c, d, *, axis=-1, out=None, alg="auto", pivot="auto",
// check=True, info=None, assume_dominant=False): tridi.solve itself, called
// by CPython directly.
PyObject *solve_fast(PyObject *, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  try {
    const ArgNames &n = arg_names();
    PyObject *v[11];
    if (!match_fast("solve", args, nargs, kwnames, n.solve, 11, 4, 4, v)) return nullptr;
    const char *fn = "tridi.solve";
    PlanOptions o;
    if (v[6] && v[6] != n.auto_) {
      if (!PyUnicode_Check(v[6]))
        throw nb::type_error((std::string(fn) + ": alg must be a str, got " +
                              nb::type_name(nb::handle(v[6]).type()).c_str())
                                 .c_str());
      const char *alg = PyUnicode_AsUTF8(v[6]);
      if (!alg) throw nb::python_error();
      o.alg = std::strcmp(alg, "auto") == 0 ? TRIDI_ALG_AUTO : alg_from_name(fn, alg);
    }
    if (v[7] && v[7] != n.auto_) {
      if (!PyUnicode_Check(v[7])) throw nb::type_error("tridi.solve: pivot must be str");
      const char *pivot = PyUnicode_AsUTF8(v[7]);
      if (!pivot) throw nb::python_error();
      o.pivot = pivot_from_name(fn, pivot);
    }
    const int64_t axis = v[4] ? index_arg(v[4]) : -1;
    const bool check = v[8] ? bool_arg(v[8]) : true;
    o.assume_dominant = v[10] ? bool_arg(v[10]) : false;
    const nb::handle none = nb::none();
    return solve(v[0], v[1], v[2], v[3], axis, v[5] ? nb::handle(v[5]) : none, o, check,
                 v[9] ? nb::handle(v[9]) : none)
        .release()
        .ptr();
  } catch (...) {
    return set_python_error();
  }
}

PyMethodDef solve_def = {"solve",
                         reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&solve_fast)),
                         METH_FASTCALL | METH_KEYWORDS,
                         "solve(a, b, c, d, *, axis=-1, out=None, alg='auto', pivot='auto', "
                         "check=True, info=None, assume_dominant=False)\n--\n\nCore of tridi.solve "
                         "(see its docstring)."};

// tridi.solve as a builtin of module `module` with the docstring `doc` (the
// package's own, kept in Python): the same C entry, no Python frame.
nb::object make_solve(const std::string &doc, const std::string &module) {
  static PyMethodDef *def = nullptr;  // one per process, never freed (functions refer to it)
  if (!def) {
    char *text = new char[doc.size() + 1];
    std::memcpy(text, doc.c_str(), doc.size() + 1);
    def = new PyMethodDef{solve_def.ml_name, solve_def.ml_meth, solve_def.ml_flags, text};
  }
  nb::str mod(module.c_str());
  return nb::steal(PyCFunction_NewEx(def, nullptr, mod.ptr()));
}

// ---- tridi.Plan ------------------------------------------------------------------

bool same_strides(const Problem &a, const int64_t (*s)[kMaxRank]) {
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
    for (int j = 0; j < a.rank; ++j)
      if (a.strides[k][j] != s[k][j]) return false;
  return true;
}

class Plan {
 public:
  Plan(nb::sequence shape, const std::string &dtype, int64_t axis, const std::string &alg,
       const std::string &pivot, const std::string &backend, int device, int threads,
       bool assume_dominant) {
    const char *fn = "tridi.Plan";
    const size_t rank = nb::len(shape);
    if (rank < 1 || rank > static_cast<size_t>(kMaxRank))
      throw nb::value_error(("tridi.Plan: shape must have 1 to " + std::to_string(kMaxRank) +
                             " extents, got " + std::to_string(rank)).c_str());
    if (dtype != "float32" && dtype != "float64")
      throw nb::type_error(("tridi.Plan: dtype must be float32 or float64, got " + dtype).c_str());
    p_.dtype = dtype == "float32" ? TRIDI_F32 : TRIDI_F64;
    p_.rank = static_cast<int>(rank);
    if (axis < -p_.rank || axis >= p_.rank)
      throw nb::value_error(("tridi.Plan: axis " + std::to_string(axis) + " is out of bounds for " +
                             std::to_string(rank) + " dimensions").c_str());
    p_.axis = static_cast<int>(axis < 0 ? axis + p_.rank : axis);
    p_.batch = 1;
    p_.elems = 1;
    for (int j = 0; j < p_.rank; ++j) {
      p_.shape[j] = nb::cast<int64_t>(shape[j]);
      if (p_.shape[j] < 0)
        throw nb::value_error(("tridi.Plan: shape[" + std::to_string(j) + "] = " +
                               std::to_string(p_.shape[j]) + " is negative").c_str());
      p_.elems *= p_.shape[j];
      if (j != p_.axis) {
        p_.batch *= p_.shape[j];
        p_.batch_shape[p_.batch_rank++] = p_.shape[j];
      }
    }
    o_.alg = alg == "auto" ? TRIDI_ALG_AUTO : alg_from_name(fn, alg.c_str());
    o_.pivot = pivot_from_name(fn, pivot.c_str());
    o_.backend = backend_from_name(fn, backend.c_str());
    if (o_.backend == TRIDI_BACKEND_AUTO) o_.backend = TRIDI_BACKEND_CPU;
    o_.device = device;
    o_.threads = threads;
    o_.assume_dominant = assume_dominant;
    if (threads < 0) throw nb::value_error("tridi.Plan: threads must be >= 0");
    p_.dev_type = o_.backend == TRIDI_BACKEND_CUDA ? kDevCUDA : kDevCPU;
    p_.dev_id = o_.backend == TRIDI_BACKEND_CUDA ? device : 0;
    // Until the first call binds the arrays' strides: all five operands packed in C order.
    int64_t s[kMaxRank];
    contiguous_strides(p_, s);
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k)
      for (int j = 0; j < p_.rank; ++j) p_.strides[k][j] = p_.shape[j] > 1 ? s[j] : 0;
    plan_ = make_plan(fn, p_, o_);
  }

  nb::object call(nb::handle a, nb::handle b, nb::handle c, nb::handle d, nb::handle out,
                  bool check, nb::handle info) {
    const char *fn = "tridi.Plan";
    Parsed r;
    parse_all(fn, a, b, c, d, p_.axis, out, r);
    Problem &p = r.p;
    bool same = p.rank == p_.rank;
    for (int j = 0; same && j < p.rank; ++j) same = p.shape[j] == p_.shape[j];
    if (!same)
      throw nb::value_error(("tridi.Plan: the plan is for shape " + p_.shape_str() +
                             " but the operands broadcast to " + p.shape_str()).c_str());
    if (p.dtype != p_.dtype)
      throw nb::type_error(("tridi.Plan: the plan is for " + std::string(dtype_str(p_.dtype)) +
                            " but the operands are " + dtype_str(p.dtype)).c_str());
    if (p.on_gpu() != p_.on_gpu() || (p.on_gpu() && p.dev_id != p_.dev_id))
      throw nb::value_error(("tridi.Plan: the plan runs on " +
                             std::string(tridi_backend_name((tridi_backend)o_.backend)) +
                             (p_.on_gpu() ? ":" + std::to_string(p_.dev_id) : std::string()) +
                             " but the operands are on " + r.vd.device_name()).c_str());
    nb::object x = make_x(fn, d, out, r);
    if (!same_strides(p, p_.strides)) {
      if (bound_) {
        static const char *names[5] = {"a", "b", "c", "d", "x"};
        std::string msg = "tridi.Plan: the operands' strides differ from those of the plan's first call:";
        for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) {
          bool eq = true;
          for (int j = 0; j < p.rank; ++j) eq = eq && p.strides[k][j] == p_.strides[k][j];
          if (!eq)
            msg += std::string(" ") + names[k] + " has " + dims_str(p.strides[k], p.rank) +
                   ", the plan " + dims_str(p_.strides[k], p.rank) + ";";
        }
        msg += " (strides in elements; make another Plan for another layout)";
        throw nb::value_error(msg.c_str());
      }
      PlanPtr fresh = make_plan(fn, p, o_);
      plan_ = std::move(fresh);
      std::memcpy(p_.strides, p.strides, sizeof p_.strides);
    }
    bound_ = true;
    return execute(fn, plan_, r, d, std::move(x), check, info);
  }

  tridi_plan_info info() const {
    tridi_plan_info i;
    std::memset(&i, 0, sizeof i);
    i.struct_size = sizeof i;
    const tridi_status st = tridi_plan_get_info(plan_->plan, &i);
    if (st) raise_status("tridi.Plan", st);
    return i;
  }
  std::string alg() const { return tridi_alg_name(info().alg); }
  std::string pivot() const { return tridi_pivot_name(info().pivot); }
  std::string backend() const { return tridi_backend_name(info().backend); }
  std::string kernel() const { const char *k = info().kernel; return k ? k : ""; }
  std::string selection() const { const char *s = info().selection; return s ? s : ""; }
  int threads() const { return info().num_threads; }
  size_t workspace_bytes() const {
    size_t n = 0;
    const tridi_status st = tridi_plan_workspace_size(plan_->plan, &n);
    if (st) raise_status("tridi.Plan", st);
    return n;
  }
  nb::tuple shape() const { return shape_tuple(p_.shape, p_.rank); }
  std::string dtype() const { return dtype_str(p_.dtype); }
  int axis() const { return p_.axis; }
  int64_t num_systems() const { return p_.batch; }
  bool bound() const { return bound_; }
  int device() const { return p_.dev_id; }
  nb::dict strides() const {
    static const char *names[5] = {"a", "b", "c", "d", "x"};
    nb::dict d;
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) d[names[k]] = shape_tuple(p_.strides[k], p_.rank);
    return d;
  }

 private:
  Problem p_;
  PlanOptions o_;
  PlanPtr plan_;
  bool bound_ = false;
};

// plan(a, b, c, d, out=None, check=True, info=None): the type's own call
// slot (CPython hands it the positional tuple and keyword dict directly).
PyObject *plan_tp_call(PyObject *self, PyObject *args, PyObject *kwargs) {
  try {
    const ArgNames &n = arg_names();
    PyObject *v[7];
    if (!match_tuple("__call__", args, kwargs, n.call, 7, 6, 4, v)) return nullptr;
    if (!nb::inst_ready(self)) throw nb::type_error("tridi.Plan: the plan is not initialised");
    const nb::handle none = nb::none();
    return nb::inst_ptr<Plan>(self)
        ->call(v[0], v[1], v[2], v[3], v[4] ? nb::handle(v[4]) : none, v[5] ? bool_arg(v[5]) : true,
               v[6] ? nb::handle(v[6]) : none)
        .release()
        .ptr();
  } catch (...) {
    return set_python_error();
  }
}

// What the extension reads from one array argument (for tests): data
// address, shape, strides in elements, dtype, DLPack device, read-only flag
// and the path it took.
nb::dict view_info(nb::handle h, bool out) {
  const char *fn = "tridi._tridi.view_info";
  View v;
  if (out)
    parse_out_view(h, v, fn);
  else
    parse_view(h, v, fn, "a", nullptr, nb::none());
  static const char *libs[] = {"dlpack", "buffer", "cupy", "torch"};
  nb::dict r;
  r["data"] = reinterpret_cast<uintptr_t>(v.data);
  r["shape"] = shape_tuple(v.shape, v.ndim);
  r["strides"] = shape_tuple(v.strides, v.ndim);
  r["dtype"] = v.dtype_name;
  r["device"] = nb::make_tuple(v.dev_type, v.dev_id);
  r["readonly"] = v.readonly;
  r["path"] = libs[v.lib];
  return r;
}

// The info array check=False takes from the pool for an operand d, a batch
// shape and a stream handle (for tests): (array, reused), or None where the
// pool does not apply to d's library.
nb::object info_from_pool(nb::handle d, nb::sequence shape, uintptr_t stream) {
  View v;
  parse_view(d, v, "tridi._tridi.info_from_pool", "d", nullptr, nb::none());
  int64_t s[kMaxRank];
  const int n = static_cast<int>(nb::len(shape));
  if (n > kMaxRank) too_many_dims("tridi._tridi.info_from_pool", "shape", n);
  for (int j = 0; j < n; ++j) s[j] = nb::cast<int64_t>(shape[j]);
  char *data = nullptr;
  bool reused = false;
  nb::object arr = pooled_info(v, d, s, n, reinterpret_cast<void *>(stream), &data, &reused);
  if (!arr.is_valid()) return nb::none();
  return nb::make_tuple(arr, reused);
}

// Everything cached that holds Python objects or device memory: the plans,
// the reused info arrays, what is known about CuPy and PyTorch.  At
// interpreter exit, while the CUDA runtime and the array libraries are up.
void clear_caches() {
  clear_plan_cache();
  info_slot().arr = nb::object();
  clear_info_pool();
  clear_library_cache();
}

nb::dict build_info() {
  nb::dict d;
  int ma = 0, mi = 0, pa = 0;
  tridi_version(&ma, &mi, &pa);
  d["version"] = std::to_string(ma) + "." + std::to_string(mi) + "." + std::to_string(pa);
  d["cuda"] = tridi_backend_available(TRIDI_BACKEND_CUDA) != 0;
  d["cpu_simd"] = tridi_simd_name(tridi_cpu_simd_detect());
  nb::list algs;
  for (int a = TRIDI_ALG_AUTO; a <= TRIDI_ALG_LU_PARTIAL; ++a) algs.append(tridi_alg_name((tridi_alg)a));
  d["algorithms"] = algs;
  return d;
}

}  // namespace

}  // namespace tridipy

NB_MODULE(_tridi, m) {
  using namespace tridipy;
  namespace nb = nanobind;
  m.doc() = "tridi's compiled core (use the functions of the tridi package).";
  {
    nb::object f = nb::steal(PyCFunction_NewEx(&solve_def, nullptr, m.attr("__name__").ptr()));
    if (!f.is_valid()) throw nb::python_error();
    m.attr("solve") = f;
  }
  m.def("make_solve", &make_solve, nb::arg("doc"), nb::arg("module"),
        "tridi.solve: the core's solve with the package's docstring.");
  m.def("time_execute", &time_execute, nb::arg("a"), nb::arg("b"), nb::arg("c"), nb::arg("d"),
        nb::arg("out").none(), nb::arg("axis"), nb::arg("alg"), nb::arg("reps"),
        "Seconds for reps tridi_execute calls in one C loop (benchmark helper).");
  m.def("build_info", &build_info, "Version, CUDA availability, SIMD level and algorithm names.");
  m.def("backend_available", [](const std::string &name) {
    return tridi_backend_available((tridi_backend)backend_from_name("tridi.backend_available", name.c_str())) != 0;
  }, nb::arg("name"));
  m.def("clear_plan_cache", &clear_plan_cache, "Destroy the plans cached by tridi.solve.");
  m.def("view_info", &view_info, nb::arg("a"), nb::arg("out") = false,
        "What the extension reads from one array argument (for tests).");
  m.def("info_from_pool", &info_from_pool, nb::arg("d"), nb::arg("shape"), nb::arg("stream"),
        "The info array check=False would take from the pool (for tests).");
  m.def("clear_caches", &clear_caches,
        "Drop the cached plans, the reused info array and the array-library lookups (at exit).");
  m.def("overhead_steps", &overhead_steps, nb::arg("a"), nb::arg("b"), nb::arg("c"), nb::arg("d"),
        nb::arg("out"), nb::arg("axis"), nb::arg("reps"),
        "Seconds per call of each step of tridi.solve on these arrays (benchmark helper).");
  m.def("plan_cache_size", &plan_cache_size, "Number of plans cached by tridi.solve.");

  static PyType_Slot plan_slots[] = {{Py_tp_call, reinterpret_cast<void *>(&plan_tp_call)},
                                     {0, nullptr}};
  nb::class_<Plan>(m, "Plan", "Core of tridi.Plan (see its docstring).", nb::type_slots(plan_slots))
      .def(nb::init<nb::sequence, const std::string &, int64_t, const std::string &,
                    const std::string &, const std::string &, int, int, bool>(),
           nb::arg("shape"), nb::arg("dtype"), nb::arg("axis"), nb::arg("alg"), nb::arg("pivot"),
           nb::arg("backend"), nb::arg("device"), nb::arg("threads"), nb::arg("assume_dominant"))
      .def_prop_ro("alg", &Plan::alg)
      .def_prop_ro("pivot", &Plan::pivot)
      .def_prop_ro("backend", &Plan::backend)
      .def_prop_ro("kernel", &Plan::kernel)
      .def_prop_ro("selection", &Plan::selection)
      .def_prop_ro("threads", &Plan::threads)
      .def_prop_ro("workspace_bytes", &Plan::workspace_bytes)
      .def_prop_ro("shape", &Plan::shape)
      .def_prop_ro("dtype", &Plan::dtype)
      .def_prop_ro("axis", &Plan::axis)
      .def_prop_ro("device", &Plan::device)
      .def_prop_ro("num_systems", &Plan::num_systems)
      .def_prop_ro("bound", &Plan::bound)
      .def_prop_ro("strides", &Plan::strides);
}
