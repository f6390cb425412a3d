// Sampling distributions written here (not <random>'s, whose algorithms differ between
// standard libraries) so a seed gives the same numbers everywhere. Values are plain
// doubles in the caller's unit (typically nanoseconds of service time).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "hcisim/model/core/rng.hpp"

namespace hcisim {

/// Ziggurat tables for Exp(1) (built once in distribution.cpp, immutable): layer i accepts
/// a 53-bit draw j < k[i] as j * w[i]; f[i] = exp(-x_i) serves the rare wedge test.
struct ExpZigguratTables {
  std::array<std::uint64_t, 256> k{};
  std::array<double, 256> w{};
  std::array<double, 256> f{};
};

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

  double sample(RngStream& rng) const {
    if (kind_ == Kind::exponential) {   // the ziggurat's rectangle test, inline (~99 % of draws)
      const std::uint64_t u = rng.next_u64();
      const std::size_t i = u & 0xFFu;
      const std::uint64_t j = u >> 11;   // 53 random bits
      if (j < zig_->k[i]) return a_ * (static_cast<double>(j) * zig_->w[i]);
      return a_ * exp_rejected(rng, u);
    }
    if (kind_ == Kind::lognormal) return lognormal_sample(rng);   // device pipeline latencies, per I/O
    return sample_other(rng);
  }
  double mean() const;
  Kind kind() const { return kind_; }

 private:
  Distribution(Kind k, double a, double b);
  // Exp(1) draw whose first 64 bits `u` missed the rectangle test: tail, wedge or retry.
  double exp_rejected(RngStream& rng, std::uint64_t u) const;
  double sample_other(RngStream& rng) const;
  // exp(mu + sigma z), z standard normal by Box-Muller (one of the pair).
  double lognormal_sample(RngStream& rng) const {
    const double r = std::sqrt(-2.0 * std::log(rng.uniform_open0()));
    const double z = r * std::cos(2.0 * std::numbers::pi * rng.uniform01());
    return std::exp(a_ + b_ * z);
  }
  const ExpZigguratTables* zig_;   // shared immutable tables
  Kind kind_;
  double a_;
  double b_;
  std::vector<double> points_;
};

}  // namespace hcisim
