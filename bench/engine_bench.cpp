// Engine throughput. items_per_second = events fired per wall-clock second.
//  BM_Hold/N: the classic hold model (Vaucher & Duval 1975; ROSS/PHOLD style): N events
//    pending; each fired event schedules one successor at now + Exp(mean 1 us) through the
//    engine's public API; the handler does trivial work.
//  BM_MM1: an M/M/1 queue (rho = 0.8) on the engine's Station.
//  BM_HoldBaseline*: the same hold loop with no engine, on std::priority_queue and on our
//    4-ary EventHeap, as yardsticks measured on the same machine in the same run.
#include <benchmark/benchmark.h>

#include <functional>
#include <queue>

#include "hcisim/model/model.hpp"

using namespace hcisim::literals;

namespace {

using namespace hcisim;

struct HoldHandler final : EventHandler {
  RngStream rng{1, 0, "hold"};
  Distribution delay = Distribution::exponential(1000.0);
  std::uint64_t sum = 0;
  void on_event(Engine& e, EventTag, std::uint64_t arg) override {
    sum += arg;
    e.schedule_after(Time::ns(static_cast<std::int64_t>(delay.sample(rng))), *this, 0, arg);
  }
};

void BM_Hold(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  Engine engine;
  HoldHandler h;
  engine.reserve(pending);
  for (std::size_t i = 0; i < pending; ++i)
    engine.schedule_at(Time::ns(static_cast<std::int64_t>(h.delay.sample(h.rng))), h, 0, i);
  engine.run_for(20_us);   // settle: ~20 events per pending event, lets the queue adapt
  constexpr std::int64_t kBatch = 100'000;
  std::int64_t fired = 0;
  for (auto _ : state) {
    // Advance simulated time by ~kBatch events (the event rate is `pending` per us).
    fired += static_cast<std::int64_t>(
        engine.run_for(Time::ns(kBatch * 1000 / static_cast<std::int64_t>(pending))));
  }
  benchmark::DoNotOptimize(h.sum);
  state.SetItemsProcessed(fired);
}
BENCHMARK(BM_Hold)->Arg(1000)->Arg(65536)->Unit(benchmark::kMillisecond);

// Bare hold loop on a priority queue type Q with push/top/pop: the yardstick.
template <class Q>
void hold_baseline(benchmark::State& state) {
  const auto pending = static_cast<std::uint64_t>(state.range(0));
  RngStream rng{1, 0, "hold"};
  const Distribution delay = Distribution::exponential(1000.0);
  Q q;
  std::uint64_t seq = 0;
  for (std::uint64_t i = 0; i < pending; ++i)
    q.push(Event{Time::ns(static_cast<std::int64_t>(delay.sample(rng))), seq++ << 16, nullptr, i});
  std::uint64_t sum = 0;
  for (auto _ : state) {
    const Event e = q.top();
    q.pop();
    sum += e.arg;
    q.push(Event{e.time + Time::ns(static_cast<std::int64_t>(delay.sample(rng))), seq++ << 16, nullptr, e.arg});
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
struct FiresAfter {
  bool operator()(const Event& a, const Event& b) const { return fires_before(b, a); }
};
using StdQueue = std::priority_queue<Event, std::vector<Event>, FiresAfter>;
void BM_HoldBaselineStdPriorityQueue(benchmark::State& state) { hold_baseline<StdQueue>(state); }
void BM_HoldBaselineEventHeap(benchmark::State& state) { hold_baseline<EventHeap>(state); }
BENCHMARK(BM_HoldBaselineStdPriorityQueue)->Arg(1000)->Arg(65536);
BENCHMARK(BM_HoldBaselineEventHeap)->Arg(1000)->Arg(65536);

void BM_MM1(benchmark::State& state) {
  std::int64_t events = 0;
  std::uint64_t seed = 1;
  for (auto _ : state) {
    OpenQueueSpec spec;
    spec.interarrival_ns = Distribution::exponential(1250.0);
    spec.service_ns = Distribution::exponential(1000.0);
    spec.warmup_customers = 0;
    spec.customers = 200'000;
    spec.seed = seed++;
    events += static_cast<std::int64_t>(run_open_queue(spec).events);
  }
  state.SetItemsProcessed(events);
}
BENCHMARK(BM_MM1)->Unit(benchmark::kMillisecond);

}  // namespace
