// Assumption sensitivity: an answer re-evaluated with each assumption at the low and the high
// end of its range, one at a time, with common random numbers (the scenario's own seed and
// replication in every run), in parallel. The assumptions of a scenario are
// - every calibration parameter of data/calibration.yaml that is not fitted (standard error 0),
//   over its whole range min..max;
// - every fitted one at fitted -+ 2 standard errors, clipped to its range (its whole range
//   would undo the fit);
// - every key of the key table with a numeric assumed range (FileKey::assumed) that the file
//   does not state (the default stands in for something the write-up does not say), where the
//   key acts on this cluster;
// - the scenario's own `assumed:` block (Scenario::assumed): key paths with [low, high].
// Only calibration parameters and keys that act on this cluster are moved; the rest are listed
// as not applicable, with why. A parameter moves through a catalog whose calibration has it
// set (as plan/answer_range.hpp moves one); a key through one more `--set path=value`.
// The result is a tornado: per assumption the answers at both ends, sorted by how far the
// headline (the first answer) swings; a noise estimate from the base scenario on two more
// replications (every random stream but placement's drawn anew: the run-to-run part of one
// end's difference from the other); and the worst plausible pair among the top three (both
// moved at once to the ends that lowered, then raised, the headline: limits switch, so two
// assumptions can do more together than their sum).
// It says nothing about mechanisms the model lacks: `hcisim accuracy` shows those errors.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hcisim/plan/knee.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

/// What an assumption is (Assumption::kind's text).
enum class AssumptionKind : std::uint8_t {
  calibration_not_fitted,  // "calibration (not fitted)": over its range
  calibration_fitted,      // "calibration (fitted, +-2 se)": fitted -+ 2 standard errors
  assumed_key,             // "assumed key": a key the file leaves at its default
  scenario_assumed,        // "scenario assumed:": the scenario's own assumed: block
};
const char* assumption_kind_name(AssumptionKind k);

/// One assumption and the range it is moved over.
struct Assumption {
  std::string name;          // a calibration parameter or a scenario key path
  AssumptionKind kind = AssumptionKind::assumed_key;
  std::string kind_text;     // assumption_kind_name(kind)
  double base = 0;           // the value the scenario runs with (NaN: not a number the scenario holds)
  double low = 0, high = 0;  // the ends (integer keys: whole numbers)
  std::string unit;
  std::string why;           // the range's source or argument
  bool calibration() const {
    return kind == AssumptionKind::calibration_not_fitted || kind == AssumptionKind::calibration_fitted;
  }
};

/// An assumption left out, and why ("OSA only", "the file states it", ...).
struct SkippedAssumption {
  std::string name;
  std::string kind_text;
  std::string reason;
};

/// The assumptions that apply to `scenario` (read against `catalog`), in a fixed order:
/// calibration parameters (file order), assumed keys (table order), the scenario's own
/// (file order; one that names an assumed key or a calibration-set key replaces it). Those
/// that do not act on this cluster, or that the file states, go to `skipped` when given.
std::vector<Assumption> scenario_assumptions(const Scenario& scenario, const HardwareCatalog& catalog,
                                             std::vector<SkippedAssumption>* skipped = nullptr);

/// A comparison's assumptions: the union of A's and B's (scenario_assumptions), a name once, in
/// a fixed order: A's, then B's that A lacks. Where both have one with different ranges, the
/// union of the two (said in why). Each acts only on the sides it applies to (`on_a`, `on_b`:
/// the names): a side's own assumptions, and an assumed key of the other side's that this side
/// neither states nor skips; never a key the side's file states, a parameter that does not act
/// there, or an entry of the other file's own assumed: block (what that write-up left open).
/// `skipped`: what applies to neither side (A's, then B's others; both sides' reasons when they
/// differ).
struct ComparisonAssumptions {
  std::vector<Assumption> assumptions;
  std::vector<std::string> on_a, on_b;
  std::vector<SkippedAssumption> skipped;
};
ComparisonAssumptions comparison_assumptions(const Scenario& a, const Scenario& b, const HardwareCatalog& catalog);

/// One evaluation's answers (as many as the study's names; NaN: none, e.g. a knee not found)
/// and the bottleneck there ("" when the answer has none).
struct SensitivityAnswer {
  std::vector<double> values;
  std::string bottleneck;
  // The smallest change of the headline the answer can tell (0: none given): a run's IOPS
  // moves in steps of one I/O over its window, so 2 I/Os over it; a knee's bisection its
  // final interval. The noise estimate is at least the base's.
  double resolution = 0;
};

/// Evaluates the answer with `catalog` (its calibration possibly moved) and `overrides` (keys
/// moved: "path=value", after the user's own --set) on replication `replication_offset` past
/// the scenario's own (0: the scenario's; 1, 2: the noise runs). Called from worker threads
/// at once.
using SensitivityEval = std::function<SensitivityAnswer(const HardwareCatalog& catalog,
                                                        const std::vector<std::string>& overrides,
                                                        std::uint64_t replication_offset, const ProgressFn& progress)>;
/// Reads the scenario again against `catalog` with `overrides` after the user's --set.
using SensitivityReader =
    std::function<Scenario(const HardwareCatalog& catalog, const std::vector<std::string>& overrides)>;
/// The answers of one read scenario.
using SensitivityAnswerFn = std::function<SensitivityAnswer(const Scenario& scenario, const ProgressFn& progress)>;

struct SensitivityOptions {
  int jobs = 0;                 // runs in parallel (0: every core); the result does not depend on it
  int noise_replications = 2;   // extra runs of the base scenario for the noise estimate, 0..10
  bool worst_pair = true;       // the top three's pairs moved together (up to 6 more runs)
  ProgressFn run_progress;      // passed to every run (from worker threads at once): throw to stop
};

/// One assumption's row of the tornado.
struct SensitivityRow {
  Assumption assumption;
  std::vector<double> at_low, at_high;   // the answers with it at its low and its high end
  std::string bottleneck_low, bottleneck_high;
  double swing = 0;           // |headline at high - headline at low| (NaN: an end without one)
  double swing_pct = 0;       // swing as % of the base headline (NaN when that is 0 or none)
  bool within_noise = false;  // swing <= the noise estimate (false for a switch)
  // The answer appears or disappears: the headline exists at one end and not at the other,
  // or at the base and at neither end (a knee found only with the assumption at one end).
  // No swing measures that, so these rows sort first.
  bool switches = false;
  std::string error;          // an end could not be read or run (its answers NaN): what was said
};

/// The worst plausible pair: two of the top three moved together.
struct SensitivityPair {
  std::string first, second;        // assumption names
  double first_value = 0, second_value = 0;   // the ends they were moved to, lowering the headline
  std::vector<double> at_down;      // both at the ends that each lowered the headline
  std::string bottleneck_down;
  double first_up_value = 0, second_up_value = 0;
  std::vector<double> at_up;        // both at the ends that each raised it
  std::string bottleneck_up;
  double change_down = 0, change_up = 0;   // headline minus the base headline
  double sum_down = 0, sum_up = 0;         // what the two single moves add up to (for comparison)
};

struct Sensitivity {
  std::vector<std::string> names;   // the answers; names[0] is the headline the rows sort by
  std::vector<double> base;         // the base scenario's answers
  std::string base_bottleneck;
  double noise = 0;                 // the headline's spread (max - min) over the base and its noise
                                    // runs, at least the base's resolution (SensitivityAnswer);
                                    // NaN when the base has no headline (e.g. no knee)
  int noise_runs = 0;               // the base's extra replications behind `noise`
  std::vector<SensitivityRow> rows; // switches first (by name), then by swing, largest first
                                    // (NaN swings last; ties in the assumptions' order)
  std::vector<SkippedAssumption> skipped;
  bool has_pair = false;            // false: fewer than two rows with a swing or a switch, or
                                    // worst_pair off
  SensitivityPair pair;             // the pair whose larger |change| is largest
  int runs = 0;                     // evaluations in all
  double wall_s = 0;                // wall time of the study (not deterministic: to_json gives it
                                    // only when asked)
};

/// Runs per study of `assumptions` assumptions (for an estimate before it starts).
int sensitivity_runs(std::size_t assumptions, const SensitivityOptions& options = {});
/// The simulations one knee evaluation of knee_sensitivity usually runs, one at a time: the
/// closed loop, then knee_rounds() rounds of kKneeProbesPerRound probes (11 at 1 %).
int knee_sensitivity_probes();
/// The wall time of `studies` studies one after another (sweep: one a point), each of `runs`
/// evaluations (sensitivity_runs), `at_once` at a time (at least 1), each evaluation `probes`
/// simulations one after another (a run or a curve's pilot: 1; a knee:
/// knee_sensitivity_probes()), each simulation taken as long as one that took `one_s`.
double sensitivity_wall_estimate(int runs, int probes, double one_s, int at_once, int studies = 1);

/// The study: every assumption at both ends (`eval` with a moved catalog or overrides), the
/// base and its noise runs, then the worst pair. Deterministic whatever options.jobs.
/// Throws InvalidArgument for bad options or an answer of the wrong length.
Sensitivity sensitivity(const std::vector<Assumption>& assumptions, const HardwareCatalog& catalog,
                        const std::vector<std::string>& names, const SensitivityEval& eval,
                        const SensitivityOptions& options = {});
/// The same for one scenario: its assumptions (scenario_assumptions), each evaluation read by
/// `read` and answered by `answer` (the replication offset added to the read scenario's).
Sensitivity sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                        const std::vector<std::string>& names, const SensitivityAnswerFn& answer,
                        const SensitivityOptions& options = {});

/// A run's answers: iops (the headline), pooled_latency_ms, pooled_p95_ms; the run's bottleneck;
/// resolution 2 I/Os over the window.
/// `base_run`, when given, gets the base run's whole result (the scenario as read).
Sensitivity run_sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                            const SensitivityOptions& options = {}, RunResult* base_run = nullptr);
/// The knee (plan/knee.hpp): knee_iops (NaN where not found), latency_ms at it; its bottleneck;
/// resolution the bisection's final interval.
/// Each knee's probes run one at a time (the assumptions are the parallel work); `base_knee`
/// gets the base's whole knee.
Sensitivity knee_sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                             const KneeTarget& target, const SensitivityOptions& options = {},
                             KneeResult* base_knee = nullptr);
/// The analytic curve's knee under a mean `limit_ms` (> 0; plan/analytic.hpp), one pilot per
/// evaluation: knee_iops (NaN: not found), ceiling_iops; the analytic bottleneck.
Sensitivity curve_sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                              double limit_ms, const SensitivityOptions& options = {});

/// The largest fall and rise of the headline from the base over every row's ends and the worst
/// pair (0 when nothing moved it that way), and what moved it.
struct AssumptionSpan {
  double down = 0, up = 0;   // down <= 0 <= up
  std::string down_by, up_by;
  bool without_fitted = false;   // fitted calibration parameters left out (a range covers them)
  std::string pair_left_out;     // "first and second": the worst pair, left out as it moves one
  std::vector<std::string> lost_with;   // "name at value": ends where the answer is lost (no knee)
};
/// The plain tornado's span: every row and the worst pair.
AssumptionSpan assumption_span(const Sensitivity& s);
/// The span beside a range (--range with --sensitivity), whose calibration part already moves
/// the fitted parameters by their standard errors: with `without_fitted`, only the rows that are
/// not fitted calibration parameters (AssumptionKind::calibration_fitted), and the worst pair
/// only when neither of its two is one (else it is left out, named in `pair_left_out`).
AssumptionSpan assumption_span(const Sensitivity& s, bool without_fitted);
/// The rows that are not fitted calibration parameters: the assumptions a range adds.
int assumptions_beyond_fit(const Sensitivity& s);
/// A range's ends with the assumptions in it (--range with --sensitivity): `low` + span.down (kept at 0
/// where `low` is at least 0) and `high` + span.up, so the interval covers placement, noise, the calibration and each
/// assumption (or the worst pair) at the end that moves the answer most. Text: "with the
/// assumptions: <low> .. <high> (<name>: ...)", saying what was left out; JSON {"answer",
/// "low", "high", "down", "down_by", "up", "up_by", "without_fitted", "pair_left_out" (null:
/// none)}.
std::string format_with_assumptions(const std::string& answer, double low, double high, const AssumptionSpan& span);
std::string with_assumptions_json(const std::string& answer, double low, double high, const AssumptionSpan& span);

/// The tornado as text: per row assumption, kind, low .. high (unit), the headline at each
/// end, swing (% of base; "found at one end only" or "found at the base only" for a switch),
/// bottleneck at each end; the worst pair; what it covers.
std::string format_sensitivity(const Sensitivity& s);
/// {"names": [...], "headline": names[0], "base": {name: value}, "base_bottleneck", "noise",
/// "noise_runs", "runs", "wall_s", "rows": [{"name", "kind", "base", "low", "high", "unit",
/// "why", "at_low": {..}, "at_high": {..}, "bottleneck_low", "bottleneck_high", "swing",
/// "swing_pct", "within_noise", "appears_or_disappears", "error"}], "worst_pair": null | {...}, "skipped": [{"name",
/// "kind", "reason"}], "covers"} (null: no value). wall_s is left out (null) unless
/// `with_wall` is set, so two studies' JSON compare equal.
std::string to_json(const Sensitivity& s, bool with_wall = false);
/// The sentence on what the tornado covers and what it does not.
std::string sensitivity_covers();
/// The tornado as an SVG chart (report/svg_chart.hpp, svg_tornado): one bar per row, rows whose
/// answer appears or disappears first (labelled so), then largest swing first (rows without one
/// last, drawn empty), from the headline at the assumption's low
/// end to the headline at its high end, around the base; the worst pair last, in a second
/// colour. Titled with the headline and, under it, `scenario` (the scenario's name; a
/// comparison's "A: name" and "B: name" a line each, '\n' between). sensitivity_chart.cpp.
std::string sensitivity_svg(const Sensitivity& s, const std::string& scenario);

}  // namespace hcisim
