// Everything a report needs from one run: HCIBench-rule results, per-host CPU, utilisation
// per resource class and the bottleneck, capacity, exact operation counts, pooled latency
// histograms and DiskSpd per-thread counts. Filled by scenario/simulation.
//
// HCIBench's "Resource Utilization" table (seed 000_9809ee29a465ffea.txt [S1] shows one): one row
// per host with cpu.usage%, cpu.utilization% and mem.usage%, then an Average row; the model's
// own measure, busy cores against the host's cores, in a column before vCenter's counters.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "hcisim/core/latency_histogram.hpp"
#include "hcisim/hw/cpu_spec.hpp"
#include "hcisim/report/cost.hpp"
#include "hcisim/storage/capacity.hpp"
#include "hcisim/storage/io_counters.hpp"
#include "hcisim/workload/workload_result.hpp"
#include "hcisim/workload/workload_spec.hpp"

namespace hcisim {

struct HostResourceRow {
  std::string host;
  double cpu_usage_pct = 0;         // HostCpu::usage_pct()
  double cpu_utilization_pct = 0;   // HostCpu::utilization_pct()
  double mem_usage_pct = -1;        // < 0: not modelled, printed as "-"
  double client_cache_mb = 0;       // the DOM client cache (ClusterSpec::client_cache_mb_of)
  /// Where the CPU went: core-seconds per second of each stage (CpuStage order) charged in
  /// the measured window, at a thread's full speed (HostCpu::stage_time), LSOM worlds included.
  std::array<double, kCpuStages> stage_cores{};
  int cpu_cores = 0;                // the host's physical cores (CpuSpec::cores)
  /// The most full-speed thread time the cores give per second (HostCpu::full_speed_capacity):
  /// with hyper-threading the shared cores x ht_throughput (two threads on a core each run at
  /// 62.5 % of it, docs/sources.md [S80]), else the cores; a core pinned to an OSA LSOM world
  /// counts one thread.
  double cpu_core_capacity = 0;
  /// The shared (unpinned) cores' threads' busy share, 0..1 (HostCpu::cores): work queues for
  /// them when it is 1, however idle the cores pinned to LSOM worlds are.
  double shared_thread_share = 0;

  /// The host's CPU as busy cores: full-speed thread time per second summed over the stages
  /// (what "CPU by stage" adds up), pinned LSOM worlds and receive queues included.
  double busy_cores() const {
    double sum = 0;
    for (double c : stage_cores) sum += c;
    return sum;
  }
  /// busy_cores() over cpu_core_capacity (0 when the capacity is unknown): what the
  /// bottleneck compares for a host's CPU.
  double busy_share() const { return cpu_core_capacity > 0 ? busy_cores() / cpu_core_capacity : 0.0; }
  /// The CPU's share as the bottleneck ranks it: busy cores over what the cores do, or the
  /// shared cores' threads' share when that is higher (pinned cores cannot take their work).
  double cpu_share() const { return std::max(std::min(1.0, busy_share()), shared_thread_share); }
};

/// "7.10 of 8 cores busy (71 % of the 10 they do with hyper-threading)": the busy cores
/// the resource table shows, against the host's cores and what they do at most.
std::string busy_cores_text(const HostResourceRow& h);

/// The table as fixed-width text, figures with two decimals, ending in an Average row, and
/// a legend saying what each CPU column measures.
std::string format_resource_table(const std::vector<HostResourceRow>& rows);

/// The q-quantile (0..1) of every I/O, reads and writes pooled (`pooled` by IoOp), in ms: the
/// statistic knee's --p95-ms bounds.
double pooled_percentile_ms(const LatencyHistogram (&pooled)[2], double q);

/// Utilisation of one class of resources: the mean and the busiest member.
struct ResourceClassUse {
  std::string name;        // "cpu", "cache_device", "capacity_device", "pool_device", "network_port"
  double mean = 0;         // 0..1
  double max = 0;
  std::string busiest;     // which member
};

/// One resource as a queueing station, for the analytic path (plan/analytic.hpp): its
/// servers at full speed and the mean number busy over the measured window (utilisation law:
/// demand per I/O = busy / IOPS).
struct StationUse {
  std::string name;        // e.g. "esx01/cpu", "esx02/lexar-nm620-2tb", "esx01->switch"
  int servers = 1;         // a host's CPU: its shared cores x hyper-threading's throughput
  double busy = 0;
};

/// How long the run was and why (WorkloadSpec::auto_duration).
struct RunLength {
  bool automatic = false;
  double warmup_s = 0;        // the configured warm-up
  double pilot_s = 0;         // auto: the pilot after it, until MSER found the rate settled
  bool settled = true;        // auto: MSER found the end of the warm-up within the cap
  double measured_s = 0;
  double target_pct = 0;      // auto: the half-width target
  bool target_met = true;     // auto: both half-widths within the target (else the cap stopped it)
};

/// What was run, for outputs that must stand on their own (a notebook row, a JSON file).
struct RunInputs {
  std::string source;          // the scenario file, "<built-in default>" or "<built in code>"
  std::string architecture;    // "OSA" or "ESA"
  std::string vsan_release;    // cluster.vsan_release, e.g. "8.0u3"
  // The VsanIOLatencyType counters of a read, of a write through the performance leg and of a
  // write on ESA's large-I/O path (latency_split.hpp).
  VsanCounters read_counters = VsanCounters::none, write_counters = VsanCounters::none,
               large_write_counters = VsanCounters::none;
  int hosts = 0;
  std::string layout;          // the policy resolved on the hosts, e.g. "RAID-6 4+2 (FTT 2)"
  std::string workload;        // WorkloadSpec::describe()
  std::vector<std::string> warnings;   // the scenario's (Scenario::warnings)
};

/// One batch of the measured window: what a planner plots over time (a resync, a buffer
/// filling). A fixed window has 128 equal batches; an automatic one, the batches it ran.
struct TimelinePoint {
  double end_s = 0;            // simulated time at the batch's end (warm-up and pilot included)
  double iops = 0;             // guest I/Os completed in the batch per second
  double mean_latency_ms = 0;  // their mean latency (0 when none completed)
  double resync_done_gb = 0;   // resync copied so far (ResyncStatus::done_bytes, 1e9 bytes)
};

/// One OSA disk group's write buffer at the end of the measured window (WriteBuffer): what
/// decides whether its writes coalesce, destage or are held back by congestion.
struct WriteBufferState {
  std::string name;                // host/dgN
  double buffer_gb = 0;            // the write buffer (1e9 bytes)
  double working_set_gb = 0;       // the address space its components serve
  double fill = 0;                 // dirty bytes / buffer, 0..1
  double read_hit_share = 0;       // a read finds its block here: dirty bytes / working set
  double congestion = 0;           // vSAN's 0..255 scale
  double congestion_delay_ms = 0;  // injected at the DOM client per write to this group
};

/// One workload group's results (Scenario::groups), by HCIBench's rules over its own VMs.
struct GroupResult {
  std::string name;
  std::string workload;            // WorkloadSpec::describe()
  int vms = 0;
  int configured_outstanding = 0;
  double iops_limit_per_vm = 0;    // its open-loop rate (0: a closed loop)
  WorkloadResult result;           // without intervals (the run's are over all groups)
  LatencyHistogram pooled[2];      // by IoOp, its I/Os over the measured window
  GuestOs guest_os = GuestOs::linux_os;   // its VMs' OS (WorkloadSpec::guest_os)
};

struct RunResult {
  std::string scenario;
  std::string job_name;
  std::string version;
  RunInputs inputs;
  std::uint64_t seed = 0;
  std::uint64_t replication = 0;
  WorkloadSpec workload;
  int vms = 0;
  int configured_outstanding = 0;   // VMs x VMDKs x outstanding per VMDK
  WorkloadResult result;                // over every VM (all groups)
  std::vector<GroupResult> groups;      // per workload group; empty for one workload
  std::vector<HostResourceRow> hosts;   // the hosts that are up
  std::vector<std::string> failed_hosts;   // ClusterSpec::failed_hosts, by name
  bool resync_active = false;             // ResyncSettings::active
  ResyncStatus resync;                    // at the end of the run
  std::vector<ResourceClassUse> resources;
  std::vector<StationUse> stations;       // every resource of the hosts that are up
  std::vector<WriteBufferState> write_buffers;   // OSA: each disk group of the hosts that are up
  std::string bottleneck;           // the class whose busiest member is busiest: "class (member)"
  std::string bottleneck_detail;    // when it is a CPU: busy_cores_text of that host
  CapacityReport capacity;
  ClusterCost cost;                 // every host of the scenario, failed ones included
  IoCounters counters;
  LatencyHistogram pooled[2];       // by IoOp, over the measured window
  std::vector<ThreadStats> threads;
  RunLength length;
  std::vector<TimelinePoint> timeline;
  double simulated_seconds = 0;     // warm-up + pilot + measured
  double wall_seconds = 0;
  // What the measured window left undefined (no I/O at all, an operation the workload issues
  // or a workload group that completed none) or showed the answer to rest on (an assumed
  // number of ESA DOM client worlds that binds), also in inputs.warnings; printed under the
  // result block.
  std::vector<std::string> window_warnings;

  /// A resource class by name: "cpu", "cache_device", "capacity_device", "pool_device",
  /// "lsom", "network_port", "rx_queue", "object_client"; nullptr when the cluster has none of
  /// that class.
  const ResourceClassUse* resource(std::string_view name) const {
    for (const ResourceClassUse& c : resources)
      if (c.name == name) return &c;
    return nullptr;
  }
  /// A host's CPU row by host name; nullptr for an unknown or failed host.
  const HostResourceRow* host(std::string_view name) const {
    for (const HostResourceRow& h : hosts)
      if (h.host == name) return &h;
    return nullptr;
  }
};

}  // namespace hcisim
