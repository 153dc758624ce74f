/* The plan cache of the drop-in entry points (compat.h): TRIDI_CACHE_SIZE
 * entries under one mutex, least recently used evicted first; an entry is
 * never destroyed while a caller holds it (refs), and a plan made when every
 * entry is held is used once and destroyed.  Evicting a CUDA plan first
 * waits for its device: work queued on it may still use its workspace. */
#include "compat.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct cache_entry {
  tridi_cache_key key;
  tridi_plan plan; /* NULL: the slot is empty */
  int refs;        /* callers holding it */
  int dead;        /* cleared while held: destroyed by the last release */
  int owned;       /* not in the cache (made when every slot was held) */
  uint64_t stamp;  /* last use */
} cache_entry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry g_cache[TRIDI_CACHE_SIZE];
static uint64_t g_clock = 0;

static void destroy_plan(const tridi_cache_key *key, tridi_plan plan) {
#ifdef TRIDI_HAVE_CUDA
  if (key->backend == TRIDI_BACKEND_CUDA) tridi_cuda_device_sync(key->device);
#else
  (void)key;
#endif
  tridi_plan_destroy(plan);
}

static tridi_status make_plan(const tridi_cache_key *key, const char *fn, tridi_plan *plan) {
  tridi_desc desc = NULL;
  *plan = NULL;
  tridi_status st = tridi_desc_create(&desc, key->dtype, key->rank, key->shape, key->axis);
  for (int k = 0; k < TRIDI_NUM_OPERANDS && !st; ++k)
    st = tridi_desc_set_strides(desc, (tridi_operand)k, key->strides[k]);
  tridi_options o;
  tridi_options_init(&o);
  o.backend = key->backend;
  o.device = key->device;
  o.pivot = key->pivot;
  o.num_threads = key->threads;
  if (!st) st = tridi_plan_create(plan, desc, &o);
  tridi_desc_destroy(desc);
  if (st) {
    /* keep the library's reason, name the entry point */
    char why[200];
    strncpy(why, tridi_last_error(), sizeof why - 1);
    why[sizeof why - 1] = '\0';
    return tridi_set_error(st, "%s: %s", fn, why);
  }
  return TRIDI_SUCCESS;
}

tridi_status tridi_cache_acquire(const tridi_cache_key *key, const char *fn, tridi_plan *plan,
                                 void **handle) {
  *plan = NULL;
  *handle = NULL;
  pthread_mutex_lock(&g_lock);
  cache_entry *hit = NULL, *victim = NULL;
  for (int i = 0; i < TRIDI_CACHE_SIZE; ++i) {
    cache_entry *e = &g_cache[i];
    if (e->plan && !e->dead && memcmp(&e->key, key, sizeof *key) == 0) {
      hit = e;
      break;
    }
    if (e->refs == 0 && (!victim || !e->plan || (victim->plan && e->stamp < victim->stamp)))
      victim = e;
  }
  if (hit) {
    ++hit->refs;
    hit->stamp = ++g_clock;
    *plan = hit->plan;
    *handle = hit;
    pthread_mutex_unlock(&g_lock);
    return TRIDI_SUCCESS;
  }
  /* a new plan, made under the lock (first use of a key only) */
  tridi_plan p;
  const tridi_status st = make_plan(key, fn, &p);
  if (st) {
    pthread_mutex_unlock(&g_lock);
    return st;
  }
  cache_entry *e = victim;
  if (!e) { /* every slot held: this plan is used once */
    e = calloc(1, sizeof *e);
    if (!e) {
      pthread_mutex_unlock(&g_lock);
      tridi_plan_destroy(p);
      return tridi_set_error(TRIDI_ERR_ALLOC, "%s: out of memory", fn);
    }
    e->owned = 1;
  } else if (e->plan) {
    destroy_plan(&e->key, e->plan);
  }
  e->key = *key;
  e->plan = p;
  e->refs = 1;
  e->dead = 0;
  e->stamp = ++g_clock;
  *plan = p;
  *handle = e;
  pthread_mutex_unlock(&g_lock);
  return TRIDI_SUCCESS;
}

void tridi_cache_release(void *handle) {
  cache_entry *e = (cache_entry *)handle;
  if (!e) return;
  pthread_mutex_lock(&g_lock);
  if (--e->refs == 0 && (e->owned || e->dead)) {
    destroy_plan(&e->key, e->plan);
    e->plan = NULL;
    e->dead = 0;
    if (e->owned) free(e);
  }
  pthread_mutex_unlock(&g_lock);
}

void tridi_gtsv_cache_clear(void) {
  tridi_clear_error();
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < TRIDI_CACHE_SIZE; ++i) {
    cache_entry *e = &g_cache[i];
    if (!e->plan) continue;
    if (e->refs) {
      e->dead = 1;
      continue;
    }
    destroy_plan(&e->key, e->plan);
    e->plan = NULL;
  }
  pthread_mutex_unlock(&g_lock);
}

int tridi_gtsv_cache_size(void) {
  int n = 0;
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < TRIDI_CACHE_SIZE; ++i) n += g_cache[i].plan != NULL && !g_cache[i].dead;
  pthread_mutex_unlock(&g_lock);
  return n;
}
