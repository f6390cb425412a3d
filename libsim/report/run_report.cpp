// Text, JSON and CSV renderings of a run (run_report.hpp).
#include "hcisim/report/run_report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "hcisim/model/report/text_escape.hpp"

namespace hcisim {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// The host CPU split by stage, cores per host averaged over the hosts (stages that took
// less than 0.005 of a core left out).
std::string cpu_stage_line(const std::vector<HostResourceRow>& hosts) {
  if (hosts.empty()) return "";
  std::string line = "CPU by stage (cores per host, full-speed thread time):";
  bool any = false;
  for (int st = 0; st < kCpuStages; ++st) {
    double sum = 0;
    for (const HostResourceRow& h : hosts) sum += h.stage_cores[static_cast<std::size_t>(st)];
    const double mean = sum / static_cast<double>(hosts.size());
    if (mean < 0.005) continue;
    line += std::string(any ? ", " : " ") + cpu_stage_name(static_cast<CpuStage>(st)) + " " + fmt("%.2f", mean);
    any = true;
  }
  return any ? line + "\n" : "";
}

// Resync's copy rate over the measured window, MB/s (0 when none ran).
double resync_rate_mbps(const RunResult& r) {
  return r.result.seconds > 0 ? static_cast<double>(r.counters.resync_bytes) / 1e6 / r.result.seconds : 0.0;
}

// The OSA write buffers at the end of the window, in one line (empty for ESA): how full they
// are against their working sets, and the most congested one with the delay its writes get.
std::string write_buffer_line(const RunResult& r) {
  if (r.write_buffers.empty()) return "";
  double lo = 1, hi = 0, sum = 0, set_lo = 1e300, set_hi = 0;
  const WriteBufferState* worst = &r.write_buffers.front();
  for (const WriteBufferState& b : r.write_buffers) {
    lo = std::min(lo, b.fill);
    hi = std::max(hi, b.fill);
    sum += b.fill;
    const double set = b.buffer_gb > 0 ? b.working_set_gb / b.buffer_gb : 0.0;
    set_lo = std::min(set_lo, set);
    set_hi = std::max(set_hi, set);
    if (b.congestion > worst->congestion) worst = &b;
  }
  const double n = static_cast<double>(r.write_buffers.size());
  const auto span = [](double a, double b) {
    const std::string x = fmt("%.0f", 100 * a), y = fmt("%.0f", 100 * b);
    return x == y ? x : x + "-" + y;
  };
  const std::string fill = span(lo, hi);
  std::string out = "Write buffers at the end: fill " + fill + " %" +
                    (fill.find('-') == std::string::npos ? "" : " (mean " + fmt("%.0f", 100 * sum / n) + " %)") +
                    ", working sets " + span(set_lo, set_hi) + " % of the buffer; ";
  out += worst->congestion > 0 ? "congestion up to " + fmt("%.0f", worst->congestion) + " at " + worst->name + " (" +
                                     fmt("%.3g", worst->congestion_delay_ms) + " ms added per write)\n"
                               : "no congestion\n";
  return out;
}

// Where the time went (WorkloadResult::split_ms): each op's mean latency (HCIBench's rule) and
// its non-zero parts; `means` names that mean as the report calls it.
std::string split_line(const WorkloadResult& w, const char* means) {
  std::string out;
  for (std::size_t op = 0; op < 2; ++op) {
    if ((op == 0 ? w.read_iops : w.write_iops) <= 0) continue;
    double total = 0;
    for (double v : w.split_ms[op]) total += v;
    out += out.empty() ? std::string("Latency split (ms, ") + means + "): " : "; ";
    out += (op == 0 ? "read " : "write ") + fmt("%.3f", total) + " =";
    bool first = true;
    for (std::size_t p = 0; p < kLatencyParts; ++p) {
      if (w.split_ms[op][p] < 0.0005) continue;
      out += std::string(first ? " " : " + ") + latency_part_label(p) + " " + fmt("%.3f", w.split_ms[op][p]);
      first = false;
    }
  }
  return out.empty() ? out : out + "\n";
}

// The degraded-cluster line of the text report (empty when every host is up).
std::string failed_line(const RunResult& r) {
  if (r.failed_hosts.empty()) return "";
  std::string names;
  for (const std::string& h : r.failed_hosts) names += (names.empty() ? "" : ", ") + h;
  std::string out = "Failed hosts: " + names + " (degraded: their components are absent, their VMs run on the other hosts)\n";
  const ResyncStatus& rs = r.resync;
  if (!r.resync_active)
    return out + "Resync: not running (vSAN waits 60 minutes before rebuilding a failed host's components; "
                 "cluster.resync.active: true models the rebuild)\n";
  const double rate = resync_rate_mbps(r);
  const double left_mb = static_cast<double>(rs.total_bytes - rs.done_bytes) / 1e6;
  out += "Resync: " + fmt("%.0f", rs.rebuilt) + " of " + fmt("%.0f", rs.components) + " absent components rebuilt, " +
         fmt("%.1f", static_cast<double>(rs.done_bytes) / 1e9) + " of " + fmt("%.1f", static_cast<double>(rs.total_bytes) / 1e9) +
         " GB copied; " + fmt("%.0f", rate) + " MB/s in the measured window";
  if (left_mb > 0 && rate > 0) out += ", about " + fmt("%.0f", left_mb / rate) + " s left at that rate";
  if (rs.stranded > 0) out += "; " + fmt("%.0f", rs.stranded) + " stay absent (no host without a component of their object)";
  return out + "\n";
}

// A double for JSON/CSV.
std::string num(double v) { return json_number(v); }
// A CSV cell: empty where JSON says null (an unpriced cost).
std::string csv_number(double v) { return std::isfinite(v) ? json_number(v) : std::string(); }

// "+- 0.42 %" (or "no interval": too few batches).
std::string pm(const ConfidenceInterval& ci) {
  if (!(ci.mean > 0)) return "no interval (a mean of 0)";
  if (!std::isfinite(ci.half_width)) return "no interval (too few batches)";
  return "+- " + fmt("%.2f", 100 * ci.relative()) + " %";
}

// The intervals and, for duration_s: auto, how the run length was found.
std::string precision_lines(const RunResult& r) {
  const WorkloadResult& w = r.result;
  const RunLength& len = r.length;
  std::string out = "95 % confidence (batch means, " + std::to_string(w.iops_ci.batches) + " batches of " +
                    fmt("%.3g", w.iops_ci.batch_seconds) + " s): IOPS " + fmt("%.2f", w.iops_ci.mean) + " " +
                    pm(w.iops_ci) + ", mean latency " + fmt("%.3f", w.latency_ci_ms.mean) + " ms " +
                    pm(w.latency_ci_ms) + "\n";
  // An open loop offered more than the cluster completes has no steady state.
  const double offered = r.workload.iops_limit_per_vm * r.vms;
  if (r.groups.empty() && offered > 0 && w.iops_ci.mean < 0.95 * offered)
    out += "Open loop overloaded: " + fmt("%.0f", offered) + " IOPS offered, " + fmt("%.0f", w.iops_ci.mean) +
           " completed per second: the backlog and the latencies grow with the run's length (no steady state)\n";
  for (std::size_t g = 0; g < r.groups.size(); ++g) {
    const double group_offered = r.groups[g].iops_limit_per_vm * r.groups[g].vms;
    if (group_offered > 0 && r.groups[g].result.iops < 0.95 * group_offered)
      out += "Open loop overloaded: group '" + r.groups[g].name + "' offered " + fmt("%.0f", group_offered) +
             " IOPS, completed " + fmt("%.0f", r.groups[g].result.iops) +
             " per second: its backlog and latencies grow with the run's length (no steady state)\n";
  }
  if (!len.automatic) return out;
  out += "Run length: auto; warm-up " + fmt("%.2f", len.warmup_s) + " s + pilot " + fmt("%.2f", len.pilot_s) + " s (" +
         (len.settled ? "MSER found the rate settled" : "MSER did NOT find the rate settled") + "), measured " +
         fmt("%.2f", len.measured_s) + " s; ";
  out += len.target_met ? "both half-widths within " + fmt("%.3g", len.target_pct) + " %\n"
                        : "stopped at auto_max_s with the target of " + fmt("%.3g", len.target_pct) +
                              " % NOT met: the intervals above say how precise the result is\n";
  return out;
}

// {"read": {"guest_queue_ms": ..., ..., "device_ms": ...}, "write": {...}}
std::string json_split(const WorkloadResult& w) {
  std::string out = "{";
  for (std::size_t op = 0; op < 2; ++op) {
    out += op == 0 ? "\"read\": {" : ", \"write\": {";
    for (std::size_t p = 0; p < kLatencyParts; ++p)
      out += std::string(p ? ", " : "") + "\"" + latency_part_name(p) + "_ms\": " +
             num(w.split_ms[op][p]);
    out += "}";
  }
  return out + "}";
}

// {"read": {"backend_ms": ..., "names": {"dom_owner": "DomOwnerLatency", ...}}, "write": {...}}:
// per op, the latency at and below the DOM owner and the vSAN diagnostic counter each part
// belongs to (latency_split.hpp); where ESA's writes took both paths, both counters, the
// performance leg's first.
std::string json_layers(const WorkloadResult& w, const RunResult& r) {
  const IoCounters& k = r.counters;
  const double large =
      k.host_write_bytes > 0 ? static_cast<double>(k.large_write_bytes) / static_cast<double>(k.host_write_bytes) : 0;
  std::string out = "{";
  for (std::size_t op = 0; op < 2; ++op) {
    double backend = 0;
    std::string names;
    for (std::size_t p = 0; p < kLatencyParts; ++p) {
      const auto part = static_cast<LatencyPart>(p);
      if (is_backend(part)) backend += w.split_ms[op][p];
      std::string name = vsan_layer_name(part, op == 0 ? r.inputs.read_counters : r.inputs.write_counters);
      if (op == 1 && large > 0) {
        const std::string on_large = vsan_layer_name(part, r.inputs.large_write_counters);
        if (large >= 0.99) name = on_large;   // every write (but the window's edges)
        else if (large > 0.01 && on_large != name) name += ", " + on_large;
      }
      if (!name.empty()) names += std::string(names.empty() ? "" : ", ") + "\"" + latency_part_name(p) + "\": " + json_string(name);
    }
    out += std::string(op == 0 ? "\"read\": " : ", \"write\": ") + "{\"backend_ms\": " + num(backend) + ", \"names\": {" + names + "}}";
  }
  return out + "}";
}

std::string json_interval(const ConfidenceInterval& ci) {
  return std::string("{\"mean\": ") + num(ci.mean) + ", \"half_width\": " + num(ci.half_width) +
         ", \"batches\": " + std::to_string(ci.batches) + ", \"batch_seconds\": " + num(ci.batch_seconds) + "}";
}

constexpr const char* kClasses[] = {"cpu", "cache_device", "capacity_device", "pool_device", "network_port", "lsom",
                                    "rx_queue", "object_client"};
// The CSV's block of utilisation columns holds the first seven classes; a class added later
// (object_client: ESA objects' DOM client worlds) is a column at the end of the row.
constexpr std::size_t kCsvBlockClasses = 7;

}  // namespace

// The workload groups' own results (RunResult::groups), one line each; nothing for one workload.
std::string group_lines(const RunResult& r) {
  if (r.groups.empty()) return "";
  std::string out = "Workload groups (HCIBench's rules over each group's VMs):\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %-16s %5s %11s %9s %9s %9s %9s %9s  %s\n", "group", "VMs", "IOPS", "MB/s", "R_LAT ms",
                "W_LAT ms", "R p95 ms", "W p95 ms", "workload");
  out += buf;
  for (const GroupResult& g : r.groups) {
    const WorkloadResult& x = g.result;
    std::snprintf(buf, sizeof buf, "  %-16s %5d %11.0f %9.2f %9.3f %9.3f %9.3f %9.3f  %s\n", g.name.c_str(), g.vms, x.iops,
                  x.throughput_mbps, x.read_latency_ms, x.write_latency_ms, x.read_p95_ms, x.write_p95_ms,
                  g.workload.c_str());
    out += buf;
  }
  return out;
}

std::string no_io_warning(double seconds) {
  return "no I/O issued in the " + fmt("%g", seconds) +
         " s measured completed in it: its rates are 0 and its latencies undefined; lengthen workload.duration_s";
}

std::string none_completed_warning(const std::string& what, double seconds) {
  return what + " issued in the " + fmt("%g", seconds) +
         " s measured completed in it while other I/O did: its rate is 0 and its latencies undefined; lengthen "
         "workload.duration_s";
}

std::string window_problem(const WorkloadResult& w, const std::string& who, bool closed_loop, double needed,
                           const std::string& stat) {
  const double completed = static_cast<double>(w.simulated_ios);
  if (completed < needed)
    return who + " completed " + fmt("%.0f", completed) + " I/Os in its window; a " + stat + " needs at least " +
           fmt("%.0f", needed);
  const double little = w.iops * w.pooled_latency_ms / 1e3;
  if (closed_loop && std::abs(little - w.outstanding_io) > 0.1 * w.outstanding_io)
    return who + "'s IOPS x mean latency holds " + fmt("%.0f", little) + " of its " + fmt("%.0f", w.outstanding_io) +
           " I/Os in flight (Little's law, 10 % allowed): its window is short against its latency, and counts only "
           "the I/Os that finished early";
  return "";
}

namespace {
// Printed under the result block (the JSON and CSV carry them in warnings).
std::string window_lines(const RunResult& r) {
  std::string out;
  for (const std::string& w : r.window_warnings) out += "Warning: " + w + "\n";
  return out;
}
}  // namespace

std::string format_hcibench(const RunResult& r) {
  const WorkloadResult& w = r.result;
  std::ostringstream os;
  os << "Datastore     = vsanDatastore\n"
     << "=============================\n"
     << "JOB_NAME\t= " << r.job_name << "\n"
     << "VMs\t\t= " << r.vms << "\n"
     << "IOPS\t\t= " << fmt("%.2f", w.iops) << " IO/S\n"
     << "THROUGHPUT\t= " << fmt("%.2f", w.throughput_mbps) << " MB/s\n"
     << "R_LATENCY\t= " << fmt("%.2f", w.read_latency_ms) << " ms\n"
     << "W_LATENCY\t= " << fmt("%.2f", w.write_latency_ms) << " ms\n"
     << "95%tile_R_LAT\t= " << fmt("%.2f", w.read_p95_ms) << " ms\n"
     << "95%tile_W_LAT\t= " << fmt("%.2f", w.write_p95_ms) << " ms\n"
     << "=============================\n"
     << "Pooled over all I/Os: p95 read " << fmt("%.3f", w.pooled_read_p95_ms) << " ms, write "
     << fmt("%.3f", w.pooled_write_p95_ms) << " ms; p99 read " << fmt("%.3f", w.read_p99_ms) << " ms, write "
     << fmt("%.3f", w.write_p99_ms) << " ms\n"
     << window_lines(r)
     << split_line(w, "as R_LATENCY and W_LATENCY")
     << "Outstanding I/O " << fmt("%.1f", w.outstanding_io) << " (configured " << r.configured_outstanding
     << "), simulated I/Os " << w.simulated_ios << " in " << fmt("%.2f", w.seconds) << " s\n"
     << group_lines(r)
     << precision_lines(r)
     << "Bottleneck: " << r.bottleneck << (r.bottleneck_detail.empty() ? "" : ": " + r.bottleneck_detail) << "\n"
     << failed_line(r)
     << "Capacity: raw " << fmt("%.0f", r.capacity.raw_gb) << " GB, " << r.capacity.reserve_name << " "
     << fmt("%.0f", r.capacity.slack_gb) << " GB (" << r.capacity.slack_rule << "), usable for VM data "
     << fmt("%.0f", r.capacity.usable_gb) << " GB at a data reduction ratio of " << fmt("%.2f", r.capacity.reduction_ratio)
     << ":1\n"
     << format_cost(r.cost, r.capacity, w.iops, "at this load")
     << "Resource Usage:\n"
     << format_resource_table(r.hosts)
     << cpu_stage_line(r.hosts)
     << write_buffer_line(r);
  return os.str();
}

std::string format_diskspd(const RunResult& r) {
  std::ostringstream os;
  const double secs = r.result.seconds;
  const std::string file = "target (" + fmt("%.0f", static_cast<double>(r.workload.vmdk_size.count()) / (1 << 20)) + "MiB)";
  os << "Results for timespan 1:\n"
     << "*******************************************************************************\n"
     << "actual test time: " << fmt("%.2f", secs) << "s\n"
     << "thread count: " << r.threads.size() << "\n"
     << window_lines(r)
     << precision_lines(r);
  const char* titles[3] = {"Total IO", "Read IO", "Write IO"};
  for (int kind = 0; kind < 3; ++kind) {
    os << titles[kind] << "\n"
       << "thread | bytes | I/Os | MiB/s | I/O per s | AvgLat | LatStdDev | file\n"
       << std::string(101, '-') << "\n";
    double tb = 0, tn = 0, ts = 0, tss = 0;
    for (std::size_t i = 0; i < r.threads.size(); ++i) {
      const ThreadStats& t = r.threads[i];
      double b = 0, n = 0, s = 0, ss = 0;
      for (int op = 0; op < 2; ++op) {
        if (kind == 1 && op == 1) continue;
        if (kind == 2 && op == 0) continue;
        b += static_cast<double>(t.bytes[op]);
        n += static_cast<double>(t.ios[op]);
        s += t.sum_ns[op];
        ss += t.sum_sq_ns[op];
      }
      tb += b, tn += n, ts += s, tss += ss;
      const double mean = n > 0 ? s / n : 0, sd = n > 0 ? std::sqrt(std::max(0.0, ss / n - mean * mean)) : 0;
      os << i << " | " << fmt("%.0f", b) << " | " << fmt("%.0f", n) << " | " << fmt("%.2f", b / secs / (1 << 20))
         << " | " << fmt("%.2f", n / secs) << " | " << fmt("%.3f", mean * 1e-6) << " | " << fmt("%.3f", sd * 1e-6)
         << " | " << file << "\n";
    }
    const double mean = tn > 0 ? ts / tn : 0, sd = tn > 0 ? std::sqrt(std::max(0.0, tss / tn - mean * mean)) : 0;
    os << std::string(101, '-') << "\n"
       << "total: " << fmt("%.0f", tb) << " | " << fmt("%.0f", tn) << " | " << fmt("%.2f", tb / secs / (1 << 20)) << " | "
       << fmt("%.2f", tn / secs) << " | " << fmt("%.3f", mean * 1e-6) << " | " << fmt("%.3f", sd * 1e-6) << "\n";
  }
  LatencyHistogram total = r.pooled[0];
  total.merge(r.pooled[1]);
  os << "total:\n"
     << "%-ile | Read (ms) | Write (ms) | Total (ms)\n"
     << "----------------------------------------------\n";
  auto cell = [](const LatencyHistogram& h, double q) {
    if (h.count() == 0) return std::string("N/A");
    if (q <= 0) return fmt("%.3f", h.min().ms());
    if (q >= 1) return fmt("%.3f", h.max().ms());
    return fmt("%.3f", h.percentile(q).ms());
  };
  const std::pair<const char*, double> rows[] = {
      {"min", 0},           {"25th", 0.25},         {"50th", 0.5},          {"75th", 0.75},
      {"90th", 0.9},        {"95th", 0.95},         {"99th", 0.99},         {"3-nines", 0.999},
      {"4-nines", 0.9999},  {"5-nines", 0.99999},   {"6-nines", 0.999999},  {"7-nines", 0.9999999},
      {"8-nines", 0.99999999}, {"9-nines", 0.999999999}, {"max", 1}};
  for (const auto& [label, q] : rows)
    os << label << " | " << cell(r.pooled[0], q) << " | " << cell(r.pooled[1], q) << " | " << cell(total, q) << "\n";
  os << split_line(r.result, "each op's AvgLat, averaged over VMs") << format_cost(r.cost, r.capacity, r.result.iops, "at this load");
  return os.str();
}

namespace {

// The JSON's sections, each written as it stands in the object (keys, values and the comma
// and newline after its last value).

// What was run: the scenario, its inputs and its warnings.
void json_inputs(std::ostream& os, const RunResult& r) {
  const auto one = [&r](double v) { return r.groups.empty() ? num(v) : std::string("null"); };
  os << "  \"scenario\": " << json_string(r.scenario) << ",\n"
     << "  \"job_name\": " << json_string(r.job_name) << ",\n"
     << "  \"version\": " << json_string(r.version) << ",\n"
     << "  \"seed\": " << r.seed << ",\n"
     << "  \"replication\": " << r.replication << ",\n"
     << "  \"inputs\": {\"source\": " << json_string(r.inputs.source) << ", \"architecture\": "
     << json_string(r.inputs.architecture) << ", \"vsan_release\": " << json_string(r.inputs.vsan_release)
     << ", \"hosts\": " << r.inputs.hosts << ", \"layout\": "
     << json_string(r.inputs.layout) << ", \"workload\": " << json_string(r.inputs.workload)
     // With groups these are each group's (its `workload` text); here null.
     << ", \"block_size_bytes\": " << one(static_cast<double>(r.workload.block.count())) << ", \"read_pct\": "
     << one(r.workload.read_pct) << ", \"random_pct\": " << one(r.workload.random_pct) << ", \"vmdks_per_vm\": "
     << one(r.workload.vmdks_per_vm) << ", \"outstanding_per_vmdk\": " << one(r.workload.outstanding_per_vmdk)
     << ", \"iops_limit_per_vm\": " << one(r.workload.iops_limit_per_vm) << ", \"duration_s\": "
     << (r.workload.auto_duration ? std::string("\"auto\"") : num(r.workload.duration_s)) << ", \"warmup_s\": "
     << num(r.workload.warmup_s) << ", \"guest_os\": "
     << (r.groups.empty() ? json_string(guest_os_name(r.workload.guest_os)) : std::string("null")) << "},\n"
     << "  \"warnings\": [";
  for (std::size_t i = 0; i < r.inputs.warnings.size(); ++i) os << (i ? ", " : "") << json_string(r.inputs.warnings[i]);
  os << "],\n";
}

// The whole run's answers (HCIBench's and the pooled ones) and where its time went.
void json_answers(std::ostream& os, const RunResult& r) {
  const WorkloadResult& w = r.result;
  os << "  \"vms\": " << r.vms << ",\n"
     << "  \"iops\": " << num(w.iops) << ",\n"
     << "  \"read_iops\": " << num(w.read_iops) << ",\n"
     << "  \"write_iops\": " << num(w.write_iops) << ",\n"
     << "  \"throughput_mib_s\": " << num(w.throughput_mbps) << ",\n"
     << "  \"throughput_mbps\": " << num(w.throughput_mbps) << ",\n"   // the same MiB/s: its old name, for a release
     << "  \"read_latency_ms\": " << num(w.read_latency_ms) << ",\n"
     << "  \"write_latency_ms\": " << num(w.write_latency_ms) << ",\n"
     << "  \"read_p95_ms\": " << num(w.read_p95_ms) << ",\n"
     << "  \"write_p95_ms\": " << num(w.write_p95_ms) << ",\n"
     << "  \"pooled_latency_ms\": " << num(w.pooled_latency_ms) << ",\n"
     << "  \"pooled_read_p95_ms\": " << num(w.pooled_read_p95_ms) << ",\n"
     << "  \"pooled_write_p95_ms\": " << num(w.pooled_write_p95_ms) << ",\n"
     << "  \"read_p99_ms\": " << num(w.read_p99_ms) << ",\n"
     << "  \"write_p99_ms\": " << num(w.write_p99_ms) << ",\n"
     << "  \"outstanding_io\": " << num(w.outstanding_io) << ",\n"
     << "  \"configured_outstanding_io\": " << r.configured_outstanding << ",\n"
     << "  \"simulated_ios\": " << w.simulated_ios << ",\n"
     << "  \"latency_split\": " << json_split(w) << ",\n"
     << "  \"latency_layers\": " << json_layers(w, r) << ",\n";
}

// Each workload group's answers.
void json_groups(std::ostream& os, const RunResult& r) {
  os << "  \"groups\": [";
  for (std::size_t i = 0; i < r.groups.size(); ++i) {
    const GroupResult& g = r.groups[i];
    const WorkloadResult& x = g.result;
    os << (i ? ", " : "") << "{\"name\": " << json_string(g.name) << ", \"workload\": " << json_string(g.workload)
       << ", \"vms\": " << g.vms << ", \"configured_outstanding_io\": " << g.configured_outstanding
       << ", \"iops\": " << num(x.iops) << ", \"read_iops\": " << num(x.read_iops) << ", \"write_iops\": "
       << num(x.write_iops) << ", \"throughput_mib_s\": " << num(x.throughput_mbps)
       << ", \"throughput_mbps\": " << num(x.throughput_mbps) << ", \"read_latency_ms\": "
       << num(x.read_latency_ms) << ", \"write_latency_ms\": " << num(x.write_latency_ms) << ", \"read_p95_ms\": "
       << num(x.read_p95_ms) << ", \"write_p95_ms\": " << num(x.write_p95_ms) << ", \"pooled_latency_ms\": "
       << num(x.pooled_latency_ms) << ", \"read_p99_ms\": " << num(x.read_p99_ms) << ", \"write_p99_ms\": "
       << num(x.write_p99_ms) << ", \"outstanding_io\": " << num(x.outstanding_io)
       << ", \"latency_split\": " << json_split(x) << ", \"latency_layers\": " << json_layers(x, r)
       << ", \"guest_os\": " << json_string(guest_os_name(g.guest_os)) << "}";
  }
  os << "],\n";
}

// The measured window: its length, intervals and how the length was found, and its batches
// over time.
void json_window(std::ostream& os, const RunResult& r) {
  const WorkloadResult& w = r.result;
  os << "  \"measured_seconds\": " << num(w.seconds) << ",\n"
     << "  \"iops_ci95\": " << json_interval(w.iops_ci) << ",\n"
     << "  \"pooled_latency_ci95_ms\": " << json_interval(w.latency_ci_ms) << ",\n"
     << "  \"run_length\": {\"auto\": " << (r.length.automatic ? "true" : "false")
     << ", \"warmup_s\": " << num(r.length.warmup_s) << ", \"pilot_s\": " << num(r.length.pilot_s)
     << ", \"settled\": " << (r.length.settled ? "true" : "false") << ", \"measured_s\": " << num(r.length.measured_s)
     << ", \"target_pct\": " << num(r.length.target_pct) << ", \"target_met\": " << (r.length.target_met ? "true" : "false")
     << "},\n";
  // The timeline as columns (a pandas DataFrame takes it as it is).
  const auto column = [&](const char* key, double TimelinePoint::*field, bool last) {
    os << "\"" << key << "\": [";
    for (std::size_t i = 0; i < r.timeline.size(); ++i) os << (i ? ", " : "") << num(r.timeline[i].*field);
    os << (last ? "]" : "], ");
  };
  os << "  \"timeline\": {";
  column("end_s", &TimelinePoint::end_s, false);
  column("iops", &TimelinePoint::iops, false);
  column("mean_latency_ms", &TimelinePoint::mean_latency_ms, false);
  column("resync_done_gb", &TimelinePoint::resync_done_gb, true);
  os << "},\n";
}

// The failed hosts and the resync, each host's CPU and each OSA write buffer.
void json_hosts(std::ostream& os, const RunResult& r) {
  os << "  \"failed_hosts\": [";
  for (std::size_t i = 0; i < r.failed_hosts.size(); ++i) os << (i ? ", " : "") << json_string(r.failed_hosts[i]);
  os << "],\n"
     << "  \"resync\": {\"active\": " << (r.resync_active ? "true" : "false") << ", \"components\": " << r.resync.components
     << ", \"rebuilt\": " << r.resync.rebuilt << ", \"stranded\": " << r.resync.stranded
     << ", \"total_bytes\": " << r.resync.total_bytes << ", \"done_bytes\": " << r.resync.done_bytes
     << ", \"window_bytes\": " << r.counters.resync_bytes << "},\n"
     << "  \"hosts\": [";
  for (std::size_t i = 0; i < r.hosts.size(); ++i) {
    os << (i ? ", " : "") << "{\"host\": " << json_string(r.hosts[i].host)
       << ", \"cpu_busy_cores\": " << num(r.hosts[i].busy_cores()) << ", \"cpu_cores\": " << r.hosts[i].cpu_cores
       << ", \"cpu_core_capacity\": " << num(r.hosts[i].cpu_core_capacity)
       << ", \"cpu_usage_pct\": " << num(r.hosts[i].cpu_usage_pct)
       << ", \"cpu_utilization_pct\": " << num(r.hosts[i].cpu_utilization_pct)
       << ", \"client_cache_mib\": " << num(r.hosts[i].client_cache_mb)
       << ", \"client_cache_mb\": " << num(r.hosts[i].client_cache_mb) << ", \"cpu_cores_by_stage\": {";
    for (int st = 0; st < kCpuStages; ++st)
      os << (st ? ", " : "") << json_string(cpu_stage_name(static_cast<CpuStage>(st))) << ": "
         << num(r.hosts[i].stage_cores[static_cast<std::size_t>(st)]);
    os << "}}";
  }
  os << "],\n  \"write_buffers\": [";
  for (std::size_t i = 0; i < r.write_buffers.size(); ++i) {
    const WriteBufferState& b = r.write_buffers[i];
    os << (i ? ", " : "") << "{\"name\": " << json_string(b.name) << ", \"buffer_gb\": " << num(b.buffer_gb)
       << ", \"working_set_gb\": " << num(b.working_set_gb) << ", \"fill\": " << num(b.fill)
       << ", \"read_hit_share\": " << num(b.read_hit_share) << ", \"congestion\": " << num(b.congestion)
       << ", \"congestion_delay_ms\": " << num(b.congestion_delay_ms) << "}";
  }
  os << "],\n";
}

// Each resource class's utilisation, the bottleneck, capacity and cost, and the counters.
void json_resources(std::ostream& os, const RunResult& r) {
  os << "  \"utilisation\": {";
  bool first = true;
  for (const char* c : kClasses) {
    const ResourceClassUse* u = r.resource(c);
    if (!u) continue;
    os << (first ? "" : ", ") << json_string(c) << ": {\"mean\": " << num(u->mean) << ", \"max\": " << num(u->max)
       << ", \"busiest\": " << json_string(u->busiest) << "}";
    first = false;
  }
  os << "},\n"
     << "  \"bottleneck\": " << json_string(r.bottleneck) << ",\n"
     << "  \"bottleneck_detail\": " << json_string(r.bottleneck_detail) << ",\n"
     << "  \"capacity\": {\"raw_gb\": " << num(r.capacity.raw_gb) << ", \"metadata_gb\": " << num(r.capacity.metadata_gb)
     << ", \"reserve\": " << json_string(r.capacity.reserve_name) << ", \"reserve_gb\": " << num(r.capacity.slack_gb)
     << ", \"reserve_rule\": " << json_string(r.capacity.slack_rule) << ", \"slack_gb\": " << num(r.capacity.slack_gb)
     << ", \"slack_rule\": " << json_string(r.capacity.slack_rule)
     << ", \"operations_reserve_gb\": " << num(r.capacity.operations_reserve_gb)
     << ", \"host_rebuild_reserve_gb\": " << num(r.capacity.host_rebuild_reserve_gb)
     << ", \"policy_factor\": " << num(r.capacity.policy_factor) << ", \"reduction_ratio\": "
     << num(r.capacity.reduction_ratio) << ", \"usable_gb\": " << num(r.capacity.usable_gb) << "},\n"
     << "  \"cost\": " << cost_json(r.cost, r.capacity, r.result.iops) << ",\n"
     << "  \"device_ops\": {\"fg_reads\": " << r.counters.fg_device_reads << ", \"fg_writes\": " << r.counters.fg_device_writes
     << ", \"bg_reads\": " << r.counters.bg_device_reads << ", \"bg_writes\": " << r.counters.bg_device_writes << "},\n"
     << "  \"client_cache_reads\": " << r.counters.client_cache_hits << ",\n"
     << "  \"network_bytes\": " << r.counters.fg_network_bytes + r.counters.bg_network_bytes << ",\n";
}

}  // namespace

std::string to_json(const RunResult& r) {
  std::ostringstream os;
  os << "{\n";
  json_inputs(os, r);
  json_answers(os, r);
  json_groups(os, r);
  json_window(os, r);
  json_hosts(os, r);
  json_resources(os, r);
  os << "  \"simulated_seconds\": " << num(r.simulated_seconds) << ",\n"
     << "  \"wall_seconds\": " << num(r.wall_seconds) << "\n"
     << "}\n";
  return os.str();
}

std::string csv_header() {
  std::string h = "scenario,job_name,version,seed,vms,iops,read_iops,write_iops,throughput_mib_s,throughput_mbps,read_latency_ms,"
                  "write_latency_ms,read_p95_ms,write_p95_ms,pooled_latency_ms,pooled_read_p95_ms,pooled_write_p95_ms,"
                  "read_p99_ms,write_p99_ms,outstanding_io,configured_outstanding_io,simulated_ios";
  for (const char* op : {"read_", "write_"})
    for (std::size_t p = 0; p < kLatencyParts; ++p)
      h += std::string(",") + op + latency_part_name(p) + "_ms";
  h += ",cpu_usage_pct_mean,cpu_usage_pct_max";
  for (std::size_t i = 0; i < kCsvBlockClasses; ++i) h += std::string(",") + kClasses[i] + "_util_max";
  h += ",bottleneck,raw_gb,usable_gb,slack_gb,cost_usd,cost_per_iops_usd,cost_per_usable_tb_usd,failed_hosts,resync_mb_per_s,resync_gb_left,iops_ci95_half_width,"
       "pooled_latency_ci95_half_width_ms,measured_seconds,auto_target_met,architecture,hosts,layout,workload,warnings,"
       "pooled_p95_ms,cpu_busy_cores_mean,cpu_busy_cores_max,cpu_cores_mean,vsan_release,object_client_util_max";
  return h;
}

std::string csv_row(const RunResult& r) {
  const auto q = [](const std::string& s) { return csv_field(s); };
  const WorkloadResult& w = r.result;
  double cpu_sum = 0, cpu_max = 0, busy_sum = 0, busy_max = 0, cores_sum = 0;
  for (const auto& h : r.hosts) {
    cpu_sum += h.cpu_usage_pct;
    cpu_max = std::max(cpu_max, h.cpu_usage_pct);
    busy_sum += h.busy_cores();
    busy_max = std::max(busy_max, h.busy_cores());
    cores_sum += h.cpu_cores;
  }
  const double hosts = r.hosts.empty() ? 1.0 : static_cast<double>(r.hosts.size());
  std::ostringstream os;
  os << q(r.scenario) << "," << q(r.job_name) << "," << r.version << "," << r.seed << "," << r.vms << "," << num(w.iops)
     << "," << num(w.read_iops) << "," << num(w.write_iops) << "," << num(w.throughput_mbps) << ","
     << num(w.throughput_mbps) << ","
     << num(w.read_latency_ms) << "," << num(w.write_latency_ms) << "," << num(w.read_p95_ms) << ","
     << num(w.write_p95_ms) << "," << num(w.pooled_latency_ms) << "," << num(w.pooled_read_p95_ms) << ","
     << num(w.pooled_write_p95_ms) << "," << num(w.read_p99_ms) << "," << num(w.write_p99_ms) << ","
     << num(w.outstanding_io) << "," << r.configured_outstanding << "," << w.simulated_ios << ",";
  for (const auto& op : w.split_ms)
    for (double ms : op) os << num(ms) << ",";
  os << num(cpu_sum / hosts) << "," << num(cpu_max);
  const auto util_max = [&r](const char* c) {
    const ResourceClassUse* u = r.resource(c);
    return u ? num(u->max) : std::string();
  };
  for (std::size_t i = 0; i < kCsvBlockClasses; ++i) os << "," << util_max(kClasses[i]);
  os << "," << q(r.bottleneck) << "," << num(r.capacity.raw_gb) << "," << num(r.capacity.usable_gb) << ","
     << num(r.capacity.slack_gb) << "," << csv_number(r.cost.total_usd()) << "," << csv_number(r.cost.per_iops(w.iops)) << ","
     << csv_number(r.cost.per_usable_tb(r.capacity)) << "," << r.failed_hosts.size() << ","
     << num(resync_rate_mbps(r)) << "," << num(static_cast<double>(r.resync.total_bytes - r.resync.done_bytes) / 1e9)
     << "," << num(w.iops_ci.half_width) << "," << num(w.latency_ci_ms.half_width) << "," << num(w.seconds) << ","
     << (r.length.automatic ? (r.length.target_met ? "true" : "false") : "") << "," << q(r.inputs.architecture) << ","
     << r.inputs.hosts << "," << q(r.inputs.layout) << "," << q(r.inputs.workload) << ",";
  std::string warnings;
  for (const std::string& said : r.inputs.warnings) warnings += (warnings.empty() ? "" : " | ") + said;
  // Columns added after the first release go last, so readers by position keep theirs (the
  // latency split's block above follows the split's parts, LatencyPart, and moved them once).
  os << q(warnings) << "," << num(pooled_percentile_ms(r.pooled, 0.95)) << "," << num(busy_sum / hosts) << ","
     << num(busy_max) << "," << num(cores_sum / hosts) << "," << q(r.inputs.vsan_release) << ","
     << util_max("object_client");
  return os.str();
}

bool csv_has_column(std::string_view key) {
  const std::string header = csv_header();
  std::size_t from = 0;
  while (from <= header.size()) {
    const std::size_t comma = std::min(header.find(',', from), header.size());
    if (std::string_view(header).substr(from, comma - from) == key) return true;
    from = comma + 1;
  }
  return false;
}

}  // namespace hcisim
