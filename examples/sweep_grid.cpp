// A grid in the library: seed 000's cluster over read share x outstanding I/O per VMDK, all
// points on every core, one row kept per point.
#include <cstdio>

#include "hcisim/hcisim.hpp"

int main() {
  using namespace hcisim;
  const HardwareCatalog catalog = HardwareCatalog::load();
  const std::vector<SweepAxis> axes = {{"workload.read_pct", {"0", "70", "100"}},
                                       {"workload.outstanding_per_vmdk", {"1", "4", "16"}}};
  const std::vector<SweepPoint> points =
      sweep_points(default_scenario_yaml(), "<built-in default>",
                   {"workload.duration_s=1", "workload.warmup_s=0.3"}, axes, catalog);
  const std::vector<SweepRow> rows = run_sweep(points);
  std::printf("%-12s %-28s %10s %10s  %s\n", "read_pct", "outstanding_per_vmdk", "IOPS", "mean ms", "bottleneck");
  auto value = [](const std::string& setting) { return setting.substr(setting.find('=') + 1); };
  for (const SweepRow& row : rows)
    std::printf("%-12s %-28s %10.0f %10.3f  %s\n", value(row.settings[0]).c_str(), value(row.settings[1]).c_str(),
                row.result.iops, row.result.pooled_latency_ms, row.bottleneck.c_str());
}
