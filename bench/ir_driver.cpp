// The BM_Cluster clusters without Google Benchmark, for instruction counts:
//   valgrind --tool=callgrind --toggle-collect='hcisim::Engine::loop*' build/bench/hcisim_ir_driver 40 osa
// runs `ms` (default 40) simulated milliseconds after the 10 ms warm-up and prints the I/Os
// completed; callgrind's "I refs" over those I/Os is instructions per I/O.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_clusters.hpp"

int main(int argc, char** argv) {
  using namespace hcisim;
  const int ms = argc > 1 ? std::atoi(argv[1]) : 40;
  const bool esa = argc > 2 && std::string(argv[2]) == "esa";
  if (ms <= 0 || (argc > 2 && !esa && std::string(argv[2]) != "osa")) {
    std::fprintf(stderr, "usage: hcisim_ir_driver [MS > 0] [osa|esa]\n");
    return 2;
  }
  const HardwareCatalog cat = HardwareCatalog::load();
  bench::Rig rig(cat, esa);
  const std::uint64_t start = rig.loop.completed();
  const auto t0 = std::chrono::steady_clock::now();
  rig.engine.run_for(Time::from_ms(ms));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto ios = rig.loop.completed() - start;
  std::printf("ios %llu  wall %.3f s  %.3f M I/Os per s\n", static_cast<unsigned long long>(ios), wall,
              static_cast<double>(ios) / wall / 1e6);
  return 0;
}
