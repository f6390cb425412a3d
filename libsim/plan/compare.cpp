// Two designs side by side (plan/compare.hpp).
#include "hcisim/plan/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <utility>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/parallel.hpp"
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

// compare's cost rows (report/cost.hpp): the totals when both are complete, else what is
// priced; and what the change costs per extra IOPS, which is exact whenever both sides lack
// the same prices (the unpriced parts are then the same on both sides and cancel).
template <class Row>
void compare_cost(std::string& out, const RunResult& ra, const RunResult& rb, const Row& row) {
  const ClusterCost &ca = ra.cost, &cb = rb.cost;
  if (!ca.shown && !cb.shown) return;
  const bool complete = ca.complete() && cb.complete();
  row(complete ? "cost ($)" : "cost priced so far ($)", ca.priced_usd, cb.priced_usd);
  if (complete) {
    row("cost per IOPS ($)", ca.per_iops(ra.result.iops), cb.per_iops(rb.result.iops));
    row("cost per usable TB ($)", ca.per_usable_tb(ra.capacity), cb.per_usable_tb(rb.capacity));
  }
  for (const auto& [side, c] : {std::pair<const char*, const ClusterCost*>{"A", &ca}, {"B", &cb}})
    if (!c->complete()) {
      std::string missing;
      for (const std::string& m : c->missing) missing += (missing.empty() ? "" : ", ") + m;
      appendf(out, "%-26s %s has no price for: %s\n", "", side, missing.c_str());
    }
  const double extra = rb.result.iops - ra.result.iops;
  if (ca.missing == cb.missing && extra != 0)
    appendf(out, "%-26s B - A costs $%.3f per extra IOPS%s\n", "", (cb.priced_usd - ca.priced_usd) / extra,
                complete ? "" : " (the unpriced parts are the same on both sides)");
}

}  // namespace

Comparison compare(const Scenario& a, const Scenario& b, const std::string& label_a, const std::string& label_b,
                   const ProgressFn& progress) {
  Comparison c;
  c.name_a = a.name;
  c.name_b = b.name;
  parallel_for(2, 2, [&](std::size_t side) {
    try {
      (side == 0 ? c.a : c.b) = simulate(side == 0 ? a : b, progress);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument((side == 0 ? label_a : label_b) + ": " + e.what());
    }
  });
  return c;
}

std::string to_json(const Comparison& c) {
  return "{\"a\": " + to_json(c.a) + ", \"b\": " + to_json(c.b) + "}\n";
}

std::string comparison_csv(const Comparison& c) {
  return "side," + csv_header() + "\na," + csv_row(c.a) + "\nb," + csv_row(c.b) + "\n";
}

std::string format_comparison(const Comparison& c) {
  const RunResult &ra = c.a, &rb = c.b;
  std::string out;
  appendf(out, "A: %s\nB: %s\n\n%-26s %14s %14s %14s %9s\n", c.name_a.c_str(), c.name_b.c_str(), "metric", "A", "B", "B - A",
              "change");
  auto row = [&out](const char* name, double x, double y) {
    // A change relative to zero has no percentage: "n/a" (0 -> 0 is no change).
    if (x == 0 && y != 0) {
      appendf(out, "%-26s %14.2f %14.2f %+14.2f %9s\n", name, x, y, y - x, "n/a");
      return;
    }
    const double pct = x != 0 ? 100.0 * (y - x) / std::fabs(x) : 0.0;
    appendf(out, "%-26s %14.2f %14.2f %+14.2f %+8.1f%%\n", name, x, y, y - x, pct);
  };
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
  compare_cost(out, ra, rb, row);
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

}  // namespace hcisim
