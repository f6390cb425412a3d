// Time-weighted average of a piecewise-constant signal (queue length, busy servers):
// mean = (1/T) * integral of x(t) dt over the observation window [start, now].
#pragma once

#include "hcisim/core/units.hpp"

namespace hcisim {

class TimeWeighted {
 public:
  explicit TimeWeighted(Time start = Time::zero(), double value = 0.0)
      : start_(start), last_(start), value_(value) {}

  /// The signal changes to `value` at time `now` (now >= last change).
  void set(Time now, double value) {
    area_ += value_ * static_cast<double>((now - last_).count_ns());
    last_ = now;
    value_ = value;
  }
  void add(Time now, double delta) { set(now, value_ + delta); }

  double value() const { return value_; }
  /// Mean over [start, now]; the current value if the window is empty.
  double mean(Time now) const {
    const double span = static_cast<double>((now - start_).count_ns());
    if (span <= 0.0) return value_;
    return (area_ + value_ * static_cast<double>((now - last_).count_ns())) / span;
  }
  /// Warm-up cut: forget the past, keep the current value.
  void reset(Time now) {
    start_ = last_ = now;
    area_ = 0.0;
  }

 private:
  Time start_;
  Time last_;
  double value_;
  double area_ = 0.0;
};

}  // namespace hcisim
