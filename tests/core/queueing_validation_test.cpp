// The engine and Station against queueing theory (Kleinrock Vol. 1). Fixed seeds; run
// lengths are chosen so the statistical error (batch-means estimate in the comments) is
// several times smaller than the tolerance, so each tolerance tests the engine, not luck.
#include <catch2/catch.hpp>

#include <cmath>

#include "hcisim/model/core/open_queue_experiment.hpp"
#include "hcisim/model/core/queueing_theory.hpp"

using namespace hcisim;

namespace {
// Times in the experiment are nanoseconds; service mean 1 us = 1000 ns, mu = 1e6 / s.
constexpr double kServiceNs = 1000.0;
constexpr double kMu = 1e9 / kServiceNs;

OpenQueueResult run_mm(int servers, double rho, std::uint64_t customers, std::uint64_t seed,
                       bool deterministic_service = false) {
  OpenQueueSpec spec;
  spec.servers = servers;
  const double lambda = rho * servers * kMu;
  spec.interarrival_ns = Distribution::exponential(1e9 / lambda);
  spec.service_ns = deterministic_service ? Distribution::deterministic(kServiceNs)
                                          : Distribution::exponential(kServiceNs);
  spec.warmup_customers = customers / 20;
  spec.customers = customers;
  spec.seed = seed;
  return run_open_queue(spec);
}
}  // namespace

TEST_CASE("M/M/1 at rho = 0.5: mean sojourn within 2%, p95 within 3% of theory", "[core][slow]") {
  // Theory: W = 1/(mu - lambda) = 2 us; p95 = -ln(0.05)/(mu - lambda) = 5.99 us.
  const double lambda = 0.5 * kMu;
  const auto r = run_mm(1, 0.5, 2'000'000, 101);
  CHECK(r.mean_sojourn_s == Approx(theory::mm1_sojourn(lambda, kMu)).epsilon(0.02));
  CHECK(r.p95_sojourn.seconds() == Approx(theory::mm1_sojourn_quantile(lambda, kMu, 0.95)).epsilon(0.03));
  CHECK(r.utilisation == Approx(0.5).epsilon(0.01));
}

TEST_CASE("M/M/1 at rho = 0.9: mean sojourn within 2%, p95 within 3% of theory", "[core][slow]") {
  // Theory: W = 10 us; p95 = 29.96 us. The asymptotic variance of the mean sojourn at
  // rho = 0.9 is ~3.6e4 / mu^2 (Whitt 1989 [S123]), so 10^7 customers give sd ~0.6% of W.
  const double lambda = 0.9 * kMu;
  const auto r = run_mm(1, 0.9, 10'000'000, 102);
  CHECK(r.mean_sojourn_s == Approx(theory::mm1_sojourn(lambda, kMu)).epsilon(0.02));
  CHECK(r.p95_sojourn.seconds() == Approx(theory::mm1_sojourn_quantile(lambda, kMu, 0.95)).epsilon(0.03));
}

TEST_CASE("M/M/4 at rho = 0.8: mean wait in queue within 3% of Erlang C", "[core][slow]") {
  // Theory: a = 3.2, C(4, 3.2) = 0.5964, Wq = C / (4 mu - lambda) = 0.7455 us.
  const double lambda = 0.8 * 4 * kMu;
  const auto r = run_mm(4, 0.8, 4'000'000, 103);
  CHECK(r.mean_wait_s == Approx(theory::mmc_wait(lambda, kMu, 4)).epsilon(0.03));
  CHECK(theory::erlang_c(lambda, kMu, 4) == Approx(0.5964).epsilon(0.001));
}

TEST_CASE("M/D/1 at rho = 0.8: mean wait within 3% of Pollaczek-Khinchine", "[core][slow]") {
  // Theory: Wq = rho / (2 mu (1 - rho)) = 2 us.
  const double lambda = 0.8 * kMu;
  const auto r = run_mm(1, 0.8, 3'000'000, 104, true);
  CHECK(r.mean_wait_s == Approx(theory::md1_wait(lambda, kMu)).epsilon(0.03));
}

TEST_CASE("Little's law L = lambda W within 1% (M/M/2 at rho = 0.7)", "[core]") {
  // L is the time-average number in the station; lambda the measured throughput; W the
  // mean sojourn of the same customers. Holds for any work-conserving queue.
  const auto r = run_mm(2, 0.7, 500'000, 105);
  CHECK(r.mean_in_system == Approx(r.throughput_per_s * r.mean_sojourn_s).epsilon(0.01));
  // And for the queue alone: Lq = lambda Wq.
  CHECK(r.mean_queue_length == Approx(r.throughput_per_s * r.mean_wait_s).epsilon(0.01));
}
