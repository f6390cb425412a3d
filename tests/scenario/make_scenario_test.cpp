// Scenarios built in code (issue 22, item 2): calibrated and validated by default, like a
// file; the uncalibrated model only by the named opt-out; a scenario that is neither refused.
#include <catch2/catch.hpp>

#include "hcisim/core/check.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

using namespace hcisim;

namespace {

const HardwareCatalog& cat() {
  static const HardwareCatalog c = HardwareCatalog::load();
  return c;
}

// The default scenario's cluster and workload as a tool would hold them before calibration:
// parsed with a catalog whose calibration is at its defaults (the uncalibrated constants).
Scenario uncalibrated_parts() {
  HardwareCatalog plain = cat();
  plain.set_calibration(Calibration::defaults());
  return parse_scenario(default_scenario_yaml(), "<built-in default>",
                        {"workload.duration_s=0.3", "workload.warmup_s=0.1"}, plain);
}

std::string without_wall(const std::string& json) { return json.substr(0, json.find("\"wall_seconds\"")); }

}  // namespace

TEST_CASE("make_scenario gives the file's result bit for bit; the calibration is applied once") {
  const Scenario parts = uncalibrated_parts();
  const Scenario built = make_scenario(parts.name, parts.cluster, parts.workload, cat(), parts.seed);
  CHECK(built.calibration == Scenario::Calibration::applied);
  CHECK(built.cluster.cpu_costs.guest_us == cat().calibration().value("guest_cpu_us"));
  const Scenario file = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                       {"workload.duration_s=0.3", "workload.warmup_s=0.1"}, cat());
  CHECK(without_wall(to_json(simulate(built))) == without_wall(to_json(simulate(file))));
}

TEST_CASE("an uncalibrated scenario runs only by the named opt-out") {
  Scenario parts = uncalibrated_parts();
  Scenario raw = parts;
  raw.calibration = Scenario::Calibration::none;   // as a hand-assembled Scenario{} starts
  CHECK_THROWS_WITH(simulate(raw), Catch::Contains("is not calibrated") && Catch::Contains("make_scenario") &&
                                       Catch::Contains("make_uncalibrated_scenario"));
  const Scenario opted = make_uncalibrated_scenario("raw", parts.cluster, parts.workload);
  CHECK(opted.calibration == Scenario::Calibration::opted_out);
  CHECK(opted.cluster.cpu_costs.guest_us == parts.cluster.cpu_costs.guest_us);
  const RunResult u = simulate(opted), c = simulate(make_scenario("calibrated", parts.cluster, parts.workload, cat()));
  CHECK(u.result.iops != c.result.iops);
}

TEST_CASE("make_scenario validates like a file and names the field") {
  const Scenario parts = uncalibrated_parts();
  WorkloadSpec w = parts.workload;
  w.read_pct = 150;
  CHECK_THROWS_WITH(make_scenario("x", parts.cluster, w, cat()), Catch::Contains("read_pct = 150"));
  ClusterSpec c = parts.cluster;
  c.hosts.clear();
  CHECK_THROWS_AS(make_scenario("x", c, parts.workload, cat()), InvalidArgument);
  w = parts.workload;
  w.vmdk_size = Bytes{std::int64_t{60} << 40};
  w.vms = 1000;
  CHECK_THROWS_WITH(make_scenario("x", parts.cluster, w, cat()), Catch::Contains("more than 100 times"));
}

TEST_CASE("a result's resources and hosts are found by name") {
  const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                    {"workload.duration_s=0.1", "workload.warmup_s=0.05"}, cat());
  const RunResult r = simulate(s);
  REQUIRE(r.resource("capacity_device") != nullptr);
  CHECK(r.resource("capacity_device")->max > 0);
  CHECK(r.resource("pool_device") == nullptr);   // OSA has no ESA pool
  REQUIRE(r.host("esx02") != nullptr);
  CHECK(r.host("esx02")->cpu_usage_pct > 0);
  CHECK(r.host("esx99") == nullptr);
}

TEST_CASE("JSON and CSV carry the inputs and the scenario's warnings") {
  const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                    {"workload.duration_s=0.05", "workload.warmup_s=0.02", "workload.vmdk_size=400g"},
                                    cat());
  REQUIRE(s.warnings.size() == 1);
  const RunResult r = simulate(s);
  const std::string json = to_json(r);
  CHECK_THAT(json, Catch::Contains("\"inputs\": {\"source\": \"<built-in default>\", \"architecture\": \"OSA\", "
                                   "\"hosts\": 4, \"layout\": \"RAID-1 (FTT 1)\""));
  CHECK_THAT(json, Catch::Contains("\"warnings\": [\"workload: the VMs' data"));
  // CSV: as many cells as the header names, the warning in the last (quotes respected).
  auto cells = [](const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) out.emplace_back();
      else out.back() += c;
    }
    return out;
  };
  const auto header = cells(csv_header()), row = cells(csv_row(r));
  REQUIRE(header.size() == row.size());
  CHECK(header.back() == "warnings");
  CHECK(row.back().rfind("workload: the VMs' data", 0) == 0);
  CHECK(row[header.size() - 2].find("4k 70% read") == 0);
}
