// What the commands share (cli.hpp): loading a scenario with its warnings said once,
// writing an output file, the line of a replicated answer, --range's options and reader, and
// the "nearest measured" line.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <stdexcept>
#include <thread>
#include <string>
#include <vector>

#include "hcisim/model/core/parallel.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "cli.hpp"

namespace hcisim::cli {

void write_file(const std::string& path, const std::string& text, const char* option) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  int err = ok ? 0 : errno;
  if (f != nullptr && std::fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) throw InvalidArgument(std::string(option) + ": cannot write '" + path + "': " + std::strerror(err));
}

ScenarioText scenario_text(const std::string& file) {
  return file.empty() ? ScenarioText{default_scenario_yaml(), "<built-in default>"}
                      : ScenarioText{read_scenario_file(file), file};
}

Scenario load(const std::string& file, const std::vector<std::string>& sets, const HardwareCatalog& cat,
              std::set<std::string>* said) {
  const ScenarioText t = scenario_text(file);
  Scenario s = parse_scenario(t.text, t.source, sets, cat);
  say_warnings(s, said);
  return s;
}

void say_warnings(const Scenario& s, std::set<std::string>* said) {
  for (const std::string& w : s.warnings) {
    if (said && !said->insert(s.source + w).second) continue;
    // A warning that already starts with its file and line is printed as it is.
    if (w.starts_with(s.source + ":") || w.starts_with(s.source + " (--set)"))
      std::fprintf(stderr, "warning: %s\n", w.c_str());
    else
      std::fprintf(stderr, "warning: %s: %s\n", s.source.c_str(), w.c_str());
  }
}

std::string replicated_line(const std::vector<double>& all, const ConfidenceInterval& ci, const char* fmt_value) {
  std::vector<double> x;   // the runs with a value (a run that counted no I/O has no latency)
  for (double v : all)
    if (std::isfinite(v)) x.push_back(v);
  if (x.empty() || !std::isfinite(ci.mean)) return "undefined (no run counted I/O)";
  char buf[200];
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  std::string f = std::string(fmt_value) + " +- " + fmt_value + " (95 %%; lowest " + fmt_value + ", highest " + fmt_value + ")";
  std::snprintf(buf, sizeof buf, f.c_str(), ci.mean, ci.half_width, *lo, *hi);
  return buf;
}

// --range: how many seeds (--replications N, else 5), and the reader that loads the scenario
// again against a catalog with one calibration parameter moved (its warnings already said).
RangeOptions range_options(const Args& a) {
  RangeOptions o;
  if (a.replications > 1) o.seeds = a.replications;
  o.jobs = a.jobs;
  return o;
}
void say_range_warnings(const std::string& who, const Ranged& r) {
  for (const std::string& w : r.warnings) std::fprintf(stderr, "warning: %s: %s\n", who.c_str(), w.c_str());
}
ScenarioReader range_reader(const std::string& file, const std::vector<std::string>& sets, std::set<std::string>* said) {
  return [file, sets, said](const HardwareCatalog& c) { return load(file, sets, c, said); };
}

// --sensitivity (cli.hpp).
SensitivityOptions SensitivityEstimate::options(int jobs) {
  SensitivityOptions o;
  o.jobs = jobs;
  if (!enabled_) return o;
  o.run_progress = [this](const RunProgress& p) {
    if (said_.load() || (p.wall_s < 1.0 && p.fraction < 1.0) || said_.exchange(true)) return;
    const int threads = parallel_threads(jobs_);
    const int at_once = std::min(threads, std::max(1, runs_));
    const double wall = sensitivity_wall_estimate(runs_, probes_, p.estimated_wall_s(), at_once, studies_);
    if (studies_ > 1)
      std::fprintf(stderr, "sensitivity: %d points x %d runs, about %.0f s (%d at a time)\n", studies_, runs_, wall,
                   at_once);
    else if (probes_ > 1)
      std::fprintf(stderr, "sensitivity: %d runs of about %d simulations each, about %.0f s (%d at a time)\n", runs_,
                   probes_, wall, at_once);
    else
      std::fprintf(stderr, "sensitivity: %d runs, about %.0f s (%d at a time)\n", runs_, wall, at_once);
  };
  return o;
}

SensitivityReader sensitivity_reader(const std::string& file, const std::vector<std::string>& sets) {
  const ScenarioText t = scenario_text(file);
  return [t, sets](const HardwareCatalog& c, const std::vector<std::string>& overrides) {
    std::vector<std::string> all = sets;
    all.insert(all.end(), overrides.begin(), overrides.end());
    return parse_scenario(t.text, t.source, all, c);
  };
}

std::string with_sensitivity(std::string json, const Sensitivity& s) {
  return with_json_block(std::move(json), "sensitivity", to_json(s, true));
}

NearestMeasured nearest_line(const QuestionFeatures& q) {
  std::string data;
  try {
    data = default_data_dir();
  } catch (const InvalidArgument&) {   // no data directory: the table is missing with it
    data = ".";
  }
  return nearest_measured(data + "/accuracy.csv", q);
}

std::string with_nearest(std::string json, const NearestMeasured& n) {
  return with_json_block(std::move(json), "nearest_measured", to_json(n));
}

QuestionFeatures sizing_features(const SizingResult& r) {
  // The nearest measured rows of the cheapest answer (else of the cheapest design that failed).
  const Design* d = !r.answers.empty() ? &r.answers.front() : !r.cheaper_failures.empty() ? &r.cheaper_failures.front() : nullptr;
  return d != nullptr ? question_features(d->scenario, d->bottleneck) : QuestionFeatures{};
}

void print_answer(const Args& a, const std::string& out, const QuestionFeatures& q) {
  if (a.csv) {
    std::fputs(out.c_str(), stdout);
    return;
  }
  const NearestMeasured n = nearest_line(q);
  if (a.json) std::fputs(with_nearest(out, n).c_str(), stdout);
  else std::printf("%s\n%s\n", out.c_str(), n.text.c_str());
}

void write_tornado(const Args& a, const Sensitivity& s, const std::string& scenario) {
  if (!a.out_given) return;
  write_file(a.out, sensitivity_svg(s, scenario), "--out");
  std::fprintf(stderr, "wrote %s\n", a.out.c_str());
}

}  // namespace hcisim::cli
