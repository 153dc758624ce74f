/* Command-line helpers of the floor tools (var_floor.cu, row_floor.cu,
 * fft_floor.cu). */
#ifndef TRIDI_BENCH_TUNING_FLOOR_CLI_H
#define TRIDI_BENCH_TUNING_FLOOR_CLI_H

#include <stdlib.h>
#include <string.h>

#include <string>
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

/* "c32,c64" -> {"c32", "c64"} (empty items dropped) */
static inline std::vector<std::string> floor_split_list(const char *s) {
  std::vector<std::string> v;
  std::string cur;
  for (const char *p = s;; ++p) {
    if (*p == ',' || !*p) {
      if (!cur.empty()) v.push_back(cur);
      cur.clear();
      if (!*p) break;
    } else {
      cur += *p;
    }
  }
  return v;
}

#endif
