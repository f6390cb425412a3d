// Samplers: exponential by the ziggurat method (Marsaglia & Tsang, "The Ziggurat Method for
// Generating Random Variables", J. Stat. Software 5(8), 2000 [S128]; 256 layers, 53-bit version),
// inversion for uniform/empirical, Box-Muller for the lognormal's normal (Law, "Simulation
// Modeling and Analysis", 5th ed., ch. 8).
#include "hcisim/model/core/distribution.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {

// Ziggurat tables for Exp(1): 256 equal-area layers. Immutable after construction, built
// once from the published constants r = 7.69711747013104972 (right edge of the base layer)
// and v = 3.949659822581572e-3 (area of each layer).
constexpr double kZigR = 7.69711747013104972;   // right edge of the base layer

// k: acceptance thresholds on the 53-bit draw, w: layer width / 2^53, f: exp(-x_i).
struct ExpZiggurat : ExpZigguratTables {
  static constexpr double kR = kZigR;
  static constexpr double kV = 3.949659822581572e-3;
  static constexpr double kScale = 9007199254740992.0;   // 2^53

  ExpZiggurat() {
    double de = kR;
    double te = de;
    const double q = kV / std::exp(-de);
    k[0] = static_cast<std::uint64_t>((de / q) * kScale);
    k[1] = 0;
    w[0] = q / kScale;
    w[255] = de / kScale;
    f[0] = 1.0;
    f[255] = std::exp(-de);
    for (int i = 254; i >= 1; --i) {
      de = -std::log(kV / de + std::exp(-de));
      k[static_cast<std::size_t>(i) + 1] = static_cast<std::uint64_t>((de / te) * kScale);
      te = de;
      f[static_cast<std::size_t>(i)] = std::exp(-de);
      w[static_cast<std::size_t>(i)] = de / kScale;
    }
  }

};

const ExpZiggurat& exp_ziggurat() {
  static const ExpZiggurat tables;   // immutable; thread-safe initialisation
  return tables;
}

}  // namespace

Distribution Distribution::deterministic(double value) {
  return Distribution(Kind::deterministic, check::non_negative(value, "deterministic value"), 0.0);
}

Distribution Distribution::exponential(double mean) {
  return Distribution(Kind::exponential, check::positive(mean, "exponential mean"), 0.0);
}

Distribution Distribution::uniform(double lo, double hi) {
  check::non_negative(lo, "uniform lo");
  check::non_negative(hi, "uniform hi");
  if (hi < lo) check::fail("uniform hi", hi, "a number >= lo");
  return Distribution(Kind::uniform, lo, hi);
}

Distribution Distribution::lognormal(double mean, double cv) {
  check::positive(mean, "lognormal mean");
  check::non_negative(cv, "lognormal cv");
  const double sigma2 = std::log1p(cv * cv);
  return Distribution(Kind::lognormal, std::log(mean) - sigma2 / 2.0, std::sqrt(sigma2));
}

Distribution Distribution::empirical(std::span<const double> points) {
  if (points.empty()) throw InvalidArgument("empirical points: empty; expected at least one value");
  Distribution d(Kind::empirical, 0.0, 0.0);
  d.points_.assign(points.begin(), points.end());
  for (double p : d.points_) check::non_negative(p, "empirical point");
  std::sort(d.points_.begin(), d.points_.end());
  return d;
}

Distribution::Distribution(Kind k, double a, double b) : zig_(&exp_ziggurat()), kind_(k), a_(a), b_(b) {}

// The ziggurat loop from a first draw u (Marsaglia & Tsang, section 2).
double Distribution::exp_rejected(RngStream& rng, std::uint64_t u) const {
  const ExpZigguratTables& z = *zig_;
  for (;;) {
    const std::size_t i = u & 0xFFu;
    const std::uint64_t j = u >> 11;   // 53 random bits
    if (j < z.k[i]) return static_cast<double>(j) * z.w[i];   // inside the layer's rectangle (~99%)
    if (i == 0) return kZigR - std::log(rng.uniform_open0());   // the tail beyond r
    const double x = static_cast<double>(j) * z.w[i];
    if (z.f[i] + rng.uniform01() * (z.f[i - 1] - z.f[i]) < std::exp(-x)) return x;   // wedge
    u = rng.next_u64();
  }
}

double Distribution::sample_other(RngStream& rng) const {
  switch (kind_) {
    case Kind::deterministic:
      return a_;
    case Kind::exponential:
      return a_ * exp_rejected(rng, rng.next_u64());
    case Kind::uniform:
      return a_ + (b_ - a_) * rng.uniform01();
    case Kind::lognormal:
      return lognormal_sample(rng);
    case Kind::empirical: {
      if (points_.size() == 1) return points_[0];
      const double x = rng.uniform01() * static_cast<double>(points_.size() - 1);
      const auto i = static_cast<std::size_t>(x);
      const double f = x - static_cast<double>(i);
      return points_[i] + f * (points_[i + 1] - points_[i]);
    }
  }
  return 0.0;
}

double Distribution::mean() const {
  switch (kind_) {
    case Kind::deterministic:
    case Kind::exponential:
      return a_;
    case Kind::uniform:
      return (a_ + b_) / 2.0;
    case Kind::lognormal:
      return std::exp(a_ + b_ * b_ / 2.0);
    case Kind::empirical: {
      if (points_.size() == 1) return points_[0];
      double sum = 0.0;
      for (std::size_t i = 0; i + 1 < points_.size(); ++i) sum += (points_[i] + points_[i + 1]) / 2.0;
      return sum / static_cast<double>(points_.size() - 1);
    }
  }
  return 0.0;
}

}  // namespace hcisim
