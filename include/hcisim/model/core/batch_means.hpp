// How precise a run is: 95 % confidence intervals for the completion rate and the mean
// latency by the method of non-overlapping batch means, and the end of the warm-up by MSER.
//
// The measured window is cut into batches of equal simulated width; each batch keeps its
// completions n_b and the sum of their latencies s_b. At most kMaxBatches are held: when full,
// neighbours merge in pairs and the width doubles (Fishman's LABATCH rule, "Discrete-Event
// Simulation", Springer 2001 [S131], section 6.7), so memory is fixed however long the run.
//
// Intervals (Law, "Simulation Modeling and Analysis", 5th ed. [S130], section 9.5.3):
//   rate:    the batch rates x_b = n_b / width are treated as independent and normal;
//            mean x̄, half-width t(0.975, k-1) * sd(x_b) / sqrt(k).
//   latency: the pooled mean R = sum s_b / sum n_b is a ratio estimator; its variance is
//            that of the residuals s_b - R n_b over k batches, divided by (mean n_b)^2
//            (the delta method; Law section 9.5.3, ratio estimators).
// Batches that are too short are correlated and the intervals come out too narrow. Before an
// interval is taken, neighbouring batches are merged in pairs (down to kMinBatches) until the
// lag-1 autocorrelation of both the rates and the latency residuals is below
// 1.645 / sqrt(k), the one-sided 5 % bound for k independent batches (the test LABATCH
// applies, in its large-sample form), and then once more: the test is weak with few batches,
// and on AR(1) series the extra merge lifts coverage from 84 to 87.5 % at little cost
// (batch_means_test).
//
// Warm-up (MSER, White 1997 [S132]; Hoad, Robinson and Davies 2010 [S133], who found MSER-5 the most
// reliable of 42 rules): for a series Y_1..Y_n of batch means, the truncation point d*
// minimises the squared standard error of the mean of what is left,
//   MSER(d) = sum_{i>d} (Y_i - mean_{i>d} Y)^2 / (n - d)^2,   0 <= d <= n/2.
// The search stops at n/2 (near the end MSER is small by chance, few batches being left); a
// minimum on that boundary means the series has not settled (Hoad et al.'s rule).
// MSER-5 batches raw observations by 5; here each batch already averages a time slice.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "hcisim/core/confidence_interval.hpp"
#include "hcisim/core/units.hpp"

namespace hcisim {

/// Student's t quantile t(p, df), df >= 1 (Boost.Math).
double student_t_quantile(double p, int df);

class BatchSeries {
 public:
  static constexpr int kMaxBatches = 128;
  static constexpr int kMinBatches = 8;

  /// Starts empty with batches `width` wide (> 0).
  explicit BatchSeries(Time width);

  /// The width of the next batch to add: twice the held batches' when kMaxBatches are held
  /// (they merge in pairs as it is added).
  Time width() const { return size() == kMaxBatches ? width_ * 2 : width_; }
  int size() const { return static_cast<int>(n_.size()); }
  std::uint64_t batch_completions(int i) const { return n_.at(static_cast<std::size_t>(i)); }
  /// Adds one batch of width() simulated time: `completions` and their summed latency.
  /// When kMaxBatches are held, merges them in pairs first (the width doubles).
  void add(std::uint64_t completions, std::int64_t latency_ns);
  /// Drops every batch, keeping the width.
  void clear();

  /// Completions per second over all batches held.
  double rate() const;
  /// Mean latency over all completions held, ms.
  double mean_latency_ms() const;
  /// Intervals after merging neighbours until the batches pass the lag-1 test (or
  /// kMinBatches is reached). Fewer than kMinBatches held: infinite half-widths.
  ConfidenceInterval rate_interval() const;
  ConfidenceInterval latency_interval_ms() const;
  /// True when the batches that give the intervals passed the lag-1 test.
  bool batches_independent() const;

  /// The MSER truncation point of the batch rates: how many leading batches to drop
  /// (0..size()/2; size()/2 means not settled). size() < 2: 0.
  int mser_truncation() const;
  /// The same for the batches' mean latencies (batches without completions are left out).
  int mser_truncation_latency() const;

 private:
  struct Grouped {
    std::vector<double> n, s;   // merged batches
    double width_s = 0;
    bool independent = false;
  };
  Grouped grouped() const;

  Time width_;
  std::vector<std::uint64_t> n_;
  std::vector<std::int64_t> s_;
};

}  // namespace hcisim
