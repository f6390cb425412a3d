// hcisim sweep: one curve per scenario file, all points in parallel (cli.hpp).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "hcisim/model/core/parallel.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/report/svg_chart.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "cli.hpp"

namespace hcisim::cli {

namespace {

// A sweep's points, read as they run, so memory stays flat however many points: each file is read once; every point
// is parsed once here, so bad input fails before any run (named by the point's settings)
// and each warning is said once, and only its settings and name are kept (a parsed scenario
// takes about 15 KB). parse() reads a point again from its file's text.
struct SweepGrid {
  struct Point {
    std::size_t source;   // index into texts
    std::vector<std::string> settings;
    std::string name;
  };
  std::vector<ScenarioText> texts;
  std::vector<Point> points;   // all files' points, file by file
  const Args* args = nullptr;
  const HardwareCatalog* cat = nullptr;

  // The user's --set values, then the point's settings.
  Scenario parse(std::size_t source, const std::vector<std::string>& settings) const {
    return parse_scenario(texts[source].text, texts[source].source, point_overrides(args->sets, settings), *cat);
  }

  // On stderr (stdout stays one CSV): each file's nearest measured rows, for its first point.
  void say_nearest() const {
    std::size_t next = 0;
    for (const Point& p : points)
      if (p.source == next) {
        std::fprintf(stderr, "%s\n", nearest_line(question_features(parse(p.source, p.settings), "")).text.c_str());
        ++next;
      }
  }
};

SweepGrid read_grid(const Args& a, const HardwareCatalog& cat, const std::vector<SweepAxis>& axes) {
  SweepGrid g;
  g.args = &a;
  g.cat = &cat;
  for (const auto& file : a.files) g.texts.push_back(scenario_text(file));
  std::set<std::string> said;
  const std::vector<std::vector<std::string>> all_settings = sweep_settings(axes);
  for (std::size_t f = 0; f < g.texts.size(); ++f)
    for (const auto& settings : all_settings) {
      const Scenario s = load_point([&](const std::vector<std::string>& set) { return g.parse(f, set); }, settings);
      say_warnings(s, &said);
      g.points.push_back({f, settings, s.name});
    }
  return g;
}

// sweep --range: every point's headline answers with their ranges (plan/answer_range.hpp),
// one point after another (each point's seeds and moved parameters run in parallel). The
// chart draws each point's mean over its seeds.
int cmd_sweep_range(const Args& a, const HardwareCatalog& cat, const std::vector<SweepAxis>& axes) {
  for (const SweepAxis& ax : axes)
    if (ax.key == "seed") usage_error("--vary seed and --range both set the seed (--range runs N seeds); give one");
  const SweepGrid grid = read_grid(a, cat, axes);
  std::string csv = sweep_keys_header(axes) + "scenario," + ranged_csv_header(run_range_names()) + "\n";
  std::vector<ChartSeries> series;
  const std::size_t along = axes.back().values.size();
  Progress progress(!a.quiet);
  for (std::size_t i = 0; i < grid.points.size(); ++i) {
    const SweepGrid::Point& point = grid.points[i];
    const std::vector<std::string> sets = point_overrides(a.sets, point.settings);
    const ScenarioText& text = grid.texts[point.source];
    const Scenario s = load_point([&](const std::vector<std::string>& set) { return grid.parse(point.source, set); },
                                  point.settings);
    // The scenario again against a catalog with one calibration parameter moved (warnings said).
    const ScenarioReader reread = [&](const HardwareCatalog& c) { return parse_scenario(text.text, text.source, sets, c); };
    const Ranged r = at_point(text.source, point.settings, [&] { return run_range(s, reread, cat, range_options(a)); });
    say_range_warnings(point_name(text.source, point.settings), r);
    progress.draw(static_cast<double>(i + 1) / static_cast<double>(grid.points.size()));
    csv += sweep_key_cells(axes, point.settings) + csv_field(s.name) + "," + ranged_csv_cells(r) + "\n";
    if (i % along == 0) {
      std::string name = s.name;
      for (std::size_t k = 0; k + 1 < axes.size(); ++k) name += (k == 0 ? " (" : ", ") + point.settings[k];
      if (axes.size() > 1) name += ")";
      series.push_back({name, {}, {}});
    }
    series.back().x.push_back(r.at("iops").value);
    series.back().y.push_back(r.at("pooled_latency_ms").value);
  }
  progress.done();
  std::string keys;
  for (const SweepAxis& ax : axes) keys += (keys.empty() ? "" : ", ") + ax.key;
  const std::string title = (a.files.size() == 1 ? grid.points[0].name + " - sweep of " : "sweep of ") + keys +
                            " (mean over " + std::to_string(range_options(a).seeds) + " seeds)";
  write_file(a.out + ".csv", csv, "--out");
  write_file(a.out + ".svg", svg_line_chart(title, "IOPS", "mean latency (ms)", series), "--out");
  std::fputs(csv.c_str(), stdout);
  std::fprintf(stderr, "wrote %s.csv and %s.svg\n", a.out.c_str(), a.out.c_str());
  grid.say_nearest();
  return 0;
}

// sweep --sensitivity's CSV cells of one point: the base answers, then the top assumption.
std::string sensitivity_cells(const Sensitivity& r) {
  const auto num = [](double v) { return std::isfinite(v) ? json_number(v) : std::string(); };
  std::string c = num(r.base.at(0)) + "," + num(r.base.at(1)) + "," + csv_field(r.base_bottleneck) + "," +
                  std::to_string(r.runs) + "," + num(r.noise) + ",";
  if (r.rows.empty()) return c + ",,,,,,,,";
  const SensitivityRow& t = r.rows.front();
  return c + csv_field(t.assumption.name) + "," + csv_field(t.assumption.kind_text) + "," + num(t.assumption.low) + "," +
         num(t.assumption.high) + "," + num(t.at_low.at(0)) + "," + num(t.at_high.at(0)) + "," + num(t.swing) + "," +
         num(t.swing_pct) + "," + (t.within_noise ? "true" : "false");
}

// sweep --sensitivity: every point's run sensitivity (plan/sensitivity.hpp), one point after
// another (each point's moves run in parallel); the CSV keeps each point's base answers and its
// top assumption, the chart the base runs.
int cmd_sweep_sensitivity(const Args& a, const HardwareCatalog& cat, const std::vector<SweepAxis>& axes) {
  const SweepGrid grid = read_grid(a, cat, axes);
  std::string csv = sweep_keys_header(axes) +
                    "scenario,iops,pooled_latency_ms,bottleneck,sensitivity_runs,sensitivity_noise_iops,top_assumption,"
                    "top_kind,top_low,top_high,top_iops_at_low,top_iops_at_high,top_swing_iops,top_swing_pct,"
                    "top_within_noise\n";
  std::vector<ChartSeries> series;
  const std::size_t along = axes.back().values.size();
  Progress progress(!a.quiet);
  // The estimate takes every point's study as long as the first's (its runs and its first run's time).
  std::optional<SensitivityEstimate> estimate;
  for (std::size_t i = 0; i < grid.points.size(); ++i) {
    const SweepGrid::Point& point = grid.points[i];
    const std::vector<std::string> sets = point_overrides(a.sets, point.settings);
    const ScenarioText& text = grid.texts[point.source];
    const Scenario s = load_point([&](const std::vector<std::string>& set) { return grid.parse(point.source, set); },
                                  point.settings);
    const SensitivityReader reread = [&](const HardwareCatalog& c, const std::vector<std::string>& more) {
      std::vector<std::string> all = sets;
      all.insert(all.end(), more.begin(), more.end());
      return parse_scenario(text.text, text.source, all, c);
    };
    if (!estimate)
      estimate.emplace(sensitivity_runs(scenario_assumptions(s, cat).size()), a.jobs, !a.quiet, 1,
                       static_cast<int>(grid.points.size()));
    const SensitivityOptions o = estimate->options(a);
    const Sensitivity r = at_point(text.source, point.settings, [&] { return run_sensitivity(s, reread, cat, o); });
    progress.draw(static_cast<double>(i + 1) / static_cast<double>(grid.points.size()));
    csv += sweep_key_cells(axes, point.settings) + csv_field(s.name) + "," + sensitivity_cells(r) + "\n";
    if (i % along == 0) {
      std::string name = s.name;
      for (std::size_t k = 0; k + 1 < axes.size(); ++k) name += (k == 0 ? " (" : ", ") + point.settings[k];
      if (axes.size() > 1) name += ")";
      series.push_back({name, {}, {}});
    }
    series.back().x.push_back(r.base.at(0));
    series.back().y.push_back(r.base.at(1));
  }
  progress.done();
  std::string keys;
  for (const SweepAxis& ax : axes) keys += (keys.empty() ? "" : ", ") + ax.key;
  const std::string title = (a.files.size() == 1 ? grid.points[0].name + " - sweep of " : "sweep of ") + keys;
  write_file(a.out + ".csv", csv, "--out");
  write_file(a.out + ".svg", svg_line_chart(title, "IOPS", "mean latency (ms)", series), "--out");
  std::fputs(csv.c_str(), stdout);
  std::fprintf(stderr, "wrote %s.csv and %s.svg\n", a.out.c_str(), a.out.c_str());
  grid.say_nearest();
  return 0;
}

}  // namespace

// One curve per scenario file, all points of all curves in parallel.
int cmd_sweep(const Args& a, const HardwareCatalog& cat) {
  if (a.files.empty()) usage_error("sweep takes one or more scenario files");
  if (a.vary.empty()) usage_error("sweep needs --vary KEY=V1,V2,...");
  // Several --vary options make a grid: every combination, the last one varying fastest.
  std::vector<SweepAxis> axes;
  for (const std::string& v : a.vary) {
    const auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= v.size()) usage_error("--vary '" + v + "': expected KEY=V1,V2,...");
    axes.push_back({v.substr(0, eq), split_list(v.substr(eq + 1))});
    if (axes.back().values.empty()) usage_error("--vary '" + v + "' lists no values; expected KEY=V1,V2,...");
    for (std::size_t i = 0; i + 1 < axes.size(); ++i)
      if (axes[i].key == axes.back().key) usage_error("--vary names '" + axes.back().key + "' twice");
  }
  if (a.range) return cmd_sweep_range(a, cat, axes);
  if (a.sensitivity) return cmd_sweep_sensitivity(a, cat, axes);
  // --replications N: every point on seeds 1..N (placement and every random stream vary),
  // as a last, fastest axis; the CSV keeps each run, the chart and the summary their mean.
  const std::size_t reps = static_cast<std::size_t>(a.replications);
  if (reps > 1) {
    for (const SweepAxis& ax : axes)
      if (ax.key == "seed") usage_error("--vary seed and --replications both set the seed; give one");
    SweepAxis seeds{"seed", {}};
    for (std::size_t k = 1; k <= reps; ++k) seeds.values.push_back(std::to_string(k));
    axes.push_back(seeds);
  }
  const SweepGrid sweep = read_grid(a, cat, axes);
  const std::vector<SweepGrid::Point>& grid = sweep.points;
  // Each finished point keeps its CSV row and chart point only, not its whole RunResult
  // (about 98 KB with the latency histograms).
  struct Point {
    std::string row;
    double iops = 0;
    double latency_ms = 0;
  };
  std::vector<Point> results(grid.size());
  std::vector<std::string> errors(grid.size());
  std::vector<char> internal(grid.size(), 0);   // the error was not bad input
  std::atomic<std::size_t> finished{0};
  Progress p(!a.quiet);
  parallel_for(grid.size(), a.jobs, [&](std::size_t i) {
    try {
      // Read as it was above, so it parses again (an error here is prefixed once, below).
      const RunResult r = simulate(sweep.parse(grid[i].source, grid[i].settings));
      results[i] = Point{csv_row(r), r.result.iops, r.result.pooled_latency_ms};
    } catch (const InvalidArgument& e) {
      errors[i] = e.what();
    } catch (const std::exception& e) {
      errors[i] = e.what();
      internal[i] = 1;
    }
    p.draw(static_cast<double>(++finished) / static_cast<double>(grid.size()));
  });
  p.done();
  // Bad input is blamed on the varied value (exit 2); anything else, such as running out of
  // memory, is an internal error (exit 1), as for run.
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (errors[i].empty()) continue;
    const std::string point = point_failure(sweep.texts[grid[i].source].source, grid[i].settings, errors[i]);
    if (internal[i]) throw std::runtime_error(point);
    throw InvalidArgument(point);
  }
  // One column per varied key (the value as given), then the report's columns. One curve
  // per file and combination of all but the last key, along the last key.
  // The CSV: the varied keys' columns, then the report's (runner.hpp, sweep_keys_header).
  std::string keys;
  for (std::size_t k = 0; k < axes.size(); ++k)
    if (reps <= 1 || k + 1 < axes.size()) keys += (keys.empty() ? "" : ", ") + axes[k].key;   // not the seeds
  if (reps > 1) keys += " (mean over seeds 1-" + std::to_string(reps) + ")";
  std::string csv = sweep_keys_header(axes) + csv_header() + "\n";
  for (std::size_t i = 0; i < grid.size(); ++i) csv += sweep_key_cells(axes, grid[i].settings) + results[i].row + "\n";
  // The chart: one curve per file and combination of all but the last user key, along that
  // key; with replications each point is the mean of its runs (rows i*reps .. i*reps+reps-1).
  const std::size_t user_axes = axes.size() - (reps > 1 ? 1 : 0);
  const std::size_t along = axes[user_axes - 1].values.size();
  const std::size_t per_point = std::max<std::size_t>(1, reps);
  std::string summary;
  std::vector<ChartSeries> series;
  for (std::size_t first = 0; first < grid.size(); first += along * per_point) {
    std::string name = grid[first].name;
    for (std::size_t k = 0; k + 1 < user_axes; ++k) name += (k == 0 ? " (" : ", ") + grid[first].settings[k];
    if (user_axes > 1) name += ")";
    ChartSeries curve{name, {}, {}};
    for (std::size_t j = 0; j < along; ++j) {
      const std::size_t at = first + j * per_point;
      double iops = 0, latency = 0, lo = results[at].iops, hi = lo, llo = results[at].latency_ms, lhi = llo;
      for (std::size_t k = at; k < at + per_point; ++k) {
        iops += results[k].iops / static_cast<double>(per_point);
        latency += results[k].latency_ms / static_cast<double>(per_point);
        lo = std::min(lo, results[k].iops);
        hi = std::max(hi, results[k].iops);
        llo = std::min(llo, results[k].latency_ms);
        lhi = std::max(lhi, results[k].latency_ms);
      }
      curve.x.push_back(iops);
      curve.y.push_back(latency);
      if (reps > 1) {
        char buf[200];
        std::snprintf(buf, sizeof buf, ": IOPS %.0f (%.0f .. %.0f), mean latency %.3f ms (%.3f .. %.3f)\n", iops, lo,
                      hi, latency, llo, lhi);
        std::string at_settings = grid[at].name;
        for (std::size_t k = 0; k < user_axes; ++k) at_settings += (k == 0 ? " (" : ", ") + grid[at].settings[k];
        at_settings += ")";
        summary += at_settings + buf;
      }
    }
    series.push_back(curve);
  }
  const std::string title = a.files.size() == 1 ? grid[0].name + " - sweep of " + keys : "sweep of " + keys;
  write_file(a.out + ".csv", csv, "--out");
  write_file(a.out + ".svg", svg_line_chart(title, "IOPS", "mean latency (ms)", series), "--out");
  std::fputs(csv.c_str(), stdout);
  // The summary goes to stderr: stdout stays one CSV.
  if (reps > 1) std::fprintf(stderr, "Mean over seeds 1-%zu (lowest .. highest):\n%s", reps, summary.c_str());
  std::fprintf(stderr, "wrote %s.csv and %s.svg\n", a.out.c_str(), a.out.c_str());
  sweep.say_nearest();
  return 0;
}

}  // namespace hcisim::cli
