// hcisim --help and the argument parser (cli.hpp).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli.hpp"

namespace hcisim::cli {

constexpr const char* kHelp = R"(hcisim - predict the IOPS and latency of a vSAN cluster

usage:
  hcisim [run] [FILE] [--json | --csv] [--replications N] [--range] [--sensitivity [--out FILE.svg]]
               [--set KEY=VALUE]...
      run a scenario (the built-in default, seed 000's cluster, when FILE is omitted)
      and print HCIBench's result block (DiskSpd's tables for DiskSpd workloads);
      --replications N runs seeds 1..N and prints the mean with its 95 % interval;
      --range gives each headline answer a 95 % range for one cluster: N seeds from the
      scenario's own (seeds S..S+N-1; N = 5 unless --replications N) and the calibration's
      standard errors propagated
      --sensitivity re-runs it with each assumption (calibration parameters, keys the file
      leaves at an assumed default, the file's assumed: block) at the low and the high end of
      its range, one at a time on the same seed, and prints a tornado sorted by the IOPS swing,
      the worst pair of the top three and what it does not cover (with --range: the range
      widened by the assumptions, as knee --range --sensitivity);
      --out FILE.svg also draws the tornado as an SVG chart (as knee and compare --sensitivity)
  hcisim sweep FILE... --vary KEY=V1,V2,... [--vary ...] [--out PREFIX] [--jobs N] [--replications N]
               [--range | --sensitivity] [--set KEY=VALUE]...
      run one point per value (one curve per file), in parallel; write PREFIX.csv and
      PREFIX.svg (IOPS vs latency, default PREFIX "sweep") and print the CSV; several
      --vary options make a grid (every combination, one curve along the last);
      --replications N runs every point on seeds 1..N (a seed column in the CSV) and
      prints each point's mean with the lowest and highest run; --range gives every point's
      headline answers with their ranges (as run --range) instead; --sensitivity runs each
      point's sensitivity (as run --sensitivity) and writes its top assumption as CSV columns
  hcisim catalog [devices | cpus | nics | switches | connections]...   (or: hcisim list)
      the catalogs' names, with the figures to choose by
  hcisim keys [PREFIX] [--json | --csv]
      every key of scenario, requirements and price files (or those whose path starts
      with PREFIX, e.g. cluster.host.network): type, unit, default, range, what it sets,
      and the range a value that stands in for unstated hardware could take
  hcisim --version
      the version and the data folder in use
  hcisim compare A B [--json | --csv] [--replications N] [--range | --sensitivity [--out FILE.svg]]
                 [--set KEY=VALUE]...
      run two scenarios and print their results side by side with deltas, each at its
      file's own load (said in the output); --range: each side's headline answers and
      B - A (paired by seed) with ranges, as run --range; --sensitivity: the tornado of
      B - A's IOPS, each assumption applied to both files (where the file does not state it)
  hcisim compare A B (--mean-ms X | --p95-ms X | --p99-ms X) [--json] [--jobs N] [--set KEY=VALUE]...
      each side's knee under the one target (as knee), the deltas and the cost per extra
      IOPS taken at the knees
  hcisim capacity [FILE] [--json] [--set KEY=VALUE]...
      the capacity line at once, without simulating: raw, reserve (cluster.capacity_reserve:
      slack, vSAN 7.0's 30 % or largest host; reserved, 7 U1+ and ESA's operations + host
      rebuild reserve), policy, data reduction (data_services.reduction_ratio: a planner's
      ratio), usable; and usable under the other rule. Failed hosts' devices are left out
  hcisim knee [FILE] (--mean-ms X | --p95-ms X | --p99-ms X) [--json] [--jobs N]
              [--range] [--sensitivity [--out FILE.svg]] [--set KEY=VALUE]...
      the highest IOPS whose mean, p95 or p99 latency (all I/Os) stays at or under X ms:
      offered load (an open loop with the workload's outstanding I/O as its cap) is bisected
      to 1 %, two probes a round whatever --jobs (which runs them at once); a closed loop
      whose window is short for its outstanding I/O is lengthened up to 8 times, else the
      knee is not found and says so; prints the knee, its bottleneck and the probes;
      before its search it says on stderr about how long it will take (and, when over a
      minute, how to shorten the probes); --range: the knee on N seeds with its range;
      --sensitivity: the knee's tornado (each assumption at both ends, as run --sensitivity);
      both: the range widened by the assumptions
  hcisim size REQUIREMENTS [--json] [--jobs N] [--prices FILE] [--range [--replications N]] [--no-prune] [--sensitivity]
      inverse sizing: the cheapest designs of the file's candidates (host models, networks,
      policies, host counts) that meet its demand (IOPS at a latency target, usable TB,
      growth, hosts down), each simulated at the demand, and why every cheaper one fails;
      the analytic path (as curve) fails a design whose ceiling is far short of the demand
      without its run (--no-prune: simulate every one); --range adds each answer's range
      at the demand and of its knee, as run --range; --sensitivity: the tornado of the
      cheapest design's latency margin at the demand (that design only)
  hcisim curve [FILE] [--mean-ms X] [--check | --range | --sensitivity] [--json] [--jobs N] [--set KEY=VALUE]...
      the analytic fast path: the IOPS-latency curve by mean-value analysis over the
      simulator's own resources (demands from one pilot run at 1 outstanding I/O per VMDK),
      at 20 points from 1 to twice the configured outstanding I/O per VMDK; --mean-ms X adds
      the knee under X ms; --check simulates every point (and the knee) beside it; --range
      gives every point and the knee a range over N pilots, as run --range; --sensitivity
      (with --mean-ms X): the tornado of the analytic knee, one pilot per end
  hcisim validate FILE [--set KEY=VALUE]...
      check a scenario file without running it
  hcisim accuracy [--all] [--cv [--loss ...] [--starts N]] [--seeds 000,003] [--replications N]
                  [--set KEY=VALUE]... [--jobs N] [--write [--out FILE]] | --check | --markdown
      run every scenario of data/measurements.csv with data/calibration.yaml and print
      measured vs predicted with errors (--all also lists rows not predicted, and why);
      --cv adds leave-one-seed-out cross-validation (one fit per seed, on 1 s runs; every
      held-out row, then the summary);
      --replications N (2..100) predicts each row as the mean over scenario seeds 1..N and
      adds the lowest and highest prediction (placement and every random choice vary);
      1, the default, runs each scenario with its own seed; the table by class (architecture,
      answer type, in/out of sample, leave-one-seed-out) comes first; --write also writes it,
      row by row with each row's features, to data/accuracy.csv (the committed table that
      run, knee, compare and size read for their "nearest measured" line) with a hash of its
      inputs and the model's fingerprint; --check compares both with the inputs and the model
      now (the fingerprint runs every scenario for 20 ms) and fails (exit 1) when the table is
      stale; --markdown prints the committed table's classes
  hcisim calibrate [--params P1,P2,...] [--iterations N] [--loss least-squares|huber] [--starts N]
                   [--out FILE] [--seeds ...] [--replications N] [--set ...]
      fit the calibration parameters to data/measurements.csv (Levenberg-Marquardt on log
      errors, 1 s runs unless --set says otherwise), print before/after and write FILE
      (default data/calibration.yaml); --loss huber counts large errors linearly (rows the
      model cannot represent pull less); --starts N (1..20) also starts from N - 1 points
      spread over the ranges (a Latin hypercube) and goes on from the one whose first pass
      ends lowest (each start costs about one pass); accuracy --cv takes --loss and --starts;
      --replications N fits the mean over placement seeds 1..N, as accuracy --replications
      N scores it
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

const char* help_text() { return kHelp; }

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

namespace {

// The arguments after the command, one at a time, with the values of options that take one.
class ArgCursor {
 public:
  ArgCursor(int argc, char** argv, int first) : argc_(argc), argv_(argv), i_(first) {}
  bool done() const { return i_ >= argc_; }
  std::string current() const { return argv_[i_]; }
  void next() { ++i_; }
  // The value after `flag`.
  std::string value(const char* flag) {
    if (i_ + 1 >= argc_) usage_error(std::string(flag) + " needs a value");
    return argv_[++i_];
  }
  // The value after `flag`, a whole number in lo..hi.
  int int_value(const char* flag, long lo, long hi) {
    const std::string v = value(flag);
    char* end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    if (end == v.c_str() || *end || n < lo || n > hi)
      usage_error(std::string(flag) + " = '" + v + "' is not allowed; expected " + std::to_string(lo) + ".." +
                  std::to_string(hi));
    return static_cast<int>(n);
  }

 private:
  int argc_;
  char** argv_;
  int i_;
};

// The first word, when it names a command; returns where the options start.
int read_command(int argc, char** argv, Args& a) {
  int i = 1;
  if (i < argc && (std::strcmp(argv[i], "run") == 0 || std::strcmp(argv[i], "sweep") == 0 ||
                   std::strcmp(argv[i], "compare") == 0 || std::strcmp(argv[i], "validate") == 0 ||
                   std::strcmp(argv[i], "capacity") == 0 || std::strcmp(argv[i], "knee") == 0 ||
                   std::strcmp(argv[i], "size") == 0 || std::strcmp(argv[i], "curve") == 0 ||
                   std::strcmp(argv[i], "accuracy") == 0 || std::strcmp(argv[i], "calibrate") == 0 ||
                   std::strcmp(argv[i], "catalog") == 0 || std::strcmp(argv[i], "list") == 0 ||
                   std::strcmp(argv[i], "keys") == 0 ||
                   std::strcmp(argv[i], "help") == 0))
    a.command = argv[i++];
  return i;
}

// An option without a value: true if `arg` is one (and is set).
bool read_switch(const std::string& arg, Args& a) {
  if (arg == "--help" || arg == "-h") a.command = "help";
  else if (arg == "--version") a.command = "version";
  else if (arg == "--json") a.json = true;
  else if (arg == "--csv") a.csv = true;
  else if (arg == "--quiet") a.quiet = true;
  else if (arg == "--all") a.all = true;
  else if (arg == "--cv") a.cv = true;
  else if (arg == "--check") a.check = true;
  else if (arg == "--write") a.write = true;
  else if (arg == "--markdown") a.markdown = true;
  else if (arg == "--range") a.range = true;
  else if (arg == "--sensitivity") a.sensitivity = true;
  else if (arg == "--no-prune") a.no_prune = true;
  else return false;
  return true;
}

// --mean-ms, --p95-ms or --p99-ms: the knee's latency target.
void read_latency_target(const std::string& arg, ArgCursor& at, Args& a) {
  const std::string v = at.value(arg.c_str());
  char* end = nullptr;
  const double ms = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end || v.find_first_of("xX") != std::string::npos || !std::isfinite(ms) || !(ms > 0) || ms > 1e6)
    usage_error(arg + " = '" + v + "' is not allowed; expected a latency in ms, > 0 and at most 1e6");
  a.knee.stat = arg == "--mean-ms" ? LatencyStat::mean : arg == "--p95-ms" ? LatencyStat::p95 : LatencyStat::p99;
  a.knee.limit_ms = ms;
  ++a.knee_targets;
}

// An option with a value, or a file name; anything else starting with '-' is an error.
void read_option(const std::string& arg, ArgCursor& at, Args& a) {
  if (arg == "--seeds") {
    a.seeds = split_list(at.value("--seeds"));
    if (a.seeds.empty()) usage_error("--seeds lists no seed; expected e.g. --seeds 000,003");
  } else if (arg == "--set") {
    a.sets.push_back(at.value("--set"));
  } else if (arg == "--prices") {
    if (!a.prices.empty()) usage_error("--prices is given twice; give one price file");
    a.prices = at.value("--prices");
    if (a.prices.empty()) usage_error("--prices is empty; expected a price file");
  } else if (arg == "--vary") {
    a.vary.push_back(at.value("--vary"));
  } else if (arg == "--out") {
    a.out = at.value("--out");
    a.out_given = true;
    if (a.out.empty()) usage_error("--out is empty; expected a file name (or, for sweep, a prefix)");
  } else if (arg == "--params") {
    a.params = split_list(at.value("--params"));
    if (a.params.empty()) usage_error("--params lists no parameter");
  } else if (arg == "--iterations") {
    a.iterations = at.int_value("--iterations", 0, 100);
    a.iterations_given = true;
  } else if (arg == "--starts") {
    a.starts = at.int_value("--starts", 1, 20);
    a.starts_given = true;
  } else if (arg == "--loss") {
    const std::string v = at.value("--loss");
    if (v == "huber") a.loss = FitLoss::huber;
    else if (v == "least-squares") a.loss = FitLoss::least_squares;
    else usage_error("--loss = '" + v + "' is not allowed; expected huber or least-squares");
  } else if (arg == "--mean-ms" || arg == "--p95-ms" || arg == "--p99-ms") {
    read_latency_target(arg, at, a);
  } else if (arg == "--replications") {
    a.replications = at.int_value("--replications", 1, 100);
    a.replications_given = true;
  } else if (arg == "--jobs") {
    a.jobs = at.int_value("--jobs", 1, 256);
  } else if (!arg.empty() && arg[0] == '-') {
    usage_error("unknown option '" + arg +
                "'; allowed: --set, --json, --csv, --quiet, --vary, --out, --jobs, --all, --cv, --seeds, --params, "
                "--iterations, --loss, --starts, --replications, --mean-ms, --p95-ms, --p99-ms, --prices, --check, --write, --markdown, "
                "--range, --sensitivity, --no-prune, --help");
  } else {
    a.files.push_back(arg);
  }
}

// --out with --sensitivity: run, knee and compare draw the tornado to FILE.svg; sweep keeps
// its prefix; curve and size have no chart.
void check_tornado_out(const Args& a) {
  if (!a.sensitivity || !a.out_given || a.command == "sweep") return;
  if (a.command != "run" && a.command != "knee" && a.command != "compare")
    usage_error("--out with --sensitivity draws the tornado of run, knee and compare (FILE.svg); " + a.command +
                " --sensitivity prints its tornado as text or --json only: drop --out");
  if (a.out.size() < 5 || a.out.compare(a.out.size() - 4, 4, ".svg") != 0)
    usage_error("--out '" + a.out + "': " + a.command +
                " --sensitivity writes its tornado as an SVG chart; give a file name ending in .svg");
}

// Options that contradict each other, and a first word that is neither a command nor a file.
void check_combinations(const Args& a, bool command_given) {
  if (a.json && a.csv) usage_error("--json and --csv cannot both be given");
  if (a.command == "accuracy" && (a.check + a.write + a.markdown) > 1)
    usage_error("accuracy takes one of --check, --write and --markdown");
  if (a.starts > 1 && a.iterations_given && a.iterations == 0)
    usage_error("--starts " + std::to_string(a.starts) + " with --iterations 0: no start would take a step; give one of them");
  if (a.range && !a.prices.empty() && a.command != "size")   // size's answers keep their cost
    usage_error("--range and --prices: a range carries no cost (the parts do not vary with the seed); run without "
                "--range for the cost");
  if (a.sensitivity && a.range && a.command != "run" && a.command != "knee")
    usage_error("--sensitivity and --range together: run and knee only (the range with the tornado beside it); "
                "for " + a.command + " give one");
  if (a.sensitivity && a.range && a.csv) usage_error("--range --sensitivity prints text or --json, not --csv");
  if (a.sensitivity && a.replications_given && !a.range)
    usage_error("--sensitivity and --replications: the sensitivity runs the scenario's own seed (common random "
                "numbers) and sets its own noise runs; drop --replications");
  if (a.sensitivity && a.csv && a.command != "sweep")
    usage_error("--sensitivity prints text or --json (sweep: CSV columns), not --csv");
  check_tornado_out(a);
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
    usage_error("unknown command '" + a.files[0] + "'; commands: run, sweep, compare, validate, capacity, knee, curve, size, accuracy, calibrate, catalog, keys");
}

// Options the command does not use are errors, not silently ignored.
void check_options_fit_command(const Args& a) {
  struct Use {
    bool given;
    const char* option;
    std::initializer_list<const char*> commands;
  };
  const Use uses[] = {
      {!a.vary.empty(), "--vary", {"sweep"}},
      {a.out_given && !(a.command == "accuracy" && a.write) &&
           !(a.sensitivity && (a.command == "run" || a.command == "knee" || a.command == "compare")),
       "--out", {"sweep", "calibrate", "accuracy --write", "run --sensitivity", "knee --sensitivity", "compare --sensitivity"}},
      {a.jobs > 0, "--jobs", {"sweep", "accuracy", "calibrate", "run", "compare", "knee", "size", "curve"}},
      {a.check, "--check", {"curve", "accuracy"}},
      {a.write, "--write", {"accuracy"}},
      {a.markdown, "--markdown", {"accuracy"}},
      {a.no_prune, "--no-prune", {"size"}},
      {a.range, "--range", {"run", "knee", "sweep", "compare", "curve", "size"}},
      {a.sensitivity, "--sensitivity", {"run", "knee", "sweep", "compare", "curve", "size"}},
      {a.all, "--all", {"accuracy"}},
      {a.cv, "--cv", {"accuracy"}},
      {!a.seeds.empty(), "--seeds", {"accuracy", "calibrate"}},
      {!a.params.empty(), "--params", {"calibrate"}},
      {a.iterations_given, "--iterations", {"calibrate"}},
      {a.loss != FitLoss::least_squares && !(a.command == "accuracy" && a.cv), "--loss", {"calibrate", "accuracy --cv"}},
      {a.starts_given && !(a.command == "accuracy" && a.cv), "--starts", {"calibrate", "accuracy --cv"}},
      {a.replications != 1 && !(a.range && (a.command == "knee" || a.command == "curve" || a.command == "size")),
       "--replications", {"accuracy", "calibrate", "run", "compare", "sweep", "knee --range", "curve --range", "size --range"}},
      {a.json || a.csv, "--json/--csv", {"run", "compare", "capacity", "knee", "size", "curve", "keys"}},
      {!a.sets.empty(), "--set", {"run", "sweep", "compare", "validate", "capacity", "knee", "accuracy", "calibrate", "curve"}},
      {a.knee_targets > 0, "--mean-ms/--p95-ms/--p99-ms", {"knee", "curve", "compare"}},
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
}

}  // namespace

Args parse_args(int argc, char** argv) {
  Args a;
  const int first = read_command(argc, argv, a);
  const bool command_given = first > 1;
  for (ArgCursor at(argc, argv, first); !at.done(); at.next()) {
    const std::string arg = at.current();
    if (!read_switch(arg, a)) read_option(arg, at, a);
  }
  check_combinations(a, command_given);
  check_options_fit_command(a);
  return a;
}

}  // namespace hcisim::cli
