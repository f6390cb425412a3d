// A cluster built in code, not from a file: four ESA hosts with two Xeon Gold 6338 each, six
// PM1733 3.84 TB per host, 25 GbE; RAID-5, 32K 70/30. make_scenario calibrates and validates
// it exactly as a scenario file would be; the result's resources are looked up by name.
#include <cstdio>

#include "hcisim/hcisim.hpp"

int main() {
  using namespace hcisim;
  const HardwareCatalog catalog = HardwareCatalog::load();

  ClusterSpec cluster;
  cluster.architecture = Architecture::esa;
  for (int h = 1; h <= 4; ++h) {
    HostSpec host;
    host.name = "esx0" + std::to_string(h);
    host.cpu = catalog.cpu("intel-xeon-gold-6338");
    host.cpu.sockets = 2;
    for (int d = 0; d < 6; ++d)
      host.pool.push_back(DriveSpec{catalog.device("samsung-pm1733-3.84tb"), catalog.connection("nvme-direct")});
    cluster.hosts.push_back(host);
  }
  cluster.fabric.nic = catalog.nic("broadcom-57414-25g");
  cluster.fabric.leaf = catalog.network_switch("dell-s5248f-on");
  cluster.policy.raid = RaidLevel::raid5;
  cluster.policy.ftt = 1;

  WorkloadSpec w;
  w.vms = 8;
  w.vmdks_per_vm = 4;
  w.outstanding_per_vmdk = 8;
  w.block = Bytes{32 << 10};
  w.read_pct = 70;
  w.duration_s = 2;
  w.warmup_s = 0.5;

  try {
    const Scenario s = make_scenario("4 x ESA, RAID-5, 25 GbE", cluster, w, catalog);
    for (const std::string& warning : s.warnings) std::printf("warning: %s\n", warning.c_str());
    const RunResult r = simulate(s);
    std::printf("%s: %.0f IOPS (+- %.1f %%), %.3f ms mean latency, bottleneck %s\n", s.name.c_str(), r.result.iops,
                100 * r.result.iops_ci.relative(), r.result.pooled_latency_ms, r.bottleneck.c_str());
    if (const ResourceClassUse* pool = r.resource("pool_device"))
      std::printf("busiest pool device: %s at %.0f %%\n", pool->busiest.c_str(), 100 * pool->max);
    if (const HostResourceRow* esx01 = r.host("esx01")) std::printf("esx01 cpu.usage %.1f %%\n", esx01->cpu_usage_pct);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "build_scenario: %s\n", e.what());
    return 1;
  }
}
