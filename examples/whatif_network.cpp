// What-if in a few lines: seed 000's cluster at 10, 25 and 100 GbE.
#include <cstdio>

#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

int main() {
  const auto catalog = hcisim::HardwareCatalog::load();
  for (const char* gbe : {"10", "25", "100"}) {
    const auto scenario = hcisim::parse_scenario(hcisim::default_scenario_yaml(), "default",
                                                 {std::string("cluster.host.network.speed_gbe=") + gbe}, catalog);
    const hcisim::RunResult r = hcisim::simulate(scenario);
    std::printf("%3s GbE: %9.0f IOPS, read %.3f ms, write %.3f ms, bottleneck %s\n", gbe, r.result.iops,
                r.result.read_latency_ms, r.result.write_latency_ms, r.bottleneck.c_str());
  }
}
