// Array views: what the extension reads from a Python array argument.
//
// A View is the data pointer, shape, strides (in elements, any sign), element
// type and device of one argument, taken without a copy:
//   * objects with the buffer protocol (NumPy arrays, memoryviews) through
//     PyObject_GetBuffer: the fast path, a few hundred nanoseconds;
//   * everything else (CuPy, PyTorch, JAX, ...) through DLPack by nanobind's
//     ndarray caster, which also gives the device.
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

// Fill `v` from `h`, which must be writable (the `out` argument).
void parse_out_view(nb::handle h, View &v, const char *fn);

// The Python helper module tridi._arrays (allocation and streams of other
// array libraries), imported once.
nb::module_ &arrays_module();

// "float32"/"float64" for a tridi dtype.
const char *dtype_str(int dtype);

}  // namespace tridipy
