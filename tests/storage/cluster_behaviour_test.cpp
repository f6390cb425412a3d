// Conservation and behaviour of the cluster model: every I/O completes exactly once; device
// bytes equal host bytes x amplification / reduction; a full write buffer makes writers wait
// and drops nothing; a working set larger than the OSA write buffer drives write IOPS down
// to the destage rate; ESA RAID-6 small writes run close to RAID-1 FTT 2 while OSA RAID-6
// falls far below; Little's law holds for closed loops; state stays flat in simulated time.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>

#include "cluster_fixtures.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/workload/workload_result.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

using test::Recorder;

// Warm up, reset the statistics, measure; `inspect` sees the cluster at the end.
WorkloadResult run_loop(const ClusterSpec& spec, const WorkloadSpec& w, Time warm, Time measure,
                        const DataProfile& data = {}, IoCounters* counters = nullptr,
                        const std::function<void(const Cluster&)>& inspect = {}) {
  return test::closed_loop(
      spec, w, 11, warm, measure,
      [&](const Cluster& cluster) {
        if (counters) *counters = cluster.counters();
        if (inspect) inspect(cluster);
      },
      data);
}

// One CPU stage over a measured window (run_loop, 10 ms warm-up, 100 ms): every host's time
// in `stage`, the cost of one charge of a 4 KiB block (every host has the same CPU) and the
// window's counters, the oracle of the per-operation cost tests.
struct StageCharges {
  double charged_ns = 0;
  double cost_ns = 0;
  IoCounters n;
};
StageCharges stage_charges(const ClusterSpec& spec, const WorkloadSpec& w, CpuStage stage) {
  StageCharges s;
  run_loop(spec, w, 10_ms, 100_ms, {}, &s.n, [&](const Cluster& c) {
    for (int h = 0; h < c.hosts(); ++h) s.charged_ns += static_cast<double>(c.cpu(h).stage_time(stage).count_ns());
    s.cost_ns = static_cast<double>(c.cpu(0).cost(stage, 4_KiB).count_ns());
  });
  return s;
}

// Starts `loop` on `cluster` from prepared write buffers and ages them 100 times for 300 ms,
// as a 30 s warm-up would (WriteBuffer "Aging").
void age_buffers(Engine& engine, VmWorkload& loop, Cluster& cluster) {
  loop.start(cluster);
  cluster.prepare_write_buffers();
  cluster.set_buffer_time_compression(100.0);
  engine.run_for(300_ms);
  cluster.set_buffer_time_compression(1.0);
}

}  // namespace

TEST_CASE("conservation: every issued I/O completes exactly once") {
  for (bool esa : {false, true}) {
    Engine engine;
    Recorder rec;
    ClusterSpec spec = esa ? test::esa_cluster(6) : test::osa_cluster(6);
    spec.policy = {RaidLevel::raid6, 2};
    Cluster cluster(engine, spec, {}, 5, rec);
    std::vector<int> objects;
    for (int h = 0; h < 6; ++h) objects.push_back(cluster.add_object(h, 8_GiB, 8_GiB));
    RngStream rng(5, 0, "offsets");
    for (std::uint64_t t = 0; t < 3000; ++t) {
      const int o = objects[t % 6];
      cluster.submit(t, o, static_cast<int>(t % 6), rng.uniform01() < 0.5 ? IoOp::read : IoOp::write,
                     rng.below(2 << 20) * 4096, t % 10 == 0 ? 64_KiB : 4_KiB);
    }
    engine.run();
    CHECK(rec.done.size() == 3000);
    for (const auto& [token, n] : rec.done) {
      INFO("token " << token);
      REQUIRE(n == 1);
    }
    CHECK(cluster.counters().completed == 3000);
    CHECK(cluster.in_flight() == 0);
  }
}

TEST_CASE("conservation: device bytes written = host bytes x amplification / reduction") {
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdks_per_vm = 2;
  w.vmdk_size = Bytes{std::int64_t{1} << 40};   // coalescing in the write buffer stays ~1e-4
  {
    ClusterSpec osa = test::osa_cluster(4);
    osa.services = {true, true};
    IoCounters k;
    run_loop(osa, w, 5_ms, 50_ms, {50, 50}, &k);
    // Foreground: FTT+1 copies in the write buffers, reduced only at destage.
    CHECK(static_cast<double>(k.fg_device_write_bytes) == Approx(2.0 * static_cast<double>(k.host_write_bytes)).epsilon(0.01));
  }
  {
    ClusterSpec esa = test::esa_cluster(6);
    esa.policy = {RaidLevel::raid6, 2};
    esa.services.compression = true;
    IoCounters k;
    run_loop(esa, w, 5_ms, 50_ms, {50, 0}, &k);
    const double host = static_cast<double>(k.host_write_bytes);
    // Performance leg: 3 mirrors of the compressed bytes (c = 2); capacity leg: 6/4 of them.
    CHECK(static_cast<double>(k.fg_device_write_bytes) == Approx(3.0 * host / 2).epsilon(0.01));
    CHECK(static_cast<double>(k.bg_device_write_bytes) == Approx(1.5 * host / 2).epsilon(0.05));
    CHECK(static_cast<double>(k.fg_network_bytes) < 3.0 * host / 2);   // some mirrors are local
  }
  {
    // OSA with dedupe 50 % and compression 50 %: destage writes 1/4 of what it reads.
    Engine engine;
    Recorder rec;
    ClusterSpec osa = test::osa_cluster(4);
    osa.services = {true, true};
    Cluster cluster(engine, osa, {50, 50}, 2, rec);
    const int obj = cluster.add_object(0, 1_TiB, 1_TiB);
    for (std::uint64_t t = 0; t < 256; ++t) cluster.submit(t, obj, 0, IoOp::write, t * 1'000'000 * 4096 / 1'000'000 * 97, 4_KiB);
    engine.run();
    cluster.drain();
    engine.run();
    const IoCounters& k = cluster.counters();
    CHECK(static_cast<double>(k.bg_device_read_bytes) == Approx(2.0 * 256 * 4096).epsilon(0.001));
    CHECK(static_cast<double>(k.bg_device_write_bytes) == Approx(2.0 * 256 * 4096 / 4).epsilon(0.01));
  }
}

TEST_CASE("a full write buffer makes writers wait and never drops an I/O") {
  ClusterSpec osa = test::osa_cluster(4);
  osa.osa.write_buffer = 64_MiB;        // tiny buffer
  osa.osa.destage_depth = 1;            // slow elevator
  osa.osa.destage_batch_blocks = 4;
  osa.osa.congestion_delay_a_us = 0.01; // weak congestion: let the buffer fill up
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 16;
  Engine engine;
  VmWorkload loop(engine, w, 3);
  Cluster cluster(engine, osa, {}, 3, loop);
  loop.start(cluster);
  double max_fill = 0;
  for (int i = 0; i < 100; ++i) {
    engine.run_for(2_ms);
    for (int h = 0; h < 4; ++h) max_fill = std::max(max_fill, cluster.write_buffer(h, 0).fill());
  }
  const IoCounters& k = cluster.counters();
  CHECK(k.waited_for_buffer > 0);
  CHECK(max_fill <= 1.0);
  CHECK(max_fill > 0.99);
  // Nothing lost: what was submitted is either completed or still in flight.
  CHECK(k.submitted == k.completed + cluster.in_flight());
  CHECK(cluster.in_flight() == static_cast<std::size_t>(4 * 4 * 16));
}

TEST_CASE("OSA: with a working set larger than the write buffer, writes fall to the destage rate") {
  // SATA capacity SSDs (Intel S4500) destage far slower than the Optane cache absorbs writes.
  ClusterSpec osa = test::osa_cluster(4, 1, 1, "intel-s4500-1.92tb", "sata-hba");
  osa.osa.write_buffer = 256_MiB;   // small, so it fills within a short simulated time
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 4;
  w.vmdk_size = 64_GiB;             // working set 4 x 64 GiB per host, far beyond the buffer
  Engine engine;
  VmWorkload loop(engine, w, 9);
  Cluster cluster(engine, osa, {}, 9, loop);
  loop.start(cluster);
  engine.run_for(10_ms);
  const double filling_iops = summarize(loop, engine.now()).iops;
  engine.run_for(800_ms);           // the buffers fill and congestion sets in
  loop.reset_stats();
  cluster.reset_stats();
  engine.run_for(400_ms);
  const WorkloadResult steady = summarize(loop, engine.now());
  const IoCounters& k = cluster.counters();
  const double fill = cluster.write_buffer(0, 0).fill();
  INFO("filling " << filling_iops << " IOPS, steady " << steady.iops << " IOPS, fill " << fill);
  CHECK(fill > osa.osa.congestion_start_fill);
  CHECK(fill < 1.0);
  CHECK(k.congestion_delays > 0);
  CHECK(steady.iops < 0.5 * filling_iops);
  // Ingest has converged to destage: the bytes entering the buffers (2 copies) equal the
  // bytes destaged, within 10 %.
  CHECK(static_cast<double>(k.bg_device_write_bytes) ==
        Approx(2.0 * static_cast<double>(k.host_write_bytes)).epsilon(0.10));
}

TEST_CASE("idle destage: without writes the elevator drains the buffer to its idle fill, reads then miss it") {
  // OsaSettings::destage_idle_fill: a read-only workload leaves the buffer idle, so an aged
  // warm-up ends at the idle fill and reads find their block there with probability
  // idle fill x buffer / working set; any write keeps the start fill; an idle fill equal
  // to the start fill turns the drain off.
  auto aged = [](double read_pct, double idle_fill, double* hit) {
    ClusterSpec osa = test::osa_cluster(4);
    osa.osa.write_buffer = 4_GiB;
    osa.osa.destage_idle_fill = idle_fill;
    WorkloadSpec w;
    w.read_pct = read_pct;
    w.vmdks_per_vm = 2;
    w.outstanding_per_vmdk = 2;
    w.vmdk_size = 16_GiB;
    Engine engine;
    VmWorkload loop(engine, w, 9);
    Cluster cluster(engine, osa, {}, 9, loop);
    age_buffers(engine, loop, cluster);
    engine.run_for(50_ms);
    const WriteBuffer& b = cluster.write_buffer(0, 0);
    *hit = b.hit_probability();
    CHECK(*hit == Approx(b.fill() * b.capacity() / b.working_set()).epsilon(1e-9));
    return b.fill();
  };
  double hit_idle = 0, hit_mixed = 0, hit_off = 0;
  const double idle = aged(100, 0.05, &hit_idle);
  const double mixed = aged(70, 0.05, &hit_mixed);
  const double off = aged(100, 0.30, &hit_off);
  INFO("fill read-only " << idle << " (hit " << hit_idle << "), 70/30 " << mixed << ", drain off " << off);
  CHECK(idle == Approx(0.05).margin(0.01));
  CHECK(mixed == Approx(0.30).margin(0.01));
  CHECK(off == Approx(0.30).margin(1e-3));
  CHECK(hit_idle < 0.25 * hit_off);
}

TEST_CASE("idle destage starts a second after the last write, without another event to wake it") {
  // 3 MiB of writes into 16 MiB buffers leave them under the start fill, so nothing destages
  // while writes come; a second after the last one the elevator drains them to the idle fill.
  for (const double idle_fill : {0.05, 0.30}) {
    ClusterSpec osa = test::osa_cluster(4);
    osa.osa.write_buffer = 16_MiB;
    osa.osa.destage_idle_fill = idle_fill;
    Engine engine;
    Recorder rec;
    Cluster cluster(engine, osa, {}, 3, rec);
    const int obj = cluster.add_object(0, 64_GiB, 64_GiB);
    for (std::uint64_t i = 0; i < 768; ++i) cluster.submit(i, obj, 0, IoOp::write, i * 7 * 4096, 4_KiB);
    engine.run_for(900_ms);
    double most = 0;
    for (int h = 0; h < 4; ++h) most = std::max(most, cluster.write_buffer(h, 0).fill());
    CHECK(most > 0.15);
    CHECK(cluster.counters().bg_device_writes == 0);
    engine.run();
    INFO("idle fill " << idle_fill << ": ended at " << engine.now().seconds() << " s");
    double left = 0;
    for (int h = 0; h < 4; ++h) left = std::max(left, cluster.write_buffer(h, 0).fill());
    if (idle_fill < osa.osa.destage_start_fill) {
      CHECK(cluster.counters().bg_device_writes > 0);
      CHECK(left <= idle_fill);
      CHECK(engine.now().seconds() > 1.0);
    } else {
      CHECK(cluster.counters().bg_device_writes == 0);   // the drain is off
      CHECK(left == Approx(most));
    }
  }
}

TEST_CASE("aging: a time-compressed warm-up reaches the steady state of a long warm-up") {
  // Same destage-bound setup as above, both runs from prepared buffers. Reference: 1.6 s of
  // warm-up at k = 1. Aged: 200 ms at k = 8 (WriteBuffer "Aging" says this stands for 1.6 s).
  // The measured windows must agree on fill level and IOPS.
  ClusterSpec osa = test::osa_cluster(4, 1, 1, "intel-s4500-1.92tb", "sata-hba");
  osa.osa.write_buffer = 1_GiB;
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 4;
  w.vmdk_size = 64_GiB;
  auto run = [&](Time warm, double k, double* start_fill) {
    Engine engine;
    VmWorkload loop(engine, w, 9);
    Cluster cluster(engine, osa, {}, 9, loop);
    loop.start(cluster);
    cluster.prepare_write_buffers();
    CHECK(cluster.write_buffer(0, 0).fill() == Approx(osa.osa.destage_start_fill));
    cluster.set_buffer_time_compression(k);
    engine.run_for(warm);
    cluster.set_buffer_time_compression(1.0);
    *start_fill = cluster.write_buffer(0, 0).fill();
    loop.reset_stats();
    cluster.reset_stats();
    engine.run_for(400_ms);
    return summarize(loop, engine.now()).iops;
  };
  double long_fill = 0, aged_fill = 0, fresh_fill = 0;
  const double long_iops = run(1600_ms, 1.0, &long_fill);
  const double aged_iops = run(200_ms, 8.0, &aged_fill);
  run(200_ms, 1.0, &fresh_fill);
  INFO("measured from fill: long " << long_fill << ", aged " << aged_fill << ", fresh " << fresh_fill
                                   << "; IOPS long " << long_iops << ", aged " << aged_iops);
  CHECK(aged_iops == Approx(long_iops).epsilon(0.10));
  CHECK(aged_fill == Approx(long_fill).margin(0.03));
  CHECK(fresh_fill < long_fill - 0.1);   // without aging, 200 ms has not reached the steady fill
  // Bad input names the argument.
  WriteBuffer b(1_GiB, osa.osa);
  CHECK_THROWS_WITH(b.set_time_compression(0.5), Catch::Contains("write buffer time compression"));
}

TEST_CASE("aging ends in the steady state: the measured window destages what arrives") {
  // A buffer far from congestion: after an aged warm-up its fill hovers at the destage
  // threshold, so a measured window must destage about the fresh bytes it ingests
  // (2 copies x (1 - hit probability)). Aged destage removes k bytes per byte and would
  // leave the fill below the threshold, with nothing destaged in the window. The window is
  // 300 ms: the batches in flight at its ends move a 100 ms window's destaged bytes by up to
  // 17 % (1.6 % over 1 s); over 300 ms it reads about 5 % above the fresh bytes.
  ClusterSpec osa = test::osa_cluster(4);
  osa.osa.write_buffer = 4_GiB;
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdks_per_vm = 2;
  w.outstanding_per_vmdk = 1;
  w.vmdk_size = 16_GiB;
  Engine engine;
  VmWorkload loop(engine, w, 9);
  Cluster cluster(engine, osa, {}, 9, loop);
  age_buffers(engine, loop, cluster);
  const double hit = cluster.write_buffer(0, 0).hit_probability();
  const double start_fill = cluster.write_buffer(0, 0).fill();
  loop.reset_stats();
  cluster.reset_stats();
  engine.run_for(300_ms);
  const IoCounters k = cluster.counters();
  const double fresh = 2.0 * static_cast<double>(k.host_write_bytes) * (1.0 - hit);
  INFO("fill " << start_fill << ", hit " << hit << ", fresh " << fresh << " B, destaged "
               << k.bg_device_write_bytes << " B");
  CHECK(start_fill == Approx(osa.osa.destage_start_fill).margin(1e-3));
  CHECK(cluster.write_buffer(0, 0).fill() < osa.osa.congestion_start_fill);
  CHECK(static_cast<double>(k.bg_device_write_bytes) == Approx(fresh).epsilon(0.10));
}

TEST_CASE("small random writes: ESA RAID-6 close to RAID-1 FTT 2, OSA RAID-6 far below") {
  // HCIBench-like queue depth (2 VMDKs x 2 outstanding per host): latency-bound, so the
  // extra round trip and capacity-tier reads of OSA's read-modify-write show directly.
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdks_per_vm = 2;
  w.outstanding_per_vmdk = 2;
  auto iops = [&](Architecture arch, RaidLevel raid, int ftt) {
    ClusterSpec c = arch == Architecture::esa ? test::esa_cluster(6) : test::osa_cluster(6);
    c.policy = {raid, ftt};
    return run_loop(c, w, 10_ms, 100_ms).iops;
  };
  const double esa6 = iops(Architecture::esa, RaidLevel::raid6, 2);
  const double esa1 = iops(Architecture::esa, RaidLevel::raid1, 2);
  const double osa6 = iops(Architecture::osa, RaidLevel::raid6, 2);
  const double osa1 = iops(Architecture::osa, RaidLevel::raid1, 2);
  INFO("ESA RAID-6 " << esa6 << ", ESA RAID-1 FTT2 " << esa1 << ", OSA RAID-6 " << osa6 << ", OSA RAID-1 FTT2 " << osa1);
  CHECK(esa6 > 0.8 * esa1);
  CHECK(osa6 < 0.6 * osa1);
}

TEST_CASE("closed loops obey Little's law and keep their state flat in simulated time") {
  for (bool esa : {false, true}) {
    ClusterSpec c = esa ? test::esa_cluster(6) : test::osa_cluster(4);
    if (esa) c.policy = {RaidLevel::raid6, 2};
    WorkloadSpec w;
    w.vms = 2 * static_cast<int>(c.hosts.size());
    w.vmdks_per_vm = 2;
    Engine engine;
    VmWorkload loop(engine, w, 4);
    Cluster cluster(engine, c, {}, 4, loop);
    loop.start(cluster);
    engine.run_for(20_ms);
    loop.reset_stats();
    const std::size_t slots = cluster.state_slots();
    engine.run_for(200_ms);
    const WorkloadResult r = summarize(loop, engine.now());
    // L = X W: the time-average number in flight equals throughput x mean latency.
    CHECK(r.outstanding_io == Approx(r.iops * r.pooled_latency_ms * 1e-3).epsilon(0.01));
    CHECK(r.outstanding_io == Approx(static_cast<double>(c.hosts.size() * 2 * 2 * 4)).epsilon(0.001));
    CHECK(cluster.state_slots() <= slots + slots / 10);   // no growth with completed I/Os
    CHECK(loop.completed() > 60000);   // enough I/Os that growth per completion would show
  }
}

TEST_CASE("hybrid OSA: reads hit the 70 % read cache in proportion to cache size over working set") {
  // Intel S3700 400 GB cache (280 GB read cache) over 10K SAS disks.
  auto run = [](Bytes disk, double* cache_share) {
    // One host, FTT 0 and one VMDK: the disk group's working set is exactly the VMDK's.
    ClusterSpec spec = test::one_host_osa("seagate-10k-v7-1.2tb", "sas-hba");
    WorkloadSpec w;
    w.read_pct = 100;
    w.vmdk_size = disk;
    w.outstanding_per_vmdk = 4;
    Engine engine;
    VmWorkload loop(engine, w, 2);
    Cluster cluster(engine, spec, {}, 2, loop);
    loop.start(cluster);
    engine.run_for(10000_ms);   // ~5000 disk reads: the hit share's standard error is ~0.6 %
    std::uint64_t cache = 0, disks = 0;
    for (const auto& d : cluster.devices()) (d.role == "cache" ? cache : disks) += d.device->completed();
    // Every disk read also fills the cache (a background write), so count cache reads only.
    const std::uint64_t fills = disks;
    *cache_share = static_cast<double>(cache - fills) / static_cast<double>(cache - fills + disks);
    return summarize(loop, engine.now());
  };
  double small_share = 0, large_share = 0;
  run(100_GiB, &small_share);    // 100 GiB < 280 GB of read cache: every read hits
  run(1000_GiB, &large_share);   // 280 GB over 1000 GiB: 26 % hits
  INFO("hit shares " << small_share << " and " << large_share);
  CHECK(small_share == Approx(1.0));
  CHECK(large_share == Approx(280e9 / (1000.0 * (1 << 30))).margin(0.025));
}

TEST_CASE("the in-memory client cache serves reads in proportion to cache over working set") {
  for (double ws_gib : {0.5, 8.0}) {
    ClusterSpec spec = test::osa_cluster(3);
    spec.client_cache_mb = 1024;
    Engine engine;
    Recorder rec;
    Cluster cluster(engine, spec, {}, 4, rec);
    const auto ws = static_cast<std::int64_t>(ws_gib * (1 << 30));
    const int obj = cluster.add_object(0, Bytes{ws}, Bytes{ws});
    RngStream rng(4, 0, "offsets");
    for (std::uint64_t t = 0; t < 20000; ++t)
      cluster.submit(t, obj, 0, IoOp::read, rng.below(static_cast<std::uint64_t>(ws / 4096)) * 4096, 4_KiB);
    engine.run();
    const IoCounters& k = cluster.counters();
    const double expected = std::min(1.0, 1.0 / ws_gib);
    INFO("working set " << ws_gib << " GiB");
    CHECK(k.completed == 20000);
    CHECK(static_cast<double>(k.client_cache_hits) / 20000 == Approx(expected).margin(0.01));
    CHECK(k.client_cache_hits + k.fg_device_reads == 20000);   // a hit never reaches a device
  }
}

TEST_CASE("a host's memory sizes its client cache: 0.4 % of it serves that share of a working set") {
  // Host 0 with 128 GiB: 0.004 x 128 GiB = 524 MiB of cache over a 2 GiB working set, 25.6 %
  // of the reads; host 1 with its memory not stated keeps client_cache_mb (1 GiB), half of
  // the same working set.
  ClusterSpec spec = test::osa_cluster(3);
  spec.client_cache_mb = 1024;
  spec.hosts[0].memory_gib = 128;
  Engine engine;
  Recorder rec;
  Cluster cluster(engine, spec, {}, 4, rec);
  const std::int64_t ws = std::int64_t{2} << 30;
  const int mine = cluster.add_object(0, Bytes{ws}, Bytes{ws});
  const int theirs = cluster.add_object(1, Bytes{ws}, Bytes{ws});
  RngStream rng(4, 0, "offsets");
  for (int host : {0, 1}) {
    const IoCounters before = cluster.counters();
    for (std::uint64_t t = 0; t < 20000; ++t)
      cluster.submit(t, host == 0 ? mine : theirs, host, IoOp::read, rng.below(static_cast<std::uint64_t>(ws / 4096)) * 4096,
                     4_KiB);
    engine.run();
    const double hits = static_cast<double>(cluster.counters().client_cache_hits - before.client_cache_hits) / 20000;
    INFO("host " << host);
    CHECK(hits == Approx(host == 0 ? 0.256 : 0.5).margin(0.01));
  }
}

TEST_CASE("OSA LSOM worlds: a disk group saturates at one component per world time, a second group adds up to 2x") {
  // 100 % reads, so every I/O is one component operation on one disk group. With one world
  // per disk group and 50 us of component work at 2.5 GHz (34.7 us on the Gold 6248R at its
  // sustained 3.6 GHz), a saturated group completes 1 / 34.7 us = 28,800 operations per second (a
  // single-server station at utilisation 1), whatever the host's 47 other cores do. Components
  // land on hosts and groups at random (placement.cpp), so the busiest group saturates first
  // and the others run a little below 1; a second group per host adds up to 2x while the
  // host stays far from busy.
  auto run = [](int groups, double* cpu_usage, double* world_use, double* world_sum) {
    ClusterSpec c = test::osa_cluster(4, groups);
    c.osa.lsom_worlds_per_dg = 1;
    c.cpu_costs.component_us = 50;
    WorkloadSpec w;
    w.read_pct = 100;
    w.vms = 8;
    w.vmdks_per_vm = 4;
    w.outstanding_per_vmdk = 16;
    std::size_t worlds = 0;
    // The 512 I/Os in flight at the reset are not counted: 0.5 % of a 1 s measurement.
    const double iops = run_loop(c, w, 20_ms, 1000_ms, {}, nullptr, [&](const Cluster& cluster) {
                          *cpu_usage = cluster.cpu(0).usage_pct();
                          *world_use = 0.0;
                          *world_sum = 0.0;
                          worlds = cluster.lsom_worlds().size();
                          for (const auto& world : cluster.lsom_worlds()) {
                            *world_use = std::max(*world_use, world->utilisation());
                            *world_sum += world->utilisation();
                          }
                        }).iops;
    CHECK(worlds == static_cast<std::size_t>(4 * groups));
    return iops;
  };
  // Each read's world time: the component stage and the LSOM's CRC check of its 4 KiB.
  const double ghz = test::osa_cluster(1).hosts[0].cpu.ghz;   // the Gold 6248R's sustained clock
  const double per_world = 1.0 / ((50.0 + CpuCosts{}.checksum_us_per_kib * 4) * 1e-6 * 2.5 / ghz);
  double cpu1 = 0, cpu2 = 0, use1 = 0, use2 = 0, sum1 = 0, sum2 = 0;
  const double one = run(1, &cpu1, &use1, &sum1);
  const double two = run(2, &cpu2, &use2, &sum2);
  INFO("1 group/host " << one << " IOPS (busiest world " << use1 << ", cpu " << cpu1 << " %); 2 groups/host "
                       << two << " (" << use2 << ", " << cpu2 << " %)");
  CHECK(use1 > 0.97);
  CHECK(use2 > 0.97);
  // Utilisation law U = X S per world, summed: every read is one operation on one world.
  CHECK(one == Approx(sum1 * per_world).epsilon(0.01));
  CHECK(two == Approx(sum2 * per_world).epsilon(0.01));
  CHECK(two > 1.5 * one);
  CHECK(cpu2 < 50.0);   // the host is not the limit
}

TEST_CASE("OSA LSOM worlds pin cores, more worlds than cores is an error naming the setting") {
  ClusterSpec c = test::osa_cluster(3, 2);
  for (HostSpec& h : c.hosts) {
    h.cpu.sockets = 1;
    h.cpu.cores_per_socket = 4;
  }
  c.osa.lsom_worlds_per_dg = 2;   // 2 groups x 2 worlds = all 4 cores
  Engine engine;
  Recorder rec;
  CHECK_THROWS_WITH(Cluster(engine, c, {}, 1, rec), Catch::Contains("lsom_worlds_per_dg"));
  c.osa.lsom_worlds_per_dg = 1;
  Cluster ok(engine, c, {}, 1, rec);
  CHECK(ok.cpu(0).cores().servers() == 2 * c.hosts[0].cpu.threads_per_core);   // the free cores' threads
}

namespace {
// Four hosts, one LSOM world per disk group, dedupe and compression, a 256 MiB write buffer so
// the elevator runs, and no component work: the worlds' busy time is the destage batches'.
ClusterSpec reducing_osa_cluster(double destage_us) {
  ClusterSpec c = test::osa_cluster(4);
  c.osa.lsom_worlds_per_dg = 1;
  c.osa.write_buffer = 256_MiB;
  c.services.dedupe = true;
  c.services.compression = true;
  c.cpu_costs.component_us = 0;
  c.cpu_costs.destage_us = destage_us;
  return c;
}

// Writes only, from one VM on esx0: the other hosts only hold components.
WorkloadSpec one_writing_vm() {
  WorkloadSpec w;
  w.read_pct = 0;
  w.vms = 1;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 8;
  return w;
}
}  // namespace

TEST_CASE("OSA LSOM worlds run the destage fingerprinting and compression, remote stack work still runs") {
  // Writes only, with dedupe and compression, into a small write buffer so the elevator runs.
  // Component and destage bookkeeping cost nothing here, so the worlds' busy time is exactly
  // the destaged KiB x (dedupe + compression per KiB) and the written KiB x the LSOM's CRC
  // check per KiB, at the host clock (reference 2.5 GHz / the host's sustained clock).
  ClusterSpec c = reducing_osa_cluster(0);
  c.osa.lsom_cost_factor = 0.5;   // scales per-operation work only: the per-KiB work is not scaled
  const WorkloadSpec w = one_writing_vm();
  double world_busy_s = 0;
  std::uint64_t remote_stack_jobs = 0;
  IoCounters k;
  run_loop(c, w, 50_ms, 400_ms, DataProfile{50, 50}, &k, [&](const Cluster& cluster) {
    for (const auto& world : cluster.lsom_worlds()) world_busy_s += world->utilisation() * 0.4;
    for (int h = 1; h < 4; ++h) remote_stack_jobs += cluster.cpu(h).cores().arrivals();
  });
  const double per_kib_s = (c.cpu_costs.dedupe_us_per_kib + c.cpu_costs.compression_us_per_kib) * 1e-6 * 2.5 / c.hosts[0].cpu.ghz;
  const double crc_kib_s = c.cpu_costs.checksum_us_per_kib * 1e-6 * 2.5 / c.hosts[0].cpu.ghz;
  const double expected_s = static_cast<double>(k.bg_device_read_bytes) / 1024.0 * per_kib_s +
                            static_cast<double>(k.fg_device_write_bytes) / 1024.0 * crc_kib_s;
  INFO("world busy " << world_busy_s << " s, destaged " << k.bg_device_read_bytes << " B, expected " << expected_s
                     << " s; shared-core jobs on esx1-3: " << remote_stack_jobs);
  CHECK(k.bg_device_read_bytes > 0);
  CHECK(world_busy_s == Approx(expected_s).epsilon(0.05));
  CHECK(remote_stack_jobs > 0);   // receive and reply stack costs on hosts without VMs
  // The elevator hands its world one batch at a time: with 8 batches in flight per capacity
  // device some wait for the world; with one in flight none does, and the work is the same.
  CHECK(k.destage_waits > 0);
  ClusterSpec one = c;
  one.osa.destage_depth = 1;
  IoCounters k1;
  run_loop(one, w, 50_ms, 400_ms, DataProfile{50, 50}, &k1);
  CHECK(k1.bg_device_read_bytes > 0);
  CHECK(k1.destage_waits == 0);
}

TEST_CASE("osa.destage_reduction shared: the elevator's fingerprinting and compression leave the worlds for the shared cores") {
  // The setup above, with the reduction on the shared cores: the shared cores are charged
  // exactly the destaged KiB x (dedupe + compression per KiB) at the host clock, once, and the
  // worlds only each batch's bookkeeping (destage_us, at lsom_cost_factor 1): batches x 40 us,
  // besides the LSOM's CRC check of every KiB written.
  ClusterSpec c = reducing_osa_cluster(40);
  c.osa.lsom_cost_factor = 1.0;
  c.osa.destage_reduction = DestageReduction::shared;
  const WorkloadSpec w = one_writing_vm();
  double world_busy_s = 0, reduction_s = 0;
  IoCounters k;
  run_loop(c, w, 50_ms, 400_ms, DataProfile{50, 50}, &k, [&](const Cluster& cluster) {
    for (const auto& world : cluster.lsom_worlds()) world_busy_s += world->utilisation() * 0.4;
    for (int h = 0; h < 4; ++h)
      reduction_s += (cluster.cpu(h).stage_time(CpuStage::dedupe) + cluster.cpu(h).stage_time(CpuStage::compression)).seconds();
  });
  const double per_kib_s = (c.cpu_costs.dedupe_us_per_kib + c.cpu_costs.compression_us_per_kib) * 1e-6 * 2.5 / c.hosts[0].cpu.ghz;
  const double expected_s = static_cast<double>(k.bg_device_read_bytes) / 1024.0 * per_kib_s;
  const double world_expected_s =
      (static_cast<double>(k.bg_device_reads) * 40e-6 +
       static_cast<double>(k.fg_device_write_bytes) / 1024.0 * c.cpu_costs.checksum_us_per_kib * 1e-6) * 2.5 / c.hosts[0].cpu.ghz;
  INFO("world busy " << world_busy_s << " s (expected " << world_expected_s << "), reduction on shared cores "
                     << reduction_s << " s, expected " << expected_s << "; batches " << k.bg_device_reads);
  CHECK(k.bg_device_reads > 0);
  CHECK(reduction_s == Approx(expected_s).epsilon(0.05));
  CHECK(world_busy_s == Approx(world_expected_s).epsilon(0.1));
}

TEST_CASE("with LSOM worlds drain() destages every buffered byte through the parked batches") {
  // 2048 scattered 4 KiB writes (8 MiB, 16 MiB with the replica) into 1 TiB objects, then a
  // drain: with 8 batches in flight per capacity device and one on each world, batches park
  // and wait; every byte must still be destaged exactly once and every buffer left empty.
  // All-flash with dedupe and compression, hybrid (10K disks behind an S3700), and all-flash
  // beside a failed host (its groups take no write and do nothing).
  struct Case {
    const char* what;
    bool hybrid;
    int failed;   // -1: none
  };
  for (const Case& c : {Case{"all-flash", false, -1}, Case{"hybrid", true, -1}, Case{"failed host", false, 3}}) {
    ClusterSpec spec = test::osa_cluster(4);
    if (c.hybrid)
      for (HostSpec& h : spec.hosts) {
        h.disk_groups[0].cache = test::drive("intel-s3700-400gb", "sata-hba");
        h.disk_groups[0].capacity[0] = test::drive("seagate-10k-v7-1.2tb", "sas-hba");
      }
    else spec.services = {true, true};
    // A hybrid batch costs its world only the elevator's bookkeeping (no dedupe or
    // compression): made slow enough here that batches read from the cache queue for it.
    if (c.hybrid) spec.cpu_costs.destage_us = 2000;
    if (c.failed >= 0) spec.failed_hosts = {c.failed};
    spec.osa.lsom_worlds_per_dg = 1;
    Engine engine;
    Recorder rec;
    Cluster cluster(engine, spec, c.hybrid ? DataProfile{} : DataProfile{50, 50}, 2, rec);
    std::vector<int> objects;
    for (int h = 0; h < 3; ++h) objects.push_back(cluster.add_object(h, 1_TiB, 1_TiB));
    constexpr std::uint64_t kWrites = 2048;
    for (std::uint64_t t = 0; t < kWrites; ++t)
      cluster.submit(t, objects[t % 3], static_cast<int>(t % 3), IoOp::write, (t * 104729 % (1u << 28)) * 4096, 4_KiB);
    engine.run();
    cluster.drain();
    engine.run();
    const IoCounters& k = cluster.counters();
    INFO(c.what << ": destaged " << k.bg_device_read_bytes << " B, batches that waited for a world " << k.destage_waits);
    CHECK(rec.done.size() == kWrites);
    CHECK(k.destage_waits > 0);
    // Each buffered byte destaged once (the objects are so large that nothing coalesces);
    // with every host up, both replicas were buffered.
    CHECK(static_cast<double>(k.bg_device_read_bytes) == Approx(static_cast<double>(k.fg_device_write_bytes)).epsilon(0.001));
    if (c.failed < 0) CHECK(k.fg_device_write_bytes == 2 * kWrites * 4096);
    for (int h = 0; h < 4; ++h) CHECK(cluster.write_buffer(h, 0).dirty() < 1.0);
    if (c.failed >= 0) CHECK(cluster.cpu(c.failed).cores().departures() == 0);
  }
}

TEST_CASE("hybrid OSA: random writes beyond the write buffer run at the disks' seek rate") {
  // One host, FTT 0, two 10K disks behind an S3700 whose 30 % write buffer (120 GB) the
  // test shrinks to 64 MiB; a 500 GiB working set, so dirty blocks are scattered and every
  // destaged 4 KiB block is its own extent: a seek and a rotation each.
  ClusterSpec spec = test::one_host_osa("seagate-10k-v7-1.2tb", "sas-hba", 2);
  spec.osa.write_buffer = 64_MiB;
  WorkloadSpec w;
  w.read_pct = 0;
  w.vmdk_size = 500_GiB;
  w.outstanding_per_vmdk = 8;
  IoCounters n;
  const WorkloadResult r = run_loop(spec, w, 6000_ms, 6000_ms, {}, &n);
  const DeviceSpec& hdd = test::catalog().device("seagate-10k-v7-1.2tb");
  const double per_disk = 1e3 / (hdd.seek_ms + 0.5 * 60e3 / hdd.rpm);   // extents per second
  INFO("IOPS " << r.iops << ", destage writes " << n.bg_device_writes << ", disk limit " << 2 * per_disk);
  CHECK(n.bg_device_writes > 0);
  CHECK(r.iops == Approx(2 * per_disk).epsilon(0.10));   // ingest = destage in steady state
}

TEST_CASE("data-at-rest encryption costs CPU: OSA per device write, read and destage, ESA once at the source") {
  for (bool esa : {false, true}) {
    ClusterSpec spec = esa ? test::esa_cluster(3) : test::osa_cluster(3);
    WorkloadSpec w;
    w.read_pct = 70;
    double share = 0;
    spec.policy.encryption = true;
    run_loop(spec, w, 10_ms, 50_ms, {}, nullptr, [&](const Cluster& c) {
      for (int h = 0; h < 3; ++h) share += c.cpu(h).stage_share(CpuStage::encryption) / 3;
    });
    INFO((esa ? "ESA" : "OSA") << " encryption share of CPU work " << share);
    CHECK(share > 0.005);
    spec.policy.encryption = false;
    share = 0;
    run_loop(spec, w, 10_ms, 50_ms, {}, nullptr, [&](const Cluster& c) {
      for (int h = 0; h < 3; ++h) share += c.cpu(h).stage_share(CpuStage::encryption);
    });
    CHECK(share == 0);
  }
}

TEST_CASE("encryption CPU is its cost per operation times the operations: ESA per guest I/O, OSA per device read") {
  // The oracle is the cost model itself applied to counted operations: ESA encrypts once at
  // the source, charged when the object's DOM client world takes the I/O (one charge of a
  // 4 KiB block per submitted I/O); OSA decrypts each foreground device read on the
  // component's host, charged when its component work starts. The I/Os between submit and
  // that charge at the window's edges (at most the 12 slots at each) make the only
  // difference: on ESA those waiting for their object's DOM client world (charged when it
  // takes them) or still in the job before it. Every host has the same CPU.
  for (bool esa : {false, true}) {
    ClusterSpec spec = esa ? test::esa_cluster(3) : test::osa_cluster(3);
    spec.policy.encryption = true;
    spec.services.dedupe = false;   // no dedupe map reads among the device reads
    spec.services.compression = false;
    WorkloadSpec w;
    w.read_pct = 100;               // OSA: no destage (its encryption is charged per batch)
    const auto [charged_ns, cost_ns, n] = stage_charges(spec, w, CpuStage::encryption);
    REQUIRE(cost_ns > 0);
    INFO((esa ? "ESA" : "OSA") << ": " << charged_ns / cost_ns << " charges; submitted " << n.submitted
                               << ", foreground device reads " << n.fg_device_reads);
    const double ops = static_cast<double>(esa ? n.submitted : n.fg_device_reads);
    CHECK(std::fmod(charged_ns, cost_ns) == 0);   // whole charges (both are whole nanoseconds)
    CHECK(std::abs(charged_ns / cost_ns - ops) <= 2 * 3 * 4);   // 2 edges x 12 slots
  }
}

TEST_CASE("checksum CPU: the source's CRC per guest I/O, and on OSA each component's check of what it reads or writes") {
  // The oracle is the cost model applied to counted operations, as for encryption: every
  // submitted I/O is checksummed once at its client; OSA's component LSOM checks the CRC of
  // each foreground device read and write again (Epping, Hogan), charged when its component
  // work starts, so operations in flight at the window's edges (12 slots at each) make the
  // only difference; ESA checks once, at the source. No dedupe or compression: every device
  // operation is a 4 KiB block of data. With the policy's checksum off nothing is charged.
  for (bool esa : {false, true}) {
    for (bool checksum : {true, false}) {
      ClusterSpec spec = esa ? test::esa_cluster(3) : test::osa_cluster(3);
      spec.services.dedupe = false;
      spec.services.compression = false;
      spec.policy.checksum = checksum;
      WorkloadSpec w;
      w.read_pct = 70;
      const auto [charged_ns, cost_ns, n] = stage_charges(spec, w, CpuStage::checksum);
      REQUIRE(cost_ns > 0);
      REQUIRE(n.fg_device_writes > 0);
      const double expected =
          !checksum ? 0.0
                    : static_cast<double>(n.submitted) +
                          (esa ? 0.0 : static_cast<double>(n.fg_device_reads + n.fg_device_writes));
      INFO((esa ? "ESA" : "OSA") << (checksum ? "" : ", checksum off") << ": " << charged_ns / cost_ns
                                 << " charges; submitted " << n.submitted << ", foreground device reads "
                                 << n.fg_device_reads << ", writes " << n.fg_device_writes);
      // 12 slots at each edge, each with up to 2 component operations (a write); the edges'
      // differences have opposite signs, so they partly cancel.
      CHECK(std::abs(charged_ns / cost_ns - expected) <= 2 * 3 * 4);
      if (!checksum) CHECK(charged_ns == 0);
    }
  }
  // Where the check runs: one VM, on host 0, which is also its object's DOM owner, and whose
  // RAID-1 object has a data replica on at least one other host. On OSA that host's LSOM
  // checks what it writes and reads; on ESA only the client does. A charge at the client or
  // the owner would leave the other hosts at zero.
  for (bool esa : {false, true}) {
    ClusterSpec spec = esa ? test::esa_cluster(3) : test::osa_cluster(3);
    spec.services.dedupe = false;
    spec.services.compression = false;
    WorkloadSpec w;
    w.read_pct = 70;
    w.vms = 1;
    double client_ns = 0, others_ns = 0;
    run_loop(spec, w, 10_ms, 50_ms, {}, nullptr, [&](const Cluster& c) {
      client_ns = static_cast<double>(c.cpu(0).stage_time(CpuStage::checksum).count_ns());
      for (int h = 1; h < 3; ++h) others_ns += static_cast<double>(c.cpu(h).stage_time(CpuStage::checksum).count_ns());
    });
    INFO((esa ? "ESA" : "OSA") << ": the client's checksum time " << client_ns << " ns, the other hosts' " << others_ns);
    CHECK(client_ns > 0);
    if (esa) CHECK(others_ns == 0);
    else CHECK(others_ns > 0);
  }
}

TEST_CASE("reads decompress only data stored compressed: ESA every read, OSA reads from the capacity tier") {
  // 100 % reads, compression on, no dedupe. ESA stores 50 %-compressible data compressed and
  // incompressible data as is; OSA's reads that find their block in the write buffer (the
  // only ones left when the whole working set is buffered) read it as written.
  const auto decompression = [](bool esa, double compress_pct, double buffered_fill) {
    ClusterSpec spec = esa ? test::esa_cluster(3) : test::osa_cluster(3);
    spec.services.compression = true;
    spec.services.dedupe = false;
    spec.osa.destage_start_fill = buffered_fill;
    spec.osa.destage_idle_fill = buffered_fill;   // no idle drain
    spec.osa.congestion_start_fill = std::max(spec.osa.congestion_start_fill, buffered_fill + 0.005);
    spec.osa.congestion_full_fill = 1.0;
    WorkloadSpec w;
    w.read_pct = 100;
    w.vmdk_size = 1_GiB;
    double share = 0;
    Engine engine;
    VmWorkload loop(engine, w, 11);
    Cluster cluster(engine, spec, DataProfile{compress_pct, 0}, 11, loop);
    loop.start(cluster);
    cluster.prepare_write_buffers();   // dirty = destage_start_fill x capacity, at most the working set
    engine.run_for(20_ms);
    for (int h = 0; h < 3; ++h) share += cluster.cpu(h).stage_share(CpuStage::decompression);
    return share;
  };
  CHECK(decompression(true, 50, 0.3) > 0);
  CHECK(decompression(true, 0, 0.3) == 0);
  CHECK(decompression(false, 50, 0.0) > 0);     // nothing buffered: every read from capacity
  CHECK(decompression(false, 0, 0.0) == 0);
  CHECK(decompression(false, 50, 0.99) == 0);   // 1 GiB VMDKs, all buffered: no capacity read
  // The thresholds: an OSA block kept compressed must fit in 2 KB (40 % compressible: 2458 B
  // does not), an ESA one must save a 512-byte sector (10 %: 3687 B still takes 8 sectors).
  CHECK(decompression(false, 40, 0.0) == 0);
  CHECK(decompression(true, 10, 0.3) == 0);
  CHECK(decompression(true, 13, 0.3) > 0);      // 3564 B: 7 sectors
}

TEST_CASE("a sequential stream skips the SSD per-command cost, random I/O pays it") {
  auto cache_busy = [](int random_pct) {
    ClusterSpec spec = test::one_host_osa("intel-s4500-3.84tb", "sata-hba");
    WorkloadSpec w;
    w.read_pct = 0;
    w.random_pct = random_pct;
    w.outstanding_per_vmdk = 1;
    double utilisation = 0;
    IoCounters n;
    run_loop(spec, w, 10_ms, 200_ms, {}, &n, [&](const Cluster& c) {
      for (const auto& d : c.devices())
        if (d.role == "cache") utilisation = d.device->utilisation();
    });
    // Busy unit-seconds per write, over the units: the mean unit time / k.
    return utilisation * 0.2 / static_cast<double>(n.fg_device_writes + n.bg_device_reads);
  };
  const double seq = cache_busy(0), rnd = cache_busy(100);
  const DeviceModel m = derive_device_model(test::catalog().device("intel-s3700-400gb"));
  INFO("cache busy per I/O: sequential " << seq << " s, random " << rnd << " s");
  // Unit time per 4 KiB write, spread over k units: random adds s_op.
  CHECK(rnd - seq == Approx(m.op_us[1] * 1e-6 / m.units).epsilon(0.15));
}

TEST_CASE("hybrid OSA: a stripe width of 4 spreads one VMDK's read misses over 4 disks") {
  // One host, FTT 0, four 10K disks, no read cache: every read goes to the disk of its stripe.
  double iops[2] = {0, 0};
  for (int width : {1, 4}) {
    ClusterSpec spec = test::one_host_osa("seagate-10k-v7-1.2tb", "sas-hba", 4);
    spec.osa.hybrid_read_cache_share = 0;
    spec.policy.stripe_width = width;
    WorkloadSpec w;
    w.read_pct = 100;
    w.vmdk_size = 100_GiB;
    w.outstanding_per_vmdk = 32;
    iops[width == 4] = run_loop(spec, w, 500_ms, 3000_ms).iops;
  }
  const DeviceSpec& hdd = test::catalog().device("seagate-10k-v7-1.2tb");
  const double per_disk = 1e3 / (hdd.seek_ms + 0.5 * 60e3 / hdd.rpm);   // random reads per second
  INFO("stripe width 1: " << iops[0] << " IOPS, 4: " << iops[1] << ", one disk " << per_disk);
  CHECK(iops[0] < 1.3 * per_disk);
  CHECK(iops[1] > 3.0 * iops[0]);
}
