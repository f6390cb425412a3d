// The unit of work of the engine: a small trivially-copyable record ordered by
// (time, insertion sequence), so events at the same instant fire in FIFO order.
#pragma once

#include <cstdint>
#include <type_traits>

#include "hcisim/core/units.hpp"

namespace hcisim {

class Engine;

/// A per-handler event kind (0..65534; 65535 is reserved by the engine).
using EventTag = std::uint16_t;

/// Anything that receives events: device queues, links, generators. Dispatch is one
/// virtual call; `tag` says which of the handler's events it is, `arg` carries its
/// payload (typically an index into a pool of per-request state).
class EventHandler {
 public:
  virtual void on_event(Engine& engine, EventTag tag, std::uint64_t arg) = 0;

 protected:
  EventHandler() = default;
  EventHandler(const EventHandler&) = default;
  EventHandler& operator=(const EventHandler&) = default;
  ~EventHandler() = default;
};

struct Event {
  Time time;
  std::uint64_t order;     // (insertion sequence << 16) | tag: unique, so ties fire FIFO
  EventHandler* target;
  std::uint64_t arg;

  EventTag tag() const { return static_cast<EventTag>(order & 0xFFFFu); }
};

/// Strict "fires before" order as one branch-free 128-bit compare of (time, order);
/// simulated times are never negative.
inline bool fires_before(const Event& a, const Event& b) {
  __extension__ typedef unsigned __int128 Key;
  const Key ka = (static_cast<Key>(static_cast<std::uint64_t>(a.time.count_ns())) << 64) | a.order;
  const Key kb = (static_cast<Key>(static_cast<std::uint64_t>(b.time.count_ns())) << 64) | b.order;
  return ka < kb;
}
static_assert(std::is_trivially_copyable_v<Event>, "events are copied by value in the heap");
static_assert(sizeof(Event) == 32, "keep events two per cache line");

/// Handle to a cancelable event (see Engine::schedule_cancelable_at).
struct TimerId {
  std::uint32_t slot = 0;
  std::uint32_t generation = 0;
};

}  // namespace hcisim
