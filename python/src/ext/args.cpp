// Keyword matching and exception translation of the fast entries (args.h).
#include "args.h"

#include <nanobind/nanobind.h>

#include <new>
#include <stdexcept>

namespace nb = nanobind;

namespace tridipy {

PyObject *intern(const char *s) {
  PyObject *o = PyUnicode_InternFromString(s);
  if (!o) throw nb::python_error();
  return o;
}

bool match_args(const char *fn, PyObject *const *pos, Py_ssize_t npos, PyObject *const *kwkeys,
                PyObject *const *kwvals, Py_ssize_t nkw, PyObject *const *names, int n, int max_pos,
                int required, PyObject **vals) {
  if (npos > max_pos) {
    PyErr_Format(PyExc_TypeError, "%s() takes %d positional arguments but %zd were given", fn,
                 max_pos, npos);
    return false;
  }
  for (int i = 0; i < n; ++i) vals[i] = i < npos ? pos[i] : nullptr;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject *key = kwkeys[k];
    int found = -1;
    for (int i = 0; i < n && found < 0; ++i)  // keyword names are interned: identity first
      if (key == names[i]) found = i;
    for (int i = 0; i < n && found < 0; ++i) {
      const int eq = PyUnicode_Compare(key, names[i]);
      if (eq == -1 && PyErr_Occurred()) return false;
      if (eq == 0) found = i;
    }
    if (found < 0) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fn, key);
      return false;
    }
    if (vals[found]) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", fn, key);
      return false;
    }
    vals[found] = kwvals[k];
  }
  for (int i = 0; i < required; ++i) {
    if (!vals[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%U'", fn, names[i]);
      return false;
    }
  }
  return true;
}

bool match_tuple(const char *fn, PyObject *args, PyObject *kwargs, PyObject *const *names, int n,
                 int max_pos, int required, PyObject **vals) {
  constexpr Py_ssize_t kMaxKw = 16;
  PyObject *keys[kMaxKw], *values[kMaxKw];
  Py_ssize_t nkw = 0, at = 0;
  PyObject *key, *value;
  while (kwargs && PyDict_Next(kwargs, &at, &key, &value)) {
    if (nkw == kMaxKw || !PyUnicode_Check(key)) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument", fn);
      return false;
    }
    keys[nkw] = key;
    values[nkw++] = value;
  }
  const Py_ssize_t npos = PyTuple_GET_SIZE(args);
  return match_args(fn, npos ? &PyTuple_GET_ITEM(args, 0) : nullptr, npos, keys, values, nkw, names,
                    n, max_pos, required, vals);
}

PyObject *set_python_error() {
  try {
    throw;
  } catch (nb::python_error &e) {
    e.restore();
  } catch (const nb::builtin_exception &e) {
    PyObject *type = PyExc_RuntimeError;
    switch (e.type()) {
      case nb::exception_type::stop_iteration:
        type = PyExc_StopIteration;
        break;
      case nb::exception_type::index_error:
        type = PyExc_IndexError;
        break;
      case nb::exception_type::key_error:
        type = PyExc_KeyError;
        break;
      case nb::exception_type::value_error:
        type = PyExc_ValueError;
        break;
      case nb::exception_type::type_error:
        type = PyExc_TypeError;
        break;
      case nb::exception_type::buffer_error:
        type = PyExc_BufferError;
        break;
      case nb::exception_type::import_error:
        type = PyExc_ImportError;
        break;
      case nb::exception_type::attribute_error:
        type = PyExc_AttributeError;
        break;
      default:
        break;
    }
    PyErr_SetString(type, e.what());
  } catch (const std::bad_alloc &) {
    PyErr_NoMemory();
  } catch (const nb::cast_error &) {
    PyErr_SetString(PyExc_TypeError, "tridi: an argument has the wrong type");
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "tridi: unknown C++ exception");
  }
  return nullptr;
}

}  // namespace tridipy
