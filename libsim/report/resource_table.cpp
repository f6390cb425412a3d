// Text rendering of the per-host resource table (report/run_result.hpp): busy cores against
// the host's cores, then HCIBench's columns (vCenter's cpu.usage% and cpu.utilization%, and
// mem.usage%), and a legend saying what each CPU column measures.
#include "hcisim/report/run_result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hcisim {

namespace {

std::string fixed2(double v) {
  if (v < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// "4.24 / 8": busy cores with two decimals over the host's cores (three figures for a mean
// over hosts that differ: "9.33").
std::string busy_over_cores(double busy, double cores) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f / %.3g", busy, cores);
  return buf;
}

// What the columns measure. Hyper-threading is counted as the model runs it (HostCpu): a
// core's threads together do ht_throughput of a core's work, so busy cores may exceed the
// cores (a core pinned to an LSOM world runs one thread); the NIC receive queues' threads
// are stations of their own, so they may add a little beyond.
std::string legend(const std::vector<HostResourceRow>& rows) {
  std::string ht;
  for (const HostResourceRow& r : rows)
    if (r.cpu_cores > 0 && r.cpu_core_capacity > r.cpu_cores) {
      ht = "; with hyper-threading a core's threads together do more than one thread's work (docs/sources.md "
           "[S80]), so busy cores may exceed the cores";
      break;
    }
  return "busy cores: full-speed thread time per second summed over the stages (CPU by stage) against the host's "
         "physical cores" + ht + ".\n"
         "cpu.usage% and cpu.utilization% are vCenter's counters, as HCIBench reports them: frequency-based over "
         "the cores (one busy thread per core reads 100 %) and time-based over the threads (docs/sources.md [S78]).\n";
}

}  // namespace

std::string busy_cores_text(const HostResourceRow& h) {
  char buf[160];
  if (h.cpu_cores > 0 && h.cpu_core_capacity > h.cpu_cores)
    std::snprintf(buf, sizeof buf, "%.2f of %d cores busy (%.0f %% of the %g they do with hyper-threading)",
                  h.busy_cores(), h.cpu_cores, 100 * h.busy_share(), h.cpu_core_capacity);
  else
    std::snprintf(buf, sizeof buf, "%.2f of %d cores busy (%.0f %%)", h.busy_cores(), h.cpu_cores, 100 * h.busy_share());
  std::string out = buf;
  // Full shared cores beside idle pinned ones: the work waits for the shared cores.
  if (h.shared_thread_share > std::min(1.0, h.busy_share()) + 0.05)
    out += "; its shared cores' threads " + std::to_string(std::lround(100 * h.shared_thread_share)) +
           " % busy, the cores pinned to LSOM worlds less";
  return out;
}

double pooled_percentile_ms(const LatencyHistogram (&pooled)[2], double q) {
  LatencyHistogram all = pooled[0];
  all.merge(pooled[1]);
  return all.percentile(q).seconds() * 1e3;
}

std::string format_resource_table(const std::vector<HostResourceRow>& rows) {
  constexpr std::size_t kColumns = 5;
  const std::vector<std::string> head = {"Host", "busy cores / cores", "cpu.usage%", "cpu.utilization%", "mem.usage%"};
  std::vector<std::vector<std::string>> cells;
  double sum[5] = {0, 0, 0, 0, 0};
  bool mem_known = !rows.empty();
  for (const auto& r : rows) {
    cells.push_back({r.host, busy_over_cores(r.busy_cores(), r.cpu_cores), fixed2(r.cpu_usage_pct),
                     fixed2(r.cpu_utilization_pct), fixed2(r.mem_usage_pct)});
    sum[0] += r.busy_cores();
    sum[1] += r.cpu_cores;
    sum[2] += r.cpu_usage_pct;
    sum[3] += r.cpu_utilization_pct;
    sum[4] += r.mem_usage_pct;
    mem_known = mem_known && r.mem_usage_pct >= 0;
  }
  const double n = rows.empty() ? 1.0 : static_cast<double>(rows.size());
  const std::vector<std::string> avg = {"Average", busy_over_cores(sum[0] / n, sum[1] / n), fixed2(sum[2] / n),
                                        fixed2(sum[3] / n), mem_known ? fixed2(sum[4] / n) : "-"};
  std::size_t width[kColumns];
  for (std::size_t c = 0; c < kColumns; ++c) {
    width[c] = std::max(head[c].size(), avg[c].size());
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  std::string rule = "+";
  for (std::size_t w : width) rule += std::string(w + 2, '-') + "+";
  auto line = [&](const std::vector<std::string>& row) {
    std::string s = "|";
    for (std::size_t c = 0; c < kColumns; ++c) s += " " + row[c] + std::string(width[c] - row[c].size(), ' ') + " |";
    return s + "\n";
  };
  std::string out = rule + "\n" + line(head) + rule + "\n";
  for (const auto& row : cells) out += line(row);
  return out + rule + "\n" + line(avg) + rule + "\n" + legend(rows);
}

}  // namespace hcisim
