/* The cuda_var_thomas_pcr row: variable-size batches on the GPU.
 *  - PACKED: systems of at most R = P M rows are cut, in storage order, into
 *    tiles of whole systems of at most R rows each (var_packed.cu: one block
 *    a tile, cost proportional to the real unknowns);
 *  - INTERLEAVED: blocks of G neighbouring systems (a group of one or four
 *    memory sectors), P threads each (var_interleaved.cu); the groups are
 *    binned by their longest system (powers of two), one launch a bin and
 *    group width with P from the launch's longest;
 *  - longer systems (the tail of the batches this kind is for: a few long
 *    dendrites among many short ones): PACKED, in segments of one tile
 *    solved by the partition method (var_segments.cu: three launches, the
 *    inputs read twice), then the reference recurrences for the systems the
 *    segments could not solve (a breakdown: exact info codes); INTERLEAVED,
 *    by the reference recurrences, one thread a system, all in one launch
 *    (var_long.cu), c' in the plan's workspace.
 * Plan time uploads the tiles and the offsets (the binned groups); execute
 * only launches (asynchronous on the caller's stream, graph-capturable). */
#include "../common/launch.h"
#include "cuda_backend.h"
#include "kinds/variable.h"
#include "var_kernels.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace tridi_cuda {
int var_inter_shape(bool f32, int W, int logH, int64_t nmax, int *M, int *P);
cudaError_t var_inter_launch(bool f32, bool grow, const VarParams &p, int64_t ngroups, int W, int M, int P,
                             int logH, cudaStream_t stream);
cudaError_t var_long_launch(bool f32, bool grow, const VarParams &p, const VarLong &lg, cudaStream_t stream);
cudaError_t var_seg_prepare(bool f32, int M, bool grow, int *per_sm, int *kmax);
size_t var_seg_smem_bytes(bool f32, int M);
cudaError_t var_seg_launch(bool f32, bool grow, int M, const VarParams &p, const VarLong &lg, const VarSegs &sg,
                           int blocks, cudaStream_t stream);
} /* namespace tridi_cuda */

using namespace tridi_cuda;

namespace {

/* INTERLEAVED: bin k takes the groups whose longest short system has at
 * most 16 << k rows (the cap is at most 8192); each bin is launched twice at
 * most, once for its wide groups and once for its one-sector groups */
constexpr int kVarInterBins = 10;

struct VarPlan {
  bool f32;
  bool grow;           /* plan->growth: the kernels with the growth detection */
  int64_t nshort;      /* systems the kernel solves */
  VarParams kp;        /* device arrays below */
  VarTile *tiles;      /* PACKED */
  int64_t *off;
  int32_t *len;        /* INTERLEAVED */
  int64_t *groups;     /* INTERLEAVED: the groups of bin[0], then of bin[1], ... */
  int nbins;
  struct {
    int64_t first, count; /* groups[first .. first + count - 1], in units of W sectors */
    int W, M, P, logH;    /* W sectors a group, 2^logH blocks a group (var_interleaved.cu) */
  } bin[2 * kVarInterBins];
  int blocks;          /* PACKED: persistent blocks */
  int M;               /* PACKED: rows a thread (INTERLEAVED: each bin's own M, P) */
  VarLong lg;          /* the long systems (device arrays below) */
  int64_t *lg_mem;     /* sys, first, n, ws_off, seg0: 5 x nlong */
  VarSegs sg;          /* PACKED: the long systems' segments (workspace
                        * pointers: offsets from the workspace, set at execute) */
  int32_t *seg_mem;    /* seg_sys, seg_k: 2 x nseg */
  int seg_blocks;
  size_t ws_seg[6];    /* byte offsets of rows, sol, smax, sysx, segst, sysbad */
};

template <typename X>
tridi_status upload(X **dev, const X *host, size_t count, const char *what) {
  *dev = NULL;
  cudaError_t e = cudaMalloc((void **)dev, (count ? count : 1) * sizeof(X));
  if (e != cudaSuccess) {
    *dev = NULL;
    return cuda_error(e, "tridi_plan_create: cudaMalloc of %s", what);
  }
  if (count) e = cudaMemcpy(*dev, host, count * sizeof(X), cudaMemcpyHostToDevice);
  if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cudaMemcpy of %s", what);
  return TRIDI_SUCCESS;
}

void free_plan(VarPlan *vp, int device) {
  if (!vp) return;
  {
    DeviceGuard guard(device);
    cudaFree(vp->tiles);
    cudaFree(vp->off);
    cudaFree(vp->len);
    cudaFree(vp->groups);
    cudaFree(vp->lg_mem);
    cudaFree(vp->seg_mem);
  }
  free(vp);
}

/* qsort by length, longest first; ties by system number */
int by_length(const void *p, const void *q) {
  const int64_t *a = (const int64_t *)p, *b = (const int64_t *)q; /* {n, sys} pairs */
  if (a[0] != b[0]) return a[0] > b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}

/* INTERLEAVED: the blocks a group of W sectors (2^logH, the fewest whose
 * shape takes nmax rows: for W = 1 one a group up to 1024 (f32) / 2048 (f64)
 * rows, then 2, 4, ..., one a system, up to 8192 rows) and the shape; -1
 * when nmax is beyond every shape.  Groups shared by several blocks are
 * slower than one block a group (each block reads part of a sector: H = 2
 * for every bin ran at 0.6-0.8x on the H200), but much faster than
 * var_long's one thread a system. */
int inter_logh(bool f32, int W, int64_t nmax, int *M, int *P) {
  int maxlog = 0; /* up to G = 1 */
  while ((W * var_inter_sector(f32) >> maxlog) > 1) ++maxlog;
  for (int logH = 0; logH <= maxlog; ++logH)
    if (var_inter_shape(f32, W, logH, nmax, M, P)) return logH;
  return -1;
}

/* Whether bin k (up to 16 << k rows) takes wide groups: always, except
 * where the wide shape would run f64 chunks of 16 rows (128 registers and
 * spills) while one-sector groups run shorter ones. */
bool bin_wide(bool f32, int k) {
  int Mw = 0, Pw = 0, Mn = 0, Pn = 0;
  if (inter_logh(f32, kVarInterWide, (int64_t)16 << k, &Mw, &Pw) < 0) return false;
  if (inter_logh(f32, 1, (int64_t)16 << k, &Mn, &Pn) < 0) return false;
  return f32 || Mw < 16 || Mn == 16;
}

/* How many bins apart the sectors of a wide group may be: 1 (a sector takes
 * at most the rows of the bin above its own).  Measurement builds read
 * TRIDI_CUDA_VAR_WIDE: -1 one-sector groups only, 0 the sectors of one bin,
 * 1, 2, ... */
int wide_spread() {
  int v = 1;
#ifdef TRIDI_CUDA_TUNING
  if (const char *ev = getenv("TRIDI_CUDA_VAR_WIDE")) v = atoi(ev);
#endif
  return v;
}

/* INTERLEAVED: the groups, binned by their longest system (bin k: up to 16
 * << k rows; a group of long systems only is in none), in storage order
 * within a bin, the bins longest first.  Each sector's systems are first
 * binned on their own; four neighbouring sectors whose bins are at most
 * wide_spread() apart make a wide group in the highest of them (W = 4: a
 * block's row read is 128 bytes, the scalar direct kernel's request size,
 * which the one-sector groups lacked: 1.3-1.8x on the H200,
 * docs/perf-log.md), where bin_wide allows it; the others stay one-sector
 * groups (W = 1), so that a short sector does not take a much longer
 * neighbour's shape.  Uploads the list and sets each launch's shape from its
 * own longest system. */
tridi_status bin_groups(VarPlan *vp, const int32_t *len, int64_t nsys) {
  const int S = var_inter_sector(vp->f32), W = kVarInterWide;
  const int64_t nsec = (nsys + S - 1) / S, nwide = (nsec + W - 1) / W;
  signed char *sbin = (signed char *)malloc((size_t)(nsec > 0 ? nsec : 1));
  int32_t *smax = (int32_t *)malloc((size_t)(nsec > 0 ? nsec : 1) * sizeof *smax);
  signed char *wbin = (signed char *)malloc((size_t)(nwide > 0 ? nwide : 1)); /* -1: not wide */
  int64_t *host = (int64_t *)malloc((size_t)(nsec > 0 ? nsec : 1) * sizeof *host);
  if (!sbin || !smax || !wbin || !host) {
    free(sbin);
    free(smax);
    free(wbin);
    free(host);
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory for the groups");
  }
  for (int64_t q = 0; q < nsec; ++q) {
    int32_t m = 0;
    for (int64_t s = q * S; s < q * S + S && s < nsys; ++s) m = len[s] > m ? len[s] : m;
    int k = -1;
    if (m > 0) {
      k = 0;
      while (k < kVarInterBins - 1 && (16 << k) < m) ++k;
    }
    sbin[q] = (signed char)k;
    smax[q] = m;
  }
  /* launch j = 2 k + w: bin k, wide (w = 1) or one-sector groups */
  int64_t count[2 * kVarInterBins] = {0};
  int32_t longest[2 * kVarInterBins] = {0};
  bool allow[kVarInterBins];
  for (int k = 0; k < kVarInterBins; ++k) allow[k] = bin_wide(vp->f32, k);
  const int spread = wide_spread();
  for (int64_t w = 0; w < nwide; ++w) {
    const int64_t q0 = w * W, q1 = q0 + W < nsec ? q0 + W : nsec;
    int kmin = sbin[q0], kmax = sbin[q0];
    for (int64_t q = q0 + 1; q < q1; ++q) {
      kmin = sbin[q] < kmin ? sbin[q] : kmin;
      kmax = sbin[q] > kmax ? sbin[q] : kmax;
    }
    /* every sector with short systems, within `spread` bins of each other */
    const bool wd = kmin >= 0 && kmax - kmin <= spread && allow[kmax];
    wbin[w] = (signed char)(wd ? kmax : -1);
    for (int64_t q = q0; q < q1; ++q) {
      if (sbin[q] < 0) continue;
      const int j = wd ? 2 * kmax + 1 : 2 * sbin[q];
      if (!wd || q == q0) ++count[j];
      longest[j] = smax[q] > longest[j] ? smax[q] : longest[j];
    }
  }
  int64_t first[2 * kVarInterBins], total = 0;
  vp->nbins = 0;
  for (int j = 2 * kVarInterBins - 1; j >= 0; --j) {
    first[j] = total;
    if (count[j] == 0) continue;
    const int Wj = j & 1 ? W : 1;
    int M = 0, P = 0, logH = inter_logh(vp->f32, Wj, longest[j], &M, &P);
    vp->bin[vp->nbins].first = total;
    vp->bin[vp->nbins].count = count[j];
    vp->bin[vp->nbins].W = Wj;
    vp->bin[vp->nbins].M = M;
    vp->bin[vp->nbins].P = P;
    vp->bin[vp->nbins].logH = logH;
    ++vp->nbins;
    total += count[j];
  }
  for (int64_t w = 0; w < nwide; ++w) {
    const int64_t q0 = w * W, q1 = q0 + W < nsec ? q0 + W : nsec;
    if (wbin[w] >= 0) {
      host[first[2 * wbin[w] + 1]++] = w;
    } else {
      for (int64_t q = q0; q < q1; ++q)
        if (sbin[q] >= 0) host[first[2 * sbin[q]]++] = q;
    }
  }
  free(sbin);
  free(smax);
  free(wbin);
  const tridi_status st = upload(&vp->groups, host, (size_t)total, "the groups");
  free(host);
  return st;
}

/* INTERLEAVED: one launch a bin, longest first, on the caller's stream */
cudaError_t inter_launch(const VarPlan *vp, VarParams kp, cudaStream_t stream) {
  for (int k = 0; k < vp->nbins; ++k) {
    kp.groups = vp->groups + vp->bin[k].first;
    const cudaError_t e = var_inter_launch(vp->f32, vp->grow, kp, vp->bin[k].count, vp->bin[k].W,
                                           vp->bin[k].M, vp->bin[k].P, vp->bin[k].logH, stream);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

} /* namespace */

extern "C" const char *tridi_cuda_var_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every variable-size batch */
  return NULL;
}

extern "C" tridi_status tridi_cuda_var_init(struct tridi_plan_s *plan) {
  const tridi_var_problem *v = tridi_var_of(plan);
  DeviceGuard guard(plan->device);
  if (guard.err != cudaSuccess) return cuda_error(guard.err, "tridi_plan_create: cudaSetDevice(%d)", plan->device);
  VarPlan *vp = (VarPlan *)calloc(1, sizeof *vp);
  if (!vp) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
  plan->priv = vp;
  vp->f32 = plan->dtype == TRIDI_F32;
  vp->grow = plan->growth != 0;
  const bool packed = v->layout == TRIDI_VAR_PACKED;
  int64_t cap;
  int sms = 0;
  if (packed) {
    const cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, plan->device);
    if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cuda_var_thomas_pcr");
    vp->M = var_packed_m(vp->f32, v->nmax, v->total, sms); /* tiles of 2048 / 4096 rows */
    /* the kernels' shared memory (the segments' is the larger) against the
     * device's: f32 falls back to 2048-row tiles; f64 needs ~92 KiB */
    int optin = 0;
    const cudaError_t ea = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, plan->device);
    if (ea != cudaSuccess) return cuda_error(ea, "tridi_plan_create: cuda_var_thomas_pcr");
    if (vp->f32 && vp->M == 16 && var_seg_smem_bytes(true, 16) > (size_t)optin) vp->M = 8;
    if (var_seg_smem_bytes(vp->f32, vp->M) > (size_t)optin)
      return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED,
                             "tridi_plan_create: packed variable-size batches of %s on the GPU need %zu bytes of "
                             "shared memory a block; device %d allows %d",
                             vp->f32 ? "f32" : "f64", var_seg_smem_bytes(vp->f32, vp->M), plan->device, optin);
    cap = var_packed_rows(vp->M);
  } else {
    int M = 0, P = 0;
    cap = 0;
    for (int64_t n = 256; n <= 8192; n *= 2) /* the longest the kernel takes */
      if (inter_logh(vp->f32, 1, n, &M, &P) >= 0) cap = n;
  }
  /* the long systems: sorted by length, c' scratch in the workspace */
  int64_t nlong = 0;
  for (int64_t s = 0; s < v->nsys; ++s) nlong += v->len[s] > cap;
  vp->nshort = v->nsys - nlong;
  if (nlong) {
    int64_t *pairs = (int64_t *)malloc((size_t)nlong * 2 * sizeof *pairs);
    int64_t *host = (int64_t *)malloc((size_t)nlong * 5 * sizeof *host);
    if (!pairs || !host) {
      free(pairs);
      free(host);
      return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
    }
    int64_t k = 0;
    for (int64_t s = 0; s < v->nsys; ++s)
      if (v->len[s] > cap) {
        pairs[2 * k] = v->len[s];
        pairs[2 * k + 1] = s;
        ++k;
      }
    qsort(pairs, (size_t)nlong, 2 * sizeof *pairs, by_length);
    /* PACKED: each long system's segments (VarSegs: as many as its
     * length needs at the worst 16-byte phase) */
    const int64_t vpe = (int64_t)(16 / plan->esize);
    int64_t ws = 0, stride = 1, nseg = 0;
    for (k = 0; k < nlong; ++k) {
      const int64_t s = pairs[2 * k + 1];
      host[k] = s;
      tridi_var_system(v, s, &host[nlong + k], &stride);
      host[2 * nlong + k] = pairs[2 * k];
      host[3 * nlong + k] = ws;
      host[4 * nlong + k] = nseg;
      ws += (pairs[2 * k] + 31) / 32 * 32; /* 128- / 256-byte aligned rows of c' */
      if (packed) nseg += (pairs[2 * k] + vpe - 1 + cap - 1) / cap;
    }
    free(pairs);
    tridi_status st = upload(&vp->lg_mem, host, (size_t)nlong * 5, "the long systems");
    if (!st && packed) {
      int32_t *sh = (int32_t *)malloc((size_t)nseg * 2 * sizeof *sh);
      if (!sh) st = tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory for the segments");
      for (k = 0; sh && k < nlong; ++k)
        for (int64_t q = host[4 * nlong + k]; q < (k + 1 < nlong ? host[4 * nlong + k + 1] : nseg); ++q) {
          sh[q] = (int32_t)k;
          sh[nseg + q] = (int32_t)(q - host[4 * nlong + k]);
        }
      if (sh) st = upload(&vp->seg_mem, sh, (size_t)nseg * 2, "the segments");
      free(sh);
    }
    if (st) {
      free(host);
      return st;
    }
    vp->lg.sys = vp->lg_mem;
    vp->lg.first = vp->lg_mem + nlong;
    vp->lg.n = vp->lg_mem + 2 * nlong;
    vp->lg.ws_off = vp->lg_mem + 3 * nlong;
    vp->lg.count = nlong;
    vp->lg.stride = stride;
    size_t bytes = (size_t)ws * plan->esize;
    if (packed) {
      /* the segments' workspace after c' (the reference's, for the systems
       * they cannot solve): 256-byte aligned arrays */
      const size_t es = plan->esize;
      const size_t sizes[6] = {(size_t)nseg * 8 * es, (size_t)nseg * 2 * es, (size_t)nseg * 2 * es,
                               (size_t)nlong * 3 * es, (size_t)nseg * 4, (size_t)nlong * 4};
      for (int a = 0; a < 6; ++a) {
        bytes = (bytes + 255) / 256 * 256;
        vp->ws_seg[a] = bytes;
        bytes += sizes[a];
      }
      vp->lg.seg0 = vp->lg_mem + 4 * nlong;
      vp->lg.cap = (int)cap;
      vp->sg.seg_sys = vp->seg_mem;
      vp->sg.seg_k = vp->seg_mem + nseg;
      int per_sm = 0, kmax = 0;
      const cudaError_t e = var_seg_prepare(vp->f32, vp->M, vp->grow, &per_sm, &kmax);
      if (e != cudaSuccess) {
        free(host);
        return cuda_error(e, "tridi_plan_create: cuda_var_thomas_pcr segments");
      }
#ifdef TRIDI_CUDA_TUNING
      {
        const char *ev = getenv("TRIDI_CUDA_VAR_CLUSTER"); /* 0: the three launches only */
        if (ev && atoi(ev) == 0) kmax = 0;
      }
#endif
      /* the longest systems (first: sorted) take the three launches while
       * they need more than kmax segments; the others a cluster of K
       * blocks (the power of two their segments need), bins in order */
      const int64_t *seg_first = host + 4 * nlong;
      auto seg_count = [&](int64_t jj) { return (jj + 1 < nlong ? seg_first[jj + 1] : nseg) - seg_first[jj]; };
      int64_t n3 = 0;
      while (n3 < nlong && (kmax < 2 || seg_count(n3) > kmax)) ++n3;
      vp->sg.nsys3 = n3;
      vp->sg.nseg = n3 < nlong ? seg_first[n3] : nseg;
      vp->sg.nbins = 0;
      for (int64_t jj = n3; jj < nlong;) {
        int K = 2;
        while (K < seg_count(jj)) K *= 2;
        int64_t je = jj;
        while (je < nlong && seg_count(je) > K / 2) ++je;
        if (K == 2) je = nlong; /* every system has at least two segments */
        vp->sg.bin[vp->sg.nbins].j0 = jj;
        vp->sg.bin[vp->sg.nbins].count = je - jj;
        vp->sg.bin[vp->sg.nbins].K = K;
        ++vp->sg.nbins;
        jj = je;
      }
      vp->seg_blocks = var_persistent_blocks(per_sm, sms, vp->sg.nseg);
    }
    free(host);
    plan->ws_bytes = bytes;
  }
  /* the kernel's tables */
  tridi_status st = TRIDI_SUCCESS;
  VarParams &kp = vp->kp;
  memset(&kp, 0, sizeof kp);
  kp.nsys = v->nsys;
  if (packed) {
    VarTile *tiles = (VarTile *)malloc((size_t)(v->nsys > 0 ? v->nsys : 1) * sizeof *tiles);
    if (!tiles) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory for the tiles");
    int64_t nt = 0;
    for (int64_t s = 0; s < v->nsys; ++s) {
      const int64_t n = v->len[s], o = v->off[s];
      if (n > cap) continue;
      /* a system joins the tile while the tile still fits shifted by its
       * phase in a 128-byte line (up to 128 / esize - 1 rows: the kernel's
       * 16-byte copies, whole lines a warp); one system alone may fill it
       * (the 16-byte phase or element copies then) */
      if (nt > 0 && tiles[nt - 1].sys0 + tiles[nt - 1].nsys == s &&
          tiles[nt - 1].nrows + n <= cap - (int64_t)(128 / plan->esize - 1)) {
        tiles[nt - 1].nrows += (int32_t)n;
        tiles[nt - 1].nsys += 1;
      } else {
        tiles[nt].row0 = o;
        tiles[nt].sys0 = s;
        tiles[nt].nrows = (int32_t)n;
        tiles[nt].nsys = 1;
        ++nt;
      }
    }
    st = upload(&vp->tiles, tiles, (size_t)nt, "the tiles");
    if (!st) st = upload(&vp->off, v->off, (size_t)v->nsys + 1, "the offsets");
    free(tiles);
    if (st) return st;
    kp.tiles = vp->tiles;
    kp.ntiles = nt;
    kp.off = vp->off;
    const cudaError_t e = var_packed_grid(vp->f32, vp->M, vp->grow, false, nt, sms, &vp->blocks);
    if (e != cudaSuccess) return cuda_error(e, "tridi_plan_create: cuda_var_thomas_pcr");
    snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_var_packed_thomas_pcr_%s_r%d%s",
             vp->f32 ? "f32" : "f64", (int)cap, nlong ? "+segments" : "");
  } else {
    int32_t *len = (int32_t *)malloc((size_t)(v->nsys > 0 ? v->nsys : 1) * sizeof *len);
    if (!len) return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: out of memory");
    for (int64_t s = 0; s < v->nsys; ++s) len[s] = v->len[s] <= cap ? (int32_t)v->len[s] : 0;
    st = upload(&vp->len, len, (size_t)v->nsys, "the lengths");
    if (!st) st = bin_groups(vp, len, v->nsys);
    free(len);
    if (st) return st;
    kp.len = vp->len;
    kp.ld = v->ld;
    snprintf(plan->kernel_name, sizeof plan->kernel_name, "cuda_var_interleaved_thomas_pcr_%s_bins%d%s",
             vp->f32 ? "f32" : "f64", vp->nbins, nlong ? "+long" : "");
  }
  return TRIDI_SUCCESS;
}

extern "C" tridi_status tridi_cuda_var_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  const VarPlan *vp = (const VarPlan *)plan->priv;
  const tridi_var_problem *v = tridi_var_of(plan);
  cudaStream_t stream = (cudaStream_t)args->stream;
  VarParams kp = vp->kp;
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) kp.op[k] = args->op[k];
  kp.info = args->info;
  kp.ph0 = var_packed_phase(args->op, plan->esize); /* PACKED: 16-byte copies or element copies */
  if (vp->nshort > 0) {
    cudaError_t e;
    if (v->layout == TRIDI_VAR_PACKED)
      e = kp.ntiles > 0 ? var_packed_launch(vp->f32, vp->grow, false, vp->M, kp, vp->blocks, stream)
                        : cudaSuccess;
    else
      e = inter_launch(vp, kp, stream);
    if (e != cudaSuccess) return cuda_error(e, "tridi_execute: cuda_var_thomas_pcr launch");
  }
  if (vp->lg.count > 0) {
    VarLong lg = vp->lg;
    lg.ws = args->ws;
    if (v->layout == TRIDI_VAR_PACKED) {
      /* the segments, then the reference for the systems they mark */
      VarSegs sg = vp->sg;
      unsigned char *w = (unsigned char *)args->ws;
      sg.rows = w + vp->ws_seg[0];
      sg.sol = w + vp->ws_seg[1];
      sg.smax = w + vp->ws_seg[2];
      sg.sysx = w + vp->ws_seg[3];
      sg.segst = (int32_t *)(w + vp->ws_seg[4]);
      sg.sysbad = (int32_t *)(w + vp->ws_seg[5]);
      lg.segst = sg.segst;
      lg.sysbad = sg.sysbad;
      const cudaError_t e = var_seg_launch(vp->f32, vp->grow, vp->M, kp, lg, sg, vp->seg_blocks, stream);
      if (e != cudaSuccess) return cuda_error(e, "tridi_execute: cuda_var_thomas_pcr long-system segments");
    }
    const cudaError_t e = var_long_launch(vp->f32, vp->grow, kp, lg, stream);
    if (e != cudaSuccess) return cuda_error(e, "tridi_execute: cuda_var_thomas_pcr long systems");
  }
  return TRIDI_SUCCESS;
}

extern "C" void tridi_cuda_var_destroy(struct tridi_plan_s *plan) {
  free_plan((VarPlan *)plan->priv, plan->device);
  plan->priv = NULL;
}
