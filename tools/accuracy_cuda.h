/* The GPU side of `tridi accuracy --backend cuda` (tools/accuracy_cuda.cu):
 * device copies of one case's operands, kept while every algorithm solves
 * them, and the execute of a CUDA plan on them.  Host code, C linkage. */
#ifndef TRIDI_TOOLS_ACCURACY_CUDA_H
#define TRIDI_TOOLS_ACCURACY_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "tridi.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copy the case's inputs in[0..3] (a, b, c, d: bytes each) to the device,
 *  with room for x (bytes) and info (nsys int32); the buffers grow on
 *  demand and are kept.  Returns 0, or -1 with the CUDA error in why. */
int acc_cuda_upload(size_t bytes, int64_t nsys, const void *const in[4], char *why, size_t why_len);
/** Execute the CUDA plan on the uploaded inputs, on the tool's stream, with
 *  a device info array (the plan's own workspace where it has one), and
 *  copy x (bytes) and info (nsys int32) back.  x and info are poisoned
 *  first (NaN, and a value no kernel writes), so that what a kernel leaves
 *  unwritten is seen.  Returns TRIDI_SUCCESS, the execute's status, or
 *  TRIDI_ERR_DEVICE with the reason in why (a CUDA error, or info not
 *  written). */
tridi_status acc_cuda_solve(tridi_plan plan, size_t bytes, int64_t nsys, void *x, int32_t *info,
                            char *why, size_t why_len);
/** Free the device buffers and the stream. */
void acc_cuda_release(void);

#ifdef __cplusplus
}
#endif
#endif
