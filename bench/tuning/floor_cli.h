/* Command-line helper of the floor tools (var_floor.cu, row_floor.cu). */
#ifndef TRIDI_BENCH_TUNING_FLOOR_CLI_H
#define TRIDI_BENCH_TUNING_FLOOR_CLI_H

#include <stdlib.h>
#include <string.h>

#include <vector>

/* "128,512,4096" -> {128, 512, 4096} */
static inline std::vector<long long> floor_parse_list(const char *s) {
  std::vector<long long> v;
  for (const char *p = s; *p;) {
    char *end;
    v.push_back(strtoll(p, &end, 10));
    p = *end == ',' ? end + 1 : end + strlen(end);
  }
  return v;
}

#endif
