// The OSA write buffers a run reports (RunResult::write_buffers, `write_buffers` in --json):
// what each disk group holds at the end of the window, against write_buffer.hpp's model of
// coalescing and congestion, on the seed clusters' scenario files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;
using test::cat;

TEST_CASE("the write buffers' end state: sequential rewrites coalesce once the working set is dirty, congestion delays them") {
  // Seed 000's 256K stream over Easy Run's working set (0.55-1.05 of a 600 GB buffer, by
  // placement): a group whose working set fits is held at fill = working set / buffer, every
  // read would hit it, and its writes get a*exp(b*congestion) once the fill is past the
  // congestion start (write_buffer.hpp). ESA has no write buffer.
  const std::string file = std::string(default_data_dir()) + "/../examples/scenarios/seed000-nuc11-osa-optane-fio-256k-seqwrite.yaml";
  const Scenario s = load_scenario(file, {"workload.duration_s=0.5", "workload.warmup_s=1"}, cat());
  const RunResult r = simulate(s);
  REQUIRE(r.write_buffers.size() == 4);
  const OsaSettings& o = s.cluster.osa;
  int coalescing = 0, congested = 0;
  for (const WriteBufferState& b : r.write_buffers) {
    INFO(b.name << " fill " << b.fill << " working set " << b.working_set_gb << " GB, congestion " << b.congestion);
    const double set = b.working_set_gb / b.buffer_gb;
    if (set < o.congestion_full_fill) {
      ++coalescing;
      CHECK(b.fill == Approx(set).epsilon(0.01));
      CHECK(b.read_hit_share == Approx(1.0).epsilon(0.01));
    }
    const double span = o.congestion_full_fill - o.congestion_start_fill;
    const double expected = 255 * std::clamp((b.fill - o.congestion_start_fill) / span, 0.0, 1.0);
    CHECK(b.congestion == Approx(expected).margin(1e-9));
    if (b.congestion > 0) {
      ++congested;
      const double delay_ms = o.congestion_delay_a_us * 1e-3 * std::exp(o.congestion_delay_b * b.congestion);
      CHECK(b.congestion_delay_ms == Approx(delay_ms).margin(1e-6));   // the delay is rounded to the ns
    }
  }
  CHECK(coalescing >= 1);
  CHECK(congested >= 1);
  // Several groups per host are named in order; a group that holds no component is empty.
  const std::string r730 = std::string(default_data_dir()) + "/../examples/scenarios/seed004-r730xd-osa-optane-cache-vdbench-4k-70r.yaml";
  const RunResult two = simulate(load_scenario(r730, {"workload.duration_s=0.2", "workload.warmup_s=0.1"}, cat()));
  REQUIRE(two.write_buffers.size() == 2 * 6);   // six hosts of two groups
  CHECK(two.write_buffers[0].name == "esx01/dg0");
  CHECK(two.write_buffers[1].name == "esx01/dg1");
  const std::string usb = std::string(default_data_dir()) + "/../examples/scenarios/seed002-skullcanyon-osa-optane-usb-diskspd-8k.yaml";
  int empty = 0;
  for (const WriteBufferState& b : simulate(load_scenario(usb, {"workload.duration_s=0.2", "workload.warmup_s=0.1"}, cat())).write_buffers)
    if (b.working_set_gb == 0) {
      ++empty;
      CHECK(b.fill == 0);
    }
  CHECK(empty >= 1);   // one VM's two replicas leave at least two of four groups without data
  CHECK_THAT(format_hcibench(r), Catch::Contains("congestion up to"));
  const std::string esa = std::string(default_data_dir()) + "/../examples/scenarios/seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml";
  const RunResult e = simulate(load_scenario(esa, {"workload.duration_s=0.2", "workload.warmup_s=0.1"}, cat()));
  CHECK(e.write_buffers.empty());
  CHECK_THAT(to_json(e), Catch::Contains("\"write_buffers\": []"));
  CHECK_THAT(format_hcibench(e), !Catch::Contains("Write buffers"));
}
