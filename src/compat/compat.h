/* Internal to src/compat: the plan cache behind the drop-in entry points
 * (LAPACK ?gtsv and the cuSPARSE-shaped GPU calls, tridi.h).  A drop-in call
 * describes its arguments as a tridi layout (a key), takes the cached plan
 * of that key (made on first use) and executes it.  Making a plan costs far
 * more than solving a small batch (validation, the planner, workspace
 * allocation: measured in docs/migrating.md), so the plans of the last
 * TRIDI_CACHE_SIZE distinct keys are kept. */
#ifndef TRIDI_COMPAT_H
#define TRIDI_COMPAT_H

#include "tridi_internal.h"

/* Plans kept (least recently used evicted first). */
#define TRIDI_CACHE_SIZE 16

/* What a plan is made from.  Zero it before filling (compared with memcmp). */
typedef struct tridi_cache_key {
  tridi_dtype dtype;
  tridi_backend backend;
  tridi_pivot pivot;
  int device;   /* CUDA: the device the plan runs on */
  void *stream; /* CUDA: plans with a workspace are per stream (tridi_execute) */
  int threads;  /* CPU: omp_get_max_threads() of the call (0 for CUDA) */
  int rank, axis;
  int64_t shape[3];
  int64_t strides[TRIDI_NUM_OPERANDS][3];
} tridi_cache_key;

/* The plan of *key, from the cache or made now (then cached).  *handle must
 * be given back to tridi_cache_release once the execute is enqueued; a
 * plan is never destroyed while it is held.  Statuses of tridi_plan_create;
 * `fn` names the caller in messages. */
tridi_status tridi_cache_acquire(const tridi_cache_key *key, const char *fn, tridi_plan *plan,
                                 void **handle);
void tridi_cache_release(void *handle);

#endif
