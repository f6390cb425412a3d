// The knee by bisection on offered load (knee.hpp).
#include "hcisim/scenario/knee.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

#include "hcisim/core/check.hpp"
#include "hcisim/report/text_escape.hpp"
#include "hcisim/core/parallel.hpp"
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
  LatencyHistogram all = pooled[0];
  all.merge(pooled[1]);
  return all.percentile(s == LatencyStat::p95 ? 0.95 : 0.99).seconds() * 1e3;
}
}  // namespace

double latency_statistic(const RunResult& r, LatencyStat s) { return statistic(r.result, r.pooled, s); }
double latency_statistic(const GroupResult& g, LatencyStat s) { return statistic(g.result, g.pooled, s); }

KneeResult find_knee(const Scenario& scenario, const KneeTarget& target, const KneeOptions& options) {
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
  const WorkloadSpec& w = scenario.workload;
  // Groups: the knee scales every group's rate by one factor, so the mix stays. The mix is
  // the groups' own rates (iops_limit_per_vm, all of them), or else the shares the closed
  // loop gives them.
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
  KneeResult k;
  k.target = target;
  const int hosts = static_cast<int>(scenario.cluster.hosts.size());
  const double vms = w.vm_count(hosts);

  // The ceiling: the closed loop keeps every slot busy; an open loop with the same slots
  // completes no more.
  Scenario closed_scenario = scenario;
  for (WorkloadSpec& g : closed_scenario.groups) g.iops_limit_per_vm = 0;
  if (groups) closed_scenario.workload = closed_scenario.groups.front();
  const RunResult closed = simulate(closed_scenario, options.run_progress);
  // Each group's share of the offered load (one workload: all of it).
  std::vector<double> share;
  if (groups) {
    double total = 0;
    for (std::size_t g = 0; g < scenario.groups.size(); ++g) {
      const WorkloadSpec& x = scenario.groups[g];
      share.push_back(rated ? x.iops_limit_per_vm * x.vm_count(hosts) : closed.groups[g].result.iops);
      total += share.back();
    }
    if (!(total > 0)) throw InvalidArgument("knee: the groups' closed loop completed no I/O; lengthen workload.duration_s");
    for (double& x : share) x /= total;
    k.group_names.clear();
    for (const WorkloadSpec& x : scenario.groups) k.group_names.push_back(x.name);
    k.group_share = share;
  }
  // A probe at `x` IOPS offered in all: each group gets its share, spread over its VMs.
  const auto probe_scenario = [&](double x) {
    Scenario s = scenario;
    if (!groups) {
      s.workload.iops_limit_per_vm = std::max(0.001, x / vms);
      s.workload.validate();
      return s;
    }
    for (std::size_t g = 0; g < s.groups.size(); ++g) {
      WorkloadSpec& y = s.groups[g];
      y.iops_limit_per_vm = std::max(0.001, x * share[g] / y.vm_count(hosts));
      y.validate();
    }
    s.workload = s.groups.front();
    return s;
  };
  // The latency target(s): on all I/Os, or each group's own.
  const auto fast = [&](const RunResult& r) {
    if (options.group_targets.empty()) return latency_statistic(r, target.stat) <= target.limit_ms;
    for (std::size_t g = 0; g < options.group_targets.size(); ++g)
      if (!(latency_statistic(r.groups[g], options.group_targets[g].stat) <= options.group_targets[g].limit_ms)) return false;
    return true;
  };
  // Every group must get what it is offered (a starved group would hide behind the others).
  const auto delivered = [&](const RunResult& r, double x) {
    if (!groups) return r.result.iops >= options.delivered * x;
    // A group's IOPS moves in steps of one I/O per window: two I/Os short is counting.
    const double counting = r.result.seconds > 0 ? 2 / r.result.seconds : 0;
    for (std::size_t g = 0; g < share.size(); ++g)
      if (r.groups[g].result.iops + counting < options.delivered * x * share[g]) return false;
    return true;
  };
  // Enough completions for the statistic: a percentile needs at least 20 samples beyond it.
  const double q = target.stat == LatencyStat::p95 ? 0.95 : target.stat == LatencyStat::p99 ? 0.99 : 0.0;
  const double needed = q > 0 ? std::ceil(20 / (1 - q) - 1e-9) : 1;
  const double completed = static_cast<double>(closed.pooled[0].count() + closed.pooled[1].count());
  if (completed < needed)
    throw InvalidArgument("knee: the closed loop completed " + std::to_string(static_cast<long long>(completed)) +
                          " I/Os in its window; a " + latency_stat_name(target.stat) + " needs at least " +
                          std::to_string(static_cast<long long>(needed)) + " (lengthen workload.duration_s)");
  k.closed_loop_iops = closed.result.iops;
  k.capacity = closed.capacity;
  k.cost = closed.cost;
  k.closed_loop_latency_ms = latency_statistic(closed, target.stat);
  if (fast(closed) && !(groups && rated)) {
    k.found = k.ceiling = true;
    k.iops = k.offered_iops = k.closed_loop_iops;
    k.latency_ms = k.closed_loop_latency_ms;
    k.bottleneck = closed.bottleneck;
    return k;
  }

  // Bisection (k-section with `jobs` probes a round) on the offered IOPS over (lo, hi]:
  // lo passes (0 trivially), hi fails (the ceiling, shown above).
  const int per_round =
      options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  double lo = 0, hi = k.closed_loop_iops;
  const KneeProbe* best = nullptr;
  // Groups at their own mix can reach more than the closed loop's mix did: hi must fail.
  for (int i = 0; groups && i < 8; ++i) {
    const RunResult top = simulate(probe_scenario(hi), options.run_progress);
    if (!(fast(top) && delivered(top, hi))) break;
    if (i == 7) {
      k.found = k.ceiling = true;
      k.iops = k.offered_iops = top.result.iops;
      k.latency_ms = latency_statistic(top, target.stat);
      k.bottleneck = top.bottleneck;
      return k;
    }
    hi *= 2;
  }
  // The interval's width against the ceiling: a target no load meets narrows towards 0 and
  // stops there too.
  while ((hi - lo) > options.precision * k.closed_loop_iops) {
    std::vector<Scenario> runs;
    std::vector<double> offered;
    for (int i = 1; i <= per_round; ++i) {
      const double x = lo + (hi - lo) * i / (per_round + 1);
      runs.push_back(probe_scenario(x));
      offered.push_back(x);
    }
    std::vector<RunResult> results(runs.size());
    parallel_for(runs.size(), per_round, [&](std::size_t i) { results[i] = simulate(runs[i], options.run_progress); });
    const std::size_t first = k.probes.size();
    for (std::size_t i = 0; i < results.size(); ++i) {
      KneeProbe p;
      p.offered_iops = offered[i];
      p.achieved_iops = results[i].result.iops;
      p.latency_ms = latency_statistic(results[i], target.stat);
      p.pass = fast(results[i]) && delivered(results[i], p.offered_iops);
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
  if (!k.found) {
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
         fmt("%.3f", k.closed_loop_latency_ms) + " ms\n";
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
