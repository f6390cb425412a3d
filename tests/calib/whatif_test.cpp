// What-ifs that the physically grounded model must answer the way measurements do, with the
// committed calibration. VMware reported that a second disk group roughly doubles an OSA
// cluster's performance when host and network are not the limit ("How To Double Your VSAN
// Performance", vSphere blog, 2015-03): on seed 000's cluster, whose limit is in its disk groups
// (one per host: the DRAM-less capacity drive, or the group's LSOM world), a second identical
// disk group must give at least 1.4x.
#include <catch2/catch.hpp>

#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

using namespace hcisim;

TEST_CASE("seed 000's cluster with a second identical disk group per host gives at least 1.4x the IOPS", "[accuracy]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  const std::string file = default_data_dir() + "/../examples/scenarios/seed000-nuc11-osa-optane-fio-4k-70r.yaml";
  // Half a second of warm-up: after a shorter one, placement seed 1 can start the window in
  // a destage episode that holds its busiest group's LSOM world (78.5K IOPS after 0.3 s).
  const std::vector<std::string> run = {"workload.duration_s=1", "workload.warmup_s=0.5"};
  std::vector<std::string> two = run;
  two.push_back("cluster.host.disk_groups=[{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}, "
                "{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]");
  double one_sum = 0, two_sum = 0;
  for (int seed = 1; seed <= 2; ++seed) {
    std::vector<std::string> a = run, b = two;
    a.push_back("seed=" + std::to_string(seed));
    b.push_back("seed=" + std::to_string(seed));
    const RunResult r1 = simulate(load_scenario(file, a, cat));
    const RunResult r2 = simulate(load_scenario(file, b, cat));
    INFO("seed " << seed << ": one group " << r1.result.iops << " IOPS (" << r1.bottleneck << "), two "
                 << r2.result.iops << " (" << r2.bottleneck << ")");
    // The limit the answer rests on is in the disk group: its capacity drive or its LSOM world.
    CHECK((r1.bottleneck.rfind("capacity_device", 0) == 0 || r1.bottleneck.rfind("lsom", 0) == 0));
    one_sum += r1.result.iops;
    two_sum += r2.result.iops;
  }
  CHECK(two_sum / one_sum >= 1.4);
}

TEST_CASE("seed 001's OLTP32K curves have the write-up's shape: a wall on 25 GbE, almost flat on 100 GbE",
          "[accuracy]") {
  // Seed 001 (001_c46c1586d7075b5e.txt [S2]): "that latency ramp-up on the 25 GbE line, it's just
  // like hitting a wall. While it is almost flat on the 100 GbE line"; 350K IOPS at 0.73 ms on
  // 100 GbE; a 78 % higher peak. The shape is what is checked here, not the values: the model's
  // 100 GbE peak gain is larger than measured (docs/accuracy.md, "Out of sample").
  const HardwareCatalog cat = HardwareCatalog::load();
  const std::string dir = default_data_dir() + "/../examples/scenarios/seed001-vxrail-esa-raid6-";
  auto point = [&](const char* speed, int oio) {
    return simulate(load_scenario(dir + speed + "-oltp32k.yaml",
                                  {"workload.duration_s=0.5", "workload.warmup_s=0.2",
                                   "workload.outstanding_per_vmdk=" + std::to_string(oio)},
                                  cat));
  };
  const RunResult low25 = point("25gbe", 1), top25 = point("25gbe", 16), over25 = point("25gbe", 32);
  const RunResult low100 = point("100gbe", 1), mid100 = point("100gbe", 4), high100 = point("100gbe", 8);
  INFO("25 GbE: " << low25.result.iops << " at " << low25.result.pooled_latency_ms << " ms, " << top25.result.iops
                  << " at " << top25.result.pooled_latency_ms << " ms, " << over25.result.iops << " at "
                  << over25.result.pooled_latency_ms << " ms (" << over25.bottleneck << "); 100 GbE: "
                  << low100.result.iops << " at " << low100.result.pooled_latency_ms << " ms, " << mid100.result.iops
                  << " at " << mid100.result.pooled_latency_ms << " ms, " << high100.result.iops << " at "
                  << high100.result.pooled_latency_ms << " ms");
  // 25 GbE: the wall. Doubling outstanding I/O past the knee adds under 10 % IOPS and about
  // doubles latency; the links set it.
  CHECK(over25.result.iops < 1.10 * top25.result.iops);
  CHECK(over25.result.pooled_latency_ms > 1.8 * top25.result.pooled_latency_ms);
  CHECK(over25.bottleneck.rfind("network_port", 0) == 0);
  // 100 GbE: past the write-up's 350K at low load's latency within 25 %.
  CHECK(mid100.result.iops > 350'000);
  CHECK(mid100.result.pooled_latency_ms < 1.25 * low100.result.pooled_latency_ms);
  // The peak gain is at least the measured 78 %.
  CHECK(high100.result.iops > 1.78 * over25.result.iops);
}

TEST_CASE("seed 001's 100 GbE reads stop at the NICs' receive queues: more queues move the limit to the links",
          "[accuracy]") {
  // Each queue's thread takes the network stage's per-KiB TCP cost (0.38 us per KiB on these
  // hosts at their sustained 2.6 GHz): about 2.7 GB/s per queue, so four hold a host's receive
  // near 10.6 GB/s where the 100 GbE link carries 11.8. One queue is a quarter of four; eight
  // reach the links (10 % more at least); RDMA and rx_queues 0 have none.
  const HardwareCatalog cat = HardwareCatalog::load();
  const std::string file = default_data_dir() + "/../examples/scenarios/seed001-vxrail-esa-raid6-100gbe-512k-read.yaml";
  auto run = [&](const std::string& set) {
    std::vector<std::string> sets = {"workload.duration_s=0.3", "workload.warmup_s=0.1"};
    if (!set.empty()) sets.push_back(set);
    return simulate(load_scenario(file, sets, cat));
  };
  const RunResult four = run(""), one = run("cluster.host.network.rx_queues=1"),
                  eight = run("cluster.host.network.rx_queues=8"), none = run("cluster.host.network.rx_queues=0"),
                  rdma = run("cluster.host.network.transport=rdma");
  INFO("4 queues " << four.result.throughput_mbps << " MB/s (" << four.bottleneck << "), 1: " << one.result.throughput_mbps
                   << ", 8: " << eight.result.throughput_mbps << " (" << eight.bottleneck << "), 0: "
                   << none.result.throughput_mbps << ", RDMA: " << rdma.result.throughput_mbps);
  CHECK(four.bottleneck.rfind("rx_queue", 0) == 0);
  REQUIRE(four.resource("rx_queue") != nullptr);
  CHECK(four.resource("rx_queue")->max > 0.95);
  CHECK(one.result.throughput_mbps == Approx(four.result.throughput_mbps / 4).epsilon(0.15));
  CHECK(eight.bottleneck.rfind("network_port", 0) == 0);
  CHECK(eight.result.throughput_mbps > 1.3 * four.result.throughput_mbps);
  // Eight queues leave the links as the limit: within 5 % of no queues at all.
  CHECK(eight.result.throughput_mbps == Approx(none.result.throughput_mbps).epsilon(0.05));
  CHECK(none.resource("rx_queue") == nullptr);
  CHECK(rdma.resource("rx_queue") == nullptr);
  CHECK(none.bottleneck.rfind("network_port", 0) == 0);
}
