// Arguments of the per-call entries (tridi.solve, Plan.__call__) taken as
// CPython passes them (METH_FASTCALL | METH_KEYWORDS): positional values and
// keyword names side by side, matched here without building a tuple or a
// dict, and C++ exceptions turned into Python ones at the boundary.  This is
// the cheapest way into the extension for a call with keyword arguments: a
// nanobind function of more than 8 arguments takes its general dispatch,
// and a Python wrapper adds a frame.
#pragma once

#include <Python.h>

namespace tridipy {

// Match the positional arguments pos[0:npos] and the keyword arguments
// (names kwkeys[0:nkw], values kwvals[0:nkw]) to the parameters
// `names[0:n]`, into vals[0:n] (borrowed; null where not given).  The first
// `max_pos` parameters may be positional, the first `required` must be
// given.  Sets a TypeError worded as Python's and returns false on a bad call.
bool match_args(const char *fn, PyObject *const *pos, Py_ssize_t npos, PyObject *const *kwkeys,
                PyObject *const *kwvals, Py_ssize_t nkw, PyObject *const *names, int n, int max_pos,
                int required, PyObject **vals);

// The same for a vectorcall (METH_FASTCALL | METH_KEYWORDS): the keyword
// names in the tuple kwnames, their values after the positional ones.
inline bool match_fast(const char *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                       PyObject *const *names, int n, int max_pos, int required, PyObject **vals) {
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  return match_args(fn, args, nargs, nkw ? &PyTuple_GET_ITEM(kwnames, 0) : nullptr, args + nargs,
                    nkw, names, n, max_pos, required, vals);
}

// The same for a tp_call (a tuple and a dict or null).
bool match_tuple(const char *fn, PyObject *args, PyObject *kwargs, PyObject *const *names, int n,
                 int max_pos, int required, PyObject **vals);

// Interned Python strings of the names (kept for the life of the process).
PyObject *intern(const char *s);

// The exception in flight (called in a catch block) set as the Python error;
// returns null for the caller to return.
PyObject *set_python_error();

}  // namespace tridipy
