// The calibration's optimiser on residuals with a known answer (least_squares.hpp): a start
// in the wrong basin ends there, several starts find the better one, the spread starts cover
// every parameter's range, losses are Huber's or half the sum of squares, and a start where
// the residuals cannot be evaluated is skipped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "hcisim/model/calib/least_squares.hpp"
#include "hcisim/core/check.hpp"

using namespace hcisim;

namespace {
// Two basins in x in [0, 5]: r1 = (x - 1)(x - 3) is zero at both 1 and 3, r2 = 0.1 (x - 3)
// only at 3. Gauss-Newton steps from x < 1.995 (the ridge) go to the local minimum near 1
// (loss about 0.02), from above it to the global one at 3 (loss 0). Two spread starts sit
// at 1.25 and 3.75, the middles of the range's halves.
std::vector<double> two_basins(const std::vector<double>& v, Evaluation) {
  const double x = v[0];
  return {(x - 1) * (x - 3), 0.1 * (x - 3)};
}
const std::vector<BoundedParameter> kLine = {{"x", 0, 5, false}};
// Residuals that do not depend on the parameters: every start stays where it began.
std::vector<double> flat(const std::vector<double>&, Evaluation) { return {1, 2, 3}; }
}  // namespace

TEST_CASE("the spread starts put one start in every stratum of every parameter's range") {
  const std::vector<BoundedParameter> p = {{"a", 1, 100, true}, {"b", 0, 9, false}, {"c", 3, 130, true}};
  for (int count : {1, 2, 3, 7}) {
    const auto points = spread_starts(p, count);
    REQUIRE(points.size() == static_cast<std::size_t>(count));
    for (std::size_t j = 0; j < p.size(); ++j) {
      // The fraction of the range (log for a and c) each start sits at: the strata's middles.
      std::vector<double> u;
      for (const auto& pt : points)
        u.push_back(p[j].log_scale ? std::log(pt[j] / p[j].min) / std::log(p[j].max / p[j].min)
                                   : (pt[j] - p[j].min) / (p[j].max - p[j].min));
      std::sort(u.begin(), u.end());
      for (int i = 0; i < count; ++i) CHECK(u[static_cast<std::size_t>(i)] == Approx((i + 0.5) / count));
    }
  }
  CHECK(spread_starts(p, 1)[0][0] == Approx(10.0));   // one start: the middle of [1, 100] in log space
  CHECK(spread_starts(p, 1)[0][1] == Approx(4.5));
  CHECK(spread_starts(p, 3) == spread_starts(p, 3));  // the same points in every run
}

TEST_CASE("one start ends in its own basin, several starts find the lower one") {
  MinimizeOptions o;
  const MinimizeResult one = minimize(kLine, {0.5}, two_basins, o);
  INFO("one start: x " << one.values[0] << ", rms " << one.rms_after);
  CHECK(one.values[0] == Approx(1.0).epsilon(0.02));
  CHECK(one.starts.size() == 1);
  CHECK(one.best_start == 0);
  CHECK(one.starts[0].converged);

  o.starts = 3;   // x = 0.5 (the caller's), then 1.25 and 3.75 in some order
  const MinimizeResult three = minimize(kLine, {0.5}, two_basins, o);
  REQUIRE(three.starts.size() == 3);
  CHECK(std::min(three.starts[1].start[0], three.starts[2].start[0]) == 1.25);
  CHECK(std::max(three.starts[1].start[0], three.starts[2].start[0]) == 3.75);
  const std::size_t high = three.starts[1].start[0] == 3.75 ? 1 : 2;
  INFO("three starts: x " << three.values[0] << " from start " << three.best_start + 1);
  CHECK(three.values[0] == Approx(3.0).epsilon(0.001));
  CHECK(three.best_start == high);
  CHECK(three.rms_after < 1e-3);
  // The caller's start still reports where it went, and the rms before is at the caller's start.
  CHECK(three.starts[0].end[0] == Approx(1.0).epsilon(0.02));
  CHECK(three.starts[0].loss > three.starts[high].loss);
  CHECK(three.rms_before == one.rms_before);
  CHECK(three.evaluations > one.evaluations);
  // The winner's steps are its own, as a single start from its point counts them.
  const MinimizeResult alone = minimize(kLine, {3.75}, two_basins, MinimizeOptions{});
  CHECK(three.steps == alone.steps);
  CHECK(three.iterations == alone.iterations);
  CHECK(three.values == alone.values);

  // Huber's loss: the first pass runs from every start at the same fixed k, so their losses compare.
  o.loss = FitLoss::huber;
  const MinimizeResult huber = minimize(kLine, {0.5}, two_basins, o);
  CHECK(huber.values[0] == Approx(3.0).epsilon(0.001));
  CHECK(huber.best_start == high);
}

TEST_CASE("a start's loss is half the sum of squares, or Huber's at the first pass's k of 0.03") {
  const std::vector<BoundedParameter> p = {{"a", 1, 100, true}};
  MinimizeOptions o;
  o.starts = 2;
  const MinimizeResult ls = minimize(p, {5}, flat, o);
  CHECK(ls.starts[0].loss == Approx(7.0));                        // (1 + 4 + 9) / 2
  CHECK(ls.starts[0].rms == Approx(std::sqrt(14.0 / 3)));
  CHECK(ls.best_start == 0);                                      // a tie: the caller's start
  CHECK(ls.unresponsive[0]);
  o.loss = FitLoss::huber;
  const MinimizeResult hub = minimize(p, {5}, flat, o);
  CHECK(hub.starts[0].loss == Approx(0.03 * (6 - 3 * 0.015)));   // k (|r| - k / 2) for each
  CHECK(hub.starts[1].loss == hub.starts[0].loss);
  CHECK(hub.best_start == 0);
  CHECK(hub.huber_k == Approx(1.345 * 1.4826 * 2));              // 1.345 x MAD sigma of {1, 2, 3}
}

TEST_CASE("the caller's start is kept unless another ends lower, and a start that fails is skipped") {
  MinimizeOptions o;
  o.starts = 3;
  const MinimizeResult from_three = minimize(kLine, {3.0}, two_basins, o);
  CHECK(from_three.best_start == 0);
  CHECK(from_three.values[0] == Approx(3.0));

  // No evaluation at x = 1.25, and no finite-difference step near 3.75 (the start itself evaluates).
  const ResidualFunction patchy = [](const std::vector<double>& v, Evaluation which) {
    if (std::fabs(v[0] - 1.25) < 1e-9) throw InvalidArgument("no run at x = 1.25");
    if (v[0] > 3.76) throw InvalidArgument("no run above 3.76");
    return two_basins(v, which);
  };
  const MinimizeResult skipped = minimize(kLine, {0.5}, patchy, o);
  REQUIRE(skipped.starts.size() == 3);
  CHECK(skipped.starts[1].failed);
  CHECK(skipped.starts[2].failed);
  CHECK(skipped.best_start == 0);
  CHECK(skipped.values[0] == Approx(1.0).epsilon(0.02));

  // A residual that is not a number at the caller's start's end loses to any start that has one.
  const ResidualFunction nan_below_two = [](const std::vector<double>& v, Evaluation which) {
    std::vector<double> r = two_basins(v, which);
    if (v[0] < 2) r[1] = std::numeric_limits<double>::quiet_NaN();
    return r;
  };
  const MinimizeResult nan = minimize(kLine, {0.5}, nan_below_two, o);
  CHECK(std::isnan(nan.starts[0].loss));
  CHECK(nan.values[0] == Approx(3.0).epsilon(0.001));

  // With no iterations only the caller's start is evaluated.
  o.max_iterations = 0;
  const MinimizeResult none = minimize(kLine, {0.5}, two_basins, o);
  CHECK(none.starts.size() == 1);
  CHECK(none.values[0] == 0.5);
  CHECK(none.steps == 0);
}

TEST_CASE("minimize refuses a start of the wrong size and too few residuals") {
  const std::vector<BoundedParameter> p = {{"a", 1, 100, true}, {"b", 0, 9, false}};
  MinimizeOptions o;
  CHECK_THROWS_AS(minimize(p, {5}, flat, o), InvalidArgument);
  CHECK_THROWS_AS(minimize(p, {5, 5}, [](const std::vector<double>&, Evaluation) { return std::vector<double>{1, 2}; }, o),
                  InvalidArgument);   // no more residuals than parameters
  o.starts = 0;
  CHECK_THROWS_AS(minimize(p, {5, 5}, flat, o), InvalidArgument);
}
