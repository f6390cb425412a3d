// Time-weighted average of a piecewise-constant integer signal (queue length, busy servers,
// I/Os in flight): mean = (1/T) * integral of x(t) dt over the observation window
// [start, now]. The integral is kept exactly in integer units (count x ns), in 128 bits: a
// million jobs in flight for a day is 8.6e19, past 64 bits.
//
// A change by d at time t adds d x (now - t) to the integral at any later `now`, so the
// integral is value x now - sum of d x t over the changes (the value at the start counting
// as a change at the start). A change then costs one product and no read of the last
// change's time.
#pragma once

#include <cstdint>

#include "hcisim/core/units.hpp"

namespace hcisim {

class TimeWeighted {
 public:
  explicit TimeWeighted(Time start = Time::zero(), std::int64_t value = 0)
      : start_(start), value_(value), changes_(static_cast<Wide>(value) * start.count_ns()) {}

  /// The signal changes to `value` at time `now` (now >= last change).
  void set(Time now, std::int64_t value) {
    changes_ += (static_cast<Wide>(value) - value_) * now.count_ns();
    value_ = value;
  }
  void add(Time now, std::int64_t delta) {
    changes_ += static_cast<Wide>(delta) * now.count_ns();
    value_ += delta;
  }

  std::int64_t value() const { return value_; }
  /// Mean over [start, now]; the current value if the window is empty.
  double mean(Time now) const {
    const double span = static_cast<double>((now - start_).count_ns());
    if (span <= 0.0) return static_cast<double>(value_);
    return static_cast<double>(static_cast<Wide>(value_) * now.count_ns() - changes_) / span;
  }
  /// Warm-up cut: forget the past, keep the current value.
  void reset(Time now) { *this = TimeWeighted(now, value_); }

 private:
  __extension__ typedef __int128 Wide;
  Time start_;
  std::int64_t value_;
  Wide changes_;   // sum of (change x its time), the start value counting as a change
};

}  // namespace hcisim
