// Mean-value analysis (mva.hpp).
#include "hcisim/core/mva.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

MvaSolver::MvaSolver(const std::vector<MvaStation>& stations, double delay_s, double overlap)
    : delay_(delay_s), overlap_(overlap) {
  if (!std::isfinite(delay_s) || delay_s < 0) check::fail("mva delay (s)", delay_s, "a finite number >= 0");
  if (!(overlap > 0 && overlap <= 1)) check::fail("mva overlap", overlap, "(0, 1]");
  for (const MvaStation& s : stations) {
    if (!std::isfinite(s.demand_s) || s.demand_s < 0) check::fail("mva station demand (s)", s.demand_s, "a finite number >= 0");
    if (s.servers < 1) check::fail("mva station servers", s.servers, "at least 1");
    if (s.demand_s == 0) continue;
    queue_demand_.push_back(s.demand_s / s.servers);
    station_delay_ += s.demand_s * (s.servers - 1) / s.servers;
  }
  queue_.assign(queue_demand_.size(), 0.0);
}

MvaPoint MvaSolver::step() {
  ++n_;
  double residence = station_delay_;
  for (std::size_t k = 0; k < queue_demand_.size(); ++k) residence += queue_demand_[k] * (1 + queue_[k]);
  const double response = delay_ + overlap_ * residence;
  const double x = response > 0 ? n_ / response : 0.0;
  for (std::size_t k = 0; k < queue_demand_.size(); ++k) queue_[k] = x * queue_demand_[k] * (1 + queue_[k]);
  return {n_, x, response};
}

std::vector<MvaPoint> mva(const std::vector<MvaStation>& stations, double delay_s, const std::vector<int>& at,
                          double overlap) {
  if (at.empty()) check::fail("mva populations", 0, "at least one");
  int top = 0;
  for (int n : at) {
    if (n < 1 || n > 1'000'000) check::fail("mva population", n, "1..1e6");
    top = std::max(top, n);
  }
  MvaSolver solver(stations, delay_s, overlap);
  std::vector<MvaPoint> by_population(static_cast<std::size_t>(top) + 1);
  for (int n = 1; n <= top; ++n) by_population[static_cast<std::size_t>(n)] = solver.step();
  std::vector<MvaPoint> out;
  out.reserve(at.size());
  for (int n : at) out.push_back(by_population[static_cast<std::size_t>(n)]);
  return out;
}

}  // namespace hcisim
