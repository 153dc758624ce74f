/* `tridi bench`: the sweep over backends, dtypes, layouts, lengths and
 * algorithms of one problem kind; the checks, the verdict of each case, the
 * table and the CSV (one format for every kind: docs/benchmarks.md). */
#include "bench_driver.h"
#include "bench_util.h"
#include "commands.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAUNCH_REPS 200 /* at least this many timed executes for the launch case */

/* ---- output -------------------------------------------------------------- */

static void print_header(void) {
  printf("%-5s %-4s %-12s %6s %9s %-10s %-7s %12s %8s %7s %6s %7s %6s %9s %-13s %12s %7s %s\n",
         "back", "type", "layout", "n", "batch", "alg", "pivot", "time", "GB/s", "copy", "%copy",
         "stream", "%strm", "residual", "baseline", "base time", "speedup", "check");
}

static void fmt_time(char *buf, size_t len, double ms, int launch) {
  if (!(ms == ms)) snprintf(buf, len, "-");
  else if (launch) snprintf(buf, len, "%.2f us", ms * 1e3);
  else snprintf(buf, len, "%.3f ms", ms);
}

static void fmt_num(char *buf, size_t len, const char *fmt, double v) {
  if (v == v) snprintf(buf, len, fmt, v);
  else snprintf(buf, len, "-");
}

static void print_row(const bench_runner *r, const bench_case *bc, const bench_result *res,
                      tridi_pivot pv, double copy, double stream) {
  char t1[32], t2[32], sp[32], st[16], ps[16];
  fmt_time(t1, sizeof t1, res->ms, bc->launch);
  fmt_time(t2, sizeof t2, res->baseline[0] ? res->baseline_ms : NAN, bc->launch);
  if (res->baseline[0] && res->speedup == res->speedup)
    snprintf(sp, sizeof sp, "%.2fx", res->speedup);
  else
    snprintf(sp, sizeof sp, "-");
  fmt_num(st, sizeof st, "%.1f", stream);
  fmt_num(ps, sizeof ps, "%.1f", res->pct_stream);
  printf("%-5s %-4s %-12s %6lld %9lld %-10s %-7s %12s %8.1f %7.1f %6.1f %7s %6s %9.2e %-13s %12s "
         "%7s %s\n",
         r->name, tridi_dtype_name(bc->dtype), bc->layout, (long long)bc->n, (long long)bc->batch,
         res->alg[0] ? res->alg : "-", tridi_pivot_name(pv), t1, res->gbps, copy, res->pct_copy,
         st, ps,
         res->chk.residual, res->baseline[0] ? res->baseline : "-", t2, sp, res->check);
  fflush(stdout);
}

/* The CSV columns, in order; docs/benchmarks.md lists the same (a test
 * compares them). */
static const char csv_columns[] =
    "backend,device,date,dtype,layout,n,batch,alg,kernel,threads,ms,ms_min,gbps,copy_gbps,"
    "pct_copy,residual,residual_bound,ok,baseline,baseline_ms,baseline_gbps,baseline_residual,"
    "speedup,req_alg,problem,m,unknowns,words_per_unknown,stream_gbps,pct_stream,check,pivot";

/* a number, or an empty cell where it was not measured */
static void csv_num(FILE *f, double v) {
  if (v == v) fprintf(f, ",%.6g", v);
  else fputc(',', f);
}

static void csv_row(FILE *f, const bench_runner *r, const char *date, double copy, double stream,
                    const bench_case *bc, const bench_result *res, tridi_alg req,
                    tridi_pivot pv) {
  fprintf(f, "%s,%s,%s,%s,%s,%lld,%lld,%s,%s,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.3e,%.3e,%d,%s,%.6g,%.6g,"
             "%.3e,%.6g,%s,%s,%d,%lld,%g",
          r->name, r->device_name(), date, tridi_dtype_name(bc->dtype), bc->layout,
          (long long)bc->n, (long long)bc->batch, res->alg, res->kernel, res->threads, res->ms,
          res->ms_min, res->gbps, copy, res->pct_copy, res->chk.residual, res->chk.bound, res->ok,
          res->baseline, res->baseline_ms, res->baseline_gbps, res->baseline_residual,
          res->speedup, tridi_alg_name(req), bc->kind->name, bc->m, (long long)bc->unknowns,
          bc->words_per_unknown);
  csv_num(f, stream);
  csv_num(f, res->pct_stream);
  fprintf(f, ",%s,%s\n", res->check, tridi_pivot_name(pv));
  fflush(f);
}

/* ---- verdict ------------------------------------------------------------- */

/* bench_check_rows' bound, for rows that were not checked */
static double residual_bound(const bench_case *bc) {
  const double eps = bc->dtype == TRIDI_F64 ? DBL_EPSILON : (double)FLT_EPSILON;
  return 4.0 * (double)(bc->nmax > 8 ? bc->nmax : 8) * eps;
}

/* a status that reports per-system failures (info), the solve ran to the end */
static int is_breakdown(tridi_status st) {
  return st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE || st == TRIDI_ERR_INACCURATE;
}

/* ok / unstable / failed (with the reason in res->check); returns 0, 1, 2. */
static int verdict(bench_result *res, tridi_alg req) {
  const bench_check *c = &res->chk;
  res->ok = res->status == TRIDI_SUCCESS && c->residual <= c->bound && c->untouched;
  if (res->ok) {
    snprintf(res->check, sizeof res->check, "ok");
    return 0;
  }
  /* RD and CR+RD report (CPU) or leave unsolved (GPU: info only) the dominant
   * systems of this benchmark, or are refused: RD's error grows like
   * (|b|/|c|)^n (docs/accuracy.md).  Shown, never counted as verified. */
  const int soft = res->status == TRIDI_SUCCESS || is_breakdown(res->status) ||
                   res->status == TRIDI_ERR_NOT_SUPPORTED;
  if (bench_known_unstable(req) && soft && c->untouched) {
    snprintf(res->check, sizeof res->check, "unstable");
    return 1;
  }
  snprintf(res->check, sizeof res->check, "%s",
           res->status != TRIDI_SUCCESS ? tridi_status_name(res->status)
           : !c->untouched              ? "PADDING-WRITTEN"
                                        : "RESIDUAL");
  return 2;
}

/* Test hook (env TRIDI_BENCH_TEST_CORRUPT=1): change x of system 0 after
 * the solve, so that tests see a failing case end in exit status 1. */
static void corrupt_for_test(const bench_case *bc, const bench_data *data) {
  const char *e = getenv("TRIDI_BENCH_TEST_CORRUPT");
  if (e == NULL || strcmp(e, "1") != 0 || bc->batch == 0) return;
  bench_sys S;
  bc->kind->system(bc, 0, &S);
  if (bc->dtype == TRIDI_F64) ((double *)data->x)[S.off[4]] += 1.0;
  else ((float *)data->x)[S.off[4]] += 1.0f;
}

/* ---- the sweep ----------------------------------------------------------- */

typedef struct sweep {
  const bench_config *cfg;
  const bench_runner *r;
  const bench_data *data;
  unsigned char *mask;
  const char *date;
  FILE *csv;
  int counts[3]; /* verified, not verified (known unstable), failed */
  int over_copy; /* rows of the runner above 100% of the copy */
} sweep;

/* 1 when tridi has a pivoting solver row for the runner's backend and the
 * bench kind (TRIDI_PIVOT_PARTIAL can be planned there). */
static int runner_pivots(const bench_runner *r, const bench_kind *kind) {
  for (int i = 0; i < tridi_num_solvers(); ++i) {
    tridi_solver_desc sd;
    memset(&sd, 0, sizeof sd);
    sd.struct_size = sizeof sd;
    if (tridi_get_solver(i, &sd) == TRIDI_SUCCESS && sd.backend == r->backend &&
        sd.alg == TRIDI_ALG_LU_PARTIAL && strcmp(tridi_kind_name(sd.kind), kind->name) == 0)
      return 1;
  }
  return 0;
}

/* 1 when --alg item ai with --pivot item pi runs on the runner (see --help). */
static int variant_runs(const bench_config *cfg, const bench_runner *r, int ai, int pi) {
  const tridi_alg alg = cfg->algs[ai];
  const tridi_pivot pv = cfg->pivots[pi];
  if (!bench_alg_pivot_ok(alg, pv)) return 0;
  return (pv != TRIDI_PIVOT_PARTIAL && alg != TRIDI_ALG_LU_PARTIAL) || runner_pivots(r, cfg->kind);
}

/* Every algorithm and pivoting on one case (its data filled), then its baselines. */
static void run_algs(sweep *S, const bench_case *bc, double copy, double stream) {
  const bench_config *cfg = S->cfg;
  const bench_runner *r = S->r;
  const size_t xbytes = (size_t)bc->alloc_elems[4] * tridi_dtype_size(bc->dtype);
  const double bytes = bench_bytes(bc);
  double best_gbps = 0.0, auto_gbps = NAN;
  char best_alg[48] = "";
  int first = 1, nvar = 0;
  for (int v = 0; v < cfg->nalgs * cfg->npivots; ++v)
    nvar += variant_runs(cfg, r, v / cfg->npivots, v % cfg->npivots);
  for (int vi = 0; vi < cfg->nalgs * cfg->npivots; ++vi) {
    const int ai = vi / cfg->npivots;
    const tridi_alg req = cfg->algs[ai];
    const tridi_pivot pv = cfg->pivots[vi % cfg->npivots];
    if (!variant_runs(cfg, r, ai, vi % cfg->npivots)) continue;
    bench_result res;
    memset(&res, 0, sizeof res);
    res.baseline_ms = res.baseline_gbps = res.baseline_residual = res.speedup = NAN;
    res.gbps = res.pct_copy = res.pct_stream = res.chk.residual = NAN;
    if (!first) memset(S->data->x, 0xFF, xbytes); /* x poisoned again */
    /* the launch-bound case takes microseconds: many more repeats */
    bench_opts ro = cfg->opts;
    ro.alg = req;
    ro.pivot = pv;
    if (bc->launch && ro.reps < LAUNCH_REPS) ro.reps = LAUNCH_REPS;
    r->run_case(bc, &ro, S->data, &res);
    /* a breakdown the algorithm reported still has a time (bench_cpu.c) */
    if (res.status == TRIDI_SUCCESS || (is_breakdown(res.status) && res.ms == res.ms)) {
      corrupt_for_test(bc, S->data);
      bc->kind->check(bc, S->data, cfg->opts.threads, S->mask, &res.chk);
      res.gbps = res.ms > 0.0 ? bytes / (res.ms * 1e-3) / 1e9 : NAN;
      res.pct_copy = 100.0 * res.gbps / copy;
      S->over_copy += res.pct_copy > 100.0;
      res.pct_stream = stream > 0.0 ? 100.0 * res.gbps / stream : NAN;
    } else { /* nothing solved, nothing to check; x was not written */
      res.chk.bound = residual_bound(bc);
      res.chk.untouched = 1;
    }
    const int v = verdict(&res, req);
    ++S->counts[v];
    if (v == 2)
      fprintf(stderr,
              "tridi bench: FAILED %s %s %s %s n=%lld alg %s pivot %s: status %s, residual %.3e "
              "(bound %.3e), padding %s\n",
              r->name, bc->kind->name, tridi_dtype_name(bc->dtype), bc->layout, (long long)bc->n,
              tridi_alg_name(req), tridi_pivot_name(pv), tridi_status_name(res.status),
              res.chk.residual, res.chk.bound, res.chk.untouched ? "untouched" : "WRITTEN");
    if (res.ok && res.gbps > best_gbps) {
      best_gbps = res.gbps;
      snprintf(best_alg, sizeof best_alg, "%s%s%s", tridi_alg_name(req),
               cfg->npivots > 1 ? "/" : "", cfg->npivots > 1 ? tridi_pivot_name(pv) : "");
    }
    if (req == TRIDI_ALG_AUTO && pv == TRIDI_PIVOT_AUTO && res.ok) auto_gbps = res.gbps;
    if (cfg->nalgs > 1 && req == TRIDI_ALG_AUTO) { /* auto(thomas) */
      char tmp[sizeof res.alg];
      memcpy(tmp, res.alg, sizeof tmp);
      snprintf(res.alg, sizeof res.alg, "auto(%.25s)", tmp);
    }
    /* the first variant's row carries the baselines, one row each */
    int rows = 0;
    for (int b = 0; first && cfg->baseline && bc->kind->baselines[b] != NULL; ++b) {
      const bench_baseline *base = bc->kind->baselines[b];
      if (base->backend != r->backend) continue;
      bench_opts bo = cfg->opts;
      bo.reps = bc->launch ? ro.reps : cfg->baseline_reps;
      bo.warmup = bc->launch ? cfg->opts.warmup : 0; /* its data are warm already */
      bench_result row = res;
      row.baseline_status = TRIDI_SUCCESS;
      memset(S->data->x, 0xFF, xbytes);
      base->run(bc, &bo, S->data, &row);
      if (row.baseline_status == TRIDI_SUCCESS) {
        bench_check bchk;
        bc->kind->check(bc, S->data, cfg->opts.threads, S->mask, &bchk);
        row.baseline_gbps = bytes / (row.baseline_ms * 1e-3) / 1e9;
        row.baseline_residual = bchk.residual;
        row.speedup = row.baseline_ms / row.ms;
      } else if (!cfg->quiet) {
        fprintf(stderr, "tridi bench: baseline %s: %s\n", row.baseline,
                tridi_status_name(row.baseline_status));
      }
      print_row(r, bc, &row, pv, copy, stream);
      if (S->csv != NULL) csv_row(S->csv, r, S->date, copy, stream, bc, &row, req, pv);
      ++rows;
    }
    if (rows == 0) {
      print_row(r, bc, &res, pv, copy, stream);
      if (S->csv != NULL) csv_row(S->csv, r, S->date, copy, stream, bc, &res, req, pv);
    }
    first = 0;
  }
  if (nvar > 1 && best_alg[0]) {
    if (auto_gbps == auto_gbps)
      printf("# fastest: %s %.1f GB/s; auto %.2f of it\n", best_alg, best_gbps,
             auto_gbps / best_gbps);
    else
      printf("# fastest: %s %.1f GB/s\n", best_alg, best_gbps);
  }
}

/* The case (dtype di, layout li, length ni) of the config; 0 when it exists
 * (a launch case exists for the first length only). */
static int make_case(const bench_config *cfg, int di, int li, int ni, bench_case *bc) {
  const double set_bytes = cfg->size_mb * 1024.0 * 1024.0;
  const size_t es = tridi_dtype_size(cfg->dtypes[di]);
  memset(bc, 0, sizeof *bc);
  bc->kind = cfg->kind;
  bc->words_per_unknown = cfg->kind->words_per_unknown;
  const int64_t elems = (int64_t)(set_bytes / (5.0 * (double)es));
  if (cfg->kind->make_case(bc, cfg->layouts[li], cfg->dtypes[di], cfg->ns[ni], elems) != 0)
    return 1;
  if (bc->launch && ni > 0) {
    if (cfg->kind->free_case) cfg->kind->free_case(bc);
    return 1;
  }
  return 0;
}

static void free_case(const bench_config *cfg, bench_case *bc) {
  if (cfg->kind->free_case) cfg->kind->free_case(bc);
}

/* The working set of the copy and stream references. */
static size_t ref_bytes(const bench_config *cfg, const bench_runner *r) {
  if (cfg->ref_mb > 0.0) return (size_t)(cfg->ref_mb * 1024.0 * 1024.0);
  const size_t set = (size_t)(cfg->size_mb * 1024.0 * 1024.0);
  const size_t cache = r->cache_bytes ? r->cache_bytes() : 0;
  /* at least 4 x the cache; where its size is unknown, 256 MiB */
  const size_t floor4 = cache > 0 ? 4 * cache : (size_t)256 << 20;
  /* CPU: at least 1 GiB too (the bench's default working set); CUDA: at
   * least the case's working set */
  const size_t base = r->backend == TRIDI_BACKEND_CPU ? (size_t)1 << 30 : set;
  return floor4 > base ? floor4 : base;
}

int bench_run(const bench_config *cfg) {
  char date[32];
  const time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

  /* every case, to size the buffers once */
  int ncases = 0;
  size_t max_bytes[BENCH_NOPS] = {0, 0, 0, 0, 0};
  int64_t max_x = 0;
  for (int di = 0; di < cfg->ndtypes; ++di)
    for (int li = 0; li < cfg->nlayouts; ++li)
      for (int ni = 0; ni < cfg->nns; ++ni) {
        bench_case bc;
        if (make_case(cfg, di, li, ni, &bc)) continue;
        for (int op = 0; op < BENCH_NOPS; ++op) {
          const size_t b = (size_t)bc.alloc_elems[op] * tridi_dtype_size(bc.dtype);
          if (b > max_bytes[op]) max_bytes[op] = b;
        }
        if (bc.alloc_elems[4] > max_x) max_x = bc.alloc_elems[4];
        free_case(cfg, &bc);
        ++ncases;
      }
  int nvariants = 0;
  for (int ri = 0; ri < cfg->nrunners; ++ri)
    for (int v = 0; v < cfg->nalgs * cfg->npivots; ++v)
      nvariants += variant_runs(cfg, cfg->runners[ri], v / cfg->npivots, v % cfg->npivots);
  ncases *= nvariants;

  void *buf[BENCH_NOPS];
  int ok = 1;
  for (int k = 0; k < BENCH_NOPS; ++k) ok &= (buf[k] = bench_alloc(max_bytes[k])) != NULL;
  unsigned char *mask = bench_alloc((size_t)max_x);
  if (!ok || mask == NULL) {
    fprintf(stderr, "tridi bench: cannot allocate the case buffers (5 x %.0f MiB)\n",
            (double)max_bytes[4] / 1048576.0);
    for (int k = 0; k < BENCH_NOPS; ++k) bench_free(buf[k]);
    bench_free(mask);
    return TRIDI_EXIT_FAIL;
  }
  const bench_data data = {buf[0], buf[1], buf[2], buf[3], buf[4]};

  sweep S;
  memset(&S, 0, sizeof S);
  S.cfg = cfg;
  S.data = &data;
  S.mask = mask;
  S.date = date;
  if (cfg->csv_path != NULL) {
    S.csv = fopen(cfg->csv_path, "w");
    if (S.csv == NULL) {
      fprintf(stderr, "tridi bench: cannot write %s\n", cfg->csv_path);
      for (int k = 0; k < BENCH_NOPS; ++k) bench_free(buf[k]);
      bench_free(mask);
      return TRIDI_EXIT_USAGE;
    }
    fprintf(S.csv, "%s\n", csv_columns);
  }

  int done = 0;
  const double t_start = bench_now();
  for (int ri = 0; ri < cfg->nrunners; ++ri) {
    const bench_runner *r = cfg->runners[ri];
    S.r = r;
    const size_t refb = ref_bytes(cfg, r);
    const double copy0 = r->copy_gbps(refb, &cfg->opts);
    const double stream0 = r->stream_gbps ? r->stream_gbps(refb, &cfg->opts) : NAN;
    if (r->backend == TRIDI_BACKEND_CPU)
      printf("# tridi bench: problem %s, backend %s, device %s, %d threads, SIMD %s, %s\n",
             cfg->kind->name, r->name, r->device_name(), cfg->opts.threads,
             tridi_simd_name(tridi_cpu_simd_detect()), date);
    else
      printf("# tridi bench: problem %s, backend %s, device %s, %s\n", cfg->kind->name, r->name,
             r->device_name(), date);
    const size_t cache = r->cache_bytes ? r->cache_bytes() : 0;
    printf("# copy bandwidth %.1f GB/s at the start (read+write, %.0f MiB working set, median; "
           "%s %.0f MiB%s), and again before every case (column copy: %%copy uses it)\n",
           copy0, (double)refb / 1048576.0,
           r->backend == TRIDI_BACKEND_CPU ? "last-level cache" : "L2", (double)cache / 1048576.0,
           cache > 0 ? "" : ": unknown");
    /* the CPU stream kernel is chosen at run time (non-temporal stores where
     * the ISA has them); the GPU's kernel writes x with plain stores */
    const int host = r->backend == TRIDI_BACKEND_CPU;
    if (r->stream_gbps)
      printf("# stream limit %.1f GB/s at the start (read 4 arrays, write 1 with %s stores, "
             "%.0f MiB; %s %.0f MiB%s), and again before every case (column "
             "stream: %%strm uses it)\n",
             stream0, host ? bench_stream_kind() : "plain", (double)refb / 1048576.0,
             host ? "last-level cache" : "L2",
             (double)(host ? bench_llc_bytes() : cache) / 1048576.0,
             host || cache > 0 ? "" : ": unknown");
    printf("# working set %.0f MiB per case; residual bound 4*max(n,8)*eps\n", cfg->size_mb);
    /* A case that fits in the last-level cache runs from the cache while the
     * copy reference (ref_bytes: several times the cache) streams from
     * memory: its %copy measures the cache and may exceed 100. */
    const double llc_mb = host ? (double)bench_llc_bytes() / 1048576.0 : 0;
    if (cfg->size_mb <= llc_mb)
      printf("# note: the working set fits in the last-level cache (%.0f MiB): the cases are "
             "cache-resident and %%copy (against a copy from memory) can exceed 100\n", llc_mb);
    S.over_copy = 0;
    print_header();
    for (int di = 0; di < cfg->ndtypes; ++di)
      for (int li = 0; li < cfg->nlayouts; ++li)
        for (int ni = 0; ni < cfg->nns; ++ni) {
          bench_case bc;
          if (make_case(cfg, di, li, ni, &bc)) continue;
          for (int v = 0; v < cfg->nalgs * cfg->npivots; ++v)
            done += variant_runs(cfg, r, v / cfg->npivots, v % cfg->npivots);
          if (!cfg->quiet)
            fprintf(stderr, "[%d/%d %.0fs] %s %s %s %s n=%lld batch=%lld\n", done, ncases,
                    bench_now() - t_start, r->name, cfg->kind->name, tridi_dtype_name(bc.dtype),
                    bc.layout, (long long)bc.n, (long long)bc.batch);
          cfg->kind->fill(&bc, cfg->seed, &data, cfg->opts.threads);
          /* The references are measured next to each case: on a shared host
           * the memory bandwidth drifts by 2x over minutes (docs/benchmarks.md). */
          const double copy = r->copy_gbps(refb, &cfg->opts);
          const double stream = r->stream_gbps ? r->stream_gbps(refb, &cfg->opts) : NAN;
          run_algs(&S, &bc, copy, stream);
          free_case(cfg, &bc);
        }
    if (S.over_copy > 0)
      printf("# note: %d row(s) above 100%% of the copy: a cache-resident working set (%.0f MiB "
             "per case) against a copy from memory (%.0f MiB); --size-mb several times the "
             "last-level cache measures memory\n",
             S.over_copy, cfg->size_mb, (double)refb / 1048576.0);
    if (r->release) r->release();
  }
  if (S.csv != NULL) fclose(S.csv);
  for (int k = 0; k < BENCH_NOPS; ++k) bench_free(buf[k]);
  bench_free(mask);
  fprintf(stderr,
          "tridi bench: %d cases: %d verified, %d not verified (known unstable), %d FAILED "
          "(%.0f s)\n",
          S.counts[0] + S.counts[1] + S.counts[2], S.counts[0], S.counts[1], S.counts[2],
          bench_now() - t_start);
  return S.counts[2] > 0 ? TRIDI_EXIT_FAIL : TRIDI_EXIT_OK;
}
