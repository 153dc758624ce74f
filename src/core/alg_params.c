/* The hybrids' switch sizes (alg_params.h). */
#include "alg_params.h"

int64_t tridi_alg_switch(tridi_alg alg, tridi_dtype dtype, int64_t n) {
  switch (alg) {
    case TRIDI_ALG_CR_PCR: return n <= 256 ? 64 : n <= 512 ? 128 : 256;
    case TRIDI_ALG_CR_RD: return dtype == TRIDI_F32 ? 32 : (n <= 128 ? 64 : 128);
    case TRIDI_ALG_PCR:
    case TRIDI_ALG_RD: return n;
    default: return 1;
  }
}
