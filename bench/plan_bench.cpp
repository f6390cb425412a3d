// Planning answers, timed whole. items_per_second = answers per wall second.
//  BM_Size/oltp300k: `hcisim size examples/sizing/oltp-300k-p95-2ms.yaml` (issue 23's goal:
//    an answer in under 10 s on the 2-core CI machine), on every core, knees included.
#include <benchmark/benchmark.h>

#include "hcisim/plan/sizing.hpp"
#include "hcisim/scenario/data_dir.hpp"

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
