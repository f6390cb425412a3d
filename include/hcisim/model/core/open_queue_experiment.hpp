// One open queueing station fed by a renewal arrival process (G/G/c): the engine's
// reference experiment, checked against queueing theory in tests/core and used by the CLI
// demo and the benchmarks. Distributions are sampled in nanoseconds.
#pragma once

#include <cstdint>

#include "hcisim/model/core/distribution.hpp"
#include "hcisim/core/units.hpp"

namespace hcisim {

struct OpenQueueSpec {
  int servers = 1;
  Distribution interarrival_ns = Distribution::exponential(2'000.0);
  Distribution service_ns = Distribution::exponential(1'000.0);
  std::uint64_t warmup_customers = 10'000;    // departures discarded before measuring
  std::uint64_t customers = 1'000'000;        // departures measured
  std::uint64_t seed = 1;
  std::uint64_t replication = 0;
  bool trace_hash = false;
};

struct OpenQueueResult {
  std::uint64_t completed = 0;       // measured departures
  double throughput_per_s = 0.0;     // completed / measurement window
  double mean_sojourn_s = 0.0;       // W
  double mean_wait_s = 0.0;          // Wq
  Time p50_sojourn, p95_sojourn, p99_sojourn, p999_sojourn;
  double mean_in_system = 0.0;       // L, time-averaged over the measurement window
  double mean_queue_length = 0.0;    // Lq
  double utilisation = 0.0;          // busy servers / c
  std::uint64_t events = 0;          // engine events fired
  std::uint64_t trace_hash = 0;      // when spec.trace_hash
};

OpenQueueResult run_open_queue(const OpenQueueSpec& spec);

}  // namespace hcisim
