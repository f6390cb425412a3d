// c identical servers taking jobs in arrival order, when each job's service time is known on
// arrival (devices, links). Then no event is needed per departure: a job starts at
//   start = max(arrival, earliest time a server is free)   (FIFO: jobs never overtake)
// on that server and finishes at start + service, so the caller schedules one event at the
// finish (plus any fixed latency). Arrivals must come in nondecreasing time order.
// Busy time counts whole reservations; utilisation over a window counts the work carried in
// from before it and leaves out the part of reserved work still ahead (each server taken as
// busy from now until its free time), so it stays within [0, 1].
#pragma once

#include <algorithm>
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
    // The job takes the server free first (the heap's root); its new free time is no
    // earlier, so one sift-down restores the heap (a pop + push would sift twice).
    const Time first_free = free_at_[0];
    const Time start = arrival < first_free ? first_free : arrival;
    const Time finish = start + service;
    sift_down_root(finish);
    busy_ += service;
    return {start, finish};
  }

  int servers() const { return static_cast<int>(free_at_.size()); }
  /// When the next job could start: the earliest time a server is free.
  Time first_free() const { return free_at_[0]; }
  /// Mean fraction of servers busy since the last reset.
  double utilisation(Time now) const {
    const double elapsed = static_cast<double>((now - since_).count_ns()) * static_cast<double>(free_at_.size());
    if (!(elapsed > 0)) return 0.0;
    const double busy = static_cast<double>((busy_ - ahead(now)).count_ns());
    return std::clamp(busy / elapsed, 0.0, 1.0);
  }
  void reset_stats(Time now) {
    busy_ = ahead(now);   // work reserved before the window that runs inside it
    since_ = now;
  }

 private:
  // Reserved work still ahead of `now`, over all servers.
  Time ahead(Time now) const {
    Time t = Time::zero();
    for (Time f : free_at_)
      if (now < f) t += f - now;
    return t;
  }
  // Replaces the root of the min-heap by `t` (>= the root) and restores the heap order.
  void sift_down_root(Time t) {
    const std::size_t n = free_at_.size();
    Time* h = free_at_.data();
    std::size_t i = 0;
    for (std::size_t c = 1; c < n; c = 2 * i + 1) {
      Time child = h[c];
      if (c + 1 < n && h[c + 1] < child) child = h[++c];   // the smaller child
      if (!(child < t)) break;
      h[i] = child;
      i = c;
    }
    h[i] = t;
  }

  std::vector<Time> free_at_;   // min-heap of the times each server becomes free
  Time busy_;
  Time since_;
};

}  // namespace hcisim
