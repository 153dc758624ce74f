/* Switch sizes of the CUDA hybrids CR+PCR and CR+RD (cr_pcr_rd.cu): the
 * table every backend shares, tridi_alg_switch() in src/core/alg_params.h
 * (measured on an NVIDIA H200, docs/algorithms.md "Switch size").
 * TRIDI_CUDA_TUNING builds let env TRIDI_CUDA_ALG_SWITCH override it for
 * sweeps. */
#ifndef TRIDI_CUDA_ALG_TUNING_H
#define TRIDI_CUDA_ALG_TUNING_H

#include "alg_params.h"

#include <stdint.h>
#include <stdlib.h>

static inline int64_t tridi_cuda_alg_switch(tridi_alg alg, tridi_dtype dt, int64_t n) {
#ifdef TRIDI_CUDA_TUNING
  const char *env = getenv("TRIDI_CUDA_ALG_SWITCH");
  if (env && atoll(env) > 0) return atoll(env);
#endif
  return tridi_alg_switch(alg, dt, n);
}

#endif
