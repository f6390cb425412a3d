// A closed network: N customers cycle over three single-server exponential FIFO stations
// with different service demands and no think time. Product-form (Gordon-Newell), so
// exact MVA (Reiser & Lavenberg 1980 [S119]) gives throughput and queue lengths exactly.
#include <catch2/catch.hpp>

#include <array>
#include <memory>

#include "hcisim/model/core/distribution.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/core/queueing_theory.hpp"
#include "hcisim/model/core/station.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {
constexpr std::array<double, 3> kDemandNs{1000.0, 2000.0, 3000.0};

struct ClosedNetwork final : StationClient {
  Engine engine;
  std::array<RngStream, 3> rng{RngStream(9, 0, "s0"), RngStream(9, 0, "s1"), RngStream(9, 0, "s2")};
  std::array<Distribution, 3> service{Distribution::exponential(kDemandNs[0]),
                                      Distribution::exponential(kDemandNs[1]),
                                      Distribution::exponential(kDemandNs[2])};
  std::array<std::unique_ptr<Station>, 3> st;
  std::uint64_t cycles = 0;
  std::array<double, 3> sojourn_ns{};         // summed over departures since the reset
  std::array<std::uint64_t, 3> departures{};

  explicit ClosedNetwork(int customers) {
    for (int k = 0; k < 3; ++k) st[static_cast<std::size_t>(k)] = std::make_unique<Station>(engine, "s", 1, this);
    for (int c = 0; c < customers; ++c) send(0, static_cast<std::uint64_t>(c));
  }
  void send(std::size_t k, std::uint64_t job) {
    st[k]->arrive(job, Time::round_ns(service[k].sample(rng[k])));
  }
  void on_departure(Station& s, std::uint64_t job, Time arrived, Time) override {
    const std::size_t k = &s == st[0].get() ? 0 : &s == st[1].get() ? 1 : 2;
    sojourn_ns[k] += static_cast<double>((engine.now() - arrived).count_ns());
    ++departures[k];
    if (k == 2) ++cycles;
    send((k + 1) % 3, job);
  }
};
}  // namespace

TEST_CASE("closed 3-station network matches exact MVA for N = 1, 4, 16 within 2%", "[core][slow]") {
  const auto mva = theory::exact_mva(kDemandNs, 16);   // demands in ns: X in cycles per ns
  for (int n : {1, 4, 16}) {
    ClosedNetwork net(n);
    net.engine.run_for(200_ms);                         // warm-up: ~30k cycles
    for (auto& s : net.st) s->reset_stats();
    net.cycles = 0;
    net.sojourn_ns = {};
    net.departures = {};
    const Time start = net.engine.now();
    net.engine.run_for(4_s);                            // ~1.3M cycles at N = 16
    const double x = static_cast<double>(net.cycles) / static_cast<double>((net.engine.now() - start).count_ns());
    const auto& exact = mva[static_cast<std::size_t>(n - 1)];
    INFO("N = " << n << ", exact X = " << exact.throughput * 1e9 << " cycles/s");
    CHECK(x == Approx(exact.throughput).epsilon(0.02));
    double population = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      INFO("station " << k << " exact Q = " << exact.queue_length[k]);
      CHECK(net.st[k]->mean_in_system() == Approx(exact.queue_length[k]).epsilon(0.02));
      population += net.st[k]->mean_in_system();
    }
    // Conservation: the mean populations add up to the N customers (any scheduling).
    CHECK(population == Approx(n).epsilon(1e-9));
    // Little's law over the loop, from the measured sojourns: N = X * R, R the summed mean
    // sojourn of the three stations (window edges only: 1 %).
    double cycle_ns = 0;
    for (std::size_t k = 0; k < 3; ++k) cycle_ns += net.sojourn_ns[k] / static_cast<double>(net.departures[k]);
    CHECK(x * cycle_ns == Approx(n).epsilon(0.01));
  }
}
