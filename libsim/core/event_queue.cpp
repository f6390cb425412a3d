// Slow paths of the calendar queue: sorted insertion inside a bucket, moving to the next
// non-empty bucket, pulling far events into the ring, and re-bucketing when the width no
// longer fits the event density.
#include "hcisim/model/core/event_queue.hpp"

#include <algorithm>
#include <bit>

namespace hcisim {

EventQueue::EventQueue() : lists_(static_cast<std::size_t>(kBuckets)) { clear_buckets(); }

// Every bucket empty: no heads, each tail at its head link.
void EventQueue::clear_buckets() {
  next_.assign(kFirstNode, kNil);
  for (std::size_t slot = 0; slot < lists_.size(); ++slot) lists_[slot] = List{static_cast<std::uint32_t>(slot), kEmptyTail};
  bits_.fill(0);
}

void EventQueue::push_far(Time time, std::uint64_t order, EventHandler* target, std::uint64_t arg) {
  far_.push(Event{time, order, target, arg});
}

std::uint32_t EventQueue::new_node() {
  events_.emplace_back();
  next_.push_back(kNil);
  return static_cast<std::uint32_t>(next_.size() - 1);
}

// Links node n into `slot`'s list before the first event it fires before (one exists: the
// tail's, or insert() would have appended).
void EventQueue::insert_sorted(std::size_t slot, std::uint32_t n) {
  const Event& e = event(n);
  ++walks_;
  std::uint32_t prev = next_[slot];   // the head
  if (fires_before(e, event(prev))) {
    next_[n] = prev;
    next_[slot] = n;
    return;
  }
  while (!fires_before(e, event(next_[prev]))) {
    prev = next_[prev];
    ++walk_steps_;
  }
  next_[n] = next_[prev];
  next_[prev] = n;
}

void EventQueue::narrow_crowded() {
  // A walk passes about half a bucket: narrow until buckets hold about kCrowded events.
  const std::uint64_t per_bucket = 2 * walk_steps_ / std::max<std::uint64_t>(walks_, 1);
  const int steps = static_cast<int>(std::bit_width(per_bucket / kCrowded)) - 1;
  walks_ = walk_steps_ = 0;
  if (steps > 0 && shift_ > 0) rebuild(std::max(0, shift_ - steps), true);
}

void EventQueue::advance() {
  for (;;) {
    if (size_ == far_.size()) {
      cur_ = far_.top().time.count_ns() >> shift_;   // nothing near: jump to the far future
    } else {
      // First non-empty bucket after cur_, scanning the bitmap circularly.
      const std::size_t here = slot_of(cur_);
      const std::size_t start = (here + 1) & kMask;
      std::size_t word = start >> 6;
      std::uint64_t bits = bits_[word] & (~std::uint64_t{0} << (start & 63));
      while (bits == 0) {
        word = (word + 1) & (bits_.size() - 1);
        bits = bits_[word];
      }
      const std::size_t slot = (word << 6) | static_cast<std::size_t>(std::countr_zero(bits));
      cur_ += static_cast<std::int64_t>((slot - here) & kMask);
    }
    // The window now reaches further: pull far events that fall inside it.
    while (!far_.empty() && (far_.top().time.count_ns() >> shift_) - cur_ < kBuckets) {
      const Event e = far_.top();
      far_.pop();
      place<false>(e);
    }
    if (next_[slot_of(cur_)] != kNil) break;
  }
  ++activations_;
  if (pushes_ >= kResizePeriod) maybe_resize();
}

void EventQueue::maybe_resize() {
  // Aim for at most kCrowded events per bucket (pushes per bucket activation, as every event
  // pushed is taken once) with fewer than 1/8 of events beyond the window. Guards keep the
  // two rules from fighting when the density cannot satisfy both.
  const bool spill = far_pushes_ * 8 > pushes_;
  const bool crowded = pushes_ > kCrowded * activations_;
  int target = shift_;
  if (spill && pushes_ < 4 * kCrowded * activations_ && shift_ < kMaxShift) ++target;
  else if (crowded && far_pushes_ * 32 < pushes_ && shift_ > 0) --target;
  pushes_ = far_pushes_ = activations_ = 0;
  if (target != shift_) rebuild(target);
}

// Re-buckets every event at width 2^new_shift. `keep_window`: never so narrow that the
// ring's window misses more than 1/8 of the queued events.
void EventQueue::rebuild(int new_shift, bool keep_window) {
  scratch_.clear();
  scratch_.insert(scratch_.end(), far_.items().begin(), far_.items().end());
  for (std::size_t slot = 0; slot < lists_.size(); ++slot) {
    for (std::uint32_t n = next_[slot]; n != kNil; n = next_[n]) scratch_.push_back(event(n));
  }
  clear_buckets();
  far_.clear();
  events_.clear();
  free_ = kNil;
  const std::size_t count = size_;
  // Re-insert in firing order so every bucket list is built by appends.
  std::sort(scratch_.begin(), scratch_.end(), [](const Event& a, const Event& b) { return fires_before(a, b); });
  if (keep_window && !scratch_.empty()) {
    const std::int64_t span = scratch_[scratch_.size() * 7 / 8].time.count_ns() - scratch_.front().time.count_ns();
    while (new_shift < shift_ && (span >> new_shift) >= kBuckets - 1) ++new_shift;
  }
  shift_ = new_shift;
  cur_ = scratch_.empty() ? cur_ : scratch_.front().time.count_ns() >> shift_;
  for (const Event& e : scratch_) place<false>(e);
  size_ = count;
  pushes_ = far_pushes_ = activations_ = 0;
  walks_ = walk_steps_ = 0;
}

}  // namespace hcisim
