// A 95 % confidence interval, as results carry it (batch means over a run's window, or the
// spread of replicated runs; model/core/batch_means.hpp computes them).
#pragma once

#include <limits>

namespace hcisim {

/// A 95 % confidence interval: mean +- half_width, from `batches` batches.
struct ConfidenceInterval {
  double mean = 0;
  double half_width = std::numeric_limits<double>::infinity();   // no interval: infinite
  int batches = 0;
  double batch_seconds = 0;   // width of one batch as used
  /// half_width / mean (infinite when the mean is 0).
  double relative() const;
  bool contains(double x) const { return x >= mean - half_width && x <= mean + half_width; }
};

}  // namespace hcisim
