// Two designs side by side: each scenario simulated (in parallel), with the deltas a planner
// reads (IOPS, throughput, latency and where it changed, capacity, shared workload groups,
// cost, run-to-run noise, bottlenecks), each at the load its file configures; or each
// design's knee under one latency target (knee.hpp), with the cost per extra IOPS taken there;
// or how B - A's IOPS moves with each assumption (sensitivity.hpp).
#pragma once

#include <string>

#include "hcisim/plan/knee.hpp"
#include "hcisim/plan/sensitivity.hpp"
#include "hcisim/report/run_result.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

struct Comparison {
  std::string name_a, name_b;   // the scenarios' names
  RunResult a, b;
};

/// Simulates `a` and `b`, two at a time (`progress`, if given, is called from both runs'
/// threads). A bad input is reported as InvalidArgument whose message starts with `label_a`
/// or `label_b` (e.g. the scenario files' paths).
Comparison compare(const Scenario& a, const Scenario& b, const std::string& label_a = "A",
                   const std::string& label_b = "B", const ProgressFn& progress = {});

/// The comparison as a text table: A, B, B - A and the change in per cent per row, then the
/// runs' 95 % intervals, their bottlenecks and warnings.
std::string format_comparison(const Comparison& c);
/// {"a": <A's report>, "b": <B's report>}, each as to_json(RunResult) gives it.
std::string to_json(const Comparison& c);
/// A CSV of both runs: a side column ("a", "b") before csv_header()'s columns.
std::string comparison_csv(const Comparison& c);

/// The load two runs' deltas were taken at, e.g. "measured at each file's closed loop: 8 VMs x
/// 8 VMDKs x 4 outstanding" (one closed-loop workload each: VMs x VMDKs per VM x outstanding
/// I/O per VMDK), else each side's workload as the scenario describes it.
std::string measured_at(const RunResult& a, const RunResult& b);

/// What B's extra cost buys per extra IOPS, (B's priced cost - A's) / (B's IOPS - A's), or NaN
/// when the IOPS are the same or the two lack different prices (the unpriced parts must be the
/// same on both sides to cancel).
double cost_per_extra_iops(const ClusterCost& a, double iops_a, const ClusterCost& b, double iops_b);

/// Two designs' knees under one target: find_knee on each, one after the other.
struct KneeComparison {
  std::string name_a, name_b;
  KneeTarget target;
  KneeResult a, b;
};
/// A bad input is reported as InvalidArgument whose message starts with `label_a` or `label_b`.
KneeComparison compare_knees(const Scenario& a, const Scenario& b, const KneeTarget& target,
                             const KneeOptions& options = {}, const std::string& label_a = "A",
                             const std::string& label_b = "B");
/// The knees side by side (IOPS, latency there, closed loops), cost per extra IOPS at the knees,
/// bottlenecks there, and a note for a side whose outstanding I/O, not the cluster, sets its knee.
std::string format_comparison(const KneeComparison& c);
/// {"stat", "limit_ms", "measured_at", "a": <knee JSON>, "b": <knee JSON>, "knee_iops_delta",
/// "cost_per_extra_iops_usd"}.
std::string to_json(const KneeComparison& c);

/// The sensitivity of B - A's IOPS: the assumptions of both scenarios (comparison_assumptions),
/// each moved on the sides it applies to (a side's file keeps the keys it states; a parameter
/// that does not act on a side leaves it as it is), both on their own seeds; answers
/// iops_b_minus_a (the headline), iops_a and iops_b, the bottleneck "A: ...; B: ...". `read_a`
/// and `read_b` read each file again (sensitivity.hpp); skipped: what applies to neither side.
Sensitivity compare_sensitivity(const Scenario& a, const Scenario& b, const SensitivityReader& read_a,
                                const SensitivityReader& read_b, const HardwareCatalog& catalog,
                                const SensitivityOptions& options = {});

}  // namespace hcisim
