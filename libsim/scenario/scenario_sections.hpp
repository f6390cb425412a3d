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

/// The warning for a CPU clock above its catalog one-core turbo, or "" if it is not: `key`
/// names the clock, `catalog_ghz` (> 0) adds the catalog's sustained all-core clock. Said by
/// the file reader at the key's line and by make_scenario of the specs.
std::string clock_above_turbo_note(const std::string& key, const CpuSpec& cpu, double catalog_ghz = 0);

/// workload: one workload, or groups that run at once on `cluster`.
void read_workload(const YamlReader& w, const ClusterSpec& cluster, Scenario& s, std::vector<std::string>& notes);

}  // namespace hcisim::detail
