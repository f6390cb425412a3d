// Planning answers, timed whole. items_per_second = answers per wall second.
//  BM_AnalyticCurve/seed001: the analytic path's 20-point curve (below).
//  BM_Sensitivity/default10: 10 assumptions of the default scenario against one run (below).
//  BM_Size/oltp300k: `hcisim size examples/sizing/oltp-300k-p95-2ms.yaml` (goal: an answer
//    in under 10 s on the 2-core CI machine), on every core, knees included.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "hcisim/plan/analytic.hpp"
#include "hcisim/plan/sensitivity.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"

using namespace hcisim;

namespace {

void BM_Size_oltp300k(benchmark::State& state) {
  HardwareCatalog cat = HardwareCatalog::load();
  const Requirements req = read_requirements(default_data_dir() + "/../examples/sizing/oltp-300k-p95-2ms.yaml", cat);
  for (auto _ : state) benchmark::DoNotOptimize(size_cluster(req, cat).answers.size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Size_oltp300k)->Name("BM_Size/oltp300k")->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

namespace {

// BM_AnalyticCurve/seed001: the 20-point MVA curve of seed 001's 25 GbE OLTP32K cluster from a
// model built once (its pilot run is outside the timing: AnalyticModel::pilot_wall_s reports
// it); the goal is under 10 ms a curve. items_per_second = curves per second.
void BM_AnalyticCurve_seed001(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  const Scenario s = load_scenario(default_data_dir() + "/../examples/scenarios/seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml",
                                   {}, cat);
  const AnalyticModel m = analytic_model(s);
  const std::vector<int> points = default_curve_points(m);
  for (auto _ : state) benchmark::DoNotOptimize(analytic_curve(m, points).back().iops);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["pilot_wall_ms"] = m.pilot_wall_s * 1e3;
}
BENCHMARK(BM_AnalyticCurve_seed001)->Name("BM_AnalyticCurve/seed001")->Unit(benchmark::kMicrosecond);

}  // namespace

namespace {

// BM_Sensitivity/default10: the assumption sensitivity (plan/sensitivity.hpp) of the built-in
// default with its first 10 assumptions, on 2 threads (the CI machine's cores): 1 base, 2
// noise runs, 20 ends and 6 pair runs. Goal: at most 25 times one run's wall time; the
// counter run_ratio is the study's wall time over one run's (the fastest of three, before),
// cpu_ratio the same in CPU time.
// items_per_second = studies per wall second.
void BM_Sensitivity_default10(benchmark::State& state) {
  const HardwareCatalog cat = HardwareCatalog::load();
  const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>", {}, cat);
  std::vector<Assumption> as = scenario_assumptions(s, cat);
  as.resize(std::min<std::size_t>(as.size(), 10));
  double one_run_s = 1e300, one_run_cpu_s = 1e300;   // the fastest of 3 (the machine is shared)
  for (int i = 0; i < 3; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    benchmark::DoNotOptimize(simulate(s).result.iops);
    one_run_cpu_s = std::min(one_run_cpu_s, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    one_run_s = std::min(one_run_s, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  SensitivityOptions o;
  o.jobs = 2;
  const SensitivityEval eval = [](const HardwareCatalog& c, const std::vector<std::string>& overrides,
                                  std::uint64_t offset, const ProgressFn& progress) {
    Scenario moved = parse_scenario(default_scenario_yaml(), "<built-in default>", overrides, c);
    moved.replication += offset;
    const RunResult r = simulate(moved, progress);
    return SensitivityAnswer{{r.result.iops}, r.bottleneck};
  };
  double study_s = 0, study_cpu_s = 0;
  int runs = 0;
  for (auto _ : state) {
    const std::clock_t c0 = std::clock();   // the process's CPU time, every thread's
    const Sensitivity r = sensitivity(as, cat, {"iops"}, eval, o);
    study_cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    study_s = r.wall_s;
    runs = r.runs;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["runs"] = runs;
  state.counters["one_run_s"] = one_run_s;
  state.counters["run_ratio"] = study_s / one_run_s;
  // CPU seconds of the study over one run's: on 2 otherwise idle cores the wall ratio is about
  // half of it (on a shared machine run_ratio also counts the other load).
  state.counters["cpu_ratio"] = study_cpu_s / one_run_cpu_s;
}
BENCHMARK(BM_Sensitivity_default10)
    ->Name("BM_Sensitivity/default10")
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace
