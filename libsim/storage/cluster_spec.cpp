// Layout rules of a cluster (cluster_spec.hpp): disk-group and pool shapes per architecture
// ([S6] [S36]), policy minimum hosts ([S10] [S40] [S44] [S50]), data-service limits.
#include "hcisim/storage/cluster_spec.hpp"

#include <algorithm>
#include <cmath>

#include "hcisim/core/check.hpp"
#include "hcisim/model/hw/topology.hpp"

namespace hcisim {

namespace {

[[noreturn]] void reject(const std::string& field, const std::string& rule) {
  throw InvalidArgument("cluster " + field + ": " + rule);
}

void validate_drive(const DriveSpec& d, const std::string& field) {
  try {
    d.device.validate();
    d.connection.validate();
  } catch (const InvalidArgument& e) {
    reject(field, e.what());
  }
}

// An ESA host: a pool of NVMe SSDs, no disk groups. `at` names the host.
void validate_esa_host(const HostSpec& host, const std::string& at) {
  if (!host.disk_groups.empty())
    reject(at + ".disk_groups", "ESA has no disk groups; list the host's NVMe devices under pool");
  if (host.pool.empty()) reject(at + ".pool", "an ESA host needs at least one NVMe device in its pool");
  // A bound, not a vSAN limit: ESA ReadyNodes hold up to 24 NVMe devices per host.
  if (host.pool.size() > 64)
    reject(at + ".pool", std::to_string(host.pool.size()) + " devices in one host's pool; at most 64 are allowed");
  for (std::size_t d = 0; d < host.pool.size(); ++d) {
    const std::string f = at + ".pool[" + std::to_string(d) + "]";
    validate_drive(host.pool[d], f);
    if (host.pool[d].device.kind != DeviceKind::ssd || host.pool[d].device.interface == "sas" ||
        host.pool[d].device.interface == "sata")
      reject(f, "ESA storage pools take NVMe SSDs only ('" + host.pool[d].device.name + "' is " +
                    host.pool[d].device.interface + ")");
  }
}

// One OSA disk group `f`: a flash cache device and 1 to 7 capacity devices of one kind, the
// same kind (all-flash or hybrid) as the cluster's first, and the services and policies a
// hybrid group allows.
void validate_disk_group(const ClusterSpec& spec, const DiskGroupSpec& dg, const std::string& f) {
  validate_drive(dg.cache, f + ".cache");
  if (dg.cache.device.kind != DeviceKind::ssd) reject(f + ".cache", "the cache device must be flash (an SSD)");
  if (dg.capacity.empty() || dg.capacity.size() > 7)
    reject(f + ".capacity", std::to_string(dg.capacity.size()) + " capacity devices; a disk group holds 1 to 7");
  for (std::size_t c = 0; c < dg.capacity.size(); ++c) {
    validate_drive(dg.capacity[c], f + ".capacity[" + std::to_string(c) + "]");
    if (dg.capacity[c].device.kind != dg.capacity.front().device.kind)
      reject(f + ".capacity", "a disk group is all-flash or hybrid, not both");
  }
  const DiskGroupSpec& first = spec.hosts.front().disk_groups.front();
  if (dg.hybrid() != first.hybrid())
    reject(f, "a cluster is all-flash or hybrid, not both (hosts[0].disk_groups[0] is " +
                  std::string(first.hybrid() ? "hybrid" : "all-flash") + ")");
  if (dg.hybrid() && spec.services.dedupe)
    reject("services.dedupe", "deduplication needs all-flash disk groups (" + f + " is hybrid)");
  if (dg.hybrid() && spec.services.compression)
    reject("services.compression", "compression needs all-flash disk groups (" + f + " is hybrid)");
  if (dg.hybrid() && spec.policy.raid != RaidLevel::raid1)
    reject("policy", std::string(raid_name(spec.policy.raid)) + " erasure coding needs all-flash disk groups");
}

// An OSA host: 1 to 5 disk groups, no pool, a core left shared beside the LSOM worlds, and
// enough capacity devices for the stripes.
void validate_osa_host(const ClusterSpec& spec, const HostSpec& host, const std::string& at) {
  if (!host.pool.empty()) reject(at + ".pool", "OSA has no storage pool; group devices into disk_groups");
  if (host.disk_groups.empty() || host.disk_groups.size() > 5)
    reject(at + ".disk_groups", std::to_string(host.disk_groups.size()) + " disk groups; an OSA host has 1 to 5");
  // Worlds pin cores (at most 5 groups x 64 worlds: no overflow; the range is checked below).
  const int pinned = static_cast<int>(host.disk_groups.size()) * std::clamp(spec.osa.lsom_worlds_per_dg, 0, 64);
  if (pinned > 0 && pinned >= host.cpu.cores())
    reject("osa.lsom_worlds_per_dg", std::to_string(spec.osa.lsom_worlds_per_dg) + " LSOM worlds per disk group pin " +
                                         std::to_string(pinned) + " cores on " + at + ", which has " +
                                         std::to_string(host.cpu.cores()) + "; leave at least one core shared");
  std::size_t capacity_devices = 0;
  for (const DiskGroupSpec& dg : host.disk_groups) capacity_devices += dg.capacity.size();
  if (spec.policy.stripe_width > 1 && static_cast<std::size_t>(spec.policy.stripe_width) > capacity_devices)
    reject("policy.stripe_width", std::to_string(spec.policy.stripe_width) + " stripes need as many capacity devices on " +
                                      "each host (a replica's stripes stay on its host here); " + at + " has " +
                                      std::to_string(capacity_devices));
  for (std::size_t g = 0; g < host.disk_groups.size(); ++g)
    validate_disk_group(spec, host.disk_groups[g], at + ".disk_groups[" + std::to_string(g) + "]");
}

// Host h: its CPU, memory and storage under the cluster's architecture.
void validate_host(const ClusterSpec& spec, std::size_t h) {
  const HostSpec& host = spec.hosts[h];
  const std::string at = "hosts[" + std::to_string(h) + "] (" + host.name + ")";
  try {
    host.cpu.validate();
  } catch (const InvalidArgument& e) {
    reject(at + ".cpu", e.what());
  }
  if (!HostSpec::memory_gib_allowed(host.memory_gib))
    check::fail("cluster " + at + ".memory_gib", host.memory_gib, "1 .. 65536 GiB, or 0 (not stated)");
  if (spec.architecture == Architecture::esa) validate_esa_host(host, at);
  else validate_osa_host(spec, host, at);
}

// The settings beside the hosts (network, OSA and ESA settings, CPU costs, resync), each in
// its range; an error is put under "cluster ".
void validate_settings(const ClusterSpec& spec) {
  const OsaSettings& osa = spec.osa;
  const EsaSettings& esa = spec.esa;
  try {
    spec.network.validate();
    check::positive(static_cast<double>(osa.write_buffer.count()), "osa.write_buffer");
    check::in_range(osa.destage_batch_blocks, 1, 4096, "osa.destage_batch_blocks");
    check::in_range(osa.destage_depth, 1, 256, "osa.destage_depth");
    check::in_range(osa.stripe_unit.count(), 4096, 64 << 20, "osa.stripe_unit");
    check::in_range(esa.stripe_unit.count(), 4096, 64 << 20, "esa.stripe_unit");
    if (esa.large_write != EsaSettings::kByRelease) check::in_range(esa.large_write.count(), 0, 64 << 20, "esa.large_write");
    if (esa.client_worlds != EsaSettings::kWorldsByRelease) check::in_range(esa.client_worlds, 1, 64, "esa.client_worlds_per_object");
    check::non_negative(esa.lfs_overhead, "esa.lfs_overhead");
    if (!(osa.dedupe_lookup_miss >= 0 && osa.dedupe_lookup_miss <= 1))
      check::fail("osa.dedupe_lookup_miss", osa.dedupe_lookup_miss, "a probability 0..1");
    if (osa.lsom_worlds_per_dg < 0 || osa.lsom_worlds_per_dg > 64)
      check::fail("osa.lsom_worlds_per_dg", osa.lsom_worlds_per_dg, "0 (shared cores) .. 64");
    check::positive_at_most(osa.lsom_cost_factor, 1000, "osa.lsom_cost_factor");
    // Congestion delay a * exp(b * 255) at full congestion must stay a time (at most 1000 s).
    check::non_negative(osa.congestion_delay_a_us, "osa.congestion_delay_a_us");
    if (!(osa.congestion_delay_b >= 0 && osa.congestion_delay_b <= 0.1))
      check::fail("osa.congestion_delay_b", osa.congestion_delay_b, "0 .. 0.1 (per congestion unit)");
    if (osa.congestion_delay_a_us * std::exp(osa.congestion_delay_b * 255) > 1e9)
      check::fail("osa.congestion_delay_a_us x exp(255 x osa.congestion_delay_b) (us)",
                  osa.congestion_delay_a_us * std::exp(osa.congestion_delay_b * 255),
                  "at most 1e9 us (1000 s of delay at congestion 255)");
    // The hybrid cache keeps a write buffer: its read-cache share is below 1.
    if (!(osa.hybrid_read_cache_share >= 0 && osa.hybrid_read_cache_share <= 0.95))
      check::fail("osa.hybrid_read_cache_share", osa.hybrid_read_cache_share, "0 .. 0.95");
    // Erasure-coding columns are whole 4 KiB blocks.
    if (osa.stripe_unit.count() % 4096 != 0) check::fail("osa.stripe_unit", osa.stripe_unit.count(), "a multiple of 4 KiB");
    if (esa.stripe_unit.count() % 4096 != 0) check::fail("esa.stripe_unit", esa.stripe_unit.count(), "a multiple of 4 KiB");
    try {
      validate_fabric(spec.fabric, static_cast<int>(spec.hosts.size()));
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(std::string("(host.network) ") + e.what());
    }
    // Upper bounds far above any physical value (calibration ranges: gc 1-4, CPU factor
    // 0.3-1, LSOM 0.1-1), low enough that no time or byte count overflows.
    check::positive_at_most(esa.gc_factor, 100, "esa.gc_factor");
    check::positive_at_most(esa.cpu_per_io_factor, 100, "esa.cpu_per_io_factor");
    spec.cpu_costs.validate();
    check::non_negative_at_most(spec.stack_latency_us, 1e6, "stack_latency_us");
    check::non_negative_at_most(spec.client_cache_mb, 1e9, "client_cache_mb");
    // esxcli vsan resync throttle set --level takes 0 (off) .. 512 Mb/s ([S57]).
    if (!(spec.resync.throttle_mbit_s == 0 || (spec.resync.throttle_mbit_s >= 1 && spec.resync.throttle_mbit_s <= 512)))
      check::fail("resync.throttle_mbit_s", spec.resync.throttle_mbit_s, "0 (no cap) or 1 .. 512 Mb/s (esxcli's range)");
    check::in_range(spec.resync.outstanding, 1, 64, "resync.outstanding");
    if (!(osa.destage_idle_fill >= 0 && osa.destage_idle_fill <= osa.destage_start_fill))
      check::fail("osa.destage_idle_fill", osa.destage_idle_fill,
                  "a fill from 0 to osa.destage_start_fill (equal turns the idle drain off)");
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(std::string("cluster ") + e.what());
  }
}

// The failed hosts: hosts of the cluster, each listed once.
void validate_failed_hosts(const ClusterSpec& spec) {
  std::vector<bool> down(spec.hosts.size(), false);
  for (int f : spec.failed_hosts) {
    if (f < 0 || f >= static_cast<int>(spec.hosts.size()))
      reject("failed_hosts",
             "host index " + std::to_string(f) + " is not a host (0.." + std::to_string(spec.hosts.size() - 1) + ")");
    if (down[static_cast<std::size_t>(f)])
      reject("failed_hosts", spec.hosts[static_cast<std::size_t>(f)].name + " is listed twice");
    down[static_cast<std::size_t>(f)] = true;
  }
}

}  // namespace

bool DiskGroupSpec::hybrid() const {
  return !capacity.empty() && capacity.front().device.kind == DeviceKind::hdd;
}

double DiskGroupSpec::write_buffer_bytes(const OsaSettings& osa) const {
  const double cache_bytes = cache.device.capacity_gb * 1e9;
  const double share = hybrid() ? 1.0 - osa.hybrid_read_cache_share : 1.0;
  return std::min(cache_bytes * share, static_cast<double>(osa.write_buffer.count()));
}

const char* vsan_release_name(VsanRelease r) {
  switch (r) {
    case VsanRelease::v7_0: return "7.0";
    case VsanRelease::v7_0u1: return "7.0u1";
    case VsanRelease::v7_0u2: return "7.0u2";
    case VsanRelease::v7_0u3: return "7.0u3";
    case VsanRelease::v8_0: return "8.0";
    case VsanRelease::v8_0u1: return "8.0u1";
    case VsanRelease::v8_0u2: return "8.0u2";
    case VsanRelease::v8_0u3: return "8.0u3";
  }
  return "?";
}

// Unless the scenario states it, one full stripe of the capacity leg (k stripe units; one unit
// for a mirrored capacity leg) from 8.0 U1 on, so a write that fills a stripe by itself takes
// the path ([S248]: the path is for large writes; the size is not published); none on 8.0.
Bytes esa_large_write(const ClusterSpec& spec) {
  if (spec.architecture != Architecture::esa || spec.release < VsanRelease::v8_0u1) return Bytes{0};
  if (spec.esa.large_write != EsaSettings::kByRelease) return spec.esa.large_write;
  const Layout l = spec.layout();
  return Bytes{spec.esa.stripe_unit.count() * (l.erasure_coded() ? l.data : 1)};
}

int esa_client_worlds(const ClusterSpec& spec) {
  if (spec.architecture != Architecture::esa) return 0;
  if (spec.esa.client_worlds != EsaSettings::kWorldsByRelease) return spec.esa.client_worlds;
  return spec.release < VsanRelease::v8_0u2 ? 1 : EsaSettings::kHelperWorlds;
}

void ClusterSpec::validate() const {
  if (hosts.empty()) reject("hosts", "at least one host is needed");
  if (policy.stripe_width < 1 || policy.stripe_width > 12)
    reject("policy.stripe_width", std::to_string(policy.stripe_width) + "; vSAN allows 1 to 12 disk stripes per object");
  if (hosts.size() > 64) reject("hosts", std::to_string(hosts.size()) + " hosts; vSAN clusters hold at most 64");
  for (std::size_t h = 0; h < hosts.size(); ++h) validate_host(*this, h);
  if (architecture == Architecture::esa && services.dedupe)
    reject("services.dedupe", "ESA here compresses only (cluster-wide dedupe is a later vSAN release)");
  if (witness_host && hosts.size() != 2) reject("witness_host", "a witness host is only for 2-node clusters");
  if (architecture == Architecture::esa && release < VsanRelease::v8_0)
    reject("vsan_release", std::string(vsan_release_name(release)) + "; ESA exists from vSAN 8.0 (8.0 .. 8.0u3)");
  if (architecture == Architecture::esa && esa.large_write != EsaSettings::kByRelease && esa.large_write.count() != 0 &&
      release < VsanRelease::v8_0u1)
    reject("esa.large_write_kib", "a large-I/O write path on " + std::string(vsan_release_name(release)) +
                                      "; vSAN 8.0 U1 added it (vsan_release 8.0u1 or later), or 0 for none");
  if (architecture == Architecture::esa && esa.client_worlds > 1 && release < VsanRelease::v8_0u2)
    reject("esa.client_worlds_per_object", std::to_string(esa.client_worlds) + " on " + std::string(vsan_release_name(release)) +
                                               "; an object has one DOM client world before vSAN 8.0 U2 added helper threads "
                                               "(vsan_release 8.0u2 or later)");
  validate_settings(*this);
  if (!(osa.destage_idle_fill >= 0 && osa.destage_idle_fill <= osa.destage_start_fill &&
        osa.destage_start_fill < osa.congestion_start_fill && osa.congestion_start_fill < osa.congestion_full_fill &&
        osa.congestion_full_fill <= 1.0))
    reject("osa", "fill thresholds must satisfy 0 <= destage_idle_fill <= destage_start_fill < "
                  "congestion_start_fill < congestion_full_fill <= 1");
  const Layout l = resolve_layout(policy, architecture, static_cast<int>(hosts.size()), witness_host);
  const std::int64_t stripe = esa.stripe_unit.count() * (l.erasure_coded() ? l.data : 1);
  if (architecture == Architecture::esa && esa.large_write.count() > 0 && esa.large_write.count() < stripe)
    reject("esa.large_write_kib", std::to_string(esa.large_write.count() / 1024) + " KiB; the large-I/O path writes full stripes: 0 (none) or at least one stripe of " + l.describe() + ", " + std::to_string(stripe / 1024) + " KiB");
  if (capacity_reserve == CapacityReserve::reserved && release == VsanRelease::v7_0)
    reject("capacity_reserve", "reserved on vSAN 7.0; Reserved Capacity came with 7.0 U1 (vsan_release 7.0u1 or later), or use slack");
  validate_failed_hosts(*this);
  // Reserved Capacity is not offered on 2-node clusters (capacity.hpp).
  if (capacity_reserve == CapacityReserve::reserved && witness_host)
    reject("capacity_reserve", "reserved is not available on a 2-node cluster (witness_host); use slack");
  const double ratio = services.planned_reduction_ratio;
  if (!(ratio == 0 || (ratio >= 1 && ratio <= 100)))
    reject("services.planned_reduction_ratio", std::to_string(ratio) + "; expected 1..100 (1.5 for 1.5:1), or 0 for none");
  if (ratio > 0 && !services.compression && !services.dedupe)
    reject("services.planned_reduction_ratio", "a ratio with compression and dedupe both off; vSAN reduces nothing then");
  const int tolerated = l.erasure_coded() ? l.parity : l.ftt;
  if (static_cast<int>(failed_hosts.size()) > tolerated)
    reject("failed_hosts", std::to_string(failed_hosts.size()) + " failed hosts; " + l.describe() + " keeps data available through at most " +
                               std::to_string(tolerated) + " (more would leave objects inaccessible)");
}

double ClusterSpec::client_cache_mb_of(std::size_t h) const {
  const double memory_gib = hosts.at(h).memory_gib;
  return memory_gib > 0 ? std::min(client_cache_mb, kClientCacheMemoryShare * memory_gib * 1024.0) : client_cache_mb;
}

Layout ClusterSpec::layout() const {
  return resolve_layout(policy, architecture, static_cast<int>(hosts.size()), witness_host);
}

}  // namespace hcisim
