// What tridi.solve does with its arguments, shared by the extension's entry
// (module.cpp) and the benchmark's helpers (bench.cpp).
#pragma once

#include "problem.h"

namespace tridipy {

// tridi_alg of an algorithm name ("auto" included); ValueError naming the
// choices otherwise.
int alg_from_name(const char *fn, const char *name);

// A status that reports failed systems (their info codes), not a failed call.
bool is_breakdown(tridi_status st);

// The operands of one call as read (views), broadcast into one problem.
struct Parsed {
  View va, vb, vc, vd, vo;
  Problem p;
};

// Read a, b, c, d (and out, unless None) and broadcast them into r.p; out's
// strides and address bound.  An operand that is the same object as one
// read before is not read again.
void parse_all(const char *fn, nb::handle a, nb::handle b, nb::handle c, nb::handle d, int64_t axis,
               nb::handle out, Parsed &r);

// Seconds for `reps` tridi_execute calls in one C loop (bench.cpp).
double time_execute(nb::handle a, nb::handle b, nb::handle c, nb::handle d, nb::handle out,
                    int64_t axis, const char *alg, int64_t reps);

// Seconds per call of each step of tridi.solve(..., out=out, check=False)
// (bench.cpp).
nb::dict overhead_steps(nb::handle a, nb::handle b, nb::handle c, nb::handle d, nb::handle out,
                        int64_t axis, int64_t reps);

}  // namespace tridipy
