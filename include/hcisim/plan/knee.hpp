// The knee: the highest IOPS a scenario's cluster and workload deliver while
// a latency statistic stays under a target. Found by driving offered load, as fio's rate_iops
// does (WorkloadSpec::iops_limit_per_vm: an open loop with the workload's own outstanding I/O
// as its cap), and bisecting on it; not by sweeping the closed loop's outstanding I/O, whose
// points land where they land. Latency is taken to grow with offered load (queueing), which is
// what makes a bisection sound.
#pragma once

#include <string>
#include <vector>

#include "hcisim/scenario/scenario.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

/// Which latency the target bounds: the mean over all I/Os, or the pooled p95 or p99 of all
/// I/Os (reads and writes together).
enum class LatencyStat : std::uint8_t { mean, p95, p99 };
const char* latency_stat_name(LatencyStat s);
/// A run's latency statistic over all I/Os (reads and writes pooled), in ms.
double latency_statistic(const RunResult& r, LatencyStat s);
/// The same over one workload group's I/Os.
double latency_statistic(const GroupResult& g, LatencyStat s);

struct KneeTarget {
  LatencyStat stat = LatencyStat::p95;
  double limit_ms = 2;
};

/// The knee's own windows: how far it may lengthen them (its closed loop and each probe), and
/// the key a user lengthens beyond that.
inline constexpr double kMaxWindowScale = 8;
/// Probes per round of the k-section: fixed, so the grid (and the knee) is the same on any
/// machine; KneeOptions::jobs only sets how many run at once.
inline constexpr int kKneeProbesPerRound = 2;

/// Rounds of the k-section from the closed loop's IOPS down to `precision` of them when each
/// round narrows the interval kKneeProbesPerRound + 1 times: 5 at 1 % (the probes a knee
/// usually takes, kKneeProbesPerRound a round; a noisy edge or workload groups take more).
int knee_rounds(double precision);

/// What `hcisim knee` says before its search: about how long it takes, from the closed loop's
/// wall time (`closed_wall_s` for its `closed_simulated_s` simulated seconds) times the runs a
/// search usually takes (the closed loop, then knee_rounds() rounds of kKneeProbesPerRound
/// probes, as many at once as `jobs` allows, 0: every core; each probe taken as long as the
/// closed loop, an upper bound since probes offer less) and, when that is over a minute and
/// the window is longer than 0.3 s, a suggestion of shorter probes. One or two lines; none
/// (empty) when the search takes less than kEstimateWorthSayingS, as run's estimate.
std::string knee_time_estimate(const Scenario& scenario, double closed_wall_s, double closed_simulated_s, int jobs);

struct KneeOptions {
  int jobs = 0;              // probes run at once (0: every core); the grid does not depend on it
  double precision = 0.01;   // stop when the interval is this share of the closed loop's IOPS
  double delivered = 0.97;   // a probe passes only if it completes this share of what it offers
  ProgressFn run_progress;   // passed to every run (from worker threads at once): throw to stop
  // Workload groups: each group's own target (in the scenario's group order) instead of the
  // one target on all I/Os; a probe then passes when every group meets its own.
  std::vector<KneeTarget> group_targets;
  // Named when the window is too short even lengthened kMaxWindowScale times (size: run.duration_s).
  std::string duration_key = "workload.duration_s";
};

/// Completed I/Os a window needs for the statistic: 20 beyond the percentile (400 for a p95,
/// 2000 for a p99), 20 for a mean.
double completions_needed(LatencyStat s);
/// What is wrong with a closed loop's window, or "" when it holds: Little's law (outstanding
/// I/Os in flight = IOPS x mean latency) within 10 %, on the run and on each group (a window
/// much shorter than the latency counts only the I/Os that finish early), and at least
/// completions_needed(s) I/Os in the run and in each group. A group with too few I/Os is
/// named before any other problem (its share of the mix is what rests on them).
std::string closed_loop_window_problem(const RunResult& r, LatencyStat s);

/// One run at an offered load.
struct KneeProbe {
  double offered_iops = 0;
  double achieved_iops = 0;  // the HCIBench-rule IOPS of the run
  double latency_ms = 0;     // the target's statistic
  bool pass = false;
  std::string bottleneck;
  std::vector<double> group_iops;     // workload groups: each group's IOPS
};

struct KneeResult {
  KneeTarget target;
  double closed_loop_iops = 0;        // the scenario as written: every slot busy, the ceiling
  double closed_loop_latency_ms = 0;  // (the open loop has the same slots)
  bool found = false;                 // false: even the lightest probe misses the target
  bool ceiling = false;               // true: the closed loop itself meets it (outstanding I/O limits)
  double offered_iops = 0;            // the probe's offered load at the knee
  double iops = 0;                    // the knee: that probe's IOPS (0 when not found)
  double latency_ms = 0;
  std::string bottleneck;             // at the knee
  double resolution_iops = 0;         // the bisection's final interval
  double window_scale = 1;            // the closed loop's window (and warm-up) over the scenario's
  bool window_short = false;          // not found: even kMaxWindowScale times longer, the closed
  std::string window_note;            // loop's window did not hold its I/O (the note says why)
  int outstanding = 0;                // the closed loop's configured outstanding I/Os
  CapacityReport capacity;            // the cluster's capacity line and cost (report/cost.hpp):
  ClusterCost cost;                   // cost per IOPS is taken at the knee
  std::vector<KneeProbe> probes;      // in the order run; a pass above a failure (noise at the
                                      // edge) is not trusted: the knee lies below every failure
  // Workload groups (Scenario::groups): every probe offers each group its share of the load
  // (the groups' own rates, or the closed loop's shares), and passes only if every group gets
  // what it is offered; the target is on all I/Os pooled.
  std::vector<std::string> group_names;
  std::vector<double> group_share;    // of the offered load
  std::vector<double> group_iops;     // each group's IOPS at the knee
};

/// Throws InvalidArgument for a target that is not a finite number > 0, a scenario that is
/// already an open loop or a latency-target (HCIBench mode) run, or bad options. Workload
/// groups may give rates (every group or none): they set the mix the knee scales.
KneeResult find_knee(const Scenario& scenario, const KneeTarget& target, const KneeOptions& options = {});

/// The answer and its probes as a text table, and as one JSON object.
std::string format_knee(const std::string& scenario_name, const KneeResult& k);
std::string to_json(const std::string& scenario_name, const KneeResult& k);

}  // namespace hcisim
