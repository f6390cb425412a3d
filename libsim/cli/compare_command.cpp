// hcisim compare: two scenarios side by side with their deltas (cli.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "hcisim/core/parallel.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/report/text_escape.hpp"
#include "cli.hpp"

namespace hcisim::cli {

namespace {

// compare's cost rows (report/cost.hpp): the totals when both are complete, else what is
// priced; and what the change costs per extra IOPS, which is exact whenever both sides lack
// the same prices (the unpriced parts are then the same on both sides and cancel).
template <class Row>
void compare_cost(const RunResult& ra, const RunResult& rb, const Row& row) {
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
      std::printf("%-26s %s has no price for: %s\n", "", side, missing.c_str());
    }
  const double extra = rb.result.iops - ra.result.iops;
  if (ca.missing == cb.missing && extra != 0)
    std::printf("%-26s B - A costs $%.3f per extra IOPS%s\n", "", (cb.priced_usd - ca.priced_usd) / extra,
                complete ? "" : " (the unpriced parts are the same on both sides)");
}

}  // namespace

int cmd_compare(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() != 2) usage_error("compare takes two scenario files");
  std::set<std::string> said;
  const Scenario sa = load(a.files[0], a.sets, cat, &said), sb = load(a.files[1], a.sets, cat, &said);
  if (a.range) {
    // Both sides on the same N seeds and moved parameters, and B - A paired by seed.
    if (a.csv) usage_error("compare --range prints text or --json, not --csv");
    if (sa.seed != sb.seed)
      usage_error("compare --range pairs the two sides seed by seed, but A starts at seed " + std::to_string(sa.seed) +
                  " and B at seed " + std::to_string(sb.seed) + "; give both the same (--set seed=N)");
    const Ranged ra = run_range(sa, range_reader(a.files[0], a.sets, &said), cat, range_options(a));
    const Ranged rb = run_range(sb, range_reader(a.files[1], a.sets, &said), cat, range_options(a));
    const Ranged d = range_difference(ra, rb, cat.calibration());
    if (a.json) {
      std::string ja = ranged_report_json(sa, ra), jb = ranged_report_json(sb, rb);
      ja.pop_back();   // their newlines
      jb.pop_back();
      std::printf("{\"a\": %s, \"b\": %s, \"b_minus_a\": %s}\n", ja.c_str(), jb.c_str(), to_json(d).c_str());
    } else {
      std::fputs(format_compared(sa.name, sb.name, ra, rb, d).c_str(), stdout);
    }
    return 0;
  }
  if (a.replications > 1) {
    // Both sides on seeds 1..N: the what-if's delta against placement and run-to-run noise.
    if (a.json || a.csv) usage_error("compare --replications prints text only");
    const Replicated ra = replicate(sa, a.replications, Vary::placement, a.jobs);
    const Replicated rb = replicate(sb, a.replications, Vary::placement, a.jobs);
    std::printf("A: %s\nB: %s\nover seeds 1-%d (placement and every random stream vary):\n\n", sa.name.c_str(),
                sb.name.c_str(), a.replications);
    std::printf("IOPS A              %s\n", replicated_line(ra.iops, ra.mean_iops, "%.0f").c_str());
    std::printf("IOPS B              %s\n", replicated_line(rb.iops, rb.mean_iops, "%.0f").c_str());
    std::printf("mean latency A (ms) %s\n", replicated_line(ra.latency_ms, ra.mean_latency_ms, "%.3f").c_str());
    std::printf("mean latency B (ms) %s\n", replicated_line(rb.latency_ms, rb.mean_latency_ms, "%.3f").c_str());
    const double delta = rb.mean_iops.mean - ra.mean_iops.mean;
    const double both = std::hypot(ra.mean_iops.half_width, rb.mean_iops.half_width);
    std::printf("\nthe IOPS change (%+.0f, %+.1f %%) is %s the two means' combined half-width (+-%.0f)\n", delta,
                100 * delta / ra.mean_iops.mean, std::fabs(delta) > both ? "beyond" : "WITHIN", both);
    return 0;
  }
  RunResult ra, rb;
  parallel_for(2, 2, [&](std::size_t side) {
    try {
      (side == 0 ? ra : rb) = simulate(side == 0 ? sa : sb);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(a.files[side] + ": " + e.what());
    }
  });
  if (a.json) {
    std::printf("{\"a\": %s, \"b\": %s}\n", to_json(ra).c_str(), to_json(rb).c_str());
    return 0;
  }
  if (a.csv) {
    std::printf("side,%s\na,%s\nb,%s\n", csv_header().c_str(), csv_row(ra).c_str(), csv_row(rb).c_str());
    return 0;
  }
  std::printf("A: %s\nB: %s\n\n%-26s %14s %14s %14s %9s\n", sa.name.c_str(), sb.name.c_str(), "metric", "A", "B", "B - A",
              "change");
  auto row = [](const char* name, double x, double y) {
    // A change relative to zero has no percentage: "n/a" (0 -> 0 is no change).
    if (x == 0 && y != 0) {
      std::printf("%-26s %14.2f %14.2f %+14.2f %9s\n", name, x, y, y - x, "n/a");
      return;
    }
    const double pct = x != 0 ? 100.0 * (y - x) / std::fabs(x) : 0.0;
    std::printf("%-26s %14.2f %14.2f %+14.2f %+8.1f%%\n", name, x, y, y - x, pct);
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
  compare_cost(ra, rb, row);
  // Run-to-run noise: each side's 95 % half-width, and whether the IOPS change is beyond the
  // two combined (independent runs: the half-widths add in quadrature).
  const ConfidenceInterval &ia = ra.result.iops_ci, &ib = rb.result.iops_ci;
  const double both = std::hypot(ia.half_width, ib.half_width);
  std::printf("\n95 %% intervals (batch means): IOPS A +-%.2f %%, B +-%.2f %%; mean latency A +-%.2f %%, B +-%.2f %%\n",
              100 * ia.relative(), 100 * ib.relative(), 100 * ra.result.latency_ci_ms.relative(),
              100 * rb.result.latency_ci_ms.relative());
  if (std::isfinite(both))
    std::printf("the IOPS change (%+.0f) is %s their combined half-width (+-%.0f)\n", rb.result.iops - ra.result.iops,
                std::fabs(rb.result.iops - ra.result.iops) > both ? "beyond" : "WITHIN", both);
  std::printf("\nbottleneck A: %s\nbottleneck B: %s\n", ra.bottleneck.c_str(), rb.bottleneck.c_str());
  for (const RunResult* r : {&ra, &rb})
    for (const std::string& w : r->window_warnings) std::printf("warning: %s: %s\n", r == &ra ? "A" : "B", w.c_str());
  // Two runs limited by their hosts' CPUs cannot show what a storage or network change buys;
  // a planner should be told so next to the numbers.
  const auto cpu_bound = [](const RunResult& r) { return r.bottleneck.rfind("cpu", 0) == 0; };
  if (cpu_bound(ra) && cpu_bound(rb))
    std::printf("note: both runs are CPU-bound: a different cache or capacity device, disk-group layout or\n"
                "      network shows only once the hosts' CPUs are no longer the limit\n");
  return 0;
}

}  // namespace hcisim::cli
