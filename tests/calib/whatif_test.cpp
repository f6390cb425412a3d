// What-ifs that the physically grounded model must answer the way measurements do, with the
// committed calibration. VMware reported that a second disk group roughly doubles an OSA
// cluster's performance when host and network are not the limit ("How To Double Your VSAN
// Performance", vSphere blog, 2015-03): on seed 000's cluster, whose limit is its DRAM-less
// capacity drives (one per host), a second identical disk group must give at least 1.4x.
#include <catch2/catch.hpp>

#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

using namespace hcisim;

TEST_CASE("seed 000's cluster with a second identical disk group per host gives at least 1.4x the IOPS", "[accuracy]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  const std::string file = default_data_dir() + "/../examples/scenarios/seed000-nuc11-osa-optane-fio-4k-70r.yaml";
  const std::vector<std::string> run = {"workload.duration_s=1", "workload.warmup_s=0.3"};
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
    CHECK(r1.bottleneck.rfind("capacity_device", 0) == 0);   // the limit the answer rests on
    one_sum += r1.result.iops;
    two_sum += r2.result.iops;
  }
  CHECK(two_sum / one_sum >= 1.4);
}
