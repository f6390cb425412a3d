// Our own distributions: sample means and shapes match theory; bad parameters are named.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/distribution.hpp"
#include "hcisim/model/core/moments.hpp"

using namespace hcisim;

namespace {
Moments draw(const Distribution& d, int n, const char* name) {
  RngStream rng(11, 0, name);
  Moments m;
  for (int i = 0; i < n; ++i) m.add(d.sample(rng));
  return m;
}
}  // namespace

TEST_CASE("exponential: mean and variance equal mean and mean^2", "[core]") {
  const auto m = draw(Distribution::exponential(1000.0), 400000, "exp");
  CHECK(m.mean() == Approx(1000.0).epsilon(0.01));          // sd of mean 0.16%
  CHECK(m.variance() == Approx(1e6).epsilon(0.03));
  CHECK(m.min() >= 0.0);
}

TEST_CASE("uniform, deterministic, lognormal and empirical means", "[core]") {
  CHECK(draw(Distribution::uniform(10, 30), 200000, "u").mean() == Approx(20).epsilon(0.005));
  CHECK(draw(Distribution::deterministic(7.5), 10, "d").variance() == 0.0);
  const auto ln = Distribution::lognormal(100.0, 0.5);
  CHECK(ln.mean() == Approx(100.0));
  const auto m = draw(ln, 400000, "ln");
  CHECK(m.mean() == Approx(100.0).epsilon(0.01));
  CHECK(m.stddev() / m.mean() == Approx(0.5).epsilon(0.03));
  const std::vector<double> pts{30, 10, 20};
  const auto emp = Distribution::empirical(pts);
  CHECK(emp.mean() == Approx(20.0));
  const auto me = draw(emp, 100000, "emp");
  CHECK(me.mean() == Approx(20.0).epsilon(0.01));
  CHECK(me.min() >= 10.0);
  CHECK(me.max() <= 30.0);
}

TEST_CASE("invalid distribution parameters are rejected by name", "[core]") {
  CHECK_THROWS_WITH(Distribution::exponential(std::nan("")), Catch::Contains("exponential mean"));
  CHECK_THROWS_WITH(Distribution::exponential(0.0), Catch::Contains("> 0"));
  CHECK_THROWS_WITH(Distribution::uniform(5, 1), Catch::Contains("uniform hi"));
  CHECK_THROWS_WITH(Distribution::lognormal(10, -1), Catch::Contains("lognormal cv"));
  CHECK_THROWS_AS(Distribution::empirical(std::vector<double>{}), InvalidArgument);
  CHECK_THROWS_WITH(Distribution::deterministic(INFINITY), Catch::Contains("deterministic value"));
}
