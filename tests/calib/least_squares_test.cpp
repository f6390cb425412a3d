// The calibration's optimiser on residuals with a known answer (least_squares.hpp): a start
// in the wrong basin ends there, several starts find the better one, the Halton starts are
// where the sequence puts them, and a start where the residuals cannot be evaluated is skipped.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "hcisim/calib/least_squares.hpp"
#include "hcisim/core/check.hpp"

using namespace hcisim;

namespace {
// Two basins in x in [0, 4]: r1 = (x - 1)(x - 3) is zero at both 1 and 3, r2 = 0.1 (x - 3)
// only at 3. From x = 0.5 Gauss-Newton steps go to the local minimum near 1 (loss about
// 0.02); the global one, loss 0, is at 3.
std::vector<double> two_basins(const std::vector<double>& v, bool) {
  const double x = v[0];
  return {(x - 1) * (x - 3), 0.1 * (x - 3)};
}
const std::vector<BoundedParameter> kLine = {{"x", 0, 4, false}};
}  // namespace

TEST_CASE("the Halton starts are the radical inverses in the first primes") {
  CHECK(halton(1, 0) == 0.5);
  CHECK(halton(2, 0) == 0.25);
  CHECK(halton(3, 0) == 0.75);
  CHECK(halton(1, 1) == Approx(1.0 / 3));
  CHECK(halton(2, 1) == Approx(2.0 / 3));
  CHECK(halton(3, 1) == Approx(1.0 / 9));
  CHECK(halton(1, 2) == Approx(0.2));
  CHECK_THROWS_AS(halton(1, 16), InvalidArgument);
}

TEST_CASE("one start ends in its own basin, several starts find the lower one") {
  MinimizeOptions o;
  const MinimizeResult one = minimize(kLine, {0.5}, two_basins, o);
  INFO("one start: x " << one.values[0] << ", rms " << one.rms_after);
  CHECK(one.values[0] == Approx(1.0).epsilon(0.02));
  CHECK(one.starts.size() == 1);
  CHECK(one.best_start == 0);

  o.starts = 3;   // x = 0.5 (the caller's), then the Halton points 2 and 1
  const MinimizeResult three = minimize(kLine, {0.5}, two_basins, o);
  REQUIRE(three.starts.size() == 3);
  CHECK(three.starts[1].start[0] == 2.0);
  CHECK(three.starts[2].start[0] == 1.0);
  INFO("three starts: x " << three.values[0] << " from start " << three.best_start + 1);
  CHECK(three.values[0] == Approx(3.0).epsilon(0.001));
  CHECK(three.best_start == 1);
  CHECK(three.rms_after < 1e-3);
  // The caller's start still reports where it went, and the rms before is at the caller's start.
  CHECK(three.starts[0].end[0] == Approx(1.0).epsilon(0.02));
  CHECK(three.starts[0].loss > three.starts[1].loss);
  CHECK(three.rms_before == one.rms_before);
  CHECK(three.evaluations > one.evaluations);

  // Huber's loss: the first pass runs from every start at the same fixed k, so their losses compare.
  o.loss = FitLoss::huber;
  const MinimizeResult huber = minimize(kLine, {0.5}, two_basins, o);
  CHECK(huber.values[0] == Approx(3.0).epsilon(0.001));
  CHECK(huber.best_start == 1);
  CHECK(huber.huber_k > 0);
}

TEST_CASE("the caller's start wins ties, and a start the residuals fail at is skipped") {
  MinimizeOptions o;
  o.starts = 3;
  // From x = 3, already the global minimum, no other start can end lower.
  const MinimizeResult tie = minimize(kLine, {3.0}, two_basins, o);
  CHECK(tie.best_start == 0);
  CHECK(tie.values[0] == Approx(3.0));

  // No evaluation near x = 2 (the second start), and one residual fewer near x = 1 (the third).
  const ResidualFunction patchy = [](const std::vector<double>& v, bool keep) {
    if (std::fabs(v[0] - 2) < 0.1) throw InvalidArgument("no run at x = 2");
    std::vector<double> r = two_basins(v, keep);
    if (std::fabs(v[0] - 1) < 1e-9) r.pop_back();
    return r;
  };
  const MinimizeResult skipped = minimize(kLine, {0.5}, patchy, o);
  REQUIRE(skipped.starts.size() == 3);
  CHECK(skipped.starts[1].failed);
  CHECK(skipped.starts[2].failed);
  CHECK(skipped.best_start == 0);
  CHECK(skipped.values[0] == Approx(1.0).epsilon(0.02));
}

TEST_CASE("starts spread in log space for a parameter with a positive lower bound") {
  const std::vector<BoundedParameter> p = {{"a", 1, 100, true}, {"b", 0, 9, false}};
  // Residuals that do not depend on the parameters: every start stays where it began.
  const ResidualFunction flat = [](const std::vector<double>&, bool) { return std::vector<double>{1, 2, 3}; };
  MinimizeOptions o;
  o.starts = 3;
  const MinimizeResult m = minimize(p, {5, 5}, flat, o);
  REQUIRE(m.starts.size() == 3);
  CHECK(m.starts[1].start[0] == Approx(10.0));         // the middle of [1, 100] in log space
  CHECK(m.starts[1].start[1] == Approx(3.0));          // a third of [0, 9]
  CHECK(m.starts[2].start[0] == Approx(std::sqrt(10.0)));
  CHECK(m.starts[2].start[1] == Approx(6.0));
  CHECK(m.best_start == 0);                            // every loss ties
  CHECK(m.unresponsive[0]);
  CHECK(m.unresponsive[1]);
  CHECK_THROWS_AS(minimize(p, {5}, flat, o), InvalidArgument);
  CHECK_THROWS_AS(minimize(p, {5, 5}, [](const std::vector<double>&, bool) { return std::vector<double>{1, 2}; }, o),
                  InvalidArgument);   // no more residuals than parameters
}
