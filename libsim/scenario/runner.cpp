// Many runs in parallel (runner.hpp).
#include "hcisim/scenario/runner.hpp"

#include <atomic>
#include <cmath>
#include <limits>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/batch_means.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

namespace {

// Mean and 95 % t-interval of independent values (at least 2; else an infinite width).
ConfidenceInterval t_interval(const std::vector<double>& x) {
  ConfidenceInterval ci;
  ci.batches = static_cast<int>(x.size());
  if (x.empty()) return ci;
  double m = 0;
  for (double v : x) m += v / static_cast<double>(x.size());
  ci.mean = m;
  if (x.size() < 2) return ci;
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  const double n = static_cast<double>(x.size());
  ci.half_width = student_t_quantile(0.975, static_cast<int>(x.size()) - 1) * std::sqrt(ss / (n - 1) / n);
  return ci;
}

}  // namespace

std::vector<RunResult> run_all(const std::vector<Scenario>& scenarios, int jobs) {
  std::vector<RunResult> out(scenarios.size());
  parallel_for(scenarios.size(), jobs, [&](std::size_t i) { out[i] = simulate(scenarios[i]); });
  return out;
}

std::vector<SweepPoint> sweep_points(const std::string& yaml, const std::string& source,
                                     const std::vector<std::string>& overrides, const std::vector<SweepAxis>& axes,
                                     const HardwareCatalog& catalog) {
  return sweep_points(
      [&](const std::vector<std::string>& settings) {
        return parse_scenario(yaml, source, point_overrides(overrides, settings), catalog);
      },
      axes);
}

std::vector<std::vector<std::string>> sweep_settings(const std::vector<SweepAxis>& axes) {
  std::size_t total = 1;
  for (const SweepAxis& a : axes) {
    if (a.key.empty()) throw InvalidArgument("sweep: an axis has no key");
    if (a.values.empty()) throw InvalidArgument("sweep: axis '" + a.key + "' lists no values");
    total *= a.values.size();
    if (total > 100000) throw InvalidArgument("sweep: more than 100,000 points; expected fewer values");
  }
  std::vector<std::vector<std::string>> out;
  out.reserve(total);
  for (std::size_t p = 0; p < total; ++p) {
    // Mixed radix, the last axis fastest.
    std::vector<std::string> settings(axes.size());
    std::size_t rest = p;
    for (std::size_t a = axes.size(); a-- > 0;) {
      settings[a] = axes[a].key + "=" + axes[a].values[rest % axes[a].values.size()];
      rest /= axes[a].values.size();
    }
    out.push_back(std::move(settings));
  }
  return out;
}

std::vector<std::string> point_overrides(const std::vector<std::string>& sets, const std::vector<std::string>& settings) {
  std::vector<std::string> all = sets;
  all.insert(all.end(), settings.begin(), settings.end());
  return all;
}

Scenario load_point(const ScenarioLoader& load, const std::vector<std::string>& settings) {
  try {
    return load(settings);
  } catch (const InvalidArgument& e) {
    std::string at;
    for (const std::string& s : settings) at += (at.empty() ? "" : ", ") + s;
    throw InvalidArgument(at + ": " + e.what());
  }
}

std::string point_name(const std::string& source, const std::vector<std::string>& settings) {
  std::string at = source;
  for (std::size_t i = 0; i < settings.size(); ++i) at += (i ? ", " : ": ") + settings[i];
  return at;
}

std::string point_failure(const std::string& source, const std::vector<std::string>& settings, const std::string& what) {
  const std::string own = source + ": ";
  return point_name(source, settings) + ": " + (what.starts_with(own) ? what.substr(own.size()) : what);
}

std::vector<SweepPoint> sweep_points(const ScenarioLoader& load, const std::vector<SweepAxis>& axes) {
  std::vector<SweepPoint> points;
  for (auto& settings : sweep_settings(axes)) {
    Scenario s = load_point(load, settings);
    points.push_back({std::move(settings), std::move(s)});
  }
  return points;
}

std::string sweep_keys_header(const std::vector<SweepAxis>& axes) {
  std::string out;
  for (const SweepAxis& ax : axes)
    if (!csv_has_column(ax.key)) out += ax.key + ",";
  return out;
}

std::string sweep_key_cells(const std::vector<SweepAxis>& axes, const std::vector<std::string>& settings) {
  std::string out;
  for (std::size_t k = 0; k < axes.size() && k < settings.size(); ++k)
    if (!csv_has_column(axes[k].key)) out += csv_field(settings[k].substr(settings[k].find('=') + 1)) + ",";
  return out;
}

std::vector<SweepRow> run_sweep(const std::vector<SweepPoint>& points, int jobs, const ProgressFn& progress) {
  std::vector<SweepRow> rows(points.size());
  parallel_for(points.size(), jobs, [&](std::size_t i) {
    const RunResult r = at_point(points[i].scenario.source, points[i].settings,
                                 [&] { return simulate(points[i].scenario, progress); });
    rows[i] = SweepRow{points[i].settings, r.result, r.bottleneck, csv_row(r)};
  });
  return rows;
}

std::vector<SweepRow> run_sweep(const ScenarioLoader& load, const std::vector<SweepAxis>& axes, int jobs,
                                const ProgressFn& progress) {
  const std::vector<std::vector<std::string>> settings = sweep_settings(axes);
  for (const auto& one : settings) load_point(load, one);
  std::vector<SweepRow> rows(settings.size());
  // Once a point has failed (or a progress report stopped it) the rest are not read again.
  std::atomic<bool> failed{false};
  parallel_for(settings.size(), jobs, [&](std::size_t i) {
    if (failed.load(std::memory_order_relaxed)) return;
    try {
      const Scenario s = load_point(load, settings[i]);
      const RunResult r = at_point(s.source, settings[i], [&] { return simulate(s, progress); });
      rows[i] = SweepRow{settings[i], r.result, r.bottleneck, csv_row(r)};
    } catch (...) {
      failed = true;
      throw;
    }
  });
  return rows;
}

Replicated replicate(const Scenario& scenario, int n, Vary vary, int jobs) {
  check::in_range(n, 2, 1000, "replications");
  std::vector<Scenario> runs(static_cast<std::size_t>(n), scenario);
  for (int i = 0; i < n; ++i) {
    if (vary == Vary::streams) runs[static_cast<std::size_t>(i)].replication = static_cast<std::uint64_t>(i + 1);
    else runs[static_cast<std::size_t>(i)].seed = static_cast<std::uint64_t>(i + 1);
  }
  Replicated out;
  out.iops.resize(runs.size());
  out.latency_ms.resize(runs.size());
  parallel_for(runs.size(), jobs, [&](std::size_t i) {
    const RunResult r = simulate(runs[i]);
    out.iops[i] = r.result.iops;
    out.latency_ms[i] = r.result.simulated_ios > 0 ? r.result.pooled_latency_ms : std::numeric_limits<double>::quiet_NaN();
  });
  out.mean_iops = t_interval(out.iops);
  std::vector<double> counted;
  for (double x : out.latency_ms)
    if (std::isfinite(x)) counted.push_back(x);
  out.idle = static_cast<int>(out.latency_ms.size() - counted.size());
  out.mean_latency_ms = t_interval(counted);
  if (counted.empty()) out.mean_latency_ms.mean = out.mean_latency_ms.half_width = std::numeric_limits<double>::quiet_NaN();
  return out;
}

}  // namespace hcisim
