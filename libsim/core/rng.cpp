// Stream seeding: SplitMix64 (Steele, Lea & Flood, OOPSLA 2014 [S135]) expands a 64-bit key into
// the 256-bit xoshiro state, as recommended by xoshiro's authors.
#include "hcisim/model/core/rng.hpp"

#include <cstdio>

namespace hcisim {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string stable_hash_hex(std::string_view text) {
  char out[32];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(stable_hash(text)));
  return out;
}

RngStream::RngStream(std::uint64_t seed, std::uint64_t replication, std::string_view name) {
  std::uint64_t key = seed;
  std::uint64_t mixed = splitmix64(key);
  key = mixed ^ replication;
  mixed = splitmix64(key);
  key = mixed ^ stable_hash(name);
  for (auto& word : s_) word = splitmix64(key);
}

}  // namespace hcisim
