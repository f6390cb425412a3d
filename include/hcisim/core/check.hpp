// Argument checks shared by every layer: API misuse throws InvalidArgument naming the
// argument, the value received and the allowed range.
#pragma once

#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hcisim {

/// Thrown on bad input. what() names the argument (or file/key), the value and what is allowed.
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace check {

template <class T>
[[noreturn]] void fail(std::string_view name, const T& value, std::string_view allowed) {
  std::ostringstream os;
  os << name << " = " << value << " is not allowed; expected " << allowed;
  throw InvalidArgument(os.str());
}

/// A finite number (not NaN, not +-inf).
inline double finite(double v, std::string_view name) {
  if (!std::isfinite(v)) fail(name, v, "a finite number");
  return v;
}
/// A finite number > 0.
inline double positive(double v, std::string_view name) {
  if (!std::isfinite(v) || !(v > 0.0)) fail(name, v, "a finite number > 0");
  return v;
}
/// A finite number >= 0.
inline double non_negative(double v, std::string_view name) {
  if (!std::isfinite(v) || !(v >= 0.0)) fail(name, v, "a finite number >= 0");
  return v;
}
/// A number in (0, hi]: upper bounds keep scale factors and times from overflowing the
/// simulator's int64 nanoseconds and bytes (a gc factor of 1e13 once did, in a message that
/// named no key).
inline double positive_at_most(double v, double hi, std::string_view name) {
  if (!std::isfinite(v) || !(v > 0.0) || !(v <= hi)) {
    std::ostringstream allowed;
    allowed << "a number > 0 and <= " << hi;
    fail(name, v, allowed.str());
  }
  return v;
}
/// A number in [0, hi].
inline double non_negative_at_most(double v, double hi, std::string_view name) {
  if (!std::isfinite(v) || !(v >= 0.0) || !(v <= hi)) {
    std::ostringstream allowed;
    allowed << "a number in [0, " << hi << "]";
    fail(name, v, allowed.str());
  }
  return v;
}
[[noreturn, gnu::cold, gnu::noinline]] inline void fail_range(std::int64_t v, std::int64_t lo, std::int64_t hi,
                                                              std::string_view name) {
  std::ostringstream allowed;
  allowed << "an integer in [" << lo << ", " << hi << "]";
  fail(name, v, allowed.str());
}
/// An integer in [lo, hi]. Small enough to inline on hot paths; the message is built out of line.
inline std::int64_t in_range(std::int64_t v, std::int64_t lo, std::int64_t hi, std::string_view name) {
  if (v < lo || v > hi) [[unlikely]] fail_range(v, lo, hi, name);
  return v;
}

}  // namespace check
}  // namespace hcisim
