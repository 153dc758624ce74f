/* The tridi test harness, everything the scalar suites use:
 *
 *   tt_core.h     kind-independent: seeds, RNG, failure reports, poison,
 *                 info arrays, configurations, LAPACK, cmocka glue;
 *   tt_problem.h  kind-generic problems ("system sets"): generators,
 *                 breakdown injections, the oracles (reference solver and
 *                 LAPACK), the residual and every check of a solve;
 *   tt_scalar.h   (tests/scalar/) the scalar kind's producer: N-d layouts
 *                 mapped to a system set.
 *
 * A new kind's tests include tt_problem.h and their own producer
 * (tests/README.md, "Adding a kind"). */
#ifndef TT_H
#define TT_H

#include "tt_core.h"
#include "tt_problem.h"
#include "tt_scalar.h"

#endif
