// A range on every answer: seeds and the calibration's standard errors (answer_range.hpp).
#include "hcisim/plan/answer_range.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "hcisim/core/batch_means.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/core/parallel.hpp"
#include "hcisim/plan/analytic.hpp"
#include "hcisim/report/text_escape.hpp"

namespace hcisim {

const AnswerRange& Ranged::at(std::string_view name) const {
  for (const AnswerRange& a : answers)
    if (a.name == name) return a;
  throw InvalidArgument("no answer named '" + std::string(name) + "' in this range");
}

namespace {

// One evaluation: a scenario (a seed, or seed 1 with a parameter moved by `step`).
struct Task {
  Scenario scenario;
  int parameter = -1;   // index into Ranged::parameters; -1: a seed of the base calibration
  double step = 0;      // the parameter's move (its standard error, or less at a bound)
};

// The move of one standard error, inside the parameter's physical range: up if it fits, else
// down, else the longer of the two ways to the bounds (the effect is then scaled to one
// standard error, the delta method's linearity).
double step_for(const CalibrationParameter& p) {
  const double up = p.max - p.fitted, down = p.fitted - p.min;
  if (p.stderr_value <= up) return p.stderr_value;
  if (p.stderr_value <= down) return -p.stderr_value;
  return up >= down ? up : -down;
}

// The statistics of an answer from its seeds (`each`) and its parameters' effects.
void finish(AnswerRange& a, const Calibration& calibration, bool non_negative) {
  const auto n = static_cast<double>(a.each.size());
  a.value = std::accumulate(a.each.begin(), a.each.end(), 0.0) / n;
  double ss = 0;
  for (double x : a.each) ss += (x - a.value) * (x - a.value);
  a.seed_sd = std::sqrt(ss / (n - 1));
  const auto [lo, hi] = std::minmax_element(a.each.begin(), a.each.end());
  a.seed_min = *lo;
  a.seed_max = *hi;
  double var = 0;
  for (const ParameterEffect& x : a.effects)
    for (const ParameterEffect& y : a.effects) var += x.effect * y.effect * calibration.correlation(x.parameter, y.parameter);
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
  out.calibration = options.calibration;

  std::vector<Task> tasks;
  for (int i = 0; i < options.seeds; ++i) {
    tasks.push_back({scenario, -1, 0});
    tasks.back().scenario.seed = scenario.seed + static_cast<std::uint64_t>(i);
  }
  if (options.calibration) {
    for (const CalibrationParameter& p : catalog.calibration().parameters()) {
      if (!(p.stderr_value > 0)) continue;
      const double step = step_for(p);
      if (step == 0) continue;   // a range of zero width: nothing to move
      HardwareCatalog moved = catalog;
      Calibration c = catalog.calibration();
      c.set(p.name, p.fitted + step);
      moved.set_calibration(c);
      tasks.push_back({read(moved), static_cast<int>(out.parameters.size()), step});
      tasks.back().scenario.seed = scenario.seed;
      out.parameters.push_back(p.name);
    }
  }

  std::vector<std::vector<double>> values(tasks.size());
  parallel_for(tasks.size(), options.jobs, [&](std::size_t i) {
    values[i] = answer(tasks[i].scenario, options.run_progress);
    if (values[i].size() != names.size())
      throw InvalidArgument("answer_range: an answer gave " + std::to_string(values[i].size()) + " values for " +
                            std::to_string(names.size()) + " names");
  });

  const auto n = static_cast<std::size_t>(options.seeds);
  for (std::size_t k = 0; k < names.size(); ++k) {
    AnswerRange a;
    a.name = names[k];
    for (std::size_t i = 0; i < n; ++i) a.each.push_back(values[i][k]);
    for (std::size_t i = n; i < tasks.size(); ++i) {
      const std::string& name = out.parameters[static_cast<std::size_t>(tasks[i].parameter)];
      double se = 0;
      for (const CalibrationParameter& p : catalog.calibration().parameters())
        if (p.name == name) se = p.stderr_value;
      // Per +1 standard error, from the first seed at the base calibration (values[0]).
      a.effects.push_back({name, se, (values[i][k] - values[0][k]) * se / tasks[i].step});
    }
    finish(a, catalog.calibration(), true);
    out.answers.push_back(std::move(a));
  }
  return out;
}

const std::vector<std::string>& run_range_names() {
  static const std::vector<std::string> names = {"iops",           "throughput_mbps",   "read_latency_ms",
                                                 "write_latency_ms", "pooled_latency_ms", "pooled_p95_ms",
                                                 "pooled_p99_ms",    "cpu_usage_pct_mean"};
  return names;
}

Ranged run_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                 const RangeOptions& options) {
  return answer_range(scenario, read, catalog, run_range_names(),
                      [](const Scenario& s, const ProgressFn& progress) {
                        const RunResult r = simulate(s, progress);
                        double cpu = 0;
                        for (const HostResourceRow& h : r.hosts) cpu += h.cpu_usage_pct;
                        if (!r.hosts.empty()) cpu /= static_cast<double>(r.hosts.size());
                        const WorkloadResult& w = r.result;
                        return std::vector<double>{w.iops,
                                                   w.throughput_mbps,
                                                   w.read_latency_ms,
                                                   w.write_latency_ms,
                                                   w.pooled_latency_ms,
                                                   latency_statistic(r, LatencyStat::p95),
                                                   latency_statistic(r, LatencyStat::p99),
                                                   cpu};
                      },
                      options);
}

Ranged knee_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                  const KneeTarget& target, const RangeOptions& options) {
  return answer_range(scenario, read, catalog, {"knee_iops", "latency_ms"},
                      [&target](const Scenario& s, const ProgressFn& progress) {
                        KneeOptions o;
                        o.jobs = 1;   // the seeds and parameters are the parallel work
                        o.run_progress = progress;
                        const KneeResult k = find_knee(s, target, o);
                        return std::vector<double>{k.found ? k.iops : 0.0, k.found ? k.latency_ms : 0.0};
                      },
                      options);
}

Ranged range_difference(const Ranged& a, const Ranged& b, const Calibration& calibration) {
  if (a.seeds != b.seeds || a.parameters != b.parameters || a.answers.size() != b.answers.size())
    throw InvalidArgument("range_difference: the two ranges have different seeds, parameters or answers");
  Ranged d = b;
  for (std::size_t k = 0; k < d.answers.size(); ++k) {
    AnswerRange& x = d.answers[k];
    const AnswerRange& y = a.answers[k];
    if (x.name != y.name) throw InvalidArgument("range_difference: answer '" + x.name + "' against '" + y.name + "'");
    for (std::size_t i = 0; i < x.each.size(); ++i) x.each[i] -= y.each[i];
    for (std::size_t i = 0; i < x.effects.size(); ++i) x.effects[i].effect -= y.effects[i].effect;
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
  return answer_range(scenario, read, catalog, names,
                      [&points, limit_ms](const Scenario& s, const ProgressFn& progress) {
                        const AnalyticModel m = analytic_model(s, progress);
                        std::vector<double> v;
                        for (const CurvePoint& c : analytic_curve(m, points)) {
                          v.push_back(c.iops);
                          v.push_back(c.latency_ms);
                        }
                        if (limit_ms > 0) v.push_back(analytic_knee(m, limit_ms).iops);
                        return v;
                      },
                      options);
}

namespace {
// Four significant figures, without an exponent for counts such as IOPS.
std::string g(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 && std::fabs(v) < 1e15 ? "%.0f" : "%.4g", v);
  return buf;
}
}  // namespace

std::string format_ranged(const Ranged& r) {
  std::string out;
  char buf[320];
  std::snprintf(buf, sizeof buf, "%-20s %12s %25s %12s %23s %12s\n", "answer", "value", "95 % range (one cluster)",
                "seed sd", "seeds min .. max", "calib. sd");
  out += buf;
  for (const AnswerRange& a : r.answers) {
    std::snprintf(buf, sizeof buf, "%-20s %12s %12s .. %-10s %12s %11s .. %-9s %12s\n", a.name.c_str(), g(a.value).c_str(),
                  g(a.low).c_str(), g(a.high).c_str(), g(a.seed_sd).c_str(), g(a.seed_min).c_str(),
                  g(a.seed_max).c_str(), r.calibration ? g(a.calibration_sd).c_str() : "-");
    out += buf;
  }
  std::snprintf(buf, sizeof buf,
                "\nRange: the mean over %d seeds (placement and every random stream) +- a 95 %% prediction\n"
                "interval for one cluster (Student t, %d degrees of freedom)",
                r.seeds, r.seeds - 1);
  out += buf;
  if (!r.calibration) {
    out += "; the calibration's errors are not propagated.\n";
  } else if (r.parameters.empty()) {
    out += "; no calibration parameter has a standard error.\n";
  } else {
    out += " and the calibration's\nstandard errors (";
    for (std::size_t i = 0; i < r.parameters.size(); ++i) out += (i ? ", " : "") + r.parameters[i];
    out += ": delta method with their correlations, 1.96 sd), in quadrature.\n";
  }
  out += "It does not cover mechanisms the model lacks: the accuracy table shows those errors.\n";
  return out;
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
    const bool beyond = d.low > 0 || d.high < 0;
    std::snprintf(buf, sizeof buf, "%-20s %-30s %-30s %-32s %s\n", d.name.c_str(), cell(a.answers[k], false).c_str(),
                  cell(b.answers[k], false).c_str(), cell(d, true).c_str(), beyond ? "beyond" : "within noise");
    out += buf;
  }
  std::snprintf(buf, sizeof buf,
                "\nEach side on %d seeds; B - A paired by seed (what both sides share cancels). 'beyond': the\n"
                "change's 95 %% range excludes 0. Ranges as in run --range (the README's Ranges section).\n",
                b_minus_a.seeds);
  return out + buf;
}

std::string to_json(const Ranged& r) {
  std::string out = "{\"seeds\": " + std::to_string(r.seeds) + ", \"calibration\": " +
                    (r.calibration ? "true" : "false") + ", \"parameters\": [";
  for (std::size_t i = 0; i < r.parameters.size(); ++i) out += (i ? ", " : "") + json_string(r.parameters[i]);
  out += "], \"level\": 0.95, \"answers\": {";
  for (std::size_t k = 0; k < r.answers.size(); ++k) {
    const AnswerRange& a = r.answers[k];
    out += (k ? ", " : "") + json_string(a.name) + ": {\"value\": " + json_number(a.value) +
           ", \"low\": " + json_number(a.low) + ", \"high\": " + json_number(a.high) +
           ", \"seed_sd\": " + json_number(a.seed_sd) + ", \"seed_min\": " + json_number(a.seed_min) +
           ", \"seed_max\": " + json_number(a.seed_max) + ", \"calibration_sd\": " + json_number(a.calibration_sd) +
           ", \"each\": [";
    for (std::size_t i = 0; i < a.each.size(); ++i) out += (i ? ", " : "") + json_number(a.each[i]);
    out += "], \"effects\": {";
    for (std::size_t i = 0; i < a.effects.size(); ++i)
      out += (i ? ", " : "") + json_string(a.effects[i].parameter) + ": " + json_number(a.effects[i].effect);
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
  return out + ", \"range\": " + to_json(r) + "}\n";
}

std::string ranged_csv_header(const std::vector<std::string>& names) {
  std::string h = "range_seeds";
  for (const std::string& n : names) h += "," + n + "," + n + "_low," + n + "_high," + n + "_seed_sd," + n + "_calibration_sd";
  return h;
}

std::string ranged_csv_cells(const Ranged& r) {
  std::string c = std::to_string(r.seeds);
  for (const AnswerRange& a : r.answers)
    for (double v : {a.value, a.low, a.high, a.seed_sd, a.calibration_sd}) {
      c += ',';
      c += json_number(v);
    }
  return c;
}

}  // namespace hcisim
