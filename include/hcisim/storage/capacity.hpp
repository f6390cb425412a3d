// Capacity accounting ("Capacity formulas" of vsan-model-facts.md, sections 1-3 and 7):
//   raw        = sum of capacity devices (OSA: cache devices excluded; ESA: every pool device)
//                minus the on-disk format overhead;
//   OSA        : dedupe/compression metadata ~5 % of raw when those services are on;
//   slack      = max(slack_fraction x raw, host rebuild reserve = the largest host's raw
//                capacity + the 5 % operations buffer), or just the fraction when the
//                rebuild reserve is off;
//   usable     = (raw - metadata - slack) x reduction ratio / policy factor, and on ESA
//                divided again by 1 + the log-structured overhead (13.1 %).
// "Usable" is the VM data that fits while keeping the slack free.
#pragma once

#include <string>

#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/storage/data_reduction.hpp"

namespace hcisim {

struct CapacityOptions {
  double format_overhead = 0.01;       // on-disk format share of raw (UNCONFIRMED, ~1 %)
  double dedupe_metadata = 0.05;       // OSA dedupe/compression metadata share of raw [14]
  double slack_fraction = 0.30;        // free space kept for rebuilds and policy changes (25-30 %)
  bool host_rebuild_reserve = true;    // also reserve the largest host (+5 %), vSAN 7.x, when the
                                       // cluster has a host beyond the policy's minimum
  void validate() const;
};

struct CapacityReport {
  double raw_gb = 0;                   // device capacity after format overhead (decimal GB)
  double metadata_gb = 0;              // OSA dedupe/compression metadata
  double slack_gb = 0;
  std::string slack_rule;              // which rule set the slack
  double policy_factor = 1;            // raw bytes per VM byte (layout)
  double lfs_factor = 1;               // ESA: 1 + lfs_overhead
  double reduction_ratio = 1;          // compression x dedupe
  double usable_gb = 0;                // VM data that fits with the slack kept free
};

CapacityReport capacity(const ClusterSpec& cluster, const DataProfile& data, const CapacityOptions& options = {});

}  // namespace hcisim
