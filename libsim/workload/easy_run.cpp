// HCIBench Easy Run (easy-run.rb, docs/sources.md [S89]): VMs,
// VMDKs, outstanding I/O and working set derived from the cluster. Two layouts:
//   releases up to 2.8.3 (easy-run.rb in vmware-labs/hci-benchmark-appliance at 702d1f6, the
//     2.8.3 candidate; the 2021 copy xinzweb/HCIBench [S90] has the same 8-disk, 32-outstanding
//     layout, without the ESA, free-space and erasure-coding rules): 8 data disks per
//     VM, 32 outstanding per VM, ESA 4 VMs per host, the cache size in whole GiB per device,
//     the disk size in whole GiB; four profiles (4k 70/30, 4k read, 8k 50/50, 256k write);
//   2.8.4 and later (the "new easy run", 2024-08): 4 data disks, ESA 2 VMs per host and 128
//     outstanding per VM, 512k sequential profiles on ESA [S89].
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "hcisim/core/check.hpp"
#include "hcisim/model/workload/workload_parsers.hpp"

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

EasyRunRelease parse_easy_run_release(std::string_view version) {
  // Two or three dot-separated whole numbers, each of one to four digits, from 2.0 on.
  int parts[3] = {0, 0, 0};
  int count = 0;
  bool ok = !version.empty();
  for (std::string_view rest = version; ok;) {
    const std::size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    int value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    ok = count < 3 && !part.empty() && part.size() <= 4 && part.front() != '-' && error == std::errc{} &&
         end == part.data() + part.size();
    if (ok) parts[count++] = value;
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  if (!ok || count < 2 || parts[0] < 2)
    throw InvalidArgument("easy_run_release '" + std::string(version) +
                          "' is not allowed; expected an HCIBench release from 2.0 on, e.g. 2.8.1 or 3.0");
  const int major = parts[0], minor = parts[1], patch = parts[2];
  const bool before_284 = major == 2 && (minor < 8 || (minor == 8 && patch < 4));
  return before_284 ? EasyRunRelease::hcibench_2_8 : EasyRunRelease::hcibench_2_8_4;
}

namespace {

// A device's size as vSAN reports it to HCIBench: whole GiB (rvc-util.rb's
// _get_vsan_disk_stats divides each device's bytes by 1024**3 in integers).
long long whole_gib(double gb) { return static_cast<long long>(gb * 1e9) / (1LL << 30); }

// What Easy Run reads of the cluster: disk groups, whether any is hybrid, and the cache and
// capacity devices' sizes summed in the unit a release counts in (`size` of a device's
// decimal GB). Capacity is the OSA capacity devices and the ESA pool.
struct Survey {
  int groups = 0;
  bool hybrid = false;
  double cache = 0, capacity = 0;
};
template <class Size>
Survey survey(const ClusterSpec& cluster, Size size) {
  Survey s;
  for (const HostSpec& h : cluster.hosts) {
    s.groups += static_cast<int>(h.disk_groups.size());
    for (const auto& dg : h.disk_groups) {
      s.cache += size(dg.cache.device.capacity_gb);
      for (const auto& d : dg.capacity) s.capacity += size(d.device.capacity_gb);
      s.hybrid = s.hybrid || dg.hybrid();
    }
    for (const auto& d : h.pool) s.capacity += size(d.device.capacity_gb);
  }
  return s;
}

// Releases up to 2.8.3 (see the file comment).
WorkloadSpec easy_run_2_8(const ClusterSpec& cluster, EasyRunProfile profile) {
  const bool esa = cluster.architecture == Architecture::esa;
  const Survey found = survey(cluster, [](double gb) { return static_cast<double>(whole_gib(gb)); });
  const int groups = found.groups;
  const bool hybrid = found.hybrid;
  const auto cache_gib = static_cast<long long>(found.cache), capacity_gib = static_cast<long long>(found.capacity);
  WorkloadSpec w;
  w.tool = WorkloadTool::fio;
  w.vms = esa ? 4 * static_cast<int>(cluster.hosts.size()) : 2 * groups;
  w.vmdks_per_vm = 8;
  w.outstanding_per_vmdk = 32 / w.vmdks_per_vm;
  switch (profile) {
    case EasyRunProfile::read_4k: w.block = Bytes{4096}; w.read_pct = 100; break;
    case EasyRunProfile::mixed_4k_70r: w.block = Bytes{4096}; w.read_pct = 70; break;
    case EasyRunProfile::mixed_8k_50r: w.block = Bytes{8192}; w.read_pct = 50; break;
    case EasyRunProfile::seq_write:
      w.block = Bytes{256 * 1024};
      w.read_pct = 0;
      w.outstanding_per_vmdk = std::max(1, w.outstanding_per_vmdk / (cluster.policy.checksum ? 4 : 1));
      break;
    case EasyRunProfile::write_4k:
    case EasyRunProfile::seq_read:
      throw InvalidArgument("easy_run profile '" + std::string(profile == EasyRunProfile::write_4k ? "4k-0read" : "seq-read") +
                            "' is not in HCIBench's Easy Run before 2.8.4; it has 4k-70read, 4k-100read, 8k-50read and "
                            "seq-write (easy_run_release sets the release)");
  }
  w.random_pct = profile == EasyRunProfile::seq_write ? 0 : 100;
  // The working set: all-flash OSA min(groups x 600, cache) x 0.75, hybrid cache x 0.25, ESA
  // capacity / 3 x 0.25, halved until it leaves a fifth of the capacity free, over the
  // policy's factor (RAID-1 FTT + 1; erasure coding 1.33 for RAID-5, 1.66 for RAID-6).
  // easy-run.rb takes the free capacity as capacity - used; the datastore is taken as empty
  // (HCIBench's own VMs aside), so it is the capacity.
  long long set_gib = cache_gib;
  double ratio = 0.25;
  if (esa) set_gib = capacity_gib / 3;
  else if (!hybrid) {
    set_gib = std::min<long long>(groups * 600LL, cache_gib);
    ratio = 0.75;
  }
  while (5 * (capacity_gib - set_gib) < capacity_gib && set_gib > 0) set_gib /= 2;   // free < 20 %
  double factor = cluster.policy.ftt + 1.0;
  if (cluster.policy.raid == RaidLevel::raid5) factor = 1.33;
  if (cluster.policy.raid == RaidLevel::raid6) factor = 1.66;
  const double deployed_gib = static_cast<double>(set_gib) * ratio / factor;
  const long long disk_gib = std::max<long long>(static_cast<long long>(std::floor(deployed_gib / (w.vms * w.vmdks_per_vm))), 1);
  w.vmdk_size = Bytes{disk_gib << 30};
  w.working_set_pct = 100;
  return w;
}

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

// Releases 2.8.4 and later (see the file comment).
WorkloadSpec easy_run_2_8_4(const ClusterSpec& cluster, EasyRunProfile profile) {
  const bool esa = cluster.architecture == Architecture::esa;
  const Survey found = survey(cluster, [](double gb) { return gb * 1e9; });
  const int groups = found.groups;
  const bool hybrid = found.hybrid;
  const double cache_bytes = found.cache, capacity_bytes = found.capacity;   // capacity: ESA only below
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
  return w;
}

}  // namespace

WorkloadSpec easy_run(const ClusterSpec& cluster, EasyRunProfile profile, EasyRunRelease release) {
  cluster.validate();
  WorkloadSpec w = release == EasyRunRelease::hcibench_2_8 ? easy_run_2_8(cluster, profile)
                                                           : easy_run_2_8_4(cluster, profile);
  // Disk preparation: RANDOM (fio -bc 50 -dp 50) for OSA with dedupe and for ESA; else ZERO.
  if (cluster.architecture == Architecture::esa || cluster.services.dedupe) {
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
