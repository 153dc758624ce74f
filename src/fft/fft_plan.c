/* The FFT's host side: options, argument checks (each with its status and a
 * message), the plan's twiddles and scratch, the execute-time checks (NULL,
 * alignment, overlap, in that order) and the dispatch to the reference / CPU
 * transform (src/ref/fft_ref.c) or the CUDA kernels (src/cuda/fft/). */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_internal.h"
#include "tridi_internal.h"

/* tridi_fft_options of this release up to `flags`: a smaller struct is
 * refused, a struct without the layout fields gets their defaults. */
#define FFT_OPTIONS_MIN_SIZE (offsetof(tridi_fft_options, flags) + sizeof(unsigned int))
#define FFT_INFO_MIN_SIZE (offsetof(tridi_fft_plan_info, kernel) + sizeof(const char *))

void tridi_fft_options_init(tridi_fft_options *opts) {
  if (!opts) return;
  memset(opts, 0, sizeof *opts);
  opts->struct_size = sizeof *opts;
  opts->backend = TRIDI_BACKEND_AUTO;
  opts->in_stride = 1;
  opts->out_stride = 1;
}

static void free_plan(struct tridi_fft_plan_s *p) {
  if (!p) return;
#ifdef TRIDI_HAVE_CUDA
  if (p->cuda) tridi_cuda_fft_destroy(p);
#endif
  if (p->lock) {
    pthread_mutex_destroy((pthread_mutex_t *)p->lock);
    free(p->lock);
  }
  tridi_aligned_free(p->twiddles);
  tridi_aligned_free(p->scratch);
  free(p);
}

static tridi_status read_options(const tridi_fft_options *o, tridi_fft_options *eff) {
  tridi_fft_options_init(eff);
  if (!o) return TRIDI_SUCCESS;
  if (o->struct_size < FFT_OPTIONS_MIN_SIZE)
    return tridi_set_error(
        TRIDI_ERR_INVALID_OPTION,
        "tridi_fft_plan_create: opts->struct_size = %zu; call tridi_fft_options_init",
        o->struct_size);
  memcpy(eff, o, o->struct_size < sizeof *eff ? o->struct_size : sizeof *eff);
  eff->struct_size = sizeof *eff;
  if (!tridi_backend_valid(eff->backend))
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_fft_plan_create: opts->backend = %d is unknown",
                           (int)eff->backend);
  if (eff->num_threads < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_fft_plan_create: opts->num_threads = %d is negative",
                           eff->num_threads);
  if (eff->device < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "tridi_fft_plan_create: opts->device = %d is negative", eff->device);
  if (eff->flags != 0)
    return tridi_set_error(
        TRIDI_ERR_INVALID_OPTION,
        "tridi_fft_plan_create: opts->flags = %#x; no flag is defined yet (must be 0)", eff->flags);
  return TRIDI_SUCCESS;
}

/* a * b + c for non-negative operands, or -1 when it exceeds INT64_MAX */
static int64_t mul_add(int64_t a, int64_t b, int64_t c) {
  if (a != 0 && b > (INT64_MAX - c) / a) return -1;
  return a * b + c;
}

/* The layout of one side: stride >= 1, distance >= 0 (0: packed), largest
 * offset within int64; the resolved distance and the span. */
static tridi_status check_side(const char *side, int64_t n, int64_t batch, int64_t stride,
                               int64_t dist, int64_t *dist_out, int64_t span[2]) {
  if (stride < 1)
    return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                           "tridi_fft_plan_create: opts->%s_stride = %lld; it must be >= 1", side,
                           (long long)stride);
  if (dist < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                           "tridi_fft_plan_create: opts->%s_dist = %lld is negative (0: packed)",
                           side, (long long)dist);
  if (dist == 0) {
    dist = mul_add(n, stride, 0);
    if (dist < 0)
      return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                             "tridi_fft_plan_create: the packed %s distance n * %s_stride = %lld * "
                             "%lld overflows int64",
                             side, side, (long long)n, (long long)stride);
  }
  const int64_t last = batch > 0 ? batch - 1 : 0;
  const int64_t hi = mul_add(n - 1, stride, 0);
  const int64_t hi2 = hi < 0 ? -1 : mul_add(last, dist, hi);
  if (hi2 < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                           "tridi_fft_plan_create: the largest %s offset (n-1)*%s_stride + "
                           "(batch-1)*%s_dist overflows int64",
                           side, side, side);
  *dist_out = dist;
  span[0] = 0;
  span[1] = hi2;
  return TRIDI_SUCCESS;
}

/* The output must map distinct points to distinct elements: the two
 * dimensions (n, stride) and (batch, dist) nested, the larger stride at
 * least the smaller one times its extent. */
static tridi_status check_output_distinct(int64_t n, int64_t os, int64_t batch, int64_t od) {
  if (n <= 1 || batch <= 1) return TRIDI_SUCCESS;
  int64_t se = n, ss = os, bs = od;
  if (od < os) {
    se = batch;
    ss = od;
    bs = os;
  }
  if (mul_add(se, ss, 0) < 0 || bs < se * ss)
    return tridi_set_error(TRIDI_ERR_INVALID_STRIDE,
                           "tridi_fft_plan_create: the output layout (out_stride %lld, out_dist "
                           "%lld) maps two points of n = %lld, batch = %lld to one element",
                           (long long)os, (long long)od, (long long)n, (long long)batch);
  return TRIDI_SUCCESS;
}

static int log2_exact(int64_t n) {
  int k = 0;
  while (((int64_t)1 << k) < n) ++k;
  return ((int64_t)1 << k) == n ? k : -1;
}

static tridi_status plan_host(struct tridi_fft_plan_s *p) {
  const size_t es = tridi_dtype_size(p->dtype);
  p->twiddles = tridi_aligned_alloc(tridi_ref_fft_twiddle_bytes(p->dtype, p->n));
  if (!p->twiddles)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_fft_plan_create: cannot allocate the twiddles "
                           "(%zu bytes)",
                           tridi_ref_fft_twiddle_bytes(p->dtype, p->n));
  tridi_ref_fft_twiddles(p->dtype, p->n, p->twiddles);
  int64_t threads = p->threads;
  if (threads > p->batch) threads = p->batch > 0 ? p->batch : 1;
  p->threads = (int)threads;
  p->scratch_bytes = (size_t)threads * 2u * (size_t)p->n * es;
  p->scratch = tridi_aligned_alloc(p->scratch_bytes);
  if (!p->scratch)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_fft_plan_create: cannot allocate the scratch (%zu bytes)",
                           p->scratch_bytes);
  p->lock = malloc(sizeof(pthread_mutex_t));
  if (!p->lock || pthread_mutex_init((pthread_mutex_t *)p->lock, NULL) != 0) {
    free(p->lock);
    p->lock = NULL;
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_fft_plan_create: cannot create the plan's mutex");
  }
  p->passes = tridi_ref_fft_steps(p->log2n);
  snprintf(p->kernel, sizeof p->kernel, "%s_stockham_r4_%s",
           p->backend == TRIDI_BACKEND_REF ? "ref" : "cpu_omp", tridi_dtype_name(p->dtype));
  return TRIDI_SUCCESS;
}

tridi_status tridi_fft_plan_create(tridi_fft_plan *plan, int64_t n, int64_t batch,
                                   tridi_dtype dtype, tridi_fft_direction direction,
                                   const tridi_fft_options *opts) {
  static const char *fn = "tridi_fft_plan_create";
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: plan is NULL", fn);
  *plan = NULL;
  if (tridi_dtype_size(dtype) == 0)
    return tridi_set_error(TRIDI_ERR_INVALID_DTYPE, "%s: dtype = %d is unknown", fn, (int)dtype);
  if (dtype != TRIDI_C32 && dtype != TRIDI_C64)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "%s: dtype %s is real; the FFT transforms complex data (TRIDI_C32, "
                           "TRIDI_C64)",
                           fn, tridi_dtype_name(dtype));
  if (direction != TRIDI_FFT_FORWARD && direction != TRIDI_FFT_INVERSE)
    return tridi_set_error(
        TRIDI_ERR_INVALID_OPTION,
        "%s: direction = %d; use TRIDI_FFT_FORWARD (-1) or TRIDI_FFT_INVERSE (1)", fn,
        (int)direction);
  if (n < 1)
    return tridi_set_error(TRIDI_ERR_INVALID_SHAPE, "%s: n = %lld; a transform has n >= 1 points",
                           fn, (long long)n);
  if (n > ((int64_t)1 << TRIDI_FFT_MAX_LOG2N))
    return tridi_set_error(TRIDI_ERR_INVALID_SHAPE, "%s: n = %lld is above 2^%d", fn, (long long)n,
                           TRIDI_FFT_MAX_LOG2N);
  const int log2n = log2_exact(n);
  if (log2n < 0)
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "%s: n = %lld is not a power of two (only lengths 2^k are supported)",
                           fn, (long long)n);
  if (batch < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_SHAPE, "%s: batch = %lld is negative", fn,
                           (long long)batch);
  if (mul_add(n, batch, 0) < 0)
    return tridi_set_error(TRIDI_ERR_INVALID_SHAPE, "%s: n * batch = %lld * %lld overflows int64",
                           fn, (long long)n, (long long)batch);
  tridi_fft_options o;
  tridi_status st = read_options(opts, &o);
  if (st) return st;

  struct tridi_fft_plan_s *p = calloc(1, sizeof *p);
  if (!p) return tridi_set_error(TRIDI_ERR_ALLOC, "%s: cannot allocate the plan", fn);
  p->dtype = dtype;
  p->sign = direction == TRIDI_FFT_FORWARD ? -1 : 1;
  p->n = n;
  p->batch = batch;
  p->log2n = log2n;
  p->is = o.in_stride;
  p->os = o.out_stride;
  p->device = o.device;
  st = check_side("in", n, batch, o.in_stride, o.in_dist, &p->id, p->in_span);
  if (!st) st = check_side("out", n, batch, o.out_stride, o.out_dist, &p->od, p->out_span);
  if (!st) st = check_output_distinct(n, p->os, batch, p->od);
  if (st) {
    free_plan(p);
    return st;
  }

  p->backend = o.backend == TRIDI_BACKEND_AUTO ? TRIDI_BACKEND_CPU : o.backend;
  switch (p->backend) {
    case TRIDI_BACKEND_REF:
      p->threads = 1;
      st = plan_host(p);
      break;
    case TRIDI_BACKEND_CPU:
      p->threads = o.num_threads > 0 ? o.num_threads : tridi_cpu_max_threads();
      st = plan_host(p);
      break;
    case TRIDI_BACKEND_CUDA:
#ifdef TRIDI_HAVE_CUDA
      if (!tridi_cuda_available()) {
        st = tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE, "%s: no CUDA device is visible", fn);
        break;
      }
      st = tridi_cuda_check_device(o.device);
      if (!st) st = tridi_cuda_fft_init(p);
#else
      st = tridi_set_error(TRIDI_ERR_BACKEND_UNAVAILABLE,
                           "%s: this build of tridi has no CUDA backend", fn);
#endif
      break;
    default:
      st = tridi_set_error(TRIDI_ERR_INTERNAL, "%s: backend %d not resolved", fn, (int)p->backend);
  }
  if (st) {
    free_plan(p);
    return st;
  }
  *plan = p;
  return TRIDI_SUCCESS;
}

tridi_status tridi_fft_plan_destroy(tridi_fft_plan plan) {
  tridi_clear_error();
  free_plan(plan);
  return TRIDI_SUCCESS;
}

/* The bytes [lo, hi) one side's elements lie in. */
static void span_bytes(const void *base, const int64_t span[2], size_t es, uintptr_t *lo,
                       uintptr_t *hi) {
  *lo = (uintptr_t)base + (uintptr_t)span[0] * es;
  *hi = (uintptr_t)base + ((uintptr_t)span[1] + 1u) * es;
}

tridi_status tridi_fft_execute(tridi_fft_plan plan, const void *in, void *out, void *stream) {
  static const char *fn = "tridi_fft_execute";
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: plan is NULL", fn);
  if (!in) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: in is NULL", fn);
  if (!out) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: out is NULL", fn);
  const size_t es = tridi_dtype_size(plan->dtype);
  if ((uintptr_t)in % es)
    return tridi_set_error(TRIDI_ERR_MISALIGNED, "%s: in = %p is not a multiple of %zu bytes (%s)",
                           fn, in, es, tridi_dtype_name(plan->dtype));
  if ((uintptr_t)out % es)
    return tridi_set_error(TRIDI_ERR_MISALIGNED, "%s: out = %p is not a multiple of %zu bytes (%s)",
                           fn, out, es, tridi_dtype_name(plan->dtype));
  if (in == (const void *)out) {
    if (plan->is != plan->os || plan->id != plan->od)
      return tridi_set_error(TRIDI_ERR_OVERLAP,
                             "%s: in == out (in place) but the plan's input and output layouts "
                             "differ",
                             fn);
  } else {
    uintptr_t ilo, ihi, olo, ohi;
    span_bytes(in, plan->in_span, es, &ilo, &ihi);
    span_bytes(out, plan->out_span, es, &olo, &ohi);
    if (ilo < ohi && olo < ihi)
      return tridi_set_error(TRIDI_ERR_OVERLAP,
                             "%s: out overlaps in (the spans [%p, %p) and [%p, %p)); out of place "
                             "they must be disjoint",
                             fn, (void *)olo, (void *)ohi, (void *)ilo, (void *)ihi);
  }
  if (plan->batch == 0) return TRIDI_SUCCESS;
  if (plan->backend == TRIDI_BACKEND_CUDA) {
#ifdef TRIDI_HAVE_CUDA
    return tridi_cuda_fft_execute(plan, in, out, stream);
#else
    return tridi_set_error(TRIDI_ERR_INTERNAL, "%s: a CUDA plan in a build without CUDA", fn);
#endif
  }
  (void)stream;
  pthread_mutex_lock((pthread_mutex_t *)plan->lock);
  tridi_ref_fft_run(plan, in, out);
  pthread_mutex_unlock((pthread_mutex_t *)plan->lock);
  return TRIDI_SUCCESS;
}

tridi_status tridi_fft_plan_get_info(tridi_fft_plan plan, tridi_fft_plan_info *info) {
  static const char *fn = "tridi_fft_plan_get_info";
  tridi_clear_error();
  if (!plan) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: plan is NULL", fn);
  if (!info) return tridi_set_error(TRIDI_ERR_NULL_POINTER, "%s: info is NULL", fn);
  if (info->struct_size < FFT_INFO_MIN_SIZE)
    return tridi_set_error(TRIDI_ERR_INVALID_OPTION,
                           "%s: info->struct_size = %zu; set it to sizeof(tridi_fft_plan_info)", fn,
                           info->struct_size);
  tridi_fft_plan_info full;
  memset(&full, 0, sizeof full);
  full.struct_size = info->struct_size < sizeof full ? info->struct_size : sizeof full;
  full.backend = plan->backend;
  full.dtype = plan->dtype;
  full.direction = plan->sign < 0 ? TRIDI_FFT_FORWARD : TRIDI_FFT_INVERSE;
  full.num_threads = plan->backend == TRIDI_BACKEND_CUDA ? 0 : plan->threads;
  full.n = plan->n;
  full.batch = plan->batch;
  full.passes = plan->passes;
  full.kernel = plan->kernel;
  full.scratch_bytes = plan->scratch_bytes;
  memcpy(info, &full, full.struct_size);
  return TRIDI_SUCCESS;
}
