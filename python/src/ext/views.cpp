// Array views from Python objects (see views.h).
#include "views.h"

#include <cfloat>
#include <cmath>
#include <cstring>

namespace tridipy {

nb::module_ &arrays_module() {
  // Imported on first use: tridi/__init__.py imports the extension first.
  static nb::module_ *mod = nullptr;
  if (!mod) mod = new nb::module_(nb::module_::import_("tridi._arrays"));
  return *mod;
}

const char *dtype_str(int dtype) {
  return dtype == TRIDI_F32 ? "float32" : dtype == TRIDI_F64 ? "float64" : "?";
}

std::string View::device_name() const {
  switch (dev_type) {
    case kDevCPU: return "cpu";
    case kDevCUDAHost: return "cpu (pinned)";
    case kDevCUDA: return "cuda:" + std::to_string(dev_id);
    case kDevCUDAManaged: return "cuda:" + std::to_string(dev_id) + " (managed)";
    default: return "DLPack device type " + std::to_string(dev_type);
  }
}

std::string View::shape_str() const {
  std::string s = "(";
  for (int i = 0; i < ndim; ++i) {
    s += std::to_string(shape[i]);
    if (ndim == 1 || i + 1 < ndim) s += ",";
    if (i + 1 < ndim) s += " ";
  }
  return s + ")";
}

static bool host_little_endian() {
  const uint16_t one = 1;
  unsigned char c;
  std::memcpy(&c, &one, 1);
  return c == 1;
}

// Element type from a buffer-protocol format string (struct module syntax).
static void dtype_from_format(const char *format, Py_ssize_t itemsize, View &v) {
  const char *f = format ? format : "B";
  bool swapped = false;
  if (*f == '@' || *f == '=') {
    ++f;
  } else if (*f == '<') {
    swapped = !host_little_endian();
    ++f;
  } else if (*f == '>' || *f == '!') {
    swapped = host_little_endian();
    ++f;
  }
  const std::string code = f;
  const std::string bits = std::to_string(8 * itemsize);
  v.dtype = 0;
  if (code == "f" && itemsize == 4) {
    v.dtype = TRIDI_F32;
    v.dtype_name = "float32";
  } else if (code == "d" && itemsize == 8) {
    v.dtype = TRIDI_F64;
    v.dtype_name = "float64";
  } else if (code == "e") {
    v.dtype_name = "float16";
  } else if (code == "g") {
    v.dtype_name = "longdouble";
  } else if (code == "Zf" || code == "Zd" || code == "Zg") {
    v.dtype_name = "complex" + bits;
  } else if (code == "?") {
    v.dtype_name = "bool";
  } else if (code.size() == 1 && std::strchr("bhilqn", code[0])) {
    v.dtype_name = "int" + bits;
  } else if (code.size() == 1 && std::strchr("BHILQN", code[0])) {
    v.dtype_name = "uint" + bits;
  } else {
    v.dtype_name = "'" + std::string(format ? format : "") + "'";
  }
  if (swapped) {
    v.dtype = 0;
    v.dtype_name += " (non-native byte order)";
  }
}

static std::string dlpack_dtype_name(nb::dlpack::dtype t) {
  static const char *codes[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  std::string s = t.code < 7 ? codes[t.code] : "code" + std::to_string(t.code);
  if (t.code != 6) s += std::to_string(t.bits);
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

[[noreturn]] void too_many_dims(const char *fn, const char *name, int ndim) {
  throw nb::value_error((std::string(fn) + ": " + name + " has " + std::to_string(ndim) +
                         " dimensions; tridi solves arrays of at most " +
                         std::to_string(kMaxRank))
                            .c_str());
}

static bool view_from_buffer(nb::handle h, View &v, const char *fn, const char *name) {
  if (PyObject_GetBuffer(h.ptr(), &v.buf, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();  // e.g. a dtype the buffer protocol cannot express: try DLPack
    return false;
  }
  v.has_buf = true;
  v.from_buffer = true;
  v.lib = kLibNumpy;
  v.readonly = v.buf.readonly != 0;
  v.data = static_cast<char *>(v.buf.buf);
  v.dev_type = kDevCPU;
  v.dev_id = 0;
  dtype_from_format(v.buf.format, v.buf.itemsize, v);
  if (v.buf.ndim > kMaxRank) too_many_dims(fn, name, v.buf.ndim);
  v.ndim = v.buf.ndim;
  const Py_ssize_t item = v.buf.itemsize > 0 ? v.buf.itemsize : 1;
  for (int i = 0; i < v.ndim; ++i) {
    v.shape[i] = v.buf.shape[i];
    const Py_ssize_t s = v.buf.strides ? v.buf.strides[i] : 0;
    if (s % item != 0 && v.shape[i] > 1)
      throw nb::value_error((std::string(fn) + ": " + name + " has a stride of " +
                             std::to_string(s) + " bytes along dimension " + std::to_string(i) +
                             ", not a multiple of its element size " + std::to_string(item) +
                             " (tridi strides count elements); pass a copy")
                                .c_str());
    v.strides[i] = v.shape[i] > 1 ? static_cast<int64_t>(s / item) : 0;
  }
  return true;
}

// CuPy before the fix of cupy/cupy#10172 (2026-08) exports a negative
// stride through DLPack as (stride + 2^64) / itemsize: a magnitude of 2^60
// or more (no array has one).  Such strides are taken from the object's
// __cuda_array_interface__ (byte strides, signed) instead; an object without
// one keeps them, and the plan then refuses them as an overflow.
static void fix_exported_strides(nb::handle h, View &v, size_t item) {
  bool odd = false;
  for (int i = 0; i < v.ndim; ++i)
    odd = odd || v.strides[i] >= (int64_t(1) << 60) || v.strides[i] <= -(int64_t(1) << 60);
  if (!odd || item == 0 || !nb::hasattr(h, "__cuda_array_interface__")) return;
  try {
    nb::dict cai = nb::cast<nb::dict>(h.attr("__cuda_array_interface__"));
    if (!cai.contains("strides") || cai["strides"].is_none()) return;
    nb::tuple st = nb::cast<nb::tuple>(cai["strides"]);
    if (static_cast<int>(st.size()) != v.ndim) return;
    for (int i = 0; i < v.ndim; ++i) {
      const int64_t b = nb::cast<int64_t>(st[i]);
      if (b % static_cast<int64_t>(item) != 0) return;
    }
    for (int i = 0; i < v.ndim; ++i)
      v.strides[i] = v.shape[i] > 1 ? nb::cast<int64_t>(st[i]) / static_cast<int64_t>(item) : 0;
  } catch (const nb::python_error &) {
    // keep the exported strides; the plan reports them
  } catch (const nb::cast_error &) {
  }
}

template <typename ND>
static void view_from_dlpack(const ND &nd, View &v, const char *fn, const char *name,
                             nb::handle h) {
  v.from_buffer = false;
  v.lib = kLibOther;
  if (nd.ndim() > static_cast<size_t>(kMaxRank)) too_many_dims(fn, name, (int)nd.ndim());
  v.ndim = static_cast<int>(nd.ndim());
  v.data = static_cast<char *>(const_cast<void *>(static_cast<const void *>(nd.data())));
  v.dev_type = nd.device_type();
  v.dev_id = nd.device_id();
  const nb::dlpack::dtype t = nd.dtype();
  v.dtype = 0;
  if (t.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Float) && t.lanes == 1 &&
      (t.bits == 32 || t.bits == 64)) {
    v.dtype = t.bits == 32 ? TRIDI_F32 : TRIDI_F64;
    v.dtype_name = t.bits == 32 ? "float32" : "float64";
  } else {
    v.dtype_name = dlpack_dtype_name(t);
  }
  for (int i = 0; i < v.ndim; ++i) {
    v.shape[i] = static_cast<int64_t>(nd.shape(i));
    v.strides[i] = v.shape[i] > 1 ? nd.stride(i) : 0;
  }
  if (v.dtype) fix_exported_strides(h, v, static_cast<size_t>(t.bits / 8));
}

static bool is_python_number(nb::handle h) {
  return PyFloat_Check(h.ptr()) || (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr()));
}

// A Python number as a 0-d operand of d's dtype held in the view itself,
// when d is solved on the host (what NumPy's asarray(value, d.dtype) gives,
// without making an array).  False where that conversion would warn or fail
// (out of float32's range, an int too large): the general path then does it.
static bool view_from_host_number(nb::handle h, View &v, const View &like) {
  if (like.on_gpu() || (like.dtype != TRIDI_F32 && like.dtype != TRIDI_F64)) return false;
  const double x = PyFloat_Check(h.ptr()) ? PyFloat_AS_DOUBLE(h.ptr()) : PyLong_AsDouble(h.ptr());
  if (x == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  if (like.dtype == TRIDI_F32) {
    if (std::isfinite(x) && std::fabs(x) > static_cast<double>(FLT_MAX)) return false;
    v.scalar.f32 = static_cast<float>(x);
    v.dtype_name = "float32";
  } else {
    v.scalar.f64 = x;
    v.dtype_name = "float64";
  }
  v.dtype = like.dtype;
  v.data = reinterpret_cast<char *>(&v.scalar);
  v.ndim = 0;
  v.dev_type = kDevCPU;
  v.dev_id = 0;
  v.readonly = true;
  v.from_buffer = like.from_buffer;
  v.lib = like.lib;
  return true;
}

void parse_view(nb::handle h, View &v, const char *fn, const char *name, const View *like,
                nb::handle like_obj) {
  if (PyObject_CheckBuffer(h.ptr()) && view_from_buffer(h, v, fn, name)) return;
  if (view_from_library(h, v, fn, name)) return;
  if (nb::try_cast(h, v.nd, false)) {
    view_from_dlpack(v.nd, v, fn, name, h);
    v.readonly = true;  // not known through the read-only caster; inputs are never written
    return;
  }
  if (like && is_python_number(h) && view_from_host_number(h, v, *like)) return;
  if (is_python_number(h) || PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    // NumPy's rules: a Python scalar takes d's dtype (and here its library and
    // device); a list becomes a NumPy array with NumPy's dtype (checked later).
    nb::object arr = arrays_module().attr("as_array")(h, like ? like_obj : nb::none(),
                                                      like ? like->dtype : 0);
    v.keep = arr;
    if (PyObject_CheckBuffer(arr.ptr()) && view_from_buffer(arr, v, fn, name)) return;
    if (view_from_library(arr, v, fn, name)) return;
    if (nb::try_cast(arr, v.nd, false)) {
      view_from_dlpack(v.nd, v, fn, name, arr);
      v.readonly = true;
      return;
    }
  }
  throw nb::type_error((std::string(fn) + ": " + name +
                        " must be an array (NumPy, CuPy, PyTorch, ... with the buffer "
                        "protocol or __dlpack__), a list or a Python number; got " +
                        nb::type_name(h.type()).c_str())
                           .c_str());
}

void parse_out_view(nb::handle h, View &v, const char *fn, const char *name) {
  if (PyObject_CheckBuffer(h.ptr()) && view_from_buffer(h, v, fn, name)) {
    if (v.readonly)
      throw nb::value_error((std::string(fn) + ": " + name + " is read-only").c_str());
    return;
  }
  if (view_from_library(h, v, fn, name)) return;
  if (nb::try_cast(h, v.ndw, false)) {
    view_from_dlpack(v.ndw, v, fn, name, h);
    v.readonly = false;
    return;
  }
  if (nb::try_cast(h, v.nd, false))
    throw nb::value_error((std::string(fn) + ": " + name + " is read-only").c_str());
  throw nb::type_error((std::string(fn) + ": " + name +
                        " must be a writable array (NumPy, CuPy, PyTorch, ...) or None; "
                        "got " +
                        nb::type_name(h.type()).c_str())
                           .c_str());
}

}  // namespace tridipy
