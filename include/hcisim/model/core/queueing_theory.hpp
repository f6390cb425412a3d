// Closed-form queueing results used as oracles for the engine and as analytic warm starts:
// Kleinrock, "Queueing Systems" Vol. 1 (1975) [S117]; Lazowska et al., "Quantitative System
// Performance" (1984) [S118], ch. 6 (exact MVA, Reiser & Lavenberg 1980 [S119]). Times in seconds.
#pragma once

#include <span>
#include <vector>

namespace hcisim::theory {

/// M/M/1 mean sojourn W = 1 / (mu - lambda), requires lambda < mu.
double mm1_sojourn(double lambda, double mu);
/// M/M/1 sojourn-time q-quantile: the sojourn is Exp(mu - lambda), so -ln(1 - q) / (mu - lambda).
double mm1_sojourn_quantile(double lambda, double mu, double q);
/// Erlang C: probability an arrival waits in M/M/c, a = lambda / mu, rho = a / c < 1.
double erlang_c(double lambda, double mu, int c);
/// M/M/c mean wait in queue Wq = C(c, a) / (c mu - lambda).
double mmc_wait(double lambda, double mu, int c);
/// Pollaczek-Khinchine M/G/1 mean wait Wq = lambda E[S^2] / (2 (1 - rho)).
double mg1_wait(double lambda, double mean_service, double second_moment_service);
/// M/D/1 mean wait Wq = rho / (2 mu (1 - rho)).
double md1_wait(double lambda, double mu);

/// Result of exact single-class mean value analysis for population n.
struct MvaPoint {
  double throughput;                 // X(n), jobs per second
  double response;                   // R(n) = sum of station residence times, seconds
  std::vector<double> queue_length;  // Q_k(n), mean jobs at station k (waiting + in service)
};
/// Exact MVA for a closed network of single-server FCFS stations with service demands
/// D_k (seconds per visit cycle) and think time Z: R_k(n) = D_k (1 + Q_k(n-1)),
/// X(n) = n / (Z + sum_k R_k(n)), Q_k(n) = X(n) R_k(n). Returns points n = 1..N.
std::vector<MvaPoint> exact_mva(std::span<const double> demands, int customers, double think_time = 0.0);

}  // namespace hcisim::theory
