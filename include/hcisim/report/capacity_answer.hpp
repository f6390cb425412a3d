// The capacity line of a scenario, answered without simulating: the
// scenario's reserve rule and the other one beside it, as text and as JSON.
#pragma once

#include <optional>
#include <string>

#include "hcisim/report/cost.hpp"
#include "hcisim/storage/capacity.hpp"

namespace hcisim {

struct CapacityAnswer {
  std::string scenario;
  std::string architecture;            // "OSA" or "ESA"
  std::string layout;                  // e.g. "RAID-1 (FTT 1)"
  std::string rule;                    // "slack" or "reserved": the scenario's
  CapacityReport report;
  std::string other_rule;              // the other rule, when the cluster allows it
  std::optional<CapacityReport> other; // (a 2-node cluster has only slack)
  bool planned_reduction = false;      // the ratio is the planner's, not the workload data's
  ClusterCost cost;                    // of every host; per usable TB under the scenario's rule
};

/// A table of raw, metadata, reserve (with its parts), raw per VM byte, reduction, usable.
std::string format_capacity(const CapacityAnswer& a);
/// The same as one JSON object (keys in docs/reference.md).
std::string to_json(const CapacityAnswer& a);

}  // namespace hcisim
