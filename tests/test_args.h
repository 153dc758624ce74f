/* The check every bad-argument test uses: the exact status, and a last-error
 * message that names the argument (test_args.c, test_args_execute.c). */
#ifndef TRIDI_TEST_ARGS_H
#define TRIDI_TEST_ARGS_H

#include "tt.h"

#include <ctype.h>
#include <string.h>

/* 1 when `word` occurs in msg delimited by characters that cannot be part of
 * an identifier (so "a" matches "tridi_execute: a is NULL" but not "plan"). */
static inline int has_word(const char *msg, const char *word) {
  const size_t lw = strlen(word);
  for (const char *p = strstr(msg, word); p; p = strstr(p + 1, word)) {
    const int before = p == msg || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    const int after = !(isalnum((unsigned char)p[lw]) || p[lw] == '_');
    if (before && after) return 1;
  }
  return 0;
}

/* Check status; after a failure the last error must be non-empty and, when
 * `word` is given, name it; after success it must be empty. */
static inline int expect_(tridi_status got, tridi_status want, const char *word, const char *expr, int line) {
  const char *msg = tridi_last_error();
  if (got != want) {
    tt_fail("line %d: %s returned %s, expected %s (last error \"%s\")", line, expr,
            tridi_status_name(got), tridi_status_name(want), msg);
    return 0;
  }
  if (want == TRIDI_SUCCESS) {
    if (msg[0]) tt_fail("line %d: %s succeeded but tridi_last_error() = \"%s\"", line, expr, msg);
    return 1;
  }
  if (!msg[0]) {
    tt_fail("line %d: %s failed with %s but tridi_last_error() is empty", line, expr,
            tridi_status_name(got));
    return 0;
  }
  if (word && !has_word(msg, word)) {
    tt_fail("line %d: %s: tridi_last_error() = \"%s\" does not name \"%s\"", line, expr, msg, word);
    return 0;
  }
  return 1;
}

#define EXPECT(call, want, word) expect_((call), (want), (word), #call, __LINE__)

#endif
