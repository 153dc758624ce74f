/* The problem kinds of `tridi bench` (--problem NAME), one row each; the
 * first is the default.  A new kind adds its bench_kind (tools/bench_<kind>.c)
 * here and nothing else (tools/bench.h). */
#include "bench.h"

#include <string.h>

const bench_kind *const bench_kinds[] = {
    &bench_kind_scalar,
    &bench_kind_variable,
    NULL,
};

const bench_kind *bench_find_kind(const char *name) {
  for (int k = 0; bench_kinds[k] != NULL; ++k)
    if (strcmp(bench_kinds[k]->name, name) == 0) return bench_kinds[k];
  return NULL;
}
