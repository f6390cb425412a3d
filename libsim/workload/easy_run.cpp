// HCIBench Easy Run (easy-run.rb, as summarised in vsan-model-facts.md section 6): VMs,
// VMDKs, outstanding I/O and working set derived from the cluster.
#include <algorithm>
#include <string>

#include "hcisim/core/check.hpp"
#include "hcisim/workload/workload_parsers.hpp"

namespace hcisim {

EasyRunProfile parse_easy_run_profile(std::string_view name) {
  if (name == "4k-100read") return EasyRunProfile::read_4k;
  if (name == "4k-0read") return EasyRunProfile::write_4k;
  if (name == "4k-70read") return EasyRunProfile::mixed_4k_70r;
  if (name == "8k-50read") return EasyRunProfile::mixed_8k_50r;
  if (name == "seq-read") return EasyRunProfile::seq_read;
  if (name == "seq-write") return EasyRunProfile::seq_write;
  throw InvalidArgument("easy_run profile '" + std::string(name) +
                        "' is not allowed; expected 4k-100read, 4k-0read, 4k-70read, 8k-50read, seq-read or seq-write");
}

namespace {

// HCIBench's own policy factors (it uses > 4 hosts for ESA RAID-5 4+1 where vSAN uses >= 6).
double hcibench_policy_factor(const ClusterSpec& c) {
  switch (c.policy.raid) {
    case RaidLevel::raid1: return c.policy.ftt + 1.0;
    case RaidLevel::raid5:
      if (c.architecture == Architecture::osa) return 1.33;
      return c.hosts.size() > 4 ? 1.25 : 1.5;
    case RaidLevel::raid6: return 1.5;
  }
  return 1.0;
}

}  // namespace

WorkloadSpec easy_run(const ClusterSpec& cluster, EasyRunProfile profile) {
  cluster.validate();
  const bool esa = cluster.architecture == Architecture::esa;
  int groups = 0;
  double cache_bytes = 0, capacity_bytes = 0;
  bool hybrid = false;
  for (const HostSpec& h : cluster.hosts) {
    groups += static_cast<int>(h.disk_groups.size());
    for (const auto& dg : h.disk_groups) {
      cache_bytes += dg.cache.device.capacity_gb * 1e9;
      hybrid = hybrid || dg.hybrid();
    }
    for (const auto& d : h.pool) capacity_bytes += d.device.capacity_gb * 1e9;
  }
  WorkloadSpec w;
  w.tool = WorkloadTool::fio;
  w.vms = esa ? 2 * static_cast<int>(cluster.hosts.size()) : 2 * groups;
  w.vmdks_per_vm = 4;
  const int per_vm = esa ? 128 : 32;
  w.outstanding_per_vmdk = per_vm / w.vmdks_per_vm;
  const bool sequential = profile == EasyRunProfile::seq_read || profile == EasyRunProfile::seq_write;
  if (sequential) {
    const int divisor = esa ? 8 : (cluster.policy.checksum ? 4 : 1);
    w.outstanding_per_vmdk = std::max(1, w.outstanding_per_vmdk / divisor);
  }
  switch (profile) {
    case EasyRunProfile::read_4k: w.block = Bytes{4096}; w.read_pct = 100; break;
    case EasyRunProfile::write_4k: w.block = Bytes{4096}; w.read_pct = 0; break;
    case EasyRunProfile::mixed_4k_70r: w.block = Bytes{4096}; w.read_pct = 70; break;
    case EasyRunProfile::mixed_8k_50r: w.block = Bytes{8192}; w.read_pct = 50; break;
    case EasyRunProfile::seq_read: w.block = Bytes{(esa ? 512 : 256) * 1024}; w.read_pct = 100; break;
    case EasyRunProfile::seq_write: w.block = Bytes{(esa ? 512 : 256) * 1024}; w.read_pct = 0; break;
  }
  w.random_pct = sequential ? 0 : 100;
  // Working set over all VMDKs; each VMDK is tested at 100 %.
  const double factor = hcibench_policy_factor(cluster);
  double total;
  if (esa) total = capacity_bytes / 3.0 / factor;
  else if (hybrid) total = cache_bytes * 0.25 / factor;
  else total = std::min(groups * 600e9, cache_bytes) * 0.75 / factor;
  double per_disk = total / (w.vms * w.vmdks_per_vm);
  if (esa) per_disk = std::min(per_disk, 64.0 * (1 << 30));
  w.vmdk_size = Bytes{std::max<std::int64_t>(w.block.count(), static_cast<std::int64_t>(per_disk) / 4096 * 4096)};
  w.working_set_pct = 100;
  // Disk preparation: RANDOM (fio -bc 50 -dp 50) for OSA with dedupe and for ESA; else ZERO.
  if (esa || cluster.services.dedupe) {
    w.compress_pct = 50;
    w.dedupe_pct = 50;
  }
  w.duration_s = 3600;   // HCIBench's Easy Run test time and ramp (scenarios usually shorten them)
  w.warmup_s = 1800;
  const int kib = static_cast<int>(w.block.count() / 1024);
  w.name = "fio-" + std::to_string(w.vmdks_per_vm) + "vmdk-100ws-" + std::to_string(kib) + "k-" +
           std::to_string(static_cast<int>(w.read_pct)) + "rdpct-" + std::to_string(static_cast<int>(w.random_pct)) +
           "randompct-" + std::to_string(w.outstanding_per_vmdk) + "threads" +
           (w.compress_pct > 0 ? "-50compress-50dedupe" : "");
  w.validate();
  return w;
}

}  // namespace hcisim
