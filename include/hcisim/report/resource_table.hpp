// HCIBench's "Resource Utilization" table (seed 000_9809ee29a465ffea.txt shows one): one row
// per host with cpu.usage%, cpu.utilization% and mem.usage%, then an Average row.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "hcisim/hw/cpu_spec.hpp"

namespace hcisim {

struct HostResourceRow {
  std::string host;
  double cpu_usage_pct = 0;         // HostCpu::usage_pct()
  double cpu_utilization_pct = 0;   // HostCpu::utilization_pct()
  double mem_usage_pct = -1;        // < 0: not modelled, printed as "-"
  double client_cache_mb = 0;       // the DOM client cache (ClusterSpec::client_cache_mb_of)
  /// Where the CPU went: core-seconds per second of each stage (CpuStage order) charged in
  /// the measured window, at a thread's full speed (HostCpu::stage_time), LSOM worlds included.
  std::array<double, kCpuStages> stage_cores{};
};

/// The table as fixed-width text, figures with two decimals, ending in an Average row.
std::string format_resource_table(const std::vector<HostResourceRow>& rows);

}  // namespace hcisim
