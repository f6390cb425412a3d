// Conversions and printing of the strong quantity types.
#include "hcisim/core/units.hpp"

#include <cmath>
#include <iomanip>

#include "hcisim/core/check.hpp"

namespace hcisim {

Time Time::from_seconds(double s, const char* what) {
  if (!std::isfinite(s)) check::fail(what, s, "a finite number of seconds");
  const double ns = std::round(s * 1e9);
  if (std::fabs(ns) > 9.2e18) check::fail(what, s, "|seconds| < 9.2e9");
  return Time::ns(static_cast<std::int64_t>(ns));
}

Time transfer_time(Bytes b, Rate r) {
  if (!(r.bytes_per_s() > 0.0) || !std::isfinite(r.bytes_per_s()))
    check::fail("transfer rate (bytes/s)", r.bytes_per_s(), "a finite rate > 0");
  if (b.count() < 0) check::fail("transfer size (bytes)", b.count(), "a size >= 0");
  return Time::ns(static_cast<std::int64_t>(std::ceil(static_cast<double>(b.count()) * 1e9 / r.bytes_per_s())));
}

Bytes bytes_in(Rate r, Time t) {
  return Bytes{static_cast<std::int64_t>(std::floor(r.bytes_per_s() * t.seconds()))};
}

std::ostream& operator<<(std::ostream& os, Time t) {
  const std::int64_t n = t.count_ns();
  const std::int64_t a = n < 0 ? -n : n;
  if (a < 1'000) return os << n << " ns";
  if (a < 1'000'000) return os << t.us() << " us";
  if (a < 1'000'000'000) return os << t.ms() << " ms";
  return os << t.seconds() << " s";
}

std::ostream& operator<<(std::ostream& os, Bytes b) { return os << b.count() << " B"; }

std::ostream& operator<<(std::ostream& os, Rate r) { return os << r.mb_per_s() << " MB/s"; }

}  // namespace hcisim
