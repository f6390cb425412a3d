// Whole-cluster throughput. items_per_second = simulated I/O completions per wall second.
//  BM_Scenario/seed000: the built-in default scenario (seed 000's 4 NUCs, fio 4k 70/30,
//    8 VMs x 8 VMDKs x 4 outstanding, dedupe and compression) as `hcisim` runs it.
//  BM_Cluster/osa4_raid1, BM_Cluster/esa6_raid6: the clusters of bench_clusters.hpp.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "bench_clusters.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

void BM_Cluster(benchmark::State& state, bool esa) {
  const HardwareCatalog cat = HardwareCatalog::load();
  bench::Rig rig(cat, esa);
  const std::uint64_t start = rig.loop.completed();
  for (auto _ : state) rig.engine.run_for(5_ms);
  state.SetItemsProcessed(static_cast<std::int64_t>(rig.loop.completed() - start));
  state.counters["events_per_io"] = static_cast<double>(rig.engine.events_fired()) /
                                    static_cast<double>(std::max<std::uint64_t>(1, rig.loop.completed()));
  state.counters["state_slots"] = static_cast<double>(rig.cluster.state_slots());
}
BENCHMARK_CAPTURE(BM_Cluster, osa4_raid1, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Cluster, esa6_raid6, true)->Unit(benchmark::kMillisecond);

void BM_Scenario_seed000(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  const Scenario s = parse_scenario(default_scenario_yaml(), "default", {}, cat);
  Engine engine;
  VmWorkload load(engine, s.workload, s.seed, s.threads_per_vmdk);
  Cluster c(engine, s.cluster, DataProfile{s.workload.compress_pct, s.workload.dedupe_pct}, s.seed, load);
  load.start(c);
  engine.run_for(10_ms);
  const std::uint64_t start = load.completed();
  for (auto _ : state) engine.run_for(5_ms);
  state.SetItemsProcessed(static_cast<std::int64_t>(load.completed() - start));
}
BENCHMARK(BM_Scenario_seed000)->Name("BM_Scenario/seed000")->Unit(benchmark::kMillisecond);

}  // namespace
