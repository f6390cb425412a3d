// Umbrella header: the planner's API. A scenario (from YAML or built in C++) is simulated once
// (simulate, RunResult), several times (the runner), against another (compare), or asked a
// planning question: the knee of its latency curve, the cheapest design for a demand (size),
// a range for an answer, the analytic curve, capacity and cost, and how the model scores
// against measured clusters (accuracy). It pulls in no simulator internals: the engine, the
// hardware and storage models live under hcisim/model/, an unstable API for model work.
#pragma once

#include "hcisim/calib/accuracy.hpp"
#include "hcisim/calib/calibration.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/plan/analytic.hpp"
#include "hcisim/plan/answer_range.hpp"
#include "hcisim/plan/compare.hpp"
#include "hcisim/plan/knee.hpp"
#include "hcisim/plan/sensitivity.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/report/capacity_answer.hpp"
#include "hcisim/report/cost.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/report/run_result.hpp"
#include "hcisim/report/svg_chart.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/runner.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "hcisim/storage/capacity.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/version.hpp"
#include "hcisim/workload/workload_spec.hpp"
