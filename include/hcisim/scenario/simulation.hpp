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

RunResult simulate(const Scenario& scenario, const ProgressFn& progress = {});

}  // namespace hcisim
