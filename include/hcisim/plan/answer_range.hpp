// A range on every answer. Two things make a prediction uncertain, and the
// range carries both:
// - placement and run-to-run noise: the answer is computed on N scenario seeds, the scenario's
//   own and the N-1 after it (1..N unless the scenario sets `seed`); each seed places the
//   components anew and draws every random stream anew, as two real clusters of the same
//   design differ;
// - the calibration: each fitted parameter of data/calibration.yaml has a standard error from
//   the fit's Jacobian (model/calib/fit.hpp) and the estimates are correlated. Every seed is run again
//   with one parameter moved by its standard error; the mean over the seeds of the difference
//   is the parameter's effect e_i (common random numbers keep each seed's difference mostly the
//   effect, but events drift apart, so one seed's alone is noisy). The delta method gives the
//   answer's calibration variance e^T R e, R the estimates' correlations; since noise in the
//   mean effects inflates it by tr(R C) (C their covariance, from the seeds' spread), that is
//   taken off and the result floored at 0.
// The interval is for one cluster built to the design:
//   value +- sqrt((t(N-1) s sqrt(1 + 1/N))^2 + (1.96 s_cal)^2)
// with value and s the mean and standard deviation over the N seeds (a Student-t prediction
// interval for one more draw: Hahn and Meeker, Statistical Intervals, 1991 [S134], section 4.7) and
// s_cal the calibration's; each part at 95 %, combined in quadrature as independent errors.
// A seed without an answer (a knee not found) is left out and counted (AnswerRange::found).
// It says nothing about assumed values (a key set from a write-up, not measured or fitted: the
// sensitivity runs each at the ends of its range) nor about mechanisms the model lacks (the
// accuracy table's errors against the seeds, docs/accuracy.md, are that part, and they are
// larger); every range says what it covers and what not (range_parts).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/plan/knee.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

struct RangeOptions {
  int seeds = 5;              // N scenario seeds from the scenario's own, N in 2..100
  bool calibration = true;    // propagate the fitted parameters' standard errors
  int jobs = 0;               // runs in parallel (0: every core)
  ProgressFn run_progress;    // passed to every run (from worker threads at once): throw to stop
};

/// What one standard error of one fitted parameter does to an answer.
struct ParameterEffect {
  std::string parameter;
  double stderr_value = 0;  // the parameter's standard error (calibration.yaml)
  double effect = 0;        // change of the answer per +1 standard error: the mean over the seeds
  double effect_se = 0;     // that mean's standard error (run noise)
};

/// One answer with its range.
struct AnswerRange {
  std::string name;              // e.g. "iops", "pooled_latency_ms", "knee_iops"
  double value = 0;              // the mean over the seeds
  double low = 0, high = 0;      // the 95 % interval for one cluster (file comment); low >= 0
  double seed_sd = 0;            // standard deviation over the seeds
  double seed_min = 0, seed_max = 0;
  double calibration_sd = 0;     // sqrt(e^T R e - tr(R C)), floored at 0 (file comment)
  int found = 0;                 // seeds with an answer (a knee can be not found: NaN in each);
                                 // under 2, the range and sd are NaN
  std::vector<double> each;      // the answer on each seed, the scenario's own first
  std::vector<ParameterEffect> effects;
  std::vector<std::vector<double>> effect_each;   // per parameter, per seed: the change per +1
                                                  // standard error on that seed
};

struct Ranged {
  int seeds = 0;
  std::uint64_t first_seed = 1;        // seeds first_seed .. first_seed + seeds - 1
  bool calibration = false;            // calibration errors propagated
  std::vector<std::string> parameters; // those with a standard error (others are set, not fitted)
  bool correlated = false;             // some pair of `parameters` is correlated (calibration.yaml)
  /// Assumed values run at the low and high ends of their ranges beside this range (the
  /// sensitivity asked for with it): how many; 0 when none, and the range says they are not
  /// covered.
  int assumptions = 0;
  std::vector<AnswerRange> answers;
  /// What the seeds' windows left undefined (run_range: seeds that completed no I/O, or none
  /// of an operation the workload issues, whose latencies are left out of `found`; curve_range:
  /// seeds whose pilot window or fit warned).
  std::vector<std::string> warnings;
  /// The answer named `name`; throws InvalidArgument for an unknown one.
  const AnswerRange& at(std::string_view name) const;
};

/// One part of an answer's uncertainty: `part` names it ("seeds", "calibration",
/// "assumptions", "mechanisms"), `text` says it in words, e.g. "placement and run noise (5 seeds)".
struct RangePart {
  std::string part;
  std::string text;
};
/// What a range covers (the seeds; the calibration when propagated; the assumed values when
/// their sensitivity ran beside it) and what it does not (the rest, and always the mechanisms
/// the model lacks).
struct RangeParts {
  std::vector<RangePart> covers, not_covered;
};
RangeParts range_parts(const Ranged& r);
/// "range covers: A, B\nnot covered: C, D\n" (the end of format_ranged and format_compared).
std::string format_range_parts(const Ranged& r);

/// Reads the scenario again against a catalog whose calibration has one parameter moved (the
/// scenario's own keys still win over the calibration, as in any load).
using ScenarioReader = std::function<Scenario(const HardwareCatalog& catalog)>;
/// The answers (as many as `names`) of one scenario; the seed is set before the call.
using RangeAnswer = std::function<std::vector<double>(const Scenario& scenario, const ProgressFn& progress)>;

/// The ranges of `names` answered by `answer` on `scenario` (read from `catalog`; `read`
/// reads it again for each moved parameter). Throws InvalidArgument for bad options or an
/// answer of the wrong length.
Ranged answer_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                    const std::vector<std::string>& names, const RangeAnswer& answer, const RangeOptions& options = {});

/// A run's headline answers: iops, throughput_mbps, read_latency_ms, write_latency_ms,
/// pooled_latency_ms, pooled_p95_ms, pooled_p99_ms (all I/Os), cpu_usage_pct_mean,
/// cpu_busy_cores_mean (HostResourceRow::busy_cores, the mean over the hosts that are up). A
/// seed whose window completed no I/O (or none of one operation) has no latency for it: NaN,
/// left out of `found`, and said in `warnings`.
Ranged run_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                 const RangeOptions& options = {});
/// The knee (plan/knee.hpp) on each seed: knee_iops (0 where not found) and latency_ms at
/// it. Each knee's probes run one at a time; the seeds and parameters run in parallel.
Ranged knee_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                  const KneeTarget& target, const RangeOptions& options = {});

/// B - A of two ranges of the same answers, seeds and parameters (compare --range): paired
/// by seed (each seed's difference), effects subtracted, so what both share cancels; the
/// interval is not clamped at 0.
Ranged range_difference(const Ranged& a, const Ranged& b, const Calibration& calibration);
/// The analytic curve (plan/analytic.hpp) on each seed: "iops@<outstanding per VMDK>" and
/// "latency_ms@<...>" at the default points, and "knee_iops" under a mean `limit_ms` (> 0).
/// Each seed and moved parameter is one pilot run; seeds whose pilot or fit warned
/// (AnalyticModel::window_note, fit_notes) are counted in `warnings`.
Ranged curve_range(const Scenario& scenario, const ScenarioReader& read, const HardwareCatalog& catalog,
                   double limit_ms, const RangeOptions& options = {});

/// "value  low .. high  (seeds sd, min..max; calibration sd)" per answer, and the method.
std::string format_ranged(const Ranged& r);
/// compare --range: per answer A, B and B - A, each "value (low .. high)", and whether the
/// change's range excludes 0 (a change the noise and the calibration cannot explain).
std::string format_compared(const std::string& name_a, const std::string& name_b, const Ranged& a, const Ranged& b,
                            const Ranged& b_minus_a);
/// {"seeds": N, "first_seed", "calibration": true, "parameters": [...], "level", "covers": [{part,
/// text}], "not_covered": [{part, text}], "answers": {name: {value, low, high, seed_sd, seed_min,
/// seed_max, calibration_sd, found, each: [...], effects: {parameter: {effect, se}}}}} (null: no
/// value)
std::string to_json(const Ranged& r);
/// The document of `run --range --json` (target null) and `knee --range --json`: {"scenario",
/// "workload", ["target": {"stat", "limit_ms"}], "warnings": [the scenario's, then r's],
/// "range": to_json(r)}.
std::string ranged_report_json(const Scenario& scenario, const Ranged& r, const KneeTarget* target = nullptr);
/// CSV: range_seeds, range_first_seed, then per answer <name>, <name>_low, <name>_high,
/// <name>_seed_sd, <name>_calibration_sd, <name>_found (empty cells: no value), then warnings
/// (r.warnings joined by " | "), range_covers and range_not_covered (range_parts' texts joined
/// by "; ").
std::string ranged_csv_header(const std::vector<std::string>& names);
std::string ranged_csv_cells(const Ranged& r);

/// The names run_range answers, in order.
const std::vector<std::string>& run_range_names();

}  // namespace hcisim
