// Slow paths of the calendar queue: sorted insertion inside a bucket, moving to the next
// non-empty bucket, pulling far events into the ring, and re-bucketing when the width no
// longer fits the event density.
#include "hcisim/core/event_queue.hpp"

#include <algorithm>
#include <bit>

namespace hcisim {

EventQueue::EventQueue() : lists_(static_cast<std::size_t>(kBuckets)) {}

void EventQueue::push_far(const Event& e) {
  far_.push(e);
  note_far_top();
}

std::uint32_t EventQueue::new_node(const Event& e) {
  nodes_.push_back(Node{e, kNil});
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void EventQueue::insert_sorted(List& list, std::uint32_t n) {
  const Event& e = nodes_[n].event;
  if (fires_before(e, nodes_[list.head].event)) {
    nodes_[n].next = list.head;
    list.head = n;
    return;
  }
  std::uint32_t prev = list.head;
  while (!fires_before(e, nodes_[nodes_[prev].next].event)) prev = nodes_[prev].next;
  nodes_[n].next = nodes_[prev].next;
  nodes_[prev].next = n;
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
    note_far_top();
    if (lists_[slot_of(cur_)].head != kNil) break;
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

void EventQueue::rebuild(int new_shift) {
  scratch_.clear();
  scratch_.insert(scratch_.end(), far_.items().begin(), far_.items().end());
  for (auto& list : lists_) {
    for (std::uint32_t n = list.head; n != kNil; n = nodes_[n].next) scratch_.push_back(nodes_[n].event);
    list = List{};
  }
  bits_.fill(0);
  far_.clear();
  nodes_.clear();
  free_ = kNil;
  const std::size_t count = size_;
  shift_ = new_shift;
  // Re-insert in firing order so every bucket list is built by appends.
  std::sort(scratch_.begin(), scratch_.end(), [](const Event& a, const Event& b) { return fires_before(a, b); });
  cur_ = scratch_.empty() ? cur_ : scratch_.front().time.count_ns() >> shift_;
  for (const Event& e : scratch_) place<false>(e);
  note_far_top();
  size_ = count;
  pushes_ = far_pushes_ = activations_ = 0;
}

}  // namespace hcisim
