// CuPy and PyTorch spoken to directly (see views.h): their arrays read
// through their attributes, new arrays and the current CUDA stream obtained
// by calling the library's own functions from here.  This is the per-call
// path of tridi.solve on GPU arrays, so everything looked up by name is
// looked up once: the array types, the dtype objects, the functions, the
// attribute names (interned strings).  A library that is not imported, or
// whose attributes do not look as expected, is handled by the generic path
// (DLPack, tridi._arrays) exactly as before.
#include <cstring>

#include "views.h"

namespace tridipy {

namespace {

// Interned attribute names.
struct Names {
  PyObject *dtype, *shape, *strides, *data, *ptr, *device_id, *data_ptr, *stride, *is_cuda, *is_cpu,
      *requires_grad, *is_neg, *get_device, *new_empty, *mem, *c_contiguous;
};

const Names &names() {
  static Names *n = nullptr;
  if (!n) {
    auto s = [](const char *v) {
      PyObject *o = PyUnicode_InternFromString(v);
      if (!o) throw nb::python_error();
      return o;  // kept for the life of the process
    };
    n = new Names{s("dtype"),      s("shape"),     s("strides"),       s("data"),
                  s("ptr"),        s("device_id"), s("data_ptr"),      s("stride"),
                  s("is_cuda"),    s("is_cpu"),    s("requires_grad"), s("is_neg"),
                  s("get_device"), s("new_empty"), s("mem"),           s("_c_contiguous")};
  }
  return *n;
}

// What is known about each library: 0 not looked up yet (or not imported
// when last looked), 1 ready, -1 unusable (the generic path is taken).
struct Cache {
  int np_state = 0;
  nb::object np_empty, np_f32, np_f64, np_i32;
  int cp_state = 0;
  nb::object cp_ndarray, cp_get_stream, cp_get_device;
  bool cp_has_contiguous = false;  // cupy.ndarray._c_contiguous exists
  int th_state = 0;
  nb::object th_tensor, th_f32, th_f64, th_i32, th_raw_stream;  // th_raw_stream may be None
};

Cache &cache() {
  static Cache *c = new Cache;  // never destroyed: cleared at exit with the GIL held
  return *c;
}

// Attribute reads of the per-call path, through the attribute's descriptor
// found once per type and name: CPython's generic getattr looks the name up
// along the type's MRO on every read (a cache probe and checks) before it
// calls the same descriptor.  Only data descriptors (properties, Cython's
// getsets and members: nothing in an instance's __dict__ can shadow them) of
// types that do not override __getattribute__; the entry is refreshed when
// the type's version tag changes (any change to the type or its bases).
// Everything else goes the generic way.
struct AttrEntry {
  nb::object type, descr;  // descr invalid: the generic getattr
  PyObject *name = nullptr;
  unsigned int version = 0;
};

constexpr size_t kAttrEntries = 64;

struct AttrCache {
  AttrEntry e[kAttrEntries];
  PyObject *getattribute = nullptr, *object_getattribute = nullptr;  // immortal enough: kept
};

AttrCache &attr_cache() {
  static AttrCache *c = new AttrCache;  // emptied at exit with the GIL held
  return *c;
}

#if PY_VERSION_HEX < 0x030F0000 && !defined(Py_LIMITED_API) && !defined(Py_GIL_DISABLED)
#define TRIDI_FAST_ATTRS 1
#endif

// getattr that reports a failure as an invalid object (the error cleared).
nb::object get(PyObject *o, PyObject *name) {
#ifdef TRIDI_FAST_ATTRS
  PyTypeObject *tp = Py_TYPE(o);
  AttrCache &c = attr_cache();
  const size_t h =
      ((reinterpret_cast<uintptr_t>(tp) >> 4) * 31u + (reinterpret_cast<uintptr_t>(name) >> 4)) %
      kAttrEntries;
  AttrEntry &e = c.e[h];
  if (e.type.ptr() != reinterpret_cast<PyObject *>(tp) || e.name != name ||
      e.version != tp->tp_version_tag || e.version == 0) {
    if (!c.getattribute) {
      c.getattribute = PyUnicode_InternFromString("__getattribute__");
      if (!c.getattribute)
        PyErr_Clear();
      else
        c.object_getattribute = _PyType_Lookup(&PyBaseObject_Type, c.getattribute);
    }
    e = AttrEntry();
    PyObject *d = c.object_getattribute ? _PyType_Lookup(tp, name) : nullptr;
    const bool plain = d && _PyType_Lookup(tp, c.getattribute) == c.object_getattribute;
    if (plain && Py_TYPE(d)->tp_descr_get && Py_TYPE(d)->tp_descr_set) e.descr = nb::borrow(d);
    e.type = nb::borrow(reinterpret_cast<PyObject *>(tp));
    e.name = name;
    e.version = tp->tp_version_tag;  // after the lookups, which give the type one
  }
  if (e.descr.is_valid()) {
    PyObject *r =
        Py_TYPE(e.descr.ptr())->tp_descr_get(e.descr.ptr(), o, reinterpret_cast<PyObject *>(tp));
    if (r) return nb::steal(r);
    PyErr_Clear();  // the generic way decides (a __getattr__ may answer)
  }
#endif
  PyObject *r = PyObject_GetAttr(o, name);
  if (!r) PyErr_Clear();
  return nb::steal(r);
}

// o.name() with no arguments, a failure as an invalid object.
nb::object call0(PyObject *o, PyObject *name) {
  PyObject *r = PyObject_CallMethodNoArgs(o, name);
  if (!r) PyErr_Clear();
  return nb::steal(r);
}

PyObject *loaded_module(const char *name) {  // borrowed; null when not imported
  PyObject *m = PyDict_GetItemString(PyImport_GetModuleDict(), name);
  return m;
}

Cache &numpy_ready() {
  Cache &c = cache();
  if (c.np_state == 0) {
    nb::module_ m = nb::module_::import_("numpy");
    nb::object dt = m.attr("dtype");
    c.np_empty = m.attr("empty");
    c.np_f32 = dt("float32");
    c.np_f64 = dt("float64");
    c.np_i32 = dt("int32");
    c.np_state = 1;
  }
  return c;
}

bool cupy_ready() {
  Cache &c = cache();
  if (c.cp_state != 0) return c.cp_state > 0;
  PyObject *m = loaded_module("cupy");
  if (!m) return false;  // looked up again when the next foreign array comes
  try {
    numpy_ready();
    nb::handle cp(m);
    nb::object nd = cp.attr("ndarray");
    if (!PyType_Check(nd.ptr())) throw nb::type_error("cupy.ndarray is not a type");
    nb::object cuda = cp.attr("cuda");
    c.cp_get_stream = cuda.attr("get_current_stream");
    c.cp_get_device = cuda.attr("runtime").attr("getDevice");
    c.cp_has_contiguous = nb::hasattr(nd, "_c_contiguous");
    c.cp_ndarray = nd;
    c.cp_state = 1;
  } catch (const nb::python_error &) {
    c.cp_state = -1;
  }
  return c.cp_state > 0;
}

bool torch_ready() {
  Cache &c = cache();
  if (c.th_state != 0) return c.th_state > 0;
  PyObject *m = loaded_module("torch");
  if (!m) return false;
  try {
    nb::handle th(m);
    nb::object t = th.attr("Tensor");
    if (!PyType_Check(t.ptr())) throw nb::type_error("torch.Tensor is not a type");
    c.th_f32 = th.attr("float32");
    c.th_f64 = th.attr("float64");
    c.th_i32 = th.attr("int32");
    // torch.cuda.current_stream(dev).cuda_stream builds a Stream object in
    // Python; the raw handle comes from the C function behind it (what
    // torch's own compiler calls).  Absent: the Python helper is used.
    c.th_raw_stream = nb::none();
    nb::object cc = th.attr("_C");
    if (nb::hasattr(cc, "_cuda_getCurrentRawStream"))
      c.th_raw_stream = cc.attr("_cuda_getCurrentRawStream");
    c.th_tensor = t;
    c.th_state = 1;
  } catch (const nb::python_error &) {
    c.th_state = -1;
  }
  return c.th_state > 0;
}

bool as_int64(PyObject *o, int64_t &out) {
  const long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  out = v;
  return true;
}

// Shape and strides from two tuples (strides in units of `unit` bytes: the
// element size for CuPy's byte strides, 1 for PyTorch's element strides),
// or from the shape alone for an array known to be C-contiguous (strides
// null).  False for anything unexpected (the generic path then reads the
// array).
bool fill_layout(View &v, PyObject *shape, PyObject *strides, int64_t unit, const char *fn,
                 const char *name) {
  if (!shape || !PyTuple_Check(shape) || (strides && !PyTuple_Check(strides))) return false;
  const Py_ssize_t nd = PyTuple_GET_SIZE(shape);
  if (strides && PyTuple_GET_SIZE(strides) != nd) return false;
  if (nd > kMaxRank) too_many_dims(fn, name, static_cast<int>(nd));
  v.ndim = static_cast<int>(nd);
  if (!strides) {
    int64_t step = 1;
    for (int i = v.ndim - 1; i >= 0; --i) {
      int64_t e = 0;
      if (!as_int64(PyTuple_GET_ITEM(shape, i), e)) return false;
      v.shape[i] = e;
      v.strides[i] = e > 1 ? step : 0;
      step *= e > 0 ? e : 1;
    }
    return true;
  }
  for (int i = 0; i < v.ndim; ++i) {
    int64_t e = 0, s = 0;
    if (!as_int64(PyTuple_GET_ITEM(shape, i), e) || !as_int64(PyTuple_GET_ITEM(strides, i), s))
      return false;
    v.shape[i] = e;
    if (unit > 1 && s % unit != 0 && e > 1)
      throw nb::value_error((std::string(fn) + ": " + name + " has a stride of " +
                             std::to_string(s) + " bytes along dimension " + std::to_string(i) +
                             ", not a multiple of its element size " + std::to_string(unit) +
                             " (tridi strides count elements); pass a copy")
                                .c_str());
    v.strides[i] = e > 1 ? s / unit : 0;
  }
  return true;
}

// A float32/float64 CuPy array (or int32: the info array): dtype, shape,
// strides (bytes, signed: the sign is right here, unlike in CuPy 14's DLPack
// export), data.ptr and data.device_id.  CuPy arrays are always writable.
bool view_from_cupy(PyObject *o, View &v, const char *fn, const char *name) {
  const Names &n = names();
  Cache &c = cache();
  nb::object dt = get(o, n.dtype);
  if (!dt.is_valid()) return false;
  int64_t item = 0;
  // NumPy's dtypes of native byte order are singletons: compared by identity
  // first, by NumPy's (exact) equality where an array holds another instance
  auto same = [&](const nb::object &want) {
    if (dt.is(want)) return true;
    const int eq = PyObject_RichCompareBool(dt.ptr(), want.ptr(), Py_EQ);
    if (eq < 0) PyErr_Clear();
    return eq > 0;
  };
  if (same(c.np_f64)) {
    v.dtype = TRIDI_F64, v.dtype_name = "float64", item = 8;
  } else if (same(c.np_f32)) {
    v.dtype = TRIDI_F32, v.dtype_name = "float32", item = 4;
  } else if (same(c.np_i32)) {
    v.dtype = 0, v.dtype_name = "int32", item = 4;  // the info array; refused as an operand
  } else {
    return false;  // other dtypes: the generic path names them
  }
  nb::object mem = get(o, n.data);
  if (!mem.is_valid()) return false;
  nb::object ptr = get(mem.ptr(), n.ptr), dev = get(mem.ptr(), n.device_id);
  nb::object shape = get(o, n.shape), strides;
  // CuPy's own C-contiguity flag (a bool, nothing made): a C-contiguous
  // array's strides follow from its shape, and the strides tuple is not made
  nb::object contiguous;
  if (c.cp_has_contiguous) contiguous = get(o, n.c_contiguous);
  if (!contiguous.is(nb::handle(Py_True))) {
    strides = get(o, n.strides);
    if (!strides.is_valid()) return false;
  }
  int64_t dev_id = 0;
  if (!ptr.is_valid() || !dev.is_valid() || !as_int64(dev.ptr(), dev_id)) return false;
  void *data = PyLong_AsVoidPtr(ptr.ptr());
  if (!data && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  if (!fill_layout(v, shape.ptr(), strides.is_valid() ? strides.ptr() : nullptr, item, fn, name))
    return false;
  v.data = static_cast<char *>(data);
  v.dev_type = kDevCUDA;
  v.dev_id = static_cast<int>(dev_id);
  v.readonly = false;
  v.from_buffer = false;
  v.lib = kLibCupy;
  return true;
}

// A float32/float64 PyTorch tensor (or int32: the info array) on the CPU or
// a CUDA device that does not require grad and has no negation bit: dtype,
// data_ptr(), shape, stride() (elements).  Others (and sparse tensors, whose
// stride() raises) go the generic way, which refuses or handles them as
// before.
bool view_from_torch(PyObject *o, View &v, const char *fn, const char *name) {
  const Names &n = names();
  Cache &c = cache();
  nb::object dt = get(o, n.dtype);
  if (!dt.is_valid()) return false;
  if (dt.is(c.th_f64)) {
    v.dtype = TRIDI_F64, v.dtype_name = "float64";
  } else if (dt.is(c.th_f32)) {
    v.dtype = TRIDI_F32, v.dtype_name = "float32";
  } else if (dt.is(c.th_i32)) {
    v.dtype = 0, v.dtype_name = "int32";  // the info array; refused as an operand
  } else {
    return false;
  }
  nb::object rg = get(o, n.requires_grad);
  if (!rg.is_valid() || !rg.is(nb::handle(Py_False))) return false;
  nb::object neg = call0(o, n.is_neg);
  if (neg.is_valid() && !neg.is(nb::handle(Py_False))) return false;
  nb::object cuda = get(o, n.is_cuda);
  if (!cuda.is_valid()) return false;
  int64_t dev_id = 0;
  if (cuda.is(nb::handle(Py_True))) {
    nb::object dev = call0(o, n.get_device);
    if (!dev.is_valid() || !as_int64(dev.ptr(), dev_id)) return false;
    v.dev_type = kDevCUDA;
  } else {
    nb::object cpu = get(o, n.is_cpu);
    if (!cpu.is_valid() || !cpu.is(nb::handle(Py_True))) return false;  // mps, meta, ...
    v.dev_type = kDevCPU;
  }
  nb::object ptr = call0(o, n.data_ptr);
  nb::object shape = get(o, n.shape), strides = call0(o, n.stride);
  if (!ptr.is_valid() || !strides.is_valid()) return false;
  void *data = PyLong_AsVoidPtr(ptr.ptr());
  if (!data && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  if (!fill_layout(v, shape.ptr(), strides.ptr(), 1, fn, name)) return false;
  v.data = static_cast<char *>(data);
  v.dev_id = static_cast<int>(dev_id);
  v.readonly = false;
  v.from_buffer = false;
  v.lib = kLibTorch;
  return true;
}

}  // namespace

bool view_from_library(nb::handle h, View &v, const char *fn, const char *name) {
  PyObject *o = h.ptr();
  if (cupy_ready() &&
      PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject *>(cache().cp_ndarray.ptr())))
    return view_from_cupy(o, v, fn, name);
  if (torch_ready() &&
      PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject *>(cache().th_tensor.ptr())))
    return view_from_torch(o, v, fn, name);
  return false;
}

nb::tuple shape_tuple(const int64_t *shape, int n) {
  PyObject *t = PyTuple_New(n);
  if (!t) throw nb::python_error();
  for (int i = 0; i < n; ++i) {
    PyObject *e = PyLong_FromLongLong(shape[i]);
    if (!e) {
      Py_DECREF(t);
      throw nb::python_error();
    }
    PyTuple_SET_ITEM(t, i, e);
  }
  return nb::steal<nb::tuple>(t);
}

nb::object new_array(const View &like, nb::handle like_obj, const int64_t *shape, int n,
                     const char *dtype) {
  const bool i32 = std::strcmp(dtype, "int32") == 0, f32 = std::strcmp(dtype, "float32") == 0;
  if (like.from_buffer) {
    Cache &c = numpy_ready();
    return c.np_empty(shape_tuple(shape, n), i32 ? c.np_i32 : f32 ? c.np_f32 : c.np_f64);
  }
  nb::handle obj = like.keep.is_valid() ? nb::handle(like.keep) : like_obj;
  Cache &c = cache();
  if (like.lib == kLibCupy && c.cp_state > 0) {
    // cupy.ndarray(shape, dtype) allocates on the current device: made here
    // when that is the operand's, else with it made current by the helper
    const int64_t cur = nb::cast<int64_t>(c.cp_get_device());
    if (cur == like.dev_id)
      return c.cp_ndarray(shape_tuple(shape, n), i32 ? c.np_i32 : f32 ? c.np_f32 : c.np_f64);
  } else if (like.lib == kLibTorch && c.th_state > 0) {
    // on the operand's device, not requiring grad
    return obj.attr(names().new_empty)(shape_tuple(shape, n), nb::arg("dtype") = i32   ? c.th_i32
                                                                                 : f32 ? c.th_f32
                                                                                       : c.th_f64);
  }
  return arrays_module().attr("empty")(obj, shape_tuple(shape, n), dtype);
}

char *new_array_data(int lib, nb::handle arr) {
  const Names &n = names();
  nb::object ptr;
  if (lib == kLibCupy) {
    nb::object mem = get(arr.ptr(), n.data);
    if (mem.is_valid()) ptr = get(mem.ptr(), n.ptr);
  } else if (lib == kLibTorch) {
    ptr = call0(arr.ptr(), n.data_ptr);
  }
  if (!ptr.is_valid()) return nullptr;
  void *p = PyLong_AsVoidPtr(ptr.ptr());
  if (!p && PyErr_Occurred()) PyErr_Clear();
  return static_cast<char *>(p);
}

namespace {

struct PoolSlot {
  nb::object arr;
  char *data = nullptr;
  void *stream = nullptr;
  int dev = 0, rank = 0;
  int64_t shape[kMaxRank] = {};
};

// A few arrays: a loop that keeps the previous call's info while making the
// next call (x, info = tridi.solve(...)) alternates between two of them.
constexpr int kPoolSize = 4;

struct InfoPool {
  PoolSlot slot[kPoolSize];
  int next = 0;              // the slot a new array replaces
  nb::object weakref_count;  // weakref.getweakrefcount
};

InfoPool &info_pool() {
  static InfoPool *p = new InfoPool;  // emptied at exit with the GIL held
  return *p;
}

// Whether only the pool refers to the slot's array (and its memory), and
// its shape is still the slot's.
bool unreferenced(InfoPool &pool, const PoolSlot &s) {
  PyObject *o = s.arr.ptr();
  if (Py_REFCNT(o) != 1) return false;
  const Names &n = names();
  nb::object mp = get(o, n.data);  // the MemoryPointer: the array's reference and ours
  if (!mp.is_valid() || Py_REFCNT(mp.ptr()) != 2) return false;
  nb::object mem = get(mp.ptr(), n.mem);  // the memory: the pointer's reference and ours
  if (!mem.is_valid() || Py_REFCNT(mem.ptr()) != 2) return false;
  // weak references: the type's weak-reference list when it has one at a
  // fixed offset (CuPy's Cython type: null when there are none), else asked
  const Py_ssize_t wl = Py_TYPE(o)->tp_weaklistoffset;
  if (wl > 0) {
    if (*reinterpret_cast<PyObject **>(reinterpret_cast<char *>(o) + wl) != nullptr) return false;
  } else if (wl < 0) {
    if (!pool.weakref_count.is_valid())
      pool.weakref_count = nb::module_::import_("weakref").attr("getweakrefcount");
    PyObject *wr = PyObject_CallOneArg(pool.weakref_count.ptr(), o);
    const long nwr = wr ? PyLong_AsLong(wr) : -1;
    Py_XDECREF(wr);
    if (nwr != 0) {
      PyErr_Clear();
      return false;
    }
  }
  nb::object shape = get(o, n.shape);  // CuPy lets an array be reshaped in place
  if (!shape.is_valid() || !PyTuple_Check(shape.ptr()) || PyTuple_GET_SIZE(shape.ptr()) != s.rank)
    return false;
  for (int j = 0; j < s.rank; ++j) {
    int64_t e = 0;
    if (!as_int64(PyTuple_GET_ITEM(shape.ptr(), j), e) || e != s.shape[j]) return false;
  }
  return true;
}

}  // namespace

nb::object pooled_info(const View &vd, nb::handle d, const int64_t *shape, int n, void *stream,
                       char **data, bool *reused) {
  *reused = false;
#ifdef Py_GIL_DISABLED
  return nb::object();  // reference counts are not exact without the GIL
#endif
  if (vd.lib != kLibCupy || cache().cp_state <= 0) return nb::object();
  InfoPool &pool = info_pool();
  for (PoolSlot &s : pool.slot) {
    bool fits = s.arr.is_valid() && s.dev == vd.dev_id && s.stream == stream && s.rank == n;
    for (int j = 0; fits && j < n; ++j) fits = s.shape[j] == shape[j];
    if (fits && unreferenced(pool, s)) {
      *data = s.data;
      *reused = true;
      return s.arr;  // a new reference: the caller's
    }
  }
  nb::object arr = new_array(vd, d, shape, n, "int32");
  char *p = new_array_data(kLibCupy, arr);
  if (!p) return nb::object();  // not a CuPy array after all: not pooled
  PoolSlot &s = pool.slot[pool.next];
  pool.next = (pool.next + 1) % kPoolSize;
  s.arr = arr;
  s.data = p;
  s.stream = stream;
  s.dev = vd.dev_id;
  s.rank = n;
  for (int j = 0; j < n; ++j) s.shape[j] = shape[j];
  *data = p;
  return arr;
}

void clear_info_pool() {
  InfoPool &pool = info_pool();
  for (PoolSlot &s : pool.slot) s.arr = nb::object();
  pool.weakref_count = nb::object();
}

void *current_stream(const View &vd, nb::handle d) {
  Cache &c = cache();
  nb::object s;
  try {
    if (vd.lib == kLibCupy && c.cp_state > 0) {
      // CuPy's current stream is per thread and per device
      s = c.cp_get_stream(vd.dev_id).attr(names().ptr);
    } else if (vd.lib == kLibTorch && c.th_state > 0 && !c.th_raw_stream.is_none()) {
      s = c.th_raw_stream(vd.dev_id);
    }
  } catch (const nb::python_error &) {
    s = nb::object();  // the helper below asks the library the documented way
  }
  if (!s.is_valid())
    s = arrays_module().attr("cuda_stream")(vd.keep.is_valid() ? nb::handle(vd.keep) : d);
  void *p = PyLong_AsVoidPtr(s.ptr());
  if (!p && PyErr_Occurred()) throw nb::python_error();
  return p;
}

void clear_library_cache() {
  Cache &c = cache();
  c = Cache();
  for (AttrEntry &e : attr_cache().e) e = AttrEntry();
}

}  // namespace tridipy
