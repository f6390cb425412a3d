// The hcisim command line: run, sweep, compare and validate scenario files.
// Exit codes: 0 ok, 2 bad input (file, key, argument), 1 internal error.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "hcisim/calib/accuracy.hpp"
#include "hcisim/calib/fit.hpp"
#include "hcisim/core/parallel.hpp"
#include "hcisim/hcisim.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/report/svg_chart.hpp"
#include "hcisim/report/text_escape.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/plan/analytic.hpp"
#include "hcisim/plan/answer_range.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/scenario/knee.hpp"
#include "hcisim/scenario/price_file.hpp"
#include "hcisim/scenario/runner.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace {

using namespace hcisim;

constexpr const char* kHelp = R"(hcisim - predict the IOPS and latency of a vSAN cluster

usage:
  hcisim [run] [FILE] [--json | --csv] [--replications N] [--range] [--set KEY=VALUE]...
      run a scenario (the built-in default, seed 000's cluster, when FILE is omitted)
      and print HCIBench's result block (DiskSpd's tables for DiskSpd workloads);
      --replications N runs seeds 1..N and prints the mean with its 95 % interval;
      --range gives each headline answer a 95 % range for one cluster: N seeds from the
      scenario's own (seeds S..S+N-1; N = 5 unless --replications N) and the calibration's
      standard errors propagated
  hcisim sweep FILE... --vary KEY=V1,V2,... [--vary ...] [--out PREFIX] [--jobs N] [--replications N]
               [--range] [--set KEY=VALUE]...
      run one point per value (one curve per file), in parallel; write PREFIX.csv and
      PREFIX.svg (IOPS vs latency, default PREFIX "sweep") and print the CSV; several
      --vary options make a grid (every combination, one curve along the last);
      --replications N runs every point on seeds 1..N (a seed column in the CSV) and
      prints each point's mean with the lowest and highest run; --range gives every point's
      headline answers with their ranges (as run --range) instead
  hcisim catalog [devices | cpus | nics | switches | connections]...   (or: hcisim list)
      the catalogs' names, with the figures to choose by
  hcisim --version
      the version and the data folder in use
  hcisim compare A B [--json | --csv] [--replications N] [--range] [--set KEY=VALUE]...
      run two scenarios and print their results side by side with deltas; --range: each
      side's headline answers and B - A (paired by seed) with ranges, as run --range
  hcisim capacity [FILE] [--json] [--set KEY=VALUE]...
      the capacity line at once, without simulating: raw, reserve (cluster.capacity_reserve:
      slack, vSAN 7.0's 30 % or largest host; reserved, 7 U1+ and ESA's operations + host
      rebuild reserve), policy, data reduction (data_services.reduction_ratio: a planner's
      ratio), usable; and usable under the other rule. Failed hosts' devices are left out
  hcisim knee [FILE] (--mean-ms X | --p95-ms X | --p99-ms X) [--json] [--jobs N] [--range]
              [--set KEY=VALUE]...
      the highest IOPS whose mean, p95 or p99 latency (all I/Os) stays at or under X ms:
      offered load (an open loop with the workload's outstanding I/O as its cap) is bisected
      to 1 %, each round's probes in parallel; prints the knee, its bottleneck and the probes;
      --range: the knee on N seeds with its range, as run --range
  hcisim size REQUIREMENTS [--json] [--jobs N] [--prices FILE] [--range [--replications N]] [--no-prune]
      inverse sizing: the cheapest designs of the file's candidates (host models, networks,
      policies, host counts) that meet its demand (IOPS at a latency target, usable TB,
      growth, hosts down), each simulated at the demand, and why every cheaper one fails;
      the analytic path (as curve) fails a design whose ceiling is far short of the demand
      without its run (--no-prune: simulate every one); --range adds each answer's range
      at the demand and of its knee, as run --range
  hcisim curve [FILE] [--mean-ms X] [--check | --range] [--json] [--jobs N] [--set KEY=VALUE]...
      the analytic fast path: the IOPS-latency curve by mean-value analysis over the
      simulator's own resources (demands from one pilot run at 1 outstanding I/O per VMDK),
      at 20 points from 1 to twice the configured outstanding I/O per VMDK; --mean-ms X adds
      the knee under X ms; --check simulates every point (and the knee) beside it; --range
      gives every point and the knee a range over N pilots, as run --range
  hcisim validate FILE [--set KEY=VALUE]...
      check a scenario file without running it
  hcisim accuracy [--all] [--cv] [--seeds 000,003] [--replications N] [--set KEY=VALUE]... [--jobs N]
      run every scenario of data/measurements.csv with data/calibration.yaml and print
      measured vs predicted with errors (--all also lists rows not predicted, and why);
      --cv adds leave-one-seed-out cross-validation (one fit per seed, on 1 s runs; every
      held-out row, then the summary);
      --replications N (2..100) predicts each row as the mean over scenario seeds 1..N and
      adds the lowest and highest prediction (placement and every random choice vary);
      1, the default, runs each scenario with its own seed
  hcisim calibrate [--params P1,P2,...] [--iterations N] [--loss least-squares|huber] [--out FILE]
                   [--seeds ...] [--replications N] [--set ...]
      fit the calibration parameters to data/measurements.csv (Levenberg-Marquardt on log
      errors, 1 s runs unless --set says otherwise), print before/after and write FILE
      (default data/calibration.yaml); --loss huber counts large errors linearly (rows the
      model cannot represent pull less); accuracy --cv takes --loss too; --replications N
      fits the mean over placement seeds 1..N, as accuracy --replications N scores it
  hcisim --help

options:
  --set KEY=VALUE   override a scenario key, e.g. --set workload.vms=16
                    or --set cluster.host.network.speed_gbe=25 (repeatable)
  --prices FILE     a price file (US dollars: host base, CPUs, drives, NICs, switches, licences;
                    docs/reference.md) laid over the catalogs' list prices: run, compare,
                    sweep, capacity and knee then give the cluster's cost, per usable TB and per IOPS
  --json, --csv     machine-readable output (stable keys, see docs/reference.md)
  --quiet           no progress bar (shown only when stderr is a terminal) and no wall-time estimate

examples:
  hcisim
  hcisim run examples/scenarios/seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml --json
  hcisim sweep examples/scenarios/seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml \
      --vary workload.outstanding_per_vmdk=1,2,4,8,16,32 --out curve25
  hcisim compare a.yaml b.yaml --set workload.duration_s=5
)";

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
  int replications = 1;
  bool out_given = false;
  int knee_targets = 0;                       // --mean-ms, --p95-ms, --p99-ms given
  KneeTarget knee;
  std::string prices;                         // --prices FILE
  bool check = false;                         // curve --check
  bool range = false;                         // --range: seeds and calibration errors
  bool no_prune = false;                      // size --no-prune: simulate every candidate in turn
  bool replications_given = false;
};

// "a,b,,c" -> {a, b, c}. Commas inside brackets, braces or quotes do not split, so a value
// can be a YAML list: "[esx01],[esx01, esx02]" -> {[esx01], [esx01, esx02]} (fuzz review D20).
std::vector<std::string> split_list(const std::string& v) {
  std::vector<std::string> out;
  std::string item;
  int depth = 0;
  char quote = 0;
  for (char c : v) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      if (!item.empty()) out.push_back(item);
      item.clear();
      continue;
    }
    item += c;
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

[[noreturn]] void usage_error(const std::string& msg) { throw InvalidArgument(msg + " (see hcisim --help)"); }

// Writes `text` to `path`, or says which file could not be written, why (the system's
// reason), and the option that named it.
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

Args parse_args(int argc, char** argv) {
  Args a;
  int i = 1;
  if (i < argc && (std::strcmp(argv[i], "run") == 0 || std::strcmp(argv[i], "sweep") == 0 ||
                   std::strcmp(argv[i], "compare") == 0 || std::strcmp(argv[i], "validate") == 0 ||
                   std::strcmp(argv[i], "capacity") == 0 || std::strcmp(argv[i], "knee") == 0 ||
                   std::strcmp(argv[i], "size") == 0 || std::strcmp(argv[i], "curve") == 0 ||
                   std::strcmp(argv[i], "accuracy") == 0 || std::strcmp(argv[i], "calibrate") == 0 ||
                   std::strcmp(argv[i], "catalog") == 0 || std::strcmp(argv[i], "list") == 0 ||
                   std::strcmp(argv[i], "help") == 0))
    a.command = argv[i++];
  const bool command_given = i > 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) usage_error(std::string(flag) + " needs a value");
      return argv[++i];
    };
    auto int_value = [&](const char* flag, long lo, long hi) {
      const std::string v = value(flag);
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end || n < lo || n > hi)
        usage_error(std::string(flag) + " = '" + v + "' is not allowed; expected " + std::to_string(lo) + ".." +
                    std::to_string(hi));
      return static_cast<int>(n);
    };
    if (arg == "--help" || arg == "-h") a.command = "help";
    else if (arg == "--version") a.command = "version";
    else if (arg == "--json") a.json = true;
    else if (arg == "--csv") a.csv = true;
    else if (arg == "--quiet") a.quiet = true;
    else if (arg == "--all") a.all = true;
    else if (arg == "--cv") a.cv = true;
    else if (arg == "--check") a.check = true;
    else if (arg == "--range") a.range = true;
    else if (arg == "--no-prune") a.no_prune = true;
    else if (arg == "--seeds") {
      a.seeds = split_list(value("--seeds"));
      if (a.seeds.empty()) usage_error("--seeds lists no seed; expected e.g. --seeds 000,003");
    }
    else if (arg == "--set") a.sets.push_back(value("--set"));
    else if (arg == "--prices") {
      if (!a.prices.empty()) usage_error("--prices is given twice; give one price file");
      a.prices = value("--prices");
      if (a.prices.empty()) usage_error("--prices is empty; expected a price file");
    }
    else if (arg == "--vary") a.vary.push_back(value("--vary"));
    else if (arg == "--out") {
      a.out = value("--out");
      a.out_given = true;
      if (a.out.empty()) usage_error("--out is empty; expected a file name (or, for sweep, a prefix)");
    } else if (arg == "--params") {
      a.params = split_list(value("--params"));
      if (a.params.empty()) usage_error("--params lists no parameter");
    } else if (arg == "--iterations") {
      a.iterations = int_value("--iterations", 0, 100);
      a.iterations_given = true;
    } else if (arg == "--loss") {
      const std::string v = value("--loss");
      if (v == "huber") a.loss = FitLoss::huber;
      else if (v == "least-squares") a.loss = FitLoss::least_squares;
      else usage_error("--loss = '" + v + "' is not allowed; expected huber or least-squares");
    } else if (arg == "--mean-ms" || arg == "--p95-ms" || arg == "--p99-ms") {
      const std::string v = value(arg.c_str());
      char* end = nullptr;
      const double ms = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end || v.find_first_of("xX") != std::string::npos || !std::isfinite(ms) || !(ms > 0) ||
          ms > 1e6)
        usage_error(arg + " = '" + v + "' is not allowed; expected a latency in ms, > 0 and at most 1e6");
      a.knee.stat = arg == "--mean-ms" ? LatencyStat::mean : arg == "--p95-ms" ? LatencyStat::p95 : LatencyStat::p99;
      a.knee.limit_ms = ms;
      ++a.knee_targets;
    } else if (arg == "--replications") {
      a.replications = int_value("--replications", 1, 100);
      a.replications_given = true;
    } else if (arg == "--jobs") {
      a.jobs = int_value("--jobs", 1, 256);
    } else if (!arg.empty() && arg[0] == '-') {
      usage_error("unknown option '" + arg +
                  "'; allowed: --set, --json, --csv, --quiet, --vary, --out, --jobs, --all, --cv, --seeds, --params, "
                  "--iterations, --loss, --replications, --mean-ms, --p95-ms, --p99-ms, --prices, --check, --range, --no-prune, "
                  "--help");
    } else {
      a.files.push_back(arg);
    }
  }
  if (a.json && a.csv) usage_error("--json and --csv cannot both be given");
  if (a.range && !a.prices.empty() && a.command != "size")   // size's answers keep their cost
    usage_error("--range and --prices: a range carries no cost (the parts do not vary with the seed); run without "
                "--range for the cost");
  if (a.range && a.replications_given && a.replications < 2)
    usage_error("--range --replications " + std::to_string(a.replications) +
                ": a range needs 2..100 seeds (without --replications: 5)");
  if (a.replications > 1 && a.command != "accuracy" && !a.range)
    for (const std::string& set : a.sets)
      if (set.rfind("seed=", 0) == 0)
        usage_error("--set " + set + " and --replications both set the seed (--replications runs seeds 1..N); give one");
  // The first word names a command unless it is a scenario file: a word that is neither (a
  // typo such as "rn") is an unknown command, not a missing file.
  std::error_code ec;
  if (!command_given && a.command == "run" && !a.files.empty() && !std::filesystem::exists(a.files[0], ec) &&
      a.files[0].find('.') == std::string::npos && a.files[0].find('/') == std::string::npos)
    usage_error("unknown command '" + a.files[0] + "'; commands: run, sweep, compare, validate, capacity, knee, accuracy, calibrate, catalog");
  // Options the command does not use are errors, not silently ignored.
  struct Use {
    bool given;
    const char* option;
    std::initializer_list<const char*> commands;
  };
  const Use uses[] = {
      {!a.vary.empty(), "--vary", {"sweep"}},
      {a.out_given, "--out", {"sweep", "calibrate"}},
      {a.jobs > 0, "--jobs", {"sweep", "accuracy", "calibrate", "run", "compare", "knee", "size", "curve"}},
      {a.check, "--check", {"curve"}},
      {a.no_prune, "--no-prune", {"size"}},
      {a.range, "--range", {"run", "knee", "sweep", "compare", "curve", "size"}},
      {a.all, "--all", {"accuracy"}},
      {a.cv, "--cv", {"accuracy"}},
      {!a.seeds.empty(), "--seeds", {"accuracy", "calibrate"}},
      {!a.params.empty(), "--params", {"calibrate"}},
      {a.iterations_given, "--iterations", {"calibrate"}},
      {a.loss != FitLoss::least_squares && !(a.command == "accuracy" && a.cv), "--loss", {"calibrate", "accuracy --cv"}},
      {a.replications != 1 && !(a.range && (a.command == "knee" || a.command == "curve" || a.command == "size")),
       "--replications", {"accuracy", "calibrate", "run", "compare", "sweep", "knee --range", "curve --range", "size --range"}},
      {a.json || a.csv, "--json/--csv", {"run", "compare", "capacity", "knee", "size", "curve"}},
      {!a.sets.empty(), "--set", {"run", "sweep", "compare", "validate", "capacity", "knee", "accuracy", "calibrate", "curve"}},
      {a.knee_targets > 0, "--mean-ms/--p95-ms/--p99-ms", {"knee", "curve"}},
      {!a.prices.empty(), "--prices", {"run", "compare", "sweep", "capacity", "knee", "size"}},
  };
  for (const Use& u : uses) {
    if (!u.given || a.command == "help") continue;
    bool ok = false;
    std::string list;
    for (const char* c : u.commands) {
      ok = ok || a.command == c;
      list += (list.empty() ? "" : ", ") + std::string(c);
    }
    if (!ok) usage_error(std::string(u.option) + " is not an option of '" + a.command + "' (it is for " + list + ")");
  }
  return a;
}

// Loads a scenario and says its warnings on stderr (each once: `said` collects them).
Scenario load(const std::string& file, const std::vector<std::string>& sets, const HardwareCatalog& cat,
              std::set<std::string>* said = nullptr) {
  Scenario s = file.empty() ? parse_scenario(default_scenario_yaml(), "<built-in default>", sets, cat)
                            : load_scenario(file, sets, cat);
  for (const std::string& w : s.warnings)
    if (!said || said->insert(s.source + w).second) std::fprintf(stderr, "warning: %s: %s\n", s.source.c_str(), w.c_str());
  return s;
}

// Progress on stderr: a bar when stderr is a terminal; and once a run has taken a second of
// wall time, one line with its estimated wall time when that is over 10 s (terminal or not,
// so logs and notebooks see it too).
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
    if (wall < 10) return;
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

void print_run(const Args& a, const RunResult& r) {
  if (a.json) std::fputs(to_json(r).c_str(), stdout);
  else if (a.csv) std::printf("%s\n%s\n", csv_header().c_str(), csv_row(r).c_str());
  else if (r.workload.tool == WorkloadTool::diskspd) std::fputs(format_diskspd(r).c_str(), stdout);
  else std::fputs(format_hcibench(r).c_str(), stdout);
}

// "mean +- half-width (min .. max)" of replicated runs.
std::string replicated_line(const std::vector<double>& x, const ConfidenceInterval& ci, const char* fmt_value) {
  char buf[200];
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  std::string f = std::string(fmt_value) + " +- " + fmt_value + " (95 %%; lowest " + fmt_value + ", highest " + fmt_value + ")";
  std::snprintf(buf, sizeof buf, f.c_str(), ci.mean, ci.half_width, *lo, *hi);
  return buf;
}

// run --replications N: the scenario on seeds 1..N (placement and every random stream).
int cmd_run_replicated(const Args& a, const Scenario& s) {
  const Replicated rep = replicate(s, a.replications, Vary::placement, a.jobs);
  if (a.json) {
    std::printf("{\"scenario\": %s, \"replications\": %d, \"vary\": \"seed\", \"iops\": {\"mean\": %.10g, "
                "\"half_width\": %.10g}, \"pooled_latency_ms\": {\"mean\": %.10g, \"half_width\": %.10g}, \"each_iops\": [",
                json_string(s.name).c_str(), a.replications, rep.mean_iops.mean, rep.mean_iops.half_width,
                rep.mean_latency_ms.mean, rep.mean_latency_ms.half_width);
    for (std::size_t i = 0; i < rep.iops.size(); ++i) std::printf("%s%.10g", i ? ", " : "", rep.iops[i]);
    std::printf("]}\n");
    return 0;
  }
  std::printf("Over seeds 1-%d (placement and every random stream vary):\n", a.replications);
  std::printf("IOPS                %s\n", replicated_line(rep.iops, rep.mean_iops, "%.0f").c_str());
  std::printf("mean latency (ms)   %s\n", replicated_line(rep.latency_ms, rep.mean_latency_ms, "%.3f").c_str());
  return 0;
}

// --range: how many seeds (--replications N, else 5), and the reader that loads the scenario
// again against a catalog with one calibration parameter moved (its warnings already said).
RangeOptions range_options(const Args& a) {
  RangeOptions o;
  if (a.replications > 1) o.seeds = a.replications;
  o.jobs = a.jobs;
  return o;
}
ScenarioReader range_reader(const std::string& file, const std::vector<std::string>& sets, std::set<std::string>* said) {
  return [file, sets, said](const HardwareCatalog& c) { return load(file, sets, c, said); };
}

// run --range: the headline answers with their ranges (plan/answer_range.hpp).
int cmd_run_range(const Args& a, const Scenario& s, const ScenarioReader& read, const HardwareCatalog& cat) {
  const Ranged r = run_range(s, read, cat, range_options(a));
  if (a.json)
    std::fputs(ranged_report_json(s, r).c_str(), stdout);
  else if (a.csv)
    std::printf("scenario,%s\n%s,%s\n", ranged_csv_header(run_range_names()).c_str(), csv_field(s.name).c_str(),
                ranged_csv_cells(r).c_str());
  else
    std::printf("Scenario: %s\nWorkload: %s\n\n%s", s.name.c_str(), describe_workloads(s).c_str(), format_ranged(r).c_str());
  return 0;
}

int cmd_run(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("run takes one scenario file");
  std::set<std::string> said;
  const std::string file = a.files.empty() ? "" : a.files[0];
  const Scenario s = load(file, a.sets, cat, &said);
  if (a.range) return cmd_run_range(a, s, range_reader(file, a.sets, &said), cat);
  if (a.csv && a.replications > 1) usage_error("run --replications prints text or --json, not --csv");
  if (a.replications > 1) {
    if (!a.json) std::printf("Scenario: %s\nWorkload: %s\n\n", s.name.c_str(), describe_workloads(s).c_str());
    return cmd_run_replicated(a, s);
  }
  if (!a.json && !a.csv) std::printf("Scenario: %s\nWorkload: %s\n\n", s.name.c_str(), describe_workloads(s).c_str());
  Progress p(!a.quiet);
  const RunResult r = simulate(s, p.fn());
  p.done();
  print_run(a, r);
  return 0;
}

int cmd_validate(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() != 1) usage_error("validate takes one scenario file");
  const Scenario s = load(a.files[0], a.sets, cat);
  std::printf("%s: ok (%zu hosts, %s, %s; %s)\n", a.files[0].c_str(), s.cluster.hosts.size(),
              architecture_name(s.cluster.architecture), s.cluster.layout().describe().c_str(),
              describe_workloads(s).c_str());
  return 0;
}

// The capacity line of a scenario under both reserve rules, without simulating (issue 23, item 5).
int cmd_capacity(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("capacity takes one scenario file (the built-in default without one)");
  if (a.csv) usage_error("capacity prints text or --json, not --csv");
  const CapacityAnswer c = capacity_answer(load(a.files.empty() ? "" : a.files[0], a.sets, cat));
  std::fputs(a.json ? to_json(c).c_str() : format_capacity(c).c_str(), stdout);
  return 0;
}

// The highest IOPS whose latency statistic stays under a target (issue 23, item 1).
int cmd_knee(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("knee takes one scenario file (the built-in default without one)");
  if (a.knee_targets != 1) usage_error("knee needs exactly one target: --mean-ms X, --p95-ms X or --p99-ms X");
  if (a.csv) usage_error("knee prints text or --json, not --csv");
  std::set<std::string> said;
  const std::string file = a.files.empty() ? "" : a.files[0];
  const Scenario s = load(file, a.sets, cat, &said);
  if (a.range) {
    const Ranged r = knee_range(s, range_reader(file, a.sets, &said), cat, a.knee, range_options(a));
    if (a.json)
      std::fputs(ranged_report_json(s, r, &a.knee).c_str(), stdout);
    else
      std::printf("Knee of %s: the highest IOPS with %s latency <= %g ms (-: not found)\n\n%s", s.name.c_str(),
                  latency_stat_name(a.knee.stat), a.knee.limit_ms, format_ranged(r).c_str());
    return 0;
  }
  KneeOptions o;
  o.jobs = a.jobs;
  const KneeResult k = find_knee(s, a.knee, o);
  std::fputs(a.json ? to_json(s.name, k).c_str() : format_knee(s.name, k).c_str(), stdout);
  return 0;
}

// The analytic fast path (issue 23, item 3): the MVA curve, optionally beside the simulator's.
int cmd_curve(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("curve takes one scenario file (the built-in default without one)");
  if (a.csv) usage_error("curve prints text or --json, not --csv");
  if (a.knee_targets > 1 || (a.knee_targets == 1 && a.knee.stat != LatencyStat::mean))
    usage_error("curve's knee is on the mean latency: give --mean-ms X (the analytic path has no percentiles)");
  std::set<std::string> said;
  const std::string file = a.files.empty() ? "" : a.files[0];
  const Scenario s = load(file, a.sets, cat, &said);
  if (a.range) {
    if (a.check) usage_error("curve --range and --check: give one (--check simulates one seed's points)");
    const Ranged r = curve_range(s, range_reader(file, a.sets, &said), cat, a.knee_targets == 1 ? a.knee.limit_ms : 0,
                                 range_options(a));
    if (a.json) std::fputs(ranged_report_json(s, r).c_str(), stdout);
    else
      std::printf("Analytic curve of %s (outstanding I/O per VMDK after @)\n\n%s", s.name.c_str(), format_ranged(r).c_str());
    return 0;
  }
  const CurveReport r = curve_report(s, a.check, a.knee_targets == 1 ? a.knee.limit_ms : 0, a.jobs);
  std::fputs(a.json ? to_json(r).c_str() : format_curve(r).c_str(), stdout);
  return 0;
}

// Inverse sizing (issue 23, item 2): the cheapest designs meeting a requirements file.
int cmd_size(const Args& a, HardwareCatalog& cat) {
  if (a.files.size() != 1) usage_error("size takes one requirements file (examples/sizing/ has some)");
  if (a.csv) usage_error("size prints text or --json, not --csv");
  const Requirements req = read_requirements(a.files[0], cat);
  // --prices wins over the file's prices: (laid over again, after them).
  if (!a.prices.empty()) cat.add_prices(load_price_file(a.prices, cat));
  SizingOptions o;
  o.jobs = a.jobs;
  o.prune = !a.no_prune;
  if (a.range) o.range_seeds = range_options(a).seeds;
  const SizingResult r = size_cluster(req, cat, o);
  std::fputs(a.json ? to_json(r).c_str() : format_sizing(r).c_str(), stdout);
  return 0;
}

// sweep --range: every point's headline answers with their ranges (plan/answer_range.hpp),
// one point after another (each point's seeds and moved parameters run in parallel). The
// chart draws each point's mean over its seeds.
int cmd_sweep_range(const Args& a, const HardwareCatalog& cat, const std::vector<SweepAxis>& axes) {
  for (const SweepAxis& ax : axes)
    if (ax.key == "seed") usage_error("--vary seed and --range both set the seed (--range runs N seeds); give one");
  std::set<std::string> said;
  struct Point {
    SweepPoint point;
    std::string file;
  };
  std::vector<Point> grid;
  for (const auto& file : a.files) {
    auto with = [&](const std::vector<std::string>& settings) {
      auto sets = a.sets;
      sets.insert(sets.end(), settings.begin(), settings.end());
      return sets;
    };
    for (auto& p : sweep_points([&](const std::vector<std::string>& settings) { return load(file, with(settings), cat, &said); }, axes))
      grid.push_back({std::move(p), file});
  }
  std::string csv = sweep_keys_header(axes) + "scenario," + ranged_csv_header(run_range_names()) + "\n";
  std::vector<ChartSeries> series;
  const std::size_t along = axes.back().values.size();
  Progress progress(!a.quiet);
  for (std::size_t i = 0; i < grid.size(); ++i) {
    auto sets = a.sets;
    sets.insert(sets.end(), grid[i].point.settings.begin(), grid[i].point.settings.end());
    const Ranged r = run_range(grid[i].point.scenario, range_reader(grid[i].file, sets, &said), cat, range_options(a));
    progress.draw(static_cast<double>(i + 1) / static_cast<double>(grid.size()));
    csv += sweep_key_cells(axes, grid[i].point.settings) + csv_field(grid[i].point.scenario.name) + "," +
           ranged_csv_cells(r) + "\n";
    if (i % along == 0) {
      std::string name = grid[i].point.scenario.name;
      for (std::size_t k = 0; k + 1 < axes.size(); ++k) name += (k == 0 ? " (" : ", ") + grid[i].point.settings[k];
      if (axes.size() > 1) name += ")";
      series.push_back({name, {}, {}});
    }
    series.back().x.push_back(r.at("iops").value);
    series.back().y.push_back(r.at("pooled_latency_ms").value);
  }
  progress.done();
  std::string keys;
  for (const SweepAxis& ax : axes) keys += (keys.empty() ? "" : ", ") + ax.key;
  const std::string title = (a.files.size() == 1 ? grid[0].point.scenario.name + " - sweep of " : "sweep of ") + keys +
                            " (mean over " + std::to_string(range_options(a).seeds) + " seeds)";
  write_file(a.out + ".csv", csv, "--out");
  write_file(a.out + ".svg", svg_line_chart(title, "IOPS", "mean latency (ms)", series), "--out");
  std::fputs(csv.c_str(), stdout);
  std::fprintf(stderr, "wrote %s.csv and %s.svg\n", a.out.c_str(), a.out.c_str());
  return 0;
}

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
  // Load every point first so bad input fails before any run.
  std::vector<SweepPoint> grid;   // all files' points, file by file
  std::set<std::string> said;
  for (const auto& file : a.files) {
    auto file_points = sweep_points(
        [&](const std::vector<std::string>& settings) {
          auto sets = a.sets;
          sets.insert(sets.end(), settings.begin(), settings.end());
          return load(file, sets, cat, &said);
        },
        axes);
    for (auto& p : file_points) grid.push_back(std::move(p));
  }
  std::vector<Scenario> points;
  for (const SweepPoint& p : grid) points.push_back(p.scenario);
  // Each finished point keeps its CSV row and chart point only, not its whole RunResult
  // (about 98 KB with the latency histograms; fuzz review D18).
  struct Point {
    std::string row;
    double iops = 0;
    double latency_ms = 0;
  };
  std::vector<Point> results(points.size());
  std::vector<std::string> errors(points.size());
  std::vector<char> internal(points.size(), 0);   // the error was not bad input
  std::atomic<std::size_t> finished{0};
  Progress p(!a.quiet);
  parallel_for(points.size(), a.jobs, [&](std::size_t i) {
    try {
      const RunResult r = simulate(points[i]);
      results[i] = Point{csv_row(r), r.result.iops, r.result.pooled_latency_ms};
    } catch (const InvalidArgument& e) {
      errors[i] = e.what();
    } catch (const std::exception& e) {
      errors[i] = e.what();
      internal[i] = 1;
    }
    p.draw(static_cast<double>(++finished) / static_cast<double>(points.size()));
  });
  p.done();
  // Bad input is blamed on the varied value (exit 2); anything else, such as running out of
  // memory, is an internal error (exit 1), as for run (fuzz review D17).
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (errors[i].empty()) continue;
    std::string at;
    for (const std::string& s : grid[i].settings) at += (at.empty() ? "" : ", ") + s;
    const std::string point = at + ": " + errors[i];
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
    std::string name = points[first].name;
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
        std::string at_settings = points[at].name;
        for (std::size_t k = 0; k < user_axes; ++k) at_settings += (k == 0 ? " (" : ", ") + grid[at].settings[k];
        at_settings += ")";
        summary += at_settings + buf;
      }
    }
    series.push_back(curve);
  }
  const std::string title = a.files.size() == 1 ? points[0].name + " - sweep of " + keys : "sweep of " + keys;
  write_file(a.out + ".csv", csv, "--out");
  write_file(a.out + ".svg", svg_line_chart(title, "IOPS", "mean latency (ms)", series), "--out");
  std::fputs(csv.c_str(), stdout);
  // The summary goes to stderr: stdout stays one CSV.
  if (reps > 1) std::fprintf(stderr, "Mean over seeds 1-%zu (lowest .. highest):\n%s", reps, summary.c_str());
  std::fprintf(stderr, "wrote %s.csv and %s.svg\n", a.out.c_str(), a.out.c_str());
  return 0;
}

// compare's cost rows (report/cost.hpp): the totals when both are complete, else what is
// priced; and what the change costs per extra IOPS, which is exact whenever both sides lack
// the same prices (the unpriced parts are then the same on both sides and cancel).
template <class Row>
void compare_cost(const RunResult& ra, const RunResult& rb, const Row& row) {
  const ClusterCost &ca = ra.cost, &cb = rb.cost;
  if (!ca.shown && !cb.shown) return;
  const bool complete = ca.complete() && cb.complete();
  row(complete ? "cost ($)" : "cost priced so far ($)", ca.priced_usd, cb.priced_usd);
  if (complete) {
    row("cost per IOPS ($)", ca.per_iops(ra.result.iops), cb.per_iops(rb.result.iops));
    row("cost per usable TB ($)", ca.per_usable_tb(ra.capacity), cb.per_usable_tb(rb.capacity));
  }
  for (const auto& [side, c] : {std::pair<const char*, const ClusterCost*>{"A", &ca}, {"B", &cb}})
    if (!c->complete()) {
      std::string missing;
      for (const std::string& m : c->missing) missing += (missing.empty() ? "" : ", ") + m;
      std::printf("%-26s %s has no price for: %s\n", "", side, missing.c_str());
    }
  const double extra = rb.result.iops - ra.result.iops;
  if (ca.missing == cb.missing && extra != 0)
    std::printf("%-26s B - A costs $%.3f per extra IOPS%s\n", "", (cb.priced_usd - ca.priced_usd) / extra,
                complete ? "" : " (the unpriced parts are the same on both sides)");
}

int cmd_compare(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() != 2) usage_error("compare takes two scenario files");
  std::set<std::string> said;
  const Scenario sa = load(a.files[0], a.sets, cat, &said), sb = load(a.files[1], a.sets, cat, &said);
  if (a.range) {
    // Both sides on the same N seeds and moved parameters, and B - A paired by seed.
    if (a.csv) usage_error("compare --range prints text or --json, not --csv");
    if (sa.seed != sb.seed)
      usage_error("compare --range pairs the two sides seed by seed, but A starts at seed " + std::to_string(sa.seed) +
                  " and B at seed " + std::to_string(sb.seed) + "; give both the same (--set seed=N)");
    const Ranged ra = run_range(sa, range_reader(a.files[0], a.sets, &said), cat, range_options(a));
    const Ranged rb = run_range(sb, range_reader(a.files[1], a.sets, &said), cat, range_options(a));
    const Ranged d = range_difference(ra, rb, cat.calibration());
    if (a.json) {
      std::string ja = ranged_report_json(sa, ra), jb = ranged_report_json(sb, rb);
      ja.pop_back();   // their newlines
      jb.pop_back();
      std::printf("{\"a\": %s, \"b\": %s, \"b_minus_a\": %s}\n", ja.c_str(), jb.c_str(), to_json(d).c_str());
    } else {
      std::fputs(format_compared(sa.name, sb.name, ra, rb, d).c_str(), stdout);
    }
    return 0;
  }
  if (a.replications > 1) {
    // Both sides on seeds 1..N: the what-if's delta against placement and run-to-run noise.
    if (a.json || a.csv) usage_error("compare --replications prints text only");
    const Replicated ra = replicate(sa, a.replications, Vary::placement, a.jobs);
    const Replicated rb = replicate(sb, a.replications, Vary::placement, a.jobs);
    std::printf("A: %s\nB: %s\nover seeds 1-%d (placement and every random stream vary):\n\n", sa.name.c_str(),
                sb.name.c_str(), a.replications);
    std::printf("IOPS A              %s\n", replicated_line(ra.iops, ra.mean_iops, "%.0f").c_str());
    std::printf("IOPS B              %s\n", replicated_line(rb.iops, rb.mean_iops, "%.0f").c_str());
    std::printf("mean latency A (ms) %s\n", replicated_line(ra.latency_ms, ra.mean_latency_ms, "%.3f").c_str());
    std::printf("mean latency B (ms) %s\n", replicated_line(rb.latency_ms, rb.mean_latency_ms, "%.3f").c_str());
    const double delta = rb.mean_iops.mean - ra.mean_iops.mean;
    const double both = std::hypot(ra.mean_iops.half_width, rb.mean_iops.half_width);
    std::printf("\nthe IOPS change (%+.0f, %+.1f %%) is %s the two means' combined half-width (+-%.0f)\n", delta,
                100 * delta / ra.mean_iops.mean, std::fabs(delta) > both ? "beyond" : "WITHIN", both);
    return 0;
  }
  RunResult ra, rb;
  parallel_for(2, 2, [&](std::size_t side) {
    try {
      (side == 0 ? ra : rb) = simulate(side == 0 ? sa : sb);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(a.files[side] + ": " + e.what());
    }
  });
  if (a.json) {
    std::printf("{\"a\": %s, \"b\": %s}\n", to_json(ra).c_str(), to_json(rb).c_str());
    return 0;
  }
  if (a.csv) {
    std::printf("side,%s\na,%s\nb,%s\n", csv_header().c_str(), csv_row(ra).c_str(), csv_row(rb).c_str());
    return 0;
  }
  std::printf("A: %s\nB: %s\n\n%-26s %14s %14s %14s %9s\n", sa.name.c_str(), sb.name.c_str(), "metric", "A", "B", "B - A",
              "change");
  auto row = [](const char* name, double x, double y) {
    // A change relative to zero has no percentage: "n/a" (0 -> 0 is no change).
    if (x == 0 && y != 0) {
      std::printf("%-26s %14.2f %14.2f %+14.2f %9s\n", name, x, y, y - x, "n/a");
      return;
    }
    const double pct = x != 0 ? 100.0 * (y - x) / std::fabs(x) : 0.0;
    std::printf("%-26s %14.2f %14.2f %+14.2f %+8.1f%%\n", name, x, y, y - x, pct);
  };
  row("IOPS", ra.result.iops, rb.result.iops);
  row("throughput (MB/s)", ra.result.throughput_mbps, rb.result.throughput_mbps);
  row("read latency (ms)", ra.result.read_latency_ms, rb.result.read_latency_ms);
  row("write latency (ms)", ra.result.write_latency_ms, rb.result.write_latency_ms);
  row("read p95 (ms)", ra.result.read_p95_ms, rb.result.read_p95_ms);
  row("write p95 (ms)", ra.result.write_p95_ms, rb.result.write_p95_ms);
  row("usable capacity (GB)", ra.capacity.usable_gb, rb.capacity.usable_gb);
  // Workload groups that both sides run, by name: what one group gains or loses (e.g. OLTP
  // beside a backup stream against OLTP alone).
  for (const GroupResult& ga : ra.groups)
    for (const GroupResult& gb : rb.groups) {
      if (ga.name != gb.name) continue;
      const std::string g = "group " + ga.name + " ";
      row((g + "IOPS").c_str(), ga.result.iops, gb.result.iops);
      row((g + "read lat (ms)").c_str(), ga.result.read_latency_ms, gb.result.read_latency_ms);
      row((g + "write lat (ms)").c_str(), ga.result.write_latency_ms, gb.result.write_latency_ms);
    }
  compare_cost(ra, rb, row);
  // Run-to-run noise: each side's 95 % half-width, and whether the IOPS change is beyond the
  // two combined (independent runs: the half-widths add in quadrature).
  const ConfidenceInterval &ia = ra.result.iops_ci, &ib = rb.result.iops_ci;
  const double both = std::hypot(ia.half_width, ib.half_width);
  std::printf("\n95 %% intervals (batch means): IOPS A +-%.2f %%, B +-%.2f %%; mean latency A +-%.2f %%, B +-%.2f %%\n",
              100 * ia.relative(), 100 * ib.relative(), 100 * ra.result.latency_ci_ms.relative(),
              100 * rb.result.latency_ci_ms.relative());
  if (std::isfinite(both))
    std::printf("the IOPS change (%+.0f) is %s their combined half-width (+-%.0f)\n", rb.result.iops - ra.result.iops,
                std::fabs(rb.result.iops - ra.result.iops) > both ? "beyond" : "WITHIN", both);
  std::printf("\nbottleneck A: %s\nbottleneck B: %s\n", ra.bottleneck.c_str(), rb.bottleneck.c_str());
  // Two runs limited by their hosts' CPUs cannot show what a storage or network change buys;
  // a planner should be told so next to the numbers.
  const auto cpu_bound = [](const RunResult& r) { return r.bottleneck.rfind("cpu", 0) == 0; };
  if (cpu_bound(ra) && cpu_bound(rb))
    std::printf("note: both runs are CPU-bound: a different cache or capacity device, disk-group layout or\n"
                "      network shows only once the hosts' CPUs are no longer the limit\n");
  return 0;
}

// Options of the runs `accuracy` and `calibrate` make: the scenarios of data/measurements.csv,
// `first` overrides and then the user's --set ones (later ones win), --jobs and --seeds.
AccuracyOptions measurement_runs(const Args& a, const std::vector<std::string>& first = {}) {
  AccuracyOptions o;
  o.repo_dir = default_data_dir() + "/..";
  o.overrides = first;
  o.overrides.insert(o.overrides.end(), a.sets.begin(), a.sets.end());
  o.jobs = a.jobs;
  o.only_seeds = a.seeds;
  return o;
}

int cmd_accuracy(const Args& a, const HardwareCatalog& cat) {
  if (!a.files.empty()) usage_error("accuracy takes no file (it reads data/measurements.csv)");
  const auto measurements = load_measurements(default_data_dir() + "/measurements.csv");
  AccuracyOptions o = measurement_runs(a);
  o.replications = a.replications;
  Progress p(!a.quiet);
  const AccuracyReport report = evaluate(measurements, cat, o, p.fraction_fn());
  p.done();
  std::fputs(format_accuracy(report, a.all).c_str(), stdout);
  std::printf("\n%s", cat.calibration().format_table().c_str());
  if (a.cv) {
    FitOptions f;
    f.loss = a.loss;
    f.accuracy = measurement_runs(a, kFitRunOverrides);
    if (a.seeds.empty()) f.accuracy.only_seeds = kInSampleSeeds;   // seeds 001 and 002 stay out of sample
    const AccuracyReport cv = cross_validate(measurements, cat, f, a.sets, [&](const std::string& line) {
      if (!a.quiet) std::fprintf(stderr, "%s\n", line.c_str());
    });
    std::printf("\nleave-one-seed-out (each seed predicted by a calibration fitted on the others):\n%s",
                format_accuracy(cv, a.all).c_str());
  }
  return 0;
}

int cmd_calibrate(const Args& a, const HardwareCatalog& cat) {
  if (!a.files.empty()) usage_error("calibrate takes no file (it reads data/measurements.csv)");
  const std::string data = default_data_dir();
  const auto measurements = load_measurements(data + "/measurements.csv");
  FitOptions o;
  if (!a.params.empty()) o.parameters = a.params;
  o.max_iterations = a.iterations;
  o.loss = a.loss;
  o.accuracy = measurement_runs(a, kFitRunOverrides);
  // --replications N fits the mean over placement seeds 1..N, the prediction `accuracy
  // --replications N` scores (one placement can put a run on or off a congestion cliff).
  o.accuracy.replications = a.replications;
  // Seeds 001 (the only ESA cluster) and 002 (the only USB bridge) each alone inform one
  // parameter, which is set from its source instead; they stay out of sample.
  if (a.seeds.empty()) o.accuracy.only_seeds = kInSampleSeeds;
  const FitResult f = fit(measurements, cat, o, [&](const std::string& line) {
    if (!a.quiet) std::fprintf(stderr, "%s\n", line.c_str());
  });
  std::printf("before:\n%s\nafter:\n%s\n", format_accuracy(f.before, false).c_str(), format_accuracy(f.after, false).c_str());
  std::printf("fitted %d rows with %zu parameters: rms log error %.4f -> %.4f (%d iterations, %d runs of all scenarios)\n\n",
              f.rows, o.parameters.size(), f.rms_before, f.rms_after, f.iterations, f.evaluations);
  std::printf("%-24s %12s %12s %12s %21s\n", "parameter", "default", "fitted", "stderr", "range");
  Calibration out = f.calibration;
  for (auto& p : out.parameters()) {
    const bool fitted = std::find(o.parameters.begin(), o.parameters.end(), p.name) != o.parameters.end();
    std::printf("%-24s %12.5g %12.5g %12.5g %10.4g..%-10.4g%s\n", p.name.c_str(), p.default_value, p.fitted,
                p.stderr_value, p.min, p.max,
                fitted && p.at_bound() ? "  AT ITS BOUND: a mechanism the data need is missing" : "");
    for (const auto& name : o.parameters)
      if (name == p.name) {
        // The command that made the fit, so the file says how to repeat it.
        std::string command = "hcisim calibrate";
        if (a.loss == FitLoss::huber) command += " --loss huber";
        if (a.replications != 1) command += " --replications " + std::to_string(a.replications);
        for (const auto& s : a.sets) command += " --set " + s;
        std::string seeds;
        for (const auto& s : a.seeds.empty() ? kInSampleSeeds : a.seeds) seeds += (seeds.empty() ? "" : ", ") + s;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%d rows of seeds ", f.rows);
        char err[64];
        std::snprintf(err, sizeof err, "; rms log error %.3f -> %.3f", f.rms_before, f.rms_after);
        p.provenance = "fitted by " + command + " on " + buf + seeds + " (data/measurements.csv)" + err;
      }
  }
  const std::string path = a.out_given ? a.out : data + "/calibration.yaml";
  write_file(path, out.to_yaml(), "--out");
  std::printf("\nwrote %s\n", path.c_str());
  return 0;
}

}  // namespace

namespace {

// The catalogs' names, each with the figures a planner picks by.
int cmd_catalog(const Args& a, const HardwareCatalog& cat) {
  static const char* const kinds[] = {"devices", "cpus", "nics", "switches", "connections"};
  std::vector<std::string> which = a.files;
  if (which.empty()) which.assign(std::begin(kinds), std::end(kinds));
  for (const std::string& k : which)
    if (std::find(std::begin(kinds), std::end(kinds), k) == std::end(kinds))
      usage_error(a.command + ": '" + k + "' is not a catalog; expected devices, cpus, nics, switches or connections");
  for (const std::string& k : which) {
    std::printf("%s (%s/%s.csv):\n", k.c_str(), default_data_dir().c_str(), k.c_str());
    if (k == "devices")
      for (const DeviceSpec& d : cat.devices())
        std::printf("  %-28s %6.0f GB  %8.0f / %7.0f IOPS 4K read / write  %5.0f / %5.0f MB/s\n", d.name.c_str(),
                    d.capacity_gb, d.read_iops_4k, d.write_iops_4k, d.seq_read_mbps, d.seq_write_mbps);
    if (k == "cpus")
      for (const CpuSpec& c : cat.cpus())
        std::printf("  %-28s %3d cores x %d threads, %.1f GHz\n", c.name.c_str(), c.cores_per_socket, c.threads_per_core,
                    c.ghz);
    if (k == "nics")
      for (const NicSpec& n : cat.nics()) {
        char moderation[64] = "no receive interrupt moderation";
        if (n.rx_interrupt_us > 0)
          std::snprintf(moderation, sizeof moderation, "receive interrupts %g us apart", n.rx_interrupt_us);
        std::printf("  %-34s %d x %g Gb/s, %g us per side, %s%s\n", n.name.c_str(), n.ports, n.speed_gbps, n.latency_us,
                    moderation, n.rdma ? ", RDMA" : "");
      }
    if (k == "switches")
      for (const SwitchSpec& s : cat.switches())
        std::printf("  %-28s %3d x %g Gb/s, %.2f us\n", s.name.c_str(), s.ports, s.port_speed_gbps, s.latency_us);
    if (k == "connections")
      for (const ConnectionSpec& c : cat.connections())
        std::printf("  %-28s +%.0f us%s\n", c.name.c_str(), c.added_latency_us,
                    c.max_mbps > 0 ? (", at most " + std::to_string(static_cast<int>(c.max_mbps)) + " MB/s").c_str() : "");
  }
  return 0;
}

int dispatch(const Args& a) {
  if (a.command == "help") {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (a.command == "version") {
    std::string data;
    try {
      data = default_data_dir();
    } catch (const InvalidArgument& e) {
      data = std::string("not found (") + e.what() + ")";
    }
    std::printf("hcisim %s\ndata: %s\n", kVersion, data.c_str());
    return 0;
  }
  HardwareCatalog cat = HardwareCatalog::load();
  if (!a.prices.empty()) cat.add_prices(load_price_file(a.prices, cat));
  if (a.command == "catalog" || a.command == "list") return cmd_catalog(a, cat);
  if (a.command == "validate") return cmd_validate(a, cat);
  if (a.command == "capacity") return cmd_capacity(a, cat);
  if (a.command == "knee") return cmd_knee(a, cat);
  if (a.command == "size") return cmd_size(a, cat);
  if (a.command == "curve") return cmd_curve(a, cat);
  if (a.command == "sweep") return cmd_sweep(a, cat);
  if (a.command == "compare") return cmd_compare(a, cat);
  if (a.command == "accuracy") return cmd_accuracy(a, cat);
  if (a.command == "calibrate") return cmd_calibrate(a, cat);
  return cmd_run(a, cat);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const int rc = dispatch(parse_args(argc, argv));
    // A result that did not reach stdout (a full disk, a closed pipe or descriptor) is not a
    // success (fuzz review D16).
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "hcisim: cannot write the output to stdout: %s\n", std::strerror(errno));
      return 1;
    }
    return rc;
  } catch (const InvalidArgument& e) {
    std::fprintf(stderr, "hcisim: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hcisim: internal error: %s\n", e.what());
    return 1;
  }
}
