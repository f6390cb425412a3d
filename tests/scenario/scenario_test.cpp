// Scenario files: a commented example with every section is accepted as written, and each commented
// alternative too; errors name file, line, key path and the allowed values; unknown keys
// are errors; --set overrides; runs are deterministic and obey Little's law.
#include <catch2/catch.hpp>

#include <algorithm>

#include "hcisim/core/check.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/plan/knee.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"
#include "report_table.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;

namespace {

using test::cat;

const char* kExample = R"(name: 4x NUC 11 Extreme, vSAN OSA, Optane P4800X cache
seed: 1
cluster:
  hosts: 4
  architecture: osa                      # osa | esa
  host:
    cpu: {cores: 8, ghz: 3.2}
    network: {speed_gbe: 10, ports: 1}   # ports > 1: active/standby, or teaming: lacp
    disk_groups:                         # osa: 1..5 groups
      - cache: optane-p4800x-750gb
        capacity: [lexar-nm620-2tb]
    # esa instead:  pool: [{device: samsung-pm1733-3.84tb, count: 6}]
    # inline device instead of a catalog name:
    #   cache: {kind: ssd, interface: sata, capacity_gb: 400, read_iops_4k: 75000, write_iops_4k: 36000,
    #           read_latency_us: 50, write_latency_us: 65, seq_read_mbps: 500, seq_write_mbps: 460}
    #   capacity: [{kind: hdd, rpm: 10000, capacity_gb: 1200, seq_mbps: 200, seek_ms: 3.8, count: 7}]
policy: {raid: raid1, ftt: 1}            # raid1 (ftt 0..3) | raid5 | raid6
data_services: {dedupe: true, compression: true}
workload:
  hcibench: fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe
  vms: 8
  duration_s: 30
  warmup_s: 5
  # or explicit: {vms: 8, vmdks_per_vm: 8, outstanding_per_vmdk: 4, block_size: 4k, read_pct: 70,
  #               random_pct: 100, working_set_pct: 100, compress_pct: 50, dedupe_pct: 50}
  # or: {diskspd: "-d60 -W15 -C15 -c128M -t4 -o4 -b8k -L -r -Sh -w50", vms: 1}
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto pos = s.find(from);
  REQUIRE(pos != std::string::npos);
  return s.replace(pos, from.size(), to);
}

// Seed 000's four NUCs with RAID-1, for the workload-group tests (a workload follows).
const char* const kFourNucs = R"(name: mixed
cluster:
  hosts: 4
  host:
    cpu: {model: intel-core-i7-11700b}
    network: {speed_gbe: 10}
    disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]
policy: {raid: raid1, ftt: 1}
)";

Scenario parse(const std::string& text, const std::vector<std::string>& sets = {}) {
  return parse_scenario(text, "test.yaml", sets, cat());
}

}  // namespace

TEST_CASE("a commented example scenario with every section is accepted as written") {
  const Scenario s = parse(kExample);
  CHECK(s.name == "4x NUC 11 Extreme, vSAN OSA, Optane P4800X cache");
  CHECK(s.cluster.hosts.size() == 4);
  CHECK(s.cluster.architecture == Architecture::osa);
  CHECK(s.cluster.hosts[0].cpu.cores() == 8);
  CHECK(s.cluster.hosts[0].cpu.ghz == 3.2);
  CHECK(s.cluster.fabric.link_gbps == 10);
  CHECK(s.cluster.hosts[3].disk_groups[0].cache.device.name == "optane-p4800x-750gb");
  CHECK(s.cluster.hosts[3].disk_groups[0].capacity[0].device.name == "lexar-nm620-2tb");
  CHECK(s.cluster.services.dedupe);
  CHECK(s.workload.vms == 8);
  CHECK(s.workload.vmdks_per_vm == 8);
  CHECK(s.workload.outstanding_per_vmdk == 4);
  CHECK(s.workload.duration_s == 30);
  CHECK(s.workload.compress_pct == 50);
}

TEST_CASE("each commented alternative of the example is accepted") {
  SECTION("ESA pool") {
    std::string t = replace(kExample, "architecture: osa", "architecture: esa");
    t = replace(t, "    disk_groups:                         # osa: 1..5 groups\n      - cache: optane-p4800x-750gb\n        capacity: [lexar-nm620-2tb]\n",
                "    pool: [{device: samsung-pm1733-3.84tb, count: 6}]\n");
    t = replace(t, "data_services: {dedupe: true, compression: true}", "data_services: {compression: true}");
    const Scenario s = parse(t);
    CHECK(s.cluster.architecture == Architecture::esa);
    CHECK(s.cluster.hosts[0].pool.size() == 6);
  }
  SECTION("inline cache and inline HDD capacity") {
    std::string t = replace(kExample, "      - cache: optane-p4800x-750gb\n        capacity: [lexar-nm620-2tb]\n",
                            "      - cache: {kind: ssd, interface: sata, capacity_gb: 400, read_iops_4k: 75000, write_iops_4k: 36000,\n"
                            "                read_latency_us: 50, write_latency_us: 65, seq_read_mbps: 500, seq_write_mbps: 460}\n"
                            "        capacity: [{kind: hdd, rpm: 10000, capacity_gb: 1200, seq_mbps: 200, seek_ms: 3.8, count: 7}]\n");
    t = replace(t, "data_services: {dedupe: true, compression: true}", "data_services: {dedupe: false}");
    const Scenario s = parse(t);
    const DiskGroupSpec& dg = s.cluster.hosts[0].disk_groups[0];
    CHECK(dg.cache.device.interface == "sata");
    CHECK(dg.cache.connection.name == "sata-hba");
    CHECK(dg.capacity.size() == 7);
    CHECK(dg.capacity[6].device.kind == DeviceKind::hdd);
    CHECK(dg.capacity[6].device.seq_write_mbps == 200);
    CHECK(dg.hybrid());
  }
  SECTION("explicit workload") {
    const std::string t = replace(kExample,
                                  "  hcibench: fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe\n  vms: 8\n",
                                  "  {vms: 8, vmdks_per_vm: 8, outstanding_per_vmdk: 4, block_size: 4k, read_pct: 70,\n"
                                  "   random_pct: 100, working_set_pct: 100, compress_pct: 50, dedupe_pct: 50}\n");
    // The flow map replaces the block; keep duration and warm-up out of it for this form.
    const std::string u = replace(replace(t, "  duration_s: 30\n", ""), "  warmup_s: 5\n", "");
    const Scenario s = parse(replace(u, "workload:\n  {", "workload: {"));
    CHECK(s.workload.vmdks_per_vm == 8);
    CHECK(s.workload.dedupe_pct == 50);
  }
  SECTION("DiskSpd") {
    std::string t = replace(kExample,
                            "  hcibench: fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe\n  vms: 8\n",
                            "  diskspd: \"-d60 -W15 -C15 -c128M -t4 -o4 -b8k -L -r -Sh -w50\"\n  vms: 1\n");
    const Scenario s = parse(t);
    CHECK(s.workload.tool == WorkloadTool::diskspd);
    CHECK(s.workload.outstanding_per_vmdk == 16);
    CHECK(s.threads_per_vmdk == 4);
    CHECK(s.workload.duration_s == 30);   // the file's duration_s overrides -d60
    // The buffers age by DiskSpd's -W15, whatever the simulated warm-up; history_s overrides.
    CHECK(s.workload.warmup_s == 5);
    CHECK(s.workload.history_s == 15);
    CHECK(parse(t, {"workload.history_s=600"}).workload.history_s == 600);
  }
}

TEST_CASE("scenario errors name file, line, key path and what is allowed") {
  CHECK_THROWS_WITH(parse(replace(kExample, "architecture: osa", "architecture: xsa")),
                    Catch::Contains("test.yaml:5: cluster.architecture = 'xsa' is not allowed; expected osa | esa"));
  CHECK_THROWS_WITH(parse(replace(kExample, "cpu: {cores: 8", "cpu: {coers: 8")),
                    Catch::Contains("test.yaml:7: unknown key 'cluster.host.cpu.coers'") &&
                        Catch::Contains("allowed here: model, sockets, cores"));
  CHECK_THROWS_WITH(parse(replace(kExample, "capacity: [lexar-nm620-2tb]", "capacity: [lexar-nm620-3tb]")),
                    Catch::Contains("test.yaml:11") && Catch::Contains("unknown device 'lexar-nm620-3tb'") &&
                        Catch::Contains("lexar-nm620-2tb"));
  CHECK_THROWS_WITH(parse(replace(kExample, "policy: {raid: raid1, ftt: 1}", "policy: {raid: raid6}")),
                    Catch::Contains("RAID-6 4+2 (FTT 2) on OSA needs at least 6 hosts; the cluster has 4"));
  CHECK_THROWS_WITH(parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 12")),
                    Catch::Contains("test.yaml:8") && Catch::Contains("speed_gbe") && Catch::Contains("10, 25"));
  CHECK_THROWS_WITH(parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 10, rx_queues: 65")),
                    Catch::Contains("test.yaml:8") && Catch::Contains("cluster.host.network.rx_queues") &&
                        Catch::Contains("65") && Catch::Contains("64"));
  CHECK(parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 10, rx_queues: 1")).cluster.fabric.rx_queues == 1);
  CHECK(parse(kExample).cluster.fabric.rx_queues == 4);
  // Receive interrupt moderation: the catalog NIC's figure, 50 us without one, 0 .. 1000 us.
  CHECK(parse(kExample).cluster.fabric.nic.rx_interrupt_us == 50);
  // A fabric built in C++ without a NIC has the same generic NIC as a file without one.
  {
    const NicSpec from_file = parse(replace(kExample, "speed_gbe: 10, ports: 1", "speed_gbe: 10")).cluster.fabric.nic;
    const NicSpec in_code = FabricSpec{}.nic;
    CHECK(in_code.name == from_file.name);
    CHECK(in_code.rx_interrupt_us == from_file.rx_interrupt_us);
    CHECK(in_code.latency_us == from_file.latency_us);
    CHECK(in_code.ports == from_file.ports);
    CHECK(NicSpec::generic(10).speed_gbps == from_file.speed_gbps);
  }
  CHECK(parse(replace(kExample, "speed_gbe: 10, ports: 1", "speed_gbe: 25, nic: broadcom-57414-25g"))
            .cluster.fabric.nic.rx_interrupt_us == 10);
  CHECK(parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 10, rx_interrupt_us: 0")).cluster.fabric.nic.rx_interrupt_us == 0);
  CHECK_THROWS_WITH(parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 10, rx_interrupt_us: 2000")),
                    Catch::Contains("test.yaml:8") && Catch::Contains("cluster.host.network.rx_interrupt_us") &&
                        Catch::Contains("2000") && Catch::Contains("1000"));
  CHECK_THROWS_WITH(parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 10, rx_interrupt_us: -1")),
                    Catch::Contains("cluster.host.network.rx_interrupt_us"));
  // Where moderation is not modelled, asking for it is said.
  const Scenario rdma = parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 10, transport: rdma, rx_interrupt_us: 20"));
  REQUIRE(rdma.warnings.size() == 1);
  CHECK_THAT(rdma.warnings[0], Catch::Contains("rx_interrupt_us has no effect with transport rdma"));
  const Scenario no_queues = parse(replace(kExample, "speed_gbe: 10", "speed_gbe: 10, rx_queues: 0, rx_interrupt_us: 20"));
  REQUIRE(no_queues.warnings.size() == 1);
  CHECK_THAT(no_queues.warnings[0], Catch::Contains("rx_interrupt_us has no effect with rx_queues 0"));
  CHECK_THROWS_WITH(parse(replace(kExample, "  vms: 8\n", "  vms: eight\n")),
                    Catch::Contains("test.yaml:21: workload.vms = 'eight' is not allowed; expected a number"));
  CHECK_THROWS_WITH(parse(replace(kExample, "hcibench: fio-8vmdk", "hcibench: fio-8vdisk")),
                    Catch::Contains("workload") && Catch::Contains("'8vdisk'"));
  CHECK_THROWS_WITH(parse("cluster: [1, 2\n"), Catch::Contains("test.yaml:") && Catch::Contains("not valid YAML"));
  CHECK_THROWS_WITH(parse(replace(kExample, "    disk_groups:", "    pool: [intel-p5600-3.2tb]\n    disk_groups:")),
                    Catch::Contains("OSA has no storage pool"));
  CHECK_THROWS_WITH(load_scenario("/nonexistent/x.yaml", {}, cat()), Catch::Contains("'/nonexistent/x.yaml' cannot be read"));
  // Easy Run's release: only beside easy_run, a version at its line, a profile the release has.
  const std::string easy = replace(kExample, "  hcibench: fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe\n  vms: 8\n",
                                   "  easy_run: 4k-70read\n  easy_run_release: 2.8.2\n");
  const Scenario easy_28 = parse(easy);
  CHECK(easy_28.workload.vmdks_per_vm == 8);
  CHECK(easy_28.workload.vms == 8);
  CHECK(parse(easy, {"workload.easy_run_release=3.0"}).workload.vmdks_per_vm == 4);
  CHECK_THROWS_WITH(parse(replace(easy, "easy_run_release: 2.8.2", "easy_run_release: 2.8.x")),
                    Catch::Contains("test.yaml:21:") && Catch::Contains("easy_run_release '2.8.x' is not allowed"));
  CHECK_THROWS_WITH(parse(replace(easy, "easy_run: 4k-70read", "easy_run: seq-read")),
                    Catch::Contains("seq-read") && Catch::Contains("before 2.8.4"));
  CHECK_THROWS_WITH(parse(replace(easy, "  easy_run: 4k-70read\n", "  vms: 8\n")),
                    Catch::Contains("easy_run_release sets the layout of HCIBench's Easy Run"));
}

TEST_CASE("alias bombs, second documents and empty windows are bad input") {
  // 310 bytes of nested aliases stand for 10^7 nodes; the copy stops at the limit.
  std::string bomb = "name=[&a0 [x,x,x,x,x,x,x,x,x,x]";
  for (int d = 1; d <= 6; ++d) {
    bomb += ", &a" + std::to_string(d) + " [";
    for (int i = 0; i < 10; ++i) bomb += (i ? ",*a" : "*a") + std::to_string(d - 1);
    bomb += "]";
  }
  bomb += "]";
  CHECK_THROWS_WITH(parse(kExample, {bomb}),
                    Catch::Contains("--set 'name': the value expands to more than 10000 YAML nodes"));
  CHECK(parse(kExample, {"cluster.failed_hosts=[&h esx01]"}).cluster.failed_hosts.size() == 1);
  // A second document is neither ignored nor left unparsed.
  CHECK_THROWS_WITH(parse(std::string(kExample) + "---\nworkload: {vms: 1}\n"),
                    Catch::Contains("test.yaml:") && Catch::Contains("a second YAML document"));
  CHECK_THROWS_WITH(parse(std::string(kExample) + "---\nworkload: {vms: 1}\n--- [unclosed\n"),
                    Catch::Contains("test.yaml:") && Catch::Contains("not valid YAML"));
  CHECK(parse("---\n" + std::string(kExample) + "...\n").workload.vms == 8);
  // A window that rounds to 0 ns.
  CHECK_THROWS_WITH(parse(kExample, {"workload.duration_s=1e-10"}),
                    Catch::Contains("duration_s") && Catch::Contains("1e-6..86400 seconds"));
  CHECK(parse(kExample, {"workload.duration_s=1e-6"}).workload.duration_s == 1e-6);
  // The allowed minimum completes no I/O: the run says so, in its warnings and its text.
  {
    const RunResult none = simulate(parse(kExample, {"workload.duration_s=1e-6", "workload.warmup_s=0"}));
    CHECK(none.result.simulated_ios == 0);
    REQUIRE(!none.inputs.warnings.empty());
    CHECK_THAT(none.inputs.warnings.back(), Catch::StartsWith("no I/O issued in the 1e-06 s measured completed in it") &&
                                                Catch::Contains("lengthen workload.duration_s"));
    const std::string text = format_hcibench(none);
    CHECK_THAT(text, Catch::Contains("Warning: no I/O issued") && Catch::Contains("IOPS 0.00 no interval (a mean of 0)") &&
                         Catch::Contains("mean latency 0.000 ms no interval (a mean of 0)"));
    const std::string diskspd = replace(kExample, "  hcibench: fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe\n  vms: 8\n",
                                        "  diskspd: \"-d60 -W15 -C15 -c128M -t4 -o4 -b8k -L -r -Sh -w50\"\n  vms: 1\n");
    const RunResult none_diskspd = simulate(parse(diskspd, {"workload.duration_s=1e-6", "workload.warmup_s=0"}));
    CHECK_THAT(format_diskspd(none_diskspd), Catch::Contains("Warning: no I/O issued"));
    CHECK_THAT(to_json(none), Catch::Contains("no I/O issued"));
    const RunResult some = simulate(parse(kExample, {"workload.duration_s=0.01", "workload.warmup_s=0"}));
    CHECK(some.result.simulated_ios > 0);
    CHECK_THAT(format_hcibench(some), !Catch::Contains("no I/O issued"));
    // A 0.01 s window is short for the closed loop's I/Os: only that is warned of.
    for (const std::string& w : some.window_warnings)
      CHECK_THAT(w, Catch::StartsWith("the run") && Catch::EndsWith("lengthen workload.duration_s"));
    // An operation the workload does not issue is not warned of; one it issues and that
    // completed none in the window is, by name.
    const RunResult writes = simulate(parse(kExample, {"workload.duration_s=0.01", "workload.warmup_s=0", "workload.read_pct=0"}));
    CHECK(writes.result.read_iops == 0);
    for (const std::string& w : writes.window_warnings) CHECK_THAT(w, Catch::StartsWith("the run"));
    const RunResult rare = simulate(parse(kExample, {"workload.duration_s=0.01", "workload.warmup_s=0", "workload.read_pct=0.001"}));
    REQUIRE(rare.result.read_iops == 0);
    REQUIRE(!rare.window_warnings.empty());
    CHECK_THAT(rare.window_warnings[0], Catch::StartsWith("no read issued in the 0.01 s measured completed in it while other I/O did"));
    CHECK_THAT(format_diskspd(rare), Catch::Contains("Warning: no read issued"));
    CHECK(rare.inputs.warnings.back() == rare.window_warnings.back());
  }
  // Fuzz audit: a working set below one block ran as one block; an explicit vms: 0 meant one
  // VM per host without a word (and overrode easy_run's count); a key path with an empty part
  // was reported as an unknown key 'workload.'.
  CHECK_THROWS_WITH(parse(kExample, {"workload.working_set_pct=1e-300"}),
                    Catch::StartsWith("test.yaml (--set): workload.working_set_pct = 1e-300 is not allowed; expected at "
                                      "least ") &&
                        Catch::Contains("% (one 4096-byte block of a "));
  CHECK(parse(kExample, {"workload.vmdk_size=1m", "workload.working_set_pct=0.4"}).workload.working_set_pct == 0.4);
  CHECK_THROWS_WITH(parse(kExample, {"workload.vmdk_size=1m", "workload.working_set_pct=0.3"}),
                    Catch::Contains("expected at least 0.390625 %"));
  CHECK(parse(kExample, {"workload.vmdk_size=1m", "workload.working_set_pct=0.390625"}).workload.working_set_pct ==
        0.390625);   // exactly one block is enough
  // The smallest share the message gives is itself accepted (rounded up, not to nearest).
  for (const char* size : {"2m", "3m", "7m", "4g", "14g", "62t"})
    for (const char* block : {"4k", "8k", "64k"}) {
      const std::vector<std::string> at = {std::string("workload.vmdk_size=") + size, std::string("workload.block_size=") + block};
      std::vector<std::string> tiny = at;
      tiny.push_back("workload.working_set_pct=1e-12");
      std::string shown;
      try {
        parse(kExample, tiny);
      } catch (const InvalidArgument& e) {
        const std::string m = e.what();
        const auto from = m.find("expected at least ") + 18;
        shown = m.substr(from, m.find(' ', from) - from);
      }
      INFO(size << " " << block << ": " << shown);
      REQUIRE(!shown.empty());
      std::vector<std::string> least = at;
      least.push_back("workload.working_set_pct=" + shown);
      CHECK_NOTHROW(parse(kExample, least));
    }
  CHECK_THROWS_WITH(parse(kExample, {"workload.vms=0"}),
                    Catch::StartsWith("test.yaml (--set): workload.vms = '0' is not allowed; expected a whole number in "
                                      "[1, 10000] (leave vms out for the source's count, or one VM per host)"));
  CHECK(parse(replace(kExample, "  vms: 8\n", "")).workload.describe().find("one VM per host x 8 VMDKs per VM") !=
        std::string::npos);
  for (const char* bad : {"workload..vms=1", ".workload=1", "workload.=1"})
    CHECK_THROWS_WITH(parse(kExample, {bad}), Catch::Contains("has an empty part; expected names joined by single dots"));
  // A disk group's rule is put at the group's key: capacity: is on line 11, not the host's cpu:.
  CHECK_THROWS_WITH(
      parse(replace(kExample, "capacity: [lexar-nm620-2tb]", "capacity: [{device: lexar-nm620-2tb, count: 8}]")),
      Catch::StartsWith("test.yaml:11: ") && Catch::Contains("disk_groups[0].capacity: 8 capacity devices"));
  CHECK_THROWS_WITH(parse(replace(kExample, "- cache: optane-p4800x-750gb", "- cache: seagate-10k-v7-1.2tb")),
                    Catch::StartsWith("test.yaml:10: ") && Catch::Contains("the cache device must be flash"));
  CHECK_THROWS_WITH(
      parse(kExample, {"cluster.host.disk_groups=[{cache: optane-p4800x-750gb, capacity: [{device: lexar-nm620-2tb, "
                       "count: 8}]}]"}),
      Catch::StartsWith("test.yaml (--set): ") && Catch::Contains("8 capacity devices"));
  // Scale factors without an upper bound overflowed int64 nanoseconds later, in messages
  // that named no key. They are bounded where they are read.
  CHECK_THROWS_WITH(parse(kExample, {"cluster.esa.gc_factor=1e13"}),
                    Catch::Contains("esa.gc_factor = '1e13' is not allowed; expected a number > 0 and <= 100"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.esa.cpu_per_io_factor=1e15"}),
                    Catch::Contains("esa.cpu_per_io_factor") && Catch::Contains("<= 100"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.osa.lsom_cost_factor=1e13"}),
                    Catch::Contains("osa.lsom_cost_factor") && Catch::Contains("<= 1000"));
  CHECK(parse(kExample, {"cluster.esa.gc_factor=4"}).cluster.esa.gc_factor == 4);
  // The benchmark VM's vCPUs, for its own CPU table: 0 (not stated) by default.
  CHECK(parse(kExample).workload.vcpus_per_vm == 0);
  CHECK(parse(kExample, {"workload.vcpus_per_vm=4"}).workload.vcpus_per_vm == 4);
  CHECK_THROWS_WITH(parse(kExample, {"workload.vcpus_per_vm=769"}),
                    Catch::Contains("test.yaml (--set): ") && Catch::Contains("vcpus_per_vm") && Catch::Contains("768"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.vcpus_per_vm=2.5"}), Catch::Contains("vcpus_per_vm"));
  // Where the elevator's data reduction runs: its LSOM world (the default) or the shared cores.
  CHECK(parse(kExample).cluster.osa.destage_reduction == DestageReduction::world);
  CHECK(parse(kExample, {"cluster.osa.destage_reduction=shared"}).cluster.osa.destage_reduction ==
        DestageReduction::shared);
  CHECK_THROWS_WITH(parse(kExample, {"cluster.osa.destage_reduction=helpers"}),
                    Catch::Contains("test.yaml (--set): ") &&
                        Catch::Contains("osa.destage_reduction = 'helpers' is not allowed; expected world | shared"));
  // The elevator's idle fill: at most its start fill (equal turns the idle drain off).
  CHECK(parse(kExample, {"cluster.osa.destage_idle_fill=0.3"}).cluster.osa.destage_idle_fill == 0.3);
  CHECK_THROWS_WITH(parse(kExample, {"cluster.osa.destage_idle_fill=0.5"}),
                    Catch::Contains("osa.destage_idle_fill = 0.5 is not allowed") &&
                        Catch::Contains("from 0 to osa.destage_start_fill"));
  // An empty value is said to be empty, not "a list or map".
  CHECK_THROWS_WITH(parse(kExample, {"workload.duration_s="}),
                    Catch::Contains("workload.duration_s is empty; expected a number"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.duration_s=[1]"}),
                    Catch::Contains("workload.duration_s = '(a list)' is not allowed"));
  // 2,000 aliased disk groups are counted before any is read or copied to the hosts.
  std::string groups = "      - &d {cache: optane-p4800x-750gb, capacity: [{device: lexar-nm620-2tb, count: 7}]}\n";
  for (int i = 0; i < 2000; ++i) groups += "      - *d\n";
  CHECK_THROWS_WITH(parse(replace(kExample, "      - cache: optane-p4800x-750gb\n        capacity: [lexar-nm620-2tb]\n", groups)),
                    Catch::Contains("test.yaml:") && Catch::Contains("2001 disk groups; an OSA host has 1 to 5"));
  // Astronomical VMDKs are rejected, not placed (64 MB of state per VMDK at 800,000 TB).
  CHECK_THROWS_WITH(parse(kExample, {"workload.vmdk_size=800000t"}),
                    Catch::Contains("vmdk_size") && Catch::Contains("at most 62 TiB"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.vmdk_size=60t"}),
                    Catch::Contains("workload: the VMs' data") && Catch::Contains("more than 100 times"));
  CHECK(parse(kExample, {"workload.vmdk_size=200g"}).warnings.size() == 1);   // over capacity: a warning
  // Nodes are counted as the parser streams them, before a tree of 500,000 keys is built.
  std::string many = kExample;
  for (int i = 0; i < 60000; ++i) {
    many += 'k';
    many += std::to_string(i);
    many += ": 1\n";
  }
  CHECK_THROWS_WITH(parse(many), Catch::Contains("test.yaml:") && Catch::Contains("more than 100000 YAML nodes"));
  // A cluster-wide check names the line of the key, or (--set); the value as typed.
  CHECK_THROWS_WITH(parse(replace(kExample, "  hosts: 4\n", "  hosts: 4\n  osa: {lsom_cost_factor: 0}\n")),
                    Catch::Contains("test.yaml:5: ") && Catch::Contains("osa.lsom_cost_factor = 0"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.osa.lsom_cost_factor=0"}),
                    Catch::Contains("test.yaml (--set): ") && Catch::Contains("osa.lsom_cost_factor = 0"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.host.cpu.ghz=0"}),
                    Catch::Contains("test.yaml (--set): cluster.host.cpu.ghz = '0' is not allowed"));
  // An unknown catalog name: at its own key in the file, or at (--set) when the command line
  // chose it (it was put at the file's cpu: or network: line).
  const std::string with_model = replace(kExample, "    cpu: {cores: 8, ghz: 3.2}\n", "    cpu:\n      model: xx\n");
  CHECK_THROWS_WITH(parse(with_model), Catch::StartsWith("test.yaml:8: cluster.host.cpu: unknown CPU 'xx'"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.host.cpu.model=xx"}),
                    Catch::StartsWith("test.yaml (--set): cluster.host.cpu: unknown CPU 'xx'"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.host.network.nic=yy"}),
                    Catch::StartsWith("test.yaml (--set): cluster.host.network: unknown NIC 'yy'"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.host.network.switch=zz"}),
                    Catch::StartsWith("test.yaml (--set): cluster.host.network: unknown switch 'zz'"));
  CHECK_THROWS_WITH(parse(replace(kExample, "      - cache: optane-p4800x-750gb\n",
                                  "      - cache:\n          device: optane-p4800x-750gb\n          connection: ww\n")),
                    Catch::StartsWith("test.yaml:12: cluster.host.disk_groups[0].cache: unknown connection 'ww'"));
  // The same for rules over several keys: at the key the message names, or at what --set gave.
  CHECK_THROWS_WITH(parse(kExample, {"cluster.architecture=esa"}),
                    Catch::StartsWith("test.yaml:10: cluster hosts[0] (esx01).disk_groups: ESA has no disk groups"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.hosts=1"}),
                    Catch::StartsWith("test.yaml (--set): policy RAID-1 (FTT 1) on OSA needs at least 3 hosts"));
  CHECK_THROWS_WITH(parse(replace(kExample, "  hosts: 4\n", "  hosts: 1\n")),
                    Catch::StartsWith("test.yaml:17: policy RAID-1 (FTT 1) on OSA needs at least 3 hosts"));
  CHECK_THROWS_WITH(parse(kExample, {"policy.raid=raid5", "policy.ftt=1", "cluster.hosts=3"}),
                    Catch::StartsWith("test.yaml (--set): policy RAID-5 3+1"));
  CHECK_THROWS_WITH(parse(kExample, {"policy.stripe_width=3"}),
                    Catch::StartsWith("test.yaml (--set): cluster policy.stripe_width: 3 stripes"));
  CHECK_THROWS_WITH(parse(replace(kExample, "  host:\n", "  witness_host: true\n  host:\n")),
                    Catch::StartsWith("test.yaml:6: cluster witness_host:"));
  CHECK_THROWS_WITH(parse(kExample, {"policy.ftt=2"}),
                    Catch::StartsWith("test.yaml (--set): policy RAID-1 (FTT 2) on OSA needs at least 5 hosts"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.osa.lsom_worlds_per_dg=8"}),
                    Catch::StartsWith("test.yaml (--set): cluster osa.lsom_worlds_per_dg: 8 LSOM worlds"));
  CHECK_THROWS_WITH(parse(replace(kExample, "  hosts: 4\n", "  hosts: 4\n  osa: {destage_start_fill: 0.9}\n")),
                    Catch::StartsWith("test.yaml:5: cluster osa: fill thresholds"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.failed_hosts=[esx01, esx02]"}),
                    Catch::StartsWith("test.yaml (--set): cluster failed_hosts: 2 failed hosts"));
  // The same for the workload: a one-key check at its key, a several-key check at workload:.
  CHECK_THROWS_WITH(parse(replace(kExample, "  duration_s: 30\n", "  duration_s: 0\n")),
                    Catch::StartsWith("test.yaml:22: workload.duration_s = '0' is not allowed"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.block_size=1"}),
                    Catch::StartsWith("test.yaml (--set): workload.block_size bytes = 1 is not allowed"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.read_pct=101"}),
                    Catch::StartsWith("test.yaml (--set): workload.read_pct = '101' is not allowed"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.vms=2000", "workload.outstanding_per_vmdk=1024"}),
                    Catch::StartsWith("test.yaml:20: workload: vms x vmdks_per_vm x outstanding_per_vmdk = "));
  // A place is given once ("file:20: workload: file (--set): ..." before).
  try {
    parse(kExample, {"workload.hcibench=-"});
    FAIL("accepted");
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    CHECK(m.rfind("test.yaml (--set): workload.hcibench = '(a list)'", 0) == 0);
    CHECK(m.find("test.yaml", 1) == std::string::npos);
  }
  CHECK_THROWS_WITH(parse(replace(kExample, "hcibench: fio-8vmdk", "hcibench: fio-8vdisk")),
                    Catch::StartsWith("test.yaml:20: HCIBench workload name: '8vdisk'"));
  // Nesting past yaml-cpp's depth guard is said to be that, not "bad file".
  const std::string deep = std::string(3000, '[') + std::string(3000, ']');
  CHECK_THROWS_WITH(parse("name: " + deep + "\n"), Catch::Contains("test.yaml:1: not valid YAML: lists or maps nested too deeply") &&
                                                       Catch::Contains("about 500 levels"));
  // The limit the message gives: 498 levels parse, 499 do not.
  const auto nested = [](std::size_t n) { return "name: " + std::string(n, '[') + std::string(n, ']') + "\n"; };
  CHECK_THROWS_WITH(parse(nested(498)), Catch::Contains("expected a single value"));
  CHECK_THROWS_WITH(parse(nested(499)), Catch::Contains("nested too deeply"));
  CHECK_THROWS_WITH(parse(kExample, {"name=" + deep}),
                    Catch::Contains("nested too deeply") && Catch::Contains("(6005 characters)"));
  // A 100,000-digit value is echoed in 80 characters.
  try {
    parse(kExample, {"workload.vms=" + std::string(100000, '9')});
    FAIL("accepted");
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    CHECK(m.size() < 400);
    CHECK_THAT(m, Catch::Contains("... (100000 characters)"));
  }
}

TEST_CASE("a write waiting for room in two write buffers is not lost between their queues") {
  // RAID-5 with 4 KiB stripe units and 16 MiB writes fill the aged buffers; a write that
  // found room in the group it waited on but not in its parity group stayed at that queue's
  // head for good, and half the closed-loop VMs stopped (IOPS x latency 5.9 of 8).
  const std::string file = std::string(default_data_dir()) + "/../examples/scenarios/seed000-nuc11-osa-optane-fio-4k-70r.yaml";
  const RunResult r = simulate(load_scenario(file,
                                             {"workload.duration_s=12", "workload.warmup_s=1", "policy.raid=raid5",
                                              "cluster.osa.stripe_unit_kb=4", "workload.vmdk_size=1t",
                                              "workload.block_size=16m", "workload.vmdks_per_vm=1",
                                              "workload.outstanding_per_vmdk=1", "workload.read_pct=0"},
                                             cat()));
  // The bug left 5.9 of 8; the window's edges hold up to 8 I/Os of half a second each in
  // 12 s, a bias of up to 4 % (the disk groups' LSOM worlds make these writes that slow).
  INFO("IOPS " << r.result.iops << ", latency " << r.result.pooled_latency_ms << " ms");
  CHECK(r.result.iops * r.result.pooled_latency_ms * 1e-3 == Approx(8.0).epsilon(0.06));
  for (const ThreadStats& t : r.threads) CHECK(t.ios[1] > 0);   // every VM wrote in the window
}

TEST_CASE("scenario overrides given with --set replace any key and bad ones are named") {
  const Scenario s = parse(kExample, {"workload.vms=16", "cluster.host.network.speed_gbe=25", "policy.ftt=0"});
  CHECK(s.workload.vms == 16);
  CHECK(s.cluster.fabric.link_gbps == 25);
  CHECK(s.cluster.policy.ftt == 0);
  // A bad value given with --set is said to come from --set, not from a line of the file.
  CHECK_THROWS_WITH(parse(kExample, {"workload.vms=eight"}),
                    Catch::Contains("test.yaml (--set): workload.vms = 'eight' is not allowed"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.vmz=16"}),
                    Catch::StartsWith("--set 'workload.vmz=16': unknown key 'workload.vmz'; did you mean 'workload.vms'?"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.vms"}), Catch::Contains("expected key.path=value"));
  CHECK(parse(kExample, {"workload.history_s=0"}).workload.history_s == 0);
  CHECK_THROWS_WITH(parse(kExample, {"workload.history_s=-1"}), Catch::Contains("history_s") && Catch::Contains("0..1e7"));
  // Stripe width: 1..12, at most the capacity devices of a host (the example has one).
  CHECK(parse(kExample, {}).cluster.policy.stripe_width == 1);
  CHECK_THROWS_WITH(parse(kExample, {"policy.stripe_width=2"}),
                    Catch::Contains("policy.stripe_width: 2 stripes need as many capacity devices") &&
                        Catch::Contains("has 1"));
  CHECK_THROWS_WITH(parse(kExample, {"policy.stripe_width=0"}),
                    Catch::Contains("policy.stripe_width = '0' is not allowed") && Catch::Contains("[1, 12]"));
  const Scenario esa = parse(R"(cluster:
  hosts: 3
  architecture: esa
  host: {cpu: {cores: 16, ghz: 2.5}, network: {speed_gbe: 25}, pool: [{device: samsung-pm1733-3.84tb, count: 2}]}
policy: {raid: raid1, ftt: 1, stripe_width: 3}
workload: {vms: 3}
)",
                             {});
  REQUIRE(esa.warnings.size() == 1);
  CHECK_THAT(esa.warnings[0], Catch::Contains("policy.stripe_width changes nothing on ESA"));
  CHECK(parse(kExample, {}).workload.vscsi == VscsiAdapter::pvscsi);
  CHECK(parse(kExample, {"workload.vscsi=lsilogic"}).workload.vscsi == VscsiAdapter::lsilogic);
  CHECK_THROWS_WITH(parse(kExample, {"workload.vscsi=nvme"}),
                    Catch::Contains("workload.vscsi = 'nvme' is not allowed") && Catch::Contains("expected pvscsi | lsilogic"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.esa.cpu_per_io_factor=0"}),
                    Catch::Contains("esa.cpu_per_io_factor") && Catch::Contains("> 0"));
}

TEST_CASE("the built-in default scenario runs, deterministically, and obeys Little's law") {
  // A window of 0.6 s holds about 170 mean latencies: the I/Os in flight at its end (not
  // counted) bias Little's law by well under the 3 % checked.
  const std::vector<std::string> shorter = {"workload.duration_s=0.6", "workload.warmup_s=0.2"};
  const Scenario s = parse_scenario(default_scenario_yaml(), "<built-in default>", shorter, cat());
  const RunResult a = simulate(s);
  const RunResult b = simulate(s);
  auto strip = [](std::string j) { return j.substr(0, j.find("\"wall_seconds\"")); };
  CHECK(strip(to_json(a)) == strip(to_json(b)));
  CHECK(a.result.outstanding_io == Approx(a.configured_outstanding).epsilon(0.001));
  CHECK(a.result.iops * a.result.pooled_latency_ms * 1e-3 == Approx(a.configured_outstanding).epsilon(0.03));
  const Scenario other = parse_scenario(default_scenario_yaml(), "<built-in default>",
                                        {"workload.duration_s=0.6", "workload.warmup_s=0.2", "seed=2"}, cat());
  CHECK(strip(to_json(simulate(other))) != strip(to_json(a)));
  const std::string text = format_hcibench(a);
  CHECK_THAT(text, Catch::Contains("JOB_NAME\t= fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe"));
  CHECK_THAT(text, Catch::Contains("VMs\t\t= 8") && Catch::Contains("95%tile_W_LAT") && Catch::Contains("| Average |"));
  const std::string json = to_json(a);
  for (const char* key : {"\"iops\"", "\"throughput_mbps\"", "\"read_latency_ms\"", "\"write_latency_ms\"",
                          "\"read_p95_ms\"", "\"write_p95_ms\"", "\"pooled_read_p95_ms\"", "\"pooled_write_p95_ms\"",
                          "\"read_p99_ms\"", "\"write_p99_ms\"", "\"outstanding_io\"", "\"simulated_ios\"",
                          "\"cpu_usage_pct\"", "\"cpu_cores_by_stage\"", "\"utilisation\"", "\"bottleneck\"", "\"capacity\"", "\"seed\"",
                          "\"version\""})
    CHECK_THAT(json, Catch::Contains(key));
  CHECK(csv_header().find("iops,read_iops") != std::string::npos);
  // Each disk group's write buffer at the end: a random 70/30 load the elevator keeps up with
  // sits at its start fill, below congestion, and a read hits the buffer in proportion to the
  // share of its working set that is dirty.
  REQUIRE(a.write_buffers.size() == 4);
  for (const WriteBufferState& buf : a.write_buffers) {
    CHECK(buf.buffer_gb == Approx(600));
    CHECK(buf.fill == Approx(s.cluster.osa.destage_start_fill).margin(0.01));
    CHECK(buf.congestion == 0);
    CHECK(buf.congestion_delay_ms == 0);
    CHECK(buf.read_hit_share == Approx(buf.fill * buf.buffer_gb / buf.working_set_gb));
  }
  CHECK_THAT(json, Catch::Contains("\"write_buffers\": [{\"name\": \"esx01/dg0\""));
  CHECK_THAT(text, Catch::Contains("Write buffers at the end: fill 30 %, working sets") && Catch::Contains("no congestion"));
}

TEST_CASE("bad numbers that would overflow or stall the simulation are rejected when the scenario is read") {
  // Open-loop rates whose release interval is under 10 ns or over 1000 s.
  CHECK_THROWS_WITH(parse(kExample, {"workload.iops_limit_per_vm=3e9"}), Catch::Contains("iops_limit_per_vm") && Catch::Contains("0.001..1e8"));
  CHECK_THROWS_WITH(parse(kExample, {"workload.iops_limit_per_vm=1e-10"}), Catch::Contains("iops_limit_per_vm"));
  // Counts whose product would not fit in memory.
  CHECK_THROWS_WITH(parse(kExample, {"workload.vms=10000", "workload.vmdks_per_vm=64", "workload.outstanding_per_vmdk=1024"}),
                    Catch::Contains("at most 1,000,000 outstanding I/Os"));
  // Hardware figures far outside physics (service times would leave the nanosecond range).
  CHECK_THROWS_WITH(parse(kExample, {"cluster.host.cpu={cores: 8, ghz: 1e-300}"}), Catch::Contains("ghz") && Catch::Contains("0.1 .. 10 GHz"));
  // Congestion settings that would overflow the delay, a hybrid cache without a write buffer.
  CHECK_THROWS_WITH(parse(kExample, {"cluster.osa.congestion_delay_b=1e6"}), Catch::Contains("osa.congestion_delay_b"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.osa.hybrid_read_cache_share=1"}), Catch::Contains("osa.hybrid_read_cache_share"));
  // Keys that are lists or maps, an empty or non-map document.
  CHECK_THROWS_WITH(parse("? [a, b]\n: 1\n"), Catch::Contains("test.yaml:1") && Catch::Contains("plain name"));
  CHECK_THROWS_WITH(parse("hello\n"), Catch::Contains("a scenario is a map"));
  CHECK_THROWS_WITH(parse(""), Catch::Contains("empty scenario"));
}

TEST_CASE("tool command lines: counts are bounded before they multiply, percentages are 0..100") {
  CHECK_THROWS_WITH(parse_diskspd("-t100000 -o100000 -b4k"), Catch::Contains("DiskSpd -t") && Catch::Contains("1..1024"));
  CHECK_THROWS_WITH(parse_diskspd("-t-2 -o4 -b4k"), Catch::Contains("DiskSpd -t"));
  CHECK_THROWS_WITH(parse_fio_options("rw=randrw iodepth=100000 numjobs=100000"), Catch::Contains("fio iodepth"));
  CHECK_THROWS_WITH(parse_fio_options("rw=randrw rwmixread=nan"), Catch::Contains("fio rwmixread"));
  CHECK_THROWS_WITH(parse_fio_options("rw=randrw rwmixread=-5"), Catch::Contains("a percentage 0..100"));
}

TEST_CASE("a link faster than the named NIC or switch, or more ports than the NIC has, is said as a warning") {
  const Scenario plain = parse(kExample);
  CHECK(plain.warnings.empty());
  const Scenario fast = parse(replace(kExample, "network: {speed_gbe: 10, ports: 1}",
                                      "network: {nic: intel-x520-da1, speed_gbe: 25, ports: 2}"));
  REQUIRE(fast.warnings.size() == 2);
  CHECK_THAT(fast.warnings[0], Catch::Contains("speed_gbe = 25 exceeds the 10 GbE ports of NIC 'intel-x520-da1'"));
  CHECK_THAT(fast.warnings[1], Catch::Contains("ports = 2 exceeds the 1 ports of NIC 'intel-x520-da1'"));
  CHECK(fast.cluster.fabric.link_gbps == 25);
  // VM data beyond usable capacity, also when vms is left at 0 (one VM per host).
  const Scenario big = parse(replace(kExample, "  vms: 8\n", ""), {"workload.vmdk_size=1t"});
  REQUIRE(big.warnings.size() == 1);
  CHECK_THAT(big.warnings[0], Catch::Contains("exceeds the cluster's usable capacity"));
  // A clock above the catalog CPU's one-core turbo (the i7-11700B's 4.8 GHz); one at or
  // below it, or a clock without a catalog model, is not warned of.
  const std::string nuc = replace(kExample, "cpu: {cores: 8, ghz: 3.2}", "cpu: {model: intel-core-i7-11700b, ghz: 5.5}");
  const Scenario hot = parse(nuc);
  REQUIRE(hot.warnings.size() == 1);
  CHECK_THAT(hot.warnings[0], Catch::Contains("test.yaml:") &&
                                  Catch::Contains("cluster.host.cpu.ghz = 5.5 exceeds the 4.8 GHz one-core turbo of CPU "
                                                  "'intel-core-i7-11700b' (sustained all-core 3.4 GHz): modelled at 5.5 GHz"));
  CHECK(hot.cluster.hosts[0].cpu.ghz == 5.5);
  // At the turbo itself, no turbo note; the clock is still far from the catalog's sustained one.
  const Scenario at_turbo = parse(replace(nuc, "ghz: 5.5", "ghz: 4.8"));
  REQUIRE(at_turbo.warnings.size() == 1);
  CHECK_THAT(at_turbo.warnings[0], Catch::Contains("ghz = 4.8 is 41 % above the 3.4 GHz sustained all-core clock of "
                                                   "CPU 'intel-core-i7-11700b'") &&
                                       !Catch::Contains("exceeds"));
  CHECK(parse(replace(nuc, "ghz: 5.5", "ghz: 3.6")).warnings.empty());
  CHECK(parse(kExample, {"cluster.host.cpu.ghz=9"}).warnings.empty());
  // A --set clock on a catalog model is said at "(--set)".
  const Scenario set = parse(replace(nuc, ", ghz: 5.5", ""), {"cluster.host.cpu.ghz=5"});
  REQUIRE(set.warnings.size() == 1);
  CHECK_THAT(set.warnings[0], Catch::Contains("(--set): cluster.host.cpu.ghz = 5 exceeds the 4.8 GHz"));
}


TEST_CASE("seed 002's one-command USB dock: more outstanding I/O queues there instead of adding IOPS") {
  // The dock takes one command at a time (connections.csv usb-bot-nvme), and every write of
  // the single VMDK goes to the two hosts holding its replicas, so those docks are the limit:
  // from 16 to 64 outstanding the IOPS stay put and the writes wait 4x longer (Little's law),
  // while one outstanding I/O pays one pass through the dock, not a queue. The mechanism at a
  // dock slow enough to be the limit whatever the placement: a 176 us bridge, which with BOT's
  // 31 us per write, the drive and the transfer is slower than the 180 us per write that seed
  // 002's own numbers imply (the catalog's measured bridge takes 54).
  HardwareCatalog slow_dock = cat();
  Calibration c = slow_dock.calibration();
  c.set("usb_bridge_latency_us", 176);
  slow_dock.set_calibration(c);
  const std::string file = std::string(default_data_dir()) + "/../examples/scenarios/seed002-skullcanyon-osa-optane-usb-diskspd-8k.yaml";
  auto run = [&](const std::string& threads_outstanding) {
    return simulate(load_scenario(file,
                                  {"workload.duration_s=2", "workload.warmup_s=0.5",
                                   "workload.diskspd=-d60 -c128M " + threads_outstanding + " -b8k -L -r -Sh -w50 c:\\t.dat"},
                                  slow_dock));
  };
  const RunResult qd16 = run("-t4 -o4"), qd64 = run("-t8 -o8"), qd1 = run("-t1 -o1");
  CHECK(qd64.result.iops == Approx(qd16.result.iops).epsilon(0.05));
  CHECK(qd64.result.write_latency_ms / qd16.result.write_latency_ms == Approx(64.0 / 16.0).epsilon(0.1));
  CHECK(qd64.bottleneck.rfind("cache_device", 0) == 0);
  CHECK(qd1.result.write_latency_ms < 0.25 * qd16.result.write_latency_ms);
}

TEST_CASE("workload.guest_os: DiskSpd's guest is Windows, HCIBench's Linux, and each pays its own CPU per I/O") {
  const std::string diskspd = replace(kExample, "  hcibench: fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress-50dedupe\n  vms: 8\n",
                                      "  diskspd: \"-d60 -W15 -C15 -c128M -t4 -o4 -b8k -L -r -Sh -w50\"\n  vms: 1\n");
  CHECK(parse(kExample).workload.guest_os == GuestOs::linux_os);
  CHECK(parse(diskspd).workload.guest_os == GuestOs::windows);
  CHECK(parse(diskspd, {"workload.guest_os=linux"}).workload.guest_os == GuestOs::linux_os);
  CHECK(parse(kExample, {"workload.guest_os=windows"}).workload.guest_os == GuestOs::windows);
  CHECK_THROWS_WITH(parse(kExample, {"workload.guest_os=macos"}),
                    Catch::Contains("(--set)") && Catch::Contains("workload.guest_os") && Catch::Contains("expected linux | windows"));
  // The run charges each OS's calibrated cost to the guest stage: guest core time per I/O at
  // the hosts' clock (the example's 3.2 GHz, costs at 2.5 GHz).
  const std::vector<std::string> shorter{"workload.duration_s=0.2", "workload.warmup_s=0.05"};
  auto guest_us_per_io = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> sets = shorter;
    sets.insert(sets.end(), extra.begin(), extra.end());
    const RunResult r = simulate(parse(diskspd, sets));
    double cores = 0;
    for (const auto& h : r.hosts) cores += h.stage_cores[static_cast<std::size_t>(CpuStage::guest)];
    return cores / r.result.iops * 1e6;
  };
  const Calibration& c = cat().calibration();
  CHECK(guest_us_per_io({}) == Approx(c.value("windows_guest_cpu_us") * 2.5 / 3.2).epsilon(0.02));
  CHECK(guest_us_per_io({"workload.guest_os=linux"}) == Approx(c.value("guest_cpu_us") * 2.5 / 3.2).epsilon(0.02));
}

TEST_CASE("cluster.failed_hosts names hosts that are down: the run is degraded and says so") {
  const std::vector<std::string> shorter = {"workload.duration_s=0.6", "workload.warmup_s=0.2"};
  std::vector<std::string> sets = shorter;
  sets.push_back("cluster.failed_hosts=[esx03]");
  const Scenario s = parse(kExample, sets);
  REQUIRE(s.cluster.failed_hosts == std::vector<int>{2});
  const RunResult healthy = simulate(parse(kExample, shorter));
  const RunResult r = simulate(s);
  CHECK(r.failed_hosts == std::vector<std::string>{"esx03"});
  REQUIRE(r.hosts.size() == 3);   // a failed host reports no resource usage
  for (const auto& h : r.hosts) CHECK(h.host != "esx03");
  CHECK(r.result.iops * r.result.pooled_latency_ms * 1e-3 == Approx(r.configured_outstanding).epsilon(0.03));
  // The write copies on the failed host are not made: RAID-1 writes 2 copies when healthy;
  // with esx03 down, the objects that had a replica there (about half: 2 of 4 hosts) write
  // one. (IOPS need not fall: the NM620s serve more reads per device at the deeper queues
  // the survivors get, and fewer copies program their dies.)
  auto copies = [](const RunResult& x) {
    return static_cast<double>(x.counters.fg_device_write_bytes) / static_cast<double>(x.counters.host_write_bytes);
  };
  CHECK(copies(healthy) == Approx(2.0).epsilon(0.005));   // device writes are counted at issue
  INFO("copies per host byte: healthy " << copies(healthy) << ", esx03 down " << copies(r));
  CHECK(copies(r) == Approx(1.5).margin(0.2));
  CHECK_THAT(format_hcibench(r), Catch::Contains("Failed hosts: esx03 (degraded"));
  // Its write buffer is not reported either: one entry per disk group of the hosts that are up.
  REQUIRE(r.write_buffers.size() == 3);
  for (const WriteBufferState& b : r.write_buffers) CHECK(b.name.rfind("esx03", 0) != 0);
  CHECK_THAT(to_json(r), Catch::Contains("\"failed_hosts\": [\"esx03\"]"));
  CHECK_THAT(to_json(healthy), Catch::Contains("\"failed_hosts\": []"));
  CHECK_THROWS_WITH(parse(replace(kExample, "  hosts: 4\n", "  hosts: 4\n  failed_hosts: [esx05]\n")),
                    Catch::Contains("test.yaml:5") && Catch::Contains("'esx05' is not a host of this cluster (esx01 .. esx04)"));
  CHECK_THROWS_WITH(parse(replace(kExample, "  hosts: 4\n", "  hosts: 4\n  failed_hosts: [esx01, esx02]\n")),
                    Catch::Contains("failed_hosts") && Catch::Contains("at most 1"));
  CHECK_THROWS_WITH(parse(replace(kExample, "  hosts: 4\n", "  hosts: 4\n  failed_hosts: esx01\n")),
                    Catch::Contains("expected a list of host names"));
  CHECK_THAT(format_hcibench(r), Catch::Contains("Resync: not running"));
  std::vector<std::string> rebuild = sets;
  rebuild.push_back("cluster.resync.active=true");
  rebuild.push_back("cluster.resync.throttle_mbit_s=400");
  const Scenario rs = parse(kExample, rebuild);
  CHECK(rs.cluster.resync.active);
  CHECK(rs.cluster.resync.throttle_mbit_s == 400);
  const RunResult during = simulate(rs);
  CHECK(during.counters.resync_bytes > 0);
  CHECK(during.result.iops < r.result.iops);   // the rebuild takes CPU, links and devices
  CHECK_THAT(format_hcibench(during), Catch::Contains("Resync: 0 of ") && Catch::Contains("MB/s in the measured window"));
  CHECK_THAT(to_json(during), Catch::Contains("\"resync\": {\"active\": true"));
  CHECK(csv_header().find(",failed_hosts,resync_mb_per_s,resync_gb_left") != std::string::npos);
  const CsvTable table = test::report_table(during, "failed_hosts");
  const auto cell = [&](const std::string& column) { return table.number(0, column); };
  CHECK(cell("failed_hosts") == 1);
  CHECK(cell("resync_mb_per_s") == Approx(static_cast<double>(during.counters.resync_bytes) / 1e6 / during.result.seconds));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.resync.active=true"}),
                    Catch::Contains("cluster.resync") && Catch::Contains("list them in cluster.failed_hosts"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.failed_hosts=[esx02]", "cluster.resync.throttle_mbit_s=-5"}),
                    Catch::Contains("cluster.resync.throttle_mbit_s = '-5' is not allowed"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.failed_hosts=[esx02]", "cluster.resync.throttle_mbit_s=1e-11"}),
                    Catch::Contains("is not allowed; expected 0 (no cap) or 1 .. 512 Mbit/s"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.failed_hosts=[esx02]", "cluster.resync.throttle_mbit_s=800"}),
                    Catch::Contains("cluster.resync.throttle_mbit_s = '800'"));
  CHECK_THROWS_WITH(parse(kExample, {"cluster.failed_hosts=[esx02]", "cluster.resync.outstanding=0"}),
                    Catch::Contains("cluster.resync.outstanding"));
}

TEST_CASE("resync starts when the warm-up ends: the history ages the buffers with the VMs' writes, not the resync's") {
  // Started before the warm-up, the resync's writes were aged into every OSA
  // write buffer for history_s (time-compressed), and the degraded run measured buffers at
  // 64-86 % fill and congested (5.3 ms writes here; 0.5 ms with history_s = 0).
  const std::vector<std::string> sets = {"workload.duration_s=0.4", "workload.warmup_s=0.2", "cluster.failed_hosts=[esx03]",
                                         "cluster.resync.active=true", "workload.history_s=1800"};
  const RunResult r = simulate(parse(kExample, sets));
  // Nothing was copied before the window: its first of 128 batches holds a small share of
  // what the window copied (with the resync started at the warm-up, a third of it).
  REQUIRE(r.timeline.size() == 128);
  CHECK(r.resync.done_bytes > 0);
  CHECK(r.timeline.front().resync_done_gb * 1e9 < 0.05 * static_cast<double>(r.resync.done_bytes));
  // The buffers the window opens on were aged by the VMs' writes alone: no congestion.
  CHECK(r.counters.congestion_delays == 0);
  INFO("write latency " << r.result.write_latency_ms << " ms");
  CHECK(r.result.write_latency_ms < 3);
}

TEST_CASE("cluster.more_hosts adds hosts that differ: their own CPU and storage, the cluster's network") {
  // An expansion of two larger hosts after seed 000's four NUCs.
  const std::string more = "  more_hosts:\n"
                           "    - count: 2\n"
                           "      cpu: {model: intel-xeon-gold-6338, sockets: 2}\n"
                           "      disk_groups:\n"
                           "        - {cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb, lexar-nm620-2tb]}\n";
  const std::string text = replace(kExample, "policy: {raid: raid1", more + "policy: {raid: raid1");
  const std::vector<std::string> shorter = {"workload.duration_s=0.4", "workload.warmup_s=0.1", "workload.vms=12"};
  const Scenario s = parse(text, shorter);
  REQUIRE(s.cluster.hosts.size() == 6);
  CHECK(s.cluster.hosts[3].name == "esx04");
  CHECK(s.cluster.hosts[3].cpu.cores() == 8);
  CHECK(s.cluster.hosts[4].name == "esx05");
  CHECK(s.cluster.hosts[5].cpu.sockets == 2);
  CHECK(s.cluster.hosts[5].cpu.cores() > 8);
  CHECK(s.cluster.hosts[5].disk_groups[0].capacity.size() == 2);
  // Capacity counts each host's own devices, and the reserve keeps the largest host's.
  const CapacityReport c = scenario_capacity(s);
  CHECK(c.hosts_counted == 6);
  const RunResult r = simulate(s);
  REQUIRE(r.hosts.size() == 6);
  // The same VMs per host, but the larger hosts' CPUs are busy for a smaller share.
  CHECK(r.host("esx05")->cpu_utilization_pct < r.host("esx01")->cpu_utilization_pct);
  CHECK(r.result.iops * r.result.pooled_latency_ms * 1e-3 == Approx(r.configured_outstanding).epsilon(0.03));
  // More hosts take more parts: every host's CPU is priced by its own model.
  CHECK_THAT(to_json(r), Catch::Contains("\"hosts\": 6"));
  // An item's clock above its CPU's one-core turbo (the Gold 6338's 3.2 GHz) is said at its line.
  const Scenario hot = parse(replace(text, "sockets: 2}", "sockets: 2, ghz: 3.5}"));
  REQUIRE(hot.warnings.size() == 1);
  CHECK_THAT(hot.warnings[0], Catch::Contains("test.yaml:19: cluster.more_hosts[0].cpu.ghz = 3.5 exceeds the 3.2 GHz"));

  // Bad input names the item and what is allowed.
  CHECK_THROWS_WITH(parse(replace(text, "    - count: 2\n", "    - count: 0\n")),
                    Catch::Contains("test.yaml:18: cluster.more_hosts[0].count = '0' is not allowed; expected a whole number in [1, 64]"));
  CHECK_THROWS_WITH(parse(replace(text, "    - count: 2\n", "    - count: 61\n")),
                    Catch::Contains("test.yaml:") && Catch::Contains("at most 60: a cluster has 1 to 64 hosts in all"));
  CHECK_THROWS_WITH(parse(replace(text, "    - count: 2\n", "    - count: 2\n      network: {speed_gbe: 25}\n")),
                    Catch::Contains("unknown key 'cluster.more_hosts[0].network'") &&
                        Catch::Contains("allowed here: count, cpu, memory_gib, disk_groups, pool"));
  CHECK_THROWS_WITH(parse(replace(kExample, "policy: {raid: raid1", "  more_hosts: {count: 2}\npolicy: {raid: raid1")),
                    Catch::Contains("more_hosts") && Catch::Contains("expected a list of {count, cpu, disk_groups or pool, memory_gib}"));
  CHECK_THROWS_WITH(parse(replace(text, "      disk_groups:\n        - {cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb, lexar-nm620-2tb]}\n",
                                  "      pool: [samsung-pm1733-3.84tb]\n")),
                    Catch::Contains("OSA has no storage pool"));
  // A disk group's rule in an item is put at that item's group (line 21), not the item's count.
  CHECK_THROWS_WITH(parse(replace(text, "capacity: [lexar-nm620-2tb, lexar-nm620-2tb]", "capacity: [{device: lexar-nm620-2tb, count: 8}]")),
                    Catch::StartsWith("test.yaml:21: cluster hosts[4] (esx05).disk_groups[0].capacity: 8 capacity devices"));
}

TEST_CASE("cluster.host.memory_gib sizes each host's client cache: 0.4 % of it, up to client_cache_mb") {
  // VMware: the client cache takes "0.4 % up to 1GB of DRAM per host" (cluster_spec.hpp).
  const Scenario unstated = parse(kExample);
  CHECK(unstated.cluster.hosts[0].memory_gib == 0);
  CHECK(unstated.cluster.client_cache_mb_of(0) == 1024);   // not stated: the rule's maximum
  const std::string nuc = replace(kExample, "    cpu: {cores: 8, ghz: 3.2}\n", "    cpu: {cores: 8, ghz: 3.2}\n    memory_gib: 64\n");
  const std::string more = "  more_hosts:\n    - count: 1\n      cpu: {cores: 16, ghz: 3.0}\n      memory_gib: 16\n"
                           "      disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]\n"
                           "    - count: 1\n      cpu: {cores: 16, ghz: 3.0}\n      memory_gib: 512\n"
                           "      disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]\n";
  const Scenario s = parse(replace(nuc, "policy: {raid: raid1", more + "policy: {raid: raid1"));
  REQUIRE(s.cluster.hosts.size() == 6);
  CHECK(s.cluster.hosts[0].memory_gib == 64);
  CHECK(s.cluster.client_cache_mb_of(0) == Approx(262.144));    // 0.4 % of 64 GiB
  CHECK(s.cluster.client_cache_mb_of(4) == Approx(65.536));     // a more_hosts item's own 16 GiB
  CHECK(s.cluster.client_cache_mb_of(5) == 1024);               // 0.4 % of 512 GiB, capped at 1 GiB
  // A more_hosts item inherits nothing from cluster.host: without memory_gib it is not stated.
  const Scenario bare = parse(replace(nuc, "policy: {raid: raid1", replace(more, "      memory_gib: 16\n", "") + "policy: {raid: raid1"));
  CHECK(bare.cluster.hosts[4].memory_gib == 0);
  CHECK(bare.cluster.client_cache_mb_of(4) == 1024);
  const Scenario off = parse(nuc, {"cluster.client_cache_mib=0"});
  CHECK(off.cluster.client_cache_mb_of(0) == 0);
  // A run reports each host's cache and the reads it served.
  const RunResult r = simulate(parse(nuc, {"workload.duration_s=0.2", "workload.warmup_s=0.05"}));
  CHECK(r.counters.client_cache_hits > 0);
  const std::string json = to_json(r);
  CHECK_THAT(json, Catch::Contains("\"client_cache_mb\": 262.144") &&
                       Catch::Contains("\"client_cache_reads\": " + std::to_string(r.counters.client_cache_hits) + ",\n"));

  // Bad input names the key and what is allowed.
  for (const char* bad : {"0.5", "-64", "70000"})
    CHECK_THROWS_WITH(parse(replace(nuc, "memory_gib: 64", std::string("memory_gib: ") + bad)),
                      Catch::Contains("test.yaml:") && Catch::Contains("cluster.host.memory_gib = '" + std::string(bad) + "'") &&
                          Catch::Contains("1 .. 65536 (GiB of memory per host), or 0: not stated"));
  CHECK_THROWS_WITH(parse(replace(nuc, "memory_gib: 64", "memory_gib: lots")),
                    Catch::Contains("cluster.host.memory_gib = 'lots'") && Catch::Contains("a number"));
  ClusterSpec spec = s.cluster;
  spec.hosts[1].memory_gib = 0.25;
  CHECK_THROWS_WITH(spec.validate(), Catch::Contains("hosts[1] (esx02).memory_gib = 0.25 is not allowed") &&
                                         Catch::Contains("1 .. 65536 GiB"));
}

TEST_CASE("workload.groups run several workloads at once: results per group and in total") {
  const std::string base = std::string(kFourNucs) + R"(workload:
  duration_s: 0.4
  warmup_s: 0.1
  vmdks_per_vm: 4
  groups:
    - {name: oltp, vms: 8, block_size: 8k, read_pct: 70, outstanding_per_vmdk: 4}
    - {name: backup, vms: 2, block_size: 256k, read_pct: 0, random_pct: 0, outstanding_per_vmdk: 2}
)";
  const Scenario s = parse(base);
  REQUIRE(s.groups.size() == 2);
  CHECK(s.groups[0].name == "oltp");
  CHECK(s.groups[1].vmdks_per_vm == 4);   // the workload's keys are every group's defaults
  CHECK(s.groups[1].block.count() == 256 * 1024);
  CHECK(s.workload.name == "oltp");
  CHECK_THAT(describe_workloads(s), Catch::StartsWith("oltp: 8k 70% read") && Catch::Contains("; backup: 256k 0% read"));
  const RunResult r = simulate(s);
  REQUIRE(r.groups.size() == 2);
  CHECK(r.job_name == "oltp+backup");
  CHECK(r.vms == 10);
  CHECK(r.groups[0].vms == 8);
  CHECK(r.configured_outstanding == 8 * 4 * 4 + 2 * 4 * 2);
  CHECK(r.result.iops == Approx(r.groups[0].result.iops + r.groups[1].result.iops).epsilon(1e-12));
  CHECK(r.result.throughput_mbps ==
        Approx(r.groups[0].result.throughput_mbps + r.groups[1].result.throughput_mbps).epsilon(1e-12));
  CHECK(r.groups[1].result.read_iops == 0);
  CHECK(r.result.iops * r.result.pooled_latency_ms * 1e-3 == Approx(r.configured_outstanding).epsilon(0.03));
  CHECK_THAT(format_hcibench(r), Catch::Contains("Workload groups (HCIBench's rules over each group's VMs):") &&
                                     Catch::Contains("  backup ") && Catch::Contains("JOB_NAME\t= oltp+backup"));
  CHECK_THAT(to_json(r), Catch::Contains("\"groups\": [{\"name\": \"oltp\", \"workload\": \"8k 70% read"));
  // Each group's VMs pay their own OS's guest CPU per I/O; the guest stage holds both.
  const RunResult mixed = simulate(parse(replace(base, "{name: backup,", "{name: backup, guest_os: windows,")));
  REQUIRE(mixed.groups.size() == 2);
  CHECK(mixed.groups[0].guest_os == GuestOs::linux_os);
  CHECK(mixed.groups[1].guest_os == GuestOs::windows);
  CHECK_THAT(to_json(mixed), Catch::Contains("\"guest_os\": \"linux\"}, {\"name\": \"backup\"") &&
                                 Catch::Contains("\"guest_os\": \"windows\"}],") && Catch::Contains("\"guest_os\": null},"));
  {
    const Calibration& c = cat().calibration();
    const double clock = 2.5 / cat().cpu("intel-core-i7-11700b").ghz;   // cost per I/O at the hosts' clock
    double guest_cores = 0;
    for (const auto& h : mixed.hosts) guest_cores += h.stage_cores[static_cast<std::size_t>(CpuStage::guest)];
    const double expected = (mixed.groups[0].result.iops * c.value("guest_cpu_us") +
                             mixed.groups[1].result.iops * c.value("windows_guest_cpu_us")) * clock * 1e-6;
    CHECK(guest_cores == Approx(expected).epsilon(0.03));
  }
  // The backup stream shares the cluster: the OLTP group alone sees lower latency.
  std::string alone = base;
  alone.erase(alone.find("    - {name: backup"));
  const RunResult solo = simulate(parse(alone));
  INFO("oltp write latency alone " << solo.groups[0].result.write_latency_ms << " ms, beside backup "
                                   << r.groups[0].result.write_latency_ms << " ms");
  CHECK(solo.groups[0].result.write_latency_ms < r.groups[0].result.write_latency_ms);
  // One group is the plain workload, bit for bit (the first group keeps its random stream).
  std::string plain = base;
  plain.erase(plain.find("  groups:"));
  plain += "  vms: 8\n  block_size: 8k\n  read_pct: 70\n  outstanding_per_vmdk: 4\n";
  const RunResult one = simulate(parse(plain));
  CHECK(one.groups.empty());
  CHECK(one.result.iops == solo.result.iops);
  CHECK(one.result.pooled_latency_ms == solo.result.pooled_latency_ms);
  // What the groups cannot do, said with the place.
  CHECK_THROWS_WITH(parse(replace(base, "read_pct: 0, random_pct: 0,", "read_pct: 0, random_pct: 0, duration_s: 9,")),
                    Catch::Contains("test.yaml:15: workload.groups[1].duration_s = '9' is not allowed") &&
                        Catch::Contains("the run's length is the whole run's"));
  CHECK_THROWS_WITH(parse(replace(base, "name: backup", "name: oltp")),
                    Catch::Contains("name 'oltp' is given to two groups"));
  CHECK_THROWS_WITH(parse(replace(base, "read_pct: 0, random_pct: 0,", "read_pct: 0, random_pct: 0, compress_pct: 50,")),
                    Catch::Contains("workload.groups[1]") && Catch::Contains("the data profile is the cluster's"));
  CHECK_THROWS_WITH(parse(replace(base, "{name: backup, vms: 2,", "{name: backup, diskspd: \"-t2 -o4\", vms: 2,")),
                    Catch::Contains("a DiskSpd command line (its per-thread tables) runs alone"));
  CHECK_THROWS_WITH(parse(replace(base, "read_pct: 0, random_pct: 0,", "read_pct: 0, random_pct: 0, vmdk_size: 3x,")),
                    Catch::Contains("test.yaml:15") && Catch::Contains("workload.groups[1].vmdk_size"));
  CHECK_THROWS_WITH(parse(replace(base, "  groups:\n", "  groups: {}\n  old:\n")),
                    Catch::Contains("expected a list of workload groups"));
  CHECK_THROWS_WITH(parse(replace(base, "  vmdks_per_vm: 4\n", "  vmdks_per_vm: 4\n  latency_target_ms: 2\n")),
                    Catch::Contains("latency_target_ms (HCIBench's latency-target mode) drives one workload"));
  // The knee keeps the groups' mix (the closed loop's shares here) and scales it; every group
  // must get its share.
  KneeOptions ko;
  ko.jobs = 2;
  ko.precision = 0.05;
  const KneeResult k = find_knee(s, KneeTarget{LatencyStat::mean, 0.9}, ko);
  REQUIRE(k.found);
  REQUIRE(k.group_share.size() == 2);
  CHECK(k.group_share[0] + k.group_share[1] == Approx(1));
  CHECK(k.group_share[0] == Approx(r.groups[0].result.iops / r.result.iops).epsilon(0.01));
  REQUIRE(k.group_iops.size() == 2);
  CHECK(k.group_iops[0] + k.group_iops[1] == Approx(k.iops).epsilon(1e-9));
  CHECK(k.group_iops[1] >= 0.97 * k.offered_iops * k.group_share[1]);
  CHECK(k.latency_ms <= 0.9);
  CHECK_THAT(format_knee(s.name, k), Catch::Contains("Groups (share of the offered load, IOPS at the knee): oltp "));
  CHECK_THAT(to_json(s.name, k), Catch::Contains("\"groups\": [{\"name\": \"oltp\", \"share\": "));
  // Rates on some groups only leave the mix undefined.
  CHECK_THROWS_WITH(find_knee(parse(replace(base, "outstanding_per_vmdk: 2}", "outstanding_per_vmdk: 2, iops_limit_per_vm: 100}")),
                              KneeTarget{}),
                    Catch::Contains("knee: 1 of 2 workload groups give iops_limit_per_vm"));
}

TEST_CASE("workload groups: sources, overrides, aliases and the base's keys") {
  const std::string base = std::string(kFourNucs) + R"(workload:
  duration_s: 0.3
  warmup_s: 0.1
  block_size: 8k
  read_pct: 70
  groups:
    - {name: a, vms: 4}
    - {name: b, vms: 2, fio: "--bs=256k --rw=write --iodepth=2"}
)";
  // A group with its own source takes only the run's keys: b is fio's 256K writes.
  const Scenario s = parse(base);
  CHECK(s.groups[0].block.count() == 8192);
  CHECK(s.groups[1].block.count() == 256 * 1024);
  CHECK(s.groups[1].read_pct == 0);
  CHECK(s.groups[1].duration_s == Approx(0.3));   // the base's run keys win over fio's defaults
  // The buffers' history is the run's too: a group's ramp_time does not set it.
  const Scenario ramp = parse(replace(base, "--iodepth=2", "--iodepth=2 --ramp_time=30"));
  CHECK(ramp.groups[1].history_s == 1800);
  // ... nor the workload's own fio source, which groups without their own inherit.
  const Scenario inherited = parse(replace(base, "  block_size: 8k\n", "  fio: \"bs=8k rw=randrw ramp_time=30\"\n"));
  CHECK(inherited.groups[0].history_s == 1800);
  CHECK(inherited.groups[1].history_s == 1800);
  CHECK(parse(replace(base, "--iodepth=2", "--iodepth=2 --ramp_time=30"), {"workload.history_s=60"})
            .groups[1].history_s == 60);
  // A source's own run length that differs from the others' is an error, not ignored.
  CHECK_THROWS_WITH(parse(replace(replace(base, "  duration_s: 0.3\n", ""), "--iodepth=2", "--iodepth=2 --runtime=600")),
                    Catch::Contains("workload.groups[1]") && Catch::Contains("its run length (duration 600 s"));
  // --set reaches a group by index or name (and more_hosts items by index); a workload key
  // that every group overrides is an error from --set and a warning from the file.
  const Scenario set = parse(base, {"workload.groups.b.vms=3", "workload.groups.0.read_pct=50"});
  CHECK(set.groups[1].vms == 3);
  CHECK(set.groups[0].read_pct == 50);
  CHECK_THROWS_WITH(parse(base, {"workload.groups.c.vms=3"}), Catch::Contains("'c' is not an item of the list (2 items"));
  CHECK_THROWS_WITH(parse(replace(base, "{name: a, vms: 4}", "{name: a, vms: 4, block_size: 4k}"), {"workload.block_size=64k"}),
                    Catch::Contains("workload.block_size is given by every group") &&
                        Catch::Contains("workload.groups.<index or name>.block_size"));
  const Scenario noted = parse(replace(base, "{name: a, vms: 4}", "{name: a, vms: 4, block_size: 4k}"));
  CHECK(std::any_of(noted.warnings.begin(), noted.warnings.end(),
                    [](const std::string& w) { return w.find("workload.block_size is given by every group") != std::string::npos; }));
  // An aliased group does not keep the keys laid into it for its first reading.
  const Scenario aliased = parse(replace(base, "    - {name: a, vms: 4}\n    - {name: b, vms: 2, fio: \"--bs=256k --rw=write --iodepth=2\"}\n",
                                         "    - &g {vms: 2, block_size: 64k}\n    - *g\n"));
  REQUIRE(aliased.groups.size() == 2);
  CHECK(aliased.groups[1].block.count() == 64 * 1024);
  // The base's own keys are checked at their lines; no name or Easy Run beside groups.
  CHECK_THROWS_WITH(parse(replace(base, "  read_pct: 70\n", "  read_pct: 70\n  vmz: 3\n")),
                    Catch::Contains("test.yaml:14: unknown key 'workload.vmz'"));
  CHECK_THROWS_WITH(parse(replace(base, "  read_pct: 70\n", "  read_pct: 70\n  name: x\n")),
                    Catch::Contains("with groups each group has its own name"));
  CHECK_THROWS_WITH(parse(replace(base, "  read_pct: 70\n", "  read_pct: 70\n  easy_run: 4k-70read\n")),
                    Catch::Contains("Easy Run sizes one workload for the whole cluster"));
  // An open group offered more than it gets is said, by name.
  const RunResult over = simulate(parse(replace(base, "{name: a, vms: 4}", "{name: a, vms: 4, iops_limit_per_vm: 1000000}")));
  CHECK_THAT(format_hcibench(over), Catch::Contains("Open loop overloaded: group 'a' offered 4000000 IOPS"));
  CHECK_THAT(to_json(over), Catch::Contains("\"block_size_bytes\": null"));
  // A scenario built in code whose groups disagree on the run's length is refused.
  Scenario bad = s;
  bad.groups[1].duration_s = 9;
  CHECK_THROWS_WITH(simulate(bad), Catch::Contains("workload group 'b': its run length or data profile differs"));
  // more_hosts: --set by index, and a host's error at its item's key (pool:, line 11).
  const std::string more = replace(base, "policy: {raid", "  more_hosts:\n    - count: 1\n      cpu: {model: intel-core-i7-11700b}\n"
                                                          "      disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]\npolicy: {raid");
  CHECK(parse(more, {"cluster.more_hosts.0.count=2"}).cluster.hosts.size() == 6);
  CHECK_THROWS_WITH(parse(replace(more, "      disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]\n",
                                  "      pool: [samsung-pm1733-3.84tb]\n")),
                    Catch::Contains("test.yaml:11:") && Catch::Contains("OSA has no storage pool"));
}

TEST_CASE("the vSAN release: 8.0u3 unless stated, and the ESA large-I/O path follows it") {
  const std::string esa = replace(replace(kExample, "architecture: osa ", "architecture: esa "),
                                  "data_services: {dedupe: true, compression: true}", "data_services: {compression: true}");
  const std::string pool = replace(esa, R"(    disk_groups:                         # osa: 1..5 groups
      - cache: optane-p4800x-750gb
        capacity: [lexar-nm620-2tb]
)", "    pool: [{device: samsung-pm1733-3.84tb, count: 4}]\n");
  CHECK(parse(pool).cluster.release == VsanRelease::v8_0u3);
  CHECK(parse(pool).cluster.esa.large_write == EsaSettings::kByRelease);
  const Scenario ga = parse(pool, {"cluster.vsan_release=8.0"});
  CHECK(ga.cluster.release == VsanRelease::v8_0);
  const Scenario u1 = parse(pool, {"cluster.vsan_release=8.0u1", "cluster.esa.large_write_kib=1024"});
  CHECK(u1.cluster.release == VsanRelease::v8_0u1);
  CHECK(u1.cluster.esa.large_write.count() == 1024 * 1024);
  CHECK(parse(pool, {"cluster.vsan_release=8.0", "cluster.esa.large_write_kib=0"}).cluster.esa.large_write.count() == 0);
  CHECK_THROWS_WITH(parse(pool, {"cluster.vsan_release=8.0", "cluster.esa.large_write_kib=256"}),
                    Catch::Contains("large_write_kib = '256' is not allowed") && Catch::Contains("8.0 U1 added it"));
  CHECK_THROWS_WITH(parse(pool, {"cluster.vsan_release=7.0u3"}), Catch::Contains("ESA exists from vSAN 8.0"));
  // An answer that rests on the assumed threshold says so; one whose writes stay below it, or
  // that states the threshold, does not.
  const auto warns = [](const Scenario& s) {
    return std::any_of(s.warnings.begin(), s.warnings.end(),
                       [](const std::string& w) { return w.find("large-I/O path") != std::string::npos; });
  };
  const Scenario big = parse(pool, {"workload.block_size=512k", "workload.read_pct=0"});
  CHECK(warns(big));
  CHECK_THAT(big.warnings.back(), Catch::Contains("on an assumed release (cluster.vsan_release 8.0u3)"));
  CHECK(!warns(parse(pool)));
  CHECK(!warns(parse(pool, {"workload.block_size=512k", "workload.read_pct=0", "cluster.esa.large_write_kib=1024"})));
  CHECK(!warns(parse(pool, {"workload.block_size=512k", "workload.read_pct=0", "cluster.vsan_release=8.0"})));
  CHECK_THAT(parse(pool, {"workload.block_size=512k", "workload.read_pct=0", "cluster.vsan_release=8.0u2"}).warnings.back(),
             !Catch::Contains("assumed release"));
  // A large-I/O path below one full stripe would split a small write into columns.
  CHECK_THROWS_WITH(parse(pool, {"cluster.esa.large_write_kib=64"}),
                    Catch::Contains("0 (none) or at least one stripe of RAID-1 (FTT 1), 128 KiB"));
  CHECK(esa_large_write(parse(pool).cluster).count() == 128 * 1024);   // RAID-1: one stripe unit
  CHECK(esa_large_write(ga.cluster).count() == 0);
  // OSA takes the 7.0 releases, and ignores the ESA key; Reserved Capacity came with 7.0 U1.
  CHECK(parse(kExample, {"cluster.vsan_release=7.0u3"}).cluster.release == VsanRelease::v7_0u3);
  CHECK(esa_large_write(parse(kExample, {"cluster.vsan_release=7.0", "cluster.esa.large_write_kib=512"}).cluster).count() == 0);
  CHECK_THROWS_WITH(parse(kExample, {"cluster.vsan_release=7.0", "cluster.capacity_reserve=reserved"}),
                    Catch::Contains("Reserved Capacity came with 7.0 U1"));
  CHECK_NOTHROW(parse(kExample, {"cluster.vsan_release=7.0u1", "cluster.capacity_reserve=reserved"}));
  // One object's DOM client worlds: one before 8.0 U2, helper threads from it; a stated number
  // above one needs 8.0 U2; OSA has none.
  CHECK(esa_client_worlds(ga.cluster) == 1);
  CHECK(esa_client_worlds(parse(pool).cluster) == EsaSettings::kHelperWorlds);
  CHECK(esa_client_worlds(parse(pool, {"cluster.esa.client_worlds_per_object=2"}).cluster) == 2);
  CHECK(esa_client_worlds(parse(pool, {"cluster.vsan_release=8.0", "cluster.esa.client_worlds_per_object=1"}).cluster) == 1);
  CHECK_THROWS_WITH(parse(pool, {"cluster.vsan_release=8.0u1", "cluster.esa.client_worlds_per_object=4"}),
                    Catch::Contains("client_worlds_per_object = '4' is not allowed") &&
                        Catch::Contains("8.0 U2 added them"));
  CHECK_THROWS_WITH(parse(pool, {"cluster.esa.client_worlds_per_object=0"}),
                    Catch::Contains("expected a whole number in [1, 64]; 1 before vsan_release 8.0u2"));
  CHECK(esa_client_worlds(parse(kExample, {"cluster.esa.client_worlds_per_object=8"}).cluster) == 0);
}
