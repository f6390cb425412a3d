// What the commands share (cli.hpp): loading a scenario with its warnings said once,
// writing an output file, the line of a replicated answer, --range's options and reader, and
// the "nearest measured" line.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

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
  const auto close = json.rfind('}');
  if (close == std::string::npos) return json;
  json.insert(close, ", \"nearest_measured\": " + to_json(n));
  return json;
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

}  // namespace hcisim::cli
