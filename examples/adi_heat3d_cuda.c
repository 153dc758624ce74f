/* The time loop of adi_heat3d on an NVIDIA GPU: the same Douglas ADI step as
 * the CPU path in adi_heat3d.c, on device arrays.  The explicit parts are two
 * small kernels (adi_kernels.cu); the three implicit sweeps are tridi CUDA
 * plans made once before the loop and executed in place on the device work
 * array, all on one stream.  Compiled only when tridi has CUDA. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "adi_heat3d.h"
#include "adi_kernels.h"

/* Run a CUDA runtime call; on failure print it and leave through `out`. */
#define ADI_CUDA_TRY(call)                                                                  \
  do {                                                                                      \
    const cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                                \
      fprintf(stderr, "adi_heat3d: %s failed: %s\n", #call, cudaGetErrorString(e_));        \
      goto out;                                                                             \
    }                                                                                       \
  } while (0)

/* The same for the int-returning launchers of adi_kernels.cu. */
#define ADI_LAUNCH_TRY(call) ADI_CUDA_TRY((cudaError_t)(call))

enum { EV_START, EV_RHS, EV_X, EV_Y, EV_Z, EV_END, EV_COUNT };

int adi_run_cuda(const adi_config *cfg, double *u, double *w_host, adi_result *r) {
  int rc = 1;
  const size_t elems = (size_t)adi_grid_elems(cfg);
  const size_t gbytes = elems * sizeof(double);
  const double rx = cfg->nu * cfg->dt / (adi_h(cfg, ADI_X) * adi_h(cfg, ADI_X));
  const double ry = cfg->nu * cfg->dt / (adi_h(cfg, ADI_Y) * adi_h(cfg, ADI_Y));
  const double rz = cfg->nu * cfg->dt / (adi_h(cfg, ADI_Z) * adi_h(cfg, ADI_Z));
  /* systems per direction (= entries of its info array) */
  const int64_t nsys[ADI_NDIR] = {cfg->ny * cfg->nz, cfg->nx * cfg->nz, cfg->nx * cfg->ny};
  double *du = NULL, *dw = NULL, *hc[3] = {NULL, NULL, NULL};
  double *dcoef[ADI_NDIR][3] = {{NULL}};
  int32_t *dinfo[ADI_NDIR] = {NULL, NULL, NULL}, *hinfo = NULL;
  cudaStream_t stream = NULL;
  cudaEvent_t ev[EV_COUNT] = {NULL};
  tridi_plan plan[ADI_NDIR] = {NULL, NULL, NULL};

  ADI_CUDA_TRY(cudaSetDevice(cfg->device));
  ADI_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (int e = 0; e < EV_COUNT; ++e) ADI_CUDA_TRY(cudaEventCreate(&ev[e]));
  ADI_CUDA_TRY(cudaMalloc((void **)&du, gbytes));
  ADI_CUDA_TRY(cudaMalloc((void **)&dw, gbytes));
  /* u with its initial condition and w with zeros; both with NaN padding.
   * On the solver's stream: a plain cudaMemcpy from pageable memory may
   * return before its DMA lands, and a non-blocking stream would not wait. */
  ADI_CUDA_TRY(cudaMemcpyAsync(du, u, gbytes, cudaMemcpyHostToDevice, stream));
  ADI_CUDA_TRY(cudaMemcpyAsync(dw, w_host, gbytes, cudaMemcpyHostToDevice, stream));

  /* Coefficients and plans, once, before the time loop. */
  for (int d = 0; d < ADI_NDIR; ++d) {
    const size_t len = cfg->full_coef ? elems : (size_t)adi_points(cfg, d);
    for (int m = 0; m < 3; ++m) {
      if (!(hc[m] = malloc(len * sizeof(double)))) {
        fprintf(stderr, "adi_heat3d: out of host memory for the coefficients\n");
        goto out;
      }
      ADI_CUDA_TRY(cudaMalloc((void **)&dcoef[d][m], len * sizeof(double)));
    }
    adi_coefficients(cfg, d, cfg->full_coef, hc[0], hc[1], hc[2]);
    for (int m = 0; m < 3; ++m) {
      const size_t cb = len * sizeof(double);
      ADI_CUDA_TRY(cudaMemcpyAsync(dcoef[d][m], hc[m], cb, cudaMemcpyHostToDevice, stream));
      free(hc[m]);
      hc[m] = NULL;
    }
    ADI_CUDA_TRY(cudaMalloc((void **)&dinfo[d], (size_t)nsys[d] * sizeof(int32_t)));
    if (adi_make_plan(cfg, d, TRIDI_BACKEND_CUDA, &plan[d])) goto out;
    adi_plan_describe(plan[d], d, r);
  }

  /* Copy bandwidth of the device: best of 3 device-to-device copies of one
   * grid array (u into w; read + write bytes). */
  {
    float best = INFINITY;
    for (int rep = 0; rep < 3; ++rep) {
      float ms = 0.0f;
      ADI_CUDA_TRY(cudaEventRecord(ev[EV_START], stream));
      ADI_CUDA_TRY(cudaMemcpyAsync(dw, du, gbytes, cudaMemcpyDeviceToDevice, stream));
      ADI_CUDA_TRY(cudaEventRecord(ev[EV_END], stream));
      ADI_CUDA_TRY(cudaEventSynchronize(ev[EV_END]));
      ADI_CUDA_TRY(cudaEventElapsedTime(&ms, ev[EV_START], ev[EV_END]));
      if (ms < best) best = ms;
    }
    r->copy_gbps = 2.0 * (double)gbytes / ((double)best * 1e6);
  }

  /* Warm-up (untimed): the RHS kernel and one solve per plan, into w only. */
  ADI_LAUNCH_TRY(adi_cuda_rhs(dw, du, cfg->nx, cfg->ny, cfg->nz, cfg->ld, rx, ry, rz, stream));
  for (int d = 0; d < ADI_NDIR; ++d) {
    const tridi_status st = tridi_execute(plan[d], dcoef[d][0], dcoef[d][1], dcoef[d][2], dw, dw,
                                          dinfo[d], stream);
    if (st) {
      adi_report_failure("tridi_execute (warm-up)", st);
      goto out;
    }
  }
  ADI_CUDA_TRY(cudaStreamSynchronize(stream));

  for (int step = 0; step < cfg->steps; ++step) {
    ADI_CUDA_TRY(cudaEventRecord(ev[EV_START], stream));
    ADI_LAUNCH_TRY(adi_cuda_rhs(dw, du, cfg->nx, cfg->ny, cfg->nz, cfg->ld, rx, ry, rz, stream));
    ADI_CUDA_TRY(cudaEventRecord(ev[EV_RHS], stream));
    for (int d = 0; d < ADI_NDIR; ++d) {
      /* in place on the device work array: d and x are both dw */
      const tridi_status st = tridi_execute(plan[d], dcoef[d][0], dcoef[d][1], dcoef[d][2], dw,
                                            dw, dinfo[d], stream);
      if (st) {
        fprintf(stderr, "adi_heat3d: step %d, direction %c:\n", step, "XYZ"[d]);
        adi_report_failure("tridi_execute", st);
        goto out;
      }
      ADI_CUDA_TRY(cudaEventRecord(ev[EV_X + d], stream));
    }
    ADI_LAUNCH_TRY(adi_cuda_update(du, dw, cfg->nx, cfg->ny, cfg->nz, cfg->ld, stream));
    ADI_CUDA_TRY(cudaEventRecord(ev[EV_END], stream));
    ADI_CUDA_TRY(cudaEventSynchronize(ev[EV_END]));
    float ms[EV_COUNT] = {0};
    for (int e = EV_RHS; e < EV_COUNT; ++e)
      ADI_CUDA_TRY(cudaEventElapsedTime(&ms[e], ev[e - 1], ev[e]));
    r->rhs_ms += ms[EV_RHS];
    for (int d = 0; d < ADI_NDIR; ++d) r->solve_ms[d] += ms[EV_X + d];
    r->update_ms += ms[EV_END];
    float total = 0.0f;
    ADI_CUDA_TRY(cudaEventElapsedTime(&total, ev[EV_START], ev[EV_END]));
    r->step_ms += total;
  }

  /* Breakdown on CUDA is reported through info only: look at the last step's. */
  int64_t maxsys = nsys[0] > nsys[1] ? nsys[0] : nsys[1];
  if (nsys[2] > maxsys) maxsys = nsys[2];
  if (!(hinfo = malloc((size_t)maxsys * sizeof(int32_t)))) {
    fprintf(stderr, "adi_heat3d: out of host memory\n");
    goto out;
  }
  for (int d = 0; d < ADI_NDIR; ++d) {
    ADI_CUDA_TRY(cudaMemcpy(hinfo, dinfo[d], (size_t)nsys[d] * sizeof(int32_t),
                            cudaMemcpyDeviceToHost));
    for (int64_t s = 0; s < nsys[d]; ++s)
      if (hinfo[s] != 0) {
        fprintf(stderr, "adi_heat3d: direction %c, system %lld: info = %d (%s)\n", "XYZ"[d],
                (long long)s, (int)hinfo[s], hinfo[s] > 0 ? "zero pivot" : "non-finite value");
        goto out;
      }
  }
  ADI_CUDA_TRY(cudaMemcpy(u, du, gbytes, cudaMemcpyDeviceToHost));
  ADI_CUDA_TRY(cudaMemcpy(w_host, dw, gbytes, cudaMemcpyDeviceToHost));
  rc = 0;
out:
  if (stream) cudaStreamSynchronize(stream); /* nothing may still use what is freed below */
  for (int d = 0; d < ADI_NDIR; ++d) {
    tridi_plan_destroy(plan[d]);
    for (int m = 0; m < 3; ++m) cudaFree(dcoef[d][m]);
    cudaFree(dinfo[d]);
  }
  for (int m = 0; m < 3; ++m) free(hc[m]);
  free(hinfo);
  cudaFree(du);
  cudaFree(dw);
  for (int e = 0; e < EV_COUNT; ++e)
    if (ev[e]) cudaEventDestroy(ev[e]);
  if (stream) cudaStreamDestroy(stream);
  return rc;
}
