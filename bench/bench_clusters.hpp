// The clusters the whole-cluster benchmarks drive (cluster_bench.cpp, ir_driver.cpp):
// 4K random 70 % read / 30 % write, closed loop, 2 VMs x 4 VMDKs x 4 outstanding per host.
//  osa4_raid1: 4 OSA hosts, one disk group each (Optane P4800X 375 GB cache, Intel P4500 2 TB
//    capacity), RAID-1 FTT 1, 25 GbE.
//  esa6_raid6: 6 ESA hosts, 4 x Samsung PM1733 3.84 TB each, RAID-6 4+2, 25 GbE.
#pragma once

#include <string>

#include "hcisim/model/model.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/model/storage/cluster.hpp"
#include "hcisim/model/workload/vm_workload.hpp"

namespace hcisim::bench {

inline ClusterSpec cluster(const HardwareCatalog& cat, bool esa) {
  ClusterSpec c;
  c.architecture = esa ? Architecture::esa : Architecture::osa;
  const int hosts = esa ? 6 : 4;
  for (int h = 0; h < hosts; ++h) {
    HostSpec host;
    host.name = "esx" + std::to_string(h);
    host.cpu = cat.cpu("intel-xeon-gold-6248r");
    host.cpu.sockets = 2;
    if (esa) {
      for (int d = 0; d < 4; ++d) host.pool.push_back({cat.device("samsung-pm1733-3.84tb"), cat.connection("nvme-direct")});
    } else {
      DiskGroupSpec dg;
      dg.cache = {cat.device("optane-p4800x-375gb"), cat.connection("nvme-direct")};
      dg.capacity.push_back({cat.device("intel-p4500-2tb"), cat.connection("nvme-direct")});
      host.disk_groups.push_back(dg);
    }
    c.hosts.push_back(host);
  }
  c.fabric.nic = cat.nic("broadcom-57414-25g");
  c.fabric.leaf = cat.network_switch("dell-s5248f-on");
  c.policy = esa ? StoragePolicy{RaidLevel::raid6, 2} : StoragePolicy{RaidLevel::raid1, 1};
  return c;
}

inline WorkloadSpec workload(bool esa) {
  WorkloadSpec w;
  w.vms = 2 * (esa ? 6 : 4);
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 4;
  return w;
}

/// The cluster and its closed loop, started and past a 10 ms warm-up.
struct Rig {
  Engine engine;
  VmWorkload loop;
  Cluster cluster;
  Rig(const HardwareCatalog& cat, bool esa)
      : loop(engine, workload(esa), 1), cluster(engine, bench::cluster(cat, esa), {}, 1, loop) {
    loop.start(cluster);
    engine.run_for(Time::from_ms(10));
  }
};

}  // namespace hcisim::bench
