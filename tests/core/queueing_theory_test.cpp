// The oracles themselves: textbook values computed by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/queueing_theory.hpp"

using namespace hcisim;

TEST_CASE("closed-form queueing results", "[core]") {
  CHECK(theory::mm1_sojourn(0.5, 1.0) == Approx(2.0));
  CHECK(theory::mm1_sojourn_quantile(0.5, 1.0, 0.95) == Approx(2.0 * 2.995732));   // -ln(0.05) = 2.9957
  CHECK(theory::erlang_c(0.5, 1.0, 1) == Approx(0.5));                            // M/M/1: P(wait) = rho
  // M/M/2, a = 1: C = (1/2 * 1/(1-1/2)) / (1 + 1 + 1) = 1/3.
  CHECK(theory::erlang_c(1.0, 1.0, 2) == Approx(1.0 / 3.0));
  CHECK(theory::mmc_wait(1.0, 1.0, 2) == Approx(1.0 / 3.0));                      // C / (2 - 1)
  CHECK(theory::md1_wait(0.5, 1.0) == Approx(0.5));                               // 0.5 / (2 * 0.5)
  CHECK(theory::mg1_wait(0.5, 1.0, 1.0) == Approx(theory::md1_wait(0.5, 1.0)));
  CHECK_THROWS_WITH(theory::mm1_sojourn(2.0, 1.0), Catch::Contains("rho < 1"));
}

TEST_CASE("exact MVA: one customer sees no queueing and bounds hold for many", "[core]") {
  const std::vector<double> d{1.0, 2.0, 3.0};
  const auto mva = theory::exact_mva(d, 50);
  CHECK(mva[0].throughput == Approx(1.0 / 6.0));
  CHECK(mva[0].queue_length[2] == Approx(0.5));
  // Asymptotic bound X <= 1 / D_max, approached as N grows.
  CHECK(mva[49].throughput < 1.0 / 3.0);
  CHECK(mva[49].throughput == Approx(1.0 / 3.0).epsilon(0.01));
  double total = 0;
  for (double q : mva[49].queue_length) total += q;
  CHECK(total == Approx(50.0));   // all customers are somewhere
}
