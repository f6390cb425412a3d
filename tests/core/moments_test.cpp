// Boost.Accumulators-backed moments: exact small-sample values.
#include <catch2/catch.hpp>

#include "hcisim/model/core/moments.hpp"

using namespace hcisim;

TEST_CASE("moments of a small sample", "[core]") {
  Moments m;
  CHECK(m.count() == 0);
  CHECK(m.mean() == 0.0);
  for (double x : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) m.add(x);
  CHECK(m.count() == 8);
  CHECK(m.mean() == Approx(5.0));
  CHECK(m.variance() == Approx(4.0));   // population variance of the classic example
  CHECK(m.stddev() == Approx(2.0));
  CHECK(m.min() == 2.0);
  CHECK(m.max() == 9.0);
  Moments copy = m;
  m.reset();
  CHECK(m.count() == 0);
  CHECK(copy.mean() == Approx(5.0));
}
