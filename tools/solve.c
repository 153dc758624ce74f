/* `tridi solve`: solve tridiagonal systems given as CSV columns a, b, c, d.
 *
 * Input: a header naming the columns (a, b, c, d required, in any order; an
 * optional `system` column groups consecutive rows into systems of equal
 * length; other columns are ignored; names in any case, quoted or not), then
 * one row per unknown (numbers as strtod reads them, quoted or not,
 * subnormal ones included).  Output: CSV
 * with a column x (and `system` when the input had it), one row per input row.
 */
#include "commands.h"
#include "tridi.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COL_A, COL_B, COL_C, COL_D, COL_SYS, NCOLS };
static const char *const col_names[NCOLS] = {"a", "b", "c", "d", "system"};

typedef struct columns {
  double *v[NCOLS];
  long *line; /* the input line of each row, for messages */
  size_t len, cap;
} columns;

static void solve_usage(FILE *f) {
  fprintf(f,
          "usage: tridi solve [options] FILE|-\n"
          "\n"
          "Solve a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] read from CSV: a header\n"
          "with columns a, b, c, d (any order, any case, quoted or not; other columns\n"
          "ignored) and one row per unknown.  An optional integer column `system`\n"
          "groups consecutive rows into separate systems (all of the same length; a\n"
          "system's rows must be consecutive), solved as one batch.\n"
          "a of each system's first row and c of its last row are ignored.\n"
          "\n"
          "options:\n"
          "  -o, --output FILE   write x there (default: stdout)\n"
          "  --dtype f32|f64     precision of the solve (default f64)\n"
          "  --backend cpu|ref   (default cpu)\n"
          "  --pivot MODE        partial (default): LU with partial pivoting, stable for\n"
          "                      any matrix; auto: no pivoting, then pivoting for the\n"
          "                      systems where growth is detected; none: no pivoting,\n"
          "                      growth reported (docs/accuracy.md)\n"
          "  -h, --help          this text\n"
          "\n"
          "exit status: 0 solved, 1 unreadable input, a system that broke down (zero\n"
          "pivot, NaN/Inf: the message names it, its x is written as nan) or, with\n"
          "--pivot none, one whose elimination grew (inaccurate: the message names\n"
          "it, its x is written); the other systems are solved; 2 usage error, or a\n"
          "`system` column that is not an integer or whose systems are not consecutive\n"
          "rows (the message names the line).\n");
}

/* Split `line` at commas in place; trims spaces and the line end. */
static int split_fields(char *line, char **fields, int max) {
  int k = 0;
  char *p = line;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma != NULL) *comma = '\0';
    char *end = p + strcspn(p, "\r\n");
    *end = '\0';
    while (*p == ' ' || *p == '\t') ++p;
    for (char *q = p + strlen(p); q > p && (q[-1] == ' ' || q[-1] == '\t'); --q) q[-1] = '\0';
    /* a quoted field ("a", 'b'): its text without the quotes */
    const size_t len = strlen(p);
    if (len >= 2 && (p[0] == '"' || p[0] == '\'') && p[len - 1] == p[0]) {
      p[len - 1] = '\0';
      ++p;
    }
    if (k < max) fields[k] = p;
    ++k;
    if (comma == NULL) break;
    p = comma + 1;
  }
  return k;
}

static int push_row(columns *cols, const double row[NCOLS], long lineno) {
  if (cols->len == cols->cap) {
    const size_t cap = cols->cap ? 2 * cols->cap : 1024;
    for (int k = 0; k < NCOLS; ++k) {
      double *p = realloc(cols->v[k], cap * sizeof(double));
      if (p == NULL) return 0;
      cols->v[k] = p;
    }
    long *l = realloc(cols->line, cap * sizeof(long));
    if (l == NULL) return 0;
    cols->line = l;
    cols->cap = cap;
  }
  for (int k = 0; k < NCOLS; ++k) cols->v[k][cols->len] = row[k];
  cols->line[cols->len] = lineno;
  ++cols->len;
  return 1;
}

/* Column names compare without regard to case ("A", "System"). */
static int same_name(const char *field, const char *name) {
  for (; *field != '\0' && *name != '\0'; ++field, ++name)
    if (tolower((unsigned char)*field) != *name) return 0;
  return *field == *name;
}

/* Read the CSV; returns 1 on success, else prints why and returns 0 (an
 * unreadable input) or -1 (a `system` value that is not an integer). */
static int read_csv(FILE *f, const char *name, columns *cols, int *has_sys) {
  enum { MAXF = 256 };
  char line[8192];
  char *fields[MAXF];
  int idx[NCOLS] = {-1, -1, -1, -1, -1};
  long lineno = 0;
  int header = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    ++lineno;
    if (strchr(line, '\n') == NULL && !feof(f)) {
      fprintf(stderr, "tridi solve: %s:%ld: line too long\n", name, lineno);
      return 0;
    }
    if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0') continue;
    const int nf = split_fields(line, fields, MAXF);
    if (nf > MAXF) {
      fprintf(stderr, "tridi solve: %s:%ld: more than %d columns\n", name, lineno, MAXF);
      return 0;
    }
    if (!header) {
      for (int i = 0; i < nf; ++i)
        for (int k = 0; k < NCOLS; ++k)
          if (same_name(fields[i], col_names[k])) idx[k] = i;
      for (int k = 0; k < COL_SYS; ++k)
        if (idx[k] < 0) {
          fprintf(stderr, "tridi solve: %s: the header has no column '%s'\n", name, col_names[k]);
          return 0;
        }
      *has_sys = idx[COL_SYS] >= 0;
      header = 1;
      continue;
    }
    double row[NCOLS] = {0, 0, 0, 0, 0};
    for (int k = 0; k < NCOLS; ++k) {
      if (idx[k] < 0) continue;
      if (idx[k] >= nf) {
        fprintf(stderr, "tridi solve: %s:%ld: missing column '%s'\n", name, lineno, col_names[k]);
        return 0;
      }
      char *end = NULL;
      errno = 0;
      row[k] = strtod(fields[idx[k]], &end);
      /* ERANGE on underflow (a subnormal or a value below it) is no error:
       * strtod returns the nearest representable value; an overflow is */
      const int overflow = errno == ERANGE && fabs(row[k]) > DBL_MAX;
      if (end == fields[idx[k]] || *end != '\0' || overflow) {
        fprintf(stderr, "tridi solve: %s:%ld: column '%s': '%s' is not a number\n", name, lineno,
                col_names[k], fields[idx[k]]);
        return 0;
      }
    }
    if (idx[COL_SYS] >= 0 && (!isfinite(row[COL_SYS]) || row[COL_SYS] != floor(row[COL_SYS]))) {
      fprintf(stderr, "tridi solve: %s:%ld: column 'system': '%s' is not an integer\n", name,
              lineno, fields[idx[COL_SYS]]);
      return -1;
    }
    if (!push_row(cols, row, lineno)) {
      fprintf(stderr, "tridi solve: out of memory at %s:%ld\n", name, lineno);
      return 0;
    }
  }
  if (ferror(f)) {
    fprintf(stderr, "tridi solve: cannot read %s\n", name);
    return 0;
  }
  if (!header) {
    fprintf(stderr, "tridi solve: %s: no header line\n", name);
    return 0;
  }
  return 1;
}

/* A run of consecutive rows with one `system` id. */
typedef struct run {
  double id;
  size_t first; /* its first row */
} run;

static int run_cmp(const void *x, const void *y) {
  const run *a = x, *b = y;
  if (a->id != b->id) return a->id < b->id ? -1 : 1;
  return a->first < b->first ? -1 : a->first > b->first;
}

/* Number of systems and their common length from the `system` column.
 * Returns 1, or prints why and returns 0 (systems of different lengths) or
 * -1 (a system whose rows are not consecutive: its id comes back after
 * another one's; the message names the line where it does). */
static int system_split(const columns *cols, int has_sys, int64_t *nsys, int64_t *n) {
  const size_t m = cols->len;
  if (!has_sys || m == 0) {
    *nsys = m > 0 ? 1 : 0;
    *n = (int64_t)m;
    return 1;
  }
  const double *s = cols->v[COL_SYS];
  size_t count = 1;
  for (size_t i = 1; i < m; ++i) count += s[i] != s[i - 1];
  run *runs = malloc(count * sizeof(run));
  if (runs == NULL) {
    fprintf(stderr, "tridi solve: out of memory\n");
    return 0;
  }
  size_t r = 0;
  for (size_t i = 0; i < m; ++i)
    if (i == 0 || s[i] != s[i - 1]) runs[r++] = (run){s[i], i};
  /* lengths first, in input order: run r spans runs[r].first .. the next */
  int rc = 1;
  const size_t len0 = count > 1 ? runs[1].first : m;
  for (r = 1; r < count && rc == 1; ++r) {
    const size_t len = (r + 1 < count ? runs[r + 1].first : m) - runs[r].first;
    if (len != len0) {
      fprintf(stderr, "tridi solve: line %ld: system %.17g has %zu rows, system %.17g %zu: "
                      "systems must be consecutive rows of equal length (the `system` column)\n",
              cols->line[runs[r].first], runs[r].id, len, runs[0].id, len0);
      rc = 0;
    }
  }
  /* an id that comes back: after sorting by (id, first row) it neighbours
   * its earlier run; the earliest such line in the input is named */
  qsort(runs, count, sizeof(run), run_cmp);
  size_t bad = m;
  for (r = 1; r < count; ++r)
    if (runs[r].id == runs[r - 1].id && runs[r].first < bad) bad = runs[r].first;
  if (bad < m) {
    fprintf(stderr, "tridi solve: line %ld: system %.17g again, after other systems: a "
                    "system's rows must be consecutive (the `system` column)\n",
            cols->line[bad], s[bad]);
    rc = -1;
  }
  free(runs);
  if (rc != 1) return rc;
  *nsys = (int64_t)count;
  *n = (int64_t)len0;
  return 1;
}

int tridi_cmd_solve(int argc, char **argv) {
  static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                           {"dtype", required_argument, NULL, 'T'},
                                           {"backend", required_argument, NULL, 'B'},
                                           {"pivot", required_argument, NULL, 'P'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  const char *out_path = NULL;
  tridi_dtype dtype = TRIDI_F64;
  tridi_backend backend = TRIDI_BACKEND_CPU;
  /* a small general-purpose solve: pivoting by default, whatever the matrix */
  tridi_pivot pivot = TRIDI_PIVOT_PARTIAL;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
    switch (c) {
      case 'o': out_path = optarg; break;
      case 'T':
        if (strcmp(optarg, "f64") == 0) dtype = TRIDI_F64;
        else if (strcmp(optarg, "f32") == 0) dtype = TRIDI_F32;
        else {
          fprintf(stderr, "tridi solve: unknown dtype '%s' (f32, f64)\n", optarg);
          return TRIDI_EXIT_USAGE;
        }
        break;
      case 'B':
        if (strcmp(optarg, "cpu") == 0) backend = TRIDI_BACKEND_CPU;
        else if (strcmp(optarg, "ref") == 0) backend = TRIDI_BACKEND_REF;
        else {
          fprintf(stderr, "tridi solve: unknown backend '%s' (cpu, ref)\n", optarg);
          return TRIDI_EXIT_USAGE;
        }
        break;
      case 'P':
        if (tridi_pivot_from_name(optarg, &pivot) != TRIDI_SUCCESS) {
          fprintf(stderr, "tridi solve: unknown pivoting '%s' (partial, auto, none)\n", optarg);
          return TRIDI_EXIT_USAGE;
        }
        break;
      case 'h': solve_usage(stdout); return TRIDI_EXIT_OK;
      default: solve_usage(stderr); return TRIDI_EXIT_USAGE;
    }
  }
  if (argc - optind != 1) {
    solve_usage(stderr);
    return TRIDI_EXIT_USAGE;
  }
  const char *in_path = argv[optind];
  FILE *in = strcmp(in_path, "-") == 0 ? stdin : fopen(in_path, "r");
  if (in == NULL) {
    fprintf(stderr, "tridi solve: cannot open %s\n", in_path);
    return TRIDI_EXIT_FAIL;
  }
  columns cols;
  memset(&cols, 0, sizeof cols);
  int has_sys = 0, rc = TRIDI_EXIT_FAIL;
  const int read_rc = read_csv(in, in_path, &cols, &has_sys);
  if (in != stdin) fclose(in);
  int64_t nsys = 0, n = 0;
  void *buf[5] = {NULL, NULL, NULL, NULL, NULL};
  int32_t *info = NULL;
  tridi_desc desc = NULL;
  tridi_plan plan = NULL;
  FILE *out = NULL;
  const int split_rc = read_rc == 1 ? system_split(&cols, has_sys, &nsys, &n) : read_rc;
  if (split_rc != 1) {
    if (split_rc < 0) rc = TRIDI_EXIT_USAGE;
    goto done;
  }

  const size_t m = cols.len, es = tridi_dtype_size(dtype);
  for (int k = 0; k < 5; ++k) {
    buf[k] = malloc(m > 0 ? m * es : es);
    if (buf[k] == NULL) goto oom;
  }
  info = malloc(sizeof(int32_t) * (size_t)(nsys > 0 ? nsys : 1));
  if (info == NULL) goto oom;
  for (int k = 0; k < 4; ++k)
    for (size_t i = 0; i < m; ++i) {
      if (dtype == TRIDI_F64) ((double *)buf[k])[i] = cols.v[k][i];
      else ((float *)buf[k])[i] = (float)cols.v[k][i];
    }

  const int64_t shape[2] = {nsys, n};
  tridi_options opts;
  tridi_options_init(&opts);
  opts.backend = backend;
  opts.pivot = pivot;
  tridi_status st = tridi_desc_create(&desc, dtype, 2, shape, 1);
  if (st == TRIDI_SUCCESS) st = tridi_plan_create(&plan, desc, &opts);
  if (st == TRIDI_SUCCESS)
    st = tridi_execute(plan, buf[0], buf[1], buf[2], buf[3], buf[4], info, NULL);
  if (st != TRIDI_SUCCESS) {
    fprintf(stderr, "tridi solve: %s: %s\n", tridi_status_name(st), tridi_last_error());
    /* per-system failures: info says which (it is not set otherwise) */
    if (st != TRIDI_ERR_ZERO_PIVOT && st != TRIDI_ERR_NONFINITE && st != TRIDI_ERR_INACCURATE)
      goto done;
    for (int64_t s = 0; s < nsys; ++s) {
      if (info[s] == TRIDI_INFO_INACCURATE)
        fprintf(stderr, "tridi solve: system %lld: inaccurate (element growth without pivoting; "
                        "--pivot partial solves it)\n", (long long)s);
      else if (info[s] != 0)
        fprintf(stderr, "tridi solve: system %lld: %s at row %d\n", (long long)s,
                info[s] > 0 ? "zero pivot" : "NaN/Inf", info[s] > 0 ? info[s] : -info[s]);
    }
  }

  out = out_path != NULL ? fopen(out_path, "w") : stdout;
  if (out == NULL) {
    fprintf(stderr, "tridi solve: cannot write %s\n", out_path);
    goto done;
  }
  fprintf(out, has_sys ? "system,x\n" : "x\n");
  for (size_t i = 0; i < m; ++i) {
    /* the x of a system that broke down is unspecified: written as nan (an
     * inaccurate one's is written) */
    const int32_t inf_s = info[i / (size_t)n];
    const double x = inf_s != 0 && inf_s != TRIDI_INFO_INACCURATE ? NAN
                     : dtype == TRIDI_F64     ? ((double *)buf[4])[i]
                                              : (double)((float *)buf[4])[i];
    if (has_sys) fprintf(out, "%.17g,", cols.v[COL_SYS][i]);
    fprintf(out, dtype == TRIDI_F64 ? "%.17g\n" : "%.9g\n", x);
  }
  if (ferror(out)) fprintf(stderr, "tridi solve: error writing the output\n");
  else if (st == TRIDI_SUCCESS) rc = TRIDI_EXIT_OK;
  goto done;
oom:
  fprintf(stderr, "tridi solve: out of memory\n");
done:
  if (out != NULL && out != stdout) fclose(out);
  tridi_plan_destroy(plan);
  tridi_desc_destroy(desc);
  for (int k = 0; k < 5; ++k) free(buf[k]);
  free(info);
  for (int k = 0; k < NCOLS; ++k) free(cols.v[k]);
  free(cols.line);
  return rc;
}
