// Accuracy regression against the seed measurements, with the committed calibration.
// Where the model meets the calibration issue's targets the bounds ARE those targets
// (IOPS/throughput max <= 25 %; mean latency median <= 20 %); where it does not yet, the
// bounds are a ratchet just above today's level, so a change that makes predictions worse
// fails here: IOPS/throughput median 12.6 % (target 10), stated ratios (target: within 15
// points; seed 001's five are, seed 003's +200K and 3.5x and seed 004's 3x and 1/3 are far off).
#include <catch2/catch.hpp>

#include <cmath>

#include "hcisim/calib/accuracy.hpp"

using namespace hcisim;

TEST_CASE("predictions of the seed measurements meet the accuracy targets", "[accuracy]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  AccuracyOptions o;
  o.repo_dir = default_data_dir() + "/..";
  const AccuracyReport report = evaluate(load_measurements(default_data_dir() + "/measurements.csv"), cat, o);
  const AccuracySummary& s = report.summary;
  INFO(format_accuracy(report, false));
  CHECK(s.throughput_rows >= 12);
  CHECK(s.latency_rows >= 11);
  CHECK(s.ratio_rows >= 9);
  // The targets (the IOPS median only by a ratchet: it is 12.6 % today).
  CHECK(s.throughput_median_abs_pct <= 13.0);
  CHECK(s.throughput_max_abs_pct <= 25.0);
  CHECK(s.latency_median_abs_pct <= 20.0);
  // Ratchet for the stated ratios (target: every one within 15 points).
  int within = 0;
  for (const Prediction& p : report.rows)
    if (p.cls == AccuracyClass::ratio && std::fabs(p.error_pct) <= 15.0) ++within;
  CHECK(within >= 5);
  CHECK(s.ratio_max_abs_points <= 180.0);
}
