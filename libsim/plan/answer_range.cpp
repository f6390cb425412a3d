// A range on every answer: seeds and the calibration's standard errors (answer_range.hpp).
#include "hcisim/plan/answer_range.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <numeric>
#include <set>

#include "hcisim/model/core/batch_means.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/plan/analytic.hpp"
#include "hcisim/model/report/text_escape.hpp"

namespace hcisim {

const AnswerRange& Ranged::at(std::string_view name) const {
  for (const AnswerRange& a : answers)
    if (a.name == name) return a;
  throw InvalidArgument("no answer named '" + std::string(name) + "' in this range");
}

namespace {

// One evaluation: a seed at the base calibration, or a seed with one parameter moved.
struct Task {
  Scenario scenario;
  int parameter = -1;   // index into Ranged::parameters; -1: the base calibration
  std::size_t seed = 0; // 0..N-1
};

// Where one standard error takes a parameter, inside its physical range: up if it fits, else
// down, else to the farther bound (the effect is then scaled to one standard error, the delta
// method's linearity). The bound itself, not fitted +- (bound - fitted), which can round past it.
double moved_value(const CalibrationParameter& p) {
  const double up = p.max - p.fitted, down = p.fitted - p.min;
  if (p.stderr_value <= up) return p.fitted + p.stderr_value;
  if (p.stderr_value <= down) return p.fitted - p.stderr_value;
  return up >= down ? p.max : p.min;
}

double mean_of(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size()); }

// The statistics of an answer from its seeds (`each`; NaN where a seed has no answer, such as
// a knee not found) and its parameters' per-seed effects (`effect_each`).
void finish(AnswerRange& a, const Calibration& calibration, bool non_negative) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> found;
  for (double x : a.each)
    if (std::isfinite(x)) found.push_back(x);
  a.found = static_cast<int>(found.size());
  a.value = a.seed_sd = a.seed_min = a.seed_max = a.calibration_sd = a.low = a.high = nan;
  for (ParameterEffect& e : a.effects) e.effect = e.effect_se = nan;
  if (found.empty()) return;
  a.value = mean_of(found);
  const auto [lo, hi] = std::minmax_element(found.begin(), found.end());
  a.seed_min = *lo;
  a.seed_max = *hi;
  if (found.size() < 2) return;   // one value: no spread to tell
  const auto n = static_cast<double>(found.size());
  double ss = 0;
  for (double x : found) ss += (x - a.value) * (x - a.value);
  a.seed_sd = std::sqrt(ss / (n - 1));
  // The effects: the mean over the seeds where the base and every moved run have an answer
  // (common random numbers make each seed's difference mostly the parameter's effect, but
  // the timing of events drifts apart, so one seed's is noisy). E[e^T R e] exceeds the true
  // value by tr(R C), C the covariance of the mean effects: that noise is taken off.
  const std::size_t np = a.effects.size();
  std::vector<std::size_t> pairs;
  for (std::size_t i = 0; i < a.each.size(); ++i) {
    bool all = std::isfinite(a.each[i]);
    for (std::size_t p = 0; p < np; ++p) all = all && std::isfinite(a.effect_each[p][i]);
    if (all) pairs.push_back(i);
  }
  double var = 0;
  if (np > 0) {
    if (pairs.empty()) return;   // no seed answers both ways: the calibration's part is unknown, so is the range
    const auto m = static_cast<double>(pairs.size());
    for (std::size_t p = 0; p < np; ++p) {
      double sum = 0;
      for (std::size_t i : pairs) sum += a.effect_each[p][i];
      a.effects[p].effect = sum / m;
    }
    for (std::size_t p = 0; p < np; ++p)
      for (std::size_t q = 0; q < np; ++q) {
        const double r = calibration.correlation(a.effects[p].parameter, a.effects[q].parameter);
        double c = 0;   // covariance of the two mean effects
        if (pairs.size() > 1) {
          for (std::size_t i : pairs) c += (a.effect_each[p][i] - a.effects[p].effect) * (a.effect_each[q][i] - a.effects[q].effect);
          c /= (m - 1) * m;
        }
        if (p == q) a.effects[p].effect_se = std::sqrt(c);
        var += r * (a.effects[p].effect * a.effects[q].effect - c);
      }
  }
  a.calibration_sd = std::sqrt(std::max(0.0, var));
  const double seed_part = student_t_quantile(0.975, static_cast<int>(n) - 1) * a.seed_sd * std::sqrt(1.0 + 1.0 / n);
  const double half = std::hypot(seed_part, 1.959964 * a.calibration_sd);
  a.low = non_negative ? std::max(0.0, a.value - half) : a.value - half;
  a.high = a.value + half;
}

}  // namespace

Ranged answer_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                    const std::vector<std::string>& names, const RangeAnswer& answer, const RangeOptions& options) {
  check::in_range(options.seeds, 2, 100, "range seeds");
  check::in_range(options.jobs, 0, 256, "range jobs");
  if (names.empty()) throw InvalidArgument("answer_range: no answer named");
  Ranged out;
  out.seeds = options.seeds;
  out.first_seed = scenario.seed;
  out.calibration = options.calibration;
  const auto n = static_cast<std::size_t>(options.seeds);

  // Every seed at the base calibration, then every seed again with each fitted parameter moved.
  std::vector<Scenario> bases{scenario};
  std::vector<double> steps;   // per parameter: the move (its standard error, or to a bound)
  if (options.calibration) {
    std::vector<GuestOs> guests{scenario.workload.guest_os};
    for (const WorkloadSpec& g : scenario.groups) guests.push_back(g.guest_os);
    for (const CalibrationParameter& p : catalog.calibration().parameters()) {
      if (!(p.stderr_value > 0)) continue;
      // A parameter this cluster does not use moves nothing: its runs are skipped.
      if (!catalog.calibration().moves(p.name, scenario.cluster, guests)) continue;
      const double to = moved_value(p);
      if (to == p.fitted) continue;   // a range of zero width: nothing to move
      HardwareCatalog moved = catalog;
      Calibration c = catalog.calibration();
      c.set(p.name, to);
      moved.set_calibration(c);
      bases.push_back(read(moved));
      bases.back().seed = scenario.seed;
      steps.push_back(to - p.fitted);
      out.parameters.push_back(p.name);
    }
  }
  for (std::size_t p = 0; p < out.parameters.size(); ++p)
    for (std::size_t q = p + 1; q < out.parameters.size(); ++q)
      out.correlated = out.correlated || catalog.calibration().correlation(out.parameters[p], out.parameters[q]) != 0;
  std::vector<Task> tasks;
  for (std::size_t b = 0; b < bases.size(); ++b)
    for (std::size_t i = 0; i < n; ++i) {
      tasks.push_back({bases[b], static_cast<int>(b) - 1, i});
      tasks.back().scenario.seed = scenario.seed + i;
    }

  std::vector<std::vector<double>> values(tasks.size());
  parallel_for(tasks.size(), options.jobs, [&](std::size_t i) {
    values[i] = answer(tasks[i].scenario, options.run_progress);
    if (values[i].size() != names.size())
      throw InvalidArgument("answer_range: an answer gave " + std::to_string(values[i].size()) + " values for " +
                            std::to_string(names.size()) + " names");
  });

  for (std::size_t k = 0; k < names.size(); ++k) {
    AnswerRange a;
    a.name = names[k];
    for (std::size_t i = 0; i < n; ++i) a.each.push_back(values[i][k]);
    for (std::size_t p = 0; p < out.parameters.size(); ++p) {
      double se = 0;
      for (const CalibrationParameter& q : catalog.calibration().parameters())
        if (q.name == out.parameters[p]) se = q.stderr_value;
      a.effects.push_back({out.parameters[p], se});
      // Per seed, per +1 standard error (NaN where either run has no answer).
      std::vector<double> per_seed;
      for (std::size_t i = 0; i < n; ++i) per_seed.push_back((values[(p + 1) * n + i][k] - values[i][k]) * se / steps[p]);
      a.effect_each.push_back(std::move(per_seed));
    }
    finish(a, catalog.calibration(), true);
    out.answers.push_back(std::move(a));
  }
  return out;
}

const std::vector<std::string>& run_range_names() {
  static const std::vector<std::string> names = {"iops",           "throughput_mbps",   "read_latency_ms",
                                                 "write_latency_ms", "pooled_latency_ms", "pooled_p95_ms",
                                                 "pooled_p99_ms",    "cpu_usage_pct_mean", "cpu_busy_cores_mean"};
  return names;
}

namespace {

// The run's answers on one seed (run_range_names' order). A latency of I/Os the window did
// not complete is undefined, not 0: NaN, left out of the range's `found`.
std::vector<double> run_answers(const Scenario& s, const ProgressFn& progress) {
  const RunResult r = simulate(s, progress);
  double cpu = 0, busy = 0;
  for (const HostResourceRow& h : r.hosts) {
    cpu += h.cpu_usage_pct;
    busy += h.busy_cores();
  }
  if (!r.hosts.empty()) {
    cpu /= static_cast<double>(r.hosts.size());
    busy /= static_cast<double>(r.hosts.size());
  }
  const WorkloadResult& w = r.result;
  const double none = std::numeric_limits<double>::quiet_NaN();
  const bool any = w.simulated_ios > 0;
  return {w.iops,
          w.throughput_mbps,
          w.read_iops > 0 ? w.read_latency_ms : none,
          w.write_iops > 0 ? w.write_latency_ms : none,
          any ? w.pooled_latency_ms : none,
          any ? latency_statistic(r, LatencyStat::p95) : none,
          any ? latency_statistic(r, LatencyStat::p99) : none,
          cpu,
          busy};
}

// What the seeds' windows left undefined, as a run says it of its window: seeds that
// completed no I/O, or none of an operation the workload issues while other I/O completed.
void note_idle_windows(Ranged& r, const Scenario& s) {
  bool reads = false, writes = false;
  const std::vector<WorkloadSpec> loads = s.groups.empty() ? std::vector<WorkloadSpec>{s.workload} : s.groups;
  for (const WorkloadSpec& w : loads) {
    reads = reads || w.read_pct > 0;
    writes = writes || w.read_pct < 100;
  }
  const std::vector<double>& iops = r.at("iops").each;
  const std::string of = " of " + std::to_string(r.seeds) + " seeds";
  const auto idle = std::count(iops.begin(), iops.end(), 0.0);
  if (idle > 0)
    r.warnings.push_back("no I/O issued in the measured window completed in it on " + std::to_string(idle) + of +
                         ": their rates are 0 and their latencies undefined (left out of found); lengthen "
                         "workload.duration_s");
  const auto op_idle = [&](const char* op, const char* answer) {
    const std::vector<double>& lat = r.at(answer).each;
    long k = 0;
    for (std::size_t i = 0; i < lat.size(); ++i) k += iops[i] > 0 && !std::isfinite(lat[i]) ? 1 : 0;
    if (k > 0)
      r.warnings.push_back(std::string("no ") + op + " issued in the measured window completed in it while other I/O did on " +
                           std::to_string(k) + of + ": " + answer + " is undefined there (left out of found); lengthen "
                           "workload.duration_s");
  };
  if (reads) op_idle("read", "read_latency_ms");
  if (writes) op_idle("write", "write_latency_ms");
}

}  // namespace

Ranged run_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                 const RangeOptions& options) {
  Ranged r = answer_range(scenario, read, catalog, run_range_names(), run_answers, options);
  note_idle_windows(r, scenario);
  return r;
}

Ranged knee_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                  const KneeTarget& target, const RangeOptions& options) {
  return answer_range(scenario, read, catalog, {"knee_iops", "latency_ms"},
                      [&target](const Scenario& s, const ProgressFn& progress) {
                        KneeOptions o;
                        o.jobs = 1;   // the seeds and parameters are the parallel work
                        o.run_progress = progress;
                        const KneeResult k = find_knee(s, target, o);
                        const double none = std::numeric_limits<double>::quiet_NaN();   // not found
                        return std::vector<double>{k.found ? k.iops : none, k.found ? k.latency_ms : none};
                      },
                      options);
}

Ranged range_difference(const Ranged& a, const Ranged& b, const Calibration& calibration) {
  if (a.seeds != b.seeds || a.first_seed != b.first_seed || a.parameters != b.parameters ||
      a.answers.size() != b.answers.size())
    throw InvalidArgument("range_difference: the two ranges differ in their seeds (" + std::to_string(a.first_seed) + ".. and " +
                          std::to_string(b.first_seed) + "..), parameters or answers; B - A pairs the same seeds");
  Ranged d = b;
  d.warnings.clear();   // each side keeps its own
  for (std::size_t k = 0; k < d.answers.size(); ++k) {
    AnswerRange& x = d.answers[k];
    const AnswerRange& y = a.answers[k];
    if (x.name != y.name) throw InvalidArgument("range_difference: answer '" + x.name + "' against '" + y.name + "'");
    for (std::size_t i = 0; i < x.each.size(); ++i) x.each[i] -= y.each[i];
    for (std::size_t p = 0; p < x.effect_each.size(); ++p)
      for (std::size_t i = 0; i < x.effect_each[p].size(); ++i) x.effect_each[p][i] -= y.effect_each[p][i];
    finish(x, calibration, false);
  }
  return d;
}

Ranged curve_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                   double limit_ms, const RangeOptions& options) {
  // The points come from the configuration (the pilot's and the configured outstanding I/O),
  // the same on every seed; one model on the first seed names them.
  const std::vector<int> points = default_curve_points(analytic_model(scenario, options.run_progress));
  std::vector<std::string> names;
  for (int o : points) {
    names.push_back("iops@" + std::to_string(o));
    names.push_back("latency_ms@" + std::to_string(o));
  }
  if (limit_ms > 0) names.push_back("knee_iops");
  // Seeds whose pilot window or fit warned (plan/analytic.hpp): counted, from the worker threads.
  std::mutex mu;
  std::set<std::uint64_t> warned;
  Ranged r = answer_range(scenario, read, catalog, names,
                          [&](const Scenario& s, const ProgressFn& progress) {
                            const AnalyticModel m = analytic_model(s, progress);
                            if (!m.window_note.empty() || !m.fit_notes.empty()) {
                              const std::lock_guard<std::mutex> lock(mu);
                              warned.insert(s.seed);
                            }
                            std::vector<double> v;
                            for (const CurvePoint& c : analytic_curve(m, points)) {
                              v.push_back(c.iops);
                              v.push_back(c.latency_ms);
                            }
                            if (limit_ms > 0) {
                              const double iops = analytic_knee(m, limit_ms).iops;   // 0: not found
                              v.push_back(iops > 0 ? iops : std::numeric_limits<double>::quiet_NaN());
                            }
                            return v;
                          },
                          options);
  if (!warned.empty())
    r.warnings.push_back("on " + std::to_string(warned.size()) + " of " + std::to_string(r.seeds) +
                         " seeds the pilot's window or the fit warned (the pilot short against its latency, the "
                         "fork-join share at its bound or the model off the pilot by more than 10 %): curve on one "
                         "of them says which; lengthen workload.duration_s");
  return r;
}

namespace {
// Four significant figures, without an exponent for counts such as IOPS.
std::string g(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 && std::fabs(v) < 1e15 ? "%.0f" : "%.4g", v);
  return buf;
}
}  // namespace

RangeParts range_parts(const Ranged& r) {
  RangeParts parts;
  parts.covers.push_back({"seeds", "placement and run noise (" + std::to_string(r.seeds) + " seeds)"});
  const std::size_t np = r.parameters.size();
  if (!r.calibration)
    parts.not_covered.push_back({"calibration", "calibration (its standard errors not propagated)"});
  else if (np == 0)
    parts.not_covered.push_back({"calibration", "calibration (no fitted parameter with a standard error acts here)"});
  else
    parts.covers.push_back({"calibration", "calibration (" + std::to_string(np) + " fitted parameter" + (np > 1 ? "s" : "") +
                                               ", +-1 se" + (r.correlated ? ", correlated" : "") + ")"});
  if (r.assumptions > 0)
    parts.covers.push_back({"assumptions", "assumed values (" + std::to_string(r.assumptions) +
                                               ", each at the ends of its range: the sensitivity)"});
  else
    parts.not_covered.push_back({"assumptions", "assumed values (see --sensitivity)"});
  parts.not_covered.push_back({"mechanisms", "mechanisms the model lacks (see hcisim accuracy)"});
  return parts;
}

namespace {
std::string joined(const std::vector<RangePart>& parts, const char* between) {
  std::string out;
  for (const RangePart& p : parts) out += (out.empty() ? "" : between) + p.text;
  return out;
}

std::string parts_json(const std::vector<RangePart>& parts) {
  std::string out = "[";
  for (const RangePart& p : parts)
    out += (out.size() > 1 ? ", " : "") + std::string("{\"part\": ") + json_string(p.part) +
           ", \"text\": " + json_string(p.text) + "}";
  return out + "]";
}
}  // namespace

std::string format_range_parts(const Ranged& r) {
  const RangeParts parts = range_parts(r);
  return "range covers: " + joined(parts.covers, ", ") + "\nnot covered: " + joined(parts.not_covered, ", ") + "\n";
}

std::string format_ranged(const Ranged& r) {
  std::string out;
  char buf[320];
  std::snprintf(buf, sizeof buf, "%-20s %12s %25s %12s %23s %12s\n", "answer", "value", "95 % range (one cluster)",
                "seed sd", "seeds min .. max", "calib. sd");
  out += buf;
  for (const AnswerRange& a : r.answers) {
    std::snprintf(buf, sizeof buf, "%-20s %12s %12s .. %-10s %12s %11s .. %-9s %12s", a.name.c_str(), g(a.value).c_str(),
                  g(a.low).c_str(), g(a.high).c_str(), g(a.seed_sd).c_str(), g(a.seed_min).c_str(),
                  g(a.seed_max).c_str(), r.calibration ? g(a.calibration_sd).c_str() : "-");
    out += buf;
    if (a.found < r.seeds) out += "  (found on " + std::to_string(a.found) + " of " + std::to_string(r.seeds) + " seeds)";
    out += "\n";
  }
  std::snprintf(buf, sizeof buf,
                "\nRange: the mean over seeds %llu..%llu (placement and every random stream) +- a 95 %% prediction\n"
                "interval for one cluster (Student t)",
                static_cast<unsigned long long>(r.first_seed), static_cast<unsigned long long>(r.first_seed + static_cast<std::uint64_t>(r.seeds) - 1));
  out += buf;
  if (!r.calibration) {
    out += "; the calibration's errors are not propagated.\n";
  } else if (r.parameters.empty()) {
    out += "; no calibration parameter has a standard error.\n";
  } else {
    std::string names;
    for (std::size_t i = 0; i < r.parameters.size(); ++i) names += (i ? ", " : "") + r.parameters[i];
    out += ", in quadrature with 1.96 calibration sd (the delta method:\n" + names +
           " each moved by one standard error on every seed, with their\ncorrelations, run noise taken off).\n";
  }
  return out + "\n" + format_range_parts(r);
}

std::string format_compared(const std::string& name_a, const std::string& name_b, const Ranged& a, const Ranged& b,
                            const Ranged& b_minus_a) {
  std::string out = "A: " + name_a + "\nB: " + name_b + "\n\n";
  char buf[400];
  std::snprintf(buf, sizeof buf, "%-20s %-30s %-30s %-32s\n", "answer", "A (95 % range)", "B (95 % range)",
                "B - A (95 % range)");
  out += buf;
  const auto cell = [](const AnswerRange& x, bool sign) {
    const std::string v = (sign && x.value > 0 ? "+" : "") + g(x.value);
    const std::string lo = (sign && x.low > 0 ? "+" : "") + g(x.low);
    const std::string hi = (sign && x.high > 0 ? "+" : "") + g(x.high);
    return v + " (" + lo + " .. " + hi + ")";
  };
  for (std::size_t k = 0; k < b_minus_a.answers.size(); ++k) {
    const AnswerRange& d = b_minus_a.answers[k];
    const char* verdict = !std::isfinite(d.low) ? "unknown" : d.low > 0 || d.high < 0 ? "beyond" : "within noise";
    std::snprintf(buf, sizeof buf, "%-20s %-30s %-30s %-32s %s\n", d.name.c_str(), cell(a.answers[k], false).c_str(),
                  cell(b.answers[k], false).c_str(), cell(d, true).c_str(), verdict);
    out += buf;
  }
  std::snprintf(buf, sizeof buf,
                "\nEach side on %d seeds; B - A paired by seed (what both sides share cancels). 'beyond': the\n"
                "change's 95 %% range excludes 0. Ranges as in run --range (docs/reference.md, Ranges).\n\n",
                b_minus_a.seeds);
  return out + buf + format_range_parts(b_minus_a);
}

std::string to_json(const Ranged& r) {
  std::string out = "{\"seeds\": " + std::to_string(r.seeds) + ", \"first_seed\": " + std::to_string(r.first_seed) +
                    ", \"calibration\": " +
                    (r.calibration ? "true" : "false") + ", \"parameters\": [";
  for (std::size_t i = 0; i < r.parameters.size(); ++i) out += (i ? ", " : "") + json_string(r.parameters[i]);
  const RangeParts parts = range_parts(r);
  out += "], \"level\": 0.95, \"covers\": " + parts_json(parts.covers) + ", \"not_covered\": " +
         parts_json(parts.not_covered) + ", \"answers\": {";
  for (std::size_t k = 0; k < r.answers.size(); ++k) {
    const AnswerRange& a = r.answers[k];
    out += (k ? ", " : "") + json_string(a.name) + ": {\"value\": " + json_number(a.value) +
           ", \"low\": " + json_number(a.low) + ", \"high\": " + json_number(a.high) +
           ", \"seed_sd\": " + json_number(a.seed_sd) + ", \"seed_min\": " + json_number(a.seed_min) +
           ", \"seed_max\": " + json_number(a.seed_max) + ", \"calibration_sd\": " + json_number(a.calibration_sd) +
           ", \"found\": " + std::to_string(a.found) + ", \"each\": [";
    for (std::size_t i = 0; i < a.each.size(); ++i) out += (i ? ", " : "") + json_number(a.each[i]);
    out += "], \"effects\": {";
    for (std::size_t i = 0; i < a.effects.size(); ++i)
      out += (i ? ", " : "") + json_string(a.effects[i].parameter) + ": {\"effect\": " + json_number(a.effects[i].effect) +
             ", \"se\": " + json_number(a.effects[i].effect_se) + "}";
    out += "}}";
  }
  return out + "}}";
}

std::string ranged_report_json(const Scenario& scenario, const Ranged& r, const KneeTarget* target) {
  std::string out = "{\"scenario\": " + json_string(scenario.name) + ", \"workload\": " +
                    json_string(describe_workloads(scenario));
  if (target)
    out += ", \"target\": {\"stat\": \"" + std::string(latency_stat_name(target->stat)) +
           "\", \"limit_ms\": " + json_number(target->limit_ms) + "}";
  out += ", \"warnings\": [";
  bool first = true;
  for (const std::vector<std::string>* said : {&scenario.warnings, &r.warnings})
    for (const std::string& w : *said) {
      out += (first ? "" : ", ") + json_string(w);
      first = false;
    }
  return out + "], \"range\": " + to_json(r) + "}\n";
}

std::string ranged_csv_header(const std::vector<std::string>& names) {
  std::string h = "range_seeds,range_first_seed";
  for (const std::string& n : names)
    h += "," + n + "," + n + "_low," + n + "_high," + n + "_seed_sd," + n + "_calibration_sd," + n + "_found";
  return h + ",warnings,range_covers,range_not_covered";
}

std::string ranged_csv_cells(const Ranged& r) {
  std::string c = std::to_string(r.seeds) + "," + std::to_string(r.first_seed);
  for (const AnswerRange& a : r.answers) {
    for (double v : {a.value, a.low, a.high, a.seed_sd, a.calibration_sd}) {
      c += ',';
      if (std::isfinite(v)) c += json_number(v);   // empty: none (a knee not found)
    }
    c += ',';
    c += std::to_string(a.found);
  }
  std::string warnings;
  for (const std::string& w : r.warnings) warnings += (warnings.empty() ? "" : " | ") + w;
  const RangeParts parts = range_parts(r);
  return c + "," + csv_field(warnings) + "," + csv_field(joined(parts.covers, "; ")) + "," +
         csv_field(joined(parts.not_covered, "; "));
}

}  // namespace hcisim
