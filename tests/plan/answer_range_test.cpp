// A range on every answer (plan/answer_range.hpp): the arithmetic on answers whose value is
// known (the seed, a calibrated constant), the propagation through correlated parameters and
// at a parameter's bound, and real runs and knees whose range holds their seeds.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "../scenario/shared_catalog.hpp"
#include "hcisim/model/core/batch_means.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/plan/answer_range.hpp"

using namespace hcisim;

namespace {

// The catalogs with a calibration whose errors the test sets: guest_cpu_us 10 us and
// vsan_cpu_scale 0.5 apart, correlated -0.5 (the shipped file's may change with a refit).
HardwareCatalog with_errors(double vsan_scale = 3) {
  HardwareCatalog cat = test::cat();
  Calibration c = cat.calibration();
  c.set("guest_cpu_us", 40);
  c.set("vsan_cpu_scale", vsan_scale);
  for (CalibrationParameter& p : c.parameters()) {
    p.stderr_value = p.name == "guest_cpu_us" ? 10 : p.name == "vsan_cpu_scale" ? 0.5 : 0;
  }
  c.set_correlation("guest_cpu_us", "vsan_cpu_scale", -0.5);
  cat.set_calibration(c);
  return cat;
}

Scenario short_default(const HardwareCatalog& cat) {
  return parse_scenario(default_scenario_yaml(), "<built-in default>", {"workload.duration_s=0.3", "workload.warmup_s=0.1"},
                        cat);
}

}  // namespace

TEST_CASE("a range combines the seeds' prediction interval with the calibration's delta method", "[range]") {
  const HardwareCatalog cat = with_errors();
  const Scenario s = short_default(cat);
  const double vscsi_per_scale = s.cluster.cpu_costs.vscsi_us / 3;   // vsan_cpu_scale multiplies it
  // Three answers known in closed form: the seed; the guest's CPU cost in standard errors;
  // and the sum of both parameters in standard errors.
  const RangeAnswer answer = [&](const Scenario& x, const ProgressFn&) {
    const double g = x.cluster.cpu_costs.guest_us / 10;
    const double v = x.cluster.cpu_costs.vscsi_us / vscsi_per_scale / 0.5;
    return std::vector<double>{static_cast<double>(x.seed), g, g + v};
  };
  const ScenarioReader read = [](const HardwareCatalog& c) { return short_default(c); };
  RangeOptions o;
  o.seeds = 5;
  const Ranged r = answer_range(s, read, cat, {"seed", "guest", "sum"}, answer, o);
  REQUIRE(r.answers.size() == 3);
  CHECK(r.parameters == std::vector<std::string>{"guest_cpu_us", "vsan_cpu_scale"});

  // The seeds 1..5: mean 3, sd sqrt(2.5); untouched by the calibration.
  const AnswerRange& seed = r.at("seed");
  CHECK(seed.each == std::vector<double>{1, 2, 3, 4, 5});
  CHECK(seed.value == Approx(3));
  CHECK(seed.seed_sd == Approx(std::sqrt(2.5)));
  CHECK(seed.calibration_sd == 0);
  const double half = student_t_quantile(0.975, 4) * std::sqrt(2.5) * std::sqrt(1.2);
  CHECK(seed.high == Approx(3 + half));
  CHECK(seed.low == Approx(std::max(0.0, 3 - half)));

  // One standard error of guest_cpu_us moves "guest" by exactly 1; the seeds do not move it.
  const AnswerRange& guest = r.at("guest");
  CHECK(guest.seed_sd == 0);
  REQUIRE(guest.effects.size() == 2);
  CHECK(guest.effects[0].effect == Approx(1));
  CHECK(guest.effects[1].effect == Approx(0).margin(1e-12));
  CHECK(guest.calibration_sd == Approx(1));
  CHECK(guest.high - guest.value == Approx(1.959964));

  // Both parameters, one standard error each, correlated -0.5: var = 1 + 1 - 2 * 0.5 = 1.
  CHECK(r.at("sum").calibration_sd == Approx(1));
  CHECK_THROWS_WITH(r.at("iops"), Catch::Contains("no answer named 'iops'"));

  // Without the calibration: seeds only.
  o.calibration = false;
  const Ranged seeds_only = answer_range(s, read, cat, {"seed", "guest", "sum"}, answer, o);
  CHECK(seeds_only.parameters.empty());
  CHECK(seeds_only.at("guest").calibration_sd == 0);
  CHECK(seeds_only.at("guest").high == seeds_only.at("guest").value);

  // Bad options.
  o.seeds = 1;
  CHECK_THROWS_WITH(answer_range(s, read, cat, {"seed"}, answer, o), Catch::Contains("range seeds"));
  o.seeds = 2;
  CHECK_THROWS_WITH(answer_range(s, read, cat, {"seed"}, answer, o), Catch::Contains("3 values for 1 names"));
}

TEST_CASE("a range says what it covers and what not", "[range]") {
  const HardwareCatalog cat = with_errors();
  const Scenario s = short_default(cat);
  const ScenarioReader read = [](const HardwareCatalog& c) { return short_default(c); };
  const RangeAnswer seed = [](const Scenario& x, const ProgressFn&) { return std::vector<double>{static_cast<double>(x.seed)}; };
  RangeOptions o;
  o.seeds = 3;
  Ranged r = answer_range(s, read, cat, {"seed"}, seed, o);
  CHECK(r.correlated);   // the two parameters are correlated -0.5
  const auto parts_of = [](const std::vector<RangePart>& parts) {
    std::vector<std::string> names;
    for (const RangePart& p : parts) names.push_back(p.part);
    return names;
  };
  RangeParts parts = range_parts(r);
  CHECK(parts_of(parts.covers) == std::vector<std::string>{"seeds", "calibration"});
  CHECK(parts_of(parts.not_covered) == std::vector<std::string>{"assumptions", "mechanisms"});
  CHECK(format_range_parts(r) ==
        "range covers: placement and run noise (3 seeds), calibration (2 fitted parameters, +-1 se, correlated)\n"
        "not covered: assumed values (see --sensitivity), mechanisms the model lacks (see hcisim accuracy)\n");
  CHECK_THAT(format_ranged(r), Catch::EndsWith(format_range_parts(r)));
  CHECK_THAT(to_json(r), Catch::Contains("\"covers\": [{\"part\": \"seeds\", \"text\": \"placement and run noise (3 seeds)\"}, "
                                         "{\"part\": \"calibration\", ") &&
                             Catch::Contains("\"not_covered\": [{\"part\": \"assumptions\", "));
  CHECK_THAT(ranged_csv_cells(r), Catch::EndsWith(",\"placement and run noise (3 seeds); calibration (2 fitted parameters, "
                                                  "+-1 se, correlated)\",\"assumed values (see --sensitivity); mechanisms "
                                                  "the model lacks (see hcisim accuracy)\""));
  // The sensitivity run beside it covers the assumed values; B - A keeps what both sides cover.
  r.assumptions = 4;
  parts = range_parts(r);
  CHECK(parts_of(parts.covers) == std::vector<std::string>{"seeds", "calibration", "assumptions"});
  CHECK(parts_of(parts.not_covered) == std::vector<std::string>{"mechanisms"});
  CHECK(parts.covers.back().text == "assumed values (4, each at the ends of its range: the sensitivity)");
  CHECK(range_parts(range_difference(r, r, cat.calibration())).covers.size() == 3);
  // Without the calibration, or with no parameter to move, the calibration is not covered.
  o.calibration = false;
  const Ranged seeds_only = answer_range(s, read, cat, {"seed"}, seed, o);
  CHECK_FALSE(seeds_only.correlated);
  CHECK(parts_of(range_parts(seeds_only).covers) == std::vector<std::string>{"seeds"});
  CHECK(range_parts(seeds_only).not_covered.front().text == "calibration (its standard errors not propagated)");
  o.calibration = true;
  HardwareCatalog unfitted = cat;
  Calibration c = cat.calibration();
  for (CalibrationParameter& p : c.parameters()) p.stderr_value = 0;
  unfitted.set_calibration(c);
  const Ranged none = answer_range(s, read, unfitted, {"seed"}, seed, o);
  CHECK(parts_of(range_parts(none).covers) == std::vector<std::string>{"seeds"});
  CHECK(range_parts(none).not_covered.front().text == "calibration (no fitted parameter with a standard error acts here)");
}

TEST_CASE("a parameter within one standard error of its bound is moved the other way", "[range]") {
  // vsan_cpu_scale 6.8 of at most 7: +0.5 leaves the range, so the step is -0.5 and the effect
  // per +1 standard error keeps its sign.
  const HardwareCatalog cat = with_errors(6.8);
  const Scenario s = short_default(cat);
  const double per_scale = s.cluster.cpu_costs.vscsi_us / 6.8;
  const Ranged r = answer_range(
      s, [](const HardwareCatalog& c) { return short_default(c); }, cat, {"scale"},
      [&](const Scenario& x, const ProgressFn&) { return std::vector<double>{x.cluster.cpu_costs.vscsi_us / per_scale}; });
  REQUIRE(r.at("scale").effects.size() == 2);
  CHECK(r.at("scale").effects[1].parameter == "vsan_cpu_scale");
  CHECK(r.at("scale").effects[1].effect == Approx(0.5));
}

TEST_CASE("run and knee ranges hold their seeds and repeat bit for bit", "[range]") {
  const HardwareCatalog cat = with_errors();
  const Scenario s = short_default(cat);
  const ScenarioReader read = [](const HardwareCatalog& c) { return short_default(c); };
  RangeOptions o;
  o.seeds = 3;
  o.jobs = 2;
  const Ranged r = run_range(s, read, cat, o);
  REQUIRE(r.answers.size() == run_range_names().size());
  for (const AnswerRange& a : r.answers) {
    // The interval is the formula's, from the seeds' values and the calibration sd.
    INFO(a.name);
    REQUIRE(a.each.size() == 3);
    CHECK(a.found == 3);
    const double mean = (a.each[0] + a.each[1] + a.each[2]) / 3;
    double ss = 0;
    for (double x : a.each) ss += (x - mean) * (x - mean);
    const double half = std::hypot(student_t_quantile(0.975, 2) * std::sqrt(ss / 2) * std::sqrt(4.0 / 3),
                                   1.959964 * a.calibration_sd);
    CHECK(a.value == Approx(mean));
    CHECK(a.high == Approx(mean + half));
    CHECK(a.low == Approx(std::max(0.0, mean - half)));
    REQUIRE(a.effect_each.size() == 2);
    CHECK(a.effects[0].effect == Approx((a.effect_each[0][0] + a.effect_each[0][1] + a.effect_each[0][2]) / 3));
  }
  // Placement varies with the seed, so the IOPS does; more guest CPU per I/O costs CPU.
  CHECK(r.at("iops").seed_sd > 0);
  CHECK(r.at("cpu_usage_pct_mean").effects[0].effect > 0);
  const Ranged again = run_range(s, read, cat, o);
  CHECK(again.at("iops").each == r.at("iops").each);
  CHECK(again.at("pooled_p95_ms").calibration_sd == r.at("pooled_p95_ms").calibration_sd);

  const KneeTarget t{LatencyStat::mean, 2.0};
  o.seeds = 2;
  const Ranged k = knee_range(s, read, cat, t, o);
  CHECK(k.at("knee_iops").value > 0);
  CHECK(k.at("latency_ms").seed_max <= 2.0);
  CHECK(k.at("knee_iops").low <= k.at("knee_iops").seed_min);

  // The reports carry every answer.
  const std::string json = ranged_report_json(s, k, &t);
  CHECK_THAT(json, Catch::Contains("\"target\": {\"stat\": \"mean\", \"limit_ms\": 2}") &&
                       Catch::Contains("\"knee_iops\": {\"value\": ") && Catch::Contains("\"effects\": {\"guest_cpu_us\": "));
  CHECK_THAT(format_ranged(r), Catch::Contains("pooled_p99_ms") && Catch::Contains("guest_cpu_us, vsan_cpu_scale"));
  const std::string header = ranged_csv_header(run_range_names());
  const std::string cells = ranged_csv_cells(r);
  // As many cells as columns: the commas outside quoted fields.
  std::size_t separators = 0;
  bool quoted = false;
  for (char c : cells) {
    if (c == '"') quoted = !quoted;
    separators += !quoted && c == ',' ? 1 : 0;
  }
  CHECK(static_cast<std::size_t>(std::count(header.begin(), header.end(), ',')) == separators);
}

TEST_CASE("seeds without an answer are counted and left out and B - A pairs seeds without clamping", "[range]") {
  const HardwareCatalog cat = with_errors();
  const Scenario s = short_default(cat);
  const ScenarioReader read = [](const HardwareCatalog& c) { return short_default(c); };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // "Found" on seeds 1 and 3 only (a knee that seed 2 did not find), at 10 x the seed.
  const RangeAnswer sparse = [&](const Scenario& x, const ProgressFn&) {
    return std::vector<double>{x.seed == 2 ? nan : 10.0 * static_cast<double>(x.seed)};
  };
  RangeOptions o;
  o.seeds = 3;
  const Ranged r = answer_range(s, read, cat, {"knee_iops"}, sparse, o);
  const AnswerRange& k = r.at("knee_iops");
  CHECK(k.found == 2);
  CHECK(k.value == Approx(20));
  CHECK(k.seed_min == 10);
  CHECK(k.seed_max == 30);
  CHECK(std::isfinite(k.high));
  CHECK(k.effects[0].effect == Approx(0).margin(1e-12));   // the calibration does not move it
  CHECK_THAT(format_ranged(r), Catch::Contains("(found on 2 of 3 seeds)"));
  CHECK_THAT(to_json(r), Catch::Contains("\"found\": 2, \"each\": [10, null, 30]"));
  // Found on one seed only: no spread, so no range.
  const Ranged once = answer_range(s, read, cat, {"knee_iops"},
                                   [&](const Scenario& x, const ProgressFn&) {
                                     return std::vector<double>{x.seed == 1 ? 5.0 : nan};
                                   },
                                   o);
  CHECK(once.at("knee_iops").found == 1);
  CHECK(once.at("knee_iops").value == 5);
  CHECK_FALSE(std::isfinite(once.at("knee_iops").low));

  // B - A: each seed's difference (B = A + seed - 2 here), effects subtracted, negative allowed.
  const RangeAnswer a_answer = [](const Scenario&, const ProgressFn&) { return std::vector<double>{100.0}; };
  const RangeAnswer b_answer = [](const Scenario& x, const ProgressFn&) {
    return std::vector<double>{98.0 + static_cast<double>(x.seed)};
  };
  const Ranged ra = answer_range(s, read, cat, {"iops"}, a_answer, o);
  const Ranged rb = answer_range(s, read, cat, {"iops"}, b_answer, o);
  const Ranged d = range_difference(ra, rb, cat.calibration());
  CHECK(d.at("iops").each == std::vector<double>{-1, 0, 1});
  CHECK(d.at("iops").value == Approx(0).margin(1e-12));
  CHECK(d.at("iops").low < 0);   // not clamped at 0
  CHECK(d.at("iops").seed_sd == Approx(1));
  CHECK_THAT(format_compared("A", "B", ra, rb, d), Catch::Contains("within noise"));
  // Different first seeds do not pair.
  Scenario later = s;
  later.seed = 7;
  const Ranged rc = answer_range(later, read, cat, {"iops"}, b_answer, o);
  CHECK_THROWS_WITH(range_difference(ra, rc, cat.calibration()), Catch::Contains("B - A pairs the same seeds"));
}

TEST_CASE("a run range leaves out the latencies of windows that completed no I/O and says so", "[range]") {
  const HardwareCatalog& cat = test::cat();
  const auto read_with = [](std::vector<std::string> sets) -> ScenarioReader {
    return [sets](const HardwareCatalog& c) { return parse_scenario(default_scenario_yaml(), "<built-in default>", sets, c); };
  };
  RangeOptions o;
  o.seeds = 2;
  o.calibration = false;
  // 1 us completes nothing: IOPS 0 (an answer), every latency undefined (found on no seed).
  const ScenarioReader idle = read_with({"workload.duration_s=1e-6", "workload.warmup_s=0"});
  const Ranged r = run_range(idle(cat), idle, cat, o);
  CHECK(r.at("iops").found == 2);
  CHECK(r.at("iops").value == 0);
  for (const char* latency : {"read_latency_ms", "write_latency_ms", "pooled_latency_ms", "pooled_p95_ms"}) {
    CHECK(r.at(latency).found == 0);
    CHECK_FALSE(std::isfinite(r.at(latency).value));
  }
  REQUIRE(r.warnings.size() == 1);
  CHECK_THAT(r.warnings[0], Catch::Contains("no I/O issued in the measured window completed in it on 2 of 2 seeds"));
  CHECK_THAT(ranged_report_json(idle(cat), r), Catch::Contains("\"warnings\": [\"no I/O issued"));
  CHECK_THAT(ranged_csv_cells(r), Catch::Contains("lengthen workload.duration_s\",\"placement and run noise"));
  // All reads: no write latency on any seed, and nothing to warn of (no write is issued).
  const ScenarioReader reads = read_with({"workload.read_pct=100", "workload.duration_s=0.05", "workload.warmup_s=0.01"});
  const Ranged all_reads = run_range(reads(cat), reads, cat, o);
  CHECK(all_reads.at("read_latency_ms").found == 2);
  CHECK(all_reads.at("write_latency_ms").found == 0);
  CHECK(all_reads.warnings.empty());
}
