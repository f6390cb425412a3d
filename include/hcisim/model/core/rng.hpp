// Deterministic random-number streams. Each stream's state is derived from
// (seed, replication, stable name such as "host2/nvme1/service") by SplitMix64 over an
// FNV-1a hash of the name, never from creation order, so adding a device does not shift
// the numbers of any other. Generator: xoshiro256++ (Blackman & Vigna, 2019 [S136]).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hcisim {

/// 64-bit FNV-1a hash of a string (stable across platforms and runs).
std::uint64_t stable_hash(std::string_view text);
/// stable_hash as 16 lowercase hex digits (the accuracy table's inputs hash and fingerprint).
std::string stable_hash_hex(std::string_view text);

class RngStream {
 public:
  RngStream(std::uint64_t seed, std::uint64_t replication, std::string_view name);

  /// Next raw 64-bit output.
  std::uint64_t next_u64() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform on [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  /// Uniform on (0, 1]: safe for log().
  double uniform_open0() { return static_cast<double>((next_u64() >> 11) + 1) * 0x1.0p-53; }
  /// Uniform integer in [0, n) (Lemire's multiply-shift [S137], n > 0).
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<U128>(next_u64()) * n) >> 64);
  }

 private:
  __extension__ typedef unsigned __int128 U128;
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace hcisim
