// Batch means and MSER (batch_means.hpp).
#include "hcisim/model/core/batch_means.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {

double mean_of(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return x.empty() ? 0.0 : s / static_cast<double>(x.size());
}

// Sample variance (k - 1 in the denominator).
double variance_of(const std::vector<double>& x) {
  if (x.size() < 2) return 0;
  const double m = mean_of(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return ss / static_cast<double>(x.size() - 1);
}

// Lag-1 autocorrelation estimate, 0 for a constant series.
double lag1(const std::vector<double>& x) {
  const double m = mean_of(x);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    den += (x[i] - m) * (x[i] - m);
    if (i + 1 < x.size()) num += (x[i] - m) * (x[i + 1] - m);
  }
  return den > 0 ? num / den : 0.0;
}

// Latency residuals s_b - R n_b of the ratio estimator R = sum s / sum n.
std::vector<double> residuals(const std::vector<double>& n, const std::vector<double>& s) {
  double sn = 0, ss = 0;
  for (std::size_t i = 0; i < n.size(); ++i) sn += n[i], ss += s[i];
  const double r = sn > 0 ? ss / sn : 0.0;
  std::vector<double> out(n.size());
  for (std::size_t i = 0; i < n.size(); ++i) out[i] = s[i] - r * n[i];
  return out;
}

}  // namespace

double ConfidenceInterval::relative() const {
  return mean > 0 ? half_width / mean : std::numeric_limits<double>::infinity();
}

double student_t_quantile(double p, int df) {
  check::in_range(df, 1, 1 << 30, "t quantile degrees of freedom");
  return boost::math::quantile(boost::math::students_t_distribution<double>(df), p);
}

BatchSeries::BatchSeries(Time width) : width_(width) {
  check::positive(static_cast<double>(width.count_ns()), "batch width (ns)");
  n_.reserve(kMaxBatches);
  s_.reserve(kMaxBatches);
}

void BatchSeries::add(std::uint64_t completions, std::int64_t latency_ns) {
  if (size() == kMaxBatches) {
    for (int i = 0; i < kMaxBatches / 2; ++i) {
      const auto a = static_cast<std::size_t>(2 * i);
      n_[static_cast<std::size_t>(i)] = n_[a] + n_[a + 1];
      s_[static_cast<std::size_t>(i)] = s_[a] + s_[a + 1];
    }
    n_.resize(kMaxBatches / 2);
    s_.resize(kMaxBatches / 2);
    width_ = width_ * 2;
  }
  n_.push_back(completions);
  s_.push_back(latency_ns);
}

void BatchSeries::clear() {
  n_.clear();
  s_.clear();
}

double BatchSeries::rate() const {
  if (n_.empty()) return 0;
  double n = 0;
  for (std::uint64_t v : n_) n += static_cast<double>(v);
  return n / (width_.seconds() * static_cast<double>(n_.size()));
}

double BatchSeries::mean_latency_ms() const {
  double n = 0, s = 0;
  for (std::size_t i = 0; i < n_.size(); ++i) n += static_cast<double>(n_[i]), s += static_cast<double>(s_[i]);
  return n > 0 ? s / n * 1e-6 : 0.0;
}

BatchSeries::Grouped BatchSeries::grouped() const {
  Grouped g;
  g.width_s = width_.seconds();
  for (std::size_t i = 0; i < n_.size(); ++i) {
    g.n.push_back(static_cast<double>(n_[i]));
    g.s.push_back(static_cast<double>(s_[i]));
  }
  for (;;) {
    const std::size_t k = g.n.size();
    if (k < static_cast<std::size_t>(kMinBatches)) return g;
    const double bound = 1.645 / std::sqrt(static_cast<double>(k));
    std::vector<double> rates(g.n);
    const bool passed = lag1(rates) < bound && lag1(residuals(g.n, g.s)) < bound;
    if (g.independent || k / 2 < static_cast<std::size_t>(kMinBatches)) {
      g.independent = g.independent || passed;
      return g;
    }
    g.independent = passed;
    // Merge neighbours; an odd last batch is dropped from the interval (not from the mean).
    for (std::size_t i = 0; i < k / 2; ++i) {
      g.n[i] = g.n[2 * i] + g.n[2 * i + 1];
      g.s[i] = g.s[2 * i] + g.s[2 * i + 1];
    }
    g.n.resize(k / 2);
    g.s.resize(k / 2);
    g.width_s *= 2;
  }
}

bool BatchSeries::batches_independent() const { return grouped().independent; }

ConfidenceInterval BatchSeries::rate_interval() const {
  ConfidenceInterval ci;
  ci.mean = rate();
  const Grouped g = grouped();
  ci.batches = static_cast<int>(g.n.size());
  ci.batch_seconds = g.width_s;
  if (ci.batches < kMinBatches) return ci;
  std::vector<double> x(g.n);
  for (double& v : x) v /= g.width_s;
  ci.half_width = student_t_quantile(0.975, ci.batches - 1) * std::sqrt(variance_of(x) / ci.batches);
  return ci;
}

ConfidenceInterval BatchSeries::latency_interval_ms() const {
  ConfidenceInterval ci;
  ci.mean = mean_latency_ms();
  const Grouped g = grouped();
  ci.batches = static_cast<int>(g.n.size());
  ci.batch_seconds = g.width_s;
  const double n_bar = mean_of(g.n);
  if (ci.batches < kMinBatches || n_bar <= 0) return ci;
  const double var_ratio = variance_of(residuals(g.n, g.s)) / (n_bar * n_bar);
  ci.half_width = student_t_quantile(0.975, ci.batches - 1) * std::sqrt(var_ratio / ci.batches) * 1e-6;
  return ci;
}

namespace {

// MSER over y: argmin over d in [0, n/2] of sum_{i>d} (y_i - mean)^2 / (n - d)^2.
int mser(const std::vector<double>& y) {
  const std::size_t n = y.size();
  if (n < 2) return 0;
  // Suffix sums from the end: MSER(d) for every d in one pass.
  double sum = 0, sum_sq = 0, best = std::numeric_limits<double>::infinity();
  int best_d = 0;
  std::vector<double> value(n, 0.0);
  for (std::size_t j = n; j-- > 0;) {
    sum += y[j];
    sum_sq += y[j] * y[j];
    const double m = static_cast<double>(n - j);
    value[j] = std::max(0.0, sum_sq - sum * sum / m) / (m * m);
  }
  // Only the first half is searched: near the end MSER(d) is small by chance (few batches
  // left), the rule's known end effect. A minimum on the boundary, d = n/2, says unsettled.
  for (std::size_t d = 0; d <= n / 2; ++d)
    if (value[d] < best) {
      best = value[d];
      best_d = static_cast<int>(d);
    }
  return best_d;
}

}  // namespace

int BatchSeries::mser_truncation() const {
  std::vector<double> y;
  for (std::uint64_t v : n_) y.push_back(static_cast<double>(v));
  return mser(y);
}

int BatchSeries::mser_truncation_latency() const {
  std::vector<double> y;
  for (std::size_t i = 0; i < n_.size(); ++i)
    if (n_[i] > 0) y.push_back(static_cast<double>(s_[i]) / static_cast<double>(n_[i]));
  return mser(y) * static_cast<int>(n_.size()) / std::max<int>(1, static_cast<int>(y.size()));
}

}  // namespace hcisim
