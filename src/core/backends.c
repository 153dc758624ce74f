/* The backends table: what each backend does for the core (availability,
 * option resolution, workspace memory, running a solver row).  The only
 * place the core names CUDA. */
#include "backends.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- host memory (REF and CPU) ------------------------------------------ */

static int always(void) { return 1; }

static tridi_status host_alloc(const struct tridi_plan_s *plan, void **p, size_t bytes) {
  (void)plan;
  *p = tridi_aligned_alloc(bytes);
  if (!*p)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: cannot allocate %zu bytes of workspace", bytes);
  return TRIDI_SUCCESS;
}

static void host_free(const struct tridi_plan_s *plan, void *p) {
  (void)plan;
  tridi_aligned_free(p);
}

static tridi_status direct_run(const struct tridi_plan_s *plan, const tridi_args *args) {
  return plan->solver->execute(plan, args);
}

/* ---- the first failing system of a host info array (REF and CPU):
 * tridi_info_check, and the status of the second pass below -------------- */

static tridi_status host_info_first(const struct tridi_plan_s *p, const int32_t *info,
                                    void *stream, int64_t *first, int32_t *code) {
  (void)stream;
  *first = -1;
  *code = 0;
  for (int64_t s = 0; s < p->nsys; ++s)
    if (info[s] != 0) {
      *first = s;
      *code = info[s];
      break;
    }
  return TRIDI_SUCCESS;
}

/* ---- TRIDI_PIVOT_AUTO's second pass on the host (REF and CPU) ----------- */

static size_t round64(size_t b) { return (b + 63) & ~(size_t)63; }

static int numerical(tridi_status st) {
  return st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE || st == TRIDI_ERR_INACCURATE;
}

/* Available where the kind has a reference pivoting solver: num_threads
 * slices of its pivot_work scratch. */
static tridi_status host_pass_init(struct tridi_plan_s *p, int *available) {
  *available = 0;
  if (!p->kops->pivot_system) return TRIDI_SUCCESS;
  const size_t work = round64(p->kops->pivot_work(p));
  const uint64_t nt = (uint64_t)p->num_threads;
  if ((work == 0 && p->n_max > 0) || (work && nt > (SIZE_MAX / 4) / work))
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: the workspace of TRIDI_PIVOT_AUTO's second pass "
                           "overflows");
  p->resolve_work = (size_t)nt * work;
  *available = 1;
  return TRIDI_SUCCESS;
}

/* The solve; then, when its status says that some system's info is not 0,
 * every such system is solved again with the kind's reference pivoting
 * solver (the inputs are intact), and gets that solver's info.  Without the
 * caller's info array the solve is run again into one of the workspace
 * (the solvers are deterministic, so it finds the same systems): executes
 * that succeed pay nothing for this.  The systems go over the plan's
 * threads; each is solved on its own, so the result does not depend on
 * their number.  Returns the status of the lowest-numbered system still
 * failing. */
static tridi_status host_pass_run(const struct tridi_plan_s *p, tridi_args *args) {
  tridi_status st = p->solver->execute(p, args);
  if (!numerical(st)) return st;
  char *ws = (char *)args->ws;
  if (!args->info) {
    args->info = (int32_t *)(void *)(ws + p->resolve_off);
    st = p->solver->execute(p, args);
    if (!numerical(st)) return st;
  }
  int32_t *info = args->info;
  char *work = ws + p->resolve_off + round64((size_t)p->nsys * sizeof(int32_t));
  const size_t slice = p->resolve_work / (size_t)p->num_threads;
  const int64_t nsys = p->nsys;
  const tridi_args *ca = args;
#pragma omp parallel for num_threads(p->num_threads) schedule(dynamic, 1024)
  for (int64_t s = 0; s < nsys; ++s)
    if (info[s] != 0) {
      char *w = work + (size_t)omp_get_thread_num() * slice;
      info[s] = p->kops->pivot_system(p, ca, s, w);
    }
  int64_t first;
  int32_t code;
  host_info_first(p, info, NULL, &first, &code);
  return tridi_info_status(code);
}

/* ---- REF: one thread, no SIMD ------------------------------------------- */

static tridi_status ref_resolve(struct tridi_plan_s *plan, const tridi_options *opts) {
  (void)opts;
  plan->simd = TRIDI_SIMD_AUTO;
  plan->num_threads = 1;
  return TRIDI_SUCCESS;
}

/* ---- CPU: SIMD level and thread count ----------------------------------- */

static tridi_status cpu_resolve(struct tridi_plan_s *plan, const tridi_options *opts) {
  if (opts->simd == TRIDI_SIMD_AUTO) {
    plan->simd = tridi_cpu_simd_detect_impl();
  } else if (!tridi_cpu_simd_supported(opts->simd)) {
    return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                           "tridi_plan_create: opts->simd = %s is not supported by this CPU or build",
                           tridi_simd_name(opts->simd));
  } else {
    plan->simd = opts->simd;
  }
  plan->num_threads = opts->num_threads > 0 ? opts->num_threads : tridi_cpu_max_threads();
  if (plan->num_threads < 1) plan->num_threads = 1;
  return TRIDI_SUCCESS;
}

/* ---- CUDA: device memory, the device made current around execute -------- */

#ifdef TRIDI_HAVE_CUDA
static tridi_status cuda_resolve(struct tridi_plan_s *plan, const tridi_options *opts) {
  (void)opts;
  plan->simd = TRIDI_SIMD_AUTO;
  plan->num_threads = 1;
  return tridi_cuda_check_device(plan->device);
}

static tridi_status cuda_ws_alloc(const struct tridi_plan_s *plan, void **p, size_t bytes) {
  return tridi_cuda_alloc(p, bytes, plan->device);
}

static void cuda_ws_free(const struct tridi_plan_s *plan, void *p) {
  tridi_cuda_free(p, plan->device);
}
#endif

static const tridi_backend_ops backends[] = {
    {TRIDI_BACKEND_REF, 1, always, ref_resolve, host_alloc, host_free, direct_run,
     host_pass_init, NULL, host_pass_run, host_info_first},
    {TRIDI_BACKEND_CPU, 1, always, cpu_resolve, host_alloc, host_free, direct_run,
     host_pass_init, NULL, host_pass_run, host_info_first},
#ifdef TRIDI_HAVE_CUDA
    {TRIDI_BACKEND_CUDA, 0, tridi_cuda_available, cuda_resolve, cuda_ws_alloc, cuda_ws_free,
     tridi_cuda_run, tridi_cuda_pass_init, tridi_cuda_pass_destroy, tridi_cuda_pass_run,
     tridi_cuda_info_first},
#endif
};

const tridi_backend_ops *tridi_backend_get(tridi_backend backend) {
  for (size_t i = 0; i < sizeof backends / sizeof backends[0]; ++i)
    if (backends[i].backend == backend) return &backends[i];
  return NULL;
}

int tridi_backend_available(tridi_backend backend) {
  if (backend == TRIDI_BACKEND_AUTO) return 1;
  const tridi_backend_ops *b = tridi_backend_get(backend);
  return b ? b->available() : 0;
}

tridi_simd tridi_cpu_simd_detect(void) { return tridi_cpu_simd_detect_impl(); }
