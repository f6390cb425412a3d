// Reports of one run: HCIBench's text block, DiskSpd-style tables, JSON and CSV with stable
// keys (docs/reference.md lists them) for notebooks.
#pragma once

#include <string>
#include <string_view>

#include "hcisim/report/run_result.hpp"

namespace hcisim {

/// The warning of a run whose measured window of `seconds` completed no I/O.
std::string no_io_warning(double seconds);
/// The same for one kind of operation or one workload group that completed nothing while the
/// rest did (`what` names it: "no read", "workload group 'x': no I/O"). A window counts the
/// I/Os issued in it that complete in it (those in flight when it opens are left out).
std::string none_completed_warning(const std::string& what, double seconds);
/// What one workload's (or group's) measured window cannot carry, or "" when it holds: fewer
/// than `needed` completed I/Os for its `stat` ("p95"), or, for a closed loop (every slot
/// busy), IOPS x mean latency more than 10 % from the I/Os in flight (Little's law [S122]): a
/// window not much longer than the latency counts only the I/Os that finished early. `who`
/// opens the sentence ("the closed loop", "group 'a'").
std::string window_problem(const WorkloadResult& w, const std::string& who, bool closed_loop, double needed,
                           const std::string& stat);
/// A plain run's: its p95 wants 400 completed I/Os (20 beyond it; a p99 2000).
inline constexpr double kRunCompletionsForP95 = 400;

/// HCIBench's result block (JOB_NAME, VMs, IOPS, THROUGHPUT, R/W_LATENCY, 95%tile_R/W_LAT)
/// followed by pooled percentiles, the bottleneck and the per-host resource table.
std::string format_hcibench(const RunResult& r);
/// DiskSpd's "Total IO / Read IO / Write IO" per-thread tables and its percentile table.
std::string format_diskspd(const RunResult& r);
/// One JSON object; keys are stable across versions (new keys may be added).
std::string to_json(const RunResult& r);
/// CSV: header line and one row per run, same keys as JSON (per-host values flattened).
std::string csv_header();
std::string csv_row(const RunResult& r);
/// Whether the report's CSV has a column named `key` (a sweep over "seed" then adds no second
/// column of that name).
bool csv_has_column(std::string_view key);

}  // namespace hcisim
