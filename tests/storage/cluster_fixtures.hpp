// Small cluster specs built from the shipped catalogs, shared by the storage tests.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/model/workload/vm_workload.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/workload/workload_result.hpp"

namespace hcisim::test {

/// Counts completions per token (each must be exactly one).
struct Recorder final : IoClient {
  std::map<std::uint64_t, int> done;
  void on_io_done(Cluster&, std::uint64_t token) override { ++done[token]; }
};

inline const HardwareCatalog& catalog() {
  static const HardwareCatalog cat = HardwareCatalog::load();
  return cat;
}

inline DriveSpec drive(const std::string& device, const std::string& connection = "nvme-direct") {
  return DriveSpec{catalog().device(device), catalog().connection(connection)};
}

/// `hosts` OSA hosts, each with `groups` disk groups of one Optane P4800X 375 GB cache and
/// `capacity` capacity devices (Intel P4500 2 TB unless named), on one 25 GbE switch,
/// RAID-1 FTT 1.
inline ClusterSpec osa_cluster(int hosts, int groups = 1, int capacity = 1,
                               const std::string& capacity_device = "intel-p4500-2tb",
                               const std::string& capacity_connection = "nvme-direct") {
  ClusterSpec c;
  c.architecture = Architecture::osa;
  for (int h = 0; h < hosts; ++h) {
    HostSpec host;
    host.name = "esx" + std::to_string(h);
    host.cpu = catalog().cpu("intel-xeon-gold-6248r");
    host.cpu.sockets = 2;
    for (int g = 0; g < groups; ++g) {
      DiskGroupSpec dg;
      dg.cache = drive("optane-p4800x-375gb");
      for (int d = 0; d < capacity; ++d) dg.capacity.push_back(drive(capacity_device, capacity_connection));
      host.disk_groups.push_back(dg);
    }
    c.hosts.push_back(host);
  }
  c.client_cache_mb = 0;   // exact device and network counts: no in-memory read cache
  // The mechanism tests run every stage on the shared cores; the LSOM-world tests (and every
  // scenario, by default) give each disk group its world.
  c.osa.lsom_worlds_per_dg = 0;
  c.fabric.kind = FabricKind::single_switch;
  c.fabric.nic = catalog().nic("broadcom-57414-25g");
  c.fabric.leaf = catalog().network_switch("dell-s5248f-on");
  return c;
}

/// One OSA host, FTT 0, one disk group: an Intel S3700 400 GB SATA cache over `capacity`
/// devices of `capacity_device`. The group's working set is then exactly its VMDKs'.
inline ClusterSpec one_host_osa(const std::string& capacity_device, const std::string& capacity_connection,
                                int capacity = 1) {
  ClusterSpec spec = osa_cluster(1, 1, capacity, capacity_device, capacity_connection);
  spec.policy = {RaidLevel::raid1, 0};
  spec.hosts[0].disk_groups[0].cache = drive("intel-s3700-400gb", "sata-hba");
  return spec;
}

/// `hosts` ESA hosts with `devices` Samsung PM1733 3.84 TB each, 25 GbE, RAID-1 FTT 1.
inline ClusterSpec esa_cluster(int hosts, int devices = 4) {
  ClusterSpec c = osa_cluster(hosts);
  c.architecture = Architecture::esa;
  for (auto& h : c.hosts) {
    h.disk_groups.clear();
    for (int d = 0; d < devices; ++d) h.pool.push_back(drive("samsung-pm1733-3.84tb"));
  }
  return c;
}

/// A closed loop of `w` on `spec` (placement and every random choice from `seed`): warm up
/// for `warm`, reset the statistics, measure for `measure`; `inspect` sees the cluster at the end.
inline WorkloadResult closed_loop(const ClusterSpec& spec, const WorkloadSpec& w, std::uint64_t seed, Time warm,
                                  Time measure, const std::function<void(const Cluster&)>& inspect = {},
                                  const DataProfile& data = {}) {
  Engine engine;
  VmWorkload loop(engine, w, seed);
  Cluster cluster(engine, spec, data, seed, loop);
  loop.start(cluster);
  engine.run_for(warm);
  loop.reset_stats();
  cluster.reset_stats();
  engine.run_for(measure);
  if (inspect) inspect(cluster);
  return summarize(loop, engine.now());
}

}  // namespace hcisim::test
