// Host CPU: per-stage costs scale with the clock; usage% equals offered core time over
// capacity (Little's law on the cores); work beyond capacity queues so throughput caps at
// cores / cost; bad CPU figures are rejected by name.
#include <catch2/catch.hpp>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/engine.hpp"
#include "hcisim/model/hw/host_cpu.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

CpuSpec xeon(double ghz = 2.5, int cores = 8) {
  CpuSpec c;
  c.name = "test-xeon";
  c.sockets = 2;
  c.cores_per_socket = cores / 2;
  c.threads_per_core = 2;
  c.ghz = ghz;
  return c;
}

struct Counter final : CpuClient {
  std::uint64_t done = 0;
  void on_cpu_done(HostCpu&, std::uint64_t) override { ++done; }
};

// Submits one piece of work every `gap`, forever.
struct Feeder final : EventHandler {
  HostCpu* cpu = nullptr;
  Time gap;
  CpuStage stage = CpuStage::dom_owner;
  void on_event(Engine& e, EventTag, std::uint64_t n) override {
    cpu->execute(n, stage, 4_KiB);
    e.schedule_after(gap, *this, 0, n + 1);
  }
};

}  // namespace

TEST_CASE("HostCpu: stage costs follow the cost table and scale with the clock") {
  Engine engine;
  Counter sink;
  CpuCosts costs;   // reference 2.5 GHz
  HostCpu at_ref(engine, "esx0", xeon(2.5), costs, sink);
  HostCpu at_5(engine, "esx1", xeon(5.0), costs, sink);
  CHECK(at_ref.cost(CpuStage::dom_owner, 4_KiB) == Time::round_ns(costs.dom_owner_us * 1e3));
  CHECK(at_ref.cost(CpuStage::compression, 4_KiB) == Time::round_ns(4 * costs.compression_us_per_kib * 1e3));
  CHECK(at_ref.cost(CpuStage::network, 64_KiB) ==
        Time::round_ns((costs.net_message_us + 64 * costs.net_us_per_kib) * 1e3));
  CHECK(at_ref.cost(CpuStage::network, 64_KiB, Transport::rdma) < at_ref.cost(CpuStage::network, 64_KiB));
  CHECK(at_5.cost(CpuStage::dom_owner, 4_KiB) == at_ref.cost(CpuStage::dom_owner, 4_KiB) / 2);
}

TEST_CASE("HostCpu: a Windows guest's I/O costs windows_guest_us, charged to the guest stage") {
  Engine engine;
  Counter sink;
  CpuCosts costs;
  costs.guest_us = 24;
  costs.windows_guest_us = 58;
  HostCpu at_5(engine, "esx0", xeon(5.0), costs, sink);   // twice the reference clock: half the time
  const Time linux_guest = at_5.charge_guest(8_KiB, GuestOs::linux_os);
  const Time windows_guest = at_5.charge_guest(8_KiB, GuestOs::windows);
  CHECK(linux_guest == Time::round_ns(24 * 1e3 / 2));
  CHECK(windows_guest == Time::round_ns(58 * 1e3 / 2));
  CHECK(linux_guest == at_5.cost(CpuStage::guest, 8_KiB));
  CHECK(at_5.stage_time(CpuStage::guest) == linux_guest + windows_guest);
  CpuCosts bad;
  bad.windows_guest_us = -1;
  CHECK_THROWS_WITH(HostCpu(engine, "esx1", xeon(2.5), bad, sink), Catch::Contains("windows_guest_us"));
}

TEST_CASE("HostCpu: TCP receive has its own per-KiB cost, charged to the network stage") {
  // A receive pays the network stage's fixed part and tcp_receive_us_per_kib per KiB (one
  // thread's rate, rx_thread_gbit_s), not the send side's net_us_per_kib; RDMA keeps its row.
  Engine engine;
  Counter sink;
  CpuCosts costs;
  costs.tcp_receive_us_per_kib = 8.192 / 16.0;   // 16 Gbit/s per thread at 2.5 GHz
  HostCpu at_ref(engine, "esx0", xeon(2.5), costs, sink);
  HostCpu at_5(engine, "esx1", xeon(5.0), costs, sink);
  CHECK(at_ref.tcp_receive_ns_per_byte() == Approx(0.5));   // 8 bits / 16 Gbit/s
  CHECK(at_5.tcp_receive_ns_per_byte() == Approx(0.25));
  const Time tcp = at_ref.charge_receive(64_KiB, Transport::tcp);
  CHECK(tcp == Time::round_ns((costs.net_message_us + 64 * costs.tcp_receive_us_per_kib) * 1e3));
  CHECK(tcp != at_ref.cost(CpuStage::network, 64_KiB));
  CHECK(at_ref.charge_tcp_receive(64_KiB) == Time::round_ns(64 * costs.tcp_receive_us_per_kib * 1e3));
  CHECK(at_ref.charge_receive(64_KiB, Transport::rdma) == at_ref.cost(CpuStage::network, 64_KiB, Transport::rdma));
  CHECK(at_ref.stage_time(CpuStage::network) ==
        tcp + Time::round_ns(64 * costs.tcp_receive_us_per_kib * 1e3) + at_ref.cost(CpuStage::network, 64_KiB, Transport::rdma));
  CpuCosts bad;
  bad.tcp_receive_us_per_kib = -1;
  CHECK_THROWS_WITH(HostCpu(engine, "esx2", xeon(2.5), bad, sink), Catch::Contains("tcp_receive_us_per_kib"));
}

TEST_CASE("HostCpu: one busy thread per core reads 100 % usage and 50 % utilization") {
  // Below the core count every job runs alone on a core at full speed: usage counts cores
  // running a thread (CORE UTIL), utilization busy threads over logical CPUs (PCPU UTIL).
  Engine engine;
  Counter sink;
  HostCpu cpu(engine, "esx0", xeon(2.5, 8), CpuCosts{}, sink);
  Feeder feed;
  feed.cpu = &cpu;
  feed.gap = 1_us;   // 8 us of work every 1 us: 8 threads busy on 8 cores, nothing shared
  feed.stage = CpuStage::dom_owner;
  engine.schedule_at(Time::zero(), feed);
  engine.run_until(10_ms);
  cpu.reset_stats();
  const std::uint64_t before = sink.done;
  engine.run_until(110_ms);
  CHECK(static_cast<double>(sink.done - before) == Approx(100e-3 / 1e-6).epsilon(0.001));   // all served
  CHECK(cpu.usage_pct() == Approx(100.0).epsilon(0.01));
  CHECK(cpu.utilization_pct() == Approx(50.0).epsilon(0.01));   // seed 000's 59.5 / 30.8 pattern
}

TEST_CASE("HostCpu: usage is offered core time over capacity, utilization spreads it over threads") {
  Engine engine;
  Counter sink;
  HostCpu cpu(engine, "esx0", xeon(2.5, 8), CpuCosts{}, sink);
  Feeder feed;
  feed.cpu = &cpu;
  feed.gap = 2_us;   // 8 us of work every 2 us = 4 busy cores of 8
  engine.schedule_at(Time::zero(), feed);
  engine.run_until(10_ms);
  cpu.reset_stats();
  engine.run_until(210_ms);
  CHECK(cpu.usage_pct() == Approx(50.0).epsilon(0.01));
  CHECK(cpu.utilization_pct() == Approx(25.0).epsilon(0.01));
  CHECK(cpu.stage_share(CpuStage::dom_owner) == Approx(1.0));
  CHECK(cpu.stage_share(CpuStage::compression) == 0.0);
}

TEST_CASE("HostCpu: usage counts a busy core's clock against its base clock, utilization does not") {
  // Broadcom KB 431027's example [S78]: a 2.80 GHz base at 3.50 GHz, a fully busy core reads 125 %.
  // The vSCSI stage's 3 us at 2.5 GHz every 1 us on 8 cores at 3.5 GHz: 2.143 busy threads,
  // each alone on a core, so 2.143 x 1.25 of 8 cores' usage with the base at 2.8 GHz.
  for (const double base : {0.0, 2.8, 4.0}) {
    Engine engine;
    Counter sink;
    CpuSpec spec = xeon(3.5, 8);
    spec.base_ghz = base;
    HostCpu cpu(engine, "esx0", spec, CpuCosts{}, sink);
    const double factor = base > 0 ? 3.5 / base : 1.0;
    CHECK(cpu.usage_clock_factor() == Approx(factor));
    Feeder feed;
    feed.cpu = &cpu;
    feed.gap = 1_us;
    feed.stage = CpuStage::vscsi;   // 3 us at 2.5 GHz: 2.143 us at 3.5 GHz
    engine.schedule_at(Time::zero(), feed);
    engine.run_until(10_ms);
    cpu.reset_stats();
    engine.run_until(110_ms);
    const double threads = CpuCosts{}.vscsi_us * 2.5 / 3.5;
    CHECK(cpu.utilization_pct() == Approx(100.0 * threads / 16).epsilon(0.01));
    CHECK(cpu.usage_pct() == Approx(100.0 * threads * factor / 8).epsilon(0.01));
  }
  // 3.5 of 4 cores busy at 1.25 each reads 109 % uncapped (87.5 % without the clock): 100 %.
  Engine engine;
  Counter sink;
  CpuSpec spec = xeon(3.5, 4);
  spec.base_ghz = 2.8;
  HostCpu cpu(engine, "esx0", spec, CpuCosts{}, sink);
  Feeder feed;
  feed.cpu = &cpu;
  feed.stage = CpuStage::dom_owner;   // 8 us at 2.5 GHz: 5.714 us at 3.5 GHz
  feed.gap = Time::round_ns(8e3 * 2.5 / 3.5 / 3.5);   // 3.5 threads busy
  engine.schedule_at(Time::zero(), feed);
  engine.run_until(1_ms);
  cpu.reset_stats();
  engine.run_until(101_ms);
  CHECK(cpu.utilization_pct() == Approx(100.0 * 3.5 / 8).epsilon(0.01));
  CHECK(cpu.usage_pct() == Approx(100.0));
}

TEST_CASE("HostCpu: work beyond capacity queues and throughput caps at cores x 1.25 per cost") {
  Engine engine;
  Counter sink;
  HostCpu cpu(engine, "esx0", xeon(2.5, 4), CpuCosts{}, sink);
  Feeder feed;
  feed.cpu = &cpu;
  feed.gap = 1_us;   // far beyond the capacity of 4 cores at 8 us each
  engine.schedule_at(Time::zero(), feed);
  engine.run_until(1_ms);
  const std::uint64_t before = sink.done;
  engine.run_until(11_ms);
  // With every thread busy a core does 1.25 threads' work (ht_throughput): 4 x 1.25 / 8 us.
  CHECK(static_cast<double>(sink.done - before) == Approx(10e-3 * 4 * 1.25 / 8e-6).epsilon(0.001));
  CHECK(cpu.usage_pct() == Approx(100.0));
  CHECK(cpu.utilization_pct() == Approx(100.0).epsilon(0.001));
  CHECK(cpu.cores().queue_length() > 1000);   // the backlog waits, nothing is dropped
}

TEST_CASE("HostCpu: bad CPU figures and costs are rejected naming the field") {
  Engine engine;
  Counter sink;
  CpuSpec bad = xeon();
  bad.cores_per_socket = 0;
  CHECK_THROWS_WITH(HostCpu(engine, "esx0", bad, CpuCosts{}, sink),
                    Catch::Contains("cpu 'test-xeon' cores_per_socket") && Catch::Contains("[1, 256]"));
  bad = xeon();
  bad.ghz = -2;
  CHECK_THROWS_WITH(HostCpu(engine, "esx0", bad, CpuCosts{}, sink), Catch::Contains("ghz"));
  CpuCosts costs;
  costs.compression_us_per_kib = std::nan("");
  CHECK_THROWS_WITH(HostCpu(engine, "esx0", xeon(), costs, sink), Catch::Contains("compression_us_per_kib"));
}
