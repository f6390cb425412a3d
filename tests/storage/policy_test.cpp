// Policies resolve to the layouts vSAN documents (docs/sources.md [S10] [S40] [S44] [S50]
// [S52]: stripe shape, copies, minimum hosts, capacity factor); impossible clusters are rejected naming field and rule;
// data-reduction ratios and capacity follow the documented formulas.
#include <catch2/catch.hpp>

#include "cluster_fixtures.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/storage/capacity.hpp"
#include "hcisim/storage/data_reduction.hpp"
#include "hcisim/storage/policy.hpp"

using namespace hcisim;
using hcisim::test::drive;

TEST_CASE("policies resolve to the reference layouts per architecture and host count") {
  struct Row {
    RaidLevel raid;
    int ftt;
    Architecture arch;
    int hosts;
    int data, parity, replicas, witnesses, perf_leg, min_hosts;
    double factor;
  };
  const Row rows[] = {
      {RaidLevel::raid1, 1, Architecture::osa, 3, 1, 0, 2, 1, 0, 3, 2.0},
      {RaidLevel::raid1, 2, Architecture::osa, 5, 1, 0, 3, 2, 0, 5, 3.0},
      {RaidLevel::raid1, 3, Architecture::osa, 7, 1, 0, 4, 3, 0, 7, 4.0},
      {RaidLevel::raid5, 1, Architecture::osa, 4, 3, 1, 1, 0, 0, 4, 4.0 / 3},
      {RaidLevel::raid6, 2, Architecture::osa, 6, 4, 2, 1, 0, 0, 6, 1.5},
      {RaidLevel::raid1, 1, Architecture::esa, 3, 1, 0, 2, 0, 2, 3, 2.0},
      {RaidLevel::raid1, 2, Architecture::esa, 5, 1, 0, 3, 0, 3, 5, 3.0},
      {RaidLevel::raid5, 1, Architecture::esa, 3, 2, 1, 1, 0, 2, 3, 1.5},
      {RaidLevel::raid5, 1, Architecture::esa, 5, 2, 1, 1, 0, 2, 3, 1.5},
      {RaidLevel::raid5, 1, Architecture::esa, 6, 4, 1, 1, 0, 2, 3, 1.25},
      {RaidLevel::raid6, 2, Architecture::esa, 6, 4, 2, 1, 0, 3, 6, 1.5},
  };
  for (const Row& r : rows) {
    const Layout l = resolve_layout(StoragePolicy{r.raid, r.ftt}, r.arch, r.hosts);
    INFO(l.describe() << " on " << architecture_name(r.arch) << " with " << r.hosts << " hosts");
    CHECK(l.data == r.data);
    CHECK(l.parity == r.parity);
    CHECK(l.replicas == r.replicas);
    CHECK(l.witnesses == r.witnesses);
    CHECK(l.perf_leg_copies == r.perf_leg);
    CHECK(l.min_hosts == r.min_hosts);
    CHECK(l.capacity_factor() == Approx(r.factor));
  }
}

TEST_CASE("too few hosts for a policy is an error naming the policy and the hosts needed") {
  CHECK_THROWS_WITH(resolve_layout({RaidLevel::raid6, 2}, Architecture::osa, 5),
                    "policy RAID-6 4+2 (FTT 2) on OSA needs at least 6 hosts; the cluster has 5");
  CHECK_THROWS_WITH(resolve_layout({RaidLevel::raid5, 1}, Architecture::osa, 3),
                    Catch::Contains("RAID-5 3+1 (FTT 1) on OSA needs at least 4 hosts"));
  CHECK_THROWS_WITH(resolve_layout({RaidLevel::raid1, 2}, Architecture::esa, 4),
                    Catch::Contains("needs at least 5 hosts"));
  CHECK_THROWS_WITH(resolve_layout({RaidLevel::raid1, 1}, Architecture::osa, 2), Catch::Contains("add a witness host"));
  CHECK(resolve_layout({RaidLevel::raid1, 1}, Architecture::osa, 2, true).replicas == 2);
  CHECK_THROWS_WITH(resolve_layout({RaidLevel::raid5, 2}, Architecture::osa, 6), Catch::Contains("RAID-5 policy ftt"));
  CHECK_THROWS_WITH(resolve_layout({RaidLevel::raid1, 4}, Architecture::osa, 9), Catch::Contains("[0, 3]"));
}

TEST_CASE("impossible cluster layouts are rejected before a run, naming the field and the rule") {
  ClusterSpec ok = test::osa_cluster(4);
  CHECK_NOTHROW(ok.validate());

  ClusterSpec eight = test::osa_cluster(4, 1, 8);
  CHECK_THROWS_WITH(eight.validate(), Catch::Contains("hosts[0] (esx0).disk_groups[0].capacity") &&
                                          Catch::Contains("8 capacity devices; a disk group holds 1 to 7"));
  ClusterSpec six = test::osa_cluster(4, 6);
  CHECK_THROWS_WITH(six.validate(), Catch::Contains("6 disk groups; an OSA host has 1 to 5"));

  ClusterSpec esa_with_groups = test::esa_cluster(4);
  esa_with_groups.hosts[1].disk_groups = ok.hosts[1].disk_groups;
  CHECK_THROWS_WITH(esa_with_groups.validate(), Catch::Contains("hosts[1] (esx1).disk_groups: ESA has no disk groups"));

  ClusterSpec osa_with_pool = test::osa_cluster(4);
  osa_with_pool.hosts[2].pool.push_back(drive("intel-p5600-3.2tb"));
  CHECK_THROWS_WITH(osa_with_pool.validate(), Catch::Contains("hosts[2] (esx2).pool: OSA has no storage pool"));

  ClusterSpec raid6 = test::osa_cluster(5);
  raid6.policy = {RaidLevel::raid6, 2};
  CHECK_THROWS_WITH(raid6.validate(), Catch::Contains("RAID-6 4+2 (FTT 2) on OSA needs at least 6 hosts"));

  ClusterSpec sas_pool = test::esa_cluster(3);
  sas_pool.hosts[0].pool[0] = drive("samsung-pm1643-3.84tb", "sas-hba");
  CHECK_THROWS_WITH(sas_pool.validate(), Catch::Contains("pool[0]") && Catch::Contains("NVMe SSDs only"));

  ClusterSpec hybrid = test::osa_cluster(3);
  hybrid.hosts[0].disk_groups[0].capacity[0] = drive("seagate-10k-v7-1.2tb", "sas-hba");
  CHECK_THROWS_WITH(hybrid.validate(), Catch::Contains("hosts[1] (esx1).disk_groups[0]: a cluster is all-flash or hybrid"));
  for (auto& h : hybrid.hosts) h.disk_groups[0].capacity[0] = drive("seagate-10k-v7-1.2tb", "sas-hba");
  CHECK_NOTHROW(hybrid.validate());
  hybrid.services.dedupe = true;
  CHECK_THROWS_WITH(hybrid.validate(), Catch::Contains("services.dedupe: deduplication needs all-flash"));

  ClusterSpec hdd_cache = test::osa_cluster(3);
  hdd_cache.hosts[0].disk_groups[0].cache = drive("seagate-10k-v7-1.2tb", "sas-hba");
  CHECK_THROWS_WITH(hdd_cache.validate(), Catch::Contains("cache device must be flash"));
}

TEST_CASE("data-reduction ratios follow the OSA 2 KB rule and ESA's 512-byte sectors") {
  CHECK(reduction_ratios({50, 0}, Architecture::osa, true, false).compression == Approx(2.0));
  CHECK(reduction_ratios({60, 0}, Architecture::osa, true, false).compression == Approx(2.5));
  CHECK(reduction_ratios({40, 0}, Architecture::osa, true, false).compression == 1.0);   // 2.4 KB does not fit 2 KB
  CHECK(reduction_ratios({40, 0}, Architecture::esa, true, false).compression == Approx(4096.0 / 2560));
  CHECK(reduction_ratios({95, 0}, Architecture::esa, true, false).compression == Approx(8.0));
  CHECK(reduction_ratios({50, 50}, Architecture::osa, true, true).total() == Approx(4.0));
  CHECK(reduction_ratios({50, 50}, Architecture::osa, false, false).total() == 1.0);
  CHECK_THROWS_WITH(reduction_ratios({120, 0}, Architecture::osa, true, false), Catch::Contains("compress_pct"));
}

TEST_CASE("capacity: raw, slack and usable by policy, reduction and ESA log overhead") {
  ClusterSpec osa = test::osa_cluster(6);   // 6 x 1 x 2 TB capacity
  const CapacityReport r = capacity(osa, {});
  CHECK(r.raw_gb == Approx(6 * 2000 * 0.99));
  CHECK(r.slack_gb == Approx(0.30 * r.raw_gb));   // 30 % beats one host (1980) + 5 %
  CHECK(r.usable_gb == Approx((r.raw_gb - r.slack_gb) / 2));

  osa.services = {true, true};
  const CapacityReport dd = capacity(osa, {50, 50});
  CHECK(dd.metadata_gb == Approx(0.05 * dd.raw_gb));
  CHECK(dd.usable_gb == Approx((dd.raw_gb * 0.95 - dd.slack_gb) * 4 / 2));

  ClusterSpec big_host = test::osa_cluster(4);   // one host holds 2 of 5 devices: its reserve wins
  big_host.hosts[0].disk_groups[0].capacity.push_back(big_host.hosts[0].disk_groups[0].capacity[0]);
  const CapacityReport s = capacity(big_host, {});
  CHECK(s.slack_gb == Approx(2 * 2000 * 0.99 + 0.05 * s.raw_gb));
  CHECK_THAT(s.slack_rule, Catch::Contains("host rebuild reserve"));
  // Without a host beyond the policy's minimum there is nowhere to rebuild: 3 hosts at FTT 1,
  // a 2-node cluster, one host at FTT 0. The slack never exceeds raw.
  ClusterSpec two_node = test::osa_cluster(2);
  two_node.witness_host = true;
  ClusterSpec one = test::osa_cluster(1);
  one.policy.ftt = 0;
  for (const ClusterSpec& c : {test::osa_cluster(3), two_node, one}) {
    const CapacityReport n = capacity(c, {});
    CHECK(n.slack_gb == Approx(0.30 * n.raw_gb));
    CHECK(n.slack_gb <= n.raw_gb);
  }

  ClusterSpec esa = test::esa_cluster(6);
  esa.policy = {RaidLevel::raid5, 1};
  const CapacityReport e = capacity(esa, {});
  CHECK(e.policy_factor == Approx(1.25));
  CHECK(e.usable_gb == Approx((e.raw_gb - e.slack_gb) / (1.25 * 1.131)));
}

TEST_CASE("capacity: vSAN 7 U1+ reserved capacity, a planner's reduction ratio, failed hosts leave the line") {
  ClusterSpec osa = test::osa_cluster(6);   // 6 x 1 x 2 TB capacity: 1980 GB per host after format
  osa.capacity_reserve = CapacityReserve::reserved;
  CapacityOptions o;
  o.largest_object_gb = 100;
  const CapacityReport r = capacity(osa, {}, o);
  const double raw = 6 * 1980.0;
  CHECK(r.raw_gb == Approx(raw));
  // Operations reserve: 255 GB per host (objects under 8 TB) + the 5 % buffer; host rebuild
  // reserve: the largest host.
  CHECK(r.operations_reserve_gb == Approx(6 * 255 + 0.05 * raw));
  CHECK(r.host_rebuild_reserve_gb == Approx(1980));
  CHECK(r.slack_gb == Approx(6 * 255 + 0.05 * raw + 1980));
  CHECK(r.usable_gb == Approx((raw - r.slack_gb) / 2));
  // From 8 TB objects the policy change of one needs 765 GB per host.
  o.largest_object_gb = 8000;
  CHECK(capacity(osa, {}, o).operations_reserve_gb == Approx(6 * 765 + 0.05 * raw));
  // Without a host beyond the policy's minimum, no rebuild reserve (3 hosts at FTT 1).
  ClusterSpec three = test::osa_cluster(3);
  three.capacity_reserve = CapacityReserve::reserved;
  CHECK(capacity(three, {}).host_rebuild_reserve_gb == 0);
  // The older rule keeps more back on a small cluster, less on a large one.
  ClusterSpec big = test::osa_cluster(16);
  const double slack16 = capacity(big, {}).usable_gb;
  big.capacity_reserve = CapacityReserve::reserved;
  CHECK(capacity(big, {}).usable_gb > slack16);
  CHECK(r.usable_gb < capacity(test::osa_cluster(6), {}).usable_gb);
  // A 2-node cluster has no Reserved Capacity.
  ClusterSpec two_node = test::osa_cluster(2);
  two_node.witness_host = true;
  two_node.capacity_reserve = CapacityReserve::reserved;
  CHECK_THROWS_WITH(capacity(two_node, {}), Catch::Contains("2-node"));

  // A planner's ratio replaces the one from the workload's data; 0 means none; below 1 is refused.
  ClusterSpec planned = test::osa_cluster(6);
  planned.services = {true, true, 1.5};
  const CapacityReport p = capacity(planned, {50, 50});
  CHECK(p.reduction_ratio == 1.5);
  CHECK(p.usable_gb == Approx((raw * 0.95 - p.slack_gb) * 1.5 / 2));
  planned.services.planned_reduction_ratio = 0.5;
  CHECK_THROWS_WITH(capacity(planned, {}), Catch::Contains("planned_reduction_ratio"));

  // A failed host's devices leave raw, and the largest surviving host is the rebuild reserve.
  ClusterSpec failed = test::osa_cluster(6);
  failed.hosts[0].disk_groups[0].capacity.push_back(failed.hosts[0].disk_groups[0].capacity[0]);   // 4 TB
  failed.failed_hosts = {0};
  const CapacityReport f = capacity(failed, {});
  CHECK(f.hosts_counted == 5);
  CHECK(f.raw_gb == Approx(5 * 1980.0));
  failed.capacity_reserve = CapacityReserve::reserved;
  CHECK(capacity(failed, {}).host_rebuild_reserve_gb == Approx(1980));
}
