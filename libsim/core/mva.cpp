// Mean-value analysis (mva.hpp).
#include "hcisim/core/mva.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

std::vector<MvaPoint> mva(const std::vector<MvaStation>& stations, double delay_s, const std::vector<int>& at) {
  if (at.empty()) check::fail("mva populations", 0, "at least one");
  if (!std::isfinite(delay_s) || delay_s < 0) check::fail("mva delay (s)", delay_s, "a finite number >= 0");
  int top = 0;
  for (int n : at) {
    if (n < 1 || n > 1'000'000) check::fail("mva population", n, "1..1e6");
    top = std::max(top, n);
  }
  // Seidmann: each station's queueing part (D / c) and its share of the fixed delay.
  std::vector<double> queue_demand;
  double delay = delay_s;
  for (const MvaStation& s : stations) {
    if (!std::isfinite(s.demand_s) || s.demand_s < 0) check::fail("mva station demand (s)", s.demand_s, "a finite number >= 0");
    if (s.servers < 1) check::fail("mva station servers", s.servers, "at least 1");
    if (s.demand_s == 0) continue;
    queue_demand.push_back(s.demand_s / s.servers);
    delay += s.demand_s * (s.servers - 1) / s.servers;
  }
  std::vector<double> queue(queue_demand.size(), 0.0);
  std::vector<MvaPoint> by_population(static_cast<std::size_t>(top) + 1);
  for (int n = 1; n <= top; ++n) {
    double response = delay;
    for (std::size_t k = 0; k < queue_demand.size(); ++k) response += queue_demand[k] * (1 + queue[k]);
    const double x = response > 0 ? n / response : 0.0;
    for (std::size_t k = 0; k < queue_demand.size(); ++k) queue[k] = x * queue_demand[k] * (1 + queue[k]);
    by_population[static_cast<std::size_t>(n)] = {n, x, response};
  }
  std::vector<MvaPoint> out;
  out.reserve(at.size());
  for (int n : at) out.push_back(by_population[static_cast<std::size_t>(n)]);
  return out;
}

}  // namespace hcisim
