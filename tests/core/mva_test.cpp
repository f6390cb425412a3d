// Mean-value analysis (core/mva.hpp) against queueing theory: the exact recursion for
// single-server stations (theory::exact_mva), Little's law at every population, the
// asymptotic bounds, and Seidmann's multi-server approximation against the exact
// finite-source M/M/c queue (a birth-death chain).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/core/mva.hpp"
#include "hcisim/model/core/queueing_theory.hpp"

using namespace hcisim;

namespace {

// One c-server station of service time s and an infinite-server delay z, n customers: the
// station's number in system is a birth-death chain with birth (n - k) / z and death
// min(k, c) / s; throughput = sum p_k min(k, c) / s.
double finite_source_mmc_throughput(int n, int c, double s, double z) {
  std::vector<double> p(static_cast<std::size_t>(n) + 1, 0.0);
  p[0] = 1;
  double total = 1;
  for (int k = 1; k <= n; ++k) {
    p[static_cast<std::size_t>(k)] = p[static_cast<std::size_t>(k) - 1] * ((n - k + 1) / z) / (std::min(k, c) / s);
    total += p[static_cast<std::size_t>(k)];
  }
  double x = 0;
  for (int k = 0; k <= n; ++k) x += p[static_cast<std::size_t>(k)] / total * std::min(k, c) / s;
  return x;
}

}  // namespace

TEST_CASE("MVA of single-server stations is the exact recursion, with Little's law at every population", "[mva]") {
  const std::vector<double> demands = {0.004, 0.010, 0.002};
  const double z = 0.05;
  const std::vector<theory::MvaPoint> exact = theory::exact_mva(demands, 40, z);
  std::vector<MvaStation> stations;
  for (double d : demands) stations.push_back({d, 1});
  std::vector<int> at;
  for (int n = 1; n <= 40; ++n) at.push_back(n);
  const std::vector<MvaPoint> pts = mva(stations, z, at);
  REQUIRE(pts.size() == 40);
  for (int n = 1; n <= 40; ++n) {
    const MvaPoint& p = pts[static_cast<std::size_t>(n) - 1];
    CHECK(p.population == n);
    CHECK(p.throughput == Approx(exact[static_cast<std::size_t>(n) - 1].throughput).epsilon(1e-12));
    CHECK(p.response_s == Approx(exact[static_cast<std::size_t>(n) - 1].response + z).epsilon(1e-12));
    CHECK(p.throughput * p.response_s == Approx(n).epsilon(1e-12));   // Little: N = X (R + Z)
    // Asymptotic bounds (Denning and Buzen): X <= min(N / (D + Z), 1 / D_max).
    CHECK(p.throughput <= n / (0.016 + z) * (1 + 1e-12));
    CHECK(p.throughput <= 1 / 0.010 * (1 + 1e-12));
  }
  // The result follows the order asked for.
  const std::vector<MvaPoint> two = mva(stations, z, {30, 3});
  CHECK(two[0].population == 30);
  CHECK(two[1].throughput == Approx(pts[2].throughput));
}

TEST_CASE("Seidmann's multi-server stations stay near the exact finite-source M/M/c", "[mva]") {
  // c = 4 servers of 1 ms, think 2 ms: light, knee and saturated populations.
  for (int n : {1, 2, 4, 6, 8, 12, 20, 40}) {
    const double exact = finite_source_mmc_throughput(n, 4, 0.001, 0.002);
    const double approx = mva({{0.001, 4}}, 0.002, {n})[0].throughput;
    INFO("n = " << n << ": exact " << exact << ", Seidmann " << approx);
    CHECK(approx == Approx(exact).epsilon(0.06));   // the worst here is 5.4 % (n = 8)
    CHECK(approx <= 4 / 0.001 * (1 + 1e-12));
  }
  // Exact at the extremes: one customer sees no queue; saturation is c / s.
  CHECK(mva({{0.001, 4}}, 0.002, {1})[0].throughput == Approx(1 / 0.003));
  CHECK(mva({{0.001, 4}}, 0.002, {100000})[0].throughput == Approx(4000).epsilon(1e-3));
}

TEST_CASE("a fork-join share below 1 shortens the response but not the bottleneck's ceiling", "[mva]") {
  // Two replicas of 1 ms each in parallel: the job waits for about one of them.
  const std::vector<MvaStation> replicas = {{0.001, 1}, {0.001, 1}};
  const MvaPoint serial = mva(replicas, 0, {1})[0];
  const MvaPoint forked = mva(replicas, 0, {1}, 0.5)[0];
  CHECK(serial.response_s == Approx(0.002));
  CHECK(forked.response_s == Approx(0.001));
  CHECK(forked.throughput == Approx(1000));
  CHECK(mva(replicas, 0, {20000}, 0.5)[0].throughput == Approx(1000).epsilon(1e-3));   // 1 / D_max
  CHECK_THROWS_WITH(mva(replicas, 0, {1}, 0), Catch::Contains("mva overlap"));
  // Stepping gives the same points as the batch call.
  MvaSolver s(replicas, 0.0005, 0.7);
  for (int n = 1; n <= 5; ++n) CHECK(s.step().throughput == Approx(mva(replicas, 0.0005, {n}, 0.7)[0].throughput));
}

TEST_CASE("MVA refuses what it cannot solve, by name", "[mva][errors]") {
  CHECK_THROWS_WITH(mva({{0.001, 1}}, 0, {}), Catch::Contains("mva populations"));
  CHECK_THROWS_WITH(mva({{-1, 1}}, 0, {1}), Catch::Contains("mva station demand"));
  CHECK_THROWS_WITH(mva({{0.001, 0}}, 0, {1}), Catch::Contains("mva station servers"));
  CHECK_THROWS_WITH(mva({{0.001, 1}}, std::nan(""), {1}), Catch::Contains("mva delay"));
  CHECK_THROWS_WITH(mva({{0.001, 1}}, 0, {0}), Catch::Contains("mva population"));
}
