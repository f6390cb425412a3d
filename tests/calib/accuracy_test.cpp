// Accuracy regression against the seed measurements, with the committed calibration.
// The bounds are a ratchet at today's level, just above what `hcisim accuracy` prints now
// (IOPS/throughput median 10.2 %, max 39 %; mean latency median 23.8 % over 11 rows including
// two points read off seed 001's curves): a change that makes
// predictions worse fails here. The calibration issue's targets (median 10 %, max 25 %,
// latency median 20 %, stated ratios within 15 points) are tightened into these bounds as
// the model meets them.
#include <catch2/catch.hpp>

#include "hcisim/calib/accuracy.hpp"

using namespace hcisim;

TEST_CASE("predictions of the seed measurements stay within today's errors", "[accuracy]") {
  const HardwareCatalog cat = HardwareCatalog::load();
  AccuracyOptions o;
  o.repo_dir = default_data_dir() + "/..";
  const AccuracyReport report = evaluate(load_measurements(default_data_dir() + "/measurements.csv"), cat, o);
  const AccuracySummary& s = report.summary;
  INFO(format_accuracy(report, false));
  CHECK(s.throughput_rows >= 12);
  CHECK(s.latency_rows >= 11);
  CHECK(s.ratio_rows >= 4);
  CHECK(s.throughput_median_abs_pct <= 12.0);
  CHECK(s.throughput_max_abs_pct <= 45.0);
  CHECK(s.latency_median_abs_pct <= 26.0);
}
