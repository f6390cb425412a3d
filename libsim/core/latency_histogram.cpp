// Log-linear bucket arithmetic of LatencyHistogram (HdrHistogram layout, Tene 2012 [S140]).
#include "hcisim/core/latency_histogram.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

std::int64_t LatencyHistogram::bucket_low(std::size_t index) {
  const auto i = static_cast<std::int64_t>(index);
  if (i < kSub) return i;
  const std::int64_t e = i / kSub - 1;
  return (i - e * kSub) << e;
}

std::int64_t LatencyHistogram::bucket_width(std::size_t index) {
  const auto i = static_cast<std::int64_t>(index);
  if (i < kSub) return 1;
  return std::int64_t{1} << (i / kSub - 1);
}

void LatencyHistogram::reject_negative(std::int64_t ns) {
  check::fail("latency (ns)", ns, "a duration >= 0");
}

std::uint8_t LatencyHistogram::add_row(std::size_t row) {
  rows_.emplace_back();   // value-initialised: zeros
  row_slot_[row] = static_cast<std::uint8_t>(rows_.size());
  return row_slot_[row];
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (std::size_t r = 0; r < kRows; ++r) {
    const std::uint8_t from = other.row_slot_[r];
    if (from == 0) continue;
    std::uint8_t to = row_slot_[r];
    if (to == 0) to = add_row(r);
    Row& mine = rows_[to - 1u];
    const Row& theirs = other.rows_[from - 1u];
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] += theirs[i];
  }
  min_ = count_ ? std::min(min_, other.min_) : other.min_;
  max_ = count_ ? std::max(max_, other.max_) : other.max_;
  count_ += other.count_;
  sum_ += other.sum_;
}

void LatencyHistogram::reset() {
  for (Row& row : rows_) row.fill(0);
  count_ = 0;
  min_ = 0;
  max_ = 0;
  sum_ = 0.0;
}

Time LatencyHistogram::percentile(double q) const {
  if (!(q >= 0.0 && q <= 1.0)) check::fail("percentile q", q, "a number in [0, 1]");
  if (count_ == 0) return Time::zero();
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    if (row_slot_[i / kSub] == 0) {   // a row never touched: skip its 128 buckets
      i += static_cast<std::size_t>(kSub) - 1;
      continue;
    }
    seen += count_in(i);
    if (seen >= rank) {
      const std::int64_t mid = bucket_low(i) + bucket_width(i) / 2;
      return Time::ns(std::clamp(mid, min_, max_));
    }
  }
  return Time::ns(max_);
}

}  // namespace hcisim
