// The hcisim command line's shared parts, private to the CLI: the parsed arguments, the
// helpers the commands share, and the commands, one file per group:
//   args.cpp                  the help text and the argument parser
//   support.cpp               loading a scenario (its warnings said once), writing a file,
//                             a replicated answer's line, --range's options and reader
//   run_commands.cpp          run, validate, capacity, knee, curve, size
//   sweep_command.cpp         sweep
//   compare_command.cpp       compare
//   calibration_commands.cpp  accuracy, calibrate
//   main.cpp                  catalog, the dispatch and the exit codes
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "hcisim/model/calib/fit.hpp"
#include "hcisim/hcisim.hpp"
#include "hcisim/plan/answer_range.hpp"
#include "hcisim/plan/knee.hpp"
#include "hcisim/plan/sensitivity.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/scenario/runner.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim::cli {

struct Args {
  std::string command = "run";
  std::vector<std::string> files;
  std::vector<std::string> sets;
  std::vector<std::string> vary;   // one per --vary: a grid over all of them
  std::string out = "sweep";
  int jobs = 0;
  bool json = false, csv = false, quiet = false, all = false, cv = false;
  std::vector<std::string> seeds;
  std::vector<std::string> params;
  int iterations = 12;
  bool iterations_given = false;
  FitLoss loss = FitLoss::least_squares;
  int starts = 1;                             // calibrate / accuracy --cv: fit starts (least_squares.hpp)
  bool starts_given = false;
  int replications = 1;
  bool out_given = false;
  int knee_targets = 0;                       // --mean-ms, --p95-ms, --p99-ms given
  KneeTarget knee;
  std::string prices;                         // --prices FILE
  bool check = false;                         // curve --check; accuracy --check (the committed table's hash)
  bool write = false;                         // accuracy --write: the committed table (data/accuracy.csv)
  bool markdown = false;                      // accuracy --markdown: the committed table's classes as Markdown
  bool range = false;                         // --range: seeds and calibration errors
  bool sensitivity = false;                   // --sensitivity: each assumption at both ends
  bool no_prune = false;                      // size --no-prune: simulate every candidate in turn
  bool replications_given = false;
};

/// The text of `hcisim --help`.
const char* help_text();

// "a,b,,c" -> {a, b, c}. Commas inside brackets, braces or quotes do not split, so a value
// can be a YAML list: "[esx01],[esx01, esx02]" -> {[esx01], [esx01, esx02]}.
std::vector<std::string> split_list(const std::string& v);

/// A bad argument: the message and a pointer to --help (exit code 2).
[[noreturn]] void usage_error(const std::string& msg);

/// The command line as Args; a bad option or value is a usage_error.
Args parse_args(int argc, char** argv);

// Writes `text` to `path`, or says which file could not be written, why (the system's
// reason), and the option that named it.
void write_file(const std::string& path, const std::string& text, const char* option);

// A scenario's YAML and the name errors give it: the file's, or the built-in default's for
// an empty file name.
struct ScenarioText {
  std::string text;
  std::string source;
};
ScenarioText scenario_text(const std::string& file);
// Loads a scenario and says its warnings on stderr (each once: `said` collects them).
Scenario load(const std::string& file, const std::vector<std::string>& sets, const HardwareCatalog& cat,
              std::set<std::string>* said = nullptr);
// Says a loaded scenario's warnings on stderr, as load() does.
void say_warnings(const Scenario& s, std::set<std::string>* said);

// Progress on stderr: a bar when stderr is a terminal; and once a run has taken a second of
// wall time, one line with its estimated wall time when that is over kEstimateWorthSayingS
// (simulation.hpp), terminal or not, so logs and notebooks see it too.
class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled), bar_(enabled && isatty(STDERR_FILENO)) {}
  ProgressFn fn() {
    if (!enabled_) return {};
    return [this](const RunProgress& p) {
      estimate(p);
      draw(p.fraction);
    };
  }
  std::function<void(double)> fraction_fn() {
    if (!bar_) return {};
    return [this](double f) { draw(f); };
  }
  void draw(double f) {
    if (!bar_) return;
    std::lock_guard<std::mutex> lock(mu_);
    const int n = static_cast<int>(f * 40);
    std::fprintf(stderr, "\r[%-40.*s] %3d%%", n, "########################################", static_cast<int>(f * 100));
    std::fflush(stderr);
  }
  void done() {
    if (bar_) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  void estimate(const RunProgress& p) {
    if (estimated_ || p.wall_s < 1.0) return;
    estimated_ = true;
    const double wall = p.estimated_wall_s();
    if (wall < kEstimateWorthSayingS) return;
    char when[32];
    if (wall < 120) std::snprintf(when, sizeof when, "%.0f s", wall);
    else if (wall < 7200) std::snprintf(when, sizeof when, "%.0f min", wall / 60);
    else std::snprintf(when, sizeof when, "%.1f h", wall / 3600);
    done();
    std::fprintf(stderr, "hcisim: estimated wall time %s%s for %.0f simulated seconds (%.3g simulated s per wall s so far)\n",
                 p.planned_is_bound ? "at most " : "", when, p.planned_s, p.simulated_s / p.wall_s);
  }

  bool enabled_;
  bool bar_;
  bool estimated_ = false;
  std::mutex mu_;
};

// "mean +- half-width (95 %; lowest min, highest max)" of replicated runs, each value in
// the printf format `fmt_value`; runs without a value (NaN) are left out, and with none it
// says "undefined".
std::string replicated_line(const std::vector<double>& x, const ConfidenceInterval& ci, const char* fmt_value);

// --range: how many seeds (--replications N, else 5), and the reader that loads the scenario
// again against a catalog with one calibration parameter moved (its warnings already said).
RangeOptions range_options(const Args& a);
// A range's warnings (Ranged::warnings) on stderr, each "warning: WHO: ..." (WHO: the
// scenario's source, a sweep point or a compare side).
void say_range_warnings(const std::string& who, const Ranged& r);
ScenarioReader range_reader(const std::string& file, const std::vector<std::string>& sets, std::set<std::string>* said);

// --sensitivity: the options, the reader that reads `file` again against a moved
// catalog with more --set overrides (its warnings not said again: they are the moved
// values'), and `json` with a "sensitivity" block added to the document (a JSON object).
class SensitivityEstimate {
 public:
  /// `runs` evaluations, each `probes` simulations one after another (a knee's closed loop
  /// and probes: knee_sensitivity_probes(); a run: 1); `studies` such studies one after
  /// another (sweep's points).
  SensitivityEstimate(int runs, int jobs, bool enabled, int probes = 1, int studies = 1)
      : runs_(runs), jobs_(jobs), probes_(probes), studies_(studies), enabled_(enabled && isatty(STDERR_FILENO)) {}
  /// --jobs, and on a terminal a progress function that says "sensitivity: N runs, about
  /// T s" once, when the first simulation has taken a second (or ended): as run's estimate
  /// (sensitivity_wall_estimate).
  SensitivityOptions options(const Args& a) { return options(a.jobs); }
  SensitivityOptions options(int jobs);

 private:
  int runs_, jobs_, probes_, studies_;
  bool enabled_;
  std::atomic<bool> said_{false};
};
SensitivityReader sensitivity_reader(const std::string& file, const std::vector<std::string>& sets);
std::string with_sensitivity(std::string json, const Sensitivity& s);
// --out FILE.svg with --sensitivity (run, knee, compare): the tornado as an SVG chart
// (sensitivity_svg, plan/sensitivity.hpp), titled with `scenario`; "wrote FILE" on stderr. Nothing
// without --out.
void write_tornado(const Args& a, const Sensitivity& s, const std::string& scenario);

// The commands; each returns the exit code.
int cmd_run(const Args& a, const HardwareCatalog& cat);
int cmd_validate(const Args& a, const HardwareCatalog& cat);
int cmd_capacity(const Args& a, const HardwareCatalog& cat);
int cmd_knee(const Args& a, const HardwareCatalog& cat);
int cmd_curve(const Args& a, const HardwareCatalog& cat);
int cmd_size(const Args& a, HardwareCatalog& cat);
int cmd_sweep(const Args& a, const HardwareCatalog& cat);
int cmd_compare(const Args& a, const HardwareCatalog& cat);
int cmd_accuracy(const Args& a, const HardwareCatalog& cat);

// The "nearest measured" line of an answer (calib/accuracy.hpp, nearest_measured), from the committed
// table in the data directory (read once per call).
NearestMeasured nearest_line(const QuestionFeatures& q);
// `json` (one object, ending in "}\n") with "nearest_measured": {...} added as its last member.
std::string with_nearest(std::string json, const NearestMeasured& n);
// Prints an answer: JSON with its "nearest_measured" member, text followed by the line, CSV
// as it is (a table has no place for it).
void print_answer(const Args& a, const std::string& out, const QuestionFeatures& q);
/// The question `size` answers, for its nearest line: the cheapest design that met the demand,
/// else the cheapest that failed (none: an empty question).
QuestionFeatures sizing_features(const SizingResult& r);
int cmd_calibrate(const Args& a, const HardwareCatalog& cat);
// --sensitivity (sensitivity_commands.cpp): the command's output, then its tornado.
int cmd_run_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat);
int cmd_knee_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat);
int cmd_curve_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat);
int cmd_compare_sensitivity(const Args& a, const Scenario& sa, const Scenario& sb, const HardwareCatalog& cat);
int cmd_size_sensitivity(const Args& a, const SizingResult& result, const HardwareCatalog& cat);
/// run and knee --range --sensitivity: `r` (the range) with the tornado, and the headline's range
/// with the assumptions in it; `head` opens the text.
int cmd_range_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat,
                          Ranged r, const std::string& head);

}  // namespace hcisim::cli
