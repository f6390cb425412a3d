// What a run measured at the VMs, computed with HCIBench's own rules (parseFioResult.rb
// and parseVdbResult.rb, docs/sources.md [S89]): IOPS = sum over VMs; THROUGHPUT = sum of bandwidth in MiB/s (HCIBench labels it
// MB/s); R_LATENCY / W_LATENCY = unweighted mean over VMs of each VM's mean latency;
// 95%tile_R/W_LAT = mean over VMs of each VM's p95 (for vdbench: mean + 1.645 stddev per
// VM, vdbench's normal approximation). Pooled percentiles over all I/Os are reported too.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hcisim/core/confidence_interval.hpp"
#include "hcisim/core/units.hpp"
#include "hcisim/storage/latency_split.hpp"

namespace hcisim {

struct WorkloadResult {
  double seconds = 0;               // measured window
  double iops = 0;
  double read_iops = 0;
  double write_iops = 0;
  double throughput_mbps = 0;       // MiB/s, HCIBench's "MB/s"
  double read_latency_ms = 0;       // HCIBench: mean over VMs of VM means
  double write_latency_ms = 0;
  double read_p95_ms = 0;           // HCIBench: mean over VMs of VM p95
  double write_p95_ms = 0;
  double pooled_latency_ms = 0;     // mean over all I/Os
  double pooled_read_p95_ms = 0;
  double pooled_write_p95_ms = 0;
  double read_p99_ms = 0;           // pooled
  double write_p99_ms = 0;
  // Where the time went (latency_split.hpp), by IoOp, ms: each part by HCIBench's rule for the
  // mean (over VMs, of each VM's mean), so an op's parts sum to read_ / write_latency_ms.
  std::array<std::array<double, kLatencyParts>, 2> split_ms{};
  double outstanding_io = 0;        // time-average I/Os in flight (Little's law: = iops x latency)
  std::uint64_t simulated_ios = 0;  // completions in the window
  // 95 % confidence intervals by batch means (model/core/batch_means.hpp) of the completion rate and
  // of the mean latency over all I/Os completed in the window. They count I/Os by completion
  // time; `iops` counts those issued in the window, which differs by about the mean latency
  // over the window length.
  ConfidenceInterval iops_ci;
  ConfidenceInterval latency_ci_ms;
};

/// Per DiskSpd-style thread (VMDK x thread) counts since the warm-up cut.
struct ThreadStats {
  int vm = 0;
  int vmdk = 0;
  int thread = 0;
  std::uint64_t ios[2] = {0, 0};
  std::int64_t bytes[2] = {0, 0};
  double sum_ns[2] = {0, 0};
  double sum_sq_ns[2] = {0, 0};
};

class VmWorkload;
/// The HCIBench-rule results of `workload`'s VMs since its warm-up cut, at `now`.
WorkloadResult summarize(const VmWorkload& workload, Time now);
/// The same over the VMs of several workloads on one cluster (groups), measured from one cut.
WorkloadResult summarize(const std::vector<const VmWorkload*>& workloads, Time now);

}  // namespace hcisim
