// The library's runner: parallel runs equal serial ones bit for bit, grids
// over several keys in a stated order, replications of one placement or of several.
#include <catch2/catch.hpp>

#include <atomic>

#include "hcisim/core/check.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/runner.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;

namespace {

using test::cat;

const std::vector<std::string> kShort = {"workload.duration_s=0.1", "workload.warmup_s=0.05"};

std::string without_wall(const std::string& json) { return json.substr(0, json.find("\"wall_seconds\"")); }

}  // namespace

TEST_CASE("run_all: results in input order, the same on one thread or two") {
  std::vector<Scenario> s;
  for (const char* oio : {"1", "4", "16"}) {
    std::vector<std::string> sets = kShort;
    sets.push_back(std::string("workload.outstanding_per_vmdk=") + oio);
    s.push_back(parse_scenario(default_scenario_yaml(), "<built-in default>", sets, cat()));
  }
  const std::vector<RunResult> one = run_all(s, 1), two = run_all(s, 2);
  REQUIRE(one.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(without_wall(to_json(one[i])) == without_wall(to_json(two[i])));
    CHECK(without_wall(to_json(one[i])) == without_wall(to_json(simulate(s[i]))));
  }
  CHECK(one[0].result.outstanding_io < one[2].result.outstanding_io);
}

TEST_CASE("sweep_points: every combination, the last axis fastest, bad values name the point") {
  const std::vector<SweepAxis> axes = {{"workload.read_pct", {"0", "100"}},
                                       {"workload.outstanding_per_vmdk", {"1", "2", "4"}}};
  const auto points = sweep_points(default_scenario_yaml(), "<built-in default>", kShort, axes, cat());
  REQUIRE(points.size() == 6);
  CHECK(points[0].settings == std::vector<std::string>{"workload.read_pct=0", "workload.outstanding_per_vmdk=1"});
  CHECK(points[1].settings == std::vector<std::string>{"workload.read_pct=0", "workload.outstanding_per_vmdk=2"});
  CHECK(points[5].settings == std::vector<std::string>{"workload.read_pct=100", "workload.outstanding_per_vmdk=4"});
  CHECK(points[4].scenario.workload.read_pct == 100);
  CHECK(points[4].scenario.workload.outstanding_per_vmdk == 2);
  CHECK_THROWS_WITH(sweep_points(default_scenario_yaml(), "<built-in default>", kShort,
                                 {{"workload.read_pct", {"50", "150"}}}, cat()),
                    Catch::StartsWith("workload.read_pct=150: ") && Catch::Contains("read_pct = '150'"));
  CHECK_THROWS_AS(sweep_points(default_scenario_yaml(), "x", {}, {{"workload.read_pct", {}}}, cat()), InvalidArgument);
  // The settings alone (what sweep reads each point from again when it runs it), same order.
  const auto settings = sweep_settings(axes);
  REQUIRE(settings.size() == points.size());
  for (std::size_t i = 0; i < settings.size(); ++i) CHECK(settings[i] == points[i].settings);
  CHECK_THROWS_AS(sweep_settings({{"workload.read_pct", {}}}), InvalidArgument);
  CHECK_THROWS_WITH(sweep_settings({{"a", std::vector<std::string>(400, "1")}, {"b", std::vector<std::string>(400, "1")}}),
                    Catch::Contains("more than 100,000 points"));
  const ScenarioLoader bad = [](const std::vector<std::string>&) -> Scenario { throw InvalidArgument("no"); };
  CHECK_THROWS_WITH(load_point(bad, {"a=1", "b=2"}), "a=1, b=2: no");
  const std::vector<SweepRow> rows = run_sweep(points, 2);
  REQUIRE(rows.size() == 6);
  CHECK(rows[3].csv_row == csv_row(simulate(points[3].scenario)));
  CHECK(rows[3].settings == points[3].settings);
  // Read as it runs: the same rows, every point read once to check it and once to run it, and
  // a bad point fails before any run.
  std::atomic<int> reads{0};
  const ScenarioLoader load = [&](const std::vector<std::string>& point) {
    ++reads;
    std::vector<std::string> all = kShort;
    all.insert(all.end(), point.begin(), point.end());
    return parse_scenario(default_scenario_yaml(), "<built-in default>", all, cat());
  };
  const std::vector<SweepRow> lazy = run_sweep(load, axes, 2);
  REQUIRE(lazy.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(lazy[i].csv_row == rows[i].csv_row);
    CHECK(lazy[i].settings == rows[i].settings);
  }
  CHECK(reads == 12);
  reads = 0;
  CHECK_THROWS_WITH(run_sweep(load, {{"workload.read_pct", {"50", "150", "60"}}}, 2),
                    Catch::StartsWith("workload.read_pct=150: ") && Catch::Contains("read_pct = '150'"));
  CHECK(reads == 2);
}

TEST_CASE("point_name and point_failure: a point named by its file and settings, the file once") {
  CHECK(point_name("a.yaml", {}) == "a.yaml");
  CHECK(point_name("a.yaml", {"workload.vms=2", "seed=3"}) == "a.yaml: workload.vms=2, seed=3");
  CHECK(point_failure("a.yaml", {"seed=3"}, "a.yaml: workload block_size = 1 too big") ==
        "a.yaml: seed=3: workload block_size = 1 too big");
  CHECK(point_failure("a.yaml", {"seed=3"}, "stalled") == "a.yaml: seed=3: stalled");
}

TEST_CASE("replicate: independent streams of one placement, or several placements") {
  const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>", kShort, cat());
  const Replicated streams = replicate(s, 4, Vary::streams, 2);
  REQUIRE(streams.iops.size() == 4);
  CHECK(streams.iops[0] != streams.iops[1]);
  CHECK(streams.mean_iops.batches == 4);
  CHECK(streams.mean_iops.contains(streams.mean_iops.mean));
  CHECK(std::isfinite(streams.mean_iops.half_width));
  Scenario third = s;
  third.replication = 3;
  CHECK(streams.iops[2] == simulate(third).result.iops);
  const Replicated seeds = replicate(s, 3, Vary::placement, 2);
  Scenario seed2 = s;
  seed2.seed = 2;
  CHECK(seeds.iops[1] == simulate(seed2).result.iops);
  CHECK_THROWS(replicate(s, 1));
}
