// Per-request state lives in a vector of slots with a free list: a slot index travels in
// events and callbacks, and freed slots are reused, so nothing is allocated per event once
// the pool has grown to the peak number outstanding.
#pragma once

#include <cstdint>
#include <vector>

namespace hcisim {

/// Stores `value` in a free slot of `pool` (growing it only when none is free); returns the index.
/// Always inlined: it sits on every simulated I/O's path (as a call it costs more than it does).
template <class T>
[[gnu::always_inline]] inline std::uint32_t take_slot(std::vector<T>& pool, std::vector<std::uint32_t>& free, const T& value) {
  if (free.empty()) {
    pool.push_back(value);
    return static_cast<std::uint32_t>(pool.size() - 1);
  }
  const std::uint32_t i = free.back();
  free.pop_back();
  pool[i] = value;
  return i;
}

}  // namespace hcisim
