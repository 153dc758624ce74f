/* The scalar kind: independent systems of one length n along one axis of an
 * N-d array with per-operand strides (tridi_desc_create).  Its descriptor
 * becomes a tridi_layout (tridi_internal.h); its solver rows follow. */
#include "../kinds.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char op_names[TRIDI_NUM_OPERANDS] = {'a', 'b', 'c', 'd', 'x'};

static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Exact injectivity test by enumeration, for layouts that fail the nested
 * test: 1 injective, 0 not, -1 too large to check (more than 2^22 elements)
 * or out of memory. */
static int cmp_i64(const void *p, const void *q) {
  const int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
  return (a > b) - (a < b);
}

static int injective_exact(int m, const int64_t *ext, const int64_t *str) {
  int64_t count = 1;
  for (int i = 0; i < m; ++i) {
    if (ext[i] > ((int64_t)1 << 22) / count) return -1;
    count *= ext[i];
  }
  int64_t *offs = malloc((size_t)count * sizeof *offs);
  if (!offs) return -1;
  for (int64_t e = 0; e < count; ++e) {
    int64_t r = e, o = 0;
    for (int i = 0; i < m; ++i) {
      o += (r % ext[i]) * str[i];
      r /= ext[i];
    }
    offs[e] = o;
  }
  qsort(offs, (size_t)count, sizeof *offs, cmp_i64);
  int ok = 1;
  for (int64_t e = 1; e < count && ok; ++e) ok = offs[e] != offs[e - 1];
  free(offs);
  return ok;
}

/* Stride of operand op along dimension k as the backends see it: a
 * dimension of extent 0 or 1 never multiplies a nonzero index, so any int64
 * is accepted there (INT64_MIN included) and the layout records 0, which no
 * backend can overflow by negating or scaling it. */
static int64_t used_stride(const struct tridi_desc_s *d, int op, int k) {
  return d->shape[k] <= 1 ? 0 : d->strides[op][k];
}

/* Fill plan->lay from the descriptor and check every stride.  A stride of
 * INT64_MIN on a dimension of extent > 1 is rejected (its magnitude does not
 * fit in int64, and its offset in bytes would overflow anyway). */
static tridi_status normalise_layout(const struct tridi_desc_s *d, tridi_layout *L,
                                     size_t esize) {
  memset(L, 0, sizeof *L);
  L->n = d->shape[d->axis];
  L->nsys = 1;
  for (int k = 0; k < d->rank; ++k)
    if (k != d->axis) L->nsys *= d->shape[k];
  for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op) {
    L->axis_stride[op] = used_stride(d, op, d->axis);
    int64_t lo = 0, hi = 0, g = 0;
    for (int k = 0; k < d->rank; ++k) {
      const int64_t e = d->shape[k], s = used_stride(d, op, k);
      if (e <= 1) continue;
      if (s == INT64_MIN)
        return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                               "tridi_plan_create: stride[%d] of %c is INT64_MIN on a dimension of "
                               "extent %lld",
                               k, op_names[op], (long long)e);
      const int64_t m = abs64(s);
      if (m != 0 && e - 1 > INT64_MAX / m)
        return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                               "tridi_plan_create: offsets of %c overflow int64 along dimension %d",
                               op_names[op], k);
      const int64_t span = (e - 1) * m;
      if (s > 0) {
        if (hi > INT64_MAX - span)
          return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                                 "tridi_plan_create: offsets of %c overflow int64", op_names[op]);
        hi += span;
      } else if (s < 0) {
        if (lo < -INT64_MAX + span)
          return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                                 "tridi_plan_create: offsets of %c overflow int64", op_names[op]);
        lo -= span;
      }
      if (m) g = gcd64(g, m);
    }
    /* byte offsets must fit as well */
    if (hi > INT64_MAX / (int64_t)esize - 1 || -lo > INT64_MAX / (int64_t)esize - 1)
      return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                             "tridi_plan_create: byte offsets of %c overflow int64", op_names[op]);
    /* a's row 0 and c's row n-1 are never read (tridi.h): the range of the
     * used elements leaves them out (one axis stride off its low or high end;
     * with n = 1 there is no used element: see overlaps()) */
    const int64_t sa = L->axis_stride[op];
    if (L->n >= 2 && ((op == TRIDI_OP_A && sa > 0) || (op == TRIDI_OP_C && sa < 0)))
      lo += sa < 0 ? -sa : sa;
    if (L->n >= 2 && ((op == TRIDI_OP_A && sa < 0) || (op == TRIDI_OP_C && sa > 0)))
      hi -= sa < 0 ? -sa : sa;
    L->min_off[op] = lo;
    L->max_off[op] = hi;
    L->stride_gcd[op] = g;
  }
  int nb = 0;
  for (int k = 0; k < d->rank; ++k) {
    if (k == d->axis || d->shape[k] == 1) continue;
    L->bext[nb] = d->shape[k];
    for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op) L->bstride[op][nb] = used_stride(d, op, k);
    ++nb;
  }
  L->nbatch = nb;

  /* x must map distinct elements to distinct addresses.  Sufficient (and for
   * practical layouts necessary) test: sorted by |stride|, each stride
   * exceeds the span of all smaller ones. */
  if (L->n > 0 && L->nsys > 0) {
    int64_t ext[TRIDI_MAX_RANK], str[TRIDI_MAX_RANK];
    int m = 0;
    for (int k = 0; k < d->rank; ++k) {
      if (d->shape[k] <= 1) continue;
      ext[m] = d->shape[k];
      str[m] = abs64(used_stride(d, TRIDI_OP_X, k));
      ++m;
    }
    for (int i = 1; i < m; ++i) /* insertion sort by stride */
      for (int j = i; j > 0 && str[j] < str[j - 1]; --j) {
        int64_t t = str[j]; str[j] = str[j - 1]; str[j - 1] = t;
        t = ext[j]; ext[j] = ext[j - 1]; ext[j - 1] = t;
      }
    int64_t span = 0; /* span of the smaller dims, already checked not to overflow */
    int nested = 1;
    for (int i = 0; i < m && nested; ++i) {
      if (str[i] <= span) nested = 0;
      const int64_t term = (ext[i] - 1) * str[i];
      span = span > INT64_MAX - term ? INT64_MAX : span + term;
    }
    if (!nested) {
      const int r = injective_exact(m, ext, str);
      if (r <= 0)
        return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                               r == 0 ? "tridi_plan_create: the strides of x map two distinct "
                                        "elements to the same address"
                                      : "tridi_plan_create: the strides of x are not nested "
                                        "(sorted by size, a stride does not exceed the span of "
                                        "the smaller ones) and x has too many elements to prove "
                                        "that no two share an address");
    }
  }
  return TRIDI_SUCCESS;
}

static tridi_status scalar_normalise(const struct tridi_desc_s *desc, struct tridi_plan_s *plan) {
  tridi_status st = normalise_layout(desc, &plan->lay, plan->esize);
  if (st) return st;
  plan->nsys = plan->lay.nsys;
  plan->n_max = plan->lay.n;
  plan->unknowns = plan->lay.n * plan->lay.nsys; /* <= the element count of the shape */
  return TRIDI_SUCCESS;
}

/* 1 when x (operand X) and operand `op` of the plan's layout may share an
 * element, given their base addresses.  Conservative: see docs/layouts.md. */
static int overlaps(const tridi_layout *L, size_t es, int op, const void *x, const void *p) {
  if (L->n < 2 && (op == TRIDI_OP_A || op == TRIDI_OP_C)) return 0; /* nothing of them is read */
  const intptr_t xb = (intptr_t)x, pb = (intptr_t)p, e = (intptr_t)es;
  const intptr_t xlo = xb + (intptr_t)L->min_off[TRIDI_OP_X] * e;
  const intptr_t xhi = xb + ((intptr_t)L->max_off[TRIDI_OP_X] + 1) * e;
  const intptr_t plo = pb + (intptr_t)L->min_off[op] * e;
  const intptr_t phi = pb + ((intptr_t)L->max_off[op] + 1) * e;
  if (xhi <= plo || phi <= xlo) return 0; /* byte ranges disjoint */
  if (op == TRIDI_OP_D && xb == pb) {       /* exact in-place alias? */
    int same = L->axis_stride[TRIDI_OP_X] == L->axis_stride[TRIDI_OP_D] || L->n <= 1;
    for (int j = 0; same && j < L->nbatch; ++j)
      same = L->bstride[TRIDI_OP_X][j] == L->bstride[TRIDI_OP_D][j];
    if (same) return 0;
  }
  /* Every address of x is xb + k*gx*es and of op pb + k*gp*es: with
   * g = gcd(gx, gp) in bytes, element starts differ by delta + g*Z, so no two
   * elements touch when the distance of delta to g*Z is at least es. */
  const int64_t g = gcd64(L->stride_gcd[TRIDI_OP_X], L->stride_gcd[op]) * (int64_t)es;
  if (g == 0) return 1;
  int64_t r = (int64_t)((xb - pb) % (intptr_t)g);
  if (r < 0) r += g;
  return !(r >= (int64_t)es && g - r >= (int64_t)es);
}

static tridi_status scalar_check_overlap(const struct tridi_plan_s *plan,
                                         const void *const ops[TRIDI_NUM_OPERANDS], const char *fn) {
  if (plan->lay.n == 0 || plan->lay.nsys == 0) return TRIDI_SUCCESS;
  for (int k = 0; k < TRIDI_OP_X; ++k)
    if (overlaps(&plan->lay, plan->esize, k, ops[TRIDI_OP_X], ops[k]))
      return tridi_set_error(TRIDI_ERR_OVERLAP,
                             "%s: x overlaps %c (only x == d with identical strides is allowed)", fn,
                             op_names[k]);
  return TRIDI_SUCCESS;
}

/* The rows.  Per backend, AUTO takes the applying row of lowest auto_rank;
 * the other rows are there to be forced (comparisons, tests, studies). */
static const tridi_solver scalar_solvers[] = {
    /* REF: the oracle, one thread. */
    {"ref_thomas", TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_REF, 0, tridi_ref_applies, tridi_ref_init,
     tridi_ref_execute, NULL},
    {"ref_cr", TRIDI_BACKEND_REF, TRIDI_ALG_CR, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_ref_alg_init, tridi_ref_alg_execute, NULL},
    {"ref_pcr", TRIDI_BACKEND_REF, TRIDI_ALG_PCR, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_ref_alg_init, tridi_ref_alg_execute, NULL},
    {"ref_rd", TRIDI_BACKEND_REF, TRIDI_ALG_RD, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_ref_alg_init, tridi_ref_alg_execute, NULL},
    {"ref_cr_pcr", TRIDI_BACKEND_REF, TRIDI_ALG_CR_PCR, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_ref_alg_init, tridi_ref_alg_execute, NULL},
    {"ref_cr_rd", TRIDI_BACKEND_REF, TRIDI_ALG_CR_RD, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_ref_alg_init, tridi_ref_alg_execute, NULL},
    /* REF, pivoting (pivot = partial): LAPACK ?gtsv's elimination, one thread. */
    {"ref_lu_partial", TRIDI_BACKEND_REF, TRIDI_ALG_LU_PARTIAL, 0, NULL, tridi_ref_lu_init,
     tridi_ref_lu_execute, NULL},
    /* CPU: the SIMD kernel wherever it applies (docs/cpu.md: 5-40x the
     * reference over systems); the reference over systems where it does not
     * (fewer systems than one group of lanes, or very long systems). */
    {"cpu_thomas", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS, 0, tridi_cpu_thomas_applies,
     tridi_cpu_thomas_init, tridi_cpu_thomas_execute, tridi_cpu_thomas_destroy},
    {"cpu_thomas_ref", TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_REF, 1, tridi_cpu_ref_applies,
     tridi_cpu_ref_init, tridi_cpu_ref_execute, NULL},
    {"cpu_cr", TRIDI_BACKEND_CPU, TRIDI_ALG_CR, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_cpu_alg_init, tridi_cpu_alg_execute, NULL},
    {"cpu_pcr", TRIDI_BACKEND_CPU, TRIDI_ALG_PCR, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_cpu_alg_init, tridi_cpu_alg_execute, NULL},
    {"cpu_rd", TRIDI_BACKEND_CPU, TRIDI_ALG_RD, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_cpu_alg_init, tridi_cpu_alg_execute, NULL},
    {"cpu_cr_pcr", TRIDI_BACKEND_CPU, TRIDI_ALG_CR_PCR, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_cpu_alg_init, tridi_cpu_alg_execute, NULL},
    {"cpu_cr_rd", TRIDI_BACKEND_CPU, TRIDI_ALG_CR_RD, TRIDI_RANK_EXPLICIT, tridi_ref_alg_applies,
     tridi_cpu_alg_init, tridi_cpu_alg_execute, NULL},
    /* CPU, pivoting (pivot = partial): the SIMD kernel (lanes across systems,
     * per-lane row interchanges) where it applies, as cpu_thomas; the
     * reference over systems where it does not. */
    {"cpu_lu_partial", TRIDI_BACKEND_CPU, TRIDI_ALG_LU_PARTIAL, 0, tridi_cpu_lu_applies,
     tridi_cpu_lu_init, tridi_cpu_lu_execute, tridi_cpu_lu_destroy},
    {"cpu_lu_partial_ref", TRIDI_BACKEND_CPU, TRIDI_ALG_LU_PARTIAL, 1, NULL, tridi_cpu_lu_ref_init,
     tridi_cpu_lu_ref_execute, NULL},
#ifdef TRIDI_HAVE_CUDA
    /* CUDA: the Thomas-PCR family picks its kernel variant itself
     * (src/cuda/tuning.h); the paper algorithms are for comparison
     * (docs/algorithms.md: Thomas-PCR is fastest on every measured case). */
    {"cuda_thomas_pcr", TRIDI_BACKEND_CUDA, TRIDI_ALG_THOMAS_PCR, 0, tridi_cuda_thomas_pcr_applies,
     tridi_cuda_thomas_pcr_init, tridi_cuda_thomas_pcr_execute, tridi_cuda_thomas_pcr_destroy},
    {"cuda_thomas", TRIDI_BACKEND_CUDA, TRIDI_ALG_THOMAS, TRIDI_RANK_EXPLICIT,
     tridi_cuda_thomas_applies, tridi_cuda_thomas_init, tridi_cuda_thomas_execute,
     tridi_cuda_thomas_destroy},
    {"cuda_thomas_shared", TRIDI_BACKEND_CUDA, TRIDI_ALG_THOMAS_SHARED, TRIDI_RANK_EXPLICIT,
     tridi_cuda_thomas_applies, tridi_cuda_thomas_init, tridi_cuda_thomas_execute,
     tridi_cuda_thomas_destroy},
    {"cuda_thomas_shuffle", TRIDI_BACKEND_CUDA, TRIDI_ALG_THOMAS_SHUFFLE, TRIDI_RANK_EXPLICIT,
     tridi_cuda_thomas_applies, tridi_cuda_thomas_init, tridi_cuda_thomas_execute,
     tridi_cuda_thomas_destroy},
    {"cuda_cr", TRIDI_BACKEND_CUDA, TRIDI_ALG_CR, TRIDI_RANK_EXPLICIT, tridi_cuda_alg_applies,
     tridi_cuda_alg_init, tridi_cuda_alg_execute, tridi_cuda_alg_destroy},
    {"cuda_pcr", TRIDI_BACKEND_CUDA, TRIDI_ALG_PCR, TRIDI_RANK_EXPLICIT, tridi_cuda_alg_applies,
     tridi_cuda_alg_init, tridi_cuda_alg_execute, tridi_cuda_alg_destroy},
    {"cuda_rd", TRIDI_BACKEND_CUDA, TRIDI_ALG_RD, TRIDI_RANK_EXPLICIT, tridi_cuda_alg_applies,
     tridi_cuda_alg_init, tridi_cuda_alg_execute, tridi_cuda_alg_destroy},
    {"cuda_cr_pcr", TRIDI_BACKEND_CUDA, TRIDI_ALG_CR_PCR, TRIDI_RANK_EXPLICIT,
     tridi_cuda_alg_applies, tridi_cuda_alg_init, tridi_cuda_alg_execute, tridi_cuda_alg_destroy},
    {"cuda_cr_rd", TRIDI_BACKEND_CUDA, TRIDI_ALG_CR_RD, TRIDI_RANK_EXPLICIT,
     tridi_cuda_alg_applies, tridi_cuda_alg_init, tridi_cuda_alg_execute, tridi_cuda_alg_destroy},
    /* CUDA, pivoting (pivot = partial), first where it applies (every
     * layout, n from where it was measured faster than cuda_lu_partial up
     * to 2048 while the tile fits: the smallest n are kRtMinNF32 /
     * kRtMinNF64 / kRtMinNGather in rpts_tiles.cu, and batches of adjacent
     * systems below kLuAdjacentTilesMinN (lu.cuh) stay with
     * cuda_lu_partial): the partitioned elimination below on tiles of
     * whole systems, the partitions in registers
     * (src/cuda/pivot/rpts_tiles.cu). */
    {"cuda_lu_tiles", TRIDI_BACKEND_CUDA, TRIDI_ALG_LU_PARTIAL, 0, tridi_cuda_rpts_tiles_applies,
     tridi_cuda_rpts_tiles_init, tridi_cuda_rpts_tiles_execute, tridi_cuda_rpts_tiles_destroy},
    /* CUDA, pivoting (pivot = partial), next where it applies (kRptsMinN
     * <= n <= 4096 in rpts_scalar.cu, where it was measured faster than
     * cuda_lu_partial, and the tile fits): partitioned elimination with partial pivoting
     * inside partitions, several threads a system, systems that fail its
     * residual check solved again by cuda_lu_partial's exact kernel
     * (src/cuda/pivot/rpts_scalar.cu). */
    {"cuda_lu_partition", TRIDI_BACKEND_CUDA, TRIDI_ALG_LU_PARTIAL, 0, tridi_cuda_rpts_applies,
     tridi_cuda_rpts_init, tridi_cuda_rpts_execute, tridi_cuda_rpts_destroy},
    /* CUDA, pivoting (pivot = partial): LAPACK ?gtsv's elimination, one
     * thread a system, a tile of systems in shared memory while it fits
     * (src/cuda/pivot/lu_scalar.cu). */
    {"cuda_lu_partial", TRIDI_BACKEND_CUDA, TRIDI_ALG_LU_PARTIAL, 0, tridi_cuda_lu_applies,
     tridi_cuda_lu_init, tridi_cuda_lu_execute, tridi_cuda_lu_destroy},
#endif
};

const tridi_kind_ops tridi_kind_scalar = {
    .kind = TRIDI_KIND_SCALAR,
    .name = "scalar",
    .normalise = scalar_normalise,
    .check_overlap = scalar_check_overlap,
    .release = NULL,
    .solvers = scalar_solvers,
    .num_solvers = (int)(sizeof scalar_solvers / sizeof scalar_solvers[0]),
    .pivot_system = tridi_ref_pivot_solve_system,
    .pivot_work = tridi_ref_pivot_work_bytes,
};
