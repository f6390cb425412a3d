// Planning answers, timed whole. items_per_second = answers per wall second.
//  BM_AnalyticCurve/seed001: the analytic path's 20-point curve (below).
//  BM_Size/oltp300k: `hcisim size examples/sizing/oltp-300k-p95-2ms.yaml` (goal: an answer
//    in under 10 s on the 2-core CI machine), on every core, knees included.
#include <benchmark/benchmark.h>

#include "hcisim/plan/analytic.hpp"
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
