/* Plans a grid of (dtype, layout, n, batch) cases on the CUDA backend and
 * executes each twice with fake device pointers (16-byte aligned with info,
 * element-aligned without), under the stand-in runtime of fake_cudart.cpp:
 * the output is every plan's kernel name, workspace, attribute sets,
 * occupancy queries and launches.  scripts/cuda_select.sh builds it. */
#include "tridi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the stand-in runtime's (fake_cudart.cpp): the calling thread's current device */
int cudaGetDevice(int *device);

enum { CONTIG, PADDED, STRIDED, BROADCAST, NEGATIVE, CONTIG3, INTERLEAVED, INTER_PAD, INTER_ALIGNED, MID3D, NLAYOUT };
static const char *lname[NLAYOUT] = {"contig",   "padded",      "strided",   "broadcast",     "negative",
                                     "contig3",  "interleaved", "inter_pad", "inter_aligned", "mid3d"};

static int make_desc(tridi_desc *d, tridi_dtype dt, int lay, int64_t n, int64_t B) {
  int64_t shape[3], st[3];
  tridi_status s;
  switch (lay) {
    case CONTIG:
    case PADDED:
    case STRIDED:
    case BROADCAST:
    case NEGATIVE:
      shape[0] = B;
      shape[1] = n;
      s = tridi_desc_create(d, dt, 2, shape, 1);
      if (s) return s;
      if (lay == PADDED) {
        st[0] = n + 3;
        st[1] = 1;
        s = tridi_desc_set_all_strides(*d, st);
      } else if (lay == STRIDED) {
        st[0] = 2 * n;
        st[1] = 2;
        s = tridi_desc_set_all_strides(*d, st);
      } else if (lay == BROADCAST) {
        st[0] = 0;
        st[1] = 1;
        for (int k = 0; k < 3 && !s; ++k) s = tridi_desc_set_strides(*d, (tridi_operand)k, st);
      } else if (lay == NEGATIVE) {
        st[0] = n;
        st[1] = -1;
        s = tridi_desc_set_strides(*d, TRIDI_OP_B, st);
      }
      return s;
    case CONTIG3:
      shape[0] = B > 4 ? B / 4 : 1;
      shape[1] = B > 4 ? 4 : B;
      shape[2] = n;
      s = tridi_desc_create(d, dt, 3, shape, 2);
      if (s) return s;
      st[2] = 1;
      st[1] = n + 1;
      st[0] = 4 * (n + 1) + 5;
      return tridi_desc_set_all_strides(*d, st);
    case INTERLEAVED:
    case INTER_PAD:
    case INTER_ALIGNED:
      shape[0] = n;
      shape[1] = B;
      s = tridi_desc_create(d, dt, 2, shape, 0);
      if (s) return s;
      if (lay == INTER_PAD) {
        st[0] = B + 1;
        st[1] = 1;
        s = tridi_desc_set_all_strides(*d, st);
      } else if (lay == INTER_ALIGNED) {
        st[0] = (B + 31) / 32 * 32;
        st[1] = 1;
        s = tridi_desc_set_all_strides(*d, st);
      }
      return s;
    default: /* MID3D: (B / 64, n, 64) */
      shape[0] = B >= 64 ? B / 64 : 1;
      shape[1] = n;
      shape[2] = B >= 64 ? 64 : B;
      return tridi_desc_create(d, dt, 3, shape, 1);
  }
}

/* Plan desc d (destroyed here) with options o, print the kernel and the
 * workspace, execute twice (arrays 16-byte aligned with info, then one
 * element off without) and print each status and the current device */
static void run_plan(tridi_desc d, const tridi_options *o, size_t es) {
  tridi_plan p = NULL;
  tridi_status s = tridi_plan_create(&p, d, o);
  tridi_desc_destroy(d);
  if (s) {
    printf("  plan: %s: %s\n", tridi_status_name(s), tridi_last_error());
    return;
  }
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_plan_get_info(p, &pi);
  size_t ws = 0;
  tridi_plan_workspace_size(p, &ws);
  printf("  plan %s ws=%zu\n", pi.kernel, ws);
  for (int v = 0; v < 2; ++v) {
    const uintptr_t off = v ? es : 0;
    uintptr_t ptr[5];
    for (int k = 0; k < 5; ++k) ptr[k] = ((uintptr_t)(k + 1) << 40) + off;
    int32_t *info = v ? NULL : (int32_t *)((uintptr_t)6 << 40);
    s = tridi_execute(p, (void *)ptr[0], (void *)ptr[1], (void *)ptr[2], (void *)ptr[3], (void *)ptr[4], info,
                      NULL);
    int cur = -1;
    cudaGetDevice(&cur);
    printf("  execute%d: %s%s%s (then device %d current)\n", v, tridi_status_name(s), s ? ": " : "",
           s ? tridi_last_error() : "", cur);
  }
  tridi_plan_destroy(p);
}

static void run_case(tridi_dtype dt, int lay, int64_t n, int64_t B, int device, tridi_alg alg) {
  tridi_desc d = NULL;
  printf("case %s %s n=%lld B=%lld dev=%d alg=%d\n", dt == TRIDI_F32 ? "f32" : "f64", lname[lay], (long long)n,
         (long long)B, device, (int)alg);
  tridi_status s = make_desc(&d, dt, lay, n, B);
  if (s) {
    printf("  desc: %s\n", tridi_status_name(s));
    tridi_desc_destroy(d);
    return;
  }
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.device = device;
  o.alg = alg;
  /* required to force CR, PCR and CR+PCR (tridi_alg) */
  o.assume_dominant = tridi_alg_requires_dominance(alg);
  run_plan(d, &o, dt == TRIDI_F32 ? 4 : 8);
}

/* A variable-size batch (tridi_desc_create_variable): B systems of lengths
 * 1 + (s * 37) % lmax, PACKED or INTERLEAVED (rows lmax, ld B rounded up to
 * 32), planned and executed by run_plan */
static void run_var(tridi_dtype dt, tridi_var_layout layout, int64_t B, int64_t lmax) {
  printf("case %s variable/%s B=%lld lmax=%lld dev=0\n", dt == TRIDI_F32 ? "f32" : "f64",
         layout == TRIDI_VAR_PACKED ? "packed" : "interleaved", (long long)B, (long long)lmax);
  int64_t *len = malloc(sizeof *len * (size_t)B);
  if (!len) return;
  for (int64_t s = 0; s < B; ++s) len[s] = 1 + (s * 37) % lmax;
  const int packed = layout == TRIDI_VAR_PACKED;
  tridi_desc d = NULL;
  tridi_status s = tridi_desc_create_variable(&d, dt, B, len, layout, packed ? 0 : lmax, packed ? 0 : (B + 31) / 32 * 32);
  free(len);
  if (s) {
    printf("  desc: %s\n", tridi_status_name(s));
    return;
  }
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  run_plan(d, &o, dt == TRIDI_F32 ? 4 : 8);
}

int main(int argc, char **argv) {
  const int small = argc > 1 && !strcmp(argv[1], "small");
  static const int64_t ns[] = {0,    1,    2,    3,    4,     5,     7,     8,     16,     31,      32,     33,
                               64,   100,  127,  128,  129,   256,   500,   512,   513,    1000,    1024,   1025,
                               2048, 2049, 3000, 4096, 4097,  5000,  8192,  8193,  10000,  16384,   16385,  32768,
                               65536, 100000, 262144, 524288, 1048576, 4194304};
  static const int64_t bs[] = {1, 2, 3, 7, 32, 100, 1024, 4096, 65536, 1048576};
  const int nn = (int)(sizeof ns / sizeof ns[0]), nb = (int)(sizeof bs / sizeof bs[0]);
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < NLAYOUT; ++lay)
      for (int i = 0; i < nn; ++i)
        for (int j = 0; j < nb; ++j) {
          if (small && (i % 3 || j % 2)) continue;
          if (ns[i] * bs[j] > ((int64_t)1 << 34)) continue;
          run_case(t ? TRIDI_F64 : TRIDI_F32, lay, ns[i], bs[j], 0, TRIDI_ALG_AUTO);
        }
  /* a plan for device 1 executed while device 0 is current: every row must
   * launch on device 1 and leave device 0 current */
  static const tridi_alg algs[] = {TRIDI_ALG_THOMAS_PCR, TRIDI_ALG_THOMAS, TRIDI_ALG_THOMAS_SHARED,
                                   TRIDI_ALG_THOMAS_SHUFFLE, TRIDI_ALG_CR, TRIDI_ALG_PCR,
                                   TRIDI_ALG_RD, TRIDI_ALG_CR_PCR, TRIDI_ALG_CR_RD};
  for (int a = 0; a < (int)(sizeof algs / sizeof algs[0]); ++a)
    for (int t = 0; t < 2; ++t) {
      run_case(t ? TRIDI_F64 : TRIDI_F32, CONTIG, 100000, 64, 1, algs[a]);
      run_case(t ? TRIDI_F64 : TRIDI_F32, INTERLEAVED, 1000, 4096, 1, algs[a]);
    }
  /* the pivoting rows (cuda_lu_tiles, cuda_lu_partition, cuda_lu_partial
   * and its forms) around their limits on every layout */
  static const int64_t pns[] = {32, 47, 48, 63, 64, 95, 96, 100, 191, 223, 224, 256, 1000, 2048, 2049, 4096, 5000};
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < NLAYOUT; ++lay)
      for (int i = 0; i < (int)(sizeof pns / sizeof pns[0]); ++i)
        if (!small || i % 2 == 0) run_case(t ? TRIDI_F64 : TRIDI_F32, lay, pns[i], 4096, 0, TRIDI_ALG_LU_PARTIAL);
  for (int t = 0; t < 2; ++t)
    for (int l = 0; l < 2; ++l) {
      const tridi_var_layout vl = l ? TRIDI_VAR_INTERLEAVED : TRIDI_VAR_PACKED;
      run_var(t ? TRIDI_F64 : TRIDI_F32, vl, 5000, 300);
      run_var(t ? TRIDI_F64 : TRIDI_F32, vl, 300000, 600);
      run_var(t ? TRIDI_F64 : TRIDI_F32, vl, 2000, 5000); /* long systems too */
    }
  return 0;
}
