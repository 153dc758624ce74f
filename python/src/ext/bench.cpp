// The benchmark's helpers (python -m tridi.bench): tridi_execute timed in a
// C loop, and each step of a small tridi.solve call timed alone.
#include <chrono>
#include <cstring>
#include <vector>

#include "solve.h"

namespace tridipy {

// Seconds taken by `reps` tridi_execute calls on the plan tridi.solve would
// use for these arrays, in one C loop without the GIL (the benchmark's "C
// library" figure).  out is required; on the GPU the stream is synchronised
// before and after through the array library.
double time_execute(nb::handle a, nb::handle b, nb::handle c, nb::handle d, nb::handle out,
                    int64_t axis, const char *alg, int64_t reps) {
  const char *fn = "tridi._tridi.time_execute";
  PlanOptions o;
  o.alg = std::strcmp(alg, "auto") == 0 ? TRIDI_ALG_AUTO : alg_from_name(fn, alg);
  // CR, PCR and CR+PCR are planned only for systems declared dominant (the
  // benchmark's are)
  o.assume_dominant = tridi_alg_requires_dominance((tridi_alg)o.alg);
  Parsed r;
  parse_all(fn, a, b, c, d, axis, out, r);
  if (out.is_none()) throw nb::value_error("time_execute: out is required");
  PlanPtr plan = cached_plan(fn, r.p, o);
  Problem &p = r.p;
  std::vector<int32_t> host_info(static_cast<size_t>(p.batch > 0 ? p.batch : 1));
  nb::object info_obj;
  View vi;
  int32_t *info = host_info.data();
  void *stream = nullptr;
  if (p.on_gpu()) {
    info_obj = new_array(r.vd, d, p.batch_shape, p.batch_rank, "int32");
    parse_out_view(info_obj, vi, fn);
    info = reinterpret_cast<int32_t *>(vi.data);
    stream = current_stream(r.vd, d);
    arrays_module().attr("synchronize")(d);
  }
  tridi_status st = TRIDI_SUCCESS;
  std::chrono::steady_clock::time_point t0, t1;
  {
    nb::gil_scoped_release release;
    t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < reps && st == TRIDI_SUCCESS; ++i)
      st =
          tridi_execute(plan->plan, p.ptr[0], p.ptr[1], p.ptr[2], p.ptr[3], p.ptr[4], info, stream);
    if (!p.on_gpu()) t1 = std::chrono::steady_clock::now();
  }
  if (p.on_gpu()) {
    arrays_module().attr("synchronize")(d);
    t1 = std::chrono::steady_clock::now();
  }
  if (st != TRIDI_SUCCESS) raise_status(fn, st);
  return std::chrono::duration<double>(t1 - t0).count();
}

// Seconds per call of each step of tridi.solve(a, b, c, d, out=out,
// check=False) on these arrays, each timed alone in a loop of `reps` (the
// benchmark's breakdown of the binding's cost): reading each operand,
// broadcasting, the plan-cache lookup, the current stream, the info array
// (from CuPy's pool, or new and its address), releasing and retaking the
// GIL, the result, and tridi_execute itself (on the GPU the loop waits for
// the device at its end, as time_execute).  Keys starting with
// "(reference)" are steps the call does not take here (a pool miss, reading
// a caller's info= array).
nb::dict overhead_steps(nb::handle a, nb::handle b, nb::handle c, nb::handle d, nb::handle out,
                        int64_t axis, int64_t reps) {
  const char *fn = "tridi._tridi.overhead_steps";
  using clock = std::chrono::steady_clock;
  if (reps < 1) throw nb::value_error("overhead_steps: reps must be >= 1");
  if (out.is_none()) throw nb::value_error("overhead_steps: out is required");
  Parsed r;
  parse_all(fn, a, b, c, d, axis, out, r);
  Problem &p = r.p;
  PlanOptions o;
  PlanPtr plan = cached_plan(fn, p, o);
  nb::dict res;
  auto timed = [&](const char *name, auto &&step) {
    step();  // warm (first allocations, lookups)
    const auto t0 = clock::now();
    for (int64_t i = 0; i < reps; ++i) step();
    res[name] =
        std::chrono::duration<double>(clock::now() - t0).count() / static_cast<double>(reps);
  };
  timed("read d", [&] {
    View v;
    parse_view(d, v, fn, "d", nullptr, nb::none());
  });
  timed("read a, b, c", [&] {
    View va, vb, vc;
    parse_view(a, va, fn, "a", &r.vd, d);
    parse_view(b, vb, fn, "b", &r.vd, d);
    parse_view(c, vc, fn, "c", &r.vd, d);
  });
  timed("read out", [&] {
    View v;
    parse_out_view(out, v, fn);
  });
  timed("broadcast and bind out", [&] {
    Problem q;
    View *const in[4] = {&r.va, &r.vb, &r.vc, &r.vd};
    broadcast(fn, in, axis, q);
    bind_out(fn, r.vo, q);
  });
  timed("plan cache lookup", [&] { PlanPtr pl = cached_plan(fn, p, o); });
  void *stream = p.on_gpu() ? current_stream(r.vd, d) : nullptr;
  if (p.on_gpu()) timed("current stream", [&] { (void)current_stream(r.vd, d); });
  // the info array as the call gets it: from the pool (CuPy, reused each
  // time here: the loop drops it), else new, with its address read alone
  // (CuPy, PyTorch) or the whole array read (NumPy); the other ways for
  // reference, not summed (a key starting with "(reference)")
  char *data = nullptr;
  bool reused = false;
  nb::object info_obj = pooled_info(r.vd, d, p.batch_shape, p.batch_rank, stream, &data, &reused);
  const bool pooled = info_obj.is_valid();
  const bool addr_only =
      new_array_data(r.vd.lib, new_array(r.vd, d, p.batch_shape, p.batch_rank, "int32")) != nullptr;
  if (pooled) {
    timed("info array from the pool (reused)", [&] {
      char *q = nullptr;
      bool hit = false;
      nb::object i = pooled_info(r.vd, d, p.batch_shape, p.batch_rank, stream, &q, &hit);
    });
  }
  timed(pooled ? "(reference) new info array (a pool miss)" : "new info array",
        [&] { nb::object i = new_array(r.vd, d, p.batch_shape, p.batch_rank, "int32"); });
  if (!pooled) info_obj = new_array(r.vd, d, p.batch_shape, p.batch_rank, "int32");
  if (addr_only)
    timed(pooled ? "(reference) address of a new info array" : "address of the new info array",
          [&] { (void)new_array_data(r.vd.lib, info_obj); });
  timed(addr_only ? "(reference) read a caller's info array (info=)" : "read info array", [&] {
    View v;
    parse_out_view(info_obj, v, fn, "info");
  });
  View vi;
  parse_out_view(info_obj, vi, fn, "info");
  timed("release and retake the GIL", [&] { nb::gil_scoped_release release; });
  timed("result tuple (x, info)", [&] { nb::object t = nb::make_tuple(out, info_obj); });
  int32_t *info = reinterpret_cast<int32_t *>(vi.data);
  tridi_status st = TRIDI_SUCCESS;
  auto run = [&](int64_t n) {
    nb::gil_scoped_release release;
    for (int64_t i = 0; i < n && st == TRIDI_SUCCESS; ++i)
      st =
          tridi_execute(plan->plan, p.ptr[0], p.ptr[1], p.ptr[2], p.ptr[3], p.ptr[4], info, stream);
  };
  auto per_call = [&](clock::time_point t0, int64_t n) {
    return std::chrono::duration<double>(clock::now() - t0).count() / static_cast<double>(n);
  };
  if (p.on_gpu()) arrays_module().attr("synchronize")(d);
  run(1);
  if (p.on_gpu()) arrays_module().attr("synchronize")(d);
  auto t0 = clock::now();
  run(reps);
  if (p.on_gpu()) arrays_module().attr("synchronize")(d);
  res["tridi_execute (C loop)"] = per_call(t0, reps);
  if (p.on_gpu()) {
    // the host's own cost of a call: a few launches enqueued, far fewer than
    // the launch queue holds, timed without waiting for them
    const int64_t few = reps < 32 ? reps : 32;
    t0 = clock::now();
    run(few);
    res["tridi_execute (enqueue only)"] = per_call(t0, few);
    arrays_module().attr("synchronize")(d);
  }
  if (st != TRIDI_SUCCESS && !is_breakdown(st)) raise_status(fn, st);
  return res;
}

}  // namespace tridipy
