// c identical servers taking jobs in arrival order, when each job's service time is known on
// arrival (devices, links). Then no event is needed per departure: a job starts at
//   start = max(arrival, earliest time a server is free)   (FIFO: jobs never overtake)
// on that server and finishes at start + service, so the caller schedules one event at the
// finish (plus any fixed latency). Arrivals must come in nondecreasing time order.
// Busy time counts whole reservations, so utilisation over a window that cuts a job includes
// its future part (negligible over long windows).
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "hcisim/core/units.hpp"

namespace hcisim {

class FifoServers {
 public:
  /// `servers` >= 1 (checked by the owner).
  explicit FifoServers(int servers) : free_at_(static_cast<std::size_t>(servers), Time::zero()) {}

  struct Slot {
    Time start;
    Time finish;
  };
  Slot reserve(Time arrival, Time service) {
    std::pop_heap(free_at_.begin(), free_at_.end(), std::greater<>{});
    const Time start = std::max(arrival, free_at_.back());
    free_at_.back() = start + service;
    std::push_heap(free_at_.begin(), free_at_.end(), std::greater<>{});
    busy_ += service;
    return {start, start + service};
  }

  int servers() const { return static_cast<int>(free_at_.size()); }
  /// Mean fraction of servers busy since the last reset.
  double utilisation(Time now) const {
    const double elapsed = static_cast<double>((now - since_).count_ns()) * static_cast<double>(free_at_.size());
    return elapsed > 0 ? static_cast<double>(busy_.count_ns()) / elapsed : 0.0;
  }
  void reset_stats(Time now) {
    busy_ = Time::zero();
    since_ = now;
  }

 private:
  std::vector<Time> free_at_;   // min-heap of the times each server becomes free
  Time busy_;
  Time since_;
};

}  // namespace hcisim
