// Whole-cluster throughput. items_per_second = simulated I/O completions per wall second.
//  BM_Scenario/seed000: the built-in default scenario (seed 000's 4 NUCs, fio 4k 70/30,
//    8 VMs x 8 VMDKs x 4 outstanding, dedupe and compression) as `hcisim` runs it.
//  BM_Cluster/osa4_raid1, BM_Cluster/esa6_raid6: the clusters of bench_clusters.hpp.
//  BM_OpenLoop/osa4_raid1_saturated: osa4_raid1 with an IOPS limit per VM far past saturation.
//  BM_OpenLoop/deep_overload: a plausible overload of the default scenario, 15 VMs x 64 VMDKs
//    x 1024 outstanding at 1e5 IOPS per VM; simulated_s_per_wall_s is the goal's measure (at
//    least 0.2).
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

// The open loop (iops_limit_per_vm) offered 100x what the cluster completes: items are
// completed I/Os, so the cost per item shows whether offered I/Os cost events (they once did,
// one per offered I/O, plus a scan of every slot per completion).
void BM_OpenLoop(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  WorkloadSpec w = bench::workload(false);
  w.outstanding_per_vmdk = 64;
  w.iops_limit_per_vm = 1e8;
  Engine engine;
  VmWorkload load(engine, w, 1);
  Cluster c(engine, bench::cluster(cat, false), {}, 1, load);
  load.start(c);
  engine.run_for(5_ms);
  const std::uint64_t start = load.completed();
  for (auto _ : state) engine.run_for(2_ms);
  state.SetItemsProcessed(static_cast<std::int64_t>(load.completed() - start));
}
BENCHMARK(BM_OpenLoop)->Name("BM_OpenLoop/osa4_raid1_saturated")->Unit(benchmark::kMillisecond);

void BM_OpenLoop_deep_overload(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  const Scenario s = parse_scenario(default_scenario_yaml(), "default",
                                    {"workload.vms=15", "workload.vmdks_per_vm=64", "workload.outstanding_per_vmdk=1024",
                                     "workload.iops_limit_per_vm=1e5"},
                                    cat);
  Engine engine;
  VmWorkload load(engine, s.workload, s.seed, s.threads_per_vmdk);
  Cluster c(engine, s.cluster, DataProfile{s.workload.compress_pct, s.workload.dedupe_pct}, s.seed, load);
  load.start(c);
  engine.run_for(20_ms);
  const std::uint64_t start = load.completed();
  double simulated = 0;
  for (auto _ : state) {
    engine.run_for(20_ms);
    simulated += 0.02;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(load.completed() - start));
  state.counters["simulated_s_per_wall_s"] = benchmark::Counter(simulated, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OpenLoop_deep_overload)->Name("BM_OpenLoop/deep_overload")->Unit(benchmark::kMillisecond);

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
