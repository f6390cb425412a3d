// Capacity accounting ([S18] [S44] [S46] [S52] [S59] [S60] [S61] [S62]):
//   raw        = sum of capacity devices of the hosts that are up (OSA: cache devices
//                excluded; ESA: every pool device) minus the on-disk format overhead;
//   OSA        : dedupe/compression metadata ~5 % of raw when those services are on;
//   reserve    = ClusterSpec::capacity_reserve:
//     slack    (vSAN 7.0 and earlier) max(slack_fraction x raw, host rebuild reserve = the
//              largest host's raw capacity + 5 %), or just the fraction without a spare host;
//     reserved (vSAN 7 U1+ and ESA, "Reserved Capacity") operations reserve + host rebuild
//              reserve: the operations reserve is the space a policy change of the largest
//              object needs, 255 GB per host for objects under 8 TB and 765 GB per host from
//              8 TB (vSAN 8.0 administration guide, "operations space"), plus the 5 % of
//              capacity vSAN adds as a buffer when the reserve is on (vSAN monitoring guide,
//              "Reserved capacity"); the host rebuild reserve is the largest host's raw
//              capacity, when there is a host to rebuild on. Not offered on 2-node clusters
//              (VMware, "Understanding Reserved Capacity Concepts in vSAN", 2022-02).
//   usable     = (raw - metadata - reserve) x reduction ratio / policy factor, and on ESA
//                divided again by 1 + the log-structured overhead (13.1 %); the reduction
//                ratio is the planner's (DataServices::planned_reduction_ratio) when given,
//                else what compression and dedupe make of the workload's data.
// "Usable" is the VM data that fits while keeping the reserve free.
#pragma once

#include <string>

#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/storage/data_reduction.hpp"

namespace hcisim {

struct CapacityOptions {
  double format_overhead = 0.01;       // on-disk format share of raw (UNCONFIRMED, ~1 %)
  double dedupe_metadata = 0.05;       // OSA dedupe/compression metadata share of raw [S18]
  double slack_fraction = 0.30;        // free space kept for rebuilds and policy changes (25-30 %)
  bool host_rebuild_reserve = true;    // also reserve the largest host (+5 %), vSAN 7.x, when the
                                       // cluster has a host beyond the policy's minimum
  double largest_object_gb = 0;        // the largest object (a VMDK): sets the operations reserve
  void validate() const;
};

struct CapacityReport {
  double raw_gb = 0;                   // device capacity after format overhead (decimal GB)
  double metadata_gb = 0;              // OSA dedupe/compression metadata
  // The whole reserve, whichever rule (named slack_* from vSAN 7.0's rule; reports call it
  // by the rule in force, reserve_name, and their JSON gives it as reserve_gb and
  // reserve_rule, with slack_gb and slack_rule kept as aliases for a release).
  double slack_gb = 0;
  std::string slack_rule;              // how the rule set it
  std::string reserve_name = "slack";  // the rule in force: "slack" or "reserved capacity"
  double operations_reserve_gb = 0;    // reserved: its two parts (0 under slack)
  double host_rebuild_reserve_gb = 0;
  int hosts_counted = 0;               // hosts that are up
  double policy_factor = 1;            // raw bytes per VM byte (layout)
  double lfs_factor = 1;               // ESA: 1 + lfs_overhead
  double reduction_ratio = 1;          // compression x dedupe
  double usable_gb = 0;                // VM data that fits with the slack kept free
};

CapacityReport capacity(const ClusterSpec& cluster, const DataProfile& data, const CapacityOptions& options = {});

/// One host's raw capacity (decimal GB): its capacity devices (OSA) or pool (ESA), after the
/// format overhead, as `capacity` counts each host that is up.
double host_raw_gb(const HostSpec& host, Architecture architecture, const CapacityOptions& options = {});

}  // namespace hcisim
