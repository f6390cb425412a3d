// A what-if with its noise: seed 000's cluster with one and with two disk groups per host,
// each run on five placements (seeds 1-5), compared by the 95 % intervals of their means.
#include <cstdio>

#include "hcisim/hcisim.hpp"

int main() {
  using namespace hcisim;
  const HardwareCatalog catalog = HardwareCatalog::load();
  const std::vector<std::string> shorter = {"workload.duration_s=1", "workload.warmup_s=0.3"};
  std::vector<std::string> two_groups = shorter;
  two_groups.push_back("cluster.host.disk_groups=[{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}, "
                       "{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]");
  const Scenario a = parse_scenario(default_scenario_yaml(), "one disk group", shorter, catalog);
  const Scenario b = parse_scenario(default_scenario_yaml(), "two disk groups", two_groups, catalog);
  const Replicated ra = replicate(a, 5, Vary::placement), rb = replicate(b, 5, Vary::placement);
  auto line = [](const char* name, const Replicated& r) {
    std::printf("%-16s %9.0f IOPS +- %6.0f (95 %%, %d seeds)\n", name, r.mean_iops.mean, r.mean_iops.half_width,
                r.mean_iops.batches);
  };
  line("one disk group", ra);
  line("two disk groups", rb);
  const double gain = rb.mean_iops.mean / ra.mean_iops.mean;
  const bool apart = rb.mean_iops.mean - rb.mean_iops.half_width > ra.mean_iops.mean + ra.mean_iops.half_width;
  std::printf("gain %.2fx; the intervals %s\n", gain, apart ? "do not overlap" : "overlap: run more seeds");
}
