// Event loop of the engine: take the earliest event, advance the clock, dispatch.
#include "hcisim/model/core/engine.hpp"

#include <sstream>

#include "hcisim/core/check.hpp"

namespace hcisim {

void Engine::reject_past(Time at) const {
  std::ostringstream os;
  os << "schedule_at: at = " << at << " is in the past; expected a time >= now = " << now_;
  throw InvalidArgument(os.str());
}
void Engine::reject_negative(Time delay) {
  std::ostringstream os;
  os << "schedule_after: delay = " << delay << " is negative; expected a duration >= 0";
  throw InvalidArgument(os.str());
}
void Engine::reject_tag(EventTag tag) {
  check::fail("event tag", tag, "0..65534 (65535 is reserved for timers)");
}

TimerId Engine::schedule_cancelable_at(Time at, EventHandler& handler, EventTag tag, std::uint64_t arg) {
  if (at < now_) reject_past(at);
  if (tag == kTimerTag) reject_tag(tag);
  std::uint32_t slot;
  if (free_timers_.empty()) {
    slot = static_cast<std::uint32_t>(timers_.size());
    timers_.emplace_back();
  } else {
    slot = free_timers_.back();
    free_timers_.pop_back();
  }
  TimerSlot& s = timers_[slot];
  s.tag = tag;
  s.arg = arg;
  s.live = true;
  push(at, handler, kTimerTag, slot);
  return TimerId{slot, s.generation};
}

TimerId Engine::schedule_cancelable_after(Time delay, EventHandler& handler, EventTag tag, std::uint64_t arg) {
  if (delay < Time::zero()) reject_negative(delay);
  return schedule_cancelable_at(now_ + delay, handler, tag, arg);
}

bool Engine::cancel(TimerId id) {
  if (id.slot >= timers_.size()) return false;
  TimerSlot& s = timers_[id.slot];
  if (s.generation != id.generation || !s.live) return false;
  s.live = false;   // tombstone: the event is dropped when it reaches the top
  return true;
}

std::uint64_t Engine::loop(Time limit) {
  if (running_) throw InvalidArgument("Engine::run: called from inside an event handler; expected one loop at a time");
  running_ = true;
  stop_requested_ = false;
  const std::uint64_t fired_before = fired_;
  struct Guard {   // a throwing handler leaves the engine usable
    Engine& self;
    ~Guard() { self.running_ = false; }
  } guard{*this};
  Event e;
  while (!stop_requested_ && queue_.take_until(limit, e)) {
    now_ = e.time;
    EventTag tag = e.tag();
    std::uint64_t arg = e.arg;
    if (tag == kTimerTag) {
      TimerSlot& s = timers_[arg];
      bool live = s.live;
      tag = s.tag;
      std::uint64_t user_arg = s.arg;
      s.live = false;
      ++s.generation;
      free_timers_.push_back(static_cast<std::uint32_t>(arg));
      if (!live) continue;
      arg = user_arg;
    }
    if (hashing_) {
      // FNV-1a over (time, tag, arg).
      for (std::uint64_t w : {static_cast<std::uint64_t>(e.time.count_ns()), std::uint64_t{tag}, arg}) {
        for (int b = 0; b < 8; ++b) {
          trace_hash_ ^= (w >> (8 * b)) & 0xFFu;
          trace_hash_ *= 0x100000001b3ULL;
        }
      }
    }
    ++fired_;
    e.target->on_event(*this, tag, arg);
  }
  return fired_ - fired_before;
}

std::uint64_t Engine::run() { return loop(Time::max()); }

std::uint64_t Engine::run_until(Time until) {
  if (until < now_) reject_past(until);
  std::uint64_t n = loop(until);
  if (!stop_requested_) now_ = until;
  return n;
}

std::uint64_t Engine::run_for(Time duration) {
  if (duration < Time::zero()) reject_negative(duration);
  return run_until(now_ + duration);
}

}  // namespace hcisim
