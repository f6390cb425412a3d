// The committed accuracy table: rows with features, classes, the inputs' hash (calib/accuracy.hpp).
#include "hcisim/calib/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "hcisim/core/check.hpp"
#include "hcisim/model/calib/fit.hpp"
#include "hcisim/model/core/rng.hpp"
#include "hcisim/model/scenario/csv.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/version.hpp"

namespace hcisim {

namespace {

double table_median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// "examples/scenarios/x.yaml" -> "x".
std::string table_stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

std::string table_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// A CSV field, quoted when it holds a comma, a quote or a line break.
std::string table_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// "ESA, 25 vs 100 GbE, OLTP32K": the write-up's workload name when short, else the block size
// and read share the scenario runs ("4K 70 % read"), or a sweep said as one.
std::string describe_row(const AccuracyTableRow& r, const std::string& workload, const WorkloadSpec& w) {
  std::string d = r.architecture + ", ";
  if (r.baseline_network_gbps > 0 && r.baseline_network_gbps != r.network_gbps)
    d += table_number(r.baseline_network_gbps) + " vs ";
  d += table_number(r.network_gbps) + " GbE, ";
  if (workload.find("sweep") != std::string::npos) return d + "a sweep of block sizes and read shares";
  if (workload.size() <= 20) return d + workload;
  return d + table_number(r.block_kib) + "K " + table_number(w.read_pct) + " % read";
}

// The features of one scored row, from its scenario (and baseline) files.
AccuracyTableRow row_features(const Prediction& p, const HardwareCatalog& catalog, const std::string& repo_dir,
                        const std::string& sample) {
  AccuracyTableRow r;
  const Measurement& m = p.m;
  r.seed = m.seed_file.substr(0, 3);
  const bool fitted = std::find(kInSampleSeeds.begin(), kInSampleSeeds.end(), r.seed) != kInSampleSeeds.end();
  r.sample = !sample.empty() ? sample : fitted ? kSampleIn : kSampleOut;
  r.answer_type = answer_type(p);
  const Scenario s = load_scenario(repo_dir + "/" + m.scenario, {}, catalog);
  const QuestionFeatures q = question_features(s, p.bottleneck);
  r.architecture = q.architecture;
  r.network_gbps = q.network_gbps;
  r.block_kib = q.block_kib;
  r.bottleneck = q.bottleneck;
  r.what_if = "absolute";
  const std::string base = baseline_of(m);
  if (m.kind == "ratio" && !base.empty()) {
    const Scenario b = load_scenario(repo_dir + "/" + base, {}, catalog);
    r.baseline_network_gbps = question_features(b, "").network_gbps;
    std::string w;
    for (const std::string& d : what_differs(b, s)) w += (w.empty() ? "" : "; ") + d;
    r.what_if = w;
  }
  r.scenario = table_stem(m.scenario);
  r.metric = m.metric;
  r.description = describe_row(r, m.workload, s.workload);
  r.measured = m.value;
  r.unit = m.unit;
  r.predicted = p.predicted;
  r.error = p.error_pct;
  r.error_unit = m.kind == "ratio" && m.unit == "%" ? "points" : "%";
  r.note = p.note;
  return r;
}

const char* const kTableColumns[] = {"sample", "seed", "architecture", "answer_type", "what_if", "network_gbps",
                                "baseline_network_gbps", "block_kib", "bottleneck", "scenario", "metric",
                                "description", "measured", "unit", "predicted", "error", "error_unit", "note",
                                "status"};

std::string table_csv_line(const AccuracyTableRow& r) {
  const bool scored = r.status == "scored";
  auto num = [&](double v) { return scored ? table_number(v) : std::string(); };
  const std::string cells[] = {r.sample, r.seed, r.architecture, r.answer_type, r.what_if,
                               num(r.network_gbps), num(r.baseline_network_gbps), num(r.block_kib), r.bottleneck,
                               r.scenario, r.metric, r.description, num(r.measured), r.unit, num(r.predicted),
                               num(r.error), r.error_unit, r.note, r.status};
  std::string line;
  for (const std::string& c : cells) line += (line.empty() ? "" : ",") + table_field(c);
  return line + "\n";
}

// The classes' fixed order: architecture, answer type, sample.
int class_rank(const std::vector<std::string>& order, const std::string& v) {
  const auto it = std::find(order.begin(), order.end(), v);
  return static_cast<int>(it - order.begin());
}

std::string class_seeds_text(const std::vector<std::string>& seeds) {
  std::string s;
  for (const auto& x : seeds) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string class_error_text(const AccuracyClassRow& c, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, c.error_unit == "%" ? "%" : c.error_unit.c_str());
  return buf;
}

}  // namespace

std::string model_version() { return std::string(kVersion) + " model " + std::to_string(kModelRevision); }

std::string answer_type(const Prediction& p) {
  switch (p.cls) {
    case AccuracyClass::throughput: return "IOPS/throughput";
    case AccuracyClass::mean_latency: return "mean latency";
    case AccuracyClass::ratio: return "what-if ratio";
    default: break;
  }
  const bool cpu = p.m.metric == "cpu_usage_pct" || p.m.metric == "cpu_utilization_pct";
  return cpu && !guest_cpu_row(p.m) ? "host CPU" : "other";
}

std::vector<AccuracyTableRow> table_rows(const AccuracyReport& report, const HardwareCatalog& catalog,
                                         const std::string& repo_dir, const std::string& sample) {
  std::vector<AccuracyTableRow> rows;
  for (const Prediction& p : report.rows)
    if (p.cls != AccuracyClass::unsupported && std::isfinite(p.error_pct))
      rows.push_back(row_features(p, catalog, repo_dir, sample));
  return rows;
}

AccuracyTableRow cv_not_measured_row() {
  AccuracyTableRow r;
  r.sample = kSampleCv;
  r.status = kNotMeasured;
  r.description = "hcisim accuracy --write --cv adds these rows (about an hour)";
  return r;
}

std::vector<AccuracyTableRow> cv_rows_to_keep(const std::string& path, const std::string& inputs_hash) {
  std::vector<AccuracyTableRow> keep;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return keep;
  try {
    const AccuracyTable old = read_accuracy_table(path);
    if (old.inputs_hash != inputs_hash) return keep;
    for (const AccuracyTableRow& r : old.rows)
      if (r.sample == kSampleCv && r.status == "scored") keep.push_back(r);
  } catch (const InvalidArgument&) {   // an unreadable old table is replaced whole
  }
  return keep;
}

std::vector<AccuracyClassRow> class_summary(const std::vector<AccuracyTableRow>& rows) {
  const std::vector<std::string> archs = {"OSA", "ESA"};
  const std::vector<std::string> types = {"IOPS/throughput", "mean latency", "host CPU", "what-if ratio", "other"};
  const std::vector<std::string> samples = {kSampleIn, kSampleOut, kSampleCv};
  std::map<std::tuple<int, int, int, std::string, std::string>, std::vector<const AccuracyTableRow*>> groups;
  bool cv_marked = false;
  for (const AccuracyTableRow& r : rows) {
    if (r.status != "scored") {
      cv_marked = cv_marked || r.sample == kSampleCv;
      continue;
    }
    groups[{class_rank(archs, r.architecture), class_rank(types, r.answer_type), class_rank(samples, r.sample), r.architecture,
            r.answer_type}].push_back(&r);
  }
  std::vector<AccuracyClassRow> out;
  bool cv_scored = false;
  for (const auto& [key, members] : groups) {
    AccuracyClassRow c;
    c.architecture = std::get<3>(key);
    c.answer_type = std::get<4>(key);
    c.sample = members.front()->sample;
    c.rows = static_cast<int>(members.size());
    std::vector<double> errors;
    bool pct = false, points = false;
    for (const AccuracyTableRow* r : members) {
      errors.push_back(std::fabs(r->error));
      (r->error_unit == "points" ? points : pct) = true;
      if (std::find(c.seeds.begin(), c.seeds.end(), r->seed) == c.seeds.end()) c.seeds.push_back(r->seed);
    }
    std::sort(c.seeds.begin(), c.seeds.end());
    c.median_abs = table_median(errors);
    c.max_abs = *std::max_element(errors.begin(), errors.end());
    c.error_unit = pct && points ? "% / points" : points ? "points" : "%";
    if (c.seeds.size() == 1 && c.sample == kSampleIn)
      c.note = "fitted on the only seed of its kind: a fit, not a forecast";
    else if (c.seeds.size() == 1 && c.sample == kSampleOut)
      c.note = "one seed, never fitted";
    cv_scored = cv_scored || c.sample == kSampleCv;
    out.push_back(std::move(c));
  }
  if (cv_marked && !cv_scored) {
    AccuracyClassRow c;
    c.architecture = "any";
    c.answer_type = "any";
    c.sample = kSampleCv;
    c.note = kNotMeasured;
    out.push_back(std::move(c));
  }
  return out;
}

const AccuracyClassRow* class_of(const std::vector<AccuracyClassRow>& classes, const AccuracyTableRow& row) {
  for (const AccuracyClassRow& c : classes)
    if (c.architecture == row.architecture && c.answer_type == row.answer_type && c.sample == row.sample) return &c;
  return nullptr;
}

std::string format_class_table(const std::vector<AccuracyClassRow>& classes) {
  std::ostringstream os;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-4s %-16s %-19s %4s %15s %15s  %-10s %s\n", "arch", "answer", "sample", "rows",
                "median |error|", "max |error|", "seeds", "note");
  os << buf;
  for (const AccuracyClassRow& c : classes) {
    if (c.rows == 0) {
      std::snprintf(buf, sizeof buf, "%-4s %-16s %-19s %4s %15s %15s  %-10s %s\n", c.architecture.c_str(),
                    c.answer_type.c_str(), c.sample.c_str(), "-", "-", "-", "-", c.note.c_str());
    } else {
      std::snprintf(buf, sizeof buf, "%-4s %-16s %-19s %4d %15s %15s  %-10s %s\n", c.architecture.c_str(),
                    c.answer_type.c_str(), c.sample.c_str(), c.rows, class_error_text(c, c.median_abs).c_str(),
                    class_error_text(c, c.max_abs).c_str(), class_seeds_text(c.seeds).c_str(), c.note.c_str());
    }
    os << buf;
  }
  os << "(errors: relative %; a stated change in % (what-if ratios) in percentage points)\n";
  return os.str();
}

std::string format_class_markdown(const std::vector<AccuracyClassRow>& classes) {
  std::ostringstream os;
  os << "| architecture | answer | sample | rows | median \\|error\\| | max \\|error\\| | seeds | note |\n"
     << "|---|---|---|---:|---:|---:|---|---|\n";
  for (const AccuracyClassRow& c : classes) {
    if (c.rows == 0)
      os << "| " << c.architecture << " | " << c.answer_type << " | " << c.sample << " | - | - | - | - | " << c.note
         << " |\n";
    else
      os << "| " << c.architecture << " | " << c.answer_type << " | " << c.sample << " | " << c.rows << " | "
         << class_error_text(c, c.median_abs) << " | " << class_error_text(c, c.max_abs) << " | " << class_seeds_text(c.seeds) << " | "
         << c.note << " |\n";
  }
  return os.str();
}

std::string accuracy_inputs_hash(const std::string& data_dir, const std::string& repo_dir) {
  std::vector<std::pair<std::string, std::string>> files;   // (name in the hash, path)
  for (const char* f : {"calibration.yaml", "measurements.csv", "devices.csv", "flash.csv", "connections.csv", "nics.csv",
                        "switches.csv", "cpus.csv"})
    files.emplace_back(std::string("data/") + f, data_dir + "/" + f);
  std::vector<std::string> scenarios;
  std::error_code ec;
  if (std::filesystem::exists(data_dir + "/measurements.csv", ec))
    scenarios = referenced_scenarios(load_measurements(data_dir + "/measurements.csv"));
  for (const std::string& s : scenarios) files.emplace_back(s, repo_dir + "/" + s);
  std::string all = "model " + model_version() + "\n";
  for (const auto& [name, path] : files) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    const std::string body = in ? text.str() : std::string("missing");
    all += name + " " + stable_hash_hex(body) + "\n";
  }
  return stable_hash_hex(all);
}

std::string accuracy_table_text(const AccuracyTable& t) {
  std::ostringstream os;
  os << "# hcisim accuracy table: every scored row of data/measurements.csv, the model's prediction, its error\n"
     << "# and the features `nearest measured` matches on (docs/accuracy.md, \"The table by class, and the committed table\").\n"
     << "# command: " << t.command << "\n"
     << "# model version: " << t.model_version << "\n"
     << "# inputs hash: " << t.inputs_hash
     << " (FNV-1a over the model version, data/calibration.yaml, data/measurements.csv, the hardware\n"
     << "#   catalog and every scenario the measurements reference; `hcisim accuracy --check` compares it)\n";
  if (!t.fingerprint.empty())
    os << "# model fingerprint: " << t.fingerprint
       << " (what the model predicts for those scenarios in 20 ms runs; `hcisim accuracy --check` compares it)\n";
  std::string header;
  for (const char* c : kTableColumns) header += (header.empty() ? "" : ",") + std::string(c);
  os << header << "\n";
  for (const AccuracyTableRow& r : t.rows) os << table_csv_line(r);
  return os.str();
}

AccuracyTable read_accuracy_table(const std::string& path) {
  AccuracyTable t;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(path + ": cannot open file");
  std::string line;
  while (std::getline(in, line) && line.rfind('#', 0) == 0) {
    auto value = [&](const char* key) {
      const std::string k = std::string("# ") + key + ": ";
      return line.rfind(k, 0) == 0 ? line.substr(k.size()) : std::string();
    };
    if (!value("command").empty()) t.command = value("command");
    if (!value("model version").empty()) t.model_version = value("model version");
    if (!value("inputs hash").empty()) t.inputs_hash = value("inputs hash").substr(0, 16);
    if (!value("model fingerprint").empty()) t.fingerprint = value("model fingerprint").substr(0, 16);
  }
  const CsvTable csv = CsvTable::read(path);
  for (std::size_t i = 0; i < csv.rows(); ++i) {
    AccuracyTableRow r;
    r.sample = csv.text(i, "sample");
    r.seed = csv.text(i, "seed");
    r.architecture = csv.text(i, "architecture");
    r.answer_type = csv.text(i, "answer_type");
    r.what_if = csv.text(i, "what_if");
    r.network_gbps = csv.number(i, "network_gbps");
    r.baseline_network_gbps = csv.number(i, "baseline_network_gbps");
    r.block_kib = csv.number(i, "block_kib");
    r.bottleneck = csv.text(i, "bottleneck");
    r.scenario = csv.text(i, "scenario");
    r.metric = csv.text(i, "metric");
    r.description = csv.text(i, "description");
    r.measured = csv.number(i, "measured");
    r.unit = csv.text(i, "unit");
    r.predicted = csv.number(i, "predicted");
    r.error = csv.number(i, "error");
    r.error_unit = csv.text(i, "error_unit");
    r.note = csv.text(i, "note");
    r.status = csv.text(i, "status");
    t.rows.push_back(std::move(r));
  }
  if (t.inputs_hash.empty()) throw InvalidArgument(path + ": no '# inputs hash: ' header line");
  return t;
}

std::string accuracy_table_stale(const std::string& table_path, const std::string& data_dir, const std::string& repo_dir,
                                 const std::string& fingerprint) {
  std::error_code ec;
  if (!std::filesystem::exists(table_path, ec))
    return table_path + " is missing; run `hcisim accuracy --write --replications 3` to write it";
  const AccuracyTable t = read_accuracy_table(table_path);
  const std::string now = accuracy_inputs_hash(data_dir, repo_dir);
  const std::string rewrite = "; run `hcisim accuracy --write --replications 3` (the command in its header) and commit it";
  if (now != t.inputs_hash)
    return table_path + " is stale: its inputs hash is " + t.inputs_hash + " (model " + t.model_version +
           "), the inputs now hash to " + now + " (model " + model_version() + ")" + rewrite;
  if (!fingerprint.empty() && fingerprint != t.fingerprint)
    return table_path + " is stale: the model's predictions moved (its model fingerprint is " +
           (t.fingerprint.empty() ? std::string("missing") : t.fingerprint) + ", the model's now " + fingerprint +
           "): bump kModelRevision in include/hcisim/calib/accuracy.hpp" + rewrite;
  return "";
}

}  // namespace hcisim
