// Where the time goes (latency_split.hpp, WorkloadResult::split_ms, `latency_split` in
// --json): the parts of every I/O sum to its latency, so each op's parts sum to its
// R_LATENCY / W_LATENCY, and each part moves with its own stage only: the device's datasheet
// latency at queue depth 1, the LSOM world's work, the stack's fixed latency, the DOM owner's host, Little's law for
// the guest's queue.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hcisim/model/hw/storage_device.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/model/scenario/csv.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;
using test::cat;

namespace {

std::string scenario_file(const char* name) {
  return std::string(default_data_dir()) + "/../examples/scenarios/" + name;
}

double part(const WorkloadResult& w, IoOp op, LatencyPart p) {
  return w.split_ms[static_cast<std::size_t>(op)][part_index(p)];
}

// Each op's parts against its mean latency by HCIBench's rule (R_LATENCY, W_LATENCY).
void check_parts_sum(const WorkloadResult& w) {
  REQUIRE(w.simulated_ios > 0);
  for (std::size_t op = 0; op < 2; ++op) {
    double sum = 0;
    for (std::size_t p = 0; p < kLatencyParts; ++p) {
      INFO("op " << op << " part " << latency_part_name(p));
      CHECK(w.split_ms[op][p] >= 0);
      sum += w.split_ms[op][p];
    }
    CHECK(sum == Approx(op == 0 ? w.read_latency_ms : w.write_latency_ms).epsilon(1e-9));
  }
}

}  // namespace

TEST_CASE("the latency parts of every I/O sum to its latency, on every path") {
  const std::vector<std::string> quick = {"workload.duration_s=0.3", "workload.warmup_s=0.2"};
  SECTION("OSA RAID-1 with dedupe lookups (seed 000)") {
    const RunResult r = simulate(load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-4k-70r.yaml"), quick, cat()));
    check_parts_sum(r.result);
    // Reads wait on the capacity devices; no write is congested at the elevator's start fill.
    CHECK(part(r.result, IoOp::read, LatencyPart::device) > part(r.result, IoOp::read, LatencyPart::network));
    CHECK(part(r.result, IoOp::write, LatencyPart::admission) == 0);
    CHECK(part(r.result, IoOp::read, LatencyPart::admission) == 0);
  }
  SECTION("ESA RAID-6 (seed 001)") {
    const RunResult r = simulate(load_scenario(scenario_file("seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml"), quick, cat()));
    check_parts_sum(r.result);
    CHECK(part(r.result, IoOp::read, LatencyPart::device) > 0);
    CHECK(part(r.result, IoOp::write, LatencyPart::device) > 0);
  }
  SECTION("ESA's large-I/O path (8.0 U1): full-stripe writes, compressed and not") {
    for (const char* compress : {"0", "50"}) {
      std::vector<std::string> sets = quick;
      sets.insert(sets.end(), {"cluster.vsan_release=8.0u1", "workload.block_size=512k", "workload.read_pct=0",
                               "workload.random_pct=0", std::string("workload.compress_pct=") + compress});
      const RunResult r = simulate(load_scenario(scenario_file("seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml"), sets, cat()));
      INFO("compress_pct " << compress);
      REQUIRE(r.counters.large_write_bytes > 0);
      // Every write is a full stripe (the two counts are taken at two steps of the path, so
      // the window's edges hold a few writes in one and not the other).
      CHECK(static_cast<double>(r.counters.large_write_bytes) ==
            Approx(static_cast<double>(r.counters.host_write_bytes)).epsilon(0.01));
      check_parts_sum(r.result);
      CHECK(part(r.result, IoOp::write, LatencyPart::network) > 0);
    }
  }
  SECTION("OSA RAID-5 read-modify-write, degraded by a failed host") {
    std::vector<std::string> sets = quick;
    sets.insert(sets.end(), {"policy.raid=raid5", "cluster.failed_hosts=[esx02]"});
    const RunResult r = simulate(load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-4k-70r.yaml"), sets, cat()));
    check_parts_sum(r.result);
  }
  SECTION("reads from the client cache over a USB-attached cache device (seed 002)") {
    const RunResult r = simulate(load_scenario(scenario_file("seed002-skullcanyon-osa-optane-usb-diskspd-8k.yaml"), quick, cat()));
    check_parts_sum(r.result);
    // The 128 MiB file sits in the client cache: a read is the client's CPU and nothing else.
    CHECK(part(r.result, IoOp::read, LatencyPart::network) == 0);
    CHECK(part(r.result, IoOp::read, LatencyPart::device) == 0);
    CHECK(part(r.result, IoOp::read, LatencyPart::dom_client) > 0);
    CHECK(part(r.result, IoOp::read, LatencyPart::client_network) == 0);
  }
  SECTION("guest I/Os split into pieces: RAID-0 components and the adapter's 512 KiB limit") {
    std::vector<std::string> sets = quick;
    sets.insert(sets.end(), {"policy.stripe_width=3", "workload.block_size=2m", "workload.read_pct=50", "workload.vms=6"});
    const RunResult r = simulate(load_scenario(scenario_file("seed004-r730xd-osa-optane-cache-vdbench-4k-70r.yaml"), sets, cat()));
    REQUIRE(r.counters.submitted > r.result.simulated_ios);   // more operations than guest I/Os
    check_parts_sum(r.result);
  }
  SECTION("an open loop below saturation") {
    std::vector<std::string> sets = quick;
    sets.push_back("workload.iops_limit_per_vm=2000");
    const RunResult r = simulate(load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-4k-70r.yaml"), sets, cat()));
    check_parts_sum(r.result);
  }
  SECTION("workload groups report their own split") {
    const RunResult r = simulate(load_scenario(scenario_file("mixed-nuc11-expansion-oltp-backup.yaml"), quick, cat()));
    REQUIRE(r.groups.size() >= 2);
    for (const GroupResult& g : r.groups) check_parts_sum(g.result);
  }
}

TEST_CASE("the CSV row carries the split, column by column") {
  const RunResult r = simulate(load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-4k-70r.yaml"),
                                             {"workload.duration_s=0.2", "workload.warmup_s=0.1"}, cat()));
  // Read back with the catalogs' RFC 4180 [S148] reader (the scenario's name holds commas).
  // (In the test's working directory: each build has its own.)
  const std::string file = "latency_split_test.csv";
  std::ofstream(file) << csv_header() << "\n" << csv_row(r) << "\n";
  const CsvTable csv = CsvTable::read(file);
  std::filesystem::remove(file);
  REQUIRE(csv.rows() == 1);
  const auto at = [&](const std::string& name) { return csv.number(0, name); };
  CHECK(at("write_lsom_ms") == Approx(part(r.result, IoOp::write, LatencyPart::lsom)));
  CHECK(at("read_dom_owner_ms") == Approx(part(r.result, IoOp::read, LatencyPart::dom_owner)));
  CHECK(at("read_device_ms") == Approx(part(r.result, IoOp::read, LatencyPart::device)));
  CHECK(at("read_guest_queue_ms") == 0);
}

TEST_CASE("one write at queue depth 1: the device part is the cache device's datasheet latency") {
  const Scenario s = load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-4k-70r.yaml"),
                                   {"workload.vms=1", "workload.vmdks_per_vm=1", "workload.outstanding_per_vmdk=1",
                                    "workload.read_pct=0", "workload.duration_s=0.5", "workload.warmup_s=0.1"},
                                   cat());
  const RunResult r = simulate(s);
  const DeviceSpec& cache = cat().device("optane-p4800x-750gb");
  CHECK(part(r.result, IoOp::write, LatencyPart::device) == Approx(cache.write_latency_us * 1e-3).epsilon(0.05));
  CHECK(part(r.result, IoOp::write, LatencyPart::guest_queue) == 0);
  CHECK(part(r.result, IoOp::write, LatencyPart::admission) == 0);
  // At least one replica of two on four hosts is on another host.
  CHECK(part(r.result, IoOp::write, LatencyPart::network) > 0);
  check_parts_sum(r.result);
}

TEST_CASE("the guest queue behind the virtual adapter follows Little's law") {
  // One VM, 8 VMDKs x 64 outstanding through PVSCSI (254 per adapter, KB 2053145 [S84]): the
  // adapter is always full, so 512 - 254 = 258 I/Os wait in the guest on average.
  const Scenario s = load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-4k-70r.yaml"),
                                   {"workload.vms=1", "workload.vmdks_per_vm=8", "workload.outstanding_per_vmdk=64",
                                    "workload.duration_s=0.5", "workload.warmup_s=0.2"},
                                   cat());
  const RunResult r = simulate(s);
  const WorkloadResult& w = r.result;
  const double queue_ms = (w.read_iops * part(w, IoOp::read, LatencyPart::guest_queue) +
                           w.write_iops * part(w, IoOp::write, LatencyPart::guest_queue)) /
                          w.iops;
  CHECK(queue_ms * 1e-3 * w.iops == Approx(512 - 254).epsilon(0.03));
  check_parts_sum(w);
}

TEST_CASE("congested writes wait at admission") {
  // Seed 000's 256K stream: a group whose working set exceeds its buffer congests
  // (write_buffer_report_test.cpp); its writes get the delay at the DOM client.
  const RunResult r = simulate(load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-256k-seqwrite.yaml"),
                                             {"workload.duration_s=0.5", "workload.warmup_s=1"}, cat()));
  double most = 0;
  for (const WriteBufferState& b : r.write_buffers) most = std::max(most, b.congestion_delay_ms);
  REQUIRE(most > 0);
  CHECK(part(r.result, IoOp::write, LatencyPart::admission) > 0);
  check_parts_sum(r.result);
}

TEST_CASE("each stage moves its own part only: the LSOM world's work, the stack's fixed latency") {
  // One read at a time (no queue anywhere, no writes, so no destage): the same reads in the
  // same order whatever the timing.
  const std::vector<std::string> qd1 = {"workload.vms=1", "workload.vmdks_per_vm=1", "workload.outstanding_per_vmdk=1",
                                        "workload.read_pct=100", "workload.duration_s=0.6", "workload.warmup_s=0.1",
                                        "cluster.client_cache_mib=0",    // every read goes down the path
                                        "policy.checksum=false"};   // the world's CRC check is per KiB, not per operation
  const Scenario base = load_scenario(scenario_file("seed000-nuc11-osa-optane-fio-4k-70r.yaml"), qd1, cat());
  REQUIRE(base.cluster.osa.lsom_worlds_per_dg > 0);
  const RunResult a = simulate(base);
  Scenario heavier = base;
  heavier.cluster.osa.lsom_cost_factor = base.cluster.osa.lsom_cost_factor * 2;
  const RunResult b = simulate(heavier);
  Scenario slower = base;
  slower.cluster.stack_latency_us = 100;
  const RunResult c = simulate(slower);
  const auto read = [](const RunResult& r, LatencyPart p) { return part(r.result, IoOp::read, p); };
  REQUIRE(read(a, LatencyPart::lsom) > 0);
  // Twice the world's work: twice the component part (its stamps sit at the world's ends); the
  // others stay, within what a window holding fewer or more of the same reads moves their
  // means (the share of remote replicas, the device's service draws): a stamp set at the
  // wrong hand-off would move a whole stage's time from one part to another.
  CHECK(read(b, LatencyPart::lsom) == Approx(2 * read(a, LatencyPart::lsom)).epsilon(0.01));
  for (LatencyPart p : {LatencyPart::dom_client, LatencyPart::dom_owner, LatencyPart::client_network, LatencyPart::network,
                        LatencyPart::device}) {
    INFO(latency_part_name(p));
    CHECK(read(b, p) == Approx(read(a, p)).epsilon(0.03));
    CHECK(read(c, p) == Approx(read(a, p)).epsilon(0.03));
  }
  CHECK(read(a, LatencyPart::admission) == 0);
  CHECK(read(c, LatencyPart::admission) == Approx(0.100).epsilon(1e-9));
  CHECK(read(c, LatencyPart::lsom) == Approx(read(a, LatencyPart::lsom)).epsilon(0.03));
  for (const RunResult* r : {&a, &b, &c}) check_parts_sum(r->result);
}
