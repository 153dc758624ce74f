/* CPU runner of `tridi bench`: tridi on TRIDI_BACKEND_CPU for any kind (the
 * kind makes the descriptor), with the copy bandwidth and the stream limit
 * of tools/bench_memref.c as references. */
#include "bench.h"
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cpu_available(void) { return tridi_backend_available(TRIDI_BACKEND_CPU); }

static const char *cpu_device_name(void) {
  static char name[128];
  if (name[0] != '\0') return name;
  snprintf(name, sizeof name, "cpu");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f == NULL) return name;
  char line[512];
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "model name", 10) == 0) {
      const char *p = strchr(line, ':');
      if (p == NULL) break;
      ++p;
      while (*p == ' ' || *p == '\t') ++p;
      size_t len = strcspn(p, "\n");
      if (len >= sizeof name) len = sizeof name - 1;
      memcpy(name, p, len);
      name[len] = '\0';
      /* commas would break the CSV */
      for (char *q = name; *q != '\0'; ++q)
        if (*q == ',') *q = ';';
      break;
    }
  }
  fclose(f);
  return name;
}

static int cpu_run_case(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                        bench_result *res) {
  res->status = TRIDI_SUCCESS;
  res->ms = res->ms_min = NAN;
  tridi_desc desc = NULL;
  tridi_status st = bc->kind->make_desc(bc, &desc);
  if (st != TRIDI_SUCCESS) {
    res->status = st;
    if (opts->verbose) fprintf(stderr, "tridi bench: descriptor: %s\n", tridi_last_error());
    return 1;
  }
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CPU;
  o.alg = opts->alg;
  o.pivot = opts->pivot;
  o.assume_dominant = opts->assume_dominant || tridi_alg_requires_dominance(o.alg);
  o.num_threads = opts->threads;
  tridi_plan plan = NULL;
  st = tridi_plan_create(&plan, desc, &o);
  tridi_desc_destroy(desc);
  if (st != TRIDI_SUCCESS) {
    res->status = st;
    if (opts->verbose) fprintf(stderr, "tridi bench: plan: %s\n", tridi_last_error());
    return 1;
  }
  bench_note_plan(plan, res);
  double *t_ms = malloc(sizeof(double) * (size_t)opts->reps);
  if (t_ms == NULL) {
    tridi_plan_destroy(plan);
    res->status = TRIDI_ERR_ALLOC;
    return 1;
  }
  /* a breakdown the algorithm reports (e.g. RD's failed accuracy check on
   * dominant systems, --alg rd) is a result, not an error: timed all the
   * same, and the status is shown in the row */
  int hard = 0;
  for (int r = -opts->warmup; r < opts->reps; ++r) {
    const double t0 = bench_now();
    st = tridi_execute(plan, data->a, data->b, data->c, data->d, data->x, NULL, NULL);
    const double t1 = bench_now();
    if (st != TRIDI_SUCCESS) {
      res->status = st;
      if (opts->verbose) fprintf(stderr, "tridi bench: execute: %s\n", tridi_last_error());
      if (st != TRIDI_ERR_ZERO_PIVOT && st != TRIDI_ERR_NONFINITE && st != TRIDI_ERR_INACCURATE) {
        hard = 1;
        break;
      }
    }
    if (r >= 0) t_ms[r] = (t1 - t0) * 1e3;
  }
  if (!hard) {
    res->ms = bench_median(t_ms, opts->reps);
    res->ms_min = t_ms[0];
    for (int r = 1; r < opts->reps; ++r)
      if (t_ms[r] < res->ms_min) res->ms_min = t_ms[r];
  }
  free(t_ms);
  tridi_plan_destroy(plan);
  return st == TRIDI_SUCCESS ? 0 : 1;
}

const bench_runner bench_runner_cpu = {
    .name = "cpu",
    .backend = TRIDI_BACKEND_CPU,
    .available = cpu_available,
    .device_name = cpu_device_name,
    .copy_gbps = bench_cpu_copy_gbps,
    .stream_gbps = bench_cpu_stream_gbps,
    .run_case = cpu_run_case,
    .release = bench_cpu_release_refs,
    .cache_bytes = bench_llc_bytes,
};
