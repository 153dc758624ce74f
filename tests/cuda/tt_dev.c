/* A tt_problem mirrored on the device (tt_dev.h). */
#include "tt_dev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int g_have_gpu = 0;
char g_skip_reason[160] = "";

void tt_dev_detect(void) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    snprintf(g_skip_reason, sizeof g_skip_reason, "no CUDA device visible (%s)",
             e != cudaSuccess ? cudaGetErrorString(e) : "device count 0");
  } else if (!tridi_backend_available(TRIDI_BACKEND_CUDA)) {
    snprintf(g_skip_reason, sizeof g_skip_reason, "tridi reports the CUDA backend unavailable");
  } else {
    g_have_gpu = 1;
  }
}

static int has_buf(const tt_problem *P, int op) { return !(op == TT_X && P->inplace); }

int tt_dev_exact(void) {
  const char *e = getenv("TRIDI_TEST_DEV_EXACT");
  return e && e[0] == '1';
}

/* Every other problem gets device arrays whose element (0,...,0) is 16-byte
 * aligned (the 16-byte copy paths), the others keep tt's random lead. */
static int g_align_toggle = 0;

void dev_upload(const tt_problem *P, dev_problem *D) {
  memset(D, 0, sizeof *D);
  const int align16 = (g_align_toggle++) % 2;
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    const size_t bytes = (size_t)(P->buf[op].len > 0 ? P->buf[op].len : 1) * P->es;
    /* the ignored a[0], c[n-1] outside the host buffer: addressable here
     * (the CUDA kernels may read them, tridi.h) unless exact allocations
     * are asked for */
    const int64_t plo = tt_dev_exact() ? 0 : P->buf[op].out_lo;
    const int64_t phi = tt_dev_exact() ? 0 : P->buf[op].out_hi;
    CUDA_OK(cudaMalloc(&D->alloc[op], bytes + 16 + (size_t)(plo + phi) * P->es));
    size_t shift = 0;
    if (align16) shift = (size_t)((16 - ((plo + P->buf[op].base) * (int64_t)P->es) % 16) % 16 + 16) % 16;
    D->mem[op] = (unsigned char *)D->alloc[op] + plo * (int64_t)P->es + shift;
    if (P->buf[op].len > 0)
      CUDA_OK(cudaMemcpy(D->mem[op], P->buf[op].mem, (size_t)P->buf[op].len * P->es,
                         cudaMemcpyHostToDevice));
  }
  D->nsys = P->nsys;
  const size_t ibytes = (size_t)(P->nsys + 2 * TT_INFO_GUARD) * sizeof(int32_t);
  CUDA_OK(cudaMalloc((void **)&D->info_mem, ibytes));
  CUDA_OK(cudaMemset(D->info_mem, 0x5e, ibytes));
  /* the legacy stream's copies may still be in flight (a pageable copy's
   * DMA, the memset), and a non-blocking stream would not wait for them */
  CUDA_OK(cudaDeviceSynchronize());
}

void *dev_ptr(const tt_problem *P, const dev_problem *D, int op) {
  if (op == TT_X && P->inplace) op = TT_D;
  return (unsigned char *)D->mem[op] + P->buf[op].base * (int64_t)P->es;
}

int32_t *dev_info(const dev_problem *D) { return D->info_mem + TT_INFO_GUARD; }

/* Copy every buffer back into the problem and the info array into I. */
void dev_download(tt_problem *P, const dev_problem *D, tt_info *I) {
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op) || P->buf[op].len == 0) continue;
    CUDA_OK(cudaMemcpy(P->buf[op].mem, D->mem[op], (size_t)P->buf[op].len * P->es,
                       cudaMemcpyDeviceToHost));
  }
  if (I) {
    int32_t *tmp = malloc((size_t)(D->nsys + 2 * TT_INFO_GUARD) * sizeof(int32_t));
    assert_non_null(tmp);
    CUDA_OK(cudaMemcpy(tmp, D->info_mem, (size_t)(D->nsys + 2 * TT_INFO_GUARD) * sizeof(int32_t),
                       cudaMemcpyDeviceToHost));
    memcpy(I->info, tmp + TT_INFO_GUARD, (size_t)D->nsys * sizeof(int32_t));
    /* guards: the device ones must still hold the memset pattern */
    for (int k = 0; k < TT_INFO_GUARD; ++k) {
      if (tmp[k] != 0x5e5e5e5e || tmp[TT_INFO_GUARD + D->nsys + k] != 0x5e5e5e5e)
        tt_fail("info array: a guard element next to the device info array was written");
    }
    free(tmp);
  }
}

void dev_free(dev_problem *D) {
  for (int op = 0; op < TT_NOPS; ++op)
    if (D->alloc[op]) cudaFree(D->alloc[op]);
  if (D->info_mem) cudaFree(D->info_mem);
  memset(D, 0, sizeof *D);
}

