// Sampling distributions written here (not <random>'s, whose algorithms differ between
// standard libraries) so a seed gives the same numbers everywhere. Values are plain
// doubles in the caller's unit (typically nanoseconds of service time).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "hcisim/core/rng.hpp"

namespace hcisim {

class Distribution {
 public:
  enum class Kind { deterministic, exponential, uniform, lognormal, empirical };

  /// Always `value` (>= 0).
  static Distribution deterministic(double value);
  /// Exponential with the given mean (> 0), by the ziggurat method (exact, ~1 exp() in 100).
  static Distribution exponential(double mean);
  /// Uniform on [lo, hi], 0 <= lo <= hi.
  static Distribution uniform(double lo, double hi);
  /// Lognormal with the given mean (> 0) and coefficient of variation (>= 0):
  /// sigma^2 = ln(1 + cv^2), mu = ln(mean) - sigma^2 / 2 (normal by Box-Muller).
  static Distribution lognormal(double mean, double cv);
  /// Piecewise-linear inverse CDF through the sorted sample `points` (>= 1 finite, >= 0):
  /// each gap between neighbours carries equal probability.
  static Distribution empirical(std::span<const double> points);

  double sample(RngStream& rng) const;
  double mean() const;
  Kind kind() const { return kind_; }

 private:
  Distribution(Kind k, double a, double b) : kind_(k), a_(a), b_(b) {}
  Kind kind_;
  double a_;
  double b_;
  std::vector<double> points_;
};

}  // namespace hcisim
