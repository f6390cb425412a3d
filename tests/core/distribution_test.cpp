// Our own distributions: sample means and shapes match theory; bad parameters are named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/core/distribution.hpp"
#include "hcisim/core/moments.hpp"

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

namespace {
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
}  // namespace

// The lognormal's normal comes from a 256-layer ziggurat (Marsaglia & Tsang 2000). With
// sigma = 1 (cv^2 = e - 1), Z = (ln X - mu) / sigma recovers each standard-normal draw, so its
// sample is checked against N(0, 1): moments, Kolmogorov-Smirnov, chi-square over bins, and
// the tail beyond the base layer's edge r = 3.6541528853610088, drawn by Marsaglia's method.
TEST_CASE("lognormal: the ziggurat's normal draws follow N(0,1), tail included", "[core]") {
  const double cv = std::sqrt(std::exp(1.0) - 1.0);
  const auto ln = Distribution::lognormal(1.0, cv);
  const double sigma = std::sqrt(std::log1p(cv * cv));
  const double mu = -sigma * sigma / 2.0;
  REQUIRE(sigma == Approx(1.0).epsilon(1e-12));
  RngStream rng(11, 0, "normal");
  const auto draw_z = [&] { return (std::log(ln.sample(rng)) - mu) / sigma; };

  constexpr std::size_t n = 1'000'000;
  std::vector<double> z(n);
  Moments m;
  for (double& x : z) {
    x = draw_z();
    m.add(x);
  }
  CHECK(std::abs(m.mean()) < 5e-3);             // sd of the mean 1e-3
  CHECK(std::abs(m.variance() - 1.0) < 7e-3);   // sd of the variance sqrt(2/n) = 1.4e-3

  // Chi-square over 80 bins of width 0.1 on [-4, 4] plus the two tails (81 dof; the 0.999
  // quantile is about 125).
  std::vector<double> count(82, 0.0);
  for (double x : z) {
    const double b = std::floor((x + 4.0) * 10.0) + 1.0;
    count[static_cast<std::size_t>(std::clamp(b, 0.0, 81.0))] += 1.0;
  }
  double chi2 = 0.0;
  for (std::size_t b = 0; b < count.size(); ++b) {
    const double lo = b == 0 ? -INFINITY : -4.0 + 0.1 * static_cast<double>(b - 1);
    const double hi = b == 81 ? INFINITY : -4.0 + 0.1 * static_cast<double>(b);
    const double expected = static_cast<double>(n) * (normal_cdf(hi) - normal_cdf(lo));
    chi2 += (count[b] - expected) * (count[b] - expected) / expected;
  }
  CHECK(chi2 < 125.0);

  // Kolmogorov-Smirnov: sup |F_n - Phi| below the 0.001 critical value 1.95 / sqrt(n).
  std::sort(z.begin(), z.end());
  double d = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double phi = normal_cdf(z[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - phi, phi - static_cast<double>(i) / n});
  }
  CHECK(d < 1.95 / std::sqrt(static_cast<double>(n)));

  // Tails, over 1.6 * 10^7 draws (compared in X, so only tail draws pay a log): counts beyond
  // r and beyond 4 sigma within 4 sd of theory, both signs, and the mean excess
  // E[|Z| - r | |Z| > r] = phi(r) / Q(r) - r = 0.2429 of Marsaglia's tail method (a tail
  // r + Exp(1) / r without his rejection step would give 1 / r = 0.274).
  constexpr double r = 3.6541528853610088;
  const double draws = 1.6e7;
  const double x_lo_r = std::exp(mu - sigma * r);
  const double x_hi_r = std::exp(mu + sigma * r);
  const double x_lo_4 = std::exp(mu - sigma * 4.0);
  const double x_hi_4 = std::exp(mu + sigma * 4.0);
  double beyond_r = 0.0;
  double beyond_r_neg = 0.0;
  double beyond_4 = 0.0;
  double excess = 0.0;
  for (double i = 0.0; i < draws; i += 1.0) {
    const double x = ln.sample(rng);
    if (x < x_lo_4 || x > x_hi_4) beyond_4 += 1.0;
    if (x < x_lo_r || x > x_hi_r) {
      const double zi = (std::log(x) - mu) / sigma;
      beyond_r += 1.0;
      beyond_r_neg += zi < 0.0 ? 1.0 : 0.0;
      excess += std::abs(zi) - r;
    }
  }
  const double q_r = std::erfc(r / std::sqrt(2.0));               // P(|Z| > r) = 2.58e-4
  const double e_r = draws * q_r;                                  // ~4128
  const double e_4 = draws * std::erfc(4.0 / std::sqrt(2.0));     // ~1013
  CHECK(std::abs(beyond_r - e_r) < 4.0 * std::sqrt(e_r));
  CHECK(std::abs(beyond_4 - e_4) < 4.0 * std::sqrt(e_4));
  CHECK(std::abs(beyond_r_neg - e_r / 2.0) < 4.0 * std::sqrt(e_r / 4.0));
  const double mean_excess = std::exp(-r * r / 2.0) * std::sqrt(2.0 / std::acos(-1.0)) / q_r - r;
  CHECK(excess / beyond_r == Approx(mean_excess).epsilon(0.05));   // sd ~1.4 %
}

TEST_CASE("invalid distribution parameters are rejected by name", "[core]") {
  CHECK_THROWS_WITH(Distribution::exponential(std::nan("")), Catch::Contains("exponential mean"));
  CHECK_THROWS_WITH(Distribution::exponential(0.0), Catch::Contains("> 0"));
  CHECK_THROWS_WITH(Distribution::uniform(5, 1), Catch::Contains("uniform hi"));
  CHECK_THROWS_WITH(Distribution::lognormal(10, -1), Catch::Contains("lognormal cv"));
  CHECK_THROWS_AS(Distribution::empirical(std::vector<double>{}), InvalidArgument);
  CHECK_THROWS_WITH(Distribution::deterministic(INFINITY), Catch::Contains("deterministic value"));
}
