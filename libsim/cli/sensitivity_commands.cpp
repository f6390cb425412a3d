// --sensitivity on run, knee, curve, compare and size (cli.hpp; sweep's is in
// sweep_command.cpp): each command's own output, then the tornado (plan/sensitivity.hpp); in
// JSON, the command's document with a "sensitivity" block.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "hcisim/plan/analytic.hpp"
#include "hcisim/plan/compare.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/report/run_report.hpp"
#include "cli.hpp"

namespace hcisim::cli {

namespace {

// The runs of a study of `s`, for the estimate.
int planned_runs(const Scenario& s, const HardwareCatalog& cat) {
  return sensitivity_runs(scenario_assumptions(s, cat).size());
}

void print_tornado(const Sensitivity& r) { std::printf("\n%s", format_sensitivity(r).c_str()); }

// The overrides B takes of A's: those of keys B's file does not state (B's own value stands).
std::vector<std::string> unstated_by(const Scenario& b, const std::vector<std::string>& overrides) {
  std::vector<std::string> out;
  for (const std::string& o : overrides) {
    const std::string path = o.substr(0, o.find('='));
    if (!std::binary_search(b.stated_keys.begin(), b.stated_keys.end(), path)) out.push_back(o);
  }
  return out;
}

}  // namespace

int cmd_run_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat) {
  SensitivityEstimate estimate(planned_runs(s, cat), a.jobs, !a.quiet);
  RunResult base;
  const Sensitivity r = run_sensitivity(s, sensitivity_reader(file, a.sets), cat, estimate.options(a), &base);
  if (a.json) {
    std::fputs(with_sensitivity(to_json(base), r).c_str(), stdout);
    return 0;
  }
  std::printf("Scenario: %s\nWorkload: %s\n\n", s.name.c_str(), describe_workloads(s).c_str());
  std::fputs((base.workload.tool == WorkloadTool::diskspd ? format_diskspd(base) : format_hcibench(base)).c_str(), stdout);
  print_tornado(r);
  return 0;
}

int cmd_knee_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat) {
  SensitivityEstimate estimate(planned_runs(s, cat), a.jobs, !a.quiet);
  KneeResult base;
  const Sensitivity r = knee_sensitivity(s, sensitivity_reader(file, a.sets), cat, a.knee, estimate.options(a), &base);
  if (a.json) {
    std::fputs(with_sensitivity(to_json(s.name, base), r).c_str(), stdout);
    return 0;
  }
  std::fputs(format_knee(s.name, base).c_str(), stdout);
  print_tornado(r);
  return 0;
}

int cmd_curve_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat) {
  if (a.knee_targets != 1) usage_error("curve --sensitivity studies the curve's knee: give --mean-ms X");
  if (a.check) usage_error("curve --sensitivity and --check: give one (--check simulates one scenario's points)");
  SensitivityEstimate estimate(planned_runs(s, cat), a.jobs, !a.quiet);
  const Sensitivity r = curve_sensitivity(s, sensitivity_reader(file, a.sets), cat, a.knee.limit_ms, estimate.options(a));
  const CurveReport c = curve_report(s, false, a.knee.limit_ms, a.jobs);
  if (a.json) {
    std::fputs(with_sensitivity(to_json(c), r).c_str(), stdout);
    return 0;
  }
  std::fputs(format_curve(c).c_str(), stdout);
  print_tornado(r);
  return 0;
}

// compare --sensitivity: B - A's IOPS, each assumption (A's) applied to both files, B taking
// only the keys its file does not state.
int cmd_compare_sensitivity(const Args& a, const Scenario& sa, const Scenario& sb, const HardwareCatalog& cat) {
  if (a.csv) usage_error("compare --sensitivity prints text or --json, not --csv");
  const SensitivityReader read_a = sensitivity_reader(a.files[0], a.sets);
  const SensitivityReader read_b = sensitivity_reader(a.files[1], a.sets);
  std::vector<SkippedAssumption> skipped;
  const std::vector<Assumption> as = scenario_assumptions(sa, cat, &skipped);
  SensitivityEstimate estimate(2 * sensitivity_runs(as.size()), a.jobs, !a.quiet);
  Sensitivity r = sensitivity(
      as, cat, {"iops_b_minus_a", "iops_a", "iops_b"},
      [&](const HardwareCatalog& c, const std::vector<std::string>& overrides, std::uint64_t offset,
          const ProgressFn& progress) {
        Scenario ma = read_a(c, overrides), mb = read_b(c, unstated_by(sb, overrides));
        ma.replication += offset;
        mb.replication += offset;
        const RunResult ra = simulate(ma, progress), rb = simulate(mb, progress);
        return SensitivityAnswer{{rb.result.iops - ra.result.iops, ra.result.iops, rb.result.iops},
                                 "A: " + ra.bottleneck + "; B: " + rb.bottleneck};
      },
      estimate.options(a));
  r.skipped = std::move(skipped);
  const Comparison c = compare(sa, sb, a.files[0], a.files[1]);
  if (a.json) {
    std::fputs(with_sensitivity(to_json(c), r).c_str(), stdout);
    return 0;
  }
  std::fputs(format_comparison(c).c_str(), stdout);
  print_tornado(r);
  return 0;
}

// size --sensitivity: the cheapest design's margin at the demand (plan/sizing.hpp).
int cmd_size_sensitivity(const Args& a, const SizingResult& result, const HardwareCatalog& cat) {
  if (result.answers.empty()) {
    if (a.json) {
      std::fputs(with_json_block(to_json(result), "sensitivity", "null").c_str(), stdout);
    } else {
      std::fputs(format_sizing(result).c_str(), stdout);
      std::printf("\nSensitivity: no design meets the demand, so there is no margin to study.\n");
    }
    return 0;
  }
  const Design& d = result.answers.front();
  SensitivityEstimate estimate(planned_runs(d.scenario, cat), a.jobs, !a.quiet);
  const Sensitivity r = design_sensitivity(d, result.req, cat, estimate.options(a));
  if (a.json) {
    std::fputs(with_sensitivity(to_json(result), r).c_str(), stdout);
    return 0;
  }
  std::fputs(format_sizing(result).c_str(), stdout);
  std::printf("\nSensitivity of the cheapest design, %s, at the demand:\n", d.describe().c_str());
  print_tornado(r);
  return 0;
}

}  // namespace hcisim::cli
