// Mean-value analysis of a closed, single-class queueing network (Reiser and Lavenberg,
// "Mean-Value Analysis of Closed Multichain Queuing Networks", JACM 27(2), 1980 [S119]): for
// populations n = 1..N,
//   R_k(n) = D_k (1 + Q_k(n-1))   at a queueing station of demand D_k (seconds per job),
//   X(n)   = n / (Z + f sum_k R_k(n)),   Q_k(n) = X(n) R_k(n),
// with Z the delay every job spends outside the queues. A station of c servers is taken by
// Seidmann's approximation (Seidmann, Schweitzer and Shalev-Oren, "Computerized closed
// queueing network models of flexible manufacturing systems", 1987 [S120]): a queue of demand D/c in
// series with a delay of D (c - 1) / c; exact for c = 1 and for light and heavy load.
// f (0 < f <= 1) is the share of the stations' residence that a job waits for in series: 1 for
// a chain of stations; below 1 where a job forks into parallel tasks (replica writes, stripe
// columns, overlapping network hops), each still queueing at its station for its whole
// residence (Q_k = X R_k) while the job waits only for the overlap-adjusted sum. A fork-join
// correction in its simplest form, one factor for the whole network.
// Costs one pass over the stations per population step and no allocation per step.
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

/// The recursion one population at a time (n = 1, 2, ...): for curves, and for knees that
/// stop at the first population over a latency target. Throws InvalidArgument for a negative
/// or non-finite demand, delay or overlap outside (0, 1], or servers < 1.
class MvaSolver {
 public:
  MvaSolver(const std::vector<MvaStation>& stations, double delay_s, double overlap = 1.0);
  /// Population n + 1 from n.
  MvaPoint step();
  int population() const { return n_; }

 private:
  std::vector<double> queue_demand_;   // D_k / c_k
  std::vector<double> queue_;          // Q_k(n)
  double delay_ = 0;                   // Z
  double station_delay_ = 0;           // sum of the Seidmann delays D_k (c_k - 1) / c_k
  double overlap_ = 1;
  int n_ = 0;
};

/// The network at each population of `at` (each 1..1e6, in any order; the result follows
/// `at`). Throws as MvaSolver, and for an empty `at` or a population out of range.
std::vector<MvaPoint> mva(const std::vector<MvaStation>& stations, double delay_s, const std::vector<int>& at,
                          double overlap = 1.0);

}  // namespace hcisim
