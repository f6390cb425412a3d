// Benchmark VMs: VMs spread over hosts, closed loops obey Little's law, an IOPS cap per VM
// holds exactly (open loop), the latency-target controller settles where p95 meets the
// target, HCIBench's per-VM averaging differs from pooling when VMs differ, DiskSpd threads
// are counted separately.
#include <catch2/catch.hpp>

#include "../storage/cluster_fixtures.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/workload/workload_result.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

struct Run {
  Engine engine;
  VmWorkload load;
  Cluster cluster;
  Run(const ClusterSpec& spec, const WorkloadSpec& w, int threads = 1)
      : load(engine, w, 7, threads), cluster(engine, spec, {w.compress_pct, w.dedupe_pct}, 7, load) {
    load.start(cluster);
  }
  WorkloadResult measure(Time warm, Time window) {
    engine.run_for(warm);
    load.reset_stats();
    cluster.reset_stats();
    engine.run_for(window);
    return summarize(load, engine.now());
  }
};

}  // namespace

TEST_CASE("VMs are spread round-robin over hosts and the closed loop obeys Little's law") {
  WorkloadSpec w;
  w.vms = 8;
  w.vmdks_per_vm = 2;
  w.outstanding_per_vmdk = 4;
  Run run(test::osa_cluster(4), w);
  const WorkloadResult r = run.measure(10_ms, 100_ms);
  REQUIRE(run.load.vms() == 8);
  for (int v = 0; v < 8; ++v) CHECK(run.load.vm_stats()[static_cast<std::size_t>(v)].host == v % 4);
  CHECK(r.outstanding_io == Approx(8 * 2 * 4).epsilon(0.001));
  CHECK(r.outstanding_io == Approx(r.iops * r.pooled_latency_ms * 1e-3).epsilon(0.01));
  CHECK(r.read_iops / r.iops == Approx(0.7).margin(0.01));
  CHECK(r.throughput_mbps == Approx(r.iops * 4096 / (1024.0 * 1024.0)).epsilon(1e-9));
}

TEST_CASE("an IOPS limit per VM is met exactly when the cluster has headroom") {
  WorkloadSpec w;
  w.vms = 4;
  w.iops_limit_per_vm = 5000;   // the 5,000 IOPS per VMDK cap of a 6-node ESA run ([S73])
  Run run(test::esa_cluster(3), w);
  const WorkloadResult r = run.measure(20_ms, 500_ms);
  CHECK(r.iops == Approx(4 * 5000).epsilon(0.01));
  CHECK(r.outstanding_io < 4 * 4);   // the cap, not the queue depth, sets the rate
}

TEST_CASE("an open loop offered far past saturation costs events per completed I/O, not per offered I/O") {
  // One release event per offered I/O (here 1e8 per VM per second, 400 per
  // microsecond for the cluster) and a scan of every slot per completion made a simulated
  // millisecond take minutes. Saturated, the VMs keep every slot busy, like the closed loop.
  WorkloadSpec w;
  w.vms = 4;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 64;
  w.iops_limit_per_vm = 1e8;
  Run open(test::osa_cluster(4), w);
  const std::uint64_t events_before = open.engine.events_fired();
  const WorkloadResult r = open.measure(5_ms, 20_ms);
  const double events_per_io =
      static_cast<double>(open.engine.events_fired() - events_before) / static_cast<double>(open.load.completed());
  WorkloadSpec closed_spec = w;
  closed_spec.iops_limit_per_vm = 0;
  Run closed(test::osa_cluster(4), closed_spec);
  const WorkloadResult c = closed.measure(5_ms, 20_ms);
  INFO("open " << r.iops << " IOPS, " << events_per_io << " events per I/O; closed " << c.iops << " IOPS");
  CHECK(events_per_io < 40);                       // offered: 25,000 per completed I/O
  CHECK(r.outstanding_io == Approx(4 * 4 * 64).epsilon(0.02));
  CHECK(r.iops == Approx(c.iops).epsilon(0.05));
}

TEST_CASE("a run with a guest I/O in flight far beyond the completed ones is a stall, not a result") {
  // A write larger than the write buffer through the library, which (unlike simulate) does
  // not refuse it up front: 1 MiB writes into 1 MB write buffers wait for room forever. After
  // 12 s every write has been in flight for 12 s (> 10 s). The same cluster with room passes.
  WorkloadSpec w;
  w.vms = 3;
  w.read_pct = 0;
  w.block = Bytes{1 << 20};
  w.vscsi = VscsiAdapter::lsilogic;   // whole 1 MiB transfers (PVSCSI would split them in two)
  ClusterSpec stuck = test::osa_cluster(3);
  stuck.osa.write_buffer = Bytes{1000000};
  Run slow(stuck, w);
  slow.engine.run_for(12_s);
  CHECK(slow.load.completed() == 0);
  CHECK_THROWS_WITH(check_progress(slow.load, slow.engine.now()),
                    Catch::Contains("the model stalled: VM 1's VMDK 1 has had a write in flight for 12.0 simulated seconds"));
  Run healthy(test::osa_cluster(3), w);
  healthy.engine.run_for(200_ms);
  CHECK_NOTHROW(check_progress(healthy.load, healthy.engine.now()));
}

TEST_CASE("the end-of-run audit holds in every mode and names what breaks", "[invariants]") {
  // Closed loop, open loop (below and far past saturation), latency target, guest queues that
  // bind, 2 MiB I/Os split by the adapter, 1 MiB writes over 600 GiB VMDKs (RAID-0 units), a
  // failed host: each is audited mid-run (I/Os at both edges of the window).
  WorkloadSpec closed;
  closed.vms = 4;
  closed.vmdks_per_vm = 2;
  closed.outstanding_per_vmdk = 8;
  WorkloadSpec open = closed, flood = closed, target = closed, queued = closed, big = closed, chunked = closed;
  open.iops_limit_per_vm = 3000;
  flood.iops_limit_per_vm = 1e7;
  target.latency_target_ms = 0.3;
  queued.outstanding_per_vmdk = 128;
  queued.vscsi_disk_queue = 16;
  big.block = Bytes{2 << 20};
  big.read_pct = 100;
  chunked.block = Bytes{1 << 20};
  chunked.read_pct = 30;
  chunked.vmdk_size = Bytes{std::int64_t{600} << 30};
  ClusterSpec one_down = test::osa_cluster(4);
  one_down.failed_hosts = {1};
  const std::pair<const WorkloadSpec*, ClusterSpec> cases[] = {
      {&closed, test::osa_cluster(3)}, {&open, test::osa_cluster(3)},   {&flood, test::osa_cluster(3)},
      {&target, test::osa_cluster(3)}, {&queued, test::osa_cluster(3)}, {&big, test::osa_cluster(3)},
      {&chunked, test::osa_cluster(3)}, {&closed, one_down}};
  for (const auto& [w, spec] : cases) {
    Run run(spec, *w);
    run.measure(30_ms, 70_ms);
    INFO("block " << w->block.count() << ", limit " << w->iops_limit_per_vm << ", target " << w->latency_target_ms
                  << ", disk queue " << w->vscsi_disk_queue);
    CHECK(run.load.audit(run.engine.now(), run.cluster.live_requests()).empty());
    // One operation the cluster holds that no guest sent: named, with both counts.
    const std::uint64_t live = run.cluster.live_requests();
    CHECK_THAT(run.load.audit(run.engine.now(), live + 1),
               Catch::Contains("the guests have " + std::to_string(live) + " operations out, the cluster holds " +
                               std::to_string(live + 1)));
  }
}

TEST_CASE("a run whose I/Os legitimately take longer than 10 s is not a stall") {
  // 16,384 reads queued on two 10K disks (about 300 IOPS): each waits about a minute. Early
  // in a window no I/O issued in it has completed; the watchdog's yardstick is every
  // completion so far, so this is slow, not stuck.
  ClusterSpec spec = test::one_host_osa("seagate-10k-v7-1.2tb", "sas-hba", 2);
  WorkloadSpec w;
  w.vms = 4;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 1024;
  w.read_pct = 100;
  w.vmdk_size = Bytes{std::int64_t{100} << 30};
  Run run(spec, w);
  run.engine.run_for(1_s);
  run.load.reset_stats();
  run.cluster.reset_stats();
  run.engine.run_for(14_s);
  const VmWorkload::InFlight oldest = run.load.oldest_in_flight();
  REQUIRE(oldest.found);
  REQUIRE((run.engine.now() - oldest.issued).seconds() > 10);
  CHECK(run.load.measured() == 0);   // nothing issued in the window has completed
  CHECK_NOTHROW(check_progress(run.load, run.engine.now()));
}

TEST_CASE("latency-target mode raises outstanding I/O until p95 reaches the target") {
  WorkloadSpec w;
  w.vms = 4;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 64;
  w.read_pct = 0;
  w.latency_target_ms = 0.5;
  ClusterSpec spec = test::osa_cluster(4);
  Run run(spec, w);
  run.engine.run_for(2500_ms);   // one step of depth per 100 ms window
  const int depth = run.load.depth();
  run.load.reset_stats();
  run.engine.run_for(300_ms);
  const WorkloadResult r = summarize(run.load, run.engine.now());
  INFO("depth " << depth << ", p95 " << r.pooled_write_p95_ms << " ms");
  CHECK(depth > 1);
  CHECK(depth < 64);
  CHECK(r.pooled_write_p95_ms == Approx(0.5).epsilon(0.10));   // the target, within about one depth step
}

TEST_CASE("HCIBench averages per VM, pooled statistics weight by I/O count") {
  // Two hosts with different capacity devices make the VMs' latencies differ.
  ClusterSpec spec = test::osa_cluster(3);
  spec.policy = {RaidLevel::raid1, 0};
  spec.hosts[1].disk_groups[0].capacity[0] = test::drive("intel-s4500-1.92tb", "sata-hba");
  WorkloadSpec w;
  w.vms = 3;
  w.read_pct = 100;
  Run run(spec, w);
  const WorkloadResult r = run.measure(10_ms, 200_ms);
  double mean_of_means = 0;
  for (const VmStats& vm : run.load.vm_stats()) mean_of_means += vm.sum_ns[0] / static_cast<double>(vm.ios[0]) / 3;
  CHECK(r.read_latency_ms == Approx(mean_of_means * 1e-6).epsilon(1e-9));
  CHECK(r.read_latency_ms > r.pooled_latency_ms * 1.02);   // slow VMs do fewer I/Os but count equally
  double p95 = 0;
  for (const VmStats& vm : run.load.vm_stats()) p95 += vm.latency[0].percentile(0.95).ms() / 3;
  CHECK(r.read_p95_ms == Approx(p95).epsilon(1e-9));
}

TEST_CASE("DiskSpd threads own their outstanding I/Os and are counted separately") {
  WorkloadSpec w;
  w.vms = 1;
  w.vmdks_per_vm = 2;
  w.outstanding_per_vmdk = 16;   // -t4 -o4
  Run run(test::osa_cluster(3), w, 4);
  run.measure(10_ms, 50_ms);
  REQUIRE(run.load.thread_stats().size() == 8);
  std::uint64_t total = 0;
  for (const ThreadStats& t : run.load.thread_stats()) {
    CHECK(t.ios[0] + t.ios[1] > 0);
    total += t.ios[0] + t.ios[1];
  }
  CHECK(total == run.load.measured());
}

TEST_CASE("PVSCSI splits a guest I/O above 512 KiB into pieces issued together, LSI Logic passes it whole") {
  WorkloadSpec w;
  w.vms = 1;
  w.outstanding_per_vmdk = 1;
  w.read_pct = 100;
  w.block = Bytes{1280 << 10};   // pieces of 512, 512 and 256 KiB
  double latency_ms[2] = {0, 0};
  for (const VscsiAdapter a : {VscsiAdapter::pvscsi, VscsiAdapter::lsilogic}) {
    w.vscsi = a;
    Run run(test::esa_cluster(3), w);
    const WorkloadResult r = run.measure(5_ms, 200_ms);
    const auto guest_ios = static_cast<std::int64_t>(run.load.measured());
    REQUIRE(guest_ios > 20);
    const auto submitted = static_cast<std::int64_t>(run.cluster.counters().submitted);
    const std::int64_t pieces = a == VscsiAdapter::pvscsi ? 3 : 1;
    // One guest I/O may straddle each edge of the window.
    CHECK(submitted >= pieces * (guest_ios - 1));
    CHECK(submitted <= pieces * (guest_ios + 1));
    CHECK(run.cluster.counters().host_read_bytes >= (guest_ios - 1) * w.block.count());
    CHECK(run.cluster.counters().host_read_bytes <= (guest_ios + 1) * w.block.count());
    CHECK(r.outstanding_io == Approx(r.iops * r.pooled_latency_ms * 1e-3).epsilon(0.03));
    latency_ms[static_cast<int>(a)] = r.read_latency_ms;
    // The guest's work is paid once per guest I/O, vSCSI's once per piece: on the VM's host
    // the two stages' time stands in that ratio (both run only there).
    const HostCpu& cpu = run.cluster.cpu(0);
    const auto guest = static_cast<double>(cpu.cost(CpuStage::guest, w.block).count_ns());
    double vscsi = 0;
    for (std::int64_t at = 0; at < w.block.count(); at += max_transfer(a).count())
      vscsi += static_cast<double>(
          cpu.cost(CpuStage::vscsi, Bytes{std::min(max_transfer(a).count(), w.block.count() - at)}).count_ns());
    CHECK(cpu.stage_share(CpuStage::guest) / cpu.stage_share(CpuStage::vscsi) == Approx(guest / vscsi).epsilon(0.02));
  }
  // The pieces run on different cores and links at once: the guest I/O waits for the slowest.
  CHECK(latency_ms[0] < 0.8 * latency_ms[1]);
}

TEST_CASE("the virtual adapter's queues hold back what a VM with deep queues puts in flight") {
  // PVSCSI's defaults (VMware KB 2053145 [S84]): 64 I/Os per disk and 254 per adapter out of the
  // guest; the rest wait in the guest, and that wait is part of the latency the guest sees.
  auto peak = [](const WorkloadSpec& w) {
    Run run(test::osa_cluster(4), w);
    int most = 0;
    for (int step = 0; step < 400; ++step) {
      run.engine.run_for(50_us);
      most = std::max(most, run.load.dispatched(0));
    }
    const WorkloadResult r = run.measure(Time::zero(), 50_ms);
    CHECK(r.outstanding_io == Approx(r.iops * r.pooled_latency_ms * 1e-3).epsilon(0.02));   // Little's law in the guest
    return std::pair{most, r};
  };
  WorkloadSpec w;
  w.vms = 1;
  w.vmdks_per_vm = 1;
  w.outstanding_per_vmdk = 128;
  const auto [one_disk, r1] = peak(w);
  CHECK(one_disk == 64);                                // the disk queue
  CHECK(r1.outstanding_io == Approx(128).epsilon(0.001));
  w.vmdks_per_vm = 8;
  w.outstanding_per_vmdk = 48;
  CHECK(peak(w).first == 254);                          // 8 x 48 = 384, the adapter takes 254
  w.vscsi_adapter_queue = 1024;
  CHECK(peak(w).first == 384);                          // raised: all of them
  w.vmdks_per_vm = 1;
  w.outstanding_per_vmdk = 128;
  w.vscsi = VscsiAdapter::lsilogic;
  w.vscsi_adapter_queue = 0;
  CHECK(peak(w).first == 32);                           // LSI Logic SAS: 32 per disk
}
