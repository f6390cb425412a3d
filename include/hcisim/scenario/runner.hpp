// Many runs, in the library: a thread-parallel runner, grids over one or
// more scenario keys, and replications of one scenario. Runs share nothing (each has its own
// engine and random streams), so results do not depend on the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/core/confidence_interval.hpp"
#include "hcisim/report/run_result.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

/// Runs every scenario on `jobs` threads (0: one per hardware thread), results in input
/// order. When runs fail, every run still finishes and the first failure is rethrown.
std::vector<RunResult> run_all(const std::vector<Scenario>& scenarios, int jobs = 0);

/// One key of a grid and the values it takes (as `--set key=value` would give them).
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

/// Every combination of the axes' values, the last axis varying fastest: for each, the
/// "key=value" settings and the scenario `yaml` (named `source`) gives with `overrides` and
/// then those settings. All points are read before any runs, so bad input fails first; an
/// error names the point's settings.
struct SweepPoint {
  std::vector<std::string> settings;
  Scenario scenario;
};
std::vector<SweepPoint> sweep_points(const std::string& yaml, const std::string& source,
                                     const std::vector<std::string>& overrides, const std::vector<SweepAxis>& axes,
                                     const HardwareCatalog& catalog);
/// The same with any way of reading a scenario given its "key=value" settings (a file:
/// load_scenario with the user's overrides first).
using ScenarioLoader = std::function<Scenario(const std::vector<std::string>& settings)>;
std::vector<SweepPoint> sweep_points(const ScenarioLoader& load, const std::vector<SweepAxis>& axes);
/// The points' "key=value" settings alone, in the same order (for a caller that reads each
/// point when it runs it); the axes are checked as sweep_points checks them.
std::vector<std::vector<std::string>> sweep_settings(const std::vector<SweepAxis>& axes);
/// A point's overrides: the user's `sets`, then the point's settings (which win).
std::vector<std::string> point_overrides(const std::vector<std::string>& sets, const std::vector<std::string>& settings);
/// load(settings), its InvalidArgument prefixed with the settings, as sweep_points does.
Scenario load_point(const ScenarioLoader& load, const std::vector<std::string>& settings);
/// A point named by its file and settings: "SOURCE: key=value, ..." (SOURCE alone without
/// settings).
std::string point_name(const std::string& source, const std::vector<std::string>& settings);
/// What a point's run failed with, named by its file and settings: "SOURCE: key=value, ...:
/// what" (a `what` that already starts with "SOURCE: " loses it, so the file is said once).
std::string point_failure(const std::string& source, const std::vector<std::string>& settings, const std::string& what);
/// run(), a failure rethrown named by point_failure: InvalidArgument as InvalidArgument, any
/// other std::exception as std::runtime_error (anything else, such as a stop, as it is).
template <class Run>
auto at_point(const std::string& source, const std::vector<std::string>& settings, Run&& run) -> decltype(run()) {
  try {
    return run();
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(point_failure(source, settings, e.what()));
  } catch (const std::bad_alloc&) {
    throw;   // said as it is: out of memory
  } catch (const std::exception& e) {
    throw std::runtime_error(point_failure(source, settings, e.what()));
  }
}

/// The sweep CSV's key columns, before the report's (csv_header): one per axis whose key the
/// report has no column for (it has one for seed), as "key," ...; and a point's cells for them
/// (its values as given, each a quoted field).
std::string sweep_keys_header(const std::vector<SweepAxis>& axes);
std::string sweep_key_cells(const std::vector<SweepAxis>& axes, const std::vector<std::string>& settings);

/// What a sweep keeps of each point (a whole RunResult holds latency histograms, about 100 KB):
/// its settings, the HCIBench-rule results with their intervals, the bottleneck and the
/// report's CSV row (report/run_report.hpp csv_row).
struct SweepRow {
  std::vector<std::string> settings;
  WorkloadResult result;
  std::string bottleneck;
  std::string csv_row;
};
/// `progress`, when given, is passed to every run (from the worker threads at once): a caller
/// that wants to stop a sweep throws from it.
std::vector<SweepRow> run_sweep(const std::vector<SweepPoint>& points, int jobs = 0, const ProgressFn& progress = {});
/// The same grid, read as it runs: every point is read once first (bad input fails before
/// any run, named by the point's settings, as sweep_points does) and again by the run that
/// takes it, so only the settings are held, not a parsed Scenario (about 15 KB) per point.
/// `load` is called from the worker threads at once.
std::vector<SweepRow> run_sweep(const ScenarioLoader& load, const std::vector<SweepAxis>& axes, int jobs = 0,
                                const ProgressFn& progress = {});

/// What to vary between replications: the random streams of one placement (`replication`
/// 1..n: run-to-run noise) or the seed (seeds 1..n: placement as well).
enum class Vary : std::uint8_t { streams, placement };

/// n independent runs of `scenario` and the 95 % interval of their mean IOPS and mean
/// latency (Student t over the runs' means).
struct Replicated {
  std::vector<double> iops;              // each run's HCIBench IOPS
  std::vector<double> latency_ms;        // each run's pooled mean latency; NaN for a run that
                                         // counted no I/O (its latency is undefined)
  ConfidenceInterval mean_iops;          // batches = runs
  ConfidenceInterval mean_latency_ms;    // over the runs that counted I/O (mean NaN: none did)
  int idle = 0;                          // runs whose window counted no I/O
};
Replicated replicate(const Scenario& scenario, int n, Vary vary = Vary::streams, int jobs = 0);

}  // namespace hcisim
