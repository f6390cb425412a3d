// Capacity accounting (capacity.hpp).
#include "hcisim/storage/capacity.hpp"

#include <algorithm>

#include "hcisim/core/check.hpp"

namespace hcisim {

void CapacityOptions::validate() const {
  if (!(format_overhead >= 0 && format_overhead < 0.5)) check::fail("capacity format_overhead", format_overhead, "0..0.5");
  if (!(dedupe_metadata >= 0 && dedupe_metadata < 0.5)) check::fail("capacity dedupe_metadata", dedupe_metadata, "0..0.5");
  if (!(slack_fraction >= 0 && slack_fraction < 1)) check::fail("capacity slack_fraction", slack_fraction, "0..1");
  if (!(largest_object_gb >= 0 && largest_object_gb < 1e9))
    check::fail("capacity largest_object_gb", largest_object_gb, "0..1e9 GB");
}

double host_raw_gb(const HostSpec& h, Architecture architecture, const CapacityOptions& options) {
  double gb = 0;
  if (architecture == Architecture::osa) {
    for (const auto& dg : h.disk_groups)
      for (const auto& d : dg.capacity) gb += d.device.capacity_gb;
  } else {
    for (const auto& d : h.pool) gb += d.device.capacity_gb;
  }
  return gb * (1.0 - options.format_overhead);
}

CapacityReport capacity(const ClusterSpec& cluster, const DataProfile& data, const CapacityOptions& options) {
  cluster.validate();
  options.validate();
  CapacityReport r;
  double largest_host = 0;
  for (std::size_t i = 0; i < cluster.hosts.size(); ++i) {
    // A failed host's devices leave the capacity line.
    if (std::find(cluster.failed_hosts.begin(), cluster.failed_hosts.end(), static_cast<int>(i)) !=
        cluster.failed_hosts.end())
      continue;
    const double host_gb = host_raw_gb(cluster.hosts[i], cluster.architecture, options);
    r.raw_gb += host_gb;
    largest_host = std::max(largest_host, host_gb);
    ++r.hosts_counted;
  }
  const bool osa = cluster.architecture == Architecture::osa;
  if (osa && (cluster.services.dedupe || cluster.services.compression)) r.metadata_gb = options.dedupe_metadata * r.raw_gb;
  const Layout layout = cluster.layout();
  // Rebuilding a lost host's components needs a spare host beyond the policy's minimum
  // ([S46]; host rebuild reserve [S60]); without one (2-node, 3 hosts at FTT 1, 6 at
  // RAID-6, a single host) there is nothing to reserve for.
  const bool spare_host = r.hosts_counted > layout.min_hosts;
  if (cluster.capacity_reserve == CapacityReserve::reserved) {
    const double per_host = options.largest_object_gb >= 8000 ? 765 : 255;
    r.operations_reserve_gb = per_host * r.hosts_counted + 0.05 * r.raw_gb;
    r.host_rebuild_reserve_gb = spare_host ? largest_host : 0.0;
    r.slack_gb = std::min(r.raw_gb, r.operations_reserve_gb + r.host_rebuild_reserve_gb);
    r.reserve_name = "reserved capacity";
    r.slack_rule = spare_host ? "reserved: operations reserve + host rebuild reserve"
                              : "reserved: operations reserve (no spare host to rebuild on)";
    if (r.operations_reserve_gb + r.host_rebuild_reserve_gb > r.raw_gb) r.slack_rule += ", capped at raw";
  } else {
    const double by_fraction = options.slack_fraction * r.raw_gb;
    const double by_host = options.host_rebuild_reserve && spare_host ? largest_host + 0.05 * r.raw_gb : 0.0;
    r.slack_gb = std::min(r.raw_gb, std::max(by_fraction, by_host));
    r.slack_rule = by_host > by_fraction ? "host rebuild reserve (largest host + 5 % operations reserve)"
                                         : std::to_string(static_cast<int>(options.slack_fraction * 100 + 0.5)) +
                                               " % of raw";
  }
  r.policy_factor = layout.capacity_factor();
  r.lfs_factor = osa ? 1.0 : 1.0 + cluster.esa.lfs_overhead;
  r.reduction_ratio =
      cluster.services.planned_reduction_ratio > 0
          ? cluster.services.planned_reduction_ratio
          : reduction_ratios(data, cluster.architecture, cluster.services.compression, cluster.services.dedupe).total();
  r.usable_gb = std::max(0.0, r.raw_gb - r.metadata_gb - r.slack_gb) * r.reduction_ratio / (r.policy_factor * r.lfs_factor);
  return r;
}

}  // namespace hcisim
