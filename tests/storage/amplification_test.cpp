// The I/O amplification contract (docs/sources.md [S23] [S38] [S39] [S47] [S48] [S50]), table-driven: for every
// policy x architecture, one small random write and one read produce exactly the reference
// device reads, device writes and network bytes (network = transfers to components on other
// hosts than the owner); background writes per written byte match the table after a drain.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <utility>

#include "cluster_fixtures.hpp"
#include "hcisim/model/storage/cluster.hpp"

using namespace hcisim;
using namespace hcisim::literals;

namespace {

using test::Recorder;

struct Row {
  const char* name;
  Architecture arch;
  RaidLevel raid;
  int ftt;
  int hosts;
  int fg_reads;        // per small write
  int fg_writes;
  double bg_per_byte;  // background device bytes written per host byte
};

const Row kRows[] = {
    {"OSA RAID-1 FTT1", Architecture::osa, RaidLevel::raid1, 1, 3, 0, 2, 2.0},
    {"OSA RAID-1 FTT2", Architecture::osa, RaidLevel::raid1, 2, 5, 0, 3, 3.0},
    {"OSA RAID-1 FTT3", Architecture::osa, RaidLevel::raid1, 3, 7, 0, 4, 4.0},
    {"OSA RAID-5 3+1", Architecture::osa, RaidLevel::raid5, 1, 4, 2, 2, 2.0},
    {"OSA RAID-6 4+2", Architecture::osa, RaidLevel::raid6, 2, 6, 3, 3, 3.0},
    {"ESA RAID-1 FTT1", Architecture::esa, RaidLevel::raid1, 1, 3, 0, 2, 2.0},
    {"ESA RAID-1 FTT2", Architecture::esa, RaidLevel::raid1, 2, 5, 0, 3, 3.0},
    {"ESA RAID-5 2+1", Architecture::esa, RaidLevel::raid5, 1, 3, 0, 2, 1.5},
    {"ESA RAID-5 4+1", Architecture::esa, RaidLevel::raid5, 1, 6, 0, 2, 1.25},
    {"ESA RAID-6 4+2", Architecture::esa, RaidLevel::raid6, 2, 6, 0, 3, 1.5},
};

ClusterSpec make(const Row& row) {
  ClusterSpec c = row.arch == Architecture::osa ? test::osa_cluster(row.hosts) : test::esa_cluster(row.hosts);
  c.policy = {row.raid, row.ftt};
  return c;
}

int remote(const ObjectPlacement& p, std::initializer_list<int> columns) {
  int n = 0;
  for (int c : columns) n += p.data[static_cast<std::size_t>(c)].host != p.owner;
  return n;
}

}  // namespace

TEST_CASE("amplification: one small random write and one read match the reference table") {
  for (const Row& row : kRows) {
    for (int object_seed = 0; object_seed < 4; ++object_seed) {   // several placements
      INFO(row.name << ", placement seed " << object_seed);
      Engine engine;
      Recorder rec;
      Cluster cluster(engine, make(row), {}, static_cast<std::uint64_t>(object_seed), rec);
      const int obj = cluster.add_object(0, 1_GiB, 1_GiB);
      const ObjectPlacement& p = cluster.placement(obj);
      const Layout& l = cluster.layout();
      const std::uint64_t offset = 5 * 4096;   // a partial stripe for erasure coding
      cluster.submit(1, obj, 0, IoOp::write, offset, 4_KiB);
      engine.run();
      const IoCounters w = cluster.counters();
      CHECK(rec.done[1] == 1);
      CHECK(w.fg_device_reads == static_cast<std::uint64_t>(row.fg_reads));
      CHECK(w.fg_device_writes == static_cast<std::uint64_t>(row.fg_writes));
      CHECK(w.fg_device_write_bytes == row.fg_writes * 4096);
      CHECK(w.bg_device_writes == 0);   // nothing is destaged or striped for one small write
      // Network: every transfer of b to or from a component on another host than the owner.
      std::int64_t expected_net = 0;
      if (row.arch == Architecture::esa) {
        for (const ComponentPlace& c : p.perf) expected_net += c.host != p.owner ? 4096 : 0;
      } else if (!l.erasure_coded()) {
        for (const ComponentPlace& c : p.data) expected_net += c.host != p.owner ? 4096 : 0;
      } else {
        const StripeColumns cols = stripe_columns(l, cluster.spec().osa.stripe_unit, offset);
        const int touched = remote(p, {cols.data_column, cols.parity_columns[0]}) +
                            (cols.parity_count == 2 ? remote(p, {cols.parity_columns[1]}) : 0);
        expected_net = 2 * 4096 * touched;   // read back old data/parity, then write new
      }
      CHECK(w.fg_network_bytes == expected_net);

      cluster.reset_stats();
      cluster.submit(2, obj, 0, IoOp::read, offset, 4_KiB);
      engine.run();
      const IoCounters r = cluster.counters();
      CHECK(rec.done[2] == 1);
      CHECK(r.fg_device_reads == 1);
      CHECK(r.fg_device_writes == 0);
      int serving;
      if (!l.erasure_coded()) serving = read_replica(p, obj, offset, 0, false);
      else serving = stripe_columns(l, row.arch == Architecture::osa ? cluster.spec().osa.stripe_unit
                                                                       : cluster.spec().esa.stripe_unit, offset)
                         .data_column;
      CHECK(r.fg_network_bytes == (p.data[static_cast<std::size_t>(serving)].host != p.owner ? 4096 : 0));
    }
  }
}

TEST_CASE("amplification: background writes per host byte after destage or full stripes") {
  for (const Row& row : kRows) {
    INFO(row.name);
    Engine engine;
    Recorder rec;
    Cluster cluster(engine, make(row), {}, 3, rec);
    const int obj = cluster.add_object(0, 64_GiB, 64_GiB);
    // Exactly one ESA stripe's worth (k units, or one unit for RAID-1), written block by block.
    const Layout& l = cluster.layout();
    const std::int64_t unit = cluster.spec().esa.stripe_unit.count();
    const std::int64_t total = row.arch == Architecture::esa ? unit * (l.erasure_coded() ? l.data : 1) : 64 * 4096;
    for (std::int64_t off = 0; off < total; off += 4096)
      cluster.submit(static_cast<std::uint64_t>(off), obj, 0, IoOp::write, static_cast<std::uint64_t>(off) * 7, 4_KiB);
    engine.run();
    if (row.arch == Architecture::osa) {
      CHECK(cluster.counters().bg_device_writes == 0);   // still in the write buffers
      cluster.drain();
      engine.run();
    }
    const IoCounters& k = cluster.counters();
    CHECK(k.completed == static_cast<std::uint64_t>(total / 4096));
    CHECK(static_cast<double>(k.bg_device_write_bytes) / static_cast<double>(k.host_write_bytes) ==
          Approx(row.bg_per_byte).epsilon(0.002));   // OSA: coalescing of 1 in ~10^5 blocks
    if (row.arch == Architecture::osa)
      CHECK(k.bg_device_read_bytes == k.bg_device_write_bytes);   // destage reads the cache device
  }
}

TEST_CASE("amplification: an OSA full-stripe write needs no reads, k+m unit writes per row") {
  for (RaidLevel raid : {RaidLevel::raid5, RaidLevel::raid6}) {
    Engine engine;
    Recorder rec;
    ClusterSpec spec = test::osa_cluster(6);
    spec.policy = {raid, raid == RaidLevel::raid5 ? 1 : 2};
    spec.osa.stripe_unit = 64_KiB;
    Cluster cluster(engine, spec, {}, 1, rec);
    const int obj = cluster.add_object(0, 1_GiB, 1_GiB);
    const Layout& l = cluster.layout();
    const std::int64_t row = 64 * 1024 * l.data;
    cluster.submit(1, obj, 0, IoOp::write, static_cast<std::uint64_t>(row) * 3, Bytes{row});
    engine.run();
    const IoCounters& k = cluster.counters();
    INFO(l.describe());
    CHECK(rec.done[1] == 1);
    CHECK(k.fg_device_reads == 0);
    CHECK(k.fg_device_writes == static_cast<std::uint64_t>(l.data + l.parity));
    CHECK(k.fg_device_write_bytes == (l.data + l.parity) * 64 * 1024);
  }
}

TEST_CASE("amplification: an OSA sequential stream on RAID-5/6 writes strided full stripes, no reads") {
  // vSAN 7 U2+ gathers sequential writes into full stripes: 4 KiB to the data column and
  // 4 KiB / k to each parity column, against m + 1 reads and m + 1 writes when random.
  for (RaidLevel raid : {RaidLevel::raid5, RaidLevel::raid6}) {
    for (bool sequential : {true, false}) {
      Engine engine;
      Recorder rec;
      ClusterSpec spec = test::osa_cluster(6);
      spec.policy = {raid, raid == RaidLevel::raid5 ? 1 : 2};
      Cluster cluster(engine, spec, {}, 1, rec);
      const int obj = cluster.add_object(0, 1_GiB, 1_GiB);
      const Layout& l = cluster.layout();
      for (std::uint64_t i = 0; i < 16; ++i) cluster.submit(i, obj, 0, IoOp::write, i * 4096, 4_KiB, sequential);
      engine.run();
      const IoCounters& k = cluster.counters();
      INFO(l.describe() << (sequential ? ", sequential" : ", random"));
      CHECK(rec.done.size() == 16);
      if (sequential) {
        CHECK(k.fg_device_reads == 0);
        CHECK(k.fg_device_writes == static_cast<std::uint64_t>(16 * (1 + l.parity)));
        CHECK(k.fg_device_write_bytes == 16 * (4096 + l.parity * ((4096 + l.data - 1) / l.data)));
      } else {
        CHECK(k.fg_device_reads == static_cast<std::uint64_t>(16 * (1 + l.parity)));
        CHECK(k.fg_device_write_bytes == 16 * 4096 * (1 + l.parity));
      }
    }
  }
}

TEST_CASE("2-node: RAID-1 with a witness host, reads are served by the local replica") {
  Engine engine;
  Recorder rec;
  ClusterSpec spec = test::osa_cluster(2);
  spec.witness_host = true;
  spec.fabric.kind = FabricKind::direct;   // back-to-back cables, as in seed 003
  Cluster cluster(engine, spec, {}, 1, rec);
  for (int h = 0; h < 2; ++h) {
    const int obj = cluster.add_object(h, 1_GiB, 1_GiB);
    const ObjectPlacement& p = cluster.placement(obj);
    REQUIRE(p.data.size() == 2);
    CHECK(p.witnesses == std::vector<int>{-1});   // the witness component is on the witness host
    cluster.reset_stats();
    for (std::uint64_t i = 0; i < 64; ++i) cluster.submit(i, obj, h, IoOp::read, i << 20, 4_KiB);
    engine.run();
    CHECK(cluster.counters().fg_device_reads == 64);
    CHECK(cluster.counters().fg_network_bytes == 0);   // every read local
    cluster.reset_stats();
    cluster.submit(100, obj, h, IoOp::write, 0, 4_KiB);
    engine.run();
    CHECK(cluster.counters().fg_device_writes == 2);
    CHECK(cluster.counters().fg_network_bytes == 4096);   // the copy on the other host
  }
}

TEST_CASE("RAID-1 reads of a 1 MiB range always use the same replica, about 1/H are local") {
  Engine engine;
  Recorder rec;
  ClusterSpec spec = test::osa_cluster(4);
  Cluster cluster(engine, spec, {}, 1, rec);
  int local = 0, total = 0;
  for (int o = 0; o < 64; ++o) {
    const int obj = cluster.add_object(o % 4, 64_GiB, 64_GiB);
    const ObjectPlacement& p = cluster.placement(obj);
    for (std::uint64_t range = 0; range < 256; ++range) {
      const int r = read_replica(p, obj, range << 20, p.owner, false);
      CHECK(read_replica(p, obj, (range << 20) + 123 * 4096, p.owner, false) == r);
      local += p.data[static_cast<std::size_t>(r)].host == p.owner;
      ++total;
    }
  }
  // A replica is on the owner's host for about half the objects (2 of 4 hosts), and then it
  // serves half of the ranges: 1/4 local overall.
  CHECK(static_cast<double>(local) / total == Approx(0.25).margin(0.05));
}

TEST_CASE("amplification: ESA with compression writes and stores b/c, reads return b") {
  Engine engine;
  Recorder rec;
  ClusterSpec spec = test::esa_cluster(6);
  spec.policy = {RaidLevel::raid6, 2};
  spec.services.compression = true;
  Cluster cluster(engine, spec, {50, 0}, 2, rec);   // 50 % compressible: c = 2
  const int obj = cluster.add_object(0, 1_GiB, 1_GiB);
  const ObjectPlacement& p = cluster.placement(obj);
  cluster.submit(1, obj, 0, IoOp::write, 0, 4_KiB);
  engine.run();
  int remote_perf = 0;
  for (const ComponentPlace& c : p.perf) remote_perf += c.host != p.owner;
  CHECK(cluster.counters().fg_device_write_bytes == 3 * 2048);
  CHECK(cluster.counters().fg_network_bytes == remote_perf * 2048);
  cluster.reset_stats();
  cluster.submit(2, obj, 0, IoOp::read, 0, 4_KiB);
  engine.run();
  const int col = stripe_columns(cluster.layout(), spec.esa.stripe_unit, 0).data_column;
  CHECK(cluster.counters().fg_device_read_bytes == 2048);
  CHECK(cluster.counters().fg_network_bytes == (p.data[static_cast<std::size_t>(col)].host != p.owner ? 4096 : 0));
}

TEST_CASE("amplification: an OSA dedupe map miss adds one 4 KiB capacity read before the data") {
  for (double miss : {0.0, 1.0}) {
    Engine engine;
    Recorder rec;
    ClusterSpec spec = test::osa_cluster(3);
    spec.services = {true, true};
    spec.osa.dedupe_lookup_miss = miss;
    Cluster cluster(engine, spec, {}, 2, rec);
    const int obj = cluster.add_object(0, 64_GiB, 64_GiB);   // nothing buffered: reads go to capacity
    for (std::uint64_t i = 0; i < 100; ++i) cluster.submit(i, obj, 0, IoOp::read, i << 20, 8_KiB);
    engine.run();
    CHECK(cluster.counters().completed == 100);
    CHECK(cluster.counters().fg_device_reads == (miss > 0 ? 200u : 100u));
    CHECK(cluster.counters().fg_device_read_bytes == 100 * 8192 + (miss > 0 ? 100 * 4096 : 0));
  }
}

namespace {

/// One cluster holding one object of `size`, owned by host 0, addressed whole.
struct OneObject {
  Engine engine;
  Recorder rec;
  Cluster cluster;
  int obj;
  OneObject(const ClusterSpec& spec, Bytes size)
      : cluster(engine, spec, {}, 1, rec), obj(cluster.add_object(0, size, size)) {}
  const ObjectPlacement& place() const { return cluster.placement(obj); }
};

/// Operations each OSA disk group's devices completed, by (host, group), from devices()'s
/// order (per host: each group's cache device, then its capacity devices).
std::map<std::pair<int, int>, std::uint64_t> ops_by_group(const Cluster& cluster) {
  std::map<std::pair<int, int>, std::uint64_t> ops;
  std::map<int, int> group;
  for (const Cluster::DeviceInfo& d : cluster.devices()) {
    if (d.role == "cache") ++group[d.host];
    ops[{d.host, group[d.host] - 1}] += d.device->completed();
  }
  return ops;
}

}  // namespace

TEST_CASE("a column above 255 GiB is split into RAID-0 components on its host, each in a disk group of its own draw") {
  Engine engine;
  Recorder rec;
  const ClusterSpec spec = test::osa_cluster(3, 4, 2);
  Cluster cluster(engine, spec, {}, 1, rec);
  const int small = cluster.add_object(0, 200_GiB, 200_GiB);
  CHECK(cluster.placement(small).chunks == 1);
  CHECK(cluster.placement(small).split.empty());
  const int big = cluster.add_object(0, 1000_GiB, 1000_GiB);
  const ObjectPlacement& p = cluster.placement(big);
  REQUIRE(p.chunks == 4);   // 1000 / 255 -> 4 components per replica
  REQUIRE(p.split.size() == 2 * 3);
  for (int col = 0; col < 2; ++col)
    for (int h = 1; h < 4; ++h) CHECK(p.component(col, h).host == p.data[static_cast<std::size_t>(col)].host);
  // The working sets add up exactly: 2 x 200 GiB + 2 x 1000 GiB over the groups, and the big
  // object's replicas reach more than one group on their hosts.
  double ws = 0;
  int groups_used = 0;
  for (int host = 0; host < 3; ++host)
    for (int g = 0; g < 4; ++g) {
      ws += cluster.write_buffer(host, g).working_set();
      groups_used += cluster.write_buffer(host, g).working_set() > 0;
    }
  CHECK(ws == Approx(2.0 * static_cast<double>((200_GiB + 1000_GiB).count())).epsilon(1e-12));
  CHECK(groups_used > 2);
  // A write lands in the write buffers of the components holding its offset, and only there.
  // 1 MiB stripe units go round the four components: the fourth holds 3-4 MiB, 7-8 MiB, ...
  const std::uint64_t offset = 7 * (1_MiB).count() + (4_KiB).count();
  REQUIRE(chunk_of(p, cluster.layout(), spec.osa.stripe_unit, offset) == 3);
  cluster.submit(1, big, 0, IoOp::write, offset, 4_KiB);
  engine.run();
  CHECK(cluster.counters().fg_device_writes == 2);
  const auto ops = ops_by_group(cluster);
  for (int host = 0; host < 3; ++host)
    for (int g = 0; g < 4; ++g) {
      bool target = false;
      for (int col = 0; col < 2; ++col)
        target |= p.component(col, 3).host == host && p.component(col, 3).group == g;
      CHECK((cluster.write_buffer(host, g).dirty() > 0) == target);   // the write buffer's account
      CHECK((ops.at({host, g}) > 0) == target);                        // the device that took the write
    }
}

TEST_CASE("erasure coding stripes by rows: each row is the next RAID-0 unit of every column") {
  ClusterSpec spec = test::osa_cluster(4, 3, 1);
  spec.policy = {RaidLevel::raid5, 1};
  spec.policy.stripe_width = 2;   // the two components of a column on distinct groups
  const Layout l = resolve_layout(spec.policy, Architecture::osa, 4);
  REQUIRE(l.data == 3);
  const Bytes unit = spec.osa.stripe_unit;
  CHECK(column_bytes(l, unit, 900_GiB) == (300_GiB).count());
  CHECK(raid0_span(l, unit) == 3 * unit.count());
  OneObject one(spec, 900_GiB);
  Cluster& cluster = one.cluster;
  const ObjectPlacement& p = one.place();
  REQUIRE(p.chunks == 2);
  const auto row = static_cast<std::uint64_t>(raid0_span(l, unit));
  CHECK(chunk_of(p, l, unit, 0) == 0);
  CHECK(chunk_of(p, l, unit, row - 1) == 0);
  CHECK(chunk_of(p, l, unit, row) == 1);
  CHECK(chunk_of(p, l, unit, 2 * row) == 0);
  // A partial-stripe write in row 1 reads and writes only the disk groups of the touched
  // columns' second components (read-modify-write: data column and parity).
  const StripeColumns cols = stripe_columns(l, unit, row);
  std::set<std::pair<int, int>> expected;
  for (int c : {cols.data_column, cols.parity_columns[0]})
    expected.insert({p.component(c, 1).host, p.component(c, 1).group});
  cluster.submit(1, one.obj, 0, IoOp::write, row, 4_KiB);
  one.engine.run();
  CHECK(cluster.counters().fg_device_reads == 2);
  CHECK(cluster.counters().fg_device_writes == 2);
  for (const auto& [where, ops] : ops_by_group(cluster)) {
    INFO("host " << where.first << " group " << where.second);
    CHECK((ops > 0) == (expected.count(where) > 0));
    CHECK((cluster.write_buffer(where.first, where.second).dirty() > 0) == (expected.count(where) > 0));
  }
}

TEST_CASE("an I/O across RAID-0 units becomes one operation per unit, each on its own component") {
  ClusterSpec spec = test::osa_cluster(3, 2, 2);
  spec.policy.stripe_width = 2;
  OneObject one(spec, 10_GiB);
  Cluster& cluster = one.cluster;
  const ObjectPlacement& p = one.place();
  REQUIRE(p.chunks == 2);
  // 1 MiB from 512 KiB: half in unit 0 (component 0), half in unit 1 (component 1).
  CHECK(cluster.submit(1, one.obj, 0, IoOp::write, (512_KiB).count(), 1_MiB) == 2);
  CHECK(cluster.submit(2, one.obj, 0, IoOp::write, (1_MiB).count(), 1_MiB) == 1);
  one.engine.run();
  CHECK(one.rec.done[1] == 2);
  CHECK(one.rec.done[2] == 1);
  CHECK(cluster.counters().host_write_bytes == 2 * (1_MiB).count());
  CHECK(cluster.counters().fg_device_writes == 2 * 3);   // 3 unit-bounded operations x 2 replicas
  // Every write lands in the cache device of its component's group: component 0 got one
  // operation per replica, component 1 two.
  std::map<std::pair<int, int>, std::uint64_t> expected;
  for (int col = 0; col < 2; ++col) {
    ++expected[{p.component(col, 0).host, p.component(col, 0).group}];
    expected[{p.component(col, 1).host, p.component(col, 1).group}] += 2;
  }
  for (const auto& [where, ops] : ops_by_group(cluster)) {
    INFO("host " << where.first << " group " << where.second);
    CHECK(ops == (expected.count(where) ? expected[where] : 0));
  }
}

TEST_CASE("stripe width: each replica's first stripes sit on distinct capacity devices of its host") {
  ClusterSpec spec = test::osa_cluster(3, 2, 3);
  spec.policy.stripe_width = 4;
  spec.validate();
  Engine engine;
  Recorder rec;
  Cluster cluster(engine, spec, {}, 1, rec);
  for (const auto& [size, chunks] : {std::pair{10_GiB, 4}, std::pair{1100_GiB, 8}}) {   // 1100 / (4 x 255) -> 2 each
    const ObjectPlacement& p = cluster.placement(cluster.add_object(1, size, size));
    REQUIRE(p.chunks == chunks);
    for (int col = 0; col < 2; ++col) {
      std::set<std::pair<int, int>> devices;
      for (int h = 0; h < 4; ++h) {
        CHECK(p.component(col, h).host == p.data[static_cast<std::size_t>(col)].host);
        devices.insert({p.component(col, h).group, p.component(col, h).device});
      }
      CHECK(devices.size() == 4);
    }
  }
  // More stripes than a host has capacity devices, or beyond vSAN's 12, is refused by name.
  spec.policy.stripe_width = 7;
  CHECK_THROWS_WITH(spec.validate(), Catch::Contains("policy.stripe_width") && Catch::Contains("has 6"));
  spec.policy.stripe_width = 13;
  CHECK_THROWS_WITH(spec.validate(), Catch::Contains("1 to 12"));
}

TEST_CASE("amplification: ESA's large-I/O path (8.0 U1 on) writes a full stripe straight to the capacity leg") {
  // vSAN 8.0 U1's two write paths ([S43] [S248]): a write of one full stripe skips the
  // performance leg's mirrors (FTT+1 copies, striped out later) and goes to the capacity leg's
  // k+m columns (or FTT+1 copies) at once; 8.0 has only the first path.
  for (const Row& row : kRows) {
    if (row.arch != Architecture::esa) continue;
    for (const VsanRelease release : {VsanRelease::v8_0, VsanRelease::v8_0u1}) {
      INFO(row.name << ", " << vsan_release_name(release));
      ClusterSpec spec = make(row);
      spec.release = release;
      Engine engine;
      Recorder rec;
      Cluster cluster(engine, spec, {}, 5, rec);
      const int obj = cluster.add_object(0, 64_GiB, 64_GiB);
      const ObjectPlacement& p = cluster.placement(obj);
      const Layout& l = cluster.layout();
      const std::int64_t k = l.erasure_coded() ? l.data : 1;
      const std::int64_t stripe = spec.esa.stripe_unit.count() * k;
      const auto copies = static_cast<std::int64_t>(p.data.size());   // k+m columns, or FTT+1 copies
      const auto mirrors = static_cast<std::int64_t>(p.perf.size());  // FTT+1
      cluster.submit(1, obj, 0, IoOp::write, 0, Bytes{stripe});
      engine.run();
      const IoCounters& c = cluster.counters();
      CHECK(rec.done[1] == 1);
      std::int64_t remote_columns = 0, remote_mirrors = 0;
      for (const ComponentPlace& d : p.data) remote_columns += d.host != p.owner;
      for (const ComponentPlace& m : p.perf) remote_mirrors += m.host != p.owner;
      if (release == VsanRelease::v8_0u1) {
        CHECK(c.fg_device_writes == static_cast<std::uint64_t>(copies));
        CHECK(c.fg_device_write_bytes == copies * (stripe / k));
        CHECK(c.bg_device_write_bytes == 0);   // no stripe left to write out, GC factor 1
        CHECK(c.fg_network_bytes == remote_columns * (stripe / k));
      } else {
        CHECK(c.fg_device_writes == static_cast<std::uint64_t>(mirrors));
        CHECK(c.fg_device_write_bytes == mirrors * stripe);
        CHECK(c.bg_device_write_bytes == copies * (stripe / k));   // the full stripe, striped out
        CHECK(c.fg_network_bytes == remote_mirrors * stripe);
      }
      // A write one block short of a stripe takes the performance leg on either release.
      cluster.reset_stats();
      cluster.submit(2, obj, 0, IoOp::write, static_cast<std::uint64_t>(stripe), Bytes{stripe - 4096});
      engine.run();
      CHECK(cluster.counters().fg_device_writes == static_cast<std::uint64_t>(mirrors));
      CHECK(cluster.counters().fg_device_write_bytes == mirrors * (stripe - 4096));
    }
  }
}

TEST_CASE("ESA's large-I/O path: segment cleaning adds (g - 1) x each column in the background, as striping out does") {
  ClusterSpec spec = make(kRows[9]);   // ESA RAID-6 4+2
  REQUIRE(spec.architecture == Architecture::esa);
  spec.esa.gc_factor = 2;
  Engine engine;
  Recorder rec;
  Cluster cluster(engine, spec, {}, 5, rec);
  const int obj = cluster.add_object(0, 64_GiB, 64_GiB);
  const ObjectPlacement& p = cluster.placement(obj);
  std::int64_t remote = 0;
  for (const ComponentPlace& d : p.data) remote += d.host != p.owner;
  const std::int64_t stripe = spec.esa.stripe_unit.count() * 4;
  cluster.submit(1, obj, 0, IoOp::write, 0, Bytes{stripe});
  engine.run();
  const IoCounters& c = cluster.counters();
  CHECK(c.fg_device_write_bytes == 6 * (stripe / 4));
  CHECK(c.bg_device_write_bytes == 6 * (stripe / 4));   // (g - 1) x each column
  CHECK(c.bg_network_bytes == remote * (stripe / 4));
  // The default path moves the same bytes: on 8.0 the same stripe is mirrored, then striped
  // out at unit x g per column.
  ClusterSpec ga = spec;
  ga.release = VsanRelease::v8_0;
  Engine engine2;
  Recorder rec2;
  Cluster before(engine2, ga, {}, 5, rec2);
  const int obj2 = before.add_object(0, 64_GiB, 64_GiB);
  before.submit(1, obj2, 0, IoOp::write, 0, Bytes{stripe});
  engine2.run();
  CHECK(before.counters().bg_device_write_bytes == 6 * 2 * (stripe / 4));
  CHECK(before.counters().bg_network_bytes == remote * 2 * (stripe / 4));
}
