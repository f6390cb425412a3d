// Runs a scenario: builds the cluster and the VMs, runs the warm-up, cuts the statistics,
// runs the measured duration and fills a RunResult (report/run_result.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hcisim/report/run_result.hpp"
#include "hcisim/scenario/scenario.hpp"

namespace hcisim {

/// Where a run is: called about 250 times per run.
struct RunProgress {
  double fraction = 0;      // of planned_s done (0..1)
  double simulated_s = 0;   // simulated so far
  double planned_s = 0;     // warm-up + duration; with duration_s: auto, warm-up + auto_max_s
  bool planned_is_bound = false;   // duration_s: auto: the run may stop well before planned_s
  double wall_s = 0;        // wall time so far
  /// Wall seconds the whole planned run takes at the rate so far (0 before any progress).
  double estimated_wall_s() const { return simulated_s > 0 ? wall_s * planned_s / simulated_s : 0; }
};
using ProgressFn = std::function<void(const RunProgress&)>;

/// A wall time estimate worth saying on stderr (run's and knee's): a shorter wait is not.
inline constexpr double kEstimateWorthSayingS = 10;

/// Runs the scenario. A run whose model stalled (check_progress) throws std::runtime_error
/// instead of returning a result.
RunResult simulate(const Scenario& scenario, const ProgressFn& progress = {});

class VmWorkload;
/// Throws std::runtime_error naming the VM and VMDK when a guest I/O has been in flight at
/// `now` for more than 10 simulated seconds and more than 100 times the mean latency of the
/// I/Os that completed: a stalled model, not a result.
void check_progress(const VmWorkload& load, Time now);

}  // namespace hcisim
