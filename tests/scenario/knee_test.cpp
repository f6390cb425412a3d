// The knee: bisection on offered load, with the closed loop as the ceiling.
#include <catch2/catch.hpp>

#include <algorithm>

#include "hcisim/core/check.hpp"
#include "hcisim/plan/knee.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;

namespace {

using test::cat;

Scenario default_short() {
  return parse_scenario(default_scenario_yaml(), "<built-in default>",
                        {"workload.duration_s=0.4", "workload.warmup_s=0.2"}, cat());
}

}  // namespace

TEST_CASE("knee: the highest passing offered load, with a failing probe just above it") {
  const Scenario s = default_short();
  KneeTarget t;
  t.stat = LatencyStat::p95;
  t.limit_ms = 5;
  KneeOptions o;
  o.jobs = 2;
  const KneeResult k = find_knee(s, t, o);
  REQUIRE(k.found);
  CHECK_FALSE(k.ceiling);
  CHECK(k.closed_loop_latency_ms > t.limit_ms);   // the closed loop misses: a real bisection
  CHECK(k.latency_ms <= t.limit_ms);
  CHECK(k.iops < k.closed_loop_iops);
  CHECK(k.resolution_iops <= 0.01 * k.closed_loop_iops);
  // The probes: every pass meets the target and delivers what it offers; every failure lies
  // above the knee's offered load, the lowest by the resolution (a pass above a failure is
  // noise at the edge and not trusted).
  double lowest_fail = 1e18;
  bool knee_probe = false;
  for (const KneeProbe& p : k.probes) {
    if (p.pass) {
      CHECK(p.latency_ms <= t.limit_ms);
      CHECK(p.achieved_iops >= 0.97 * p.offered_iops);
      knee_probe = knee_probe || (p.offered_iops == k.offered_iops && p.achieved_iops == k.iops);
    } else {
      lowest_fail = std::min(lowest_fail, p.offered_iops);
    }
  }
  CHECK(knee_probe);
  CHECK(k.offered_iops < lowest_fail);
  CHECK(lowest_fail - k.offered_iops == Approx(k.resolution_iops));
  // Rerunning the knee's own offered load reproduces it (runs are deterministic).
  Scenario again = s;
  again.workload.iops_limit_per_vm = k.offered_iops / again.workload.vms;
  const RunResult r = simulate(again);
  CHECK(r.result.iops == k.iops);
  // A looser target gives a higher knee.
  t.limit_ms = 10;
  CHECK(find_knee(s, t, o).iops > k.iops);
}

TEST_CASE("knee: the closed loop as the answer, no answer, and what is refused") {
  const Scenario s = default_short();
  KneeTarget t;
  t.stat = LatencyStat::mean;
  t.limit_ms = 1000;   // the closed loop meets it: the outstanding I/O sets the limit
  const KneeResult ceiling = find_knee(s, t);
  CHECK(ceiling.found);
  CHECK(ceiling.ceiling);
  CHECK(ceiling.iops == ceiling.closed_loop_iops);
  CHECK(ceiling.probes.empty());
  t.limit_ms = 0.001;   // one microsecond: no load meets it
  KneeOptions coarse;
  coarse.precision = 0.2;
  const KneeResult none = find_knee(s, t, coarse);
  CHECK_FALSE(none.found);
  CHECK(none.iops == 0);
  t.limit_ms = -1;
  CHECK_THROWS_WITH(find_knee(s, t), Catch::Contains("knee latency target"));
  t.limit_ms = 2;
  Scenario open = s;
  open.workload.iops_limit_per_vm = 1000;
  CHECK_THROWS_WITH(find_knee(open, t), Catch::Contains("already an open loop"));
  Scenario empty = s;   // a window too short for a single completion: not found, not "met"
  empty.workload.duration_s = 1e-6;
  empty.workload.warmup_s = 0;
  t.stat = LatencyStat::p95;
  const KneeResult short_window = find_knee(empty, t);
  CHECK_FALSE(short_window.found);
  CHECK(short_window.window_short);
  CHECK(short_window.window_scale == kMaxWindowScale);
  CHECK_THAT(short_window.window_note, Catch::StartsWith("window too short for 256 outstanding I/Os") &&
                                          Catch::Contains("completed 0 I/Os in its window; a p95 needs at least 400") &&
                                          Catch::EndsWith("lengthen workload.duration_s"));
  CHECK_THAT(format_knee("x", short_window), Catch::Contains("Knee: not found: window too short for 256 outstanding I/Os"));
  CHECK_THAT(to_json("x", short_window), Catch::Contains("\"window_too_short\": true"));
  Scenario target = s;
  target.workload.latency_target_ms = 1;
  CHECK_THROWS_WITH(find_knee(target, t), Catch::Contains("latency-target mode"));
}

TEST_CASE("knee: the probe grid does not depend on the job count") {
  const Scenario s = default_short();
  const KneeTarget t{LatencyStat::p95, 5};
  KneeOptions one;
  one.jobs = 1;
  one.precision = 0.05;
  KneeOptions two = one;
  two.jobs = 2;
  const KneeResult a = find_knee(s, t, one), b = find_knee(s, t, two);
  REQUIRE(a.found);
  CHECK(a.iops == b.iops);
  REQUIRE(a.probes.size() == b.probes.size());
  for (std::size_t i = 0; i < a.probes.size(); ++i) CHECK(a.probes[i].offered_iops == b.probes[i].offered_iops);
}

TEST_CASE("knee: a closed loop whose window is short against its latency is lengthened until it holds") {
  // 1,024 outstanding I/Os (16 per VMDK) at about 10 ms each in a 0.05 s window: the window
  // counts only the quick I/Os, and the knee once came out 8 % low (75,360 IOPS). Lengthened
  // (the closed loop against Little's law), it agrees with the knee of windows long enough.
  const auto knee_at = [](const char* duration, const char* warmup) {
    const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                      {"workload.outstanding_per_vmdk=16", duration, warmup}, cat());
    KneeOptions o;
    o.jobs = 2;
    o.precision = 0.02;
    return find_knee(s, {LatencyStat::p95, 5}, o);
  };
  const KneeResult short_window = knee_at("workload.duration_s=0.05", "workload.warmup_s=0.01");
  const KneeResult long_window = knee_at("workload.duration_s=0.4", "workload.warmup_s=0.2");
  REQUIRE(short_window.found);
  REQUIRE(long_window.found);
  CHECK(short_window.window_scale > 1);
  CHECK(long_window.window_scale == 1);   // a window that holds is not lengthened
  CHECK(short_window.outstanding == 1024);
  CHECK(short_window.iops == Approx(long_window.iops).epsilon(0.05));
  CHECK_THAT(format_knee("x", short_window), Catch::Contains("lengthened 8 times to hold its 1024 outstanding I/Os"));
  CHECK_THAT(closed_loop_window_problem(simulate(parse_scenario(default_scenario_yaml(), "<built-in default>",
                                                                {"workload.outstanding_per_vmdk=16", "workload.duration_s=0.05",
                                                                 "workload.warmup_s=0.01"},
                                                                cat())),
                                        LatencyStat::p95),
             Catch::Contains("Little's law, 10 % allowed"));
}

TEST_CASE("knee: says how long it will take, and suggests shorter probes when that is long") {
  const Scenario s = default_short();   // 0.4 s windows
  // 2 s for the closed loop, then 5 rounds of 2 probes, 2 at a time: 12 s.
  CHECK(knee_time_estimate(s, 2, 0.6, 2) ==
        "hcisim: knee: estimated wall time about 12 s: the closed loop (0.6 simulated s, 2 s), then about 10 probes "
        "like it, 2 at a time\n");
  // One at a time: 2 + 5 x 2 x 2 = 22 s.
  CHECK_THAT(knee_time_estimate(s, 2, 0.6, 1), Catch::StartsWith("hcisim: knee: estimated wall time about 22 s:"));
  // Over a minute: the suggestion, naming the window in force.
  const std::string long_one = knee_time_estimate(s, 20, 0.6, 2);
  CHECK_THAT(long_one, Catch::StartsWith("hcisim: knee: estimated wall time about 2 min:"));
  CHECK_THAT(long_one, Catch::Contains("\nhcisim: knee: for a quicker answer give it shorter probes, e.g. --set "
                                       "workload.duration_s=0.3 (the window each probe measures; now 0.4 s)\n"));
  // Probes already that short: nothing to suggest.
  Scenario short_probes = s;
  short_probes.workload.duration_s = 0.3;
  CHECK_THAT(knee_time_estimate(short_probes, 20, 0.35, 2), !Catch::Contains("shorter probes"));
  // Under run's threshold for saying an estimate: nothing, as run says nothing.
  CHECK(knee_time_estimate(s, 0, 0.6, 2).empty());   // a closed loop too fast to time
  CHECK(knee_time_estimate(s, 1.5, 0.6, 2).empty());   // 1.5 x 6 = 9 s
  CHECK_THAT(knee_time_estimate(s, 1.7, 0.6, 2), Catch::StartsWith("hcisim: knee: estimated wall time about 10 s:"));
  CHECK(knee_rounds(0.01) == 5);   // 3^5 = 243 >= 100 > 81
  CHECK(knee_rounds(0.02) == 4);
}

TEST_CASE("the CSV's pooled p95 is the statistic knee --p95-ms bounds") {
  const RunResult r = simulate(default_short());
  // The fields of a CSV line (quoted ones may hold commas).
  const auto fields = [](const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) out.emplace_back();
      else out.back() += c;
    }
    return out;
  };
  const std::vector<std::string> header = fields(csv_header()), row = fields(csv_row(r));
  REQUIRE(header.size() == row.size());
  const auto at = std::find(header.begin(), header.end(), "pooled_p95_ms");
  REQUIRE(at != header.end());
  const std::string value = row[static_cast<std::size_t>(at - header.begin())];
  const double p95 = latency_statistic(r, LatencyStat::p95);
  CHECK(std::stod(value) == Approx(p95).epsilon(1e-6));
  // Between the reads' and the writes' own p95s (a 70/30 mix of both).
  CHECK(p95 >= std::min(r.result.pooled_read_p95_ms, r.result.pooled_write_p95_ms));
  CHECK(p95 <= std::max(r.result.pooled_read_p95_ms, r.result.pooled_write_p95_ms));
}
