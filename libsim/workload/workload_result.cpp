// HCIBench-rule statistics over the VMs (workload_result.hpp).
#include "hcisim/workload/workload_result.hpp"

#include <cmath>

#include "hcisim/model/workload/vm_workload.hpp"

namespace hcisim {

WorkloadResult summarize(const VmWorkload& w, Time now) { return summarize(std::vector<const VmWorkload*>{&w}, now); }

WorkloadResult summarize(const std::vector<const VmWorkload*>& loads, Time now) {
  WorkloadResult r;
  if (loads.empty()) return r;
  r.seconds = (now - loads.front()->measured_since()).seconds();
  if (r.seconds <= 0) return r;
  LatencyHistogram pooled[2];
  double mean_sum[2] = {0, 0}, p95_sum[2] = {0, 0}, total_ns = 0;
  int vms_with[2] = {0, 0};
  std::uint64_t ios[2] = {0, 0};
  std::int64_t bytes = 0;
  std::array<std::array<double, kLatencyParts>, 2> split_sum{};   // sum over VMs of each VM's part means, ns
  for (const VmWorkload* w : loads) {
    const bool vdbench = w->spec().tool == WorkloadTool::vdbench;
    for (const VmStats& vm : w->vm_stats()) {
      for (std::size_t op = 0; op < 2; ++op) {
        ios[op] += vm.ios[op];
        bytes += vm.bytes[op];
        total_ns += vm.sum_ns[op];
        pooled[op].merge(vm.latency[op]);
        if (vm.ios[op] == 0) continue;
        const double n = static_cast<double>(vm.ios[op]);
        const double mean = vm.sum_ns[op] / n;
        mean_sum[op] += mean;
        for (std::size_t p = 0; p < kLatencyParts; ++p)
          split_sum[op][p] += static_cast<double>(vm.split[op][p].count_ns()) / n;
        if (vdbench) {
          const double var = std::max(0.0, vm.sum_sq_ns[op] / n - mean * mean);
          p95_sum[op] += mean + 1.645 * std::sqrt(var);
        } else {
          p95_sum[op] += static_cast<double>(vm.latency[op].percentile(0.95).count_ns());
        }
        ++vms_with[op];
      }
    }
  }
  r.read_iops = static_cast<double>(ios[0]) / r.seconds;
  r.write_iops = static_cast<double>(ios[1]) / r.seconds;
  r.iops = r.read_iops + r.write_iops;
  r.throughput_mbps = static_cast<double>(bytes) / r.seconds / (1024.0 * 1024.0);
  r.read_latency_ms = vms_with[0] ? mean_sum[0] / vms_with[0] * 1e-6 : 0;
  r.write_latency_ms = vms_with[1] ? mean_sum[1] / vms_with[1] * 1e-6 : 0;
  r.read_p95_ms = vms_with[0] ? p95_sum[0] / vms_with[0] * 1e-6 : 0;
  r.write_p95_ms = vms_with[1] ? p95_sum[1] / vms_with[1] * 1e-6 : 0;
  r.simulated_ios = ios[0] + ios[1];
  for (std::size_t op = 0; op < 2; ++op)
    for (std::size_t p = 0; p < kLatencyParts; ++p)
      r.split_ms[op][p] = vms_with[op] ? split_sum[op][p] / vms_with[op] * 1e-6 : 0;
  r.pooled_latency_ms = r.simulated_ios ? total_ns / static_cast<double>(r.simulated_ios) * 1e-6 : 0;
  r.pooled_read_p95_ms = pooled[0].percentile(0.95).ms();
  r.pooled_write_p95_ms = pooled[1].percentile(0.95).ms();
  r.read_p99_ms = pooled[0].percentile(0.99).ms();
  r.write_p99_ms = pooled[1].percentile(0.99).ms();
  for (const VmWorkload* w : loads) r.outstanding_io += w->mean_in_flight();
  return r;
}

}  // namespace hcisim
