// Strong quantity types: simulated time (integer nanoseconds), data size (integer bytes)
// and data rate (bytes per second). Literals: 10_us, 4_KiB, 25_Gbps, 2000_MBps.
// Network rates are in bits per second on the wire (1 Gbps = 1e9 bit/s, IEEE 802.3);
// device bandwidths are in decimal MB/s as datasheets state them (1 MB = 1e6 bytes).
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>

namespace hcisim {

/// Simulated time or duration, an exact count of nanoseconds.
class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ns(std::int64_t n) { return Time{n}; }
  static constexpr Time zero() { return Time{0}; }
  static constexpr Time max() { return Time{std::numeric_limits<std::int64_t>::max()}; }
  /// From seconds, rounded to the nearest nanosecond; rejects NaN, infinities and overflow.
  static Time from_seconds(double s, const char* what = "time");
  static Time from_us(double us, const char* what = "time") { return from_seconds(us * 1e-6, what); }
  static Time from_ms(double ms, const char* what = "time") { return from_seconds(ms * 1e-3, what); }
  /// A sampled duration in nanoseconds (finite, >= 0), rounded to the nearest ns. Unchecked:
  /// for the per-event path, where the distribution already guarantees the range.
  static constexpr Time round_ns(double ns) { return Time{static_cast<std::int64_t>(ns + 0.5)}; }

  constexpr std::int64_t count_ns() const { return ns_; }
  constexpr double seconds() const { return static_cast<double>(ns_) * 1e-9; }
  constexpr double ms() const { return static_cast<double>(ns_) * 1e-6; }
  constexpr double us() const { return static_cast<double>(ns_) * 1e-3; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time{ns_ + o.ns_}; }
  constexpr Time operator-(Time o) const { return Time{ns_ - o.ns_}; }
  constexpr Time& operator+=(Time o) { ns_ += o.ns_; return *this; }
  constexpr Time& operator-=(Time o) { ns_ -= o.ns_; return *this; }
  constexpr Time operator*(std::int64_t k) const { return Time{ns_ * k}; }
  constexpr Time operator/(std::int64_t k) const { return Time{ns_ / k}; }
  constexpr double operator/(Time o) const { return static_cast<double>(ns_) / static_cast<double>(o.ns_); }

 private:
  constexpr explicit Time(std::int64_t n) : ns_(n) {}
  std::int64_t ns_ = 0;
};

/// An amount of data, an exact count of bytes.
class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(std::int64_t n) : n_(n) {}
  constexpr std::int64_t count() const { return n_; }
  constexpr double kib() const { return static_cast<double>(n_) / 1024.0; }
  constexpr double mib() const { return static_cast<double>(n_) / (1024.0 * 1024.0); }
  constexpr double gb() const { return static_cast<double>(n_) * 1e-9; }

  constexpr auto operator<=>(const Bytes&) const = default;
  constexpr Bytes operator+(Bytes o) const { return Bytes{n_ + o.n_}; }
  constexpr Bytes operator-(Bytes o) const { return Bytes{n_ - o.n_}; }
  constexpr Bytes& operator+=(Bytes o) { n_ += o.n_; return *this; }
  constexpr Bytes& operator-=(Bytes o) { n_ -= o.n_; return *this; }
  constexpr Bytes operator*(std::int64_t k) const { return Bytes{n_ * k}; }
  constexpr Bytes operator/(std::int64_t k) const { return Bytes{n_ / k}; }
  constexpr double operator/(Bytes o) const { return static_cast<double>(n_) / static_cast<double>(o.n_); }

 private:
  std::int64_t n_ = 0;
};

/// A data rate in bytes per second.
class Rate {
 public:
  constexpr Rate() = default;
  static constexpr Rate bytes_per_second(double v) { return Rate{v}; }
  static constexpr Rate bits_per_second(double v) { return Rate{v / 8.0}; }
  constexpr double bytes_per_s() const { return bps_; }
  constexpr double bits_per_s() const { return bps_ * 8.0; }
  constexpr double mb_per_s() const { return bps_ * 1e-6; }
  constexpr double gbit_per_s() const { return bps_ * 8e-9; }

  constexpr auto operator<=>(const Rate&) const = default;
  constexpr Rate operator*(double k) const { return Rate{bps_ * k}; }
  constexpr Rate operator/(double k) const { return Rate{bps_ / k}; }
  constexpr Rate operator+(Rate o) const { return Rate{bps_ + o.bps_}; }
  constexpr double operator/(Rate o) const { return bps_ / o.bps_; }

 private:
  constexpr explicit Rate(double v) : bps_(v) {}
  double bps_ = 0.0;
};

/// Time to move `b` at rate `r`, rounded up to the next nanosecond (never zero for b > 0).
Time transfer_time(Bytes b, Rate r);
/// Bytes moved at rate `r` during `t` (rounded down).
Bytes bytes_in(Rate r, Time t);

std::ostream& operator<<(std::ostream& os, Time t);
std::ostream& operator<<(std::ostream& os, Bytes b);
std::ostream& operator<<(std::ostream& os, Rate r);

namespace literals {
constexpr Time operator""_ns(unsigned long long v) { return Time::ns(static_cast<std::int64_t>(v)); }
constexpr Time operator""_us(unsigned long long v) { return Time::ns(static_cast<std::int64_t>(v) * 1'000); }
constexpr Time operator""_ms(unsigned long long v) { return Time::ns(static_cast<std::int64_t>(v) * 1'000'000); }
constexpr Time operator""_s(unsigned long long v) { return Time::ns(static_cast<std::int64_t>(v) * 1'000'000'000); }
constexpr Time operator""_us(long double v) { return Time::ns(static_cast<std::int64_t>(v * 1e3L + 0.5L)); }
constexpr Time operator""_ms(long double v) { return Time::ns(static_cast<std::int64_t>(v * 1e6L + 0.5L)); }
constexpr Time operator""_s(long double v) { return Time::ns(static_cast<std::int64_t>(v * 1e9L + 0.5L)); }

constexpr Bytes operator""_B(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v)}; }
constexpr Bytes operator""_KiB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) << 10}; }
constexpr Bytes operator""_MiB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) << 20}; }
constexpr Bytes operator""_GiB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) << 30}; }
constexpr Bytes operator""_TiB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) << 40}; }
constexpr Bytes operator""_KB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) * 1'000}; }
constexpr Bytes operator""_MB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) * 1'000'000}; }
constexpr Bytes operator""_GB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) * 1'000'000'000}; }
constexpr Bytes operator""_TB(unsigned long long v) { return Bytes{static_cast<std::int64_t>(v) * 1'000'000'000'000}; }

constexpr Rate operator""_Mbps(unsigned long long v) { return Rate::bits_per_second(static_cast<double>(v) * 1e6); }
constexpr Rate operator""_Gbps(unsigned long long v) { return Rate::bits_per_second(static_cast<double>(v) * 1e9); }
constexpr Rate operator""_MBps(unsigned long long v) { return Rate::bytes_per_second(static_cast<double>(v) * 1e6); }
constexpr Rate operator""_GBps(unsigned long long v) { return Rate::bytes_per_second(static_cast<double>(v) * 1e9); }
}  // namespace literals

}  // namespace hcisim
