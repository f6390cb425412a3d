// The scenario file's two big sections, read by their own files: `cluster:`
// (scenario_cluster_yaml.cpp) and `workload:` (scenario_workload_yaml.cpp). The schema is in
// scenario_yaml.cpp's header comment. Private to libsim.
#pragma once

#include <string>
#include <vector>

#include "hcisim/scenario/scenario.hpp"
#include "yaml_reader.hpp"

namespace hcisim::detail {

/// cluster: hosts, their CPU, network and drives, the OSA/ESA settings. Notes (warnings)
/// for the scenario go to `notes`; every error names the file, line and key.
void read_cluster(const YamlReader& c, const HardwareCatalog& cat, ClusterSpec& out, std::vector<std::string>& notes);

/// workload: one workload, or groups that run at once on `cluster`.
void read_workload(const YamlReader& w, const ClusterSpec& cluster, Scenario& s, std::vector<std::string>& notes);

}  // namespace hcisim::detail
