// Runs a scenario: builds the cluster and the VMs, runs the warm-up, cuts the statistics,
// runs the measured duration and fills a RunResult (report/run_result.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hcisim/report/run_result.hpp"
#include "hcisim/scenario/scenario.hpp"

namespace hcisim {

/// Called with the fraction of simulated time done (0..1), about 100 times per run.
using ProgressFn = std::function<void(double)>;

/// Runs the scenario. A run whose model stalled (check_progress) throws std::runtime_error
/// instead of returning a result.
RunResult simulate(const Scenario& scenario, const ProgressFn& progress = {});

class VmWorkload;
/// Throws std::runtime_error naming the VM and VMDK when a guest I/O has been in flight at
/// `now` for more than 10 simulated seconds and more than 100 times the mean latency of the
/// I/Os that completed: a stalled model, not a result (issue 21, item 3).
void check_progress(const VmWorkload& load, Time now);

}  // namespace hcisim
