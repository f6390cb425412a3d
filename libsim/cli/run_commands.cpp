// hcisim run, validate, capacity, knee, curve and size (cli.hpp).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <set>
#include <string>

#include "hcisim/plan/analytic.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "cli.hpp"

namespace hcisim::cli {

namespace {

// knee's wall time on stderr before its search (terminal or not) when it is worth saying, as
// run's: the closed loop runs first and alone, so once it has run a second of wall time (or
// ended) its rate gives the estimate (knee_time_estimate, empty for a short search).
class KneeEstimate {
 public:
  KneeEstimate(const Scenario& s, int jobs) : scenario_(s), jobs_(jobs) {}
  ProgressFn fn() {
    return [this](const RunProgress& p) {
      if (said_.load() || (p.wall_s < 1.0 && p.fraction < 1.0) || said_.exchange(true)) return;
      std::fputs(knee_time_estimate(scenario_, p.estimated_wall_s(), p.planned_s, jobs_).c_str(), stderr);
    };
  }

 private:
  const Scenario& scenario_;
  int jobs_;
  std::atomic<bool> said_{false};
};

void print_run(const Args& a, const Scenario& s, const RunResult& r) {
  const std::string out = a.json  ? to_json(r)
                          : a.csv ? csv_header() + "\n" + csv_row(r) + "\n"
                          : r.workload.tool == WorkloadTool::diskspd ? format_diskspd(r)
                                                                     : format_hcibench(r);
  print_answer(a, out, question_features(s, r.bottleneck));
}

// run --replications N: the scenario on seeds 1..N (placement and every random stream).
// A run whose window counted no I/O has a rate of 0 and no latency: the mean latency is over
// the others (null when none), and a warning says how many.
int cmd_run_replicated(const Args& a, const Scenario& s) {
  const Replicated rep = replicate(s, a.replications, Vary::placement, a.jobs);
  std::string warning;
  if (rep.idle > 0)
    warning = std::to_string(rep.idle) + " of the " + std::to_string(a.replications) +
              " runs counted no I/O (none issued in their measured window completed in it): their rates are 0 and "
              "their latencies undefined (left out of the mean latency); lengthen workload.duration_s";
  if (a.json) {
    std::string each;
    for (std::size_t i = 0; i < rep.iops.size(); ++i) each += (i ? ", " : "") + json_number(rep.iops[i]);
    const std::string json = "{\"scenario\": " + json_string(s.name) + ", \"replications\": " + std::to_string(a.replications) +
                             ", \"vary\": \"seed\", \"iops\": {\"mean\": " + json_number(rep.mean_iops.mean) +
                             ", \"half_width\": " + json_number(rep.mean_iops.half_width) +
                             "}, \"pooled_latency_ms\": {\"mean\": " + json_number(rep.mean_latency_ms.mean) +
                             ", \"half_width\": " + json_number(rep.mean_latency_ms.half_width) + "}, \"each_iops\": [" +
                             each + "], \"warnings\": [" + (warning.empty() ? "" : json_string(warning)) + "]}\n";
    print_answer(a, json, question_features(s, ""));
    return 0;
  }
  std::printf("Over seeds 1-%d (placement and every random stream vary):\n", a.replications);
  std::printf("IOPS                %s\n", replicated_line(rep.iops, rep.mean_iops, "%.0f").c_str());
  std::printf("mean latency (ms)   %s\n", replicated_line(rep.latency_ms, rep.mean_latency_ms, "%.3f").c_str());
  if (!warning.empty()) std::printf("warning: %s\n", warning.c_str());
  std::printf("\n%s\n", nearest_line(question_features(s, "")).text.c_str());
  return 0;
}

// run --range: the headline answers with their ranges (plan/answer_range.hpp).
int cmd_run_range(const Args& a, const Scenario& s, const ScenarioReader& read, const HardwareCatalog& cat) {
  const Ranged r = run_range(s, read, cat, range_options(a));
  if (a.sensitivity)
    return cmd_range_sensitivity(a, s, a.files.empty() ? "" : a.files[0], cat, r,
                                 "Scenario: " + s.name + "\nWorkload: " + describe_workloads(s) + "\n\n");
  if (!a.json) say_range_warnings(s.source, r);   // JSON: in its warnings
  const std::string out =
      a.json  ? ranged_report_json(s, r)
      : a.csv ? "scenario," + ranged_csv_header(run_range_names()) + "\n" + csv_field(s.name) + "," + ranged_csv_cells(r) + "\n"
              : "Scenario: " + s.name + "\nWorkload: " + describe_workloads(s) + "\n\n" + format_ranged(r);
  print_answer(a, out, question_features(s, ""));
  return 0;
}

}  // namespace

int cmd_run(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("run takes one scenario file");
  std::set<std::string> said;
  const std::string file = a.files.empty() ? "" : a.files[0];
  const Scenario s = load(file, a.sets, cat, &said);
  if (a.range) return cmd_run_range(a, s, range_reader(file, a.sets, &said), cat);
  if (a.sensitivity) return cmd_run_sensitivity(a, s, file, cat);
  if (a.csv && a.replications > 1) usage_error("run --replications prints text or --json, not --csv");
  if (a.replications > 1) {
    if (!a.json) std::printf("Scenario: %s\nWorkload: %s\n\n", s.name.c_str(), describe_workloads(s).c_str());
    return cmd_run_replicated(a, s);
  }
  if (!a.json && !a.csv) std::printf("Scenario: %s\nWorkload: %s\n\n", s.name.c_str(), describe_workloads(s).c_str());
  Progress p(!a.quiet);
  const RunResult r = simulate(s, p.fn());
  p.done();
  print_run(a, s, r);
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

// The capacity line of a scenario under both reserve rules, without simulating.
int cmd_capacity(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("capacity takes one scenario file (the built-in default without one)");
  if (a.csv) usage_error("capacity prints text or --json, not --csv");
  const CapacityAnswer c = capacity_answer(load(a.files.empty() ? "" : a.files[0], a.sets, cat));
  std::fputs(a.json ? to_json(c).c_str() : format_capacity(c).c_str(), stdout);
  return 0;
}

// The highest IOPS whose latency statistic stays under a target.
int cmd_knee(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("knee takes one scenario file (the built-in default without one)");
  if (a.knee_targets != 1) usage_error("knee needs exactly one target: --mean-ms X, --p95-ms X or --p99-ms X");
  if (a.csv) usage_error("knee prints text or --json, not --csv");
  std::set<std::string> said;
  const std::string file = a.files.empty() ? "" : a.files[0];
  const Scenario s = load(file, a.sets, cat, &said);
  if (a.sensitivity && !a.range) return cmd_knee_sensitivity(a, s, file, cat);
  if (a.range) {
    const Ranged r = knee_range(s, range_reader(file, a.sets, &said), cat, a.knee, range_options(a));
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", a.knee.limit_ms);
    const std::string head = "Knee of " + s.name + ": the highest IOPS with " + latency_stat_name(a.knee.stat) +
                             " latency <= " + limit + " ms (-: not found)\n\n";
    if (a.sensitivity) return cmd_range_sensitivity(a, s, file, cat, r, head);
    print_answer(a, a.json ? ranged_report_json(s, r, &a.knee) : head + format_ranged(r), question_features(s, ""));
    return 0;
  }
  KneeOptions o;
  o.jobs = a.jobs;
  KneeEstimate estimate(s, a.jobs);
  if (!a.quiet) o.run_progress = estimate.fn();
  const KneeResult k = find_knee(s, a.knee, o);
  print_answer(a, a.json ? to_json(s.name, k) : format_knee(s.name, k), question_features(s, k.bottleneck));
  return 0;
}

// The analytic fast path: the MVA curve, optionally beside the simulator's.
int cmd_curve(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() > 1) usage_error("curve takes one scenario file (the built-in default without one)");
  if (a.csv) usage_error("curve prints text or --json, not --csv");
  if (a.knee_targets > 1 || (a.knee_targets == 1 && a.knee.stat != LatencyStat::mean))
    usage_error("curve's knee is on the mean latency: give --mean-ms X (the analytic path has no percentiles)");
  std::set<std::string> said;
  const std::string file = a.files.empty() ? "" : a.files[0];
  const Scenario s = load(file, a.sets, cat, &said);
  if (a.sensitivity) return cmd_curve_sensitivity(a, s, file, cat);
  if (a.range) {
    if (a.check) usage_error("curve --range and --check: give one (--check simulates one seed's points)");
    const Ranged r = curve_range(s, range_reader(file, a.sets, &said), cat, a.knee_targets == 1 ? a.knee.limit_ms : 0,
                                 range_options(a));
    if (!a.json) say_range_warnings(s.source, r);
    print_answer(a,
                 a.json ? ranged_report_json(s, r)
                        : "Analytic curve of " + s.name + " (outstanding I/O per VMDK after @)\n\n" + format_ranged(r),
                 question_features(s, ""));
    return 0;
  }
  const CurveReport r = curve_report(s, a.check, a.knee_targets == 1 ? a.knee.limit_ms : 0, a.jobs);
  print_answer(a, a.json ? to_json(r) : format_curve(r), question_features(s, ""));
  return 0;
}

// Inverse sizing: the cheapest designs meeting a requirements file.
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
  if (a.sensitivity) return cmd_size_sensitivity(a, r, cat);
  print_answer(a, a.json ? to_json(r) : format_sizing(r), sizing_features(r));
  return 0;
}

}  // namespace hcisim::cli
