// OSA write-buffer fill, coalescing and congestion (write_buffer.hpp).
#include "hcisim/model/storage/write_buffer.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"

namespace hcisim {

WriteBuffer::WriteBuffer(Bytes capacity, const OsaSettings& settings)
    : capacity_(static_cast<double>(capacity.count())), settings_(settings) {}

void WriteBuffer::set_time_compression(double k, bool idle) {
  if (!std::isfinite(k) || !(k >= 1.0)) check::fail("write buffer time compression", k, "a finite number >= 1");
  // End of aging. A buffer whose elevator ran while aging has reached its steady state: the
  // fill hovers at the destage threshold and the elevator drains what arrives. Aged destage
  // removes k bytes per byte written back, so it leaves the fill up to k batches below the
  // threshold, a gap real ingest takes many seconds to close; put the fill back at the
  // threshold so the measured window destages at the ingest rate, as the steady state does.
  // An idle buffer's elevator keeps the idle fill instead (no ingest refills it).
  if (k == 1.0 && k_ > 1.0 && destaged_while_aging_)
    set_dirty(std::max(dirty_, (idle ? settings_.destage_idle_fill : settings_.destage_start_fill) * capacity_));
  destaged_while_aging_ = false;
  k_ = k;
}

void WriteBuffer::set_dirty(double bytes) {
  const double limit = working_set_ > 0 ? std::min(capacity_, working_set_) : capacity_;
  dirty_ = std::clamp(bytes, 0.0, limit);
}

void WriteBuffer::destaged(double bytes) {
  dirty_ = std::max(0.0, dirty_ - k_ * bytes);
  if (k_ > 1.0) destaged_while_aging_ = true;
}

double WriteBuffer::congestion() const {
  const double span = settings_.congestion_full_fill - settings_.congestion_start_fill;
  return 255.0 * std::clamp((fill() - settings_.congestion_start_fill) / span, 0.0, 1.0);
}

Time WriteBuffer::congestion_delay() const {
  const double c = congestion();
  if (c <= 0) return Time::zero();
  return Time::round_ns(settings_.congestion_delay_a_us * 1e3 * std::exp(settings_.congestion_delay_b * c));
}

}  // namespace hcisim
