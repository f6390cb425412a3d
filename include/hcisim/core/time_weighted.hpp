// Time-weighted average of a piecewise-constant integer signal (queue length, busy servers,
// I/Os in flight): mean = (1/T) * integral of x(t) dt over the observation window
// [start, now]. The integral is kept exactly in integer units (count x ns), in 128 bits: a
// million jobs in flight for a day is 8.6e19, past 64 bits.
#pragma once

#include <cstdint>

#include "hcisim/core/units.hpp"

namespace hcisim {

class TimeWeighted {
 public:
  explicit TimeWeighted(Time start = Time::zero(), std::int64_t value = 0)
      : start_(start), last_(start), value_(value) {}

  /// The signal changes to `value` at time `now` (now >= last change).
  void set(Time now, std::int64_t value) {
    area_ += static_cast<Wide>(value_) * (now - last_).count_ns();
    last_ = now;
    value_ = value;
  }
  void add(Time now, std::int64_t delta) { set(now, value_ + delta); }

  std::int64_t value() const { return value_; }
  /// Mean over [start, now]; the current value if the window is empty.
  double mean(Time now) const {
    const double span = static_cast<double>((now - start_).count_ns());
    if (span <= 0.0) return static_cast<double>(value_);
    return static_cast<double>(area_ + static_cast<Wide>(value_) * (now - last_).count_ns()) / span;
  }
  /// Warm-up cut: forget the past, keep the current value.
  void reset(Time now) {
    start_ = last_ = now;
    area_ = 0;
  }

 private:
  __extension__ typedef __int128 Wide;
  Time start_;
  Time last_;
  std::int64_t value_;
  Wide area_ = 0;
};

}  // namespace hcisim
