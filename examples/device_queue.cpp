// The smallest hcisim program: an M/M/1 device queue at 80% load vs theory.
#include <iostream>

// The engine itself is the model API (hcisim/model/: unstable, for model work), not the
// planner's hcisim.hpp.
#include <hcisim/model/core/open_queue_experiment.hpp>
#include <hcisim/model/core/queueing_theory.hpp>

int main() {
  hcisim::OpenQueueSpec spec;                                          // one server
  spec.service_ns = hcisim::Distribution::exponential(10'000);         // 10 us per I/O
  spec.interarrival_ns = hcisim::Distribution::exponential(12'500);    // 80k IOPS: rho = 0.8
  auto r = hcisim::run_open_queue(spec);
  std::cout << "IOPS " << r.throughput_per_s << ", mean latency " << r.mean_sojourn_s * 1e6
            << " us (M/M/1: " << hcisim::theory::mm1_sojourn(80'000, 100'000) * 1e6 << " us)\n";
}
