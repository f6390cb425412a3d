// The knee by bisection on offered load (knee.hpp).
#include "hcisim/plan/knee.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

#include "hcisim/core/check.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

const char* latency_stat_name(LatencyStat s) {
  switch (s) {
    case LatencyStat::mean: return "mean";
    case LatencyStat::p95: return "p95";
    case LatencyStat::p99: return "p99";
  }
  return "?";
}

namespace {
double statistic(const WorkloadResult& w, const LatencyHistogram (&pooled)[2], LatencyStat s) {
  if (s == LatencyStat::mean) return w.pooled_latency_ms;
  return pooled_percentile_ms(pooled, s == LatencyStat::p95 ? 0.95 : 0.99);
}
}  // namespace

double latency_statistic(const RunResult& r, LatencyStat s) { return statistic(r.result, r.pooled, s); }
double latency_statistic(const GroupResult& g, LatencyStat s) { return statistic(g.result, g.pooled, s); }

int knee_rounds(double precision) {
  if (!(precision > 0 && precision < 1)) return 0;
  return static_cast<int>(std::ceil(std::log(1 / precision) / std::log(kKneeProbesPerRound + 1.0) - 1e-9));
}

std::string knee_time_estimate(const Scenario& scenario, double closed_wall_s, double closed_simulated_s, int jobs) {
  constexpr double kShortProbeS = 0.3;   // the probe window suggested
  constexpr double kLongS = 60;          // an estimate worth the suggestion
  const int rounds = knee_rounds(KneeOptions{}.precision);
  const int cores = jobs > 0 ? jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int at_once = std::max(1, std::min(kKneeProbesPerRound, cores));
  const double batches = std::ceil(static_cast<double>(kKneeProbesPerRound) / at_once);
  const double total = closed_wall_s * (1 + rounds * batches);
  if (total < kEstimateWorthSayingS) return "";
  const auto wall = [](double s) {
    char buf[32];
    if (s < 120) std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
    else std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    return std::string(buf);
  };
  char line[320];
  std::snprintf(line, sizeof line,
                "hcisim: knee: estimated wall time about %s: the closed loop (%g simulated s, %s), then about %d probes "
                "like it, %d at a time\n",
                wall(total).c_str(), closed_simulated_s, wall(closed_wall_s).c_str(), rounds * kKneeProbesPerRound, at_once);
  std::string out = line;
  const WorkloadSpec& w = scenario.workload;
  if (total > kLongS && (w.auto_duration || w.duration_s > kShortProbeS)) {
    char now[32] = "auto";
    if (!w.auto_duration) std::snprintf(now, sizeof now, "%g s", w.duration_s);
    std::snprintf(line, sizeof line,
                  "hcisim: knee: for a quicker answer give it shorter probes, e.g. --set workload.duration_s=%g (the "
                  "window each probe measures; now %s)\n",
                  kShortProbeS, now);
    out += line;
  }
  return out;
}

double completions_needed(LatencyStat s) {
  const double q = s == LatencyStat::p95 ? 0.95 : s == LatencyStat::p99 ? 0.99 : 0.0;
  return q > 0 ? std::ceil(20 / (1 - q) - 1e-9) : 20;
}

namespace {

std::string count_text(double v) { return std::to_string(static_cast<long long>(std::llround(v))); }
std::string seconds_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// One closed loop's window (the run's or a group's): enough completions for the statistic,
// and Little's law within 10 % (report/run_report.hpp).
std::string workload_window_problem(const WorkloadResult& w, const std::string& who, LatencyStat s) {
  return window_problem(w, who, true, completions_needed(s), latency_stat_name(s));
}

}  // namespace

std::string closed_loop_window_problem(const RunResult& r, LatencyStat s) {
  // A group whose share rests on too few I/Os (or none) is named first: the mix would lose it.
  for (const GroupResult& g : r.groups)
    if (static_cast<double>(g.result.simulated_ios) < completions_needed(s))
      return workload_window_problem(g.result, "group '" + g.name + "'", s);
  std::string p = workload_window_problem(r.result, "the closed loop", s);
  for (const GroupResult& g : r.groups)
    if (p.empty()) p = workload_window_problem(g.result, "group '" + g.name + "'", s);
  return p;
}

namespace {

// The target and the search's options: a finite target, a precision, a delivered share, a
// job count, and one target per group if any.
void check_knee_options(const Scenario& scenario, const KneeTarget& target, const KneeOptions& options) {
  if (!std::isfinite(target.limit_ms) || !(target.limit_ms > 0))
    check::fail("knee latency target", target.limit_ms, "a finite number of ms > 0");
  if (!(options.precision >= 1e-4 && options.precision <= 0.5)) check::fail("knee precision", options.precision, "1e-4..0.5");
  if (!(options.delivered > 0 && options.delivered <= 1)) check::fail("knee delivered share", options.delivered, "(0, 1]");
  if (options.jobs < 0 || options.jobs > 256) check::fail("knee jobs", options.jobs, "0..256");
  if (!options.group_targets.empty() && options.group_targets.size() != scenario.groups.size())
    throw InvalidArgument("knee: " + std::to_string(options.group_targets.size()) + " group targets for " +
                          std::to_string(scenario.groups.size()) + " workload groups; give one per group");
  for (const KneeTarget& t : options.group_targets)
    if (!std::isfinite(t.limit_ms) || !(t.limit_ms > 0)) check::fail("knee group latency target", t.limit_ms, "a finite number of ms > 0");
}

// Groups: the knee scales every group's rate by one factor, so the mix stays. The mix is
// the groups' own rates (iops_limit_per_vm, all of them), or else the shares the closed
// loop gives them. Returns how many groups give a rate; one workload must be a closed loop.
int rated_groups(const Scenario& scenario) {
  const WorkloadSpec& w = scenario.workload;
  const bool groups = !scenario.groups.empty();
  int rated = 0;
  for (const WorkloadSpec& g : scenario.groups) {
    rated += g.iops_limit_per_vm > 0 ? 1 : 0;
    if (g.latency_target_ms > 0) throw InvalidArgument("knee: group '" + g.name + "' runs HCIBench's latency-target mode");
  }
  if (groups && rated != 0 && rated != static_cast<int>(scenario.groups.size()))
    throw InvalidArgument("knee: " + std::to_string(rated) + " of " + std::to_string(scenario.groups.size()) +
                          " workload groups give iops_limit_per_vm; the knee keeps the groups' mix, so give every "
                          "group a rate (the mix) or none (the closed loop's shares)");
  if (!groups && w.iops_limit_per_vm > 0)
    throw InvalidArgument("knee: the scenario is already an open loop (workload.iops_limit_per_vm = " +
                          std::to_string(w.iops_limit_per_vm) + "); the knee sets the offered load itself");
  if (!groups && w.latency_target_ms > 0)
    throw InvalidArgument("knee: the scenario runs HCIBench's latency-target mode (workload.latency_target_ms); "
                          "give a closed-loop workload");
  return rated;
}

// The search for one scenario's knee: its probes (the scenario at an offered load) and
// whether a probe passes (fast enough, and delivering what it was offered).
class KneeSearch {
 public:
  KneeSearch(const Scenario& scenario, const KneeTarget& target, const KneeOptions& options, int rated)
      : base_(scenario),
        scenario_(scenario),
        target_(target),
        options_(options),
        groups_(!scenario.groups.empty()),
        rated_(rated),
        hosts_(static_cast<int>(scenario.cluster.hosts.size())),
        vms_(scenario.workload.vm_count(hosts_)) {}

  RunResult closed_loop(double scale);
  std::string window_problem(const RunResult& closed) const;
  void set_shares(const RunResult& closed, KneeResult& k);
  bool raise_ceiling(double& hi, KneeResult& k) const;
  void bisect(double hi, KneeResult& k) const;
  bool fast(const RunResult& r) const;
  bool mixed() const { return groups_ && rated_; }   // groups at their own mix

 private:
  Scenario probe_scenario(double x) const;
  bool delivered(const RunResult& r, double x) const;
  bool enough(const RunResult& r) const;
  LatencyStat group_stat(std::size_t g) const {
    return options_.group_targets.empty() ? target_.stat : options_.group_targets[g].stat;
  }

  const Scenario& base_;        // as given
  Scenario scenario_;           // its windows as the closed loop's check left them
  const KneeTarget& target_;
  const KneeOptions& options_;
  const bool groups_;
  const int rated_;
  const int hosts_;
  const double vms_;
  std::vector<double> share_;   // each group's share of the offered load (one workload: none)
};

// A window and warm-up `scale` times the scenario's (an automatic window sets its own).
void scale_window(Scenario& s, double scale) {
  const auto lengthen = [scale](WorkloadSpec& w) {
    if (w.auto_duration || scale == 1) return;
    w.duration_s *= scale;
    w.warmup_s *= scale;
  };
  lengthen(s.workload);
  for (WorkloadSpec& g : s.groups) lengthen(g);
}

// The ceiling: the closed loop keeps every slot busy; an open loop with the same slots
// completes no more. Its window and warm-up are `scale` times the scenario's, and so are
// every probe's after it.
RunResult KneeSearch::closed_loop(double scale) {
  scenario_ = base_;
  scale_window(scenario_, scale);
  Scenario closed_scenario = scenario_;
  for (WorkloadSpec& g : closed_scenario.groups) g.iops_limit_per_vm = 0;
  if (groups_) closed_scenario.workload = closed_scenario.groups.front();
  return simulate(closed_scenario, options_.run_progress);
}

// The closed loop's window against Little's law and the completions each statistic needs
// (with a target per group, each group's own).
std::string KneeSearch::window_problem(const RunResult& closed) const {
  std::string p = closed_loop_window_problem(closed, target_.stat);
  for (std::size_t g = 0; g < closed.groups.size() && p.empty() && !options_.group_targets.empty(); ++g)
    if (static_cast<double>(closed.groups[g].result.simulated_ios) < completions_needed(group_stat(g)))
      p = "group '" + closed.groups[g].name + "' completed " + std::to_string(closed.groups[g].result.simulated_ios) +
          " I/Os in its window; a " + latency_stat_name(group_stat(g)) + " needs at least " +
          count_text(completions_needed(group_stat(g)));
  return p;
}

// Each group's share of the offered load: the groups' own rates, or the closed loop's
// (which the window check has made rest on enough I/Os).
void KneeSearch::set_shares(const RunResult& closed, KneeResult& k) {
  if (!groups_) return;
  double total = 0;
  share_.clear();
  for (std::size_t g = 0; g < scenario_.groups.size(); ++g) {
    const WorkloadSpec& x = scenario_.groups[g];
    share_.push_back(rated_ ? x.iops_limit_per_vm * x.vm_count(hosts_) : closed.groups[g].result.iops);
    total += share_.back();
  }
  for (double& x : share_) x /= total;
  k.group_names.clear();
  for (const WorkloadSpec& x : scenario_.groups) k.group_names.push_back(x.name);
  k.group_share = share_;
}

// A probe at `x` IOPS offered in all: each group gets its share, spread over its VMs. A
// window too short to complete a statistic's worth of I/Os at that rate (in every group) is
// lengthened to hold them, up to kMaxWindowScale times the scenario's.
Scenario KneeSearch::probe_scenario(double x) const {
  Scenario s = scenario_;
  double smallest = 1;
  for (std::size_t g = 0; g < share_.size(); ++g) smallest = std::min(smallest, share_[g]);
  double needed = completions_needed(target_.stat);
  for (const KneeTarget& t : options_.group_targets) needed = std::max(needed, completions_needed(t.stat));
  const double window = 1.25 * needed / std::max(1e-9, x * smallest);   // 97 % delivered, and spare
  const auto lengthen = [&](WorkloadSpec& w, double base_s) {
    if (!w.auto_duration && window > w.duration_s) w.duration_s = std::min(window, kMaxWindowScale * base_s);
  };
  if (!groups_) {
    s.workload.iops_limit_per_vm = std::max(0.001, x / vms_);
    lengthen(s.workload, base_.workload.duration_s);
    s.workload.validate();
    return s;
  }
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    WorkloadSpec& y = s.groups[g];
    y.iops_limit_per_vm = std::max(0.001, x * share_[g] / y.vm_count(hosts_));
    lengthen(y, base_.groups[g].duration_s);
    y.validate();
  }
  s.workload = s.groups.front();
  return s;
}

// The latency target(s): on all I/Os, or each group's own.
bool KneeSearch::fast(const RunResult& r) const {
  if (options_.group_targets.empty()) return latency_statistic(r, target_.stat) <= target_.limit_ms;
  for (std::size_t g = 0; g < options_.group_targets.size(); ++g)
    if (!(latency_statistic(r.groups[g], options_.group_targets[g].stat) <= options_.group_targets[g].limit_ms)) return false;
  return true;
}

// Every group must get what it is offered (a starved group would hide behind the others).
bool KneeSearch::delivered(const RunResult& r, double x) const {
  if (!groups_) return r.result.iops >= options_.delivered * x;
  // A group's IOPS moves in steps of one I/O per window: two I/Os short is counting.
  const double counting = r.result.seconds > 0 ? 2 / r.result.seconds : 0;
  for (std::size_t g = 0; g < share_.size(); ++g)
    if (r.groups[g].result.iops + counting < options_.delivered * x * share_[g]) return false;
  return true;
}

// A pass must rest on a statistic's worth of I/Os, in the run and in every group: a probe
// whose window could not be lengthened enough does not pass.
bool KneeSearch::enough(const RunResult& r) const {
  if (static_cast<double>(r.result.simulated_ios) < completions_needed(target_.stat)) return false;
  for (std::size_t g = 0; g < r.groups.size(); ++g)
    if (static_cast<double>(r.groups[g].result.simulated_ios) < completions_needed(group_stat(g))) return false;
  return true;
}

// Groups at their own mix can reach more than the closed loop's mix did: hi must fail, so it
// doubles while it passes. A pass 8 times over is the knee itself (true, `k` filled).
bool KneeSearch::raise_ceiling(double& hi, KneeResult& k) const {
  for (int i = 0; groups_ && i < 8; ++i) {
    const RunResult top = simulate(probe_scenario(hi), options_.run_progress);
    if (!(fast(top) && delivered(top, hi) && enough(top))) break;
    if (i == 7) {
      k.found = k.ceiling = true;
      k.iops = k.offered_iops = top.result.iops;
      k.latency_ms = latency_statistic(top, target_.stat);
      k.bottleneck = top.bottleneck;
      return true;
    }
    hi *= 2;
  }
  return false;
}

// Bisection (k-section with kKneeProbesPerRound probes a round, `jobs` of them at once) on
// the offered IOPS over (lo, hi]: lo passes (0 trivially), hi fails. The knee is the highest
// pass. The grid is the same whatever the job count, and so is the knee.
void KneeSearch::bisect(double hi, KneeResult& k) const {
  const int per_round = kKneeProbesPerRound;
  double lo = 0;
  const KneeProbe* best = nullptr;
  // The interval's width against the ceiling: a target no load meets narrows towards 0 and
  // stops there too.
  while ((hi - lo) > options_.precision * k.closed_loop_iops) {
    std::vector<Scenario> runs;
    std::vector<double> offered;
    for (int i = 1; i <= per_round; ++i) {
      const double x = lo + (hi - lo) * i / (per_round + 1);
      runs.push_back(probe_scenario(x));
      offered.push_back(x);
    }
    std::vector<RunResult> results(runs.size());
    parallel_for(runs.size(), options_.jobs, [&](std::size_t i) { results[i] = simulate(runs[i], options_.run_progress); });
    const std::size_t first = k.probes.size();
    for (std::size_t i = 0; i < results.size(); ++i) {
      KneeProbe p;
      p.offered_iops = offered[i];
      p.achieved_iops = results[i].result.iops;
      p.latency_ms = latency_statistic(results[i], target_.stat);
      p.pass = fast(results[i]) && delivered(results[i], p.offered_iops) && enough(results[i]);
      p.bottleneck = results[i].bottleneck;
      for (const GroupResult& g : results[i].groups) p.group_iops.push_back(g.result.iops);
      k.probes.push_back(p);
      if (!p.pass) hi = std::min(hi, p.offered_iops);
    }
    // Latency grows with load, so passes lie below failures; a pass above a failure (noise at
    // the edge) is not trusted: the interval closes on the lowest failure, and its bottom is
    // the highest pass below it.
    for (std::size_t i = first; i < k.probes.size(); ++i)
      if (k.probes[i].pass && k.probes[i].offered_iops < hi) lo = std::max(lo, k.probes[i].offered_iops);
  }
  for (const KneeProbe& p : k.probes)
    if (p.pass && p.offered_iops == lo) best = &p;
  k.resolution_iops = hi - lo;
  if (best) {
    k.found = true;
    k.offered_iops = best->offered_iops;
    k.iops = best->achieved_iops;
    k.latency_ms = best->latency_ms;
    k.bottleneck = best->bottleneck;
    k.group_iops = best->group_iops;
  }
}

// The closed loop, its window lengthened (doubled, up to kMaxWindowScale times) until it
// holds its I/O; false, with the knee not found and the note why, when even the longest
// does not.
bool closed_loop_that_holds(KneeSearch& search, const KneeOptions& options, KneeResult& k, RunResult& closed) {
  for (double scale = 1;; scale *= 2) {
    closed = search.closed_loop(scale);
    k.window_scale = scale;
    k.outstanding = closed.configured_outstanding;
    const std::string problem = search.window_problem(closed);
    if (problem.empty()) return true;
    if (scale * 2 > kMaxWindowScale) {
      k.window_short = true;
      k.window_note = "window too short for " + std::to_string(closed.configured_outstanding) +
                      " outstanding I/Os: even " + std::to_string(static_cast<int>(scale)) + " times longer (" +
                      seconds_text(closed.result.seconds) + " s), " + problem + "; lengthen " + options.duration_key;
      return false;
    }
  }
}

}  // namespace

KneeResult find_knee(const Scenario& scenario, const KneeTarget& target, const KneeOptions& options) {
  check_knee_options(scenario, target, options);
  KneeSearch search(scenario, target, options, rated_groups(scenario));
  KneeResult k;
  k.target = target;
  RunResult closed;
  const bool holds = closed_loop_that_holds(search, options, k, closed);
  k.closed_loop_iops = closed.result.iops;
  k.capacity = closed.capacity;
  k.cost = closed.cost;
  k.closed_loop_latency_ms = latency_statistic(closed, target.stat);
  if (!holds) return k;
  search.set_shares(closed, k);
  if (search.fast(closed) && !search.mixed()) {
    k.found = k.ceiling = true;
    k.iops = k.offered_iops = k.closed_loop_iops;
    k.latency_ms = k.closed_loop_latency_ms;
    k.bottleneck = closed.bottleneck;
    return k;
  }
  // The bisection's top must fail: the closed loop's IOPS, which fails the target (above),
  // or for groups at their own mix, raised until a probe there fails.
  double hi = k.closed_loop_iops;
  if (search.raise_ceiling(hi, k)) return k;
  search.bisect(hi, k);
  return k;
}

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

std::string format_knee(const std::string& scenario_name, const KneeResult& k) {
  const std::string stat = latency_stat_name(k.target.stat);
  std::string out = "Scenario: " + scenario_name + "\n";
  out += "Target: " + stat + " latency <= " + fmt("%g", k.target.limit_ms) + " ms\n";
  if (k.window_short) {
    out += "Knee: not found: " + k.window_note + "\n";
  } else if (!k.found) {
    out += "No offered load meets it: even the lightest probe's " + stat + " latency is above the target.\n";
  } else if (k.ceiling) {
    out += "Knee: " + fmt("%.0f", k.iops) + " IOPS at " + stat + " " + fmt("%.3f", k.latency_ms) +
           " ms: the closed loop itself meets the target, so the workload's outstanding I/O, not the cluster, "
           "sets the limit (raise it to look further)\n";
  } else {
    out += "Knee: " + fmt("%.0f", k.iops) + " IOPS at " + stat + " " + fmt("%.3f", k.latency_ms) + " ms (offered load " +
           "bisected to within " + fmt("%.0f", k.resolution_iops) + " IOPS)\n";
  }
  if (k.found) out += "Bottleneck there: " + k.bottleneck + "\n";
  for (std::size_t g = 0; g < k.group_names.size(); ++g) {
    out += g == 0 ? "Groups (share of the offered load" + std::string(k.found && !k.group_iops.empty() ? ", IOPS at the knee" : "") +
                        "): "
                  : ", ";
    out += k.group_names[g] + " " + fmt("%.1f", 100 * k.group_share[g]) + " %";
    if (g < k.group_iops.size()) out += " " + fmt("%.0f", k.group_iops[g]);
    if (g + 1 == k.group_names.size()) out += "\n";
  }
  out += format_cost(k.cost, k.capacity, k.iops, "at the knee");
  out += "Closed loop at the configured outstanding I/O: " + fmt("%.0f", k.closed_loop_iops) + " IOPS, " + stat + " " +
         fmt("%.3f", k.closed_loop_latency_ms) + " ms";
  if (k.window_scale > 1)
    out += std::string(k.window_short ? " (" : " (its window and every probe's ") + "lengthened " +
           fmt("%g", k.window_scale) + " times to hold its " + std::to_string(k.outstanding) + " outstanding I/Os)";
  out += "\n";
  if (!k.probes.empty()) {
    out += "Probes (open loop, in the order run):\n      offered     achieved   " + stat + " ms  pass\n";
    for (const KneeProbe& p : k.probes) {
      char line[160];
      std::snprintf(line, sizeof line, "  %11.0f  %11.0f  %9.3f  %s\n", p.offered_iops, p.achieved_iops, p.latency_ms,
                    p.pass ? "yes" : "no");
      out += line;
    }
  }
  return out;
}

std::string to_json(const std::string& scenario_name, const KneeResult& k) {
  std::string j = "{\"scenario\": " + json_string(scenario_name) + ", \"stat\": \"" + latency_stat_name(k.target.stat) +
                  "\", \"limit_ms\": " + json_number(k.target.limit_ms) + ", \"found\": " + (k.found ? "true" : "false") +
                  ", \"ceiling\": " + (k.ceiling ? "true" : "false") + ", \"knee_iops\": " + json_number(k.iops) + ", \"offered_iops\": " + json_number(k.offered_iops) +
                  ", \"latency_ms\": " + json_number(k.latency_ms) + ", \"bottleneck\": " + json_string(k.bottleneck) +
                  ", \"resolution_iops\": " + json_number(k.resolution_iops) +
                  ", \"window_scale\": " + json_number(k.window_scale) + ", \"window_too_short\": " +
                  (k.window_short ? "true" : "false") + ", \"window_note\": " + json_string(k.window_note) +
                  ", \"closed_loop_iops\": " + json_number(k.closed_loop_iops) +
                  ", \"closed_loop_latency_ms\": " + json_number(k.closed_loop_latency_ms) +
                  ", \"cost\": " + cost_json(k.cost, k.capacity, k.iops) + ", \"groups\": [";
  for (std::size_t g = 0; g < k.group_names.size(); ++g)
    j += (g ? ", " : "") + std::string("{\"name\": ") + json_string(k.group_names[g]) + ", \"share\": " +
         json_number(k.group_share[g]) + ", \"knee_iops\": " +
         json_number(g < k.group_iops.size() ? k.group_iops[g] : std::nan("")) + "}";
  j += "], \"probes\": [";
  for (std::size_t i = 0; i < k.probes.size(); ++i) {
    const KneeProbe& p = k.probes[i];
    j += std::string(i ? ", " : "") + "{\"offered_iops\": " + json_number(p.offered_iops) +
         ", \"achieved_iops\": " + json_number(p.achieved_iops) + ", \"latency_ms\": " + json_number(p.latency_ms) +
         ", \"pass\": " + (p.pass ? "true" : "false") + ", \"bottleneck\": " + json_string(p.bottleneck) + "}";
  }
  return j + "]}\n";
}

}  // namespace hcisim
