// The knee: bisection on offered load, with the closed loop as the ceiling.
#include <catch2/catch.hpp>

#include <algorithm>

#include "hcisim/core/check.hpp"
#include "hcisim/plan/knee.hpp"
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
  Scenario empty = s;   // a window too short for a single completion: refused, not "met"
  empty.workload.duration_s = 1e-6;
  empty.workload.warmup_s = 0;
  t.stat = LatencyStat::p95;
  CHECK_THROWS_WITH(find_knee(empty, t), Catch::Contains("completed 0 I/Os in its window; a p95 needs at least 400"));
  Scenario target = s;
  target.workload.latency_target_ms = 1;
  CHECK_THROWS_WITH(find_knee(target, t), Catch::Contains("latency-target mode"));
}
