// hcisim compare: two scenarios side by side with their deltas (cli.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "hcisim/plan/compare.hpp"
#include "hcisim/report/run_report.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "cli.hpp"

namespace hcisim::cli {

namespace {

// compare --mean-ms/--p95-ms/--p99-ms X: each design's knee under the one target (as knee),
// and the deltas and cost per extra IOPS taken there.
int cmd_compare_knees(const Args& a, const Scenario& sa, const Scenario& sb) {
  if (a.knee_targets != 1) usage_error("compare takes one knee target: --mean-ms X, --p95-ms X or --p99-ms X, not " +
                                           std::to_string(a.knee_targets));
  if (a.csv) usage_error("compare with a knee target prints text or --json, not --csv");
  if (a.range || a.replications > 1)
    usage_error("compare with a knee target runs one knee a side: drop --range and --replications");
  KneeOptions o;
  o.jobs = a.jobs;
  const KneeComparison c = hcisim::compare_knees(sa, sb, a.knee, o, a.files[0], a.files[1]);
  std::fputs(a.json ? to_json(c).c_str() : format_comparison(c).c_str(), stdout);
  return 0;
}

}  // namespace

int cmd_compare(const Args& a, const HardwareCatalog& cat) {
  if (a.files.size() != 2) usage_error("compare takes two scenario files");
  std::set<std::string> said;
  const Scenario sa = load(a.files[0], a.sets, cat, &said), sb = load(a.files[1], a.sets, cat, &said);
  if (a.knee_targets > 0) {
    if (a.sensitivity) usage_error("compare --sensitivity studies B - A's IOPS at each file's load: drop the knee target");
    return cmd_compare_knees(a, sa, sb);
  }
  if (a.sensitivity) return cmd_compare_sensitivity(a, sa, sb, cat);
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
      say_range_warnings("A: " + sa.source, ra);
      say_range_warnings("B: " + sb.source, rb);
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
  const Comparison c = compare(sa, sb, a.files[0], a.files[1]);
  std::fputs((a.json ? to_json(c) : a.csv ? comparison_csv(c) : format_comparison(c)).c_str(), stdout);
  return 0;
}

}  // namespace hcisim::cli
