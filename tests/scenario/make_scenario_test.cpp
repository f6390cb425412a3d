// Scenarios built in code: calibrated and validated by default, like a
// file; the uncalibrated model only by the named opt-out; a scenario that is neither refused.
#include <catch2/catch.hpp>

#include <filesystem>

#include "hcisim/core/check.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "report_table.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;

namespace {

using test::cat;

// The default scenario's cluster and workload as a tool would hold them before calibration:
// parsed with a catalog whose calibration is at its defaults (the uncalibrated constants).
Scenario uncalibrated_parts() {
  HardwareCatalog plain = cat();
  plain.set_calibration(Calibration::defaults());
  Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>",
                              {"workload.duration_s=0.3", "workload.warmup_s=0.1"}, plain);
  s.cluster.calibrated = false;   // a ClusterSpec as a tool assembles it: default constants
  return s;
}

// The JSON report without what must differ: the wall time, and where the scenario came from.
std::string comparable(std::string json) {
  json = json.substr(0, json.find("\"wall_seconds\""));
  const auto at = json.find("\"source\": ");
  return json.substr(0, at) + json.substr(json.find(',', at));
}

}  // namespace

TEST_CASE("make_scenario gives the file's result bit for bit, the calibration is applied once") {
  const Scenario parts = uncalibrated_parts();
  const Scenario built = make_scenario(parts.name, parts.cluster, parts.workload, cat(), parts.seed);
  CHECK(built.calibration == Scenario::Calibration::applied);
  CHECK(built.cluster.cpu_costs.guest_us == cat().calibration().value("guest_cpu_us"));
  const Scenario file = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                       {"workload.duration_s=0.3", "workload.warmup_s=0.1"}, cat());
  CHECK(comparable(to_json(simulate(built))) == comparable(to_json(simulate(file))));
  // A what-if on the file's own (calibrated) cluster: its constants are not scaled again.
  const Scenario again = make_scenario(file.name, file.cluster, file.workload, cat(), file.seed);
  CHECK(again.cluster.cpu_costs.vscsi_us == file.cluster.cpu_costs.vscsi_us);
  CHECK(comparable(to_json(simulate(again))) == comparable(to_json(simulate(file))));
  CHECK_THROWS_WITH(make_uncalibrated_scenario("x", file.cluster, file.workload), Catch::Contains("already calibrated"));
  ClusterSpec twice = file.cluster;
  CHECK_THROWS_WITH(cat().calibration().apply_settings(twice), Catch::Contains("already calibrated"));
}

TEST_CASE("a data folder without calibration.yaml runs the uncalibrated model, and says so") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "hcisim_no_calibration";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& f : fs::directory_iterator(default_data_dir()))
    if (f.path().extension() == ".csv") fs::copy_file(f.path(), dir / f.path().filename());
  const HardwareCatalog bare = HardwareCatalog::load(dir.string());
  CHECK_FALSE(bare.calibration_found());
  const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>", {}, bare);
  CHECK(s.calibration == Scenario::Calibration::opted_out);
  REQUIRE(s.warnings.size() == 1);
  CHECK_THAT(s.warnings[0], Catch::Contains("calibration.yaml not found: the model runs with its uncalibrated constants"));
  CHECK(cat().calibration_found());
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

TEST_CASE("make_scenario warns of parts asked to do more than their catalog figures, as a file does") {
  const Scenario parts = uncalibrated_parts();
  CHECK(make_scenario("x", parts.cluster, parts.workload, cat()).warnings.empty());
  ClusterSpec c = parts.cluster;
  c.fabric.nic = cat().nic("intel-x520-da1");   // one 10 GbE port
  c.fabric.link_gbps = 25;
  c.fabric.active_ports = 2;
  c.fabric.leaf = cat().network_switch("ubiquiti-usw-aggregation");   // 10 GbE ports
  const Scenario s = make_scenario("x", c, parts.workload, cat());
  REQUIRE(s.warnings.size() == 3);
  CHECK_THAT(s.warnings[0], Catch::Contains("link_gbps = 25 exceeds the 10 GbE ports of NIC 'intel-x520-da1'"));
  CHECK_THAT(s.warnings[1], Catch::Contains("active_ports = 2 exceeds the 1 ports of NIC 'intel-x520-da1'"));
  CHECK_THAT(s.warnings[2], Catch::Contains("25 GbE exceed the 10 GbE ports of switch 'ubiquiti-usw-aggregation'"));
  // The same parts in a file give the file's warnings (at their lines) instead.
  const Scenario file = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                       {"cluster.host.network.speed_gbe=25"}, cat());
  CHECK(!file.warnings.empty());
  // A clock above the catalog CPU's one-core turbo, said once for hosts alike.
  ClusterSpec hot = parts.cluster;
  for (HostSpec& h : hot.hosts) {
    h.cpu = cat().cpu("intel-core-i7-11700b");   // one-core turbo 4.8 GHz
    h.cpu.ghz = 5.5;
  }
  const Scenario fast = make_scenario("x", hot, parts.workload, cat());
  REQUIRE(fast.warnings.size() == 1);
  CHECK_THAT(fast.warnings[0], Catch::Contains("hosts[0].cpu.ghz = 5.5 exceeds the 4.8 GHz one-core turbo of CPU "
                                               "'intel-core-i7-11700b'"));
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

TEST_CASE("the CPU split by stage adds up to the busy cores") {
  // One thread per core and no LSOM world: every charged microsecond is a busy thread's.
  // The split is charged when work is queued, so work still queued at the window's ends
  // makes the only difference (0.03 % here); with the disk groups' LSOM worlds their cores'
  // busy time counts too.
  for (const char* worlds : {"cluster.osa.lsom_worlds_per_dg=0", "cluster.osa.lsom_worlds_per_dg=1"}) {
    const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                      {"workload.duration_s=0.5", "workload.warmup_s=0.2",
                                       "cluster.host.cpu.threads_per_core=1", worlds},
                                      cat());
    const RunResult r = simulate(s);
    REQUIRE(r.hosts.size() == 4);
    for (const HostResourceRow& h : r.hosts) {
      double sum = 0;
      for (double cores : h.stage_cores) sum += cores;
      const double busy = h.cpu_utilization_pct / 100 * s.cluster.hosts[0].cpu.threads();
      INFO(worlds << ": " << h.host << " stages add up to " << sum << " cores, busy " << busy);
      CHECK(sum == Approx(busy).epsilon(0.005));
      CHECK(h.stage_cores[static_cast<std::size_t>(CpuStage::guest)] > 0);
      CHECK(h.stage_cores[static_cast<std::size_t>(CpuStage::encryption)] == 0);   // no encryption asked for
    }
    CHECK_THAT(format_hcibench(r), Catch::Contains("CPU by stage (cores per host") && Catch::Contains(" network "));
  }
}

TEST_CASE("the NIC's receive queues move the receive work, they do not add to it or charge it twice") {
  // The network stage's CPU per I/O is the same with the receive work on the shared cores
  // (rx_queues 0) as with it on the receive queues' threads (4, deferred to the shared
  // cores), on OSA 4K (seed 000's cluster) and ESA 512K reads (seed 001's, where the bytes
  // dominate); and an unloaded 512K read is slower by its queue's service once, not twice.
  const std::string esa = default_data_dir() + "/../examples/scenarios/seed001-vxrail-esa-raid6-25gbe-512k-read.yaml";
  for (const bool osa : {true, false}) {
    auto net_us_per_io = [&](const char* queues, const char* outstanding) {
      const std::vector<std::string> sets = {"workload.duration_s=0.5", "workload.warmup_s=0.05",
                                             std::string("cluster.host.network.rx_queues=") + queues,
                                             std::string("workload.outstanding_per_vmdk=") + outstanding};
      const Scenario s = osa ? parse_scenario(default_scenario_yaml(), "<built-in default>", sets, cat())
                             : load_scenario(esa, sets, cat());
      const RunResult r = simulate(s);
      double cores = 0;
      for (const HostResourceRow& h : r.hosts) cores += h.stage_cores[static_cast<std::size_t>(CpuStage::network)];
      return std::pair{cores / r.result.iops * 1e6, r.result.pooled_latency_ms};
    };
    const auto [shared, shared_ms] = net_us_per_io("0", "1");
    const auto [queued, queued_ms] = net_us_per_io("4", "1");
    INFO((osa ? "OSA 4K" : "ESA 512K") << ": network " << shared << " us per I/O on shared cores, " << queued
                                        << " with receive queues; latency " << shared_ms << " and " << queued_ms << " ms");
    CHECK(queued == Approx(shared).epsilon(0.01));
    if (!osa) {
      // A 512K read's four 128 KiB pieces each pass a queue once, in parallel, segment by
      // segment behind the wire: at most one piece's receive time at the hosts' clock (61 us
      // at seed 001's 2.6 GHz; 23 us measured), not four, and more than nothing.
      const Scenario s = load_scenario(esa, {}, cat());
      const double piece_ms = 128 * s.cluster.cpu_costs.tcp_receive_us_per_kib * s.cluster.cpu_costs.reference_ghz /
                              s.cluster.hosts[0].cpu.ghz / 1e3;
      INFO("one piece's receive " << piece_ms << " ms");
      CHECK(queued_ms - shared_ms > 0.0);
      CHECK(queued_ms - shared_ms < piece_ms);
    }
  }
}

TEST_CASE("JSON and CSV carry the inputs and the scenario's warnings") {
  const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                    {"workload.duration_s=0.05", "workload.warmup_s=0.02", "workload.vmdk_size=400g"},
                                    cat());
  REQUIRE(s.warnings.size() == 1);
  const RunResult r = simulate(s);
  const std::string json = to_json(r);
  CHECK_THAT(json, Catch::Contains("\"inputs\": {\"source\": \"<built-in default>\", \"architecture\": \"OSA\", "
                                   "\"vsan_release\": \"8.0u3\", \"hosts\": 4, \"layout\": \"RAID-1 (FTT 1)\""));
  CHECK_THAT(json, Catch::Contains("\"warnings\": [\"workload: the VMs' data"));
  CHECK_THAT(json, Catch::Contains(", \"warmup_s\": 0.02, \"guest_os\": \"linux\"},"));
  const Scenario windows = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                          {"workload.duration_s=0.05", "workload.warmup_s=0.02", "workload.guest_os=windows"},
                                          cat());
  CHECK_THAT(to_json(simulate(windows)), Catch::Contains("\"guest_os\": \"windows\"},") && Catch::Contains(", Windows guests\""));
  // CSV: as many cells as the header names (the reader checks), the warning in the last.
  const CsvTable table = test::report_table(r, "inputs");
  CHECK(table.text(0, "warnings").rfind("workload: the VMs' data", 0) == 0);
  CHECK(table.text(0, "workload").find("4k 70% read") == 0);
}

TEST_CASE("a fabric built in code without a switch gets the switch a file without one gets") {
  for (const char* speed : {"10", "25", "100"}) {
    INFO(speed << " GbE");
    const Scenario file = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                         {std::string("cluster.host.network={speed_gbe: ") + speed + "}"}, cat());
    ClusterSpec cluster = file.cluster;
    cluster.fabric.leaf = SwitchSpec{};
    cluster.fabric.spine = SwitchSpec{};
    const Scenario built = make_scenario(file.name, cluster, file.workload, cat(), file.seed);
    CHECK(built.cluster.fabric.leaf.name == file.cluster.fabric.leaf.name);
    CHECK(built.cluster.fabric.leaf.ports == file.cluster.fabric.leaf.ports);
    CHECK(built.cluster.fabric.spine.name == file.cluster.fabric.spine.name);
  }
}
