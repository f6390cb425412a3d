// --sensitivity on run, knee, curve, compare and size (cli.hpp; sweep's is in
// sweep_command.cpp): each command's own output, then the tornado (plan/sensitivity.hpp); in
// JSON, the command's document with a "sensitivity" block.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "hcisim/model/report/text_escape.hpp"
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

std::string tornado(const Sensitivity& r) { return "\n" + format_sensitivity(r); }

}  // namespace

int cmd_run_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat) {
  SensitivityEstimate estimate(planned_runs(s, cat), a.jobs, !a.quiet);
  RunResult base;
  const Sensitivity r = run_sensitivity(s, sensitivity_reader(file, a.sets), cat, estimate.options(a), &base);
  write_tornado(a, r, s.name);
  const QuestionFeatures q = question_features(s, base.bottleneck);
  if (a.json) {
    print_answer(a, with_sensitivity(to_json(base), r), q);
    return 0;
  }
  const std::string report = base.workload.tool == WorkloadTool::diskspd ? format_diskspd(base) : format_hcibench(base);
  print_answer(a, "Scenario: " + s.name + "\nWorkload: " + describe_workloads(s) + "\n\n" + report + tornado(r), q);
  return 0;
}

int cmd_knee_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat) {
  SensitivityEstimate estimate(planned_runs(s, cat), a.jobs, !a.quiet, knee_sensitivity_probes());
  KneeResult base;
  const Sensitivity r = knee_sensitivity(s, sensitivity_reader(file, a.sets), cat, a.knee, estimate.options(a), &base);
  write_tornado(a, r, s.name);
  print_answer(a, a.json ? with_sensitivity(to_json(s.name, base), r) : format_knee(s.name, base) + tornado(r),
               question_features(s, base.bottleneck));
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
  std::fputs((format_curve(c) + tornado(r)).c_str(), stdout);
  return 0;
}

// compare --sensitivity: B - A's IOPS, each assumption (A's) applied to both files, B taking
// only the keys its file does not state.
int cmd_compare_sensitivity(const Args& a, const Scenario& sa, const Scenario& sb, const HardwareCatalog& cat) {
  if (a.csv) usage_error("compare --sensitivity prints text or --json, not --csv");
  SensitivityEstimate estimate(2 * planned_runs(sa, cat), a.jobs, !a.quiet);
  const Sensitivity r = compare_sensitivity(sa, sb, sensitivity_reader(a.files[0], a.sets),
                                            sensitivity_reader(a.files[1], a.sets), cat, estimate.options(a));
  write_tornado(a, r, "A: " + sa.name + "\nB: " + sb.name);
  const Comparison c = compare(sa, sb, a.files[0], a.files[1]);
  print_answer(a, a.json ? with_sensitivity(to_json(c), r) : format_comparison(c) + tornado(r),
               what_if_features(sa, sb, c.b.bottleneck));
  return 0;
}

// size --sensitivity: the cheapest design's margin at the demand (plan/sizing.hpp).
int cmd_size_sensitivity(const Args& a, const SizingResult& result, const HardwareCatalog& cat) {
  if (result.answers.empty()) {
    print_answer(a,
                 a.json ? with_json_block(to_json(result), "sensitivity", "null")
                        : format_sizing(result) + "\nSensitivity: no design meets the demand, so there is no margin to study.\n",
                 sizing_features(result));
    return 0;
  }
  const Design& d = result.answers.front();
  SensitivityEstimate estimate(planned_runs(design_scenario(d, result.req, cat), cat), a.jobs, !a.quiet);
  const Sensitivity r = design_sensitivity(d, result.req, cat, estimate.options(a));
  print_answer(a,
               a.json ? with_sensitivity(to_json(result), r)
                      : format_sizing(result) + "\nSensitivity of the cheapest design, " + d.describe() +
                            ", at the demand:\n" + tornado(r),
               sizing_features(result));
  return 0;
}

// run and knee --range --sensitivity: the range over seeds and the calibration, the tornado of
// the assumptions on the scenario's own seed beside it, and the headline's range with the
// assumptions in it (assumption_span without the fitted calibration parameters, which the
// range's calibration part moves already): the range then covers all three.
int cmd_range_sensitivity(const Args& a, const Scenario& s, const std::string& file, const HardwareCatalog& cat,
                          Ranged r, const std::string& head) {
  const KneeTarget* target = a.command == "knee" ? &a.knee : nullptr;
  SensitivityEstimate estimate(planned_runs(s, cat), a.jobs, !a.quiet, target != nullptr ? knee_sensitivity_probes() : 1);
  KneeResult knee;
  RunResult run;
  const Sensitivity sens =
      target != nullptr ? knee_sensitivity(s, sensitivity_reader(file, a.sets), cat, *target, estimate.options(a), &knee)
                        : run_sensitivity(s, sensitivity_reader(file, a.sets), cat, estimate.options(a), &run);
  write_tornado(a, sens, s.name);
  // The range's calibration part (when it propagates one) moves the fitted parameters already:
  // the assumptions it adds are the others.
  r.assumptions = r.calibration ? assumptions_beyond_fit(sens) : static_cast<int>(sens.rows.size());
  const AnswerRange& headline = r.at(sens.names.at(0));
  const AssumptionSpan span = assumption_span(sens, r.calibration);
  if (!a.json) say_range_warnings(s.source, r);   // JSON: in its warnings
  std::string out;
  if (a.json) {
    out = with_sensitivity(ranged_report_json(s, r, target), sens);
    out = with_json_block(out, "with_assumptions", with_assumptions_json(headline.name, headline.low, headline.high, span));
  } else {
    out = head + format_ranged(r) + format_with_assumptions(headline.name, headline.low, headline.high, span) + tornado(sens);
  }
  // The base run's (or knee's) bottleneck on the scenario's own seed, as run and knee --sensitivity give it.
  print_answer(a, out, question_features(s, target != nullptr ? knee.bottleneck : run.bottleneck));
  return 0;
}

}  // namespace hcisim::cli
