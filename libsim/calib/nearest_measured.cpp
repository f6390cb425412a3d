// The measured rows nearest to a question, from the committed accuracy table (calib/accuracy.hpp).
#include "hcisim/calib/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "hcisim/core/check.hpp"
#include "hcisim/model/report/text_escape.hpp"

namespace hcisim {

namespace {

double link_gbps(const Scenario& s) {
  const FabricSpec& f = s.cluster.fabric;
  return f.link_gbps > 0 ? f.link_gbps : f.nic.speed_gbps;
}

// "cache_device (host1/dg0/cache)" -> "cache_device".
std::string bottleneck_class(const std::string& bottleneck) { return bottleneck.substr(0, bottleneck.find(" (")); }

// A host's drives as names, one per device (OSA capacity devices, or the ESA pool).
std::vector<std::string> capacity_names(const HostSpec& h) {
  std::vector<std::string> names;
  for (const DiskGroupSpec& g : h.disk_groups)
    for (const DriveSpec& d : g.capacity) names.push_back(d.device.name);
  for (const DriveSpec& d : h.pool) names.push_back(d.device.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> cache_names(const HostSpec& h) {
  std::vector<std::string> names;
  for (const DiskGroupSpec& g : h.disk_groups) names.push_back(g.cache.device.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

bool same_cpu(const CpuSpec& a, const CpuSpec& b) {
  return a.name == b.name && a.sockets == b.sockets && a.cores_per_socket == b.cores_per_socket &&
         a.threads_per_core == b.threads_per_core && a.ghz == b.ghz;
}

bool same_workload(const WorkloadSpec& a, const WorkloadSpec& b) {
  return a.block == b.block && a.read_pct == b.read_pct && a.random_pct == b.random_pct &&
         a.outstanding_per_vmdk == b.outstanding_per_vmdk && a.vms == b.vms && a.vmdks_per_vm == b.vmdks_per_vm &&
         a.tool == b.tool && a.working_set_pct == b.working_set_pct;
}

const char* verdict_of(double median_abs) {
  return median_abs <= 10 ? "close" : median_abs <= 30 ? "a guide" : "direction only";
}

// "peak IOPS gain" for a metric name the table holds.
std::string metric_label(const std::string& metric) {
  static const std::pair<const char*, const char*> kLabels[] = {
      {"peak_iops_gain_pct", "peak IOPS gain"}, {"iops_gain_pct", "IOPS gain at 65 % of peak"},
      {"latency_change_pct", "latency change"}, {"iops_gain", "IOPS gain"}, {"iops", "IOPS"},
      {"throughput_mbps", "throughput"}, {"throughput_mibps", "throughput"}, {"bandwidth_ratio", "bandwidth ratio"},
      {"throughput_ratio", "best throughput ratio"}, {"latency_ratio", "best latency ratio"}};
  for (const auto& [m, label] : kLabels)
    if (metric == m) return label;
  return metric;
}

std::string value_text(double v, const std::string& unit) {
  char buf[48];
  if (unit == "%") std::snprintf(buf, sizeof buf, "%+.0f %%", v);
  else if (unit == "x" || unit == "ratio") std::snprintf(buf, sizeof buf, "%.2fx", v);
  else if (unit == "IO/s" && std::fabs(v) >= 10000) std::snprintf(buf, sizeof buf, "%.0fK", v / 1000);
  else if (unit == "IO/s") std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (std::fabs(v) >= 100) std::snprintf(buf, sizeof buf, "%.0f %s", v, unit.c_str());
  else std::snprintf(buf, sizeof buf, "%.3g %s", v, unit.c_str());
  return buf;
}

std::vector<std::string> split_what_if(const std::string& w) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= w.size()) {
    const auto end = w.find("; ", start);
    out.push_back(w.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 2;
  }
  return out;
}

// How near a row is; negative when it does not share the architecture and the what-if type.
// The features rank in order (what-if type, bottleneck device class, network speed, block size
// class): each weight is above the sum of all that rank below it, so a nearer feature is never
// outweighed by several farther ones.
constexpr int kBlockWeight = 1;
constexpr int kBaselineNetworkWeight = 2;   // a what-if's baseline network speed, beside its own
constexpr int kNetworkWeight = 4;
constexpr int kBottleneckWeight = 8;
constexpr int kSharedWhatIfWeight = 16;     // per what-if part shared (a what-if has a handful)
constexpr int kExactWhatIfWeight = 1024;

int nearness(const AccuracyTableRow& r, const QuestionFeatures& q) {
  if (r.status != "scored" || r.sample == kSampleCv || r.architecture != q.architecture) return -1;
  int score = 0;
  if (q.what_if.empty()) {
    if (r.what_if != "absolute" || r.answer_type != "IOPS/throughput") return -1;
  } else {
    if (r.answer_type != "what-if ratio") return -1;
    const std::vector<std::string> w = split_what_if(r.what_if);
    int shared = 0;
    for (const std::string& x : q.what_if) shared += std::count(w.begin(), w.end(), x) > 0;
    if (shared == 0) return -1;
    if (w == q.what_if) score += kExactWhatIfWeight;
    score += kSharedWhatIfWeight * std::min(shared, kExactWhatIfWeight / kSharedWhatIfWeight - 1);
    if (q.baseline_network_gbps > 0 && r.baseline_network_gbps == q.baseline_network_gbps) score += kBaselineNetworkWeight;
  }
  if (!q.bottleneck.empty() && r.bottleneck == q.bottleneck) score += kBottleneckWeight;
  if (q.network_gbps > 0 && r.network_gbps == q.network_gbps) score += kNetworkWeight;
  if (q.block_kib > 0 && std::string(block_size_class(r.block_kib)) == block_size_class(q.block_kib)) score += kBlockWeight;
  return score;
}

std::string question_text(const QuestionFeatures& q) {
  std::string what = q.what_if.empty() ? std::string("an absolute answer") : std::string("a what-if on ");
  for (std::size_t i = 0; i < q.what_if.size(); ++i) what += (i ? ", " : "") + q.what_if[i];
  return (q.architecture.empty() ? std::string("this architecture") : q.architecture) + ", " + what;
}

std::string row_json(const AccuracyTableRow& r) {
  return "{\"seed\": " + json_string(r.seed) + ", \"sample\": " + json_string(r.sample) +
         ", \"scenario\": " + json_string(r.scenario) + ", \"description\": " + json_string(r.description) +
         ", \"what_if\": " + json_string(r.what_if) + ", \"metric\": " + json_string(r.metric) +
         ", \"measured\": " + json_number(r.measured) + ", \"predicted\": " + json_number(r.predicted) +
         ", \"unit\": " + json_string(r.unit) + ", \"error\": " + json_number(r.error) +
         ", \"error_unit\": " + json_string(r.error_unit) + "}";
}

std::string class_json(const AccuracyClassRow& c) {
  return "{\"architecture\": " + json_string(c.architecture) + ", \"answer_type\": " + json_string(c.answer_type) +
         ", \"sample\": " + json_string(c.sample) + ", \"rows\": " + std::to_string(c.rows) +
         ", \"median_abs_error\": " + json_number(c.median_abs) + ", \"max_abs_error\": " + json_number(c.max_abs) +
         ", \"error_unit\": " + json_string(c.error_unit) + ", \"seeds\": " + std::to_string(c.seeds.size()) +
         "}";
}

}  // namespace

const char* block_size_class(double block_kib) { return block_kib <= 16 ? "small" : block_kib <= 64 ? "medium" : "large"; }

QuestionFeatures question_features(const Scenario& s, const std::string& bottleneck) {
  QuestionFeatures q;
  q.architecture = s.cluster.architecture == Architecture::esa ? "ESA" : "OSA";
  q.bottleneck = bottleneck_class(bottleneck);
  q.network_gbps = link_gbps(s);
  q.block_kib = s.workload.block.kib();
  return q;
}

QuestionFeatures what_if_features(const Scenario& a, const Scenario& b, const std::string& bottleneck_b) {
  QuestionFeatures q = question_features(b, bottleneck_b);
  q.what_if = what_differs(a, b);
  q.baseline_network_gbps = link_gbps(a);
  return q;
}

std::vector<std::string> what_differs(const Scenario& a, const Scenario& b) {
  std::vector<std::string> d;
  const ClusterSpec& x = a.cluster;
  const ClusterSpec& y = b.cluster;
  if (x.architecture != y.architecture) d.push_back("architecture");
  if (x.hosts.size() != y.hosts.size()) d.push_back("host count");
  if (link_gbps(a) != link_gbps(b)) d.push_back("network speed");
  else if (x.fabric.nic.name != y.fabric.nic.name) d.push_back("NIC");
  if (!x.hosts.empty() && !y.hosts.empty()) {
    const HostSpec& hx = x.hosts.front();
    const HostSpec& hy = y.hosts.front();
    if (hx.disk_groups.size() != hy.disk_groups.size()) d.push_back("disk groups");
    if (cache_names(hx) != cache_names(hy)) d.push_back("cache device");
    if (capacity_names(hx) != capacity_names(hy)) d.push_back("capacity devices");
    if (!same_cpu(hx.cpu, hy.cpu)) d.push_back("CPU");
  }
  if (x.policy.raid != y.policy.raid || x.policy.ftt != y.policy.ftt) d.push_back("RAID");
  if (!same_workload(a.workload, b.workload) || a.groups.size() != b.groups.size()) d.push_back("workload");
  if (d.empty()) d.push_back("other settings");
  return d;
}

NearestMeasured nearest_measured(const std::vector<AccuracyTableRow>& table, const QuestionFeatures& q) {
  NearestMeasured n;
  std::vector<std::pair<int, const AccuracyTableRow*>> matched;
  for (const AccuracyTableRow& r : table) {
    const int s = nearness(r, q);
    if (s >= 0) matched.emplace_back(s, &r);
  }
  if (matched.empty()) {
    n.verdict = "unvalidated";
    n.text = "nearest measured: no measured cluster like this (" + question_text(q) + "): unvalidated";
    return n;
  }
  // Nearest first; ties keep the table's order (the measurements' order).
  std::stable_sort(matched.begin(), matched.end(), [](const auto& l, const auto& r) { return l.first > r.first; });
  for (const auto& [s, r] : matched)
    if (std::find(n.seeds.begin(), n.seeds.end(), r->seed) == n.seeds.end()) n.seeds.push_back(r->seed);
  n.matched = true;
  n.row = *matched.front().second;
  const std::vector<AccuracyClassRow> classes = class_summary(table);
  if (const AccuracyClassRow* c = class_of(classes, n.row)) n.cls = *c;
  n.verdict = verdict_of(n.cls.median_abs);
  // One cluster agreeing does not show that a mechanism holds on others: a class of one seed
  // is at best a guide.
  const bool one_seed = n.cls.seeds.size() <= 1;
  if (one_seed && n.verdict == std::string("close")) n.verdict = "a guide";
  char err[64];
  std::snprintf(err, sizeof err, "%.0f %s", n.cls.median_abs, n.cls.error_unit == "%" ? "%" : n.cls.error_unit.c_str());
  std::string others;
  for (std::size_t i = 1; i < n.seeds.size(); ++i) others += (others.empty() ? "; also seed " : ", ") + n.seeds[i];
  n.text = "nearest measured: seed " + n.row.seed + " (" + n.row.description + "): " + metric_label(n.row.metric) + " " +
           value_text(n.row.predicted, n.row.unit) + " modelled vs " + value_text(n.row.measured, n.row.unit) +
           " measured" + others + "; " + n.row.architecture + " " + n.row.answer_type + " " + n.row.sample + ": median |error| " +
           err + " over " + std::to_string(n.cls.rows) + (n.cls.rows == 1 ? " row" : " rows") +
           (one_seed ? " of one seed" : "") + "; treat this " +
           (q.what_if.empty() ? "answer" : "what-if") + " as " +
           (n.verdict == std::string("direction only") ? "its direction only" : n.verdict);
  return n;
}

NearestMeasured nearest_measured(const std::string& table_path, const QuestionFeatures& q) {
  std::error_code ec;
  NearestMeasured n;
  n.verdict = "table missing";
  if (!std::filesystem::exists(table_path, ec)) {
    n.text = "nearest measured: the accuracy table " + table_path + " is missing (hcisim accuracy --write writes it)";
    return n;
  }
  try {
    return nearest_measured(read_accuracy_table(table_path).rows, q);
  } catch (const InvalidArgument& e) {
    n.text = std::string("nearest measured: the accuracy table cannot be read: ") + e.what();
    return n;
  }
}

std::string to_json(const NearestMeasured& n) {
  std::string seeds;
  for (const auto& s : n.seeds) seeds += (seeds.empty() ? "" : ", ") + json_string(s);
  return "{\"text\": " + json_string(n.text) + ", \"verdict\": " + json_string(n.verdict) + ", \"seeds\": [" + seeds +
         "], \"row\": " + (n.matched ? row_json(n.row) : "null") + ", \"class\": " + (n.matched ? class_json(n.cls) : "null") +
         "}";
}

}  // namespace hcisim
