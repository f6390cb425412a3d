// The BM_Cluster clusters without Google Benchmark, for instruction counts:
//   valgrind --tool=callgrind --toggle-collect='hcisim_measured_window*' build/bench/hcisim_ir_driver 40 osa
// runs `ms` (default 40) simulated milliseconds after the 10 ms warm-up and prints the I/Os
// completed; callgrind's "I refs" over those I/Os is instructions per I/O. Collect only
// hcisim_measured_window: the engine's loop is inlined into Engine::run_for and its kin, so a
// toggle on those would also count the warm-up's run_for, about a quarter more instructions
// than the window's.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_clusters.hpp"

// The measured window, out of line under a name of its own for callgrind's --toggle-collect.
[[gnu::noinline]] std::uint64_t hcisim_measured_window(hcisim::bench::Rig& rig, int ms) {
  const std::uint64_t start = rig.loop.completed();
  rig.engine.run_for(hcisim::Time::from_ms(ms));
  return rig.loop.completed() - start;
}

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
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t ios = hcisim_measured_window(rig, ms);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("ios %llu  wall %.3f s  %.3f M I/Os per s\n", static_cast<unsigned long long>(ios), wall,
              static_cast<double>(ios) / wall / 1e6);
  return 0;
}
