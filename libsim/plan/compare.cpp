// Two designs side by side (plan/compare.hpp).
#include "hcisim/plan/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <utility>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/report/run_report.hpp"

namespace hcisim {

namespace {

// printf into a string.
[[gnu::format(printf, 2, 3)]] void appendf(std::string& out, const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  if (n < 0) return;
  if (static_cast<std::size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<std::size_t>(n));
    return;
  }
  std::string big(static_cast<std::size_t>(n) + 1, '\0');
  va_start(args, fmt);
  std::vsnprintf(big.data(), big.size(), fmt, args);
  va_end(args);
  out.append(big.data(), static_cast<std::size_t>(n));
}

// One row of the table: A, B, B - A and the change in per cent. A change relative to zero has
// no percentage: "n/a" (0 -> 0 is no change). A side without a value (NaN, e.g. a knee not
// found) shows "-", and the row has no delta: "n/a".
void delta_row(std::string& out, const char* name, double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) {
    const auto cell = [](double v) {
      char buf[32];
      if (std::isfinite(v)) std::snprintf(buf, sizeof buf, "%.2f", v);
      else std::snprintf(buf, sizeof buf, "-");
      return std::string(buf);
    };
    appendf(out, "%-26s %14s %14s %14s %9s\n", name, cell(x).c_str(), cell(y).c_str(), "n/a", "n/a");
    return;
  }
  if (x == 0 && y != 0) {
    appendf(out, "%-26s %14.2f %14.2f %+14.2f %9s\n", name, x, y, y - x, "n/a");
    return;
  }
  const double pct = x != 0 ? 100.0 * (y - x) / std::fabs(x) : 0.0;
  appendf(out, "%-26s %14.2f %14.2f %+14.2f %+8.1f%%\n", name, x, y, y - x, pct);
}

// One side of compare's cost rows: its cost, capacity and the IOPS it is divided by.
struct CostSide {
  const ClusterCost& cost;
  const CapacityReport& capacity;
  double iops;
};

// compare's cost rows (report/cost.hpp): the totals when both are complete, else what is
// priced; and what the change costs per extra IOPS, which is exact whenever both sides lack
// the same prices (the unpriced parts are then the same on both sides and cancel), said
// with the load (`where`) it was taken at.
template <class Row>
void compare_cost(std::string& out, const CostSide& a, const CostSide& b, const Row& row, const std::string& where) {
  const ClusterCost &ca = a.cost, &cb = b.cost;
  if (!ca.shown && !cb.shown) return;
  const bool complete = ca.complete() && cb.complete();
  row(complete ? "cost ($)" : "cost priced so far ($)", ca.priced_usd, cb.priced_usd);
  if (complete) {
    if (std::isfinite(a.iops) && std::isfinite(b.iops))   // a knee not found has no IOPS to divide by
      row("cost per IOPS ($)", ca.per_iops(a.iops), cb.per_iops(b.iops));
    row("cost per usable TB ($)", ca.per_usable_tb(a.capacity), cb.per_usable_tb(b.capacity));
  }
  for (const auto& [side, c] : {std::pair<const char*, const ClusterCost*>{"A", &ca}, {"B", &cb}})
    if (!c->complete()) {
      std::string missing;
      for (const std::string& m : c->missing) missing += (missing.empty() ? "" : ", ") + m;
      appendf(out, "%-26s %s has no price for: %s\n", "", side, missing.c_str());
    }
  const double per = cost_per_extra_iops(ca, a.iops, cb, b.iops);
  if (std::isfinite(per))
    appendf(out, "%-26s B - A costs $%.3f per extra IOPS, %s%s\n", "", per, where.c_str(),
            complete ? "" : " (the unpriced parts are the same on both sides)");
}

// A run's load, and whether it is one closed loop (VMs x VMDKs x outstanding I/O).
std::string run_load(const RunResult& r, bool& closed) {
  const WorkloadSpec& w = r.workload;
  closed = r.groups.empty() && w.iops_limit_per_vm == 0 && w.latency_target_ms == 0;
  if (!closed) return r.inputs.workload;
  return std::to_string(r.vms) + " VMs x " + std::to_string(w.vmdks_per_vm) + " VMDKs x " +
         std::to_string(w.outstanding_per_vmdk) + " outstanding";
}

// An error from one side's run, named by that side's label once: the run's own errors may
// already start with the scenario's file.
std::string side_error(const std::string& label, const std::string& what) {
  return what.starts_with(label + ": ") ? what : label + ": " + what;
}

}  // namespace

double cost_per_extra_iops(const ClusterCost& a, double iops_a, const ClusterCost& b, double iops_b) {
  const double extra = iops_b - iops_a;
  if (a.missing != b.missing || extra == 0 || !std::isfinite(extra)) return std::nan("");
  return (b.priced_usd - a.priced_usd) / extra;
}

std::string measured_at(const RunResult& a, const RunResult& b) {
  bool closed_a = false, closed_b = false;
  const std::string la = run_load(a, closed_a), lb = run_load(b, closed_b);
  const std::string what = closed_a && closed_b ? "measured at each file's closed loop: " : "measured at each file's load: ";
  return what + (la == lb ? la : "A " + la + "; B " + lb);
}

Comparison compare(const Scenario& a, const Scenario& b, const std::string& label_a, const std::string& label_b,
                   const ProgressFn& progress) {
  Comparison c;
  c.name_a = a.name;
  c.name_b = b.name;
  parallel_for(2, 2, [&](std::size_t side) {
    try {
      (side == 0 ? c.a : c.b) = simulate(side == 0 ? a : b, progress);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(side_error(side == 0 ? label_a : label_b, e.what()));
    }
  });
  return c;
}

std::string to_json(const Comparison& c) {
  std::string a = to_json(c.a), b = to_json(c.b);
  a.pop_back();   // their newlines
  b.pop_back();
  const double per = cost_per_extra_iops(c.a.cost, c.a.result.iops, c.b.cost, c.b.result.iops);
  return "{\"a\": " + a + ", \"b\": " + b + ", \"measured_at\": " + json_string(measured_at(c.a, c.b)) +
         ", \"cost_per_extra_iops_usd\": " + json_number(per) + "}\n";
}

std::string comparison_csv(const Comparison& c) {
  return "side," + csv_header() + "\na," + csv_row(c.a) + "\nb," + csv_row(c.b) + "\n";
}

std::string format_comparison(const Comparison& c) {
  const RunResult &ra = c.a, &rb = c.b;
  std::string out;
  const std::string where = measured_at(ra, rb);
  appendf(out, "A: %s\nB: %s\nDeltas %s (compare --p95-ms X compares the knees)\n\n%-26s %14s %14s %14s %9s\n",
          c.name_a.c_str(), c.name_b.c_str(), where.c_str(), "metric", "A", "B", "B - A", "change");
  auto row = [&out](const char* name, double x, double y) { delta_row(out, name, x, y); };
  row("IOPS", ra.result.iops, rb.result.iops);
  row("throughput (MB/s)", ra.result.throughput_mbps, rb.result.throughput_mbps);
  row("read latency (ms)", ra.result.read_latency_ms, rb.result.read_latency_ms);
  row("write latency (ms)", ra.result.write_latency_ms, rb.result.write_latency_ms);
  row("read p95 (ms)", ra.result.read_p95_ms, rb.result.read_p95_ms);
  row("write p95 (ms)", ra.result.write_p95_ms, rb.result.write_p95_ms);
  // Where the latency changed (latency_split.hpp): the parts either side has.
  for (std::size_t op = 0; op < 2; ++op)
    for (std::size_t p = 0; p < kLatencyParts; ++p) {
      const double x = ra.result.split_ms[op][p], y = rb.result.split_ms[op][p];
      if (std::max(x, y) < 0.0005) continue;
      const std::string name = std::string(op == 0 ? "  read " : "  write ") + latency_part_name(p) + " (ms)";
      row(name.c_str(), x, y);
    }
  row("usable capacity (GB)", ra.capacity.usable_gb, rb.capacity.usable_gb);
  // Workload groups that both sides run, by name: what one group gains or loses (e.g. OLTP
  // beside a backup stream against OLTP alone).
  for (const GroupResult& ga : ra.groups)
    for (const GroupResult& gb : rb.groups) {
      if (ga.name != gb.name) continue;
      const std::string g = "group " + ga.name + " ";
      row((g + "IOPS").c_str(), ga.result.iops, gb.result.iops);
      row((g + "read lat (ms)").c_str(), ga.result.read_latency_ms, gb.result.read_latency_ms);
      row((g + "write lat (ms)").c_str(), ga.result.write_latency_ms, gb.result.write_latency_ms);
    }
  compare_cost(out, {ra.cost, ra.capacity, ra.result.iops}, {rb.cost, rb.capacity, rb.result.iops}, row, where);
  // Run-to-run noise: each side's 95 % half-width, and whether the IOPS change is beyond the
  // two combined (independent runs: the half-widths add in quadrature).
  const ConfidenceInterval &ia = ra.result.iops_ci, &ib = rb.result.iops_ci;
  const double both = std::hypot(ia.half_width, ib.half_width);
  appendf(out, "\n95 %% intervals (batch means): IOPS A +-%.2f %%, B +-%.2f %%; mean latency A +-%.2f %%, B +-%.2f %%\n",
              100 * ia.relative(), 100 * ib.relative(), 100 * ra.result.latency_ci_ms.relative(),
              100 * rb.result.latency_ci_ms.relative());
  if (std::isfinite(both))
    appendf(out, "the IOPS change (%+.0f) is %s their combined half-width (+-%.0f)\n", rb.result.iops - ra.result.iops,
                std::fabs(rb.result.iops - ra.result.iops) > both ? "beyond" : "WITHIN", both);
  appendf(out, "\nbottleneck A: %s\nbottleneck B: %s\n", ra.bottleneck.c_str(), rb.bottleneck.c_str());
  for (const RunResult* r : {&ra, &rb})
    for (const std::string& w : r->window_warnings) appendf(out, "warning: %s: %s\n", r == &ra ? "A" : "B", w.c_str());
  // Two runs limited by their hosts' CPUs cannot show what a storage or network change buys;
  // a planner should be told so next to the numbers.
  const auto cpu_bound = [](const RunResult& r) { return r.bottleneck.rfind("cpu", 0) == 0; };
  if (cpu_bound(ra) && cpu_bound(rb))
    appendf(out, "note: both runs are CPU-bound: a different cache or capacity device, disk-group layout or\n"
                "      network shows only once the hosts' CPUs are no longer the limit\n");
  return out;
}

KneeComparison compare_knees(const Scenario& a, const Scenario& b, const KneeTarget& target,
                             const KneeOptions& options, const std::string& label_a, const std::string& label_b) {
  KneeComparison c;
  c.name_a = a.name;
  c.name_b = b.name;
  c.target = target;
  for (int side = 0; side < 2; ++side) try {
      (side == 0 ? c.a : c.b) = find_knee(side == 0 ? a : b, target, options);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(side_error(side == 0 ? label_a : label_b, e.what()));
    }
  return c;
}

namespace {

// "each design's knee (p95 <= 2 ms)": where compare's knee deltas are taken.
std::string knee_where(const KneeTarget& t) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "measured at each design's knee (%s <= %g ms)", latency_stat_name(t.stat), t.limit_ms);
  return buf;
}

// A side's knee, or NaN when none was found (nothing to take a cost per extra IOPS at).
double knee_iops(const KneeResult& k) { return k.found ? k.iops : std::nan(""); }

// A side's latency at its knee, or NaN when none was found ("-" in the table).
double knee_latency_ms(const KneeResult& k) { return k.found ? k.latency_ms : std::nan(""); }

// What a side's knee rests on, when it is not the cluster: its own outstanding I/O, a window
// too short, or no load at all meeting the target (knee.hpp's format_knee words).
void knee_notes(std::string& out, const char* side, const KneeResult& k) {
  if (k.window_short)
    appendf(out, "note: %s's knee not found: %s\n", side, k.window_note.c_str());
  else if (!k.found)
    appendf(out, "note: %s: no offered load meets the target: even the lightest probe is above it\n", side);
  else if (k.ceiling)
    appendf(out, "note: %s's closed loop itself meets the target, so the workload's outstanding I/O (%d), not the "
                 "cluster, sets the limit (raise it to look further)\n", side, k.outstanding);
}

}  // namespace

std::string format_comparison(const KneeComparison& c) {
  const KneeResult &ka = c.a, &kb = c.b;
  const std::string stat = latency_stat_name(c.target.stat);
  const std::string where = knee_where(c.target);
  std::string out;
  appendf(out, "A: %s\nB: %s\nKnees: the highest IOPS with %s latency <= %g ms (offered load bisected, as knee)\n\n"
               "%-26s %14s %14s %14s %9s\n",
          c.name_a.c_str(), c.name_b.c_str(), stat.c_str(), c.target.limit_ms, "metric", "A", "B", "B - A", "change");
  auto row = [&out](const char* name, double x, double y) { delta_row(out, name, x, y); };
  row("knee IOPS", knee_iops(ka), knee_iops(kb));
  row((stat + " at the knee (ms)").c_str(), knee_latency_ms(ka), knee_latency_ms(kb));
  row("closed loop IOPS", ka.closed_loop_iops, kb.closed_loop_iops);
  row(("closed loop " + stat + " (ms)").c_str(), ka.closed_loop_latency_ms, kb.closed_loop_latency_ms);
  row("usable capacity (GB)", ka.capacity.usable_gb, kb.capacity.usable_gb);
  compare_cost(out, {ka.cost, ka.capacity, knee_iops(ka)}, {kb.cost, kb.capacity, knee_iops(kb)}, row, where);
  appendf(out, "\nbottleneck A at the knee: %s\nbottleneck B at the knee: %s\n", ka.found ? ka.bottleneck.c_str() : "-",
          kb.found ? kb.bottleneck.c_str() : "-");
  knee_notes(out, "A", ka);
  knee_notes(out, "B", kb);
  return out;
}

std::string to_json(const KneeComparison& c) {
  std::string a = to_json(c.name_a, c.a), b = to_json(c.name_b, c.b);
  a.pop_back();   // their newlines
  b.pop_back();
  const double per = cost_per_extra_iops(c.a.cost, knee_iops(c.a), c.b.cost, knee_iops(c.b));
  return "{\"stat\": \"" + std::string(latency_stat_name(c.target.stat)) + "\", \"limit_ms\": " +
         json_number(c.target.limit_ms) + ", \"measured_at\": " + json_string(knee_where(c.target)) + ", \"a\": " + a +
         ", \"b\": " + b + ", \"knee_iops_delta\": " + json_number(knee_iops(c.b) - knee_iops(c.a)) +
         ", \"cost_per_extra_iops_usd\": " + json_number(per) + "}\n";
}

namespace {
// The overrides that act on a side (`names`: the assumptions that apply to it); the others
// leave it as it is.
std::vector<std::string> acting_on(const std::vector<std::string>& names, const std::vector<std::string>& overrides) {
  std::vector<std::string> out;
  for (const std::string& o : overrides)
    if (std::find(names.begin(), names.end(), o.substr(0, o.find('='))) != names.end()) out.push_back(o);
  return out;
}
}  // namespace

Sensitivity compare_sensitivity(const Scenario& a, const Scenario& b, const SensitivityReader& read_a,
                                const SensitivityReader& read_b, const HardwareCatalog& catalog,
                                const SensitivityOptions& options) {
  ComparisonAssumptions as = comparison_assumptions(a, b, catalog);
  // A calibration parameter moves both sides' catalog: where it does not act it changes nothing.
  Sensitivity r = sensitivity(
      as.assumptions, catalog, {"iops_b_minus_a", "iops_a", "iops_b"},
      [&](const HardwareCatalog& c, const std::vector<std::string>& overrides, std::uint64_t offset,
          const ProgressFn& progress) {
        Scenario ma = read_a(c, acting_on(as.on_a, overrides)), mb = read_b(c, acting_on(as.on_b, overrides));
        ma.replication += offset;
        mb.replication += offset;
        const RunResult ra = simulate(ma, progress), rb = simulate(mb, progress);
        // Each side's IOPS moves in steps of one I/O over its window: 2 I/Os over it, both sides'.
        const auto step = [](const RunResult& side) {
          return side.result.seconds > 0 ? 2 / side.result.seconds : 0.0;
        };
        return SensitivityAnswer{{rb.result.iops - ra.result.iops, ra.result.iops, rb.result.iops},
                                 "A: " + ra.bottleneck + "; B: " + rb.bottleneck, step(ra) + step(rb)};
      },
      options);
  r.skipped = std::move(as.skipped);
  return r;
}

}  // namespace hcisim
