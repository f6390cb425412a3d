// Mean-value analysis of a closed, single-class queueing network (Reiser and Lavenberg,
// "Mean-Value Analysis of Closed Multichain Queuing Networks", JACM 27(2), 1980): for
// populations n = 1..N,
//   R_k(n) = D_k (1 + Q_k(n-1))   at a queueing station of demand D_k (seconds per job),
//   X(n)   = n / (Z + sum_k R_k(n)),   Q_k(n) = X(n) R_k(n),
// with Z the delay every job spends outside the queues. A station of c servers is taken by
// Seidmann's approximation (Seidmann, Schweitzer and Shalev-Oren, "Computerized closed
// queueing network models of flexible manufacturing systems", 1987): a queue of demand D/c in
// series with a delay of D (c - 1) / c; exact for c = 1 and for light and heavy load.
// Costs N x stations steps and no allocation per step.
#pragma once

#include <vector>

namespace hcisim {

struct MvaStation {
  double demand_s = 0;   // total service per job (visits x service time), seconds
  int servers = 1;
};

struct MvaPoint {
  int population = 0;
  double throughput = 0;   // jobs per second
  double response_s = 0;   // mean time per job in the network, Z included
};

/// The network's throughput and response time at each population of `at` (each 1..1e6, in
/// any order; the result follows `at`). Throws InvalidArgument for a negative or non-finite
/// demand or delay, servers < 1, or an empty `at`.
std::vector<MvaPoint> mva(const std::vector<MvaStation>& stations, double delay_s, const std::vector<int>& at);

}  // namespace hcisim
