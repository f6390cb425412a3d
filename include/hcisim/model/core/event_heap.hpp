// A flat 4-ary min-heap of events on a std::vector. 4-ary heaps touch fewer cache lines per
// level than binary heaps (LaMarca & Ladner, "The influence of caches on the performance of
// heaps", JEA 1996 [S125]). EventQueue uses it for the current bucket and the far future.
#pragma once

#include <cstddef>
#include <vector>

#include "hcisim/model/core/event.hpp"

namespace hcisim {

class EventHeap {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  void reserve(std::size_t n) { heap_.reserve(n); }
  void clear() { heap_.clear(); }

  void push(const Event& e) {
    std::size_t i = heap_.size();
    heap_.push_back(e);
    sift_up(i, e);
  }

  void pop() {
    Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0, last);
  }

  /// Removes the top and inserts `e` in one sift.
  void replace_top(const Event& e) { sift_down(0, e); }
  /// Read access for bulk moves (order is heap order, not sorted).
  const std::vector<Event>& items() const { return heap_; }

 private:
  static constexpr std::size_t kArity = 4;

  void sift_up(std::size_t i, const Event& e) {
    Event* h = heap_.data();
    while (i > 0) {
      std::size_t parent = (i - 1) / kArity;
      if (!less(e, h[parent])) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = e;
  }

  static bool less(const Event& a, const Event& b) { return fires_before(a, b); }

  // Bottom-up sift (Wegener 1993 [S126]): walk the hole down along the smallest children to a
  // leaf without comparing against `e` (predictable loop, min-of-4 by tournament), then
  // sift `e` up from there. New hold-model events mostly belong near the leaves.
  void sift_down(std::size_t i, const Event& e) {
    Event* h = heap_.data();
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t c = i * kArity + 1;
      std::size_t best;
      if (c + kArity <= n) {
        const std::size_t b01 = less(h[c + 1], h[c]) ? c + 1 : c;
        const std::size_t b23 = less(h[c + 3], h[c + 2]) ? c + 3 : c + 2;
        best = less(h[b23], h[b01]) ? b23 : b01;
      } else if (c < n) {
        best = c;
        for (std::size_t k = c + 1; k < n; ++k) best = less(h[k], h[best]) ? k : best;
      } else {
        break;
      }
      h[i] = h[best];
      i = best;
    }
    sift_up(i, e);
  }

  std::vector<Event> heap_;
};

}  // namespace hcisim
