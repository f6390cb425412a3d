// Everything that defines a simulated cluster: architecture, hosts (CPU, OSA disk groups or
// an ESA storage pool), the fabric, the policy, data services and the software parameters of
// the OSA write buffer / destager / congestion controller and the ESA log-structured layer.
// validate() rejects impossible layouts before a run, naming the field and the rule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hcisim/core/units.hpp"
#include "hcisim/hw/cpu_spec.hpp"
#include "hcisim/hw/device_spec.hpp"
#include "hcisim/hw/network_spec.hpp"
#include "hcisim/storage/policy.hpp"

namespace hcisim {

/// A device and how it is attached.
struct DriveSpec {
  DeviceSpec device;
  ConnectionSpec connection;
};

/// OSA: one cache device + 1..7 capacity devices ([S6]).
struct OsaSettings;

struct DiskGroupSpec {
  DriveSpec cache;
  std::vector<DriveSpec> capacity;
  /// Hybrid when the capacity devices are disks: the cache is then 70 % read cache.
  bool hybrid() const;
  /// The write buffer's bytes: all-flash, the whole cache device up to the logical limit
  /// (OsaSettings::write_buffer, 600 GB); hybrid, its write share (30 %), up to the same limit.
  double write_buffer_bytes(const OsaSettings& osa) const;
};

struct HostSpec {
  std::string name;
  CpuSpec cpu;                          // sockets set here
  std::vector<DiskGroupSpec> disk_groups;   // OSA only, 1..5
  std::vector<DriveSpec> pool;              // ESA only: the host's NVMe devices
  /// The host's memory in GiB (as DIMMs are counted: 64 for 64 GB); 0 = not stated. It sizes
  /// the DOM client cache (ClusterSpec::client_cache_mb_of).
  double memory_gib = 0;
  /// memory_gib's rule: 0 (not stated) or 1 .. 65536 GiB (the largest servers hold 24-32 TiB).
  static constexpr bool memory_gib_allowed(double gb) { return gb == 0 || (gb >= 1 && gb <= 65536); }
};

/// Where an OSA disk group's elevator reduces (dedupes, compresses) what it destages.
enum class DestageReduction : std::uint8_t { world, shared };

/// OSA write buffer, destage and congestion parameters ([S6] [S12]).
/// Values VMware does not publish are marked as calibration parameters.
struct OsaSettings {
  Bytes write_buffer = Bytes{600'000'000'000};   // logical write buffer per disk group (600 GB; 1.6 TB selectable)
  double hybrid_read_cache_share = 0.70;         // hybrid cache split: 70 % read cache / 30 % write buffer
  Bytes read_cache_line = Bytes{1 << 20};        // hybrid read cache line (1 MB)
  // Destage elevator (calibration parameters; VMware's thresholds are not published):
  double destage_start_fill = 0.30;              // destage runs above this buffer fill ...
  // ... and, one batch per capacity device at a time, down to this when no write has come
  // for destage_idle_after. ASSUMED (no source gives either): an elevator that empties the
  // buffer between bursts is what a write buffer is for, and VMware's all-flash read path
  // leaves reads to the capacity tier ([S24]); destage_idle_fill equal to
  // destage_start_fill turns the idle drain off. It moves only workloads without writes
  // (seed 003's 4K read rows, seed 004's read-only sweep cases).
  double destage_idle_fill = 0.05;
  Time destage_idle_after = Time::ns(1'000'000'000);
  int destage_batch_blocks = 64;                 // 4 KiB blocks per elevator batch
  int destage_depth = 8;                         // concurrent destage I/Os per capacity device
  // Congestion (0..255 per disk group), delay = a * exp(b * congestion) at the DOM client:
  double congestion_start_fill = 0.70;           // congestion rises from 0 at this fill ...
  double congestion_full_fill = 0.95;            // ... to 255 here
  // a: a calibration parameter. A scenario takes data/calibration.yaml's value (20 us); 1 us
  // is what a ClusterSpec built in code starts from (the unit tests' clusters rely on it).
  double congestion_delay_a_us = 1.0;
  double congestion_delay_b = 0.035;
  Bytes stripe_unit = Bytes{1 << 20};            // erasure-coding column width
  // Dedupe keeps a hash/translation map on the capacity devices: a read from capacity first
  // looks its block up there, missing the in-memory part of the map with this probability
  // (one extra 4 KiB capacity read, before the data read). A calibration parameter.
  double dedupe_lookup_miss = 0.0;
  // LSOM worlds per disk group: when > 0, each disk group's LSOM work (the component stage of
  // every operation on it, and the destage elevator's fingerprinting and compression) runs
  // on this many servers of its own instead of the host's shared cores, so a disk group can
  // saturate while the host has idle cores. VMware measured a second disk group per host
  // roughly doubling a cluster's performance, with host and network not the limit ("How To
  // Double Your VSAN Performance", vSphere blog, 2015-03 [S33]); [S9] [S14]: dedupe and
  // compression run per disk group in the software-limited destage path ("fast NVMe caches can
  // out-run destage"). 0: the shared cores. One world, the default, chosen from the fit
  // (docs/accuracy.md): a world is one FIFO server, so a write's component work can wait
  // behind one elevator batch (the elevator hands it one at a time) and a disk group's
  // operations are capped by one core. Like the
  // other OsaSettings it has no effect on ESA clusters (so one --set can apply to every
  // scenario of an accuracy or calibration run).
  int lsom_worlds_per_dg = 1;
  // Scales the per-operation work those worlds do (the component and destage-batch costs of
  // CpuCosts) relative to the same stages on shared cores; their per-KiB work (dedupe
  // fingerprints, compression) runs at the algorithms' own rates. A calibration parameter.
  double lsom_cost_factor = 1.0;
  // Where the elevator's data reduction (SHA-1 fingerprints, LZ4) runs when the group has an
  // LSOM world (key cluster.osa.destage_reduction): on that world with the batch's
  // per-operation work (world, the default), or on the host's shared cores, in FIFO order with
  // their other work, before the batch's per-operation work takes the world (shared: helper
  // threads). ASSUMED: VMware publishes neither; the world is kept by the fit's loss
  // (docs/accuracy.md, "Where the elevator's data reduction runs", shows seed 000 under both).
  DestageReduction destage_reduction = DestageReduction::world;
};

/// ESA log-structured layer parameters ([S41] [S44]).
struct EsaSettings {
  double lfs_overhead = 0.131;                   // log-structured capacity overhead [S44]
  double gc_factor = 1.0;                        // segment-cleaning write amplification g (calibration)
  Bytes stripe_unit = Bytes{128 * 1024};         // capacity-leg column width
  // ESA's log-structured back end (zDOM/LFS, the component stage) per operation relative to the
  // component's base cost (CpuCosts::component_us); its DOM client and owner cost what OSA's do
  // (ASSUMED). What VMware names of ESA's saving per I/O, data services done once at the source
  // ([S42]), are their own stages. Calibration (ASSUMED 0.3-1).
  double cpu_per_io_factor = 1.0;
  // The large-I/O write path of vSAN 8.0 U1 and later ([S43] [S248]): a write of at least this
  // size skips the performance leg's durable log and is written straight to the capacity leg as
  // full stripes. kByRelease: one full stripe of the capacity leg from 8.0 U1, none on 8.0
  // (EsaBackEnd::build resolves it); 0: no large-I/O path.
  Bytes large_write = kByRelease;
  static constexpr Bytes kByRelease = Bytes{-1};
  // The worlds that run one object's DOM client work (the client's per-I/O work and the data
  // services at the source) on the VM's host: its I/O takes them one job per world at a time.
  // Before 8.0 U2 one world: 8.0 U2 added helper threads to the object manager client to raise
  // one object's parallelism ([S250]; one world before is the model's reading of that change).
  // From 8.0 U2 more, their number unpublished; a stated number above 1 needs 8.0 U2.
  // kWorldsByRelease: 1 before 8.0 U2, kHelperWorlds from it (esa_client_worlds).
  int client_worlds = kWorldsByRelease;
  static constexpr int kWorldsByRelease = -1;
  static constexpr int kHelperWorlds = 4;   // ASSUMED (2 .. 8): VMware gives no count
};

/// The vSAN release whose behaviour the cluster has: the mechanisms the sources say a
/// release changed (EsaSettings::large_write: 8.0 U1's large-I/O write path) follow it.
enum class VsanRelease : std::uint8_t { v7_0, v7_0u1, v7_0u2, v7_0u3, v8_0, v8_0u1, v8_0u2, v8_0u3 };
/// "7.0" .. "8.0u3", as the key cluster.vsan_release takes them.
const char* vsan_release_name(VsanRelease r);

struct ClusterSpec;
/// The write size from which an ESA write takes the large-I/O path (EsaSettings::large_write
/// resolved by release and layout); 0: none (OSA, a release before 8.0 U1, or stated 0).
Bytes esa_large_write(const ClusterSpec& spec);
/// The worlds that run one ESA object's DOM client work (EsaSettings::client_worlds resolved
/// by release); 0 on OSA (no per-object limit modelled there).
int esa_client_worlds(const ClusterSpec& spec);

/// Rebuilding the components of failed hosts ([S32] [S53]). A host that
/// fails leaves its components absent, rebuilt only after the 60-minute repair delay; a run
/// with `active` false models that first hour, one with `active` true the rebuild after it.
struct ResyncSettings {
  bool active = false;           // rebuild absent components during the run
  double throttle_mbit_s = 0;    // cap on each host's resync traffic, Mbit/s (esxcli vsan resync
                                 // throttle set --level; 0 = no cap)
  int outstanding = 4;           // resync copies in flight per rebuilding host (our assumption;
                                 // vSAN's adaptive resync scheduler is not modelled)
};

/// Data services of the cluster. The workload says how compressible / dedupable its data
/// is; these say whether the cluster reduces it.
struct DataServices {
  bool compression = false;
  bool dedupe = false;                           // OSA all-flash only (ESA: compression only here)
  double planned_reduction_ratio = 0;            // capacity only: a planner's ratio (1.5 for 1.5:1)
                                                 // instead of the one the workload's data gives; 0: none
};

/// How much raw capacity is held back from VM data (storage/capacity.hpp).
enum class CapacityReserve : std::uint8_t {
  slack,      // vSAN 7.0 and earlier: max(30 % of raw, largest host + 5 %)
  reserved,   // vSAN 7 U1+ and ESA "Reserved Capacity": operations reserve + host rebuild reserve
};

struct ClusterSpec {
  // Set by Calibration::apply_settings, which scales the CPU costs: a cluster is calibrated
  // once (a what-if on a calibrated scenario's cluster must not scale them again).
  bool calibrated = false;
  Architecture architecture = Architecture::osa;
  std::vector<HostSpec> hosts;
  bool witness_host = false;                     // 2-node: a separate witness appliance
  FabricSpec fabric;
  NetworkConfig network;
  CpuCosts cpu_costs;
  StoragePolicy policy;
  DataServices services;
  OsaSettings osa;
  EsaSettings esa;
  VsanRelease release = VsanRelease::v8_0u3;     // key cluster.vsan_release
  /// Software latency of the vSAN stack per I/O that is neither CPU, device nor wire time
  /// (thread hand-offs, polling, completion paths), added once per I/O at the DOM client.
  /// A calibration parameter (data/calibration.yaml); 0 when uncalibrated.
  double stack_latency_us = 0;
  /// The in-memory DOM client read cache of each host: from vSAN 6.2 on it takes "0.4 % up to
  /// 1GB of DRAM per host" (VMware, "The data locality discussion revisited, part 2",
  /// Virtual Blocks blog, 2016-06); that later releases and ESA keep the rule is ASSUMED (no
  /// later figure was found). This is that maximum: a host whose memory_gib is stated
  /// gets 0.4 % of its memory up to it, one whose memory is not stated gets all of it (the
  /// rule's value from 250 GiB of memory up). 0 turns the cache off. A read from a VM hits
  /// it with probability cache / (working set of that host's VMDKs).
  double client_cache_mb = 1024;
  /// The share of a host's memory the client cache takes, up to client_cache_mb.
  static constexpr double kClientCacheMemoryShare = 0.004;
  /// Host h's client cache in MiB: min(0.4 % of its memory, client_cache_mb), or
  /// client_cache_mb when its memory is not stated.
  double client_cache_mb_of(std::size_t h) const;
  /// Hosts that are down (indices into `hosts`): the cluster runs degraded. Their components
  /// are absent ([S53]): RAID-1 reads and writes use the surviving
  /// replicas; an erasure-coded read of a lost column reads k surviving units of its row
  /// and a write to it updates the parities from the row's other data ([S51]: a degraded
  /// erasure-coded read takes k reads); their VMs run on the surviving hosts (vSphere HA restarts them).
  /// At most the policy's failures to tolerate (FTT, or m for RAID-5/6).
  std::vector<int> failed_hosts;
  CapacityReserve capacity_reserve = CapacityReserve::slack;
  ResyncSettings resync;

  /// Throws InvalidArgument naming the field (e.g. "hosts[2].disk_groups[0].capacity") and
  /// the rule, for any layout vSAN would not allow.
  void validate() const;
  /// The policy resolved for this cluster (validate() first).
  Layout layout() const;
};

}  // namespace hcisim
