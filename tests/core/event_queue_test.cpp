// The pending-event set pops events in exact (time, order) order, whatever the spread of
// times (same bucket, ring, far future) and across bucket-width changes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "hcisim/model/core/event_heap.hpp"
#include "hcisim/model/core/event_queue.hpp"
#include "hcisim/model/core/rng.hpp"

using namespace hcisim;

namespace {
bool by_fire_order(const Event& a, const Event& b) { return fires_before(a, b); }

// The calendar queue under test and a 4-ary heap as the reference, fed the same events
// (arg = insertion sequence, so a pop identifies its event).
struct QueueAndReference {
  EventQueue q;
  EventHeap ref;
  std::uint64_t seq = 0;
  void push(Time t) {
    const Event e{t, seq << 16, nullptr, seq};
    ++seq;
    q.push(e);
    ref.push(e);
  }
};
}  // namespace

TEST_CASE("4-ary heap pops in (time, order) order and replace_top equals pop + push", "[core]") {
  RngStream rng(7, 0, "heap");
  EventHeap h, ref;
  std::vector<Event> all;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    Event e{Time::ns(static_cast<std::int64_t>(rng.below(300))), i << 16, nullptr, i};
    all.push_back(e);
    h.push(e);
  }
  std::sort(all.begin(), all.end(), by_fire_order);
  for (const Event& expected : all) {
    REQUIRE(h.top().arg == expected.arg);
    h.pop();
  }
  CHECK(h.empty());
  std::uint64_t seq = 0;
  for (int i = 0; i < 1000; ++i) {
    Event e{Time::ns(static_cast<std::int64_t>(rng.below(1000))), seq++ << 16, nullptr, 0};
    h.push(e);
    ref.push(e);
  }
  for (int i = 0; i < 10000; ++i) {
    Event e{h.top().time + Time::ns(static_cast<std::int64_t>(rng.below(1000))), seq++ << 16, nullptr, 0};
    h.replace_top(e);
    ref.pop();
    ref.push(e);
    REQUIRE(h.top().order == ref.top().order);
  }
}

TEST_CASE("calendar queue matches a reference heap on a mixed hold workload", "[core]") {
  // Interleaved pushes and pops with delays spanning 0 ns .. 10 s (same bucket, ring and
  // far heap), bursts of simultaneous events, and density changes that force re-bucketing.
  RngStream rng(11, 0, "calendar");
  QueueAndReference m;
  Time now = Time::zero();
  for (int i = 0; i < 2000; ++i) m.push(Time::ns(static_cast<std::int64_t>(rng.below(5000))));
  int shifts_seen = 0, last_shift = m.q.bucket_shift();
  for (int step = 0; step < 400'000; ++step) {
    REQUIRE(m.q.size() == m.ref.size());
    const Event got = m.q.take();
    const Event want = m.ref.top();
    m.ref.pop();
    REQUIRE(got.arg == want.arg);
    REQUIRE(got.time >= now);
    now = got.time;
    const bool dense = (step / 50'000) % 2 == 0;   // alternate dense and sparse phases
    const std::uint64_t r = rng.below(100);
    std::int64_t delay = 0;
    if (r < 5) delay = 0;                                                        // same instant
    else if (r < 97) delay = static_cast<std::int64_t>(rng.below(dense ? 100 : 10'000'000));
    else if (r < 99) delay = static_cast<std::int64_t>(rng.below(50'000'000));   // 50 ms
    else delay = static_cast<std::int64_t>(rng.below(10'000'000'000));           // 10 s
    m.push(now + Time::ns(delay));
    if (r == 42 && m.ref.size() < 20'000) {
      for (int k = 0; k < 50; ++k) m.push(now + Time::ns(7));   // burst at one instant
    }
    if (m.q.bucket_shift() != last_shift) {
      ++shifts_seen;
      last_shift = m.q.bucket_shift();
    }
  }
  while (!m.ref.empty()) {
    REQUIRE(m.q.take().arg == m.ref.top().arg);
    m.ref.pop();
  }
  CHECK(m.q.empty());
  CHECK(shifts_seen >= 2);   // the width adapted both ways
}

TEST_CASE("calendar queue drained to empty and refilled keeps (time, order) order", "[core]") {
  // A push into an empty queue may leave the current bucket empty until the next top() or
  // take; this walks the cases that could go wrong there: refilling an empty queue in the
  // ring, only beyond the window (far heap), at the current instant, and take_until()
  // stopping at a limit before the next event.
  RngStream rng(5, 0, "refill");
  QueueAndReference m;
  Time now = Time::zero();
  for (int round = 0; round < 2000; ++round) {
    const std::uint64_t kind = rng.below(4);
    const int count = 1 + static_cast<int>(rng.below(5));
    for (int k = 0; k < count; ++k) {
      std::int64_t delay = 0;
      if (kind == 1) delay = static_cast<std::int64_t>(rng.below(1000));            // in the ring
      else if (kind == 2) delay = 1'000'000'000 + static_cast<std::int64_t>(rng.below(1000));   // far heap only
      else if (kind == 3) delay = static_cast<std::int64_t>(rng.below(3)) * 100'000;
      m.push(now + Time::ns(delay));
    }
    REQUIRE(m.q.top().arg == m.ref.top().arg);
    Event got;
    if (m.ref.top().time > now) {   // a limit just before the earliest event takes nothing
      REQUIRE_FALSE(m.q.take_until(m.ref.top().time - Time::ns(1), got));
      REQUIRE(m.q.size() == m.ref.size());
    }
    while (!m.ref.empty()) {   // drain completely
      REQUIRE(m.q.take_until(Time::max(), got));
      REQUIRE(got.arg == m.ref.top().arg);
      m.ref.pop();
      now = got.time;
    }
    REQUIRE(m.q.empty());
    REQUIRE_FALSE(m.q.take_until(Time::max(), got));
  }
}

TEST_CASE("calendar queue narrows crowded buckets before the first take", "[core]") {
  // 65536 events scheduled in random order over 10 us land ~400 to a 64 ns bucket at the
  // starting width; sorted insertion would walk O(n^2) nodes. Long walks narrow the
  // buckets at once (not only at the periodic width check, which needs takes), but never
  // so far that most events fall beyond the ring's window.
  RngStream rng(3, 0, "crowded");
  QueueAndReference m;
  const int start_shift = m.q.bucket_shift();
  for (int i = 0; i < 65536; ++i) m.push(Time::ns(static_cast<std::int64_t>(rng.below(10'000))));
  CHECK(m.q.bucket_shift() < start_shift);
  CHECK(m.q.bucket_shift() >= 0);
  // 3/4 of the burst within 10 us, 1/4 over 100 us: the dense part alone would narrow the
  // buckets to 1 ns, but then the ring's window (8192 buckets) would miss the sparse part.
  QueueAndReference wide;
  std::vector<std::int64_t> times;
  for (int i = 0; i < 65536; ++i) {
    times.push_back(static_cast<std::int64_t>(rng.below(i % 4 == 0 ? 100'000 : 10'000)));
    wide.push(Time::ns(times.back()));
  }
  std::sort(times.begin(), times.end());
  const std::int64_t span = times[times.size() * 7 / 8] - times.front();   // 7/8 of the events
  CHECK(wide.q.bucket_shift() > 0);
  CHECK(wide.q.bucket_shift() < start_shift);
  CHECK((span >> wide.q.bucket_shift()) < EventQueue::kBuckets);
  for (QueueAndReference* x : {&m, &wide}) {
    while (!x->ref.empty()) {
      REQUIRE(x->q.take().arg == x->ref.top().arg);
      x->ref.pop();
    }
    CHECK(x->q.empty());
  }
}

TEST_CASE("calendar queue takes an event at Time::max() with 1 ns buckets", "[core]") {
  // A "never" timeout at the end of time, behind a crowded burst that narrows the buckets to
  // 1 ns: the step to the next bucket must not overflow the bucket index (UBSan checks).
  RngStream rng(9, 0, "end-of-time");
  QueueAndReference m;
  for (int i = 0; i < 20000; ++i) m.push(Time::ns(static_cast<std::int64_t>(rng.below(64))));
  CHECK(m.q.bucket_shift() == 0);
  m.push(Time::max());
  m.push(Time::max());
  while (!m.ref.empty()) {
    REQUIRE(m.q.take().arg == m.ref.top().arg);
    m.ref.pop();
  }
  CHECK(m.q.empty());
}
