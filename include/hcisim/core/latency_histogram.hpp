// Bounded-memory, mergeable latency histogram with log-linear buckets (the HdrHistogram
// layout, Tene 2012): every power-of-two range of nanoseconds is split into 128 linear
// sub-buckets, so any recorded value is known to within 1/128 relative; percentiles report
// the bucket midpoint (error <= 0.4%). Range 1 ns .. 2^45 ns (~9.8 h); larger values clamp.
// Storage is by row (one power of two, 128 counters): a row is allocated the first time a
// value falls in it, so a histogram holds the 5-20 rows a run's latencies span (1 KB each)
// instead of all 39 (40 KB); every VM keeps two. reset() keeps the rows.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "hcisim/core/units.hpp"

namespace hcisim {

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 7;                          // 128 sub-buckets
  static constexpr std::int64_t kSub = std::int64_t{1} << kSubBits;
  static constexpr int kMaxBits = 45;                         // values >= 2^45 ns clamp
  static constexpr std::size_t kBuckets = static_cast<std::size_t>(kSub + (kMaxBits - kSubBits) * kSub);
  static constexpr std::size_t kRows = kBuckets / static_cast<std::size_t>(kSub);

  void record(Time latency) { record_ns(latency.count_ns()); }
  /// Inline: every simulated I/O records its latency.
  void record_ns(std::int64_t ns) {
    if (ns < 0) reject_negative(ns);
    const std::size_t b = bucket_of(ns);
    std::uint8_t slot = row_slot_[b / kSub];
    if (slot == 0) [[unlikely]] slot = add_row(b / kSub);
    ++rows_[slot - 1u][b % kSub];
    if (count_ == 0 || ns < min_) min_ = ns;
    if (count_ == 0 || ns > max_) max_ = ns;
    ++count_;
    sum_ += static_cast<double>(ns);
  }
  /// Adds every sample of `other` (histograms of VMs pool into a cluster histogram).
  void merge(const LatencyHistogram& other);
  /// Empties the histogram; its rows stay allocated for the next window.
  void reset();
  /// Rows allocated (1 KB each): the memory the counters take.
  std::size_t rows() const { return rows_.size(); }

  std::uint64_t count() const { return count_; }
  Time min() const { return Time::ns(count_ ? min_ : 0); }
  Time max() const { return Time::ns(count_ ? max_ : 0); }
  /// Mean of the exact recorded values (sums are kept exactly, not from buckets).
  double mean_ns() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
  /// The q-quantile (0 <= q <= 1) by nearest rank: the smallest recorded value v with
  /// at least ceil(q * count) samples <= v, reported as its bucket's midpoint.
  Time percentile(double q) const;

  static std::size_t bucket_of(std::int64_t ns) {
    if (ns < kSub) return static_cast<std::size_t>(ns);
    const std::int64_t top = (std::int64_t{1} << kMaxBits) - 1;
    const auto v = static_cast<std::uint64_t>(std::min(ns, top));
    const int msb = 63 - std::countl_zero(v);
    const int e = msb - kSubBits;
    return static_cast<std::size_t>(e) * static_cast<std::size_t>(kSub) + static_cast<std::size_t>(v >> e);
  }
  static std::int64_t bucket_low(std::size_t index);
  static std::int64_t bucket_width(std::size_t index);

 private:
  [[noreturn]] static void reject_negative(std::int64_t ns);
  using Row = std::array<std::uint64_t, static_cast<std::size_t>(kSub)>;
  // Allocates row `row` (zeroed) and returns its slot (index in rows_ + 1).
  std::uint8_t add_row(std::size_t row);
  std::uint64_t count_in(std::size_t bucket) const {
    const std::uint8_t slot = row_slot_[bucket / kSub];
    return slot == 0 ? 0 : rows_[slot - 1u][bucket % kSub];
  }

  std::array<std::uint8_t, kRows> row_slot_{};   // 0: row not allocated; else index in rows_ + 1
  std::vector<Row> rows_;
  std::uint64_t count_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
  double sum_ = 0.0;   // exact up to 2^53 ns in total
};

}  // namespace hcisim
