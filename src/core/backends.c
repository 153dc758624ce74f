/* The backends table: what each backend does for the core (availability,
 * option resolution, workspace memory, running a solver row).  The only
 * place the core names CUDA. */
#include "backends.h"

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
    {TRIDI_BACKEND_REF, 1, always, ref_resolve, host_alloc, host_free, direct_run},
    {TRIDI_BACKEND_CPU, 1, always, cpu_resolve, host_alloc, host_free, direct_run},
#ifdef TRIDI_HAVE_CUDA
    {TRIDI_BACKEND_CUDA, 0, tridi_cuda_available, cuda_resolve, cuda_ws_alloc, cuda_ws_free,
     tridi_cuda_run},
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
