// Array views: what the extension reads from a Python array argument.
//
// A View is the data pointer, shape, strides (in elements, any sign), element
// type and device of one argument, taken without a copy:
//   * objects with the buffer protocol (NumPy arrays, memoryviews) through
//     PyObject_GetBuffer: a few hundred nanoseconds;
//   * float32/float64/int32 CuPy arrays and PyTorch tensors through their
//     own attributes (data pointer, shape, strides, dtype, device: a few C-level
//     attribute reads, well under a microsecond).  Their __dlpack__ costs
//     more: a capsule and its deleter per operand, PyTorch's in Python, and
//     CuPy's orders its current stream before the legacy stream with an
//     event when the current stream is not the default one;
//   * everything else (JAX, other DLPack producers, and the CuPy arrays and
//     tensors the attribute path leaves: other dtypes, tensors that require
//     grad or carry a negation bit, other devices) through DLPack by
//     nanobind's ndarray caster, which also gives the device.
// The view keeps what it took (the buffer, the DLPack capsule) until it is
// destroyed, so the memory stays valid while a solve runs without the GIL.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <string>

#include "tridi.h"

namespace nb = nanobind;

namespace tridipy {

constexpr int kMaxRank = TRIDI_MAX_RANK;

// DLPack device types that the extension knows.
enum : int { kDevCPU = 1, kDevCUDA = 2, kDevCUDAHost = 3, kDevCUDAManaged = 13 };

// The array library an argument came from, where the extension talks to it
// directly (allocation, current stream); kLibOther goes through tridi._arrays.
enum : int { kLibOther = 0, kLibNumpy = 1, kLibCupy = 2, kLibTorch = 3 };

struct View {
  nb::object keep;  // an array made from a Python scalar or list, kept alive here
  Py_buffer buf{};
  bool has_buf = false;
  nb::ndarray<nb::ro> nd;   // DLPack import of an input
  nb::ndarray<> ndw;        // DLPack import of a writable out
  char *data = nullptr;
  int ndim = 0;
  int64_t shape[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};  // in elements
  int dtype = 0;                   // TRIDI_F32, TRIDI_F64, or 0 for any other type
  std::string dtype_name;          // "float64", "int32", ... (for messages)
  int dev_type = kDevCPU;
  int dev_id = 0;
  bool readonly = false;
  bool from_buffer = false;        // came through the buffer protocol (NumPy-like)
  int lib = kLibOther;             // kLibCupy / kLibTorch: read through the attribute path
  union {                          // a Python number solved on the host: its value, 0-d
    double f64;
    float f32;
  } scalar{};

  View() = default;
  View(const View &) = delete;
  View &operator=(const View &) = delete;
  ~View() { release(); }
  void release() {
    if (has_buf) {
      PyBuffer_Release(&buf);
      has_buf = false;
    }
  }
  // What `src` read, without what it holds (its buffer, capsule, kept
  // array): for an argument that is the same object as one already read in
  // this call, whose view outlives this one.
  void share(const View &src) {
    data = src.data == reinterpret_cast<const char *>(&src.scalar)
               ? reinterpret_cast<char *>(&scalar)
               : src.data;
    scalar = src.scalar;
    ndim = src.ndim;
    for (int i = 0; i < ndim; ++i) shape[i] = src.shape[i], strides[i] = src.strides[i];
    dtype = src.dtype;
    dtype_name = src.dtype_name;
    dev_type = src.dev_type;
    dev_id = src.dev_id;
    readonly = src.readonly;
    from_buffer = src.from_buffer;
    lib = src.lib;
  }
  bool on_gpu() const { return dev_type == kDevCUDA || dev_type == kDevCUDAManaged; }
  std::string device_name() const;
  std::string shape_str() const;
};

// Fill `v` from the Python object `h` (argument `name` of function `fn`).
// `like` is the right-hand side d, used to turn a Python scalar into a 0-d
// array of d's library and dtype (NumPy's rule for Python scalars); null for
// d itself.  Throws TypeError for objects that are not arrays, ValueError for
// too many dimensions or strides that are not a whole number of elements.
void parse_view(nb::handle h, View &v, const char *fn, const char *name, const View *like,
                nb::handle like_obj);

// Fill `v` from `h`, which must be writable (the `out` argument, or `name`).
void parse_out_view(nb::handle h, View &v, const char *fn, const char *name = "out");

// Fill `v` from a float32/float64/int32 CuPy array or PyTorch tensor through
// its attributes (libs.cpp).  False for any other object, and for those the
// attribute path leaves to DLPack; throws ValueError as parse_view does.
bool view_from_library(nb::handle h, View &v, const char *fn, const char *name);

[[noreturn]] void too_many_dims(const char *fn, const char *name, int ndim);

// A tuple of Python ints.
nb::tuple shape_tuple(const int64_t *shape, int n);

// The Python helper module tridi._arrays (allocation and streams of other
// array libraries), imported once.
nb::module_ &arrays_module();

// A new uninitialised C-ordered array of `dtype` ("float32", "float64",
// "int32") and `shape`, of the library and device of `like` (the view of the
// object `like_obj`): NumPy for buffer-protocol operands, CuPy and PyTorch
// called directly, any other library through tridi._arrays.empty.
nb::object new_array(const View &like, nb::handle like_obj, const int64_t *shape, int n,
                     const char *dtype);

// The data address of an int32 array that new_array made for an operand of
// library `lib` (C-ordered, of a known shape: only the address is read), or
// null where it is not known that way (the caller reads the whole array).
char *new_array_data(int lib, nb::handle arr);

// check=False on CuPy arrays: an info array of `shape` on the operand's
// device from a small pool of arrays this extension made, reused once
// nothing but the pool refers to one (no other reference to it, its memory
// or its memory pointer, no weak reference, its shape unchanged) and only on
// the stream it was last used on (what CuPy's own memory pool does with
// freed memory); else a new one, which joins the pool.  Its data address in
// *data.  An invalid object where the pool does not apply (other libraries).
nb::object pooled_info(const View &vd, nb::handle d, const int64_t *shape, int n, void *stream,
                       char **data, bool *reused);

// Drop the pool's arrays (at exit, and for tests).
void clear_info_pool();

// The handle of the current CUDA stream of the library of `d` on d's device
// (CuPy's current stream, PyTorch's current stream; 0, the legacy default
// stream, for libraries without one).
void *current_stream(const View &vd, nb::handle d);

// What the extension caches about CuPy and PyTorch (their array types, dtype
// objects and the functions it calls), dropped at interpreter exit.
void clear_library_cache();

// "float32"/"float64" for a tridi dtype.
const char *dtype_str(int dtype);

}  // namespace tridipy
