// Inverse sizing (sizing.hpp): candidates built as scenarios (candidate_scenario.cpp), capacity
// and cost at once, the rest simulated in order of cost. The requirements file is read by
// requirements_file.cpp.
#include "hcisim/plan/sizing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "candidate_scenario.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/plan/analytic.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/scenario/runner.hpp"

namespace hcisim {

namespace {

// What a design costs to buy: every host, or with existing hosts only the ones added (the
// first hosts of its scenario), their NICs, switch ports and licences (cores, and TiB of their
// raw capacity after the format overhead, as capacity() counts it).
ClusterCost bought_cost(const Requirements& req, const Scenario& healthy, const Requirements::Block& net) {
  ClusterSpec bought = healthy.cluster;
  bought.failed_hosts.clear();
  if (req.existing_hosts == 0) return cluster_cost(bought, scenario_capacity(healthy), healthy.prices);
  const std::size_t added = bought.hosts.size() - static_cast<std::size_t>(req.existing_hosts);
  ClusterSpec existing = bought;
  existing.hosts.erase(existing.hosts.begin(), existing.hosts.begin() + static_cast<std::ptrdiff_t>(added));
  bought.hosts.resize(added);
  CapacityReport raw;
  for (const HostSpec& h : bought.hosts) raw.raw_gb += host_raw_gb(h, bought.architecture);
  ClusterCost c = cluster_cost(bought, raw, healthy.prices);
  // On a network other than theirs, the existing hosts' NICs, switch ports and cables too.
  if (net.yaml != req.existing_network_yaml) {   // both flow text of their maps
    const ClusterCost recabled = cluster_cost(existing, CapacityReport{}, healthy.prices);
    for (const CostLine& line : recabled.lines)
      if (line.group == "network") {
        const auto same = std::find_if(c.lines.begin(), c.lines.end(),
                                       [&](const CostLine& l) { return l.group == line.group && l.item == line.item; });
        if (same == c.lines.end()) {
          c.lines.push_back(line);
        } else {
          same->count += line.count;
          same->usd += line.usd;
        }
        c.priced_usd += line.usd;
        c.network_usd += line.usd;
      }
    for (const std::string& m : recabled.missing)
      if (std::find(c.missing.begin(), c.missing.end(), m) == c.missing.end() &&
          (m.rfind("nic", 0) == 0 || m.rfind("switch", 0) == 0 || m.rfind("cable", 0) == 0))
        c.missing.push_back(m);
  }
  return c;
}

// The data a design simulates (Design::vmdk_gb, data_gb): its demands' stated capacity, or
// for a demand without one its share of the design's usable capacity (detail::vmdk_gbs).
void set_data(Design& d, const Requirements& req) {
  d.vmdk_gb = detail::vmdk_gbs(req, d.capacity.usable_gb);
  d.data_gb = 0;
  for (std::size_t g = 0; g < req.demands.size(); ++g) {
    d.data_gb += d.vmdk_gb[g] * req.demands[g].vms * detail::kVmdksPerVm;
    d.vmdks_fill_usable = d.vmdks_fill_usable || req.demands[g].capacity_tb <= 0;
  }
}

// What is left of a design's redundancy with host_failures hosts down (`degraded`, the
// design with them down; Design::rebuild_target ...). An object keeps each component on a
// host of its own and needs as many hosts as its policy's minimum or its components,
// whichever is more (RAID-1 FTT n: 2n+1; RAID-5 2+1: 3, 3+1: 4, 4+1: 5; RAID-6 4+2: 6;
// [S10] [S50]); with f hosts down, its f lost components can be rebuilt only when that
// many hosts are still up ([S46]: a spare host beyond the policy's minimum). The rebuild
// then rewrites the lost components on the hosts that are up, so all the data, as stored
// under the policy (after data reduction), must fit in their raw capacity after metadata.
// ESA's adaptive RAID-5 stores it as the hosts up call for: a 6-host cluster's 4+1 becomes
// 2+1 a day after a host goes down ([S40]), 1.5 raw bytes per byte instead of 1.25.
// Without a rebuild, the worst-hit objects tolerate ftt - f more failures.
void set_redundancy(Design& d, const Requirements& req, const Scenario& degraded) {
  const ClusterSpec& c = degraded.cluster;
  const Layout l = c.layout();
  d.redundancy_left = l.ftt;
  const int f = req.host_failures;
  if (f == 0) return;
  const int needs = std::max(l.min_hosts, l.data_components() + l.witnesses);
  const int up = static_cast<int>(c.hosts.size()) - f + (c.witness_host ? 1 : 0);
  d.rebuild_target = up >= needs;
  const Layout after = d.rebuild_target
                           ? resolve_layout(c.policy, c.architecture, static_cast<int>(c.hosts.size()) - f, c.witness_host)
                           : l;
  const CapacityReport left = scenario_capacity(degraded);
  const double stored_gb = d.data_gb * after.capacity_factor() * d.capacity.lfs_factor / d.capacity.reduction_ratio;
  const double room_gb = left.raw_gb - left.metadata_gb;
  d.rebuild_space = stored_gb <= room_gb;
  if (d.rebuild_target && d.rebuild_space) return;
  d.redundancy_left = std::max(0, l.ftt - f);
  const std::string why =
      !d.rebuild_target
          ? "no host to rebuild on (" + l.describe() + " needs " + std::to_string(needs) + " hosts, " + std::to_string(up) +
                " are up)"
          : "no room to rebuild (the data takes " + detail::fmt("%.1f", stored_gb / 1000) + " TB of raw" +
                (after.data != l.data ? " as " + after.describe() : std::string()) + ", the hosts up have " +
                detail::fmt("%.1f", room_gb / 1000) + " TB)";
  d.redundancy_note = "with " + std::to_string(f) + " host" + (f == 1 ? "" : "s") + " down: " + why + "; " +
                      (d.redundancy_left == 0 ? std::string("no redundancy left")
                                              : "tolerates " + std::to_string(d.redundancy_left) + " more failure" +
                                                    (d.redundancy_left == 1 ? "" : "s") + " until repaired");
}

// Whether require_rebuild fails the design: it holds the data but cannot rebuild.
bool rebuild_missing(const Design& d, const Requirements& req) {
  return req.require_rebuild && !(d.rebuild_target && d.rebuild_space);
}

}  // namespace

double Requirements::growth() const { return std::pow(1 + growth_pct_per_year / 100, years); }

double Requirements::demand_iops() const {
  double sum = 0;
  for (const Demand& d : demands) sum += d.iops;
  return sum * growth();
}

double Requirements::demand_capacity_gb() const {
  double sum = 0;
  for (const Demand& d : demands) sum += d.capacity_tb;
  return sum * 1000 * growth();
}

std::string Design::describe() const {
  const std::string what = existing_hosts == 0 ? std::to_string(hosts) + " x " + host_model
                           : hosts == 0        ? std::to_string(existing_hosts) + " existing (none added)"
                                               : std::to_string(hosts) + " x " + host_model + " + " +
                                                     std::to_string(existing_hosts) + " existing";
  return what + ", " + network + ", " + policy;
}

std::vector<Design> candidate_designs(const Requirements& req, const HardwareCatalog& catalog) {
  std::vector<Design> out;
  for (const auto& h : req.host_models)
    for (const auto& n : req.networks)
      for (const auto& p : req.policies)
        for (int hosts = req.min_hosts; hosts <= req.max_hosts; ++hosts) {
          // Adding no host is one design whatever the host model: the first model's.
          if (hosts == 0 && &h != &req.host_models.front()) continue;
          Design d;
          d.candidate = out.size();
          d.host_model = h.label;
          d.network = n.label;
          d.policy = p.label;
          d.hosts = hosts;
          try {
            // Validity, capacity (every host up) and cost with a token of data (a candidate far
            // too small for the data would otherwise be refused as a unit typo), then the design
            // with its data.
            const Scenario degraded = detail::candidate_scenario(req, h, n, p, hosts, false, true, catalog);
            Scenario healthy = degraded;
            healthy.cluster.failed_hosts.clear();
            d.capacity = scenario_capacity(healthy);
            d.cost = bought_cost(req, healthy, n);
            d.existing_hosts = req.existing_hosts;
            set_data(d, req);
            set_redundancy(d, req, degraded);
            d.capacity_ok = d.capacity.usable_gb >= req.demand_capacity_gb() && !rebuild_missing(d, req);
            if (d.capacity_ok)
              d.scenario = detail::candidate_scenario(req, h, n, p, hosts, true, true, catalog, d.capacity.usable_gb);
            if (d.capacity.usable_gb < req.demand_capacity_gb())
              d.reason = "capacity: usable " + detail::fmt("%.1f", d.capacity.usable_gb / 1000) + " TB < " +
                         detail::fmt("%.1f", req.demand_capacity_gb() / 1000) + " TB";
            else if (!d.capacity_ok)
              d.reason = "require_rebuild: " + d.redundancy_note;
          } catch (const InvalidArgument& e) {
            d.valid = false;
            d.invalid_reason = detail::reason_of(e);
          }
          out.push_back(std::move(d));
        }
  return out;
}

namespace {

// A verdict that rests on fewer I/Os than its statistic needs (a demand so low that even the
// longest verdict window holds only a handful) says so.
std::string thin_verdict(const Requirements& req, const RunResult& run) {
  for (std::size_t g = 0; g < req.demands.size(); ++g) {
    const double done = static_cast<double>(req.grouped() ? run.groups.at(g).result.simulated_ios : run.result.simulated_ios);
    const double needed = completions_needed(req.demands[g].slo.stat);
    if (done < needed)
      return "the verdict rests on " + detail::fmt("%.0f", done) + " completed I/Os" +
             (req.grouped() ? " of workload " + req.demands[g].name : std::string()) + " in " +
             detail::fmt("%g", run.result.seconds) + " s; a " + latency_stat_name(req.demands[g].slo.stat) + " needs at least " +
             detail::fmt("%.0f", needed);
  }
  return "";
}

}  // namespace

void evaluate_design(Design& d, const Requirements& req, const RunResult& run) {
  d.simulated = true;
  d.window_note = thin_verdict(req, run);
  d.offered_iops = req.demand_iops();
  d.achieved_iops = run.result.iops;
  d.bottleneck = run.bottleneck;
  d.reason.clear();
  if (!req.grouped()) {
    const Requirements::Demand& q = req.demands.front();
    d.latency_ms = latency_statistic(run, q.slo.stat);
    const bool delivered = d.achieved_iops >= 0.97 * d.offered_iops;
    const bool fast = d.latency_ms <= q.slo.limit_ms;
    d.pass = delivered && fast;
    const std::string stat = latency_stat_name(q.slo.stat);
    if (!delivered)
      d.reason = "delivers " + detail::fmt("%.0f", d.achieved_iops) + " of " + detail::fmt("%.0f", d.offered_iops) + " IOPS (" + stat + " " +
                 detail::fmt("%.2f", d.latency_ms) + " ms; bottleneck " + d.bottleneck + ")";
    else if (!fast)
      d.reason = stat + " " + detail::fmt("%.2f", d.latency_ms) + " ms > " + detail::fmt("%g", q.slo.limit_ms) + " ms (bottleneck " +
                 d.bottleneck + ")";
    if (!d.window_note.empty() && !d.pass) d.reason += " (" + d.window_note + ")";
    return;
  }
  // Several groups: each must get 97 % of its own demand within its own target; the reason
  // names the first that does not, and latency_ms is the group's furthest past (or nearest
  // to) its target.
  d.pass = true;
  d.group_achieved_iops.clear();
  d.group_latency_ms.clear();
  double worst = -1;
  // A group's IOPS moves in steps of one I/O per window: a small group one or two I/Os short
  // of 97 % is counting, not a cluster that cannot keep up.
  const double counting = run.result.seconds > 0 ? 2 / run.result.seconds : 0;
  for (std::size_t g = 0; g < req.demands.size(); ++g) {
    const Requirements::Demand& q = req.demands[g];
    const GroupResult& r = run.groups.at(g);
    const double got = r.result.iops, lat = latency_statistic(r, q.slo.stat);
    d.group_achieved_iops.push_back(got);
    d.group_latency_ms.push_back(lat);
    if (lat / q.slo.limit_ms > worst) {
      worst = lat / q.slo.limit_ms;
      d.latency_ms = lat;
      d.latency_workload = q.name;
    }
    const std::string stat = latency_stat_name(q.slo.stat);
    std::string why;
    if (got + counting < 0.97 * req.group_iops(g))
      why = "delivers " + detail::fmt("%.0f", got) + " of " + detail::fmt("%.0f", req.group_iops(g)) + " IOPS (" + stat + " " + detail::fmt("%.2f", lat) +
            " ms; bottleneck " + d.bottleneck + ")";
    else if (lat > q.slo.limit_ms)
      why = stat + " " + detail::fmt("%.2f", lat) + " ms > " + detail::fmt("%g", q.slo.limit_ms) + " ms (bottleneck " + d.bottleneck + ")";
    if (!why.empty()) {
      d.pass = false;
      d.reason += (d.reason.empty() ? "" : "; ") + ("workload " + q.name + ": " + why);
    }
  }
}

namespace {

// The latency target latency_ms is measured against: the one demand's, or its workload's.
const KneeTarget& target_of(const Requirements& q, const Design& d) {
  for (const Requirements::Demand& x : q.demands)
    if (x.name == d.latency_workload) return x.slo;
  return q.demands.front().slo;
}

// On how many seeds of its range a design met the demand (the search's rule: 97 % delivered
// within the target).
int seeds_meeting(const Design& d, const Requirements& q) {
  if (d.range.seeds == 0) return 0;
  int met = 0;
  for (std::size_t k = 0; k < static_cast<std::size_t>(d.range.seeds); ++k) {
    bool ok = true;
    for (std::size_t g = 0; g < q.demands.size(); ++g) {
      const std::string suffix = q.grouped() ? "/" + q.demands[g].name : "";
      const double got = d.range.at("achieved_iops" + suffix).each[k], lat = d.range.at("latency_ms" + suffix).each[k];
      ok = ok && lat <= q.demands[g].slo.limit_ms && got >= 0.97 * q.group_iops(g);
    }
    met += ok ? 1 : 0;
  }
  return met;
}

// The answers a design's range carries: what it delivers and at what latency at the demand
// (per group with several: "achieved_iops/<name>", "latency_ms/<name>"), and its knee.
std::vector<std::string> range_names(const Requirements& q) {
  if (!q.grouped()) return {"achieved_iops", "latency_ms", "knee_iops"};
  std::vector<std::string> names;
  for (const Requirements::Demand& d : q.demands) {
    names.push_back("achieved_iops/" + d.name);
    names.push_back("latency_ms/" + d.name);
  }
  names.push_back("knee_iops");
  return names;
}

// The knee's target(s): the one demand's, or each group's own.
KneeOptions knee_options(const Requirements& q, int jobs, const ProgressFn& progress) {
  KneeOptions k;
  k.jobs = jobs;
  k.precision = 0.02;
  k.run_progress = progress;
  k.duration_key = "run.duration_s";
  if (q.grouped())
    for (const Requirements::Demand& d : q.demands) k.group_targets.push_back(d.slo);
  return k;
}

// The design at the demand, its window long enough for each workload's statistic: at least
// completions_needed I/Os of every workload at its own rate (and a quarter more for the 97 %
// delivery rule and spare), up to kMaxVerdictSeconds. Simulated time at a low rate costs
// little: the events are the I/Os.
constexpr double kMaxVerdictSeconds = 600;
Scenario verdict_scenario(const Scenario& s, const Requirements& q) {
  double window = s.workload.duration_s;
  for (std::size_t g = 0; g < q.demands.size(); ++g)
    window = std::max(window, std::min(kMaxVerdictSeconds, 1.25 * completions_needed(q.demands[g].slo.stat) / q.group_iops(g)));
  Scenario out = s;
  if (out.workload.auto_duration || window == out.workload.duration_s) return out;
  out.workload.duration_s = window;
  for (WorkloadSpec& g : out.groups) g.duration_s = window;
  return out;
}

// The design as the knee takes it: one workload as a closed loop (the knee sets the rate);
// several keep their rates, which set the mix the knee scales.
Scenario knee_scenario(const Scenario& s) {
  Scenario closed = s;
  if (closed.groups.empty()) closed.workload.iops_limit_per_vm = 0;
  return closed;
}

// An answer's range (plan/answer_range.hpp): at the demand on each seed (with the design's hosts
// down), what it delivers and at what latency, and its knee. The design is built again from
// the moved catalog (the same candidates in the same order).
Ranged design_range(const Design& d, const Requirements& req, const HardwareCatalog& catalog, int jobs,
                    const SizingOptions& options) {
  RangeOptions o;
  o.seeds = options.range_seeds;
  o.jobs = jobs;
  o.run_progress = options.run_progress;
  const std::size_t at = d.candidate;
  return answer_range(
      d.scenario,
      [&req, at, &d](const HardwareCatalog& moved) {
        const Design again = candidate_designs(req, moved).at(at);
        if (!again.valid || again.describe() != d.describe())
          throw InvalidArgument("size --range: " + d.describe() + " is not the same design under a moved calibration");
        return again.scenario;
      },
      catalog, range_names(req),
      [&req](const Scenario& s, const ProgressFn& progress) {
        const RunResult run = simulate(verdict_scenario(s, req), progress);
        // The seeds and parameters run in parallel, so each knee's probes one at a time.
        const KneeResult knee = find_knee(knee_scenario(s), req.demands.front().slo, knee_options(req, 1, progress));
        std::vector<double> v;
        if (!req.grouped()) {
          v = {run.result.iops, latency_statistic(run, req.demands.front().slo.stat)};
        } else {
          for (std::size_t g = 0; g < req.demands.size(); ++g) {
            v.push_back(run.groups.at(g).result.iops);
            v.push_back(latency_statistic(run.groups.at(g), req.demands[g].slo.stat));
          }
        }
        v.push_back(knee.found ? knee.iops : std::numeric_limits<double>::quiet_NaN());
        return v;
      },
      o);
}

// The blocks of candidate number `at` (candidate_designs' order).
struct CandidateBlocks {
  const Requirements::Block* host = nullptr;
  const Requirements::Block* net = nullptr;
  const Requirements::Block* policy = nullptr;
};
CandidateBlocks candidate_blocks(const Requirements& req, std::size_t at) {
  std::size_t i = 0;
  for (const auto& h : req.host_models)
    for (const auto& n : req.networks)
      for (const auto& p : req.policies)
        for (int hosts = req.min_hosts; hosts <= req.max_hosts; ++hosts) {
          if (hosts == 0 && &h != &req.host_models.front()) continue;
          if (i++ == at) return {&h, &n, &p};
        }
  throw InvalidArgument("sizing: no candidate number " + std::to_string(at));
}

}  // namespace

namespace {

// The analytic path's pruning: each design of the round as a closed network from its own pilot
// (plan/analytic.hpp); one whose ceiling is more than kPruneMargin short of 97 % of the demand
// (the delivery rule) fails here, and the rest go on to be simulated. A pilot that
// cannot build a model (no I/O completed) leaves its design to the simulator.
// The pilot measures utilisations, which settle in far fewer I/Os than a latency percentile:
// its measured window is at most this long (after the run's own warm-up).
constexpr double kPilotSeconds = 0.1;

// The search's order: cheapest first; at equal cost, the one that holds more (RAID-6 beside
// RAID-5 on the same hosts costs the same).
bool cheaper_first(const Design& a, const Design& b) {
  if (a.cost.total_usd() != b.cost.total_usd()) return a.cost.total_usd() < b.cost.total_usd();
  return a.capacity.usable_gb > b.capacity.usable_gb;
}

std::vector<Design*> prune_round(const std::vector<Design*>& round, const Requirements& req, int jobs,
                                 const SizingOptions& options, SizingResult& r) {
  std::vector<double> ceiling(round.size(), std::numeric_limits<double>::infinity());
  std::vector<std::string> station(round.size());
  parallel_for(round.size(), jobs, [&](std::size_t i) {
    try {
      Scenario pilot = knee_scenario(round[i]->scenario);
      pilot.workload.auto_duration = false;
      pilot.workload.duration_s = std::min(pilot.workload.duration_s, kPilotSeconds);
      ceiling[i] = analytic_ceiling(analytic_model(pilot, options.run_progress), &station[i]);
    } catch (const InvalidArgument&) {
    }
  });
  r.piloted += static_cast<int>(round.size());
  const double need = 0.97 * req.demand_iops();
  std::vector<Design*> keep;
  for (std::size_t i = 0; i < round.size(); ++i) {
    Design& d = *round[i];
    if (std::isfinite(ceiling[i])) {
      d.analytic_ceiling_iops = ceiling[i];
      d.analytic_station = station[i];
    }
    if (ceiling[i] < (1 - kPruneMargin) * need) {
      d.pruned = true;
      d.bottleneck = station[i];
      d.reason = "analytic ceiling " + detail::fmt("%.0f", ceiling[i]) + " IOPS (" + station[i] + " saturates) is short of " +
                 detail::fmt("%.0f", need) + " by more than " + detail::fmt("%.0f", kPruneMargin * 100) + " %; not simulated";
      r.cheaper_failures.push_back(d);
      ++r.pruned;
    } else {
      keep.push_back(&d);
    }
  }
  return keep;
}

}  // namespace

SizingResult size_cluster(const Requirements& req, const HardwareCatalog& catalog, const SizingOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  SizingResult r;
  r.req = req;
  std::vector<Design> all = candidate_designs(req, catalog);
  r.candidates = static_cast<int>(all.size());
  std::vector<Design*> order;
  for (Design& d : all) {
    if (!d.valid) {
      ++r.invalid;
      continue;
    }
    if (!d.cost.complete()) {
      std::string missing;
      for (const std::string& m : d.cost.missing) missing += (missing.empty() ? "" : ", ") + m;
      throw InvalidArgument(req.source + ": sizing ranks designs by cost, and " + d.describe() +
                            " has no price for: " + missing + " (give them in the file's prices: or --prices)");
    }
    if (!d.capacity_ok) ++(d.capacity.usable_gb < req.demand_capacity_gb() ? r.under_capacity : r.without_rebuild);
    order.push_back(&d);
  }
  std::stable_sort(order.begin(), order.end(), [](const Design* a, const Design* b) { return cheaper_first(*a, *b); });
  // In order of cost, `jobs` simulations at a time, until `top` pass: a round's passes are the
  // cheapest ones left, since every cheaper candidate has been decided.
  const int jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::size_t next = 0;
  while (static_cast<int>(r.answers.size()) < req.top && next < order.size()) {
    if (r.simulated + r.piloted >= req.max_simulations) {
      r.stopped = true;
      break;
    }
    std::vector<Design*> round;
    while (next < order.size() && static_cast<int>(round.size()) < jobs) {
      Design* d = order[next++];
      if (d->capacity_ok) round.push_back(d);
      else r.cheaper_failures.push_back(*d);
    }
    if (options.prune && !req.grouped()) round = prune_round(round, req, jobs, options, r);
    std::vector<Scenario> runs;
    for (const Design* d : round) runs.push_back(verdict_scenario(d->scenario, req));
    std::vector<RunResult> results(runs.size());
    parallel_for(runs.size(), jobs, [&](std::size_t i) { results[i] = simulate(runs[i], options.run_progress); });
    r.simulated += static_cast<int>(runs.size());
    for (std::size_t i = 0; i < round.size(); ++i) {
      evaluate_design(*round[i], req, results[i]);
      if (round[i]->pass && static_cast<int>(r.answers.size()) < req.top) r.answers.push_back(*round[i]);
      else if (!round[i]->pass) r.cheaper_failures.push_back(*round[i]);
    }
  }
  r.exhausted = !r.stopped && static_cast<int>(r.answers.size()) < req.top;
  // Pruned and simulated failures of one round were listed apart: cheapest first again.
  std::stable_sort(r.cheaper_failures.begin(), r.cheaper_failures.end(), cheaper_first);
  // Only failures cheaper than the last answer explain it; at its cost or beyond they are not
  // "cheaper".
  if (!r.answers.empty()) {
    const double limit = r.answers.back().cost.total_usd();
    std::erase_if(r.cheaper_failures, [limit](const Design& d) { return d.cost.total_usd() >= limit; });
  }
  double best_ratio = std::numeric_limits<double>::infinity();
  for (const Design& d : r.cheaper_failures) {
    if (d.simulated) {
      // Across workloads with other targets: the nearest to its own target.
      const double ratio = d.latency_ms / target_of(req, d).limit_ms;
      if (ratio < best_ratio) {
        best_ratio = ratio;
        r.best_failed_latency_ms = d.latency_ms;
        r.best_failed_workload = d.latency_workload;
      }
      r.best_failed_iops = std::max(r.best_failed_iops, d.achieved_iops);
    }
    r.largest_usable_gb = std::max(r.largest_usable_gb, d.capacity.usable_gb);
  }
  for (Design& d : r.answers) {
    if (options.knee) {
      // The same design as a closed loop (one workload: the knee bisects the offered load
      // itself) or at its groups' mix, scaled.
      d.knee = find_knee(knee_scenario(d.scenario), req.demands.front().slo, knee_options(req, jobs, options.run_progress));
    }
    if (options.range_seeds >= 2) d.range = design_range(d, req, catalog, jobs, options);
    // The scenario reader's capacity warning is left out: it measures the data against the
    // hosts that are up and keeps a rebuild reserve on them as well, where sizing checks
    // capacity with every host up (the reserve there is the rebuild space).
    for (const std::string& w : d.scenario.warnings)
      if (w.find("exceeds the cluster's usable capacity") == std::string::npos) d.warnings.push_back(w);
    d.scenario = Scenario{};
  }
  for (Design& d : r.cheaper_failures) d.scenario = Scenario{};
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

namespace {

// One demand in words: "300,000 IOPS of 8K, 70 % read, 100 % random at p95 <= 2 ms".
std::string demand_text(const Requirements& q, std::size_t g) {
  const Requirements::Demand& d = q.demands[g];
  return thousands(q.group_iops(g)) + " IOPS of " + detail::fmt("%.0f", static_cast<double>(d.block.count()) / 1024) + "K, " +
         detail::fmt("%.0f", d.read_pct) + " % read, " + detail::fmt("%.0f", d.random_pct) + " % random at " +
         latency_stat_name(d.slo.stat) + " <= " + detail::fmt("%g", d.slo.limit_ms) + " ms";
}

// The report's head: the requirements, the demand, the existing hosts and how many
// candidates were decided how.
std::string sizing_head(const SizingResult& r) {
  const Requirements& q = r.req;
  std::string out = "Requirements: " + q.name + " (" + q.source + ")\n";
  if (!q.grouped()) {
    out += "Demand: " + demand_text(q, 0);
  } else {
    out += "Demand: " + thousands(q.demand_iops()) + " IOPS in " + std::to_string(q.demands.size()) + " workloads at once (";
    for (std::size_t g = 0; g < q.demands.size(); ++g) out += (g ? "; " : "") + q.demands[g].name + ": " + demand_text(q, g);
    out += ")";
  }
  bool unstated = false;
  for (const Requirements::Demand& d : q.demands) unstated = unstated || d.capacity_tb <= 0;
  if (q.demand_capacity_gb() > 0) out += "; " + detail::fmt("%.1f", q.demand_capacity_gb() / 1000) + " TB usable";
  if (q.growth() != 1) out += " (today x " + detail::fmt("%.3f", q.growth()) + " growth)";
  if (unstated)
    out += std::string(q.demand_capacity_gb() > 0 ? "; the rest" : "; no capacity demand") +
           ": each design's VMDKs share its usable capacity (filled up to the reserve)";
  out += "; with " + std::to_string(q.host_failures) + " host" + (q.host_failures == 1 ? "" : "s") + " down\n";
  if (q.existing_hosts > 0)
    out += "Existing: " + std::to_string(q.existing_hosts) + " hosts, owned (a design costs the hosts it adds, " +
           std::to_string(q.min_hosts) + " to " + std::to_string(q.max_hosts) + "; the larger kind's hosts fail)\n";
  out += "Candidates: " + std::to_string(r.candidates) + " (" + std::to_string(r.invalid) + " not valid in vSAN, " +
         std::to_string(r.under_capacity) + " under the capacity" +
         (q.require_rebuild ? ", " + std::to_string(r.without_rebuild) + " without a rebuild after the failures" : "") +
         "); simulated " + std::to_string(r.simulated) +
         " in order of cost";
  if (r.piloted > 0)
    out += " (the analytic path piloted " + std::to_string(r.piloted) + " and failed " + std::to_string(r.pruned) +
           " of them without a run)";
  out += ", in " + detail::fmt("%.1f", r.wall_seconds) + " s\n";
  return out;
}

// Without an answer: which requirement, and by how much, over every candidate decided.
std::string no_answer_lines(const SizingResult& r) {
  const Requirements& q = r.req;
  const std::string stat = latency_stat_name(q.demands.front().slo.stat);
  std::string out = r.stopped ? "Stopped after run.max_simulations = " + std::to_string(q.max_simulations) +
                                    " simulations without an answer.\n"
                              : std::string("No candidate meets every requirement.\n");
  if (r.simulated == 0 && r.largest_usable_gb < q.demand_capacity_gb())
    out += "  capacity: the largest candidate holds " + detail::fmt("%.1f", r.largest_usable_gb / 1000) + " TB usable < " +
           detail::fmt("%.1f", q.demand_capacity_gb() / 1000) + " TB (raise hosts.max or add larger drives)\n";
  if (r.pruned > 0) {
    double best = 0;
    for (const Design& d : r.cheaper_failures)
      if (d.pruned) best = std::max(best, d.analytic_ceiling_iops);
    out += "  delivery: the analytic path's highest ceiling among the pruned designs was " + thousands(best) + " of " +
           thousands(q.demand_iops()) + " IOPS\n";
  }
  if (r.simulated > 0) {
    if (!q.grouped())
      out += "  latency and delivery: the best simulated design reached " + stat + " " +
             detail::fmt("%.3f", r.best_failed_latency_ms) + " ms against " + detail::fmt("%g", q.demands.front().slo.limit_ms) +
             " ms, and at most " + thousands(r.best_failed_iops) + " of " + thousands(q.demand_iops()) + " IOPS\n";
    else
      out += "  latency and delivery: the simulated design nearest its targets had workload " + r.best_failed_workload +
             " at " + detail::fmt("%.3f", r.best_failed_latency_ms) + " ms, its furthest from its target; at most " +
             thousands(r.best_failed_iops) + " of " + thousands(q.demand_iops()) +
             " IOPS were delivered in all (the failures below name each workload that fails)\n";
  }
  return out;
}

// The data a design simulated: each demand's VMDKs and their size, and where that comes from.
std::string data_line(const Design& d, const Requirements& q) {
  std::string out = "     data simulated: ";
  for (std::size_t g = 0; g < q.demands.size() && g < d.vmdk_gb.size(); ++g)
    out += (g ? ", " : "") + (q.grouped() ? q.demands[g].name + " " : std::string()) +
           std::to_string(q.demands[g].vms * detail::kVmdksPerVm) + " VMDKs of " + detail::fmt("%.1f", d.vmdk_gb[g]) + " GB" +
           (q.demands[g].capacity_tb > 0 ? " (its capacity demand)" : " (no capacity demand: the usable capacity shared)");
  return out + "; " + detail::fmt("%.2f", d.data_gb / 1000) + " TB in all\n";
}

// An answer's knee line: its IOPS and headroom over the demand, or that none was found.
std::string knee_line(const Design& d, const Requirements& q) {
  const std::string stat = latency_stat_name(q.demands.front().slo.stat);
  const double headroom = d.knee.iops / q.demand_iops() - 1;
  // A pass delivers 97 % of the demand and the knee is found to 2 %: a knee a few percent
  // under the demand is the design at its limit, not a contradiction. Further under, the
  // knee's windows and the verdict's disagree, which the line says.
  const std::string under = headroom >= 0       ? ""
                            : headroom >= -0.05 ? ": at its limit, within the 97 % delivery rule and the knee's 2 % precision"
                                                : ": below the demand the design passed at; the knee's windows and the verdict's disagree";
  if (d.knee.found)
    return "     knee: " + thousands(d.knee.iops) + " IOPS " +
           (q.grouped() ? std::string("in the demand's mix, each workload within its target")
                        : "at " + stat + " " + detail::fmt("%.2f", d.knee.latency_ms) + " ms") +
           " (" + detail::fmt("%.0f", 100 * headroom) + " % headroom" + under + "), bottleneck " + d.knee.bottleneck +
           (d.knee.ceiling ? " (the VMs' outstanding I/O sets it)" : "") + "\n";
  if (d.knee.window_short)
    return "     knee: not found (" + d.knee.window_note + ")\n";
  if (!d.knee.probes.empty() || d.knee.closed_loop_iops > 0) return "     knee: not found (no probe met the target)\n";
  return "";
}

// An answer's range line (with --range): its latencies at the demand, its knee and on how
// many seeds it meets the demand.
std::string range_line(const Design& d, const Requirements& q) {
  const AnswerRange& knee = d.range.at("knee_iops");
  const int met = seeds_meeting(d, q);
  std::string latencies;
  bool past = false;
  for (std::size_t g = 0; g < q.demands.size(); ++g) {
    const AnswerRange& lat = d.range.at(q.grouped() ? "latency_ms/" + q.demands[g].name : std::string("latency_ms"));
    latencies += (g ? ", " : "") + (q.grouped() ? q.demands[g].name + " " : std::string()) +
                 latency_stat_name(q.demands[g].slo.stat) + " " + detail::fmt("%.3f", lat.low) + " .. " +
                 detail::fmt("%.3f", lat.high) + " ms";
    past = past || lat.high > q.demands[g].slo.limit_ms;
  }
  return "     range over " + std::to_string(d.range.seeds) + " seeds and the calibration (95 %, one cluster): " +
         latencies + " at the demand, knee " +
         (std::isfinite(knee.low) ? thousands(knee.low) + " .. " + thousands(knee.high) + " IOPS"
                                  : "found on " + std::to_string(knee.found) + " of " + std::to_string(d.range.seeds) + " seeds") +
         "; meets the demand on " + std::to_string(met) + " of " + std::to_string(d.range.seeds) + " seeds" +
         (past ? " (the range reaches past the target)" : "") + "\n";
}

// The answers, cheapest first, each with its cost, what it delivers, its warnings, knee and
// range.
std::string answer_lines(const SizingResult& r) {
  const Requirements& q = r.req;
  const std::string stat = latency_stat_name(q.demands.front().slo.stat);
  std::string out = "Cheapest designs that meet every requirement (each simulated with " + std::to_string(q.host_failures) +
                    " host(s) down at the demand):\n";
  for (std::size_t i = 0; i < r.answers.size(); ++i) {
    const Design& d = r.answers[i];
    out += " " + std::to_string(i + 1) + ". " + d.describe() + ": " + format_usd(d.cost.total_usd()) + ", " +
           format_usd(d.cost.per_usable_tb(d.capacity)) + " per usable TB, $" +
           detail::fmt("%.3f", d.cost.total_usd() / q.demand_iops()) + " per IOPS demanded\n     delivers " +
           detail::fmt("%.0f", d.achieved_iops) + " IOPS";
    if (!q.grouped()) {
      out += " at " + stat + " " + detail::fmt("%.3f", d.latency_ms) + " ms";
    } else {
      for (std::size_t g = 0; g < q.demands.size() && g < d.group_latency_ms.size(); ++g)
        out += std::string(g ? ", " : " (") + q.demands[g].name + " " + detail::fmt("%.0f", d.group_achieved_iops[g]) +
               " at " + latency_stat_name(q.demands[g].slo.stat) + " " + detail::fmt("%.3f", d.group_latency_ms[g]) + " ms";
      out += ")";
    }
    out += "; usable " + detail::fmt("%.1f", d.capacity.usable_gb / 1000) + " TB\n" + data_line(d, q);
    if (!d.redundancy_note.empty()) out += "     redundancy: " + d.redundancy_note + "\n";
    for (const std::string& w : d.warnings) out += "     warning: " + w + "\n";
    if (!d.window_note.empty()) out += "     warning: " + d.window_note + "\n";
    out += knee_line(d, q);
    if (d.range.seeds > 0) out += range_line(d, q);
  }
  // Every answer's range is over the same seeds and parameters: what they cover, once.
  for (const Design& d : r.answers)
    if (d.range.seeds > 0) {
      out += format_range_parts(d.range);
      break;
    }
  if (r.exhausted) out += "(fewer designs than asked for: every candidate was tried)\n";
  if (r.stopped) out += "(fewer designs than asked for: stopped at run.max_simulations)\n";
  if (q.host_failures > 1)
    out += "Capacity is checked with every host up: the reserve keeps one host's rebuild space, not " +
           std::to_string(q.host_failures) + ".\n";
  return out;
}

// The cheaper candidates and why each fails (the first 40; --json lists all).
std::string failure_lines(const SizingResult& r) {
  if (r.cheaper_failures.empty()) return "";
  std::string out =
      r.answers.empty() ? "Candidates and why they fail (cheapest first):\n" : "Cheaper candidates and why they fail:\n";
  constexpr std::size_t kShown = 40;
  for (std::size_t i = 0; i < r.cheaper_failures.size() && i < kShown; ++i) {
    const Design& d = r.cheaper_failures[i];
    std::string data;   // a simulated or piloted design whose VMDKs filled its usable capacity: their size
    if ((d.simulated || d.pruned) && d.vmdks_fill_usable)
      for (std::size_t g = 0; g < d.vmdk_gb.size(); ++g)
        if (r.req.demands[g].capacity_tb <= 0) data += (data.empty() ? " (" : ", ") + detail::fmt("%.1f", d.vmdk_gb[g]) + " GB VMDKs";
    if (!data.empty()) data += ")";
    out += "  " + format_usd(d.cost.total_usd()) + "  " + d.describe() + ": " + d.reason + data +
           (d.redundancy_note.empty() || d.reason.rfind("require_rebuild", 0) == 0 ? "" : " [" + d.redundancy_note + "]") + "\n";
  }
  if (r.cheaper_failures.size() > kShown)
    out += "  ... and " + std::to_string(r.cheaper_failures.size() - kShown) + " more (--json lists all)\n";
  return out;
}

}  // namespace

std::string format_sizing(const SizingResult& r) {
  return sizing_head(r) + (r.answers.empty() ? no_answer_lines(r) : answer_lines(r)) + failure_lines(r);
}

std::string to_json(const SizingResult& r) {
  const Requirements& q = r.req;
  std::string workloads = "[";   // every demand (one without a name for `workload:`)
  for (std::size_t g = 0; g < q.demands.size(); ++g) {
    const Requirements::Demand& d = q.demands[g];
    workloads += (g ? ", " : "") + std::string("{\"name\": ") + json_string(d.name) + ", \"demand_iops\": " +
                 json_number(q.group_iops(g)) + ", \"block_size_bytes\": " + std::to_string(d.block.count()) +
                 ", \"read_pct\": " + json_number(d.read_pct) + ", \"random_pct\": " + json_number(d.random_pct) +
                 ", \"stat\": \"" + latency_stat_name(d.slo.stat) + "\", \"limit_ms\": " + json_number(d.slo.limit_ms) +
                 ", \"capacity_gb\": " + json_number(d.capacity_tb * 1000 * q.growth()) + ", \"vms\": " +
                 std::to_string(d.vms) + "}";
  }
  workloads += "]";
  const auto numbers = [](const std::vector<double>& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_number(v[i]);
    return out + "]";
  };
  const auto design = [&q, &numbers](const Design& d) {
    return "{\"hosts\": " + std::to_string(d.hosts) + ", \"existing_hosts\": " + std::to_string(d.existing_hosts) +
           ", \"host_model\": " + json_string(d.host_model) +
           ", \"network\": " + json_string(d.network) + ", \"policy\": " + json_string(d.policy) +
           ", \"cost_usd\": " + json_number(d.cost.total_usd()) +
           ", \"cost_per_usable_tb_usd\": " + json_number(d.cost.per_usable_tb(d.capacity)) +
           ", \"cost_per_demanded_iops_usd\": " + json_number(d.cost.total_usd() / q.demand_iops()) +
           ", \"usable_gb\": " + json_number(d.capacity.usable_gb) + ", \"simulated\": " + (d.simulated ? "true" : "false") +
           ", \"pruned\": " + (d.pruned ? "true" : "false") + ", \"analytic_ceiling_iops\": " +
           json_number(d.analytic_ceiling_iops > 0 ? d.analytic_ceiling_iops : std::nan("")) +
           ", \"offered_iops\": " + json_number(d.offered_iops) + ", \"achieved_iops\": " + json_number(d.achieved_iops) +
           ", \"latency_ms\": " + json_number(d.latency_ms) + ", \"bottleneck\": " + json_string(d.bottleneck) +
           ", \"knee_iops\": " + json_number(d.knee.found ? d.knee.iops : std::nan("")) +
           ", \"knee_latency_ms\": " + json_number(d.knee.found && !q.grouped() ? d.knee.latency_ms : std::nan("")) +
           ", \"latency_workload\": " + (q.grouped() ? json_string(d.latency_workload) : std::string("null")) +
           ", \"knee_bottleneck\": " + json_string(d.knee.bottleneck) +
           ", \"knee_window_too_short\": " + (d.knee.window_short ? "true" : "false") +
           ", \"knee_note\": " + json_string(d.knee.window_note) + ", \"window_note\": " + json_string(d.window_note) +
           ", \"pass\": " + (d.pass ? "true" : "false") + ", \"reason\": " + json_string(d.reason) +
           ", \"group_achieved_iops\": " + numbers(d.group_achieved_iops) + ", \"group_latency_ms\": " +
           numbers(d.group_latency_ms) +
           ", \"range\": " + (d.range.seeds > 0 ? to_json(d.range) : std::string("null")) +
           ", \"seeds_meeting_demand\": " + (d.range.seeds > 0 ? std::to_string(seeds_meeting(d, q)) : std::string("null")) +
           ", \"vmdk_gb\": " + numbers(d.vmdk_gb) + ", \"vmdks_fill_usable\": " + (d.vmdks_fill_usable ? "true" : "false") +
           ", \"data_gb\": " + json_number(d.data_gb) + ", \"rebuild_target\": " + (d.rebuild_target ? "true" : "false") +
           ", \"rebuild_space\": " + (d.rebuild_space ? "true" : "false") + ", \"redundancy_left\": " +
           std::to_string(d.redundancy_left) + ", \"redundancy_note\": " + json_string(d.redundancy_note) + "}";
  };
  std::string j = "{\"name\": " + json_string(q.name) + ", \"source\": " + json_string(q.source) +
                  ", \"demand_iops\": " + json_number(q.demand_iops()) + ", \"demand_capacity_gb\": " +
                  json_number(q.demand_capacity_gb()) + ", \"stat\": \"" + latency_stat_name(q.demands.front().slo.stat) +
                  "\", \"limit_ms\": " + json_number(q.demands.front().slo.limit_ms) + ", \"workloads\": " + workloads +
                  ", \"existing_hosts\": " + std::to_string(q.existing_hosts) + ", \"host_failures\": " +
                  std::to_string(q.host_failures) + ", \"candidates\": " + std::to_string(r.candidates) +
                  ", \"invalid\": " + std::to_string(r.invalid) + ", \"under_capacity\": " + std::to_string(r.under_capacity) +
                  ", \"require_rebuild\": " + (q.require_rebuild ? "true" : "false") +
                  ", \"without_rebuild\": " + std::to_string(r.without_rebuild) +
                  ", \"simulated\": " + std::to_string(r.simulated) + ", \"piloted\": " + std::to_string(r.piloted) +
                  ", \"pruned\": " + std::to_string(r.pruned) + ", \"wall_seconds\": " + json_number(r.wall_seconds) +
                  ", \"answers\": [";
  for (std::size_t i = 0; i < r.answers.size(); ++i) j += (i ? ", " : "") + design(r.answers[i]);
  j += "], \"cheaper_failures\": [";
  for (std::size_t i = 0; i < r.cheaper_failures.size(); ++i) j += (i ? ", " : "") + design(r.cheaper_failures[i]);
  return j + "]}\n";
}

Scenario design_scenario(const Design& d, const Requirements& req, const HardwareCatalog& catalog,
                         const std::vector<std::string>& overrides) {
  if (!d.valid || !d.capacity_ok)
    throw InvalidArgument("sizing: " + d.describe() + " is " + (d.valid ? "short of capacity" : "not valid") +
                          ": it has no scenario to simulate");
  const CandidateBlocks b = candidate_blocks(req, d.candidate);
  return detail::candidate_scenario(req, *b.host, *b.net, *b.policy, d.hosts, true, true, catalog, d.capacity.usable_gb,
                                    overrides);
}

Sensitivity design_sensitivity(const Design& d, const Requirements& req, const HardwareCatalog& catalog,
                               const SensitivityOptions& options) {
  const SensitivityReader read = [&req, &d](const HardwareCatalog& c, const std::vector<std::string>& overrides) {
    return design_scenario(d, req, c, overrides);
  };
  return sensitivity(read(catalog, {}), read, catalog, {"margin_pct", "achieved_iops", "latency_ms"},
                     [&req](const Scenario& s, const ProgressFn& progress) {
                       const RunResult run = simulate(verdict_scenario(s, req), progress);
                       Design v;
                       evaluate_design(v, req, run);
                       // latency_ms is the one demand's, or the group's furthest past its target.
                       double limit = req.demands.front().slo.limit_ms;
                       for (const Requirements::Demand& q : req.demands)
                         if (q.name == v.latency_workload) limit = q.slo.limit_ms;
                       const double latency_room = 100 * (1 - v.latency_ms / limit);
                       const double delivery_room = 100 * (v.achieved_iops / (0.97 * v.offered_iops) - 1);
                       return SensitivityAnswer{{std::min(latency_room, delivery_room), v.achieved_iops, v.latency_ms},
                                                v.bottleneck};
                     },
                     options);
}

}  // namespace hcisim
