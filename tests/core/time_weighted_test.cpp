// TimeWeighted: the time average of a piecewise-constant integer signal, exact in integers.
#include <catch2/catch.hpp>

#include "hcisim/model/core/time_weighted.hpp"

using namespace hcisim;

TEST_CASE("TimeWeighted averages a step signal over its window", "[core]") {
  TimeWeighted tw(Time::ns(100), 2);   // 2 from t = 100
  tw.set(Time::ns(300), 5);            // 2 x 200
  tw.add(Time::ns(400), -1);           // 5 x 100, then 4
  CHECK(tw.value() == 4);
  CHECK(tw.mean(Time::ns(600)) == Approx((2.0 * 200 + 5.0 * 100 + 4.0 * 200) / 500));
  CHECK(tw.mean(Time::ns(100)) == 4.0);   // empty window: the current value
  tw.reset(Time::ns(600));
  CHECK(tw.mean(Time::ns(700)) == 4.0);   // the past is forgotten, the value kept
}

TEST_CASE("TimeWeighted does not overflow with a million jobs for a day", "[core]") {
  // 1e6 x 86400e9 ns = 8.64e19 > 2^63: a 64-bit integral would wrap (and is UB).
  const Time day = Time::ns(86'400'000'000'000);
  TimeWeighted tw(Time::zero(), 1'000'000);
  tw.set(day, 3'000'000);
  CHECK(tw.mean(day) == Approx(1e6).epsilon(1e-12));
  CHECK(tw.mean(day + day) == Approx(2e6).epsilon(1e-12));
}
