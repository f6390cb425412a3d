// Two designs side by side: each scenario simulated (in parallel), with the deltas a planner
// reads (IOPS, throughput, latency and where it changed, capacity, shared workload groups,
// cost, run-to-run noise, bottlenecks).
#pragma once

#include <string>

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

}  // namespace hcisim
