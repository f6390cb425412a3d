// The discrete-event engine: a clock, a pending-event set and a dispatch loop. An Engine is
// an ordinary object (no globals), so replications and sweep points run in parallel threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hcisim/model/core/event.hpp"
#include "hcisim/model/core/event_queue.hpp"
#include "hcisim/core/units.hpp"

namespace hcisim {

class Engine {
 public:
  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Time now() const { return now_; }

  /// Fires `handler.on_event(*this, tag, arg)` at absolute time `at` (>= now()).
  void schedule_at(Time at, EventHandler& handler, EventTag tag = 0, std::uint64_t arg = 0) {
    if (at < now_) reject_past(at);
    if (tag == kTimerTag) reject_tag(tag);
    push(at, handler, tag, arg);
  }
  /// Fires after `delay` (>= 0) from now().
  void schedule_after(Time delay, EventHandler& handler, EventTag tag = 0, std::uint64_t arg = 0) {
    if (delay < Time::zero()) reject_negative(delay);
    if (tag == kTimerTag) reject_tag(tag);
    push(now_ + delay, handler, tag, arg);
  }

  /// Like schedule_at, but returns a handle that cancel() accepts.
  TimerId schedule_cancelable_at(Time at, EventHandler& handler, EventTag tag = 0, std::uint64_t arg = 0);
  TimerId schedule_cancelable_after(Time delay, EventHandler& handler, EventTag tag = 0, std::uint64_t arg = 0);
  /// Cancels a pending cancelable event. Returns false if it already fired or was cancelled.
  bool cancel(TimerId id);

  /// Runs until no event is pending or stop() is called. Returns the events fired.
  std::uint64_t run();
  /// Fires every event with time <= `until`, then sets now() = until (unless stopped).
  std::uint64_t run_until(Time until);
  /// run_until(now() + duration).
  std::uint64_t run_for(Time duration);
  /// Makes the running loop return after the current event.
  void stop() { stop_requested_ = true; }

  /// Events waiting to fire (cancelled ones still count until they reach the top).
  std::size_t pending() const { return queue_.size(); }
  std::uint64_t events_fired() const { return fired_; }
  void reserve(std::size_t events) { queue_.reserve(events); }

  /// When on, every fired event (time, tag, arg) is folded into trace_hash(): two runs are
  /// identical iff their hashes match (used by the determinism tests).
  void enable_trace_hash(bool on) { hashing_ = on; }
  std::uint64_t trace_hash() const { return trace_hash_; }

 private:
  static constexpr EventTag kTimerTag = 0xFFFF;
  struct TimerSlot {
    std::uint32_t generation = 0;
    EventTag tag = 0;
    bool live = false;
    std::uint64_t arg = 0;
  };

  void push(Time at, EventHandler& handler, EventTag tag, std::uint64_t arg) {
    queue_.push(Event{at, (next_seq_++ << 16) | tag, &handler, arg});
  }
  [[noreturn]] void reject_past(Time at) const;
  [[noreturn]] static void reject_negative(Time delay);
  [[noreturn]] static void reject_tag(EventTag tag);
  std::uint64_t loop(Time limit);

  EventQueue queue_;
  Time now_ = Time::zero();
  std::uint64_t next_seq_ = 0;
  std::uint64_t fired_ = 0;
  bool running_ = false;
  bool stop_requested_ = false;
  bool hashing_ = false;
  std::uint64_t trace_hash_ = 0xcbf29ce484222325ULL;
  std::vector<TimerSlot> timers_;
  std::vector<std::uint32_t> free_timers_;
};

}  // namespace hcisim
