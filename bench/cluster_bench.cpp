// Whole-cluster throughput. items_per_second = simulated I/O completions per wall second.
//  BM_Scenario/seed000: the built-in default scenario (seed 000's 4 NUCs, fio 4k 70/30,
//    8 VMs x 8 VMDKs x 4 outstanding, dedupe and compression) as `hcisim` runs it.
// 4K random 70 % read / 30 % write, closed loop, 2 VMs x 4 VMDKs x 4 outstanding per host:
//  BM_Cluster/osa4_raid1: 4 OSA hosts, one disk group each (Optane P4800X 375 GB cache,
//    Intel P4500 2 TB capacity), RAID-1 FTT 1, 25 GbE.
//  BM_Cluster/esa6_raid6: 6 ESA hosts, 4 x Samsung PM1733 3.84 TB each, RAID-6 4+2, 25 GbE.
#include <benchmark/benchmark.h>

#include <string>

#include "hcisim/hcisim.hpp"
#include "hcisim/storage/cluster.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/workload/vm_workload.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

ClusterSpec cluster(const HardwareCatalog& cat, bool esa) {
  ClusterSpec c;
  c.architecture = esa ? Architecture::esa : Architecture::osa;
  const int hosts = esa ? 6 : 4;
  for (int h = 0; h < hosts; ++h) {
    HostSpec host;
    host.name = "esx" + std::to_string(h);
    host.cpu = cat.cpu("intel-xeon-gold-6248r");
    host.cpu.sockets = 2;
    if (esa) {
      for (int d = 0; d < 4; ++d) host.pool.push_back({cat.device("samsung-pm1733-3.84tb"), cat.connection("nvme-direct")});
    } else {
      DiskGroupSpec dg;
      dg.cache = {cat.device("optane-p4800x-375gb"), cat.connection("nvme-direct")};
      dg.capacity.push_back({cat.device("intel-p4500-2tb"), cat.connection("nvme-direct")});
      host.disk_groups.push_back(dg);
    }
    c.hosts.push_back(host);
  }
  c.fabric.nic = cat.nic("broadcom-57414-25g");
  c.fabric.leaf = cat.network_switch("dell-s5248f-on");
  c.policy = esa ? StoragePolicy{RaidLevel::raid6, 2} : StoragePolicy{RaidLevel::raid1, 1};
  return c;
}

void BM_Cluster(benchmark::State& state, bool esa) {
  const HardwareCatalog cat = HardwareCatalog::load();
  Engine engine;
  WorkloadSpec w;
  w.vms = 2 * (esa ? 6 : 4);
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 4;
  VmWorkload loop(engine, w, 1);
  Cluster c(engine, cluster(cat, esa), {}, 1, loop);
  loop.start(c);
  engine.run_for(10_ms);
  const std::uint64_t start = loop.completed();
  for (auto _ : state) engine.run_for(5_ms);
  state.SetItemsProcessed(static_cast<std::int64_t>(loop.completed() - start));
  state.counters["events_per_io"] =
      static_cast<double>(engine.events_fired()) / static_cast<double>(std::max<std::uint64_t>(1, loop.completed()));
  state.counters["state_slots"] = static_cast<double>(c.state_slots());
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
