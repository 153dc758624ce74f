/* A tt_problem mirrored on the device, for the GPU suites: every buffer
 * copied whole (padding and guards included) to device memory, solved
 * there, copied back so that tt_problem_check sees inputs, x, padding and
 * info exactly as the GPU left them; and the GPU detection shared by the
 * suites (no visible GPU: every test skips with the reason, main returns 77
 * so that CTest reports the executable as skipped). */
#ifndef TT_DEV_H
#define TT_DEV_H

#include "tt.h"

#include <cuda_runtime_api.h>

extern int g_have_gpu;
extern char g_skip_reason[160];
/* Set g_have_gpu / g_skip_reason (call first in main). */
void tt_dev_detect(void);

#define SKIP_WITHOUT_GPU()                                                     \
  do {                                                                         \
    if (!g_have_gpu) {                                                         \
      fprintf(stderr, "skipped: %s\n", g_skip_reason);                         \
      skip();                                                                  \
    }                                                                          \
  } while (0)

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    const cudaError_t e_ = (call);                                             \
    if (e_ != cudaSuccess) {                                                   \
      fail_msg("%s:%d: %s: %s", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    }                                                                          \
  } while (0)

typedef struct dev_problem {
  void *alloc[TT_NOPS];
  void *mem[TT_NOPS]; /* alloc, maybe shifted for 16-byte alignment */
  int32_t *info_mem;  /* TT_INFO_GUARD guards on both sides */
  int64_t nsys;
} dev_problem;

/* Copy P to the device (every other call: element (0,...,0) of each operand
 * 16-byte aligned, else tt's random lead); info poisoned with guards. */
void dev_upload(const tt_problem *P, dev_problem *D);
/* Device base pointer of operand op (x is d's when in place). */
void *dev_ptr(const tt_problem *P, const dev_problem *D, int op);
int32_t *dev_info(const dev_problem *D);
/* Copy every buffer back into P and the info array into I (may be NULL),
 * checking the info guards. */
void dev_download(tt_problem *P, const dev_problem *D, tt_info *I);
void dev_free(dev_problem *D);
/* 1 when TRIDI_TEST_DEV_EXACT=1: the device arrays are exactly the host
 * buffers (the ignored a[0], c[n-1] outside them are then outside the
 * device allocation too: compute-sanitizer memcheck reports a kernel that
 * reads them); else they are padded so that those stay addressable. */
int tt_dev_exact(void);

#endif
