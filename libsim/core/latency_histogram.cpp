// Log-linear bucket arithmetic of LatencyHistogram (HdrHistogram layout, Tene 2012).
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

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  min_ = count_ ? std::min(min_, other.min_) : other.min_;
  max_ = count_ ? std::max(max_, other.max_) : other.max_;
  count_ += other.count_;
  sum_ += other.sum_;
}

void LatencyHistogram::reset() { *this = LatencyHistogram{}; }

Time LatencyHistogram::percentile(double q) const {
  if (!(q >= 0.0 && q <= 1.0)) check::fail("percentile q", q, "a number in [0, 1]");
  if (count_ == 0) return Time::zero();
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      const std::int64_t mid = bucket_low(i) + bucket_width(i) / 2;
      return Time::ns(std::clamp(mid, min_, max_));
    }
  }
  return Time::ns(max_);
}

}  // namespace hcisim
