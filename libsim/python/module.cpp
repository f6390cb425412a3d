// The Python binding's native part, _hcisim. The package around it
// (hcisim/__init__.py) turns files, YAML strings and dicts into scenario text and results
// into dicts and pandas DataFrames; here a scenario is read, run with the GIL released, and
// its result returned as the JSON report (report/run_report.hpp), inputs and warnings included.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <iterator>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "hcisim/calib/accuracy.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/plan/analytic.hpp"
#include "hcisim/plan/answer_range.hpp"
#include "hcisim/plan/compare.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/plan/knee.hpp"
#include "hcisim/plan/sensitivity.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/runner.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "hcisim/version.hpp"

namespace py = pybind11;
using namespace hcisim;

namespace {

// kind: "file" (text is a path), "yaml" (text is the document, named `name` in errors) or
// "default" (the built-in default scenario).
Scenario read(const std::string& kind, const std::string& text, const std::string& name,
              const std::vector<std::string>& sets, const HardwareCatalog& cat) {
  if (kind == "file") return load_scenario(text, sets, cat);
  if (kind == "yaml") return parse_scenario(text, name, sets, cat);
  if (kind == "default") return parse_scenario(default_scenario_yaml(), "<built-in default>", sets, cat);
  throw InvalidArgument("scenario kind '" + kind + "'; expected file, yaml or default");
}

// The catalogs, with a price file's text (named `prices_name` in errors) laid over their
// prices when one is given (scenario/hardware_catalog.hpp).
HardwareCatalog catalog(const std::string& prices_text, const std::string& prices_name) {
  HardwareCatalog cat = HardwareCatalog::load();
  if (!prices_text.empty()) cat.add_prices(parse_price_file(prices_text, prices_name, cat));
  return cat;
}

// Thrown from a run's progress report once Ctrl-C was seen: unwinds the simulation.
struct Interrupted {};

// Runs `work(progress)` with the GIL released (other Python threads run meanwhile), on a
// worker thread, while this thread checks for signals every 50 ms: Ctrl-C (or any signal whose
// handler raises) makes every run stop at its next progress report (each batch: 128 per
// window, 100 over the warm-up) and raises here. Signals reach Python's main thread only, so
// a call from another thread is not interrupted. If the system refuses the worker thread (an
// address-space limit, a pids cgroup), the work runs on this thread, without the Ctrl-C check.
template <class Work>
auto interruptible(Work&& work) -> decltype(work(ProgressFn{})) {
  std::atomic<bool> stop{false};
  std::atomic<bool> done{false};
  const ProgressFn progress = [&stop](const RunProgress&) {
    if (stop.load(std::memory_order_relaxed)) throw Interrupted{};
  };
  std::optional<decltype(work(ProgressFn{}))> out;
  std::exception_ptr error;
  bool signalled = false;
  {
    py::gil_scoped_release release;
    std::mutex mu;
    std::condition_variable cv;
    auto body = [&] {
      try {
        out.emplace(work(progress));
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu);
      done = true;
      cv.notify_one();
    };
    std::thread worker;
    try {
      worker = std::thread(body);
    } catch (const std::exception&) {   // std::system_error, or std::bad_alloc for its state
      body();
    }
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done.load(); })) {
      if (signalled) continue;
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        signalled = PyErr_CheckSignals() != 0;   // the handler's exception stays set
      }
      if (signalled) stop = true;
      lock.lock();
    }
    lock.unlock();
    if (worker.joinable()) worker.join();
  }
  if (signalled) throw py::error_already_set();
  if (error) std::rethrow_exception(error);
  return std::move(*out);
}

std::string run(const std::string& kind, const std::string& text, const std::string& name,
                const std::vector<std::string>& sets, const std::string& prices_text, const std::string& prices_name) {
  const HardwareCatalog cat = catalog(prices_text, prices_name);
  const Scenario s = read(kind, text, name, sets, cat);
  const RunResult r = interruptible([&](const ProgressFn& progress) { return simulate(s, progress); });
  return to_json(r);
}

// Two scenarios side by side (plan/compare.hpp), as JSON: {"a": <A's report>, "b": <B's>}.
std::string compare_json(const std::string& kind_a, const std::string& text_a, const std::string& name_a,
                         const std::string& kind_b, const std::string& text_b, const std::string& name_b,
                         const std::vector<std::string>& sets, const std::string& prices_text,
                         const std::string& prices_name) {
  const HardwareCatalog cat = catalog(prices_text, prices_name);
  const Scenario a = read(kind_a, text_a, name_a, sets, cat);
  const Scenario b = read(kind_b, text_b, name_b, sets, cat);
  const Comparison c = interruptible([&](const ProgressFn& progress) { return compare(a, b, "A", "B", progress); });
  return to_json(c);
}

// The scenario's capacity line under both reserve rules, as JSON; runs nothing.
std::string capacity_json(const std::string& kind, const std::string& text, const std::string& name,
                          const std::vector<std::string>& sets, const std::string& prices_text,
                          const std::string& prices_name) {
  return to_json(capacity_answer(read(kind, text, name, sets, catalog(prices_text, prices_name))));
}

// stat "mean", "p95" or "p99" under limit_ms.
KneeTarget knee_target(const std::string& stat, double limit_ms) {
  KneeTarget t;
  t.limit_ms = limit_ms;
  if (stat == "mean") t.stat = LatencyStat::mean;
  else if (stat == "p95") t.stat = LatencyStat::p95;
  else if (stat == "p99") t.stat = LatencyStat::p99;
  else throw InvalidArgument("knee: statistic '" + stat + "'; expected mean, p95 or p99");
  return t;
}

// The knee (plan/knee.hpp) as JSON: stat is "mean", "p95" or "p99".
std::string knee(const std::string& kind, const std::string& text, const std::string& name,
                 const std::vector<std::string>& sets, const std::string& stat, double limit_ms, int jobs,
                 const std::string& prices_text, const std::string& prices_name) {
  const Scenario s = read(kind, text, name, sets, catalog(prices_text, prices_name));
  const KneeTarget t = knee_target(stat, limit_ms);
  const KneeResult k = interruptible([&](const ProgressFn& progress) {
    KneeOptions o;
    o.jobs = jobs;
    o.run_progress = progress;
    return find_knee(s, t, o);
  });
  return to_json(s.name, k);
}

// The analytic curve (plan/analytic.hpp), optionally checked by the simulator, as JSON.
std::string curve(const std::string& kind, const std::string& text, const std::string& name,
                  const std::vector<std::string>& sets, bool check, double limit_ms, int jobs, int range_seeds) {
  const HardwareCatalog cat = HardwareCatalog::load();
  const Scenario s = read(kind, text, name, sets, cat);
  if (range_seeds > 0) {
    RangeOptions o;
    o.seeds = range_seeds;
    o.jobs = jobs;
    const Ranged r = interruptible([&](const ProgressFn& progress) {
      RangeOptions with = o;
      with.run_progress = progress;
      return curve_range(s, [&](const HardwareCatalog& moved) { return read(kind, text, name, sets, moved); }, cat,
                         limit_ms, with);
    });
    return ranged_report_json(s, r);
  }
  const CurveReport r =
      interruptible([&](const ProgressFn& progress) { return curve_report(s, check, limit_ms, jobs, progress); });
  return to_json(r);
}

// --sensitivity (plan/sensitivity.hpp): the scenario read again against a moved catalog with
// the moved keys after the user's `sets`.
SensitivityReader sensitivity_reader(const std::string& kind, const std::string& text, const std::string& name,
                                     const std::vector<std::string>& sets) {
  return [kind, text, name, sets](const HardwareCatalog& c, const std::vector<std::string>& overrides) {
    std::vector<std::string> all = sets;
    all.insert(all.end(), overrides.begin(), overrides.end());
    return read(kind, text, name, all, c);
  };
}

// `json` with "sensitivity": the study (wall time included), as the CLI's --sensitivity --json.
std::string with_sensitivity(std::string json, const std::string& study) {
  return with_json_block(std::move(json), "sensitivity", study);
}

// The study runs `study(options)` interruptibly on `jobs` threads.
template <typename Study>
Sensitivity studied(int jobs, const Study& study) {
  return interruptible([&](const ProgressFn& progress) {
    SensitivityOptions o;
    o.jobs = jobs;
    o.run_progress = progress;
    return study(o);
  });
}

// An answer with its assumption sensitivity as JSON: answer "run" (the run's report), "knee"
// (stat "mean", "p95" or "p99" under limit_ms) or "curve" (the analytic curve and the
// sensitivity of its knee under a mean limit_ms), each document with a "sensitivity" block.
std::string sensitivity_json(const std::string& kind, const std::string& text, const std::string& name,
                             const std::vector<std::string>& sets, const std::string& answer, const std::string& stat,
                             double limit_ms, int jobs, const std::string& prices_text, const std::string& prices_name) {
  const HardwareCatalog cat = catalog(prices_text, prices_name);
  const Scenario s = read(kind, text, name, sets, cat);
  const SensitivityReader reread = sensitivity_reader(kind, text, name, sets);
  if (answer == "run") {
    RunResult base;
    const Sensitivity r =
        studied(jobs, [&](const SensitivityOptions& o) { return run_sensitivity(s, reread, cat, o, &base); });
    return with_sensitivity(to_json(base), to_json(r, true));
  }
  if (answer == "knee") {
    const KneeTarget t = knee_target(stat, limit_ms);
    KneeResult base;
    const Sensitivity r =
        studied(jobs, [&](const SensitivityOptions& o) { return knee_sensitivity(s, reread, cat, t, o, &base); });
    return with_sensitivity(to_json(s.name, base), to_json(r, true));
  }
  if (answer != "curve") throw InvalidArgument("sensitivity: answer '" + answer + "'; expected run, knee or curve");
  const Sensitivity r =
      studied(jobs, [&](const SensitivityOptions& o) { return curve_sensitivity(s, reread, cat, limit_ms, o); });
  const CurveReport c =
      interruptible([&](const ProgressFn& progress) { return curve_report(s, false, limit_ms, jobs, progress); });
  return with_sensitivity(to_json(c), to_json(r, true));
}

// compare with the sensitivity of B - A's IOPS (plan/compare.hpp): {"a", "b", "sensitivity"}.
std::string compare_sensitivity_json(const std::string& kind_a, const std::string& text_a, const std::string& name_a,
                                     const std::string& kind_b, const std::string& text_b, const std::string& name_b,
                                     const std::vector<std::string>& sets, int jobs, const std::string& prices_text,
                                     const std::string& prices_name) {
  const HardwareCatalog cat = catalog(prices_text, prices_name);
  const Scenario a = read(kind_a, text_a, name_a, sets, cat);
  const Scenario b = read(kind_b, text_b, name_b, sets, cat);
  const Sensitivity r = studied(jobs, [&](const SensitivityOptions& o) {
    return compare_sensitivity(a, b, sensitivity_reader(kind_a, text_a, name_a, sets),
                               sensitivity_reader(kind_b, text_b, name_b, sets), cat, o);
  });
  const Comparison c = interruptible([&](const ProgressFn& progress) { return compare(a, b, "A", "B", progress); });
  return with_sensitivity(to_json(c), to_json(r, true));
}

// Inverse sizing (plan/sizing.hpp) of a requirements file, as JSON.
std::string size(const std::string& path, int jobs, const std::string& prices_text, const std::string& prices_name,
                 int range_seeds, bool prune, bool sensitivity) {
  HardwareCatalog cat = HardwareCatalog::load();
  const Requirements req = read_requirements(path, cat);
  if (!prices_text.empty()) cat.add_prices(parse_price_file(prices_text, prices_name, cat));
  const SizingResult r = interruptible([&](const ProgressFn& progress) {
    SizingOptions o;
    o.jobs = jobs;
    o.range_seeds = range_seeds;
    o.prune = prune;
    o.run_progress = progress;
    return size_cluster(req, cat, o);
  });
  if (!sensitivity) return to_json(r);
  // The cheapest design's margin at the demand (plan/sizing.hpp); null without a design.
  if (r.answers.empty()) return with_sensitivity(to_json(r), "null");
  const Sensitivity study =
      studied(jobs, [&](const SensitivityOptions& o) { return design_sensitivity(r.answers.front(), r.req, cat, o); });
  return with_sensitivity(to_json(r), to_json(study, true));
}

// A range together with the assumptions' sensitivity, as the CLI's run and knee --range
// --sensitivity --json: the range's report with "sensitivity" and "with_assumptions" (the
// headline's range widened by the assumptions the range does not already move).
std::string ranged_with_assumptions(const Scenario& s, Ranged r, const Sensitivity& sens, const KneeTarget* t) {
  r.assumptions = r.calibration ? assumptions_beyond_fit(sens) : static_cast<int>(sens.rows.size());
  const AnswerRange& headline = r.at(sens.names.at(0));
  const AssumptionSpan span = assumption_span(sens, r.calibration);
  return with_json_block(with_sensitivity(ranged_report_json(s, r, t), to_json(sens, true)), "with_assumptions",
                         with_assumptions_json(headline.name, headline.low, headline.high, span));
}

// An answer with its range (plan/answer_range.hpp) as JSON: answer "run" (the headline
// answers) or "knee" (stat "mean", "p95" or "p99" under limit_ms), over `seeds` seeds with the
// calibration's standard errors propagated; with `sensitivity`, the assumptions' study too.
std::string ranged(const std::string& kind, const std::string& text, const std::string& name,
                   const std::vector<std::string>& sets, const std::string& answer, const std::string& stat,
                   double limit_ms, int seeds, int jobs, bool sensitivity) {
  const HardwareCatalog cat = HardwareCatalog::load();
  const Scenario s = read(kind, text, name, sets, cat);
  const ScenarioReader reread = [&](const HardwareCatalog& moved) { return read(kind, text, name, sets, moved); };
  RangeOptions o;
  o.seeds = seeds;
  o.jobs = jobs;
  if (answer == "run") {
    const Ranged r = interruptible([&](const ProgressFn& progress) {
      RangeOptions with = o;
      with.run_progress = progress;
      return run_range(s, reread, cat, with);
    });
    if (!sensitivity) return ranged_report_json(s, r);
    const SensitivityReader moved = sensitivity_reader(kind, text, name, sets);
    RunResult base;
    return ranged_with_assumptions(
        s, r, studied(jobs, [&](const SensitivityOptions& so) { return run_sensitivity(s, moved, cat, so, &base); }),
        nullptr);
  }
  if (answer != "knee") throw InvalidArgument("range: answer '" + answer + "'; expected run or knee");
  const KneeTarget t = knee_target(stat, limit_ms);
  const Ranged r = interruptible([&](const ProgressFn& progress) {
    RangeOptions with = o;
    with.run_progress = progress;
    return knee_range(s, reread, cat, t, with);
  });
  if (!sensitivity) return ranged_report_json(s, r, &t);
  const SensitivityReader moved = sensitivity_reader(kind, text, name, sets);
  KneeResult base;
  return ranged_with_assumptions(
      s, r, studied(jobs, [&](const SensitivityOptions& so) { return knee_sensitivity(s, moved, cat, t, so, &base); }),
      &t);
}

// Reads a scenario once per point (`sets`, then the point's "key=value" settings) and throws
// InvalidInput at the first bad one, named by its settings as a sweep names it; runs nothing.
void check_scenario(const std::string& kind, const std::string& text, const std::string& name,
                    const std::vector<std::string>& sets, const std::vector<std::vector<std::string>>& points,
                    const std::string& prices_text, const std::string& prices_name) {
  const HardwareCatalog cat = catalog(prices_text, prices_name);
  for (const auto& point : points)
    load_point(
        [&](const std::vector<std::string>& settings) {
          return read(kind, text, name, point_overrides(sets, settings), cat);
        },
        point);
}

// A grid: the header (one column per key, then the report's) and one CSV row per point.
std::pair<std::string, std::vector<std::string>> sweep(
    const std::string& kind, const std::string& text, const std::string& name, const std::vector<std::string>& sets,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& axes, int jobs, const std::string& prices_text,
    const std::string& prices_name) {
  const HardwareCatalog cat = catalog(prices_text, prices_name);
  std::vector<SweepAxis> grid;
  for (const auto& [key, values] : axes) grid.push_back({key, values});
  const std::string header = sweep_keys_header(grid) + csv_header();
  // A file is read once; each point is parsed from its text when it is checked and again
  // when it runs (run_sweep holds settings, not parsed scenarios, so a long sweep's memory stays flat).
  const std::string body = kind == "file" ? read_scenario_file(text) : std::string();
  const ScenarioLoader load = [&](const std::vector<std::string>& settings) {
    const std::vector<std::string> all = point_overrides(sets, settings);
    return kind == "file" ? parse_scenario(body, text, all, cat) : read(kind, text, name, all, cat);
  };
  const std::vector<SweepRow> rows =
      interruptible([&](const ProgressFn& progress) { return run_sweep(load, grid, jobs, progress); });
  std::vector<std::string> out;
  for (const SweepRow& row : rows) out.push_back(sweep_key_cells(grid, row.settings) + row.csv_row);
  return {header, out};
}

// Every row of data/measurements.csv with its prediction (calib/accuracy.hpp), as tuples in
// the order of kAccuracyColumns; the scenarios run with `sets` after their own keys.
constexpr const char* kAccuracyColumns[] = {"seed_file", "scenario", "workload", "metric", "unit", "kind",
                                            "class", "measured", "predicted", "error_pct", "predicted_min",
                                            "predicted_max", "reason", "csv_line"};
using AccuracyRow = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string,
                               std::string, double, double, double, double, double, std::string, std::size_t>;

std::vector<AccuracyRow> accuracy(const std::vector<std::string>& sets, const std::vector<std::string>& seeds,
                                  int replications, int jobs) {
  const HardwareCatalog cat = HardwareCatalog::load();
  const auto measurements = load_measurements(default_data_dir() + "/measurements.csv");
  AccuracyOptions o;
  o.repo_dir = default_data_dir() + "/..";
  o.overrides = sets;
  o.only_seeds = seeds;
  o.replications = replications;
  o.jobs = jobs;
  const AccuracyReport report = interruptible([&](const ProgressFn& progress) {
    AccuracyOptions with = o;
    with.run_progress = progress;
    return evaluate(measurements, cat, with);
  });
  std::vector<AccuracyRow> out;
  for (const Prediction& p : report.rows)
    out.emplace_back(p.m.seed_file, p.m.scenario, p.m.workload, p.m.metric, p.m.unit, p.m.kind,
                     accuracy_class_name(p.cls), p.m.value, p.predicted, p.error_pct, p.predicted_min,
                     p.predicted_max, p.reason, p.m.line);
  return out;
}

}  // namespace

PYBIND11_MODULE(_hcisim, m) {
  m.doc() = "hcisim's native part: scenarios read and run in C++";
  m.attr("version") = kVersion;
  py::register_exception<InvalidArgument>(m, "InvalidInput", PyExc_ValueError);
  // prices_text / prices_name: a price file's text and its name for errors ("" for none).
  m.def("run", &run, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"), py::arg("prices_text") = "",
        py::arg("prices_name") = "");
  m.def("compare", &compare_json, py::arg("kind_a"), py::arg("text_a"), py::arg("name_a"), py::arg("kind_b"),
        py::arg("text_b"), py::arg("name_b"), py::arg("sets"), py::arg("prices_text") = "", py::arg("prices_name") = "");
  m.def("capacity", &capacity_json, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"),
        py::arg("prices_text") = "", py::arg("prices_name") = "");
  m.def("knee", &knee, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"), py::arg("stat"),
        py::arg("limit_ms"), py::arg("jobs"), py::arg("prices_text") = "", py::arg("prices_name") = "");
  m.def("curve", &curve, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"), py::arg("check"),
        py::arg("limit_ms"), py::arg("jobs"), py::arg("range_seeds") = 0);
  m.def("size", &size, py::arg("path"), py::arg("jobs"), py::arg("prices_text") = "", py::arg("prices_name") = "",
        py::arg("range_seeds") = 0, py::arg("prune") = true, py::arg("sensitivity") = false);
  m.def("sensitivity", &sensitivity_json, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"),
        py::arg("answer"), py::arg("stat"), py::arg("limit_ms"), py::arg("jobs"), py::arg("prices_text") = "",
        py::arg("prices_name") = "");
  m.def("compare_sensitivity", &compare_sensitivity_json, py::arg("kind_a"), py::arg("text_a"), py::arg("name_a"),
        py::arg("kind_b"), py::arg("text_b"), py::arg("name_b"), py::arg("sets"), py::arg("jobs"),
        py::arg("prices_text") = "", py::arg("prices_name") = "");
  m.def("ranged", &ranged, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"), py::arg("answer"),
        py::arg("stat"), py::arg("limit_ms"), py::arg("seeds"), py::arg("jobs"), py::arg("sensitivity") = false);
  m.def("check", &check_scenario, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"),
        py::arg("points"), py::arg("prices_text") = "", py::arg("prices_name") = "");
  m.def("sweep", &sweep, py::arg("kind"), py::arg("text"), py::arg("name"), py::arg("sets"), py::arg("axes"),
        py::arg("jobs"), py::arg("prices_text") = "", py::arg("prices_name") = "");
  m.def("accuracy", &accuracy, py::arg("sets"), py::arg("seeds"), py::arg("replications"), py::arg("jobs"));
  m.attr("accuracy_columns") = std::vector<std::string>(std::begin(kAccuracyColumns), std::end(kAccuracyColumns));
  m.def("data_dir", &default_data_dir);
  // The input files' keys (scenario.hpp, file_keys): one dict per key; NaN for no bound.
  m.def("keys", [](const std::string& prefix) {
    py::list out;
    for (const FileKey& k : file_keys(prefix)) {
      py::dict d;
      d["file"] = std::string(k.file);
      d["path"] = std::string(k.path);
      d["type"] = std::string(k.type);
      d["unit"] = std::string(k.unit);
      d["default"] = std::string(k.default_text);
      d["min"] = k.min;
      d["max"] = k.max;
      d["allowed"] = std::string(k.allowed);
      d["description"] = std::string(k.description);
      d["assumed_min"] = k.assumed_min;
      d["assumed_max"] = k.assumed_max;
      d["assumed_why"] = std::string(k.assumed_why);
      d["replaced_by"] = std::string(k.replaced_by);
      d["field"] = std::string(k.field);
      out.append(d);
    }
    return out;
  }, py::arg("prefix"));
}
