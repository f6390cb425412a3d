// Pending-event set of the engine: an adaptive calendar queue (Brown, "Calendar queues",
// CACM 31(10), 1988 [S124]). A ring of 2^13 time buckets of width 2^shift ns holds the near future;
// each bucket is a list sorted by (time, order), kept in a pool of nodes (no allocation per
// event in steady state). Events beyond the ring's window wait in a 4-ary heap and move into
// the ring as the window advances. The width adapts to the event density (too many events
// beyond the window: wider; crowded buckets: narrower). Pop order is exactly (time, order)
// whatever the width, so results never depend on the queue's tuning.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hcisim/model/core/event_heap.hpp"

namespace hcisim {

class EventQueue {
 public:
  static constexpr int kBucketBits = 13;
  static constexpr std::int64_t kBuckets = std::int64_t{1} << kBucketBits;

  EventQueue();

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  int bucket_shift() const { return shift_; }
  void reserve(std::size_t n) {
    events_.reserve(n);
    next_.reserve(kFirstNode + n);
  }

  void push(const Event& e) {
    ++size_;
    ++pushes_;
    if (!place<true>(e)) ++far_pushes_;
    // A push into an empty queue may leave the current bucket empty (the event's bucket is
    // later): take_until() and top() move on to it, so nothing is checked here.
  }

  /// The earliest event (queue must not be empty).
  const Event& top() {
    if (next_[slot_of(cur_)] == kNil) advance();
    return event(next_[slot_of(cur_)]);
  }

  /// Removes and returns the earliest event (queue must not be empty).
  Event take() {
    Event e;
    take_until(Time::max(), e);
    return e;
  }

  /// If the queue holds an event with time <= limit, moves the earliest one to `out` and
  /// returns true; otherwise returns false and leaves the queue as it was.
  bool take_until(Time limit, Event& out) {
    std::uint32_t n = next_[slot_of(cur_)];
    if (n == kNil) [[unlikely]] {   // empty, or only pushed to since it was
      if (size_ == 0) return false;
      advance();
      n = next_[slot_of(cur_)];
    }
    const std::size_t slot = slot_of(cur_);
    const Event& e = event(n);
    if (e.time > limit) return false;
    const std::uint32_t after = next_[n];
    next_[slot] = after;
    next_[n] = free_;
    free_ = n;
    --size_;
    out = e;
    // Whether the bucket just emptied is a coin toss at low density, so nothing branches on
    // it: the bookkeeping is masked, and the next bucket is taken from the same bitmap word.
    // Only the rare general case (no further bucket in this word) takes a branch to
    // advance(), which moves to the next non-empty bucket and makes the periodic width check
    // (the current bucket may also be empty after a push into an empty queue: take and top
    // move on then). A step inside the word may widen the window over a far
    // event; it can wait in the far heap until advance() pulls it, as it lies at least
    // kBuckets beyond the old current bucket, after every bucket of this word.
    const bool emptied = after == kNil;
    const std::int64_t empty_mask = -static_cast<std::int64_t>(emptied);   // all ones or zero
    // An emptied bucket gets its empty state; otherwise the same stores go to a spare List
    // (the address is masked: a plain `?:` compiles to a branch).
    const auto bucket = reinterpret_cast<std::uintptr_t>(&lists_[slot]);
    const auto spare = reinterpret_cast<std::uintptr_t>(&spare_);
    const auto to_bucket = static_cast<std::uintptr_t>(empty_mask);
    *reinterpret_cast<List*>((bucket & to_bucket) | (spare & ~to_bucket)) = List{static_cast<std::uint32_t>(slot), kEmptyTail};
    std::uint64_t& word = bits_[slot >> 6];
    word &= ~(std::uint64_t{emptied} << (slot & 63));
    const std::uint64_t above = word >> (slot & 63) >> 1;               // buckets cur_+1 ...
    // Buckets to the next non-empty one (65 if none in this word; only added when there is
    // one, so cur_ never runs past a queued event's bucket, even next to Time::max()).
    const std::int64_t step = 1 + std::countr_zero(above);
    if (emptied & (above == 0)) {
      if (size_ > 0) advance();
    } else {
      cur_ += step & empty_mask;
      activations_ += emptied;
    }
    return true;
  }

 private:
  static constexpr std::uint32_t kNil = 0xFFFFFFFFu;
  // next_[0, kBuckets) holds the buckets' heads, so a list starts at next_[slot] like any
  // node's successor; event nodes are numbered from kFirstNode.
  static constexpr std::uint32_t kFirstNode = static_cast<std::uint32_t>(kBuckets);
  static constexpr std::size_t kMask = static_cast<std::size_t>(kBuckets - 1);
  static constexpr int kMaxShift = 40;
  static constexpr std::uint64_t kCrowded = 2;
  static constexpr std::uint64_t kResizePeriod = 65536;   // pushes between width checks
                                                          // (made at the next advance())
  static constexpr std::uint64_t kWalkBudget = 8;   // sorted-walk steps per queued event
                                                    // between narrowing checks
  static constexpr std::int64_t kEmptyTail = INT64_MIN;   // tail_time of an empty bucket
  struct List {                   // a bucket; its head is next_[its slot]
    std::uint32_t tail;           // last node, or the bucket's slot (its head link) when empty
    std::int64_t tail_time;       // time of the tail event (appends need not touch its node);
                                  // kEmptyTail when empty, so every time appends
  };

  static std::size_t slot_of(std::int64_t bucket) { return static_cast<std::size_t>(bucket) & kMask; }
  Event& event(std::uint32_t n) { return events_[std::size_t{n} - kFirstNode]; }

  // Puts e in its bucket (buckets <= cur_ share the current one) or, beyond the window, in
  // the far heap; returns false in the latter case.
  template <bool Fresh>
  bool place(const Event& e) {
    const std::int64_t b = e.time.count_ns() >> shift_;
    if (b - cur_ >= kBuckets) {
      push_far(e.time, e.order, e.target, e.arg);   // by value: `e` can stay in registers
      return false;
    }
    insert<Fresh>(slot_of(b <= cur_ ? cur_ : b), e);
    return true;
  }

  // `Fresh`: e was just scheduled, so its order is larger than every queued event's and an
  // equal time means it goes after the tail. Events re-inserted from the far heap or by a
  // rebuild are not fresh and compare their full (time, order) key.
  template <bool Fresh>
  void insert(std::size_t slot, const Event& e) {
    std::uint32_t n = free_;
    if (n != kNil) free_ = next_[n];
    else n = new_node();
    event(n) = e;
    List& list = lists_[slot];
    const std::int64_t t = e.time.count_ns();
    // A fresh event goes after an equal-time tail (FIFO): one predictable compare.
    const bool append = Fresh ? t >= list.tail_time
                              : t > list.tail_time || (t == list.tail_time && !fires_before(e, event(list.tail)));
    if (append) {
      // Common: append (an empty bucket too, by its kEmptyTail and its tail at its head link).
      next_[n] = kNil;
      next_[list.tail] = n;
      list.tail = n;
      list.tail_time = t;
      bits_[slot >> 6] |= std::uint64_t{1} << (slot & 63);
    } else {
      insert_sorted(slot, n);
      // Long sorted walks mean crowded buckets (e.g. many events scheduled out of order
      // before the first take, when the periodic width check has not run yet). Only at a
      // push is the queue in a state a rebuild may start from.
      if (Fresh && walk_steps_ > kWalkBudget * size_ + 4096) narrow_crowded();
    }
  }
  // Rare paths, kept out of line so the inlined push needs few registers.
  [[gnu::noinline]] void push_far(Time time, std::uint64_t order, EventHandler* target, std::uint64_t arg);
  [[gnu::noinline]] std::uint32_t new_node();
  void insert_sorted(std::size_t slot, std::uint32_t n);
  void clear_buckets();
  [[gnu::noinline]] void narrow_crowded();
  void advance();   // the current bucket is empty: make the next non-empty one current
                    // (called with events queued; afterwards the current bucket holds some)
                    // and check the width every kResizePeriod pushes
  void maybe_resize();
  void rebuild(int new_shift, bool keep_window = false);

  int shift_ = 6;                 // bucket width 64 ns to start
  std::int64_t cur_ = 0;          // absolute index of the current bucket
  std::size_t size_ = 0;
  // Pool of list nodes as two arrays (32-byte events stay aligned to half a cache line);
  // node n's event is events_[n - kFirstNode] (see event()), and free_ threads the unused
  // nodes through next_, which starts with the buckets' heads.
  std::vector<Event> events_;
  std::vector<std::uint32_t> next_;
  std::uint32_t free_ = kNil;
  std::vector<List> lists_;       // ring of buckets, indexed by bucket & kMask (their slot)
  List spare_{};                  // written instead of a bucket that did not empty (take_until)
  std::array<std::uint64_t, kBuckets / 64> bits_{};   // non-empty buckets
  EventHeap far_;                 // buckets >= cur_ + kBuckets
  std::vector<Event> scratch_;    // reused by rebuild()
  // Adaptation counters over the current period.
  std::uint64_t pushes_ = 0, far_pushes_ = 0, activations_ = 0;
  // Sorted insertions and the list nodes they stepped over since the last rebuild.
  std::uint64_t walks_ = 0, walk_steps_ = 0;
};

}  // namespace hcisim
