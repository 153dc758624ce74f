/* The CUDA runner's device buffers (tools/bench_cuda.cu), shared with the
 * GPU baselines of the kinds (tools/bench_cusparse.cu, ...).  Host code, C
 * linkage. */
#ifndef TRIDI_TOOLS_BENCH_CUDA_H
#define TRIDI_TOOLS_BENCH_CUDA_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copy the case's five host arrays to the device (buffers grown on demand
 *  and kept between cases).  Returns 0 on success. */
int bench_cuda_upload(const bench_case *bc, const bench_data *data, const bench_opts *opts);
/** The device copy of operand op (0..4: a, b, c, d, x) after an upload. */
void *bench_cuda_operand(int op);
/** Device scratch k (0..3), as large as the largest operand of the case. */
void *bench_cuda_scratch(int k);
/** Copy device x (alloc_elems[x] elements) back to data->x.  Returns 0 on success. */
int bench_cuda_download_x(const bench_case *bc, const bench_data *data, const void *dx,
                          const bench_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
