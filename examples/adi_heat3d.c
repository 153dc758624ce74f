/* adi_heat3d: the 3-D heat equation u_t = nu * Laplacian(u) on the unit cube
 * with homogeneous Dirichlet boundaries, solved with the Douglas ADI scheme
 * and tridi, checked against the exact solution
 *
 *     u(x, y, z, t) = exp(-3 pi^2 nu t) sin(pi x) sin(pi y) sin(pi z).
 *
 * Scheme (Douglas / Douglas-Gunn with theta = 1/2, in delta form; second
 * order in time and space, unconditionally stable).  With the 3-point second
 * differences D_x, D_y, D_z of the 7-point Laplacian, each step is
 *
 *     w  = dt nu (D_x + D_y + D_z) u^n             explicit part (7-point stencil)
 *     (I - dt nu/2 D_x) w <- w                     nx-long systems along X (axis 2, stride 1)
 *     (I - dt nu/2 D_y) w <- w                     ny-long systems along Y (axis 1, stride ld)
 *     (I - dt nu/2 D_z) w <- w                     nz-long systems along Z (axis 0, stride ny*ld)
 *     u^{n+1} = u^n + w
 *
 * Each implicit sweep is one tridi_execute on the whole grid, in place (x = d
 * = w).  The three plans are made once, before the time loop.  The matrices
 * are the same for every grid line of a direction, so by default a, b and c
 * are arrays of n elements broadcast along the two other axes with stride 0:
 * the solve then moves only d and x through memory.
 *
 * Modal analysis gives the discrete solution exactly: sin(pi x_i) is an
 * eigenvector of the 3-point second difference, so the computed solution is
 * G^steps sin sin sin with the amplification factor
 *     G = 1 + (z_x + z_y + z_z) / ((1 - z_x/2)(1 - z_y/2)(1 - z_z/2)),
 *     z_k = -4 r_k sin^2(pi h_k / 2),  r_k = nu dt / h_k^2,
 * and the error is |G^steps - exp(-3 pi^2 nu T)| max(sin sin sin).  The
 * program prints this prediction next to the measured error, and --check
 * compares the error with it and with the bound that the scheme's order
 * gives (see analyse()).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "adi_heat3d.h"
#include "tridi.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ------------------------------------------------------------------------ */
/* Grid helpers (shared with adi_heat3d_cuda.c)                             */
/* ------------------------------------------------------------------------ */

int64_t adi_grid_elems(const adi_config *cfg) { return cfg->nz * cfg->ny * cfg->ld; }

int64_t adi_points(const adi_config *cfg, int dir) {
  return dir == ADI_X ? cfg->nx : dir == ADI_Y ? cfg->ny : cfg->nz;
}

double adi_h(const adi_config *cfg, int dir) { return 1.0 / (double)(adi_points(cfg, dir) + 1); }

void adi_initial(const adi_config *cfg, double *u) {
  const double hx = adi_h(cfg, ADI_X), hy = adi_h(cfg, ADI_Y), hz = adi_h(cfg, ADI_Z);
  for (int64_t k = 0; k < cfg->nz; ++k) {
    const double sz = sin(M_PI * (double)(k + 1) * hz);
    for (int64_t j = 0; j < cfg->ny; ++j) {
      const double syz = sz * sin(M_PI * (double)(j + 1) * hy);
      double *row = u + (k * cfg->ny + j) * cfg->ld;
      for (int64_t i = 0; i < cfg->nx; ++i) row[i] = syz * sin(M_PI * (double)(i + 1) * hx);
      for (int64_t i = cfg->nx; i < cfg->ld; ++i) row[i] = NAN;
    }
  }
}

void adi_zero(const adi_config *cfg, double *w) {
  for (int64_t r = 0; r < cfg->nz * cfg->ny; ++r) {
    double *row = w + r * cfg->ld;
    for (int64_t i = 0; i < cfg->nx; ++i) row[i] = 0.0;
    for (int64_t i = cfg->nx; i < cfg->ld; ++i) row[i] = NAN;
  }
}

void adi_coefficients(const adi_config *cfg, int dir, int full, double *a, double *b, double *c) {
  const double h = adi_h(cfg, dir);
  const double r = cfg->nu * cfg->dt / (h * h);
  const int64_t n = adi_points(cfg, dir);
  if (!full) {
    for (int64_t i = 0; i < n; ++i) {
      a[i] = i > 0 ? -0.5 * r : 0.0; /* a[0] and c[n-1] are not used by tridi */
      b[i] = 1.0 + r;
      c[i] = i < n - 1 ? -0.5 * r : 0.0;
    }
    return;
  }
  for (int64_t k = 0; k < cfg->nz; ++k)
    for (int64_t j = 0; j < cfg->ny; ++j) {
      const int64_t o = (k * cfg->ny + j) * cfg->ld;
      for (int64_t i = 0; i < cfg->ld; ++i) {
        const int64_t idx[ADI_NDIR] = {i, j, k};
        const int64_t p = idx[dir];
        const int inside = i < cfg->nx;
        a[o + i] = inside && p > 0 ? -0.5 * r : 0.0;
        b[o + i] = inside ? 1.0 + r : 0.0;
        c[o + i] = inside && p < n - 1 ? -0.5 * r : 0.0;
      }
    }
}

tridi_status adi_report_failure(const char *what, tridi_status st) {
  fprintf(stderr, "adi_heat3d: %s failed: %s (%s)\n  %s\n", what, tridi_status_name(st),
          tridi_status_string(st), tridi_last_error());
  return st;
}

tridi_status adi_make_plan(const adi_config *cfg, int dir, tridi_backend backend,
                           tridi_plan *plan) {
  /* The array is u[z][y][x]: dimension 0 is Z, 1 is Y, 2 is X (contiguous). */
  const int64_t shape[3] = {cfg->nz, cfg->ny, cfg->nx};
  const int64_t grid_strides[3] = {cfg->ny * cfg->ld, cfg->ld, 1};
  const int axis = 2 - dir;
  /* Broadcast coefficients: an n-element array that advances only along the
   * solve axis (stride 1) and stays put (stride 0) along the two others. */
  int64_t coef_strides[3] = {0, 0, 0};
  coef_strides[axis] = 1;
  const int64_t *cs = cfg->full_coef ? grid_strides : coef_strides;

  tridi_desc desc = NULL;
  tridi_status st = tridi_desc_create(&desc, TRIDI_F64, 3, shape, axis);
  if (st) return adi_report_failure("tridi_desc_create", st);
  if ((st = tridi_desc_set_strides(desc, TRIDI_OP_A, cs)) ||
      (st = tridi_desc_set_strides(desc, TRIDI_OP_B, cs)) ||
      (st = tridi_desc_set_strides(desc, TRIDI_OP_C, cs)) ||
      (st = tridi_desc_set_strides(desc, TRIDI_OP_D, grid_strides)) ||
      (st = tridi_desc_set_strides(desc, TRIDI_OP_X, grid_strides))) {
    tridi_desc_destroy(desc);
    return adi_report_failure("tridi_desc_set_strides", st);
  }
  tridi_options opts;
  tridi_options_init(&opts);
  opts.backend = backend;
  opts.num_threads = backend == TRIDI_BACKEND_CUDA ? 0 : cfg->threads;
  opts.device = cfg->device;
  st = tridi_plan_create(plan, desc, &opts);
  tridi_desc_destroy(desc); /* the plan keeps its own copy */
  if (st) return adi_report_failure("tridi_plan_create", st);
  return TRIDI_SUCCESS;
}

void adi_plan_describe(tridi_plan plan, int dir, adi_result *r) {
  tridi_plan_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  if (tridi_plan_get_info(plan, &info) != TRIDI_SUCCESS) return;
  snprintf(r->kernel[dir], sizeof r->kernel[dir], "%s", info.kernel ? info.kernel : "?");
  snprintf(r->alg[dir], sizeof r->alg[dir], "%s", tridi_alg_name(info.alg));
  r->threads = info.backend == TRIDI_BACKEND_CUDA ? 0 : info.num_threads;
}

/* ------------------------------------------------------------------------ */
/* CPU time loop                                                            */
/* ------------------------------------------------------------------------ */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void *grid_alloc(size_t elems) {
  size_t bytes = elems * sizeof(double);
  bytes = (bytes + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
  return aligned_alloc(64, bytes ? bytes : 64);
}

static int cpu_threads(const adi_config *cfg) {
#ifdef _OPENMP
  return cfg->threads > 0 ? cfg->threads : omp_get_max_threads();
#else
  (void)cfg;
  return 1;
#endif
}

/* w = rx D_x u + ry D_y u + rz D_z u on the interior (zero Dirichlet values
 * outside).  Reads only interior elements of u, writes only those of w. */
static void rhs_cpu(const adi_config *cfg, const double *restrict u, double *restrict w,
                    const double *restrict zeros, int nthreads) {
  const int64_t nx = cfg->nx, ny = cfg->ny, nz = cfg->nz, ld = cfg->ld, plane = ny * ld;
  const double rx = cfg->nu * cfg->dt / (adi_h(cfg, ADI_X) * adi_h(cfg, ADI_X));
  const double ry = cfg->nu * cfg->dt / (adi_h(cfg, ADI_Y) * adi_h(cfg, ADI_Y));
  const double rz = cfg->nu * cfg->dt / (adi_h(cfg, ADI_Z) * adi_h(cfg, ADI_Z));
  const double rc = -2.0 * (rx + ry + rz);
#pragma omp parallel for collapse(2) schedule(static) num_threads(nthreads)
  for (int64_t k = 0; k < nz; ++k) {
    for (int64_t j = 0; j < ny; ++j) {
      const int64_t o = k * plane + j * ld;
      const double *uc = u + o;
      /* neighbour rows, or a row of zeros on the boundary */
      const double *ys = j > 0 ? uc - ld : zeros, *yn = j < ny - 1 ? uc + ld : zeros;
      const double *zs = k > 0 ? uc - plane : zeros, *zn = k < nz - 1 ? uc + plane : zeros;
      double *wr = w + o;
#define ADI_POINT(i, xw, xe) \
  (rc * uc[i] + rx * ((xw) + (xe)) + ry * (ys[i] + yn[i]) + rz * (zs[i] + zn[i]))
      /* the two ends of the row have a zero x neighbour; the middle is branch-free */
      wr[0] = ADI_POINT(0, 0.0, nx > 1 ? uc[1] : 0.0);
      for (int64_t i = 1; i < nx - 1; ++i) wr[i] = ADI_POINT(i, uc[i - 1], uc[i + 1]);
      if (nx > 1) wr[nx - 1] = ADI_POINT(nx - 1, uc[nx - 2], 0.0);
#undef ADI_POINT
    }
  }
}

/* u += w on the interior. */
static void update_cpu(const adi_config *cfg, double *restrict u, const double *restrict w,
                       int nthreads) {
  const int64_t rows = cfg->nz * cfg->ny, nx = cfg->nx, ld = cfg->ld;
#pragma omp parallel for schedule(static) num_threads(nthreads)
  for (int64_t r = 0; r < rows; ++r) {
    double *ur = u + r * ld;
    const double *wr = w + r * ld;
    for (int64_t i = 0; i < nx; ++i) ur[i] += wr[i];
  }
}

/* Copy bandwidth of the host: best of 3 copies of one grid array (all of
 * its rows, with the threads of the explicit part), read + write bytes. */
static double copy_gbps_cpu(const adi_config *cfg, const double *src, double *dst, int nthreads) {
  const int64_t rows = cfg->nz * cfg->ny, ld = cfg->ld;
  double best = INFINITY;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = now_ms();
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (int64_t r = 0; r < rows; ++r) memcpy(dst + r * ld, src + r * ld, (size_t)ld * sizeof(double));
    const double t = now_ms() - t0;
    if (t < best) best = t;
  }
  return 2.0 * (double)rows * (double)ld * sizeof(double) / (best * 1e6);
}

/* The time loop on host arrays with a CPU or REF plan per direction.
 * u: initial condition in, solution out; w: work array (padding NaN). */
static int run_host(const adi_config *cfg, double *u, double *w, adi_result *res) {
  int rc = 1;
  tridi_plan plan[ADI_NDIR] = {NULL, NULL, NULL};
  double *coef[ADI_NDIR][3] = {{NULL}};
  const int64_t nmax = cfg->nx > cfg->ny ? (cfg->nx > cfg->nz ? cfg->nx : cfg->nz)
                                         : (cfg->ny > cfg->nz ? cfg->ny : cfg->nz);
  double *zeros = calloc((size_t)nmax, sizeof(double));
  const int nthreads = cpu_threads(cfg);
  if (!zeros) goto out;

  /* Plans and coefficients, once, before the time loop. */
  for (int d = 0; d < ADI_NDIR; ++d) {
    const size_t len = cfg->full_coef ? (size_t)adi_grid_elems(cfg) : (size_t)adi_points(cfg, d);
    for (int m = 0; m < 3; ++m)
      if (!(coef[d][m] = grid_alloc(len))) {
        fprintf(stderr, "adi_heat3d: out of memory for the coefficients\n");
        goto out;
      }
    adi_coefficients(cfg, d, cfg->full_coef, coef[d][0], coef[d][1], coef[d][2]);
    if (adi_make_plan(cfg, d, cfg->backend, &plan[d])) goto out;
    adi_plan_describe(plan[d], d, res);
  }

  /* Copy bandwidth (u into w), then warm-up: one RHS pass into w, and one
   * untimed solve per plan on w (zeros). */
  res->copy_gbps = copy_gbps_cpu(cfg, u, w, nthreads);
  rhs_cpu(cfg, u, w, zeros, nthreads);
  adi_zero(cfg, w);
  for (int d = 0; d < ADI_NDIR; ++d) {
    const tridi_status st = tridi_execute(plan[d], coef[d][0], coef[d][1], coef[d][2], w, w, NULL, NULL);
    if (st) {
      adi_report_failure("tridi_execute (warm-up)", st);
      goto out;
    }
  }

  for (int step = 0; step < cfg->steps; ++step) {
    const double t0 = now_ms();
    rhs_cpu(cfg, u, w, zeros, nthreads);
    const double t1 = now_ms();
    res->rhs_ms += t1 - t0;
    double tp = t1;
    for (int d = 0; d < ADI_NDIR; ++d) {
      /* in place: d and x are both w */
      const tridi_status st =
          tridi_execute(plan[d], coef[d][0], coef[d][1], coef[d][2], w, w, NULL, NULL);
      if (st) {
        fprintf(stderr, "adi_heat3d: step %d, direction %c:\n", step, "XYZ"[d]);
        adi_report_failure("tridi_execute", st);
        goto out;
      }
      const double tq = now_ms();
      res->solve_ms[d] += tq - tp;
      tp = tq;
    }
    update_cpu(cfg, u, w, nthreads);
    const double t2 = now_ms();
    res->update_ms += t2 - tp;
    res->step_ms += t2 - t0;
  }
  rc = 0;
out:
  for (int d = 0; d < ADI_NDIR; ++d) {
    tridi_plan_destroy(plan[d]);
    for (int m = 0; m < 3; ++m) free(coef[d][m]);
  }
  free(zeros);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Error analysis                                                           */
/* ------------------------------------------------------------------------ */

typedef struct adi_analysis {
  double t_end;       /* steps * dt */
  double exact_amp;   /* exp(-3 pi^2 nu T) */
  double discrete_amp;/* G^steps */
  double smax;        /* max over grid points of sin sin sin */
  double predicted;   /* |G^steps - exact_amp| * smax: the error the scheme must make */
  double bound;       /* order bound: 2 (C_h sum h_k^2 + C_t dt^2) + rounding floor */
  double rounding;    /* rounding floor, included in bound */
} adi_analysis;

/* Leading-order error of the scheme for this solution, from the modal
 * analysis above (E = exp(-3 pi^2 nu T)):
 *   space: the 3-point difference has eigenvalue (4/h^2) sin^2(pi h/2)
 *          = pi^2 (1 - pi^2 h^2 / 12 + O(h^4)), so the computed mode decays
 *          too slowly by  E * nu T (pi^4/12) (h_x^2 + h_y^2 + h_z^2);
 *   time:  log G - S = S^3/12 - S P2/4 + O(z^4) per step (S = sum z_k,
 *          P2 = sum_{j<k} z_j z_k); with |z_k| <= q = nu pi^2 dt that is at
 *          most 4.5 q^3 per step, so  E * T * 4.5 nu^3 pi^6 dt^2  in all.
 * Both are O(h^2 + dt^2); the bound takes twice their sum (the higher-order
 * terms are far smaller on any grid where the error is meaningful), plus a
 * rounding floor of 1000 eps per step.  For this solution the dt^2 term is
 * pessimistic: S^3/12 - S P2/4 = S sum_{j<k} (z_j - z_k)^2 / 24, and the z_k
 * differ only by O(h^2), so the time error behaves like dt^3 here. */
static adi_analysis analyse(const adi_config *cfg) {
  adi_analysis A;
  A.t_end = cfg->steps * cfg->dt;
  A.exact_amp = exp(-3.0 * M_PI * M_PI * cfg->nu * A.t_end);
  double S = 0.0, P = 1.0, sum_h2 = 0.0;
  A.smax = 1.0;
  for (int d = 0; d < ADI_NDIR; ++d) {
    const double h = adi_h(cfg, d);
    const int64_t n = adi_points(cfg, d);
    const double s = sin(0.5 * M_PI * h);
    const double z = -4.0 * (cfg->nu * cfg->dt / (h * h)) * s * s;
    S += z;
    P *= 1.0 - 0.5 * z;
    sum_h2 += h * h;
    /* sin(pi (i+1) h) is largest at the middle point(s) */
    const int64_t im = (n - 1) / 2;
    A.smax *= sin(M_PI * (double)(im + 1) * h);
  }
  const double G = 1.0 + S / P;
  A.discrete_amp = pow(G, (double)cfg->steps);
  A.predicted = fabs(A.discrete_amp - A.exact_amp) * A.smax;
  const double pi2 = M_PI * M_PI;
  const double c_space = cfg->nu * A.t_end * pi2 * pi2 / 12.0 * sum_h2;
  const double c_time = A.t_end * 4.5 * pow(cfg->nu * pi2, 3.0) * cfg->dt * cfg->dt;
  A.rounding = 1000.0 * DBL_EPSILON * (cfg->steps + 1);
  A.bound = 2.0 * A.exact_amp * (c_space + c_time) + A.rounding;
  return A;
}

/* Max |u - exact| over the interior (NaN counts as infinite). */
static double max_error(const adi_config *cfg, const double *u, double amp) {
  const double hx = adi_h(cfg, ADI_X), hy = adi_h(cfg, ADI_Y), hz = adi_h(cfg, ADI_Z);
  double err = 0.0;
  for (int64_t k = 0; k < cfg->nz; ++k) {
    const double sz = amp * sin(M_PI * (double)(k + 1) * hz);
    for (int64_t j = 0; j < cfg->ny; ++j) {
      const double syz = sz * sin(M_PI * (double)(j + 1) * hy);
      const double *row = u + (k * cfg->ny + j) * cfg->ld;
      for (int64_t i = 0; i < cfg->nx; ++i) {
        const double e = fabs(row[i] - syz * sin(M_PI * (double)(i + 1) * hx));
        if (!(e <= err)) err = isnan(e) ? INFINITY : e;
      }
    }
  }
  return err;
}

/* Number of padding elements that are no longer NaN (someone wrote there). */
static int64_t padding_written(const adi_config *cfg, const double *g) {
  int64_t bad = 0;
  for (int64_t r = 0; r < cfg->nz * cfg->ny; ++r)
    for (int64_t i = cfg->nx; i < cfg->ld; ++i) bad += !isnan(g[r * cfg->ld + i]);
  return bad;
}

/* ------------------------------------------------------------------------ */
/* Command line                                                             */
/* ------------------------------------------------------------------------ */

static void usage(FILE *f) {
  fprintf(f,
          "usage: adi_heat3d [options]\n"
          "Solve u_t = nu Laplacian(u) on the unit cube (zero Dirichlet boundaries) with the\n"
          "Douglas ADI scheme (theta = 1/2, second order), tridi solving along X, Y and Z.\n"
          "\n"
          "  --n N            interior points per axis (default 128)\n"
          "  --nx/--ny/--nz N points along one axis (override --n)\n"
          "  --pad P          extra elements at the end of each x row (default 0)\n"
          "  --steps S        time steps (default 20)\n"
          "  --nu NU          diffusivity (default 1)\n"
          "  --dt DT          time step (default h/10, h = 1/(max points + 1))\n"
          "  --backend B      cpu (default), ref or cuda\n"
          "  --threads T      CPU threads (default: OpenMP's default)\n"
          "  --device D       CUDA device ordinal (default 0)\n"
          "  --coef C         broadcast (default: n-element a, b, c with stride 0 along the\n"
          "                   other axes) or full (whole-grid a, b, c arrays)\n"
          "  --check          exit 1 when the error exceeds the scheme's order bound, the\n"
          "                   modal prediction, or padding was written\n"
          "  --help           this text\n"
          "Exit status: 0 success, 1 failure (solver error or failed check), 2 usage error or\n"
          "backend not available.\n");
}

static int parse_i64(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out) {
  char *end = NULL;
  errno = 0;
  const long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) {
    fprintf(stderr, "adi_heat3d: %s wants an integer in %lld..%lld, got '%s'\n", opt,
            (long long)lo, (long long)hi, s);
    return 0;
  }
  *out = (int64_t)v;
  return 1;
}

static int parse_pos_double(const char *opt, const char *s, double *out) {
  char *end = NULL;
  errno = 0;
  const double v = strtod(s, &end);
  if (errno || end == s || *end || !(v > 0.0) || !isfinite(v)) {
    fprintf(stderr, "adi_heat3d: %s wants a positive number, got '%s'\n", opt, s);
    return 0;
  }
  *out = v;
  return 1;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, adi_config *cfg) {
  enum { O_N = 256, O_NX, O_NY, O_NZ, O_PAD, O_STEPS, O_NU, O_DT, O_BACKEND, O_THREADS,
         O_DEVICE, O_COEF, O_CHECK, O_HELP };
  static const struct option longopts[] = {
      {"n", required_argument, NULL, O_N},          {"nx", required_argument, NULL, O_NX},
      {"ny", required_argument, NULL, O_NY},        {"nz", required_argument, NULL, O_NZ},
      {"pad", required_argument, NULL, O_PAD},      {"steps", required_argument, NULL, O_STEPS},
      {"nu", required_argument, NULL, O_NU},        {"dt", required_argument, NULL, O_DT},
      {"backend", required_argument, NULL, O_BACKEND},
      {"threads", required_argument, NULL, O_THREADS},
      {"device", required_argument, NULL, O_DEVICE}, {"coef", required_argument, NULL, O_COEF},
      {"check", no_argument, NULL, O_CHECK},        {"help", no_argument, NULL, O_HELP},
      {NULL, 0, NULL, 0}};
  int64_t n = 128, nx = 0, ny = 0, nz = 0, v = 0;
  const int64_t nlim = 1 << 20;
  cfg->pad = 0;
  cfg->steps = 20;
  cfg->nu = 1.0;
  cfg->dt = 0.0;
  cfg->backend = TRIDI_BACKEND_CPU;
  cfg->threads = 0;
  cfg->device = 0;
  cfg->full_coef = 0;
  cfg->check = 0;
  int c;
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    switch (c) {
      case O_N: if (!parse_i64("--n", optarg, 1, nlim, &n)) return 2; break;
      case O_NX: if (!parse_i64("--nx", optarg, 1, nlim, &nx)) return 2; break;
      case O_NY: if (!parse_i64("--ny", optarg, 1, nlim, &ny)) return 2; break;
      case O_NZ: if (!parse_i64("--nz", optarg, 1, nlim, &nz)) return 2; break;
      case O_PAD: if (!parse_i64("--pad", optarg, 0, nlim, &cfg->pad)) return 2; break;
      case O_STEPS:
        if (!parse_i64("--steps", optarg, 1, 100000000, &v)) return 2;
        cfg->steps = (int)v;
        break;
      case O_NU: if (!parse_pos_double("--nu", optarg, &cfg->nu)) return 2; break;
      case O_DT: if (!parse_pos_double("--dt", optarg, &cfg->dt)) return 2; break;
      case O_BACKEND:
        if (!strcmp(optarg, "cpu")) cfg->backend = TRIDI_BACKEND_CPU;
        else if (!strcmp(optarg, "ref")) cfg->backend = TRIDI_BACKEND_REF;
        else if (!strcmp(optarg, "cuda")) cfg->backend = TRIDI_BACKEND_CUDA;
        else {
          fprintf(stderr, "adi_heat3d: --backend wants cpu, ref or cuda, got '%s'\n", optarg);
          return 2;
        }
        break;
      case O_THREADS:
        if (!parse_i64("--threads", optarg, 0, 4096, &v)) return 2;
        cfg->threads = (int)v;
        break;
      case O_DEVICE:
        if (!parse_i64("--device", optarg, 0, 1024, &v)) return 2;
        cfg->device = (int)v;
        break;
      case O_COEF:
        if (!strcmp(optarg, "broadcast")) cfg->full_coef = 0;
        else if (!strcmp(optarg, "full")) cfg->full_coef = 1;
        else {
          fprintf(stderr, "adi_heat3d: --coef wants broadcast or full, got '%s'\n", optarg);
          return 2;
        }
        break;
      case O_CHECK: cfg->check = 1; break;
      case O_HELP: usage(stdout); return 0;
      default: usage(stderr); return 2;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "adi_heat3d: unexpected argument '%s'\n", argv[optind]);
    usage(stderr);
    return 2;
  }
  cfg->nx = nx ? nx : n;
  cfg->ny = ny ? ny : n;
  cfg->nz = nz ? nz : n;
  cfg->ld = cfg->nx + cfg->pad;
  /* 2^40 elements per array at most (8 TiB): keeps every index product in int64 */
  if ((double)cfg->nz * (double)cfg->ny * (double)cfg->ld > 1099511627776.0) {
    fprintf(stderr, "adi_heat3d: the grid is too large\n");
    return 2;
  }
  if (cfg->dt == 0.0) {
    const int64_t nmax = cfg->nx > cfg->ny ? (cfg->nx > cfg->nz ? cfg->nx : cfg->nz)
                                           : (cfg->ny > cfg->nz ? cfg->ny : cfg->nz);
    cfg->dt = 0.1 / (double)(nmax + 1);
  }
  return -1;
}

/* ------------------------------------------------------------------------ */
/* Report                                                                   */
/* ------------------------------------------------------------------------ */

static void print_row(const char *name, double ms_total, int steps, double bench_bytes,
                      double real_bytes, double copy_gbps) {
  const double ms = ms_total / steps, real = real_bytes / (ms * 1e6);
  char bench[32] = "-";
  if (bench_bytes > 0) snprintf(bench, sizeof bench, "%.2f", bench_bytes / (ms * 1e6));
  printf("  %-22s %10.4f %12s %12.2f %8.0f%%\n", name, ms, bench, real, 100.0 * real / copy_gbps);
}

int main(int argc, char **argv) {
  adi_config cfg;
  const int pr = parse_args(argc, argv, &cfg);
  if (pr >= 0) return pr;

  if (!tridi_backend_available(cfg.backend)) {
    fprintf(stderr, "adi_heat3d: backend %s is not available in this build of tridi%s\n",
            tridi_backend_name(cfg.backend),
            cfg.backend == TRIDI_BACKEND_CUDA ? " (built without CUDA, or no CUDA device visible)"
                                              : "");
    return 2;
  }
#ifndef ADI_HAVE_CUDA
  if (cfg.backend == TRIDI_BACKEND_CUDA) {
    fprintf(stderr, "adi_heat3d: this example was built without CUDA; --backend cuda is not "
                    "available\n");
    return 2;
  }
#endif

  const int64_t elems = adi_grid_elems(&cfg);
  double *u = grid_alloc((size_t)elems), *w = grid_alloc((size_t)elems);
  if (!u || !w) {
    fprintf(stderr, "adi_heat3d: out of memory for two grids of %lld elements\n", (long long)elems);
    free(u);
    free(w);
    return 1;
  }
  adi_initial(&cfg, u);
  adi_zero(&cfg, w);

  const double h[ADI_NDIR] = {adi_h(&cfg, ADI_X), adi_h(&cfg, ADI_Y), adi_h(&cfg, ADI_Z)};
  const double hmin = fmin(h[0], fmin(h[1], h[2]));
  printf("adi_heat3d: u_t = nu Laplacian(u) on the unit cube, zero Dirichlet boundaries\n");
  printf("scheme      Douglas ADI, theta = 1/2 (delta form): O(dt^2 + h^2), unconditionally stable\n");
  printf("grid        %lld x %lld x %lld interior points (x, y, z), row length %lld (pad %lld), "
         "double\n",
         (long long)cfg.nx, (long long)cfg.ny, (long long)cfg.nz, (long long)cfg.ld,
         (long long)cfg.pad);
  printf("            h = %.6g, %.6g, %.6g\n", h[0], h[1], h[2]);
  printf("time        nu = %g, dt = %.6g, steps = %d, T = %.6g, nu dt / h^2 = %.4g "
         "(explicit limit 1/6)\n",
         cfg.nu, cfg.dt, cfg.steps, cfg.steps * cfg.dt, cfg.nu * cfg.dt / (hmin * hmin));
  printf("backend     %s, coefficients %s\n", tridi_backend_name(cfg.backend),
         cfg.full_coef ? "full arrays (one a, b, c element per grid point)"
                       : "broadcast (n-element a, b, c, stride 0 along the other two axes)");
  fflush(stdout);

  adi_result res;
  memset(&res, 0, sizeof res);
  int rc;
#ifdef ADI_HAVE_CUDA
  if (cfg.backend == TRIDI_BACKEND_CUDA)
    rc = adi_run_cuda(&cfg, u, w, &res);
  else
#endif
    rc = run_host(&cfg, u, w, &res);
  if (rc) {
    free(u);
    free(w);
    return 1;
  }

  const char *dirname[ADI_NDIR] = {"X (axis 2, stride 1)", "Y (axis 1, stride ld)",
                                   "Z (axis 0, stride ny ld)"};
  for (int d = 0; d < ADI_NDIR; ++d)
    printf("plan %-24s %s, kernel %s\n", dirname[d], res.alg[d], res.kernel[d]);
  if (cfg.backend != TRIDI_BACKEND_CUDA)
    printf("threads     %d (solves), %d (explicit part)\n", res.threads, cpu_threads(&cfg));

  /* Bytes per step.  "bench": 5 words per unknown (read a, b, c, d, write x),
   * as tridi bench counts a scalar solve.  "real": what must move: with
   * broadcast coefficients only d read + x written (2 words per unknown) plus
   * the three n-element diagonals. */
  const double N = (double)cfg.nx * (double)cfg.ny * (double)cfg.nz, W = sizeof(double);
  printf("\ncopy        %.2f GB/s (one grid array, read + write bytes, best of 3)\n",
         res.copy_gbps);
  printf("\n  %-22s %10s %12s %12s %9s\n", "phase (per step)", "ms", "GB/s bench", "GB/s real",
         "of copy");
  for (int d = 0; d < ADI_NDIR; ++d) {
    const double n = (double)adi_points(&cfg, d);
    const double real = cfg.full_coef ? 5.0 * N * W : (2.0 * N + 3.0 * n) * W;
    char name[32];
    snprintf(name, sizeof name, "%c solve", "XYZ"[d]);
    print_row(name, res.solve_ms[d], cfg.steps, 5.0 * N * W, real, res.copy_gbps);
  }
  /* explicit part: read u, write w (2 words); update: read u, w, write u (3) */
  print_row("rest: explicit RHS", res.rhs_ms, cfg.steps, 0, 2.0 * N * W, res.copy_gbps);
  print_row("rest: u += w", res.update_ms, cfg.steps, 0, 3.0 * N * W, res.copy_gbps);
  const double solve_total = res.solve_ms[0] + res.solve_ms[1] + res.solve_ms[2];
  const double rest = res.step_ms - solve_total;
  printf("  %-22s %10.4f  (%.0f%% in tridi solves, %.0f%% in the rest)\n", "whole step",
         res.step_ms / cfg.steps, 100.0 * solve_total / res.step_ms, 100.0 * rest / res.step_ms);
  printf("  %-22s %10.1f  million unknowns solved per second (3 N steps / solve time)\n",
         "throughput", 3.0 * N * cfg.steps / solve_total * 1e-3);

  const adi_analysis A = analyse(&cfg);
  const double err = max_error(&cfg, u, A.exact_amp);
  const int64_t pad_u = padding_written(&cfg, u), pad_w = padding_written(&cfg, w);
  printf("\nmax error   %.4e at T = %.6g (exact amplitude %.6f)\n", err, A.t_end, A.exact_amp);
  printf("            %.4e predicted by modal analysis (the scheme's own error)\n", A.predicted);
  printf("            %.4f = error / h^2 (constant when the grid is refined at fixed T with dt ~ h)\n",
         err / (hmin * hmin));
  printf("            %.4e = order bound 2 (C_h sum h^2 + C_t dt^2) + rounding\n", A.bound);
  if (cfg.pad) printf("padding     %lld elements of u, %lld of w written (must be 0)\n",
                      (long long)pad_u, (long long)pad_w);

  rc = 0;
  if (cfg.check) {
    /* the solution must match the modal prediction to rounding, and stay
     * inside the order bound; padding must be untouched */
    const double tol = 1e-6 * A.predicted + A.rounding;
    const int ok_bound = err <= A.bound;
    const int ok_modal = fabs(err - A.predicted) <= tol;
    const int ok_pad = pad_u == 0 && pad_w == 0;
    printf("check       %s (error %s bound; |error - predicted| = %.2e %s %.2e; padding %s)\n",
           ok_bound && ok_modal && ok_pad ? "PASS" : "FAIL", ok_bound ? "<=" : ">",
           fabs(err - A.predicted), ok_modal ? "<=" : ">", tol, ok_pad ? "untouched" : "WRITTEN");
    rc = ok_bound && ok_modal && ok_pad ? 0 : 1;
  }
  free(u);
  free(w);
  return rc;
}
