// Closed-form oracles (see queueing_theory.hpp for sources).
#include "hcisim/model/core/queueing_theory.hpp"

#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim::theory {

namespace {
void require_stable(double lambda, double capacity, const char* what) {
  check::positive(lambda, "arrival rate lambda");
  if (!(lambda < capacity)) check::fail(what, lambda / capacity, "utilisation rho < 1");
}
}  // namespace

double mm1_sojourn(double lambda, double mu) {
  require_stable(lambda, mu, "M/M/1 rho");
  return 1.0 / (mu - lambda);
}

double mm1_sojourn_quantile(double lambda, double mu, double q) {
  require_stable(lambda, mu, "M/M/1 rho");
  if (!(q >= 0.0 && q < 1.0)) check::fail("quantile q", q, "a number in [0, 1)");
  return -std::log1p(-q) / (mu - lambda);
}

double erlang_c(double lambda, double mu, int c) {
  check::in_range(c, 1, 100000, "servers c");
  require_stable(lambda, mu * c, "M/M/c rho");
  const double a = lambda / mu;
  const double rho = a / c;
  // sum_{k<c} a^k / k! and a^c / c!, accumulated term by term for stability.
  double term = 1.0;
  double sum = 0.0;
  for (int k = 0; k < c; ++k) {
    sum += term;
    term *= a / (k + 1);
  }
  const double tail = term / (1.0 - rho);
  return tail / (sum + tail);
}

double mmc_wait(double lambda, double mu, int c) { return erlang_c(lambda, mu, c) / (c * mu - lambda); }

double mg1_wait(double lambda, double mean_service, double second_moment_service) {
  const double rho = lambda * mean_service;
  require_stable(lambda, 1.0 / mean_service, "M/G/1 rho");
  return lambda * second_moment_service / (2.0 * (1.0 - rho));
}

double md1_wait(double lambda, double mu) {
  require_stable(lambda, mu, "M/D/1 rho");
  const double rho = lambda / mu;
  return rho / (2.0 * mu * (1.0 - rho));
}

std::vector<MvaPoint> exact_mva(std::span<const double> demands, int customers, double think_time) {
  check::in_range(customers, 1, 1'000'000, "MVA customers");
  check::non_negative(think_time, "MVA think time");
  for (double d : demands) check::non_negative(d, "MVA service demand");
  std::vector<double> q(demands.size(), 0.0);
  std::vector<MvaPoint> out;
  out.reserve(static_cast<std::size_t>(customers));
  for (int n = 1; n <= customers; ++n) {
    std::vector<double> r(demands.size());
    double total = think_time;
    for (std::size_t k = 0; k < demands.size(); ++k) {
      r[k] = demands[k] * (1.0 + q[k]);
      total += r[k];
    }
    const double x = n / total;
    for (std::size_t k = 0; k < demands.size(); ++k) q[k] = x * r[k];
    out.push_back({x, total - think_time, q});
  }
  return out;
}

}  // namespace hcisim::theory
