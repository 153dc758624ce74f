/* Shared declarations of the 3-D ADI heat-equation example (adi_heat3d.c,
 * and adi_heat3d_cuda.c when CUDA is enabled).
 *
 * The grid holds the nx * ny * nz interior points of the unit cube (the
 * boundary values are 0 and are not stored) in one row-major array
 * u[z][y][x] of doubles with row length ld = nx + pad: element (k, j, i) is
 * u[k * ny * ld + j * ld + i].  Padding elements are never read or written by
 * the scheme; they hold NaN so that a write into them can be detected. */
#ifndef ADI_HEAT3D_H
#define ADI_HEAT3D_H

#include <stddef.h>
#include <stdint.h>

#include "tridi.h"

/** Run parameters (from the command line). */
typedef struct adi_config {
  int64_t nx, ny, nz; /**< interior points per axis */
  int64_t pad;        /**< extra elements at the end of each x row */
  int64_t ld;         /**< row length nx + pad */
  int steps;          /**< time steps */
  double nu;          /**< diffusivity */
  double dt;          /**< time step */
  tridi_backend backend;
  int threads;        /**< CPU threads (0: OpenMP default) */
  int device;         /**< CUDA device ordinal */
  int full_coef;      /**< 1: full a, b, c arrays; 0: length-n arrays broadcast with stride 0 */
  int check;          /**< 1: exit non-zero when the error exceeds the bound */
} adi_config;

/** The three solve directions, in the order of a time step. */
enum { ADI_X = 0, ADI_Y = 1, ADI_Z = 2, ADI_NDIR = 3 };

/** What a run measured. */
typedef struct adi_result {
  double solve_ms[ADI_NDIR]; /**< summed over the timed steps */
  double rhs_ms;             /**< explicit part: w = dt * nu * Laplacian(u) */
  double update_ms;          /**< u += w */
  double step_ms;            /**< whole steps */
  double copy_gbps;          /**< copy bandwidth of the device, measured in the same run
                                  (one grid array copied: bytes read + written / time) */
  int threads;               /**< CPU threads the plans use (GPU: 0) */
  char kernel[ADI_NDIR][96]; /**< tridi_plan_info.kernel per direction */
  char alg[ADI_NDIR][32];    /**< tridi_alg_name per direction */
} adi_result;

/** Elements of one padded grid array: nz * ny * ld. */
int64_t adi_grid_elems(const adi_config *cfg);

/** Grid spacing along direction dir (1 / (points + 1)). */
double adi_h(const adi_config *cfg, int dir);

/** Points along direction dir (nx, ny or nz). */
int64_t adi_points(const adi_config *cfg, int dir);

/** Fill u with the initial condition sin(pi x) sin(pi y) sin(pi z) and its
 *  padding with NaN. */
void adi_initial(const adi_config *cfg, double *u);

/** Fill w with 0 and its padding with NaN. */
void adi_zero(const adi_config *cfg, double *w);

/** Fill the diagonals of the implicit operator (I - dt/2 * nu * D_dir), D_dir
 *  the 3-point second difference along dir, into a, b, c.  full = 0: a, b, c
 *  have adi_points(dir) elements (the array broadcast with stride 0 along the
 *  other axes); full = 1: they are whole grid arrays (adi_grid_elems, padding
 *  set to 0). */
void adi_coefficients(const adi_config *cfg, int dir, int full, double *a, double *b, double *c);

/** Make the plan of direction dir for `backend`: one descriptor over the
 *  grid, x and d in place on the same padded layout, a, b, c broadcast or
 *  full (cfg->full_coef).  On failure prints the status and
 *  tridi_last_error() and returns the status. */
tridi_status adi_make_plan(const adi_config *cfg, int dir, tridi_backend backend,
                           tridi_plan *plan);

/** Copy a plan's kernel, algorithm and thread count into r. */
void adi_plan_describe(tridi_plan plan, int dir, adi_result *r);

/** Print a failing tridi call and return its status. */
tridi_status adi_report_failure(const char *what, tridi_status st);

#ifdef ADI_HAVE_CUDA
/** Run the whole time loop on the GPU (tridi CUDA plans on device arrays).
 *  u: host grid with the initial condition on entry, the solution on return;
 *  w_host: host grid that receives the final work array (its padding must
 *  still be NaN).  Returns 0, or 1 after printing what failed. */
int adi_run_cuda(const adi_config *cfg, double *u, double *w_host, adi_result *r);
#endif

#endif /* ADI_HEAT3D_H */
