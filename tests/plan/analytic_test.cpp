// The analytic fast path (plan/analytic.hpp) against the simulator it is built from: the knee
// under a mean-latency target within 15 % of find_knee's on four seeds' clusters (OSA and ESA,
// drive-, CPU- and network-bound), the curve through its own pilot, and what it refuses.
#include <catch2/catch.hpp>

#include "../scenario/shared_catalog.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/plan/analytic.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/plan/knee.hpp"

using namespace hcisim;

namespace {

Scenario example(const std::string& name) {
  return load_scenario(default_data_dir() + "/../examples/scenarios/" + name + ".yaml",
                       {"workload.duration_s=1"}, test::cat());   // the file's warm-up: steady buffers
}

}  // namespace

TEST_CASE("the analytic knee is within 15 % of the simulator's on four seeds' clusters", "[analytic]") {
  for (const char* name : {"seed000-nuc11-osa-optane-fio-4k-70r", "seed001-vxrail-esa-raid6-25gbe-oltp32k",
                           "seed003-2node-osa-optane905p-100gbe-easyrun-4k-70r",
                           "seed004-r730xd-osa-optane-cache-vdbench-4k-70r"}) {
    const Scenario s = example(name);
    const AnalyticModel m = analytic_model(s);
    REQUIRE(m.stations.size() > 3);
    // Through its own pilot: the delay or the fork-join share is fitted so the network gives the
    // pilot's latency and, by Little's law, its IOPS at the pilot's population.
    const CurvePoint at_pilot = analytic_curve(m, {1})[0];
    CHECK(at_pilot.latency_ms == Approx(m.pilot_latency_ms).epsilon(1e-4));
    CHECK(at_pilot.iops == Approx(m.pilot_iops).epsilon(0.02));
    // The fit's root finder (TOMS 748) takes about 10 network solutions where bisection to the
    // same 2^-40 of the bracket took 41: each is up to the pilot's population of MVA steps.
    CHECK(m.fit_solutions <= 16);
    // Latency grows along the curve, and IOPS does not fall: with a fork-join share below 1 the
    // recursion may overshoot the bottleneck's ceiling by a little and settle onto it (at most
    // 1 % here).
    const std::vector<CurvePoint> curve = analytic_curve(m, default_curve_points(m));
    for (std::size_t i = 1; i < curve.size(); ++i) {
      CHECK(curve[i].latency_ms >= curve[i - 1].latency_ms);
      CHECK(curve[i].iops >= curve[i - 1].iops * 0.99);
    }
    const double limit = 2 * m.pilot_latency_ms;
    const AnalyticKnee ak = analytic_knee(m, limit);
    KneeOptions o;
    o.jobs = 2;
    const KneeResult sk = find_knee(s, {LatencyStat::mean, limit}, o);
    REQUIRE(sk.found);
    INFO(name << ": analytic " << ak.iops << " IOPS, simulator " << sk.iops << " at mean <= " << limit << " ms");
    CHECK(ak.iops == Approx(sk.iops).epsilon(0.15));
  }
}

TEST_CASE("the analytic path refuses open loops and latency targets", "[analytic][errors]") {
  Scenario open = example("seed000-nuc11-osa-optane-fio-4k-70r");
  open.workload.iops_limit_per_vm = 1000;
  CHECK_THROWS_WITH(analytic_model(open), Catch::Contains("open loop"));
  const AnalyticModel m = analytic_model(example("seed000-nuc11-osa-optane-fio-4k-70r"));
  CHECK_THROWS_WITH(analytic_curve(m, {0}), Catch::Contains("1..4096"));
  CHECK_THROWS_WITH(analytic_knee(m, -1), Catch::Contains("a finite number > 0"));
  CHECK(analytic_knee(m, 1e-6).iops == 0);   // even one I/O misses it
}
