// A cluster with failed hosts (ClusterSpec::failed_hosts) runs degraded: exact device
// operation counts per policy when the failed host holds a replica, a data column or a
// parity column (docs/sources.md [S51] [S53]; a lost unit rebuilt from k survivors, as
// Reed-Solomon does), nothing reaches the failed host,
// too many failures are refused, and the VMs run on the surviving hosts. Resync rebuilds
// the absent components on spare hosts with exact copy counts, keeps to its throttle, and
// the rebuilt component then takes its share of the I/O.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "cluster_fixtures.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/workload/workload_result.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

using test::Recorder;

struct PolicyRow {
  const char* name;
  Architecture arch;
  RaidLevel raid;
  int ftt;
  int hosts;
};

const PolicyRow kPolicyRows[] = {
    {"OSA RAID-1 FTT1", Architecture::osa, RaidLevel::raid1, 1, 4},
    {"OSA RAID-1 FTT2", Architecture::osa, RaidLevel::raid1, 2, 5},
    {"OSA RAID-5 3+1", Architecture::osa, RaidLevel::raid5, 1, 5},
    {"OSA RAID-6 4+2", Architecture::osa, RaidLevel::raid6, 2, 6},
    {"ESA RAID-1 FTT1", Architecture::esa, RaidLevel::raid1, 1, 3},
    {"ESA RAID-5 2+1", Architecture::esa, RaidLevel::raid5, 1, 4},
    {"ESA RAID-6 4+2", Architecture::esa, RaidLevel::raid6, 2, 6},
};

ClusterSpec make_policy_cluster(const PolicyRow& row) {
  ClusterSpec c = row.arch == Architecture::osa ? test::osa_cluster(row.hosts) : test::esa_cluster(row.hosts);
  c.policy = {row.raid, row.ftt};
  return c;
}

/// VMs on 4 OSA hosts with host 1 failed: 10 ms of warm-up, then 100 ms (200 ms with resync)
/// measured.
struct VmRun {
  Engine engine;
  VmWorkload load;
  Cluster cluster;
  WorkloadResult result;
  VmRun(const WorkloadSpec& w, bool resync)
      : load(engine, w, 7, 1), cluster(engine, with_failed_host(test::osa_cluster(4), 1), {}, 7, load) {
    load.start(cluster);
    if (resync) cluster.start_resync();
    engine.run_for(resync ? 20_ms : 10_ms);
    load.reset_stats();
    cluster.reset_stats();
    engine.run_for(resync ? 200_ms : 100_ms);
    result = summarize(load, engine.now());
  }
  static ClusterSpec with_failed_host(ClusterSpec spec, int host) {
    spec.failed_hosts = {host};
    return spec;
  }
};

/// Operations completed by the devices of `host`.
std::uint64_t host_ops(const Cluster& cluster, int host) {
  std::uint64_t n = 0;
  for (const Cluster::DeviceInfo& d : cluster.devices())
    if (d.host == host) n += d.device->completed();
  return n;
}

int first_up(const Cluster& cluster) {
  int h = 0;
  while (!cluster.host_up(h)) ++h;
  return h;
}

bool is_parity(const StripeColumns& cols, int c) {
  for (int j = 0; j < cols.parity_count; ++j)
    if (cols.parity_columns[j] == c) return true;
  return false;
}

}  // namespace

TEST_CASE("degraded: with the host of any one component failed, a small write and a read use only the survivors") {
  const std::uint64_t offset = 5 * 4096;   // a partial stripe for erasure coding
  for (const PolicyRow& row : kPolicyRows) {
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      // The placement does not depend on which hosts are up: the objects existed before.
      Engine probe_engine;
      Recorder probe_rec;
      Cluster probe(probe_engine, make_policy_cluster(row), {}, seed, probe_rec);
      const ObjectPlacement p = probe.placement(probe.add_object(0, 1_GiB, 1_GiB));
      const Layout l = probe.layout();
      const int n = l.data_components();
      for (int lost = 0; lost < n; ++lost) {
        INFO(row.name << ", seed " << seed << ", failed host holds column " << lost);
        ClusterSpec spec = make_policy_cluster(row);
        const int failed = p.data[static_cast<std::size_t>(lost)].host;
        spec.failed_hosts = {failed};
        Engine engine;
        Recorder rec;
        Cluster cluster(engine, spec, {}, seed, rec);
        const int owner = first_up(cluster);
        const int obj = cluster.add_object(owner, 1_GiB, 1_GiB);
        REQUIRE(cluster.placement(obj).data[static_cast<std::size_t>(lost)].host == failed);

        cluster.submit(1, obj, owner, IoOp::write, offset, 4_KiB);
        engine.run();
        CHECK(rec.done[1] == 1);
        const IoCounters w = cluster.counters();
        std::uint64_t reads = 0, writes = 0;
        if (row.arch == Architecture::esa) {
          writes = static_cast<std::uint64_t>(l.perf_leg_copies) - (lost < l.perf_leg_copies ? 1 : 0);
        } else if (!l.erasure_coded()) {
          writes = static_cast<std::uint64_t>(l.replicas - 1);
        } else {
          const StripeColumns cols = stripe_columns(l, spec.osa.stripe_unit, offset);
          const auto m = static_cast<std::uint64_t>(l.parity);
          if (lost == cols.data_column) {   // new parity from the row's other k - 1 data units
            reads = static_cast<std::uint64_t>(l.data - 1);
            writes = m;
          } else if (is_parity(cols, lost)) {   // read-modify-write of what survives
            reads = writes = m;
          } else {                              // the lost column is not in this write
            reads = writes = m + 1;
          }
        }
        CHECK(w.fg_device_reads == reads);
        CHECK(w.fg_device_writes == writes);
        CHECK(host_ops(cluster, failed) == 0);
        CHECK(cluster.cpu(failed).cores().departures() == 0);

        cluster.reset_stats();
        cluster.submit(2, obj, owner, IoOp::read, offset, 4_KiB);
        engine.run();
        CHECK(rec.done[2] == 1);
        std::uint64_t expect_reads = 1;
        if (l.erasure_coded()) {
          const Bytes unit = row.arch == Architecture::osa ? spec.osa.stripe_unit : spec.esa.stripe_unit;
          if (stripe_columns(l, unit, offset).data_column == lost) expect_reads = static_cast<std::uint64_t>(l.data);
        }
        CHECK(cluster.counters().fg_device_reads == expect_reads);
        cluster.drain();   // destage and capacity-leg stripes skip the failed host too
        engine.run();
        CHECK(host_ops(cluster, failed) == 0);
        CHECK(cluster.cpu(failed).cores().departures() == 0);
      }
    }
  }
}

TEST_CASE("degraded RAID-6: two lost data columns are rebuilt from the parities, a full stripe skips lost columns") {
  ClusterSpec spec = test::osa_cluster(6);
  spec.policy = {RaidLevel::raid6, 2};
  Engine probe_engine;
  Recorder probe_rec;
  Cluster probe(probe_engine, spec, {}, 3, probe_rec);
  const ObjectPlacement p = probe.placement(probe.add_object(0, 1_GiB, 1_GiB));
  const Layout l = probe.layout();
  const std::uint64_t offset = 4096;
  const StripeColumns cols = stripe_columns(l, spec.osa.stripe_unit, offset);
  int other = 0;   // another data column of the row
  while (other == cols.data_column || is_parity(cols, other)) ++other;

  struct Case {
    const char* what;
    int second_lost;
    std::uint64_t reads, writes;
  };
  for (const Case& c : {Case{"data and another data column", other, 4, 2},   // k - 2 data + 2 parities; 2 parities
                        Case{"data and a parity column", cols.parity_columns[0], 3, 1}}) {
    INFO(c.what);
    ClusterSpec degraded = spec;
    degraded.failed_hosts = {p.data[static_cast<std::size_t>(cols.data_column)].host,
                             p.data[static_cast<std::size_t>(c.second_lost)].host};
    Engine engine;
    Recorder rec;
    Cluster cluster(engine, degraded, {}, 3, rec);
    const int owner = first_up(cluster);
    const int obj = cluster.add_object(owner, 1_GiB, 1_GiB);
    cluster.submit(1, obj, owner, IoOp::write, offset, 4_KiB);
    engine.run();
    CHECK(rec.done[1] == 1);
    CHECK(cluster.counters().fg_device_reads == c.reads);
    CHECK(cluster.counters().fg_device_writes == c.writes);
    cluster.reset_stats();
    cluster.submit(2, obj, owner, IoOp::read, offset, 4_KiB);
    engine.run();
    CHECK(cluster.counters().fg_device_reads == 4);   // any k = 4 of the surviving units
    cluster.reset_stats();
    const std::int64_t stripe_row = spec.osa.stripe_unit.count() * l.data;
    cluster.submit(3, obj, owner, IoOp::write, 0, Bytes{stripe_row});
    engine.run();
    CHECK(cluster.counters().fg_device_reads == 0);
    CHECK(cluster.counters().fg_device_writes == 4);   // k + m = 6 unit writes less the 2 lost
  }
}

TEST_CASE("failed hosts beyond what the policy tolerates, unknown or repeated, are refused by name") {
  ClusterSpec spec = test::osa_cluster(4);
  spec.failed_hosts = {1, 2};
  CHECK_THROWS_WITH(spec.validate(), Catch::Contains("failed_hosts") && Catch::Contains("at most 1"));
  spec.failed_hosts = {4};
  CHECK_THROWS_WITH(spec.validate(), Catch::Contains("failed_hosts") && Catch::Contains("not a host"));
  spec = test::osa_cluster(5);
  spec.policy = {RaidLevel::raid1, 2};
  spec.failed_hosts = {1, 1};
  CHECK_THROWS_WITH(spec.validate(), Catch::Contains("listed twice"));
  ClusterSpec one = test::osa_cluster(1);
  one.policy = {RaidLevel::raid1, 0};
  one.failed_hosts = {0};
  CHECK_THROWS_WITH(one.validate(), Catch::Contains("at most 0"));
  spec = test::osa_cluster(4);
  spec.failed_hosts = {2};
  Engine engine;
  Recorder rec;
  Cluster cluster(engine, spec, {}, 1, rec);
  CHECK_THROWS_WITH(cluster.add_object(2, 1_GiB, 1_GiB), Catch::Contains("esx2 has failed"));
}

TEST_CASE("degraded: the VMs run on the surviving hosts and the closed loop still obeys Little's law") {
  WorkloadSpec w;
  w.vms = 8;
  w.vmdks_per_vm = 2;
  w.outstanding_per_vmdk = 4;
  VmRun run(w, false);
  const int up[] = {0, 2, 3};
  for (int v = 0; v < 8; ++v) CHECK(run.load.vm_stats()[static_cast<std::size_t>(v)].host == up[v % 3]);
  CHECK(run.result.outstanding_io == Approx(8 * 2 * 4).epsilon(0.001));
  CHECK(run.result.outstanding_io == Approx(run.result.iops * run.result.pooled_latency_ms * 1e-3).epsilon(0.01));
  CHECK(host_ops(run.cluster, 1) == 0);
  CHECK(run.cluster.cpu(1).cores().departures() == 0);
}

namespace {

/// One object of `ws` bytes on a cluster whose host holding column `lost` has failed.
struct Degraded {
  Engine engine;
  Recorder rec;
  std::unique_ptr<Cluster> cluster;
  int obj = 0;
  int failed = 0;
  int owner = 0;
  Degraded(ClusterSpec spec, int lost, Bytes ws, std::uint64_t seed = 1, DataProfile data = {}) {
    Engine probe_engine;
    Recorder probe_rec;
    Cluster probe(probe_engine, spec, {}, seed, probe_rec);
    failed = probe.placement(probe.add_object(0, 1_GiB, ws)).data[static_cast<std::size_t>(lost)].host;
    spec.failed_hosts = {failed};
    cluster = std::make_unique<Cluster>(engine, spec, data, seed, rec);
    owner = first_up(*cluster);
    obj = cluster->add_object(owner, 1_GiB, ws);
  }
};

}  // namespace

TEST_CASE("resync: a lost RAID-1 replica is copied from the survivor onto a spare host in 1 MiB pieces, then serves I/O") {
  for (Architecture arch : {Architecture::osa, Architecture::esa}) {
    INFO(architecture_name(arch));
    ClusterSpec spec = arch == Architecture::osa ? test::osa_cluster(4) : test::esa_cluster(4);
    Degraded d(spec, 0, 8_MiB);
    Cluster& cluster = *d.cluster;
    const ObjectPlacement before = cluster.placement(d.obj);
    const int survivor = before.data[1].host;
    cluster.start_resync();
    d.engine.run();
    const Cluster::ResyncStatus st = cluster.resync_status();
    CHECK(st.components == 1);
    CHECK(st.rebuilt == 1);
    CHECK(st.stranded == 0);
    CHECK(st.total_bytes == (8_MiB).count());
    CHECK(st.done_bytes == (8_MiB).count());
    const IoCounters c = cluster.counters();
    CHECK(c.resync_bytes == (8_MiB).count());
    CHECK(c.fg_device_reads + c.fg_device_writes == 0);
    CHECK(c.bg_device_reads == 8);                      // one read per piece at the survivor
    CHECK(c.bg_device_writes >= 8);                     // the pieces (+ OSA destage of them)
    CHECK(c.bg_network_bytes == (8_MiB).count());       // survivor -> new host
    // The new component sits on a host that is up with no component or witness of the object.
    const ObjectPlacement after = cluster.placement(d.obj);
    const int target = after.data[0].host;
    CHECK(cluster.host_up(target));
    CHECK(target != survivor);
    for (int w : before.witnesses) CHECK(target != w);
    CHECK(after.data[1].host == survivor);
    // Whole again: a write reaches both replicas.
    cluster.reset_stats();
    cluster.submit(1, d.obj, d.owner, IoOp::write, 0, 4_KiB);
    d.engine.run();
    CHECK(d.rec.done[1] == 1);
    CHECK(cluster.counters().fg_device_writes == 2);
    CHECK(host_ops(cluster, d.failed) == 0);
  }
}

TEST_CASE("resync: an OSA survivor decompresses what it copies from a compressed capacity device, ESA copies compressed data as is") {
  // 8 MiB rebuilt in 1 MiB pieces from an empty write buffer: every OSA piece is read from
  // the survivor's capacity device and decompressed there, one charge per piece.
  for (Architecture arch : {Architecture::osa, Architecture::esa})
    for (double compress_pct : {0.0, 50.0}) {
      INFO(architecture_name(arch) << ", " << compress_pct << " % compressible");
      ClusterSpec spec = arch == Architecture::osa ? test::osa_cluster(4) : test::esa_cluster(4);
      spec.services.compression = true;
      Degraded d(spec, 0, 8_MiB, 1, DataProfile{compress_pct, 0});
      Cluster& cluster = *d.cluster;
      const int survivor = cluster.placement(d.obj).data[1].host;
      cluster.start_resync();
      d.engine.run();
      REQUIRE(cluster.resync_status().rebuilt == 1);
      const double charged = static_cast<double>(cluster.cpu(survivor).stage_time(CpuStage::decompression).count_ns());
      const double piece = static_cast<double>(cluster.cpu(survivor).cost(CpuStage::decompression, 1_MiB).count_ns());
      if (arch == Architecture::osa && compress_pct > 0) CHECK(charged == Approx(8 * piece));
      else CHECK(charged == 0);
    }
}

TEST_CASE("resync: a lost erasure-coded column is rebuilt from k surviving columns") {
  ClusterSpec spec = test::osa_cluster(5);
  spec.policy = {RaidLevel::raid5, 1};
  Degraded d(spec, 2, 12_MiB);   // 3+1: each column holds 4 MiB of the working set
  Cluster& cluster = *d.cluster;
  cluster.start_resync();
  d.engine.run();
  CHECK(cluster.resync_status().rebuilt == 1);
  CHECK(cluster.resync_status().total_bytes == (4_MiB).count());
  CHECK(cluster.counters().bg_device_reads == 4 * 3);   // 4 pieces x k = 3 sources
  // Every unit of the column is readable without reconstruction again.
  const Layout l = cluster.layout();
  cluster.reset_stats();
  std::uint64_t offset = 0;
  while (stripe_columns(l, spec.osa.stripe_unit, offset).data_column != 2) offset += static_cast<std::uint64_t>(spec.osa.stripe_unit.count());
  cluster.submit(1, d.obj, d.owner, IoOp::read, offset, 4_KiB);
  d.engine.run();
  CHECK(cluster.counters().fg_device_reads == 1);
}

TEST_CASE("resync: without a spare host the components stay absent, the throttle caps the copy rate") {
  {
    Degraded d(test::osa_cluster(3), 0, 8_MiB);   // FTT 1 on 3 hosts: replica, replica, witness
    d.cluster->start_resync();
    d.engine.run();
    CHECK(d.cluster->resync_status().components == 1);
    CHECK(d.cluster->resync_status().stranded == 1);
    CHECK(d.cluster->counters().bg_network_bytes == 0);
  }
  ClusterSpec spec = test::osa_cluster(4);
  spec.resync.throttle_mbit_s = 80;   // 10 MB/s: a 1 MiB piece every 104.9 ms
  Degraded d(spec, 0, 8_MiB);
  d.cluster->start_resync();
  d.engine.run_for(Time::from_seconds(0.5));
  // Pieces start at 0, 105, 210, 315 and 419 ms: five by 0.5 s.
  CHECK(d.cluster->resync_status().done_bytes == (5_MiB).count());
  d.engine.run();
  CHECK(d.cluster->resync_status().rebuilt == 1);
  CHECK(d.engine.now().seconds() == Approx(7 * 1048576 * 8 / 80e6).epsilon(0.01));   // + the last copy's few us
  spec.resync.throttle_mbit_s = -1;
  CHECK_THROWS_WITH(spec.validate(), Catch::Contains("resync.throttle_mbit_s"));
}

TEST_CASE("resync competes with the VMs: fewer IOPS while it runs, Little's law still holds") {
  WorkloadSpec w;
  w.vms = 6;
  w.vmdks_per_vm = 2;
  w.outstanding_per_vmdk = 8;
  w.block = 64_KiB;
  w.vmdk_size = 4_GiB;
  VmRun during(w, true);
  VmRun before(w, false);
  for (const VmRun* r : {&during, &before})
    CHECK(r->result.outstanding_io == Approx(r->result.iops * r->result.pooled_latency_ms * 1e-3).epsilon(0.02));
  CHECK(during.cluster.counters().resync_bytes > 0);
  CHECK(during.result.iops < 0.95 * before.result.iops);
}

TEST_CASE("resync: a piece waits for room in a full write buffer, and destage keeps running until it fits") {
  ClusterSpec spec = test::osa_cluster(4);
  spec.osa.write_buffer = 4_MiB;           // four 1 MiB pieces fill it
  spec.osa.destage_start_fill = 0.80;      // destage alone would stop at 80 %: 3.2 MiB + 1 MiB > 4 MiB
  spec.osa.congestion_start_fill = 0.85;
  spec.osa.congestion_full_fill = 0.95;
  spec.osa.destage_depth = 1;              // destage stops right at 80 % (no batches in flight beyond it)
  spec.osa.destage_batch_blocks = 1;
  Degraded d(spec, 0, 16_MiB);
  d.cluster->start_resync();
  d.engine.run();
  CHECK(d.cluster->resync_status().rebuilt == 1);
  CHECK(d.cluster->resync_status().done_bytes == (16_MiB).count());
}

TEST_CASE("resync: erasure coding reads k pieces per piece rebuilt, the throttle caps that traffic into the new host") {
  ClusterSpec spec = test::osa_cluster(5);
  spec.policy = {RaidLevel::raid5, 1};
  spec.resync.throttle_mbit_s = 80;   // 10 MB/s of traffic: 3 MiB per piece, one every 314.6 ms
  Degraded d(spec, 1, 12_MiB);      // a 4 MiB column: 4 pieces
  d.cluster->start_resync();
  d.engine.run();
  CHECK(d.cluster->resync_status().rebuilt == 1);
  CHECK(d.cluster->counters().bg_network_bytes == 3 * (4_MiB).count());
  CHECK(d.engine.now().seconds() == Approx(3 * 3 * 1048576 * 8 / 80e6).epsilon(0.01));   // the 4th starts at 3 intervals

  ClusterSpec esa = test::esa_cluster(4);
  esa.policy = {RaidLevel::raid5, 1};   // ESA 2+1 on 4 hosts: one spare
  Degraded e(esa, 0, 8_MiB);
  e.cluster->start_resync();
  e.engine.run();
  CHECK(e.cluster->resync_status().rebuilt == 1);
  CHECK(e.cluster->counters().bg_device_reads == 4 * 2);   // 4 MiB column: 4 pieces x k = 2
  e.cluster->reset_stats();
  e.cluster->submit(1, e.obj, e.owner, IoOp::read, 0, 4_KiB);
  e.engine.run();
  CHECK(e.cluster->counters().fg_device_reads == 1);
  CHECK(host_ops(*e.cluster, e.failed) == 0);
}

TEST_CASE("resync: a striped column's new components keep the stripe width, an empty column is rebuilt at once") {
  ClusterSpec spec = test::osa_cluster(4, 1, 2);
  spec.policy.stripe_width = 2;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    INFO("seed " << seed);
    Degraded d(spec, 0, 8_MiB, seed);
    d.cluster->start_resync();
    d.engine.run();
    CHECK(d.cluster->resync_status().components == 2);   // both RAID-0 components of the replica
    CHECK(d.cluster->resync_status().rebuilt == 2);
    const ObjectPlacement& p = d.cluster->placement(d.obj);
    CHECK(p.component(0, 0).host == p.component(0, 1).host);
    CHECK((p.component(0, 0).group != p.component(0, 1).group || p.component(0, 0).device != p.component(0, 1).device));
  }
  ClusterSpec ec = test::osa_cluster(5);
  ec.policy = {RaidLevel::raid5, 1};
  Degraded d(ec, 0, Bytes{2});   // 2 bytes over k = 3 columns: nothing to copy
  d.cluster->start_resync();
  CHECK(d.cluster->resync_status().rebuilt == 1);
  CHECK(d.cluster->resync_status().total_bytes == 0);
}
