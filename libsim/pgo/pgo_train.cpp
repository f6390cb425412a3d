// Training run of the profile-guided build (cmake/HcisimPgo.cmake): runs an instrumented
// copy of the library on a few scenarios so that GCC learns which branches and calls are
// hot. The mix covers the paths a capacity planner's runs take: the built-in default (OSA
// RAID-1, dedupe and compression, 10 GbE switch), the same without data services on 25 GbE,
// an ESA RAID-6 cluster on 25 GbE, a 2-node OSA cluster with a witness, large sequential
// writes and RAID-5 read-modify-write.
// Short runs: the profile needs representative counts, not converged statistics.
#include <cstdio>
#include <string>
#include <vector>

#include "hcisim/model/model.hpp"
#include "hcisim/scenario/simulation.hpp"

using namespace hcisim;

namespace {

void report(const std::string& what, const RunResult& r) {
  std::printf("pgo training: %-58s %10.0f IOPS\n", what.c_str(), r.result.iops);
}

std::vector<std::string> short_run(std::vector<std::string> overrides) {
  overrides.push_back("workload.duration_s=0.3");
  overrides.push_back("workload.warmup_s=0.1");
  return overrides;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hcisim_pgo_train SOURCE_DIR\n");
    return 2;
  }
  try {
    const HardwareCatalog catalog = HardwareCatalog::load();
    const std::string examples = std::string(argv[1]) + "/examples/scenarios/";
    report("default", simulate(parse_scenario(default_scenario_yaml(), "default", short_run({}), catalog)));
    report("default, 25 GbE, no data services",
           simulate(parse_scenario(default_scenario_yaml(), "default", short_run({"cluster.host.network.speed_gbe=25",
                                   "data_services.dedupe=false", "data_services.compression=false"}), catalog)));
    for (const char* name : {"seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml", "seed003-2node-osa-optane905p-100gbe-easyrun-4k-70r.yaml",
                             "seed000-nuc11-osa-optane-fio-256k-seqwrite.yaml"})
      report(name, simulate(load_scenario(examples + name, short_run({}), catalog)));
    const char* raid5 = "seed004-r730xd-osa-sas-cache-vdbench-4k-70r.yaml";
    report(std::string(raid5) + ", RAID-5",
           simulate(load_scenario(examples + raid5, short_run({"policy.raid=raid5", "workload.vms=12"}), catalog)));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hcisim_pgo_train: %s\n", e.what());
    return 1;
  }
  return 0;
}
