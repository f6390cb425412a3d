// Engine semantics: FIFO ties, run_until/run_for/stop, cancellation, and API misuse errors.
#include <catch2/catch.hpp>

#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/engine.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {
struct Recorder final : EventHandler {
  std::vector<std::uint64_t> fired;
  std::vector<Time> when;
  void on_event(Engine& e, EventTag, std::uint64_t arg) override {
    fired.push_back(arg);
    when.push_back(e.now());
  }
};
struct Chain final : EventHandler {   // each event schedules the next one 1 us later
  int left = 0;
  void on_event(Engine& e, EventTag, std::uint64_t) override {
    if (--left > 0) e.schedule_after(1_us, *this);
  }
};
}  // namespace

TEST_CASE("events at the same time fire in the order they were scheduled", "[core]") {
  Engine engine;
  Recorder r;
  for (std::uint64_t i = 0; i < 100; ++i) engine.schedule_at(5_us, r, 0, i);
  engine.schedule_at(1_us, r, 0, 1000);
  engine.run();
  REQUIRE(r.fired.size() == 101);
  CHECK(r.fired[0] == 1000);
  for (std::uint64_t i = 0; i < 100; ++i) CHECK(r.fired[i + 1] == i);
  CHECK(engine.now() == 5_us);
}

TEST_CASE("run_until fires events up to and including the limit and advances the clock", "[core]") {
  Engine engine;
  Recorder r;
  engine.schedule_at(1_ms, r, 0, 1);
  engine.schedule_at(2_ms, r, 0, 2);
  engine.schedule_at(3_ms, r, 0, 3);
  CHECK(engine.run_until(2_ms) == 2);
  CHECK(engine.now() == 2_ms);
  CHECK(engine.pending() == 1);
  CHECK(engine.run_for(5_ms) == 1);
  CHECK(engine.now() == 7_ms);
  CHECK(engine.events_fired() == 3);
}

TEST_CASE("chains of events run through replace-top and stop() interrupts", "[core]") {
  Engine engine;
  Chain c;
  c.left = 1000;
  engine.schedule_at(0_us, c);
  CHECK(engine.run() == 1000);
  CHECK(engine.now() == 999_us);

  struct Stopper final : EventHandler {
    void on_event(Engine& e, EventTag, std::uint64_t arg) override {
      if (arg == 3) e.stop();
    }
  } s;
  Engine e2;
  for (std::uint64_t i = 0; i < 10; ++i) e2.schedule_at(Time::ns(static_cast<std::int64_t>(i)), s, 0, i);
  CHECK(e2.run() == 4);
  CHECK(e2.pending() == 6);
}

TEST_CASE("cancelled events never fire and cancel reports whether it took effect", "[core]") {
  Engine engine;
  Recorder r;
  TimerId a = engine.schedule_cancelable_at(1_ms, r, 7, 1);
  TimerId b = engine.schedule_cancelable_after(2_ms, r, 7, 2);
  engine.schedule_at(3_ms, r, 0, 3);
  CHECK(engine.cancel(a));
  CHECK_FALSE(engine.cancel(a));
  engine.run();
  CHECK(r.fired == std::vector<std::uint64_t>{2, 3});
  CHECK_FALSE(engine.cancel(b));   // already fired
  // The slot is reused with a new generation: the stale handle stays invalid.
  TimerId c = engine.schedule_cancelable_after(1_ms, r, 0, 4);
  CHECK_FALSE(engine.cancel(a));
  CHECK(engine.cancel(c));
}

TEST_CASE("API misuse throws naming the argument and the allowed range", "[core]") {
  Engine engine;
  Recorder r;
  engine.schedule_at(5_ms, r);
  engine.run();
  CHECK_THROWS_WITH(engine.schedule_at(1_ms, r), Catch::Contains("at =") && Catch::Contains(">= now"));
  CHECK_THROWS_WITH(engine.schedule_after(Time::zero() - 1_us, r), Catch::Contains("delay") && Catch::Contains(">= 0"));
  CHECK_THROWS_WITH(engine.schedule_at(6_ms, r, 0xFFFF), Catch::Contains("tag"));
  CHECK_THROWS_AS(engine.run_until(1_ms), InvalidArgument);

  struct Nested final : EventHandler {
    void on_event(Engine& e, EventTag, std::uint64_t) override { e.run(); }
  } nested;
  engine.schedule_after(1_us, nested);
  CHECK_THROWS_WITH(engine.run(), Catch::Contains("inside an event handler"));
  CHECK(engine.pending() == 0);   // the throwing event was consumed
}
