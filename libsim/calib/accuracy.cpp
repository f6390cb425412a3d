// Predicting data/measurements.csv with the simulator (accuracy.hpp).
#include "hcisim/calib/accuracy.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <utility>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/model/core/rng.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/model/scenario/csv.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

namespace {

// The model reports throughput in MiB/s (HCIBench's and DiskSpd's "MB/s"); a row measured in
// decimal MB/s is compared after converting.
double mib_to(const std::string& unit) {
  if (unit == "MiB/s") return 1.0;
  if (unit == "MB/s") return 1.048576;
  throw InvalidArgument("measurements.csv: a throughput row's unit '" + unit + "' is not allowed; expected MiB/s or MB/s");
}


bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// DiskSpd percentile metric names: read_p95_ms, total_p99.9_ms ...
bool percentile_metric(const std::string& metric, int* op, double* q) {
  const auto p = metric.find("_p");
  if (p == std::string::npos || metric.size() < 4 || metric.substr(metric.size() - 3) != "_ms") return false;
  const std::string who = metric.substr(0, p);
  *op = who == "read" ? 0 : who == "write" ? 1 : who == "total" ? 2 : -1;
  if (*op < 0) return false;
  const std::string num = metric.substr(p + 2, metric.size() - 3 - (p + 2));
  char* end = nullptr;
  const double pct = std::strtod(num.c_str(), &end);
  if (end == num.c_str() || *end) return false;
  *q = pct / 100.0;
  return true;
}

// Outstanding I/O per VMDK of the curve sweeps.
constexpr int kCurveDepths[] = {1, 2, 4, 8, 16, 32, 64};

// A host's cpu.usage or cpu.utilization, by the metric's name.
double host_cpu(const HostResourceRow& h, const std::string& metric) {
  return metric == "cpu_usage_pct" ? h.cpu_usage_pct : h.cpu_utilization_pct;
}

// One host's CPU row of an HCIBench resource table. Which simulated host stands for which
// measured one is placement's choice, so hosts are paired by rank: the k-th busiest measured
// host of the run (ties in the order of the file) against the model's k-th busiest. Nothing
// when the run's measured and simulated host counts differ (a scenario with failed hosts).
// Compared, never fitted (fit.cpp, fitted_row).
std::optional<double> rank_paired_host_cpu(const std::vector<const Measurement*>& rows, const Measurement* mp,
                                           const RunResult& r) {
  const Measurement& m = *mp;
  std::size_t rank = 0, hosts = 1;
  for (const Measurement* o : rows)
    if (o != mp && per_host_cpu_row(*o) && o->seed_file == m.seed_file && o->scenario == m.scenario &&
        o->workload == m.workload && o->metric == m.metric) {
      ++hosts;
      if (o->value > m.value || (o->value == m.value && std::less<>()(o, mp))) ++rank;
    }
  std::vector<double> model;
  for (const auto& h : r.hosts) model.push_back(host_cpu(h, m.metric));
  if (hosts != model.size()) return std::nullopt;
  std::sort(model.begin(), model.end(), std::greater<>());
  return model[rank];
}

// Rows read off an IOPS-latency curve: a point on it, gains at peak between two curves, or
// the two curves compared at 60-70 % of their peaks.
bool part_load(const Measurement& m) { return contains(m.workload, "60-70%"); }
bool needs_curve(const Measurement& m) {
  if (contains(m.notes, "a point on") || contains(m.notes, "point of the")) return true;
  return m.kind == "ratio" && (m.metric == "peak_iops_gain_pct" || part_load(m) ||
                               (m.metric == "latency_change_pct" && contains(m.notes, "at peak")));
}

// A best case over a sweep of workloads (seed 004: 6 block sizes x 4 write shares), run for
// the scenario and its baseline alike.
struct SweepCase {
  const char* block;
  int read_pct;
};
std::vector<SweepCase> sweep_cases() {
  std::vector<SweepCase> cases;
  for (const char* block : {"4k", "8k", "16k", "32k", "64k", "128k"})
    for (int read_pct : {100, 70, 30, 0}) cases.push_back({block, read_pct});
  return cases;
}
bool needs_sweep(const Measurement& m) { return m.kind == "ratio" && contains(m.workload, "sweep"); }
std::string sweep_key(const std::string& path, const SweepCase& c) {
  return path + "@" + c.block + "/" + std::to_string(c.read_pct);
}

struct Curve {
  std::vector<double> iops;
  std::vector<double> latency_ms;         // mean over reads and writes
  std::vector<double> write_latency_ms;
  bool empty() const { return iops.empty(); }
  // The knee: the first point within 3 % of the highest IOPS.
  std::size_t peak() const {
    const double top = *std::max_element(iops.begin(), iops.end());
    for (std::size_t i = 0; i < iops.size(); ++i)
      if (iops[i] >= 0.97 * top) return i;
    return iops.size() - 1;
  }
  // The point at `share` of the peak IOPS, interpolated below the knee: (IOPS, latency).
  std::pair<double, double> at_share_of_peak(double share) const {
    const double x = share * iops[peak()];
    return {x, latency_at(x)};
  }
  // Latency at `x` IOPS by linear interpolation below the peak; NaN if the curve never gets there.
  double latency_at(double x) const {
    for (std::size_t i = 0; i < iops.size(); ++i) {
      if (iops[i] < x) continue;
      if (i == 0) return latency_ms[0];
      const double t = (x - iops[i - 1]) / (iops[i] - iops[i - 1]);
      return latency_ms[i - 1] + t * (latency_ms[i] - latency_ms[i - 1]);
    }
    return std::nan("");
  }
  // IOPS where `lat` (latency_ms or write_latency_ms) first reaches `ms`, interpolated between
  // the two depths around it; NaN when the first depth is already above it; the curve's
  // highest IOPS, with *beyond set, when no depth reaches it (a lower bound).
  double iops_at_latency(const std::vector<double>& lat, double ms, bool* beyond) const {
    *beyond = false;
    for (std::size_t i = 0; i < lat.size(); ++i) {
      if (lat[i] < ms) continue;
      if (i == 0) return std::nan("");
      const double t = (ms - lat[i - 1]) / (lat[i] - lat[i - 1]);
      return iops[i - 1] + t * (iops[i] - iops[i - 1]);
    }
    *beyond = true;
    return *std::max_element(iops.begin(), iops.end());
  }
};

}  // namespace

std::string baseline_of(const Measurement& m) {
  const auto pos = m.notes.find("baseline: ");
  if (pos == std::string::npos) return "";
  const auto start = pos + 10;
  auto end = m.notes.find_first_of("; ,\"", start);
  return m.notes.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::vector<std::string> referenced_scenarios(const std::vector<Measurement>& measurements) {
  std::vector<std::string> paths;
  for (const Measurement& m : measurements)
    for (const std::string& p : {m.scenario, baseline_of(m)})
      if (!p.empty()) paths.push_back(p);
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

const char* accuracy_class_name(AccuracyClass c) {
  switch (c) {
    case AccuracyClass::throughput: return "iops/throughput";
    case AccuracyClass::mean_latency: return "mean latency";
    case AccuracyClass::other: return "other";
    case AccuracyClass::ratio: return "ratio";
    case AccuracyClass::unsupported: return "not predicted";
  }
  return "?";
}

std::vector<Measurement> load_measurements(const std::string& path) {
  const CsvTable t = CsvTable::read(path);
  std::vector<Measurement> out;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    Measurement m;
    m.seed_file = t.text(r, "seed_file");
    m.scenario = t.text(r, "scenario");
    m.workload = t.text(r, "workload");
    m.metric = t.text(r, "metric");
    m.value = t.number(r, "value");
    m.unit = t.text(r, "unit");
    m.kind = t.text(r, "kind");
    m.notes = t.text(r, "notes");
    m.line = t.line_of(r);
    if (m.kind != "absolute" && m.kind != "ratio")
      throw InvalidArgument(path + ":" + std::to_string(m.line) + ": column 'kind' = '" + m.kind +
                            "' is not allowed; expected absolute or ratio");
    static const char* const kUnits[] = {"ms", "ms-floor", "s", "%", "IO/s", "I/Os", "MiB/s", "MB/s", "bytes", "x", "ratio"};
    if (std::find_if(std::begin(kUnits), std::end(kUnits), [&](const char* u) { return m.unit == u; }) == std::end(kUnits)) {
      std::string allowed;
      for (const char* u : kUnits) allowed += std::string(allowed.empty() ? "" : ", ") + u;
      throw InvalidArgument(path + ":" + std::to_string(m.line) + ": column 'unit' = '" + m.unit +
                            "' is not allowed; expected " + allowed);
    }
    int op = 0;
    double q = 0;
    if (m.unit == "ms-floor" && (m.kind != "absolute" || !percentile_metric(m.metric, &op, &q)))
      throw InvalidArgument(path + ":" + std::to_string(m.line) + ": column 'unit' = 'ms-floor' is not allowed for " + m.kind +
                            " metric '" + m.metric +
                            "'; it marks a measured latency percentile (read_p95_ms ...) floored to whole ms");
    if (m.kind == "absolute" && !(m.value >= 0))
      throw InvalidArgument(path + ":" + std::to_string(m.line) + ": column 'value' = " + std::to_string(m.value) +
                            " is not allowed for an absolute measurement; expected a value >= 0");
    out.push_back(std::move(m));
  }
  return out;
}

AccuracySummary summarize(const std::vector<Prediction>& rows) {
  AccuracySummary s;
  std::vector<double> tp, lat;
  for (const Prediction& p : rows) {
    if (p.latency_defined) continue;
    if (p.cls == AccuracyClass::throughput) tp.push_back(std::fabs(p.error_pct));
    if (p.cls == AccuracyClass::mean_latency) lat.push_back(std::fabs(p.error_pct));
    if (p.cls == AccuracyClass::ratio) {
      ++s.ratio_rows;
      s.ratio_max_abs_points = std::max(s.ratio_max_abs_points, std::fabs(p.error_pct));
    }
  }
  s.throughput_rows = static_cast<int>(tp.size());
  s.throughput_median_abs_pct = median(tp);
  s.throughput_max_abs_pct = tp.empty() ? 0 : *std::max_element(tp.begin(), tp.end());
  s.latency_rows = static_cast<int>(lat.size());
  s.latency_median_abs_pct = median(lat);
  s.latency_max_abs_pct = lat.empty() ? 0 : *std::max_element(lat.begin(), lat.end());
  // Noise-aware: rows that measure the same metric of the same scenario more than once (seed
  // 002's two runs of one DiskSpd command) become one row scored against the midpoint of the
  // runs, with half their spread counted as measurement noise.
  for (AccuracyClass cls : {AccuracyClass::throughput, AccuracyClass::mean_latency}) {
    std::vector<double> errors;
    std::vector<bool> done(rows.size(), false);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].cls != cls || done[i] || rows[i].latency_defined) continue;
      double lo = rows[i].m.value, hi = rows[i].m.value;
      for (std::size_t j = i + 1; j < rows.size(); ++j)
        if (!done[j] && rows[j].cls == cls && rows[j].m.seed_file == rows[i].m.seed_file &&
            rows[j].m.scenario == rows[i].m.scenario && rows[j].m.metric == rows[i].m.metric) {
          done[j] = true;
          lo = std::min(lo, rows[j].m.value);
          hi = std::max(hi, rows[j].m.value);
        }
      const double mid = (lo + hi) / 2, half = (hi - lo) / 2;
      errors.push_back(hi == lo ? std::fabs(rows[i].error_pct)
                                : std::max(0.0, std::fabs(rows[i].predicted - mid) - half) / std::fabs(mid) * 100);
    }
    const double med = median(errors), max = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());
    (cls == AccuracyClass::throughput ? s.throughput_noise_median_pct : s.latency_noise_median_pct) = med;
    (cls == AccuracyClass::throughput ? s.throughput_noise_max_pct : s.latency_noise_max_pct) = max;
  }
  return s;
}

namespace {

// The rows of the seeds asked for (every row without options.only_seeds); a seed that no row
// measures is an error naming the seeds there are.
std::vector<const Measurement*> select_rows(const std::vector<Measurement>& measurements, const AccuracyOptions& options) {
  std::vector<const Measurement*> rows;
  for (const Measurement& m : measurements) {
    bool keep = options.only_seeds.empty();
    for (const auto& s : options.only_seeds) keep = keep || m.seed_file.rfind(s, 0) == 0;
    if (keep) rows.push_back(&m);
  }
  for (const auto& s : options.only_seeds) {
    bool known = false;
    std::string seeds;
    for (const Measurement& m : measurements) {
      known = known || m.seed_file.rfind(s, 0) == 0;
      const std::string id = m.seed_file.substr(0, 3);
      if (seeds.find(id) == std::string::npos) seeds += (seeds.empty() ? "" : ", ") + id;
    }
    if (!known) throw InvalidArgument("--seeds: no measurement of seed '" + s + "'; the measurements cover " + seeds);
  }
  return rows;
}

// One run of a scenario file with overrides, under its key: the path, "path@block/read_pct"
// for a sweep case, or "path#depth" for a curve point.
struct Job {
  std::string key;
  std::string path;
  std::vector<std::string> overrides;
};

// Every scenario referenced (and every ratio's baseline) runs once; scenarios whose rows
// are read off an IOPS-latency curve also run as a sweep of outstanding I/O per VMDK.
std::vector<Job> plan_jobs(const std::vector<const Measurement*>& rows, const AccuracyOptions& options) {
  std::vector<Job> jobs;
  std::vector<std::string> curve_paths;
  auto add_job = [&](const std::string& key, const std::string& path, std::vector<std::string> ov) {
    for (const Job& j : jobs)
      if (j.key == key) return;
    jobs.push_back({key, path, std::move(ov)});
  };
  for (const Measurement* m : rows) {
    for (const std::string& p : {m->scenario, baseline_of(*m)}) {
      if (p.empty()) continue;
      if (needs_sweep(*m)) {
        for (const SweepCase& c : sweep_cases()) {
          auto ov = options.overrides;
          ov.push_back(std::string("workload.block_size=") + c.block);
          ov.push_back("workload.read_pct=" + std::to_string(c.read_pct));
          add_job(sweep_key(p, c), p, ov);
        }
        continue;
      }
      add_job(p, p, options.overrides);
      if (needs_curve(*m) && std::find(curve_paths.begin(), curve_paths.end(), p) == curve_paths.end())
        curve_paths.push_back(p);
    }
  }
  for (const std::string& p : curve_paths)
    for (int depth : kCurveDepths) {
      auto ov = options.overrides;
      ov.push_back("workload.outstanding_per_vmdk=" + std::to_string(depth));
      add_job(p + "#" + std::to_string(depth), p, ov);
    }
  return jobs;
}

// The jobs' results by key, and why each job that could not run did not.
struct Runs {
  std::map<std::string, RunResult> results;
  std::map<std::string, std::string> load_errors;

  // The curve of a scenario's depth sweep; empty if any point is missing.
  Curve curve_of(const std::string& path) const {
    Curve c;
    for (int depth : kCurveDepths) {
      const auto it = results.find(path + "#" + std::to_string(depth));
      if (it == results.end()) return Curve{};
      c.iops.push_back(it->second.result.iops);
      c.latency_ms.push_back(it->second.result.pooled_latency_ms);
      c.write_latency_ms.push_back(it->second.result.write_latency_ms);
    }
    return c;
  }
};

// Runs every job, options.jobs at a time. A scenario that cannot be loaded or run is kept as
// its error; every one failing means the input, not a scenario, is wrong (a bad --set).
Runs run_jobs(const std::vector<Job>& jobs, const HardwareCatalog& catalog, const AccuracyOptions& options,
              const std::function<void(double)>& progress) {
  std::vector<RunResult> results(jobs.size());
  std::vector<std::string> errors(jobs.size());
  std::atomic<std::size_t> done{0};
  std::mutex mu;
  parallel_for(jobs.size(), options.jobs, [&](std::size_t i) {
    try {
      const Scenario s = load_scenario(options.repo_dir + "/" + jobs[i].path, jobs[i].overrides, catalog);
      results[i] = simulate(s, options.run_progress);
    } catch (const InvalidArgument& e) {
      errors[i] = e.what();
    }
    const double f = static_cast<double>(++done) / static_cast<double>(jobs.size());
    if (progress) {
      std::lock_guard<std::mutex> lock(mu);
      progress(f);
    }
  });
  if (!jobs.empty() && std::all_of(errors.begin(), errors.end(), [](const std::string& e) { return !e.empty(); }))
    throw InvalidArgument("no scenario of the measurements could run; the first: " + errors.front());
  Runs runs;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (errors[i].empty()) runs.results[jobs[i].key] = std::move(results[i]);
    else runs.load_errors[jobs[i].key] = errors[i];
  }
  return runs;
}

// A row the model does not predict, and why.
Prediction not_predicted(const Measurement& m, const std::string& why) {
  Prediction p;
  p.m = m;
  p.cls = AccuracyClass::unsupported;
  p.reason = why;
  return p;
}

// A predicted row with its error (relative in %, or in points for a gain).
Prediction predicted(const Measurement& m, AccuracyClass cls, double value, double error) {
  Prediction p;
  p.m = m;
  p.cls = cls;
  p.predicted = p.predicted_min = p.predicted_max = value;
  p.error_pct = error;
  return p;
}

// A best case over the sweep of workloads: the highest throughput ratio, the lowest latency
// ratio.
Prediction predict_sweep(const Measurement& m, const Runs& runs) {
  if (m.metric != "throughput_ratio" && m.metric != "latency_ratio") return not_predicted(m, "metric not predicted over a sweep");
  const std::string base = baseline_of(m);
  const bool tp = m.metric == "throughput_ratio";
  double best = tp ? 0.0 : 1e300;
  std::string missing;
  for (const SweepCase& c : sweep_cases()) {
    const auto a = runs.results.find(sweep_key(m.scenario, c));
    const auto b = runs.results.find(sweep_key(base, c));
    if (a == runs.results.end() || b == runs.results.end()) {
      missing = sweep_key(a == runs.results.end() ? m.scenario : base, c);
      continue;
    }
    const WorkloadResult& x = a->second.result;
    const WorkloadResult& y = b->second.result;
    best = tp ? std::max(best, x.throughput_mbps / y.throughput_mbps)
              : std::min(best, x.pooled_latency_ms / y.pooled_latency_ms);
  }
  if (!missing.empty()) return not_predicted(m, "sweep run failed: " + missing);
  return predicted(m, AccuracyClass::ratio, best, error_pct(m, best));
}

// An IOPS row a latency defines ("350K IOPS at 0.73 ms", a point on the curve): the model's
// IOPS where its curve's mean latency reaches the companion latency row's figure. The
// write-up does not say which latency it states, so the IOPS where the write latency reaches
// it is shown beside (the note).
Prediction predict_iops_at_latency(const Measurement& m, const Curve& curve, const std::vector<Measurement>& measurements) {
  double ms = 0;
  for (const Measurement& other : measurements)
    if (other.scenario == m.scenario && other.metric == "total_latency_ms" && other.kind == "absolute") ms = other.value;
  if (!(ms > 0)) return not_predicted(m, "a point on a curve without its latency row");
  bool beyond = false, write_beyond = false;
  const double iops = curve.iops_at_latency(curve.latency_ms, ms, &beyond);
  const double write_iops = curve.iops_at_latency(curve.write_latency_ms, ms, &write_beyond);
  if (!std::isfinite(iops)) return not_predicted(m, "the model's curve starts above that latency");
  Prediction p = predicted(m, AccuracyClass::throughput, iops, error_pct(m, iops));
  p.latency_defined = true;
  char note[200];
  std::snprintf(note, sizeof note, "IOPS at mean latency %g ms%s; at write latency %g ms: %s%.0f", ms,
                beyond ? " (the curve stays below it: its peak)" : "", ms, write_beyond ? ">= " : "", write_iops);
  if (!std::isfinite(write_iops)) std::snprintf(note, sizeof note, "IOPS at mean latency %g ms; the write latency starts above it", ms);
  p.note = note;
  return p;
}

// A row read off the scenario's IOPS-latency curve: a gain against the baseline's curve (at
// the peaks, or at 65 % of each), or the latency at the load of the companion IOPS row.
Prediction predict_curve(const Measurement& m, const Runs& runs, const std::vector<Measurement>& measurements) {
  const Curve here = runs.curve_of(m.scenario);
  if (here.empty()) return not_predicted(m, "curve runs failed");
  if (m.kind == "ratio") {
    const Curve base = runs.curve_of(baseline_of(m));
    if (base.empty()) return not_predicted(m, "baseline curve missing");
    const std::size_t a = here.peak(), b = base.peak();
    double gain = 0;
    if (part_load(m)) {
      // Each curve at 65 % of its own peak (the middle of the stated 60-70 %).
      const auto [xh, lh] = here.at_share_of_peak(0.65);
      const auto [xb, lb] = base.at_share_of_peak(0.65);
      gain = m.metric == "iops_gain_pct" ? 100.0 * (xh / xb - 1.0) : 100.0 * (lh / lb - 1.0);
    } else {
      gain = m.metric == "peak_iops_gain_pct" ? 100.0 * (here.iops[a] / base.iops[b] - 1.0)
                                              : 100.0 * (here.latency_ms[a] / base.latency_ms[b] - 1.0);
    }
    return predicted(m, AccuracyClass::ratio, gain, gain - m.value);   // percentage points
  }
  if (m.metric == "iops") return predict_iops_at_latency(m, here, measurements);
  // The latency at the load named by the companion IOPS row.
  double load = 0;
  for (const Measurement& other : measurements)
    if (other.scenario == m.scenario && other.metric == "iops" && contains(other.notes, "a point on")) load = other.value;
  const double lat = load > 0 ? here.latency_at(load) : std::nan("");
  if (!std::isfinite(lat)) return not_predicted(m, "the model's curve does not reach that load");
  return predicted(m, AccuracyClass::mean_latency, lat, error_pct(m, lat));
}

// A ratio of the scenario's run to its baseline's.
Prediction predict_ratio(const Measurement& m, const RunResult& r, const Runs& runs) {
  const std::string base = baseline_of(m);
  if (base.empty() || !runs.results.count(base))
    return not_predicted(m, base.empty() ? "ratio without a baseline scenario" : "baseline scenario not in examples/ yet");
  const RunResult& b = runs.results.at(base);
  double v = 0;
  if (m.metric == "bandwidth_ratio" || m.metric == "throughput_ratio") v = r.result.throughput_mbps / b.result.throughput_mbps;
  else if (m.metric == "iops_gain" && m.unit == "IO/s") v = r.result.iops - b.result.iops;
  else return not_predicted(m, "ratio metric not predicted");
  return predicted(m, AccuracyClass::ratio, v, error_pct(m, v));
}

// DiskSpd's CPU table is the guest's: the busy share of the VM's vCPUs, which the model's
// guest stage (windows_guest_cpu_us for a Windows guest, else guest_cpu_us) is, spread over
// the VMs (work at a thread's full speed: a thread that shares its core with a busy sibling
// would show a little more).
Prediction predict_guest_cpu(const Measurement& m, const RunResult& r) {
  if (!r.groups.empty())   // one VM's table; groups may state different vCPUs
    return not_predicted(m, "guest CPU of a run with workload groups (one VM's table is compared)");
  if (r.workload.vcpus_per_vm <= 0) return not_predicted(m, "guest CPU: the scenario states no workload.vcpus_per_vm");
  if (r.vms <= 0) return not_predicted(m, "guest CPU: the run has no VMs");
  double guest_cores = 0;
  for (const auto& h : r.hosts) guest_cores += h.stage_cores[static_cast<std::size_t>(CpuStage::guest)];
  const double busy_pct = 100.0 * guest_cores / (r.vms * r.workload.vcpus_per_vm);
  return predicted(m, AccuracyClass::other, busy_pct, error_pct(m, busy_pct));
}

// A figure of the scenario's run, by the row's metric.
Prediction predict_metric(const Measurement* mp, const std::vector<const Measurement*>& rows, const RunResult& r,
                          bool diskspd) {
  const Measurement& m = *mp;
  const WorkloadResult& w = r.result;
  double pred = 0;
  AccuracyClass cls = AccuracyClass::other;
  int op = 0;
  double q = 0;
  if (m.metric == "iops") pred = w.iops, cls = AccuracyClass::throughput;
  else if (m.metric == "throughput_mbps" || m.metric == "throughput_mibps") pred = w.throughput_mbps * mib_to(m.unit), cls = AccuracyClass::throughput;
  else if (m.metric == "throughput_mbps_per_node")
    pred = w.throughput_mbps * mib_to(m.unit) / static_cast<double>(std::max<std::size_t>(1, r.hosts.size()));
  else if (m.metric == "read_iops") pred = w.read_iops;
  else if (m.metric == "write_iops") pred = w.write_iops;
  else if (m.metric == "read_latency_ms") pred = w.read_latency_ms, cls = AccuracyClass::mean_latency;
  else if (m.metric == "write_latency_ms") pred = w.write_latency_ms, cls = AccuracyClass::mean_latency;
  else if (m.metric == "total_latency_ms") pred = w.pooled_latency_ms, cls = AccuracyClass::mean_latency;
  else if (m.metric == "read_p95_ms" && !diskspd) pred = w.read_p95_ms;
  else if (m.metric == "write_p95_ms" && !diskspd) pred = w.write_p95_ms;
  else if ((m.metric == "cpu_usage_pct" || m.metric == "cpu_utilization_pct") && contains(m.notes, "Average")) {
    double sum = 0;
    for (const auto& h : r.hosts) sum += host_cpu(h, m.metric);
    pred = r.hosts.empty() ? 0 : sum / static_cast<double>(r.hosts.size());
  } else if (per_host_cpu_row(m)) {
    const std::optional<double> host = rank_paired_host_cpu(rows, mp, r);
    if (!host) return not_predicted(m, "per-host row: the measured and the simulated host counts differ");
    pred = *host;
  } else if (diskspd && percentile_metric(m.metric, &op, &q) && q <= 0.9999) {
    LatencyHistogram h = op == 2 ? r.pooled[0] : r.pooled[static_cast<std::size_t>(op)];
    if (op == 2) h.merge(r.pooled[1]);
    pred = h.percentile(q).ms();
  } else {
    return not_predicted(m, contains(m.metric, "mem")   ? "memory is not modelled"
                            : contains(m.metric, "cpu") ? "CPU figure not predicted"
                                                        : "metric not predicted");
  }
  return predicted(m, cls, pred, error_pct(m, pred));
}

// One row's prediction: over a sweep, off a curve, or from the scenario's own run.
Prediction predict_row(const Measurement* mp, const std::vector<const Measurement*>& rows, const Runs& runs,
                       const std::vector<Measurement>& measurements) {
  const Measurement& m = *mp;
  if (needs_sweep(m)) return predict_sweep(m, runs);
  if (needs_curve(m)) return predict_curve(m, runs, measurements);
  if (runs.load_errors.count(m.scenario)) {
    const std::string& error = runs.load_errors.at(m.scenario);
    return not_predicted(m, contains(error, "cannot be read") ? "scenario file not in examples/ yet" : error);
  }
  const RunResult& r = runs.results.at(m.scenario);
  const bool diskspd = contains(m.notes, "DiskSpd");
  const bool total_row = contains(m.notes, "'total:' row");
  if (contains(m.workload, "sweep")) return not_predicted(m, "a best case over a sweep of workloads: needs the sweep");
  if (m.kind == "ratio") return predict_ratio(m, r, runs);
  if (m.value == 0) return not_predicted(m, "0 in the report (no such I/O in this workload)");
  if (guest_cpu_row(m)) return predict_guest_cpu(m, r);
  if (diskspd && !total_row && !contains(m.notes, "percentile"))
    return not_predicted(m, contains(m.notes, "thread") ? "per-thread row (the 'total:' row is compared)"
                            : contains(m.notes, "CPU table")
                                ? "a guest vCPU's, or the user, kernel or idle share (the avg. usage row is compared)"
                                : "guest-side figure, not modelled");
  return predict_metric(mp, rows, r, diskspd);
}

// Every row predicted from one run of each scenario (with options.overrides).
AccuracyReport evaluate_once(const std::vector<Measurement>& measurements, const HardwareCatalog& catalog,
                             const AccuracyOptions& options, const std::function<void(double)>& progress) {
  const std::vector<const Measurement*> rows = select_rows(measurements, options);
  const Runs runs = run_jobs(plan_jobs(rows, options), catalog, options, progress);
  AccuracyReport report;
  for (const Measurement* mp : rows) {
    report.rows.push_back(predict_row(mp, rows, runs, measurements));
    const auto run = runs.results.find(mp->scenario);
    if (run != runs.results.end()) report.rows.back().bottleneck = run->second.bottleneck;
  }
  report.summary = summarize(report.rows);
  return report;
}

}  // namespace

bool guest_cpu_row(const Measurement& m) {
  return m.metric == "cpu_usage_pct" && contains(m.notes, "DiskSpd CPU table") && contains(m.notes, "avg. row");
}

bool per_host_cpu_row(const Measurement& m) {
  return (m.metric == "cpu_usage_pct" || m.metric == "cpu_utilization_pct") &&
         contains(m.notes, "HCIBench resource table, host ");
}

// Relative error in % of a prediction against a row. A row in "ms-floor" is a latency its
// report floored to whole milliseconds: HCIBench's fio parser (parseFioResult.rb, the versions
// that print two decimals) sums each VM's p95 from fio's JSON, integer nanoseconds, and divides
// by the integer VMs x 1000000, a Ruby integer division; a later version divides by 1000000.0
// and prints four decimals. Seed 000's three p95 figures (10.00, 1.00, 52.00) are all whole. So
// a measured v stands for [v, v + 1) ms, and a prediction inside that is exact; outside, the
// error is taken against the interval's nearer end.
double error_pct(const Measurement& m, double predicted) {
  if (m.unit == "ms-floor") {
    const double nearest = std::clamp(predicted, m.value, m.value + 1.0);
    return 100.0 * (predicted - nearest) / nearest;
  }
  return 100.0 * (predicted - m.value) / std::fabs(m.value);
}

// Replications: the same rows predicted with scenario seeds 1..N (placement, every random
// choice), combined row by row. A row's error is affine in its prediction (relative % or
// points), so the mean error is the error of the mean prediction; a floored row's is
// recomputed at the mean prediction.
AccuracyReport evaluate(const std::vector<Measurement>& measurements, const HardwareCatalog& catalog,
                        const AccuracyOptions& options, const std::function<void(double)>& progress) {
  const int n = static_cast<int>(check::in_range(options.replications, 1, 100, "accuracy replications"));
  if (n == 1) return evaluate_once(measurements, catalog, options, progress);   // the scenario's own seed
  for (const std::string& o : options.overrides)
    if (o.rfind("seed=", 0) == 0)
      throw InvalidArgument("accuracy: override '" + o + "' fixes the scenario seed, but replications = " +
                            std::to_string(n) + " runs seeds 1.." + std::to_string(n) + "; use one or the other");
  AccuracyReport combined;
  for (int k = 1; k <= n; ++k) {
    AccuracyOptions o = options;
    o.overrides.push_back("seed=" + std::to_string(k));
    const AccuracyReport r = evaluate_once(measurements, catalog, o, [&](double f) {
      if (progress) progress((k - 1 + f) / n);
    });
    if (k == 1) {
      combined = r;
      continue;
    }
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      Prediction& c = combined.rows[i];
      const Prediction& p = r.rows[i];
      if (c.cls == AccuracyClass::unsupported) continue;
      if (p.cls == AccuracyClass::unsupported) {   // a replication failed: the row is not predicted
        c = p;
        c.reason = "scenario seed " + std::to_string(k) + ": " + p.reason;
        continue;
      }
      c.predicted += p.predicted;
      c.error_pct += p.error_pct;
      c.predicted_min = std::min(c.predicted_min, p.predicted);
      c.predicted_max = std::max(c.predicted_max, p.predicted);
    }
  }
  for (Prediction& c : combined.rows) {
    if (c.cls == AccuracyClass::unsupported) continue;
    c.predicted /= n;
    c.error_pct /= n;
    // A floored row's error is not affine in the prediction: take it at the mean prediction.
    if (c.m.unit == "ms-floor") c.error_pct = error_pct(c.m, c.predicted);
    if (!c.note.empty()) c.note += " (the write reading: scenario seed 1)";
  }
  combined.summary = summarize(combined.rows);
  combined.replications = n;
  return combined;
}

std::string format_accuracy(const AccuracyReport& report, bool include_unsupported) {
  std::ostringstream os;
  char buf[512];
  // With replications, the lowest and highest prediction over the scenario seeds follow.
  const bool spread = report.replications > 1;
  if (spread)
    std::snprintf(buf, sizeof buf, "%-5s %-58s %-20s %12s %12s %9s  %-16s%11s  %11s\n", "seed", "scenario", "metric",
                  "measured", "predicted", "error %", "class", "min", "max");
  else
    std::snprintf(buf, sizeof buf, "%-5s %-58s %-20s %12s %12s %9s  %s\n", "seed", "scenario", "metric", "measured",
                  "predicted", "error %", "class");
  os << buf;
  for (const Prediction& p : report.rows) {
    if (p.cls == AccuracyClass::unsupported && !include_unsupported) continue;
    std::string scen = p.m.scenario;
    const auto slash = scen.rfind('/');
    if (slash != std::string::npos) scen = scen.substr(slash + 1);
    if (scen.size() > 5 && scen.substr(scen.size() - 5) == ".yaml") scen.resize(scen.size() - 5);
    if (p.cls == AccuracyClass::unsupported)
      std::snprintf(buf, sizeof buf, "%-5.3s %-58.58s %-20.20s %12.6g %12s %9s  %s\n", p.m.seed_file.c_str(), scen.c_str(),
                    p.m.metric.c_str(), p.m.value, "-", "-", p.reason.c_str());
    else {
      // A floored row prints the interval it stands for ("10-11"), the interval its error is taken against.
      char measured[32];
      if (p.m.unit == "ms-floor") std::snprintf(measured, sizeof measured, "%g-%g", p.m.value, p.m.value + 1);
      else std::snprintf(measured, sizeof measured, "%.6g", p.m.value);
      if (spread)
        std::snprintf(buf, sizeof buf, "%-5.3s %-58.58s %-20.20s %12s %12.6g %+9.1f  %-16s%11.6g  %11.6g\n",
                      p.m.seed_file.c_str(), scen.c_str(), p.m.metric.c_str(), measured, p.predicted, p.error_pct,
                      accuracy_class_name(p.cls), p.predicted_min, p.predicted_max);
      else
        std::snprintf(buf, sizeof buf, "%-5.3s %-58.58s %-20.20s %12s %12.6g %+9.1f  %s\n", p.m.seed_file.c_str(),
                      scen.c_str(), p.m.metric.c_str(), measured, p.predicted, p.error_pct, accuracy_class_name(p.cls));
    }
    os << buf;
    if (!p.note.empty() && p.cls != AccuracyClass::unsupported) os << "      (" << p.note << ")\n";
  }
  os << "\n" << format_summary(report.summary);
  if (spread) os << "(predictions are means over scenario seeds 1-" << report.replications << ")\n";
  return os.str();
}

std::string format_summary(const AccuracySummary& s) {
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "IOPS/throughput: %d rows, median |error| %.1f %%, max %.1f %% (noise-aware: median %.1f %%, max %.1f %%)\n"
                "mean latency:    %d rows, median |error| %.1f %%, max %.1f %% (noise-aware: median %.1f %%, max %.1f %%)\n"
                "stated ratios:   %d rows, max |error| %.1f %%\n"
                "(all seeds at once; IOPS rows a latency defines are in the table by class only)\n",
                s.throughput_rows, s.throughput_median_abs_pct, s.throughput_max_abs_pct, s.throughput_noise_median_pct,
                s.throughput_noise_max_pct, s.latency_rows, s.latency_median_abs_pct, s.latency_max_abs_pct,
                s.latency_noise_median_pct, s.latency_noise_max_pct, s.ratio_rows, s.ratio_max_abs_points);
  return buf;
}

// The scenarios in file order, one after another (a second or so in all): the hash must not
// depend on the machine's cores.
std::string model_fingerprint(const std::string& data_dir, const std::string& repo_dir, const HardwareCatalog& catalog) {
  std::string all;
  for (const std::string& path : referenced_scenarios(load_measurements(data_dir + "/measurements.csv"))) {
    const Scenario s = load_scenario(repo_dir + "/" + path, {"workload.duration_s=0.02", "workload.warmup_s=0.005"}, catalog);
    const RunResult r = simulate(s, {});
    const WorkloadResult& w = r.result;
    all += path;
    for (double v : {w.iops, w.read_latency_ms, w.write_latency_ms, w.read_p95_ms, w.write_p95_ms,
                     static_cast<double>(w.simulated_ios)})
      all += " " + json_number(v);
    for (const HostResourceRow& h : r.hosts) all += " " + json_number(h.cpu_usage_pct);
    all += "\n";
  }
  return stable_hash_hex(all);
}

}  // namespace hcisim
