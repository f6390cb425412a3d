// Accuracy against the seeds: data/measurements.csv holds every number the write-ups state;
// evaluate() runs each scenario they reference once (in parallel), predicts each supported
// measurement and reports the errors. Which rows count (rules in accuracy.cpp):
//   IOPS/throughput  : iops, throughput_mbps / throughput_mibps of a whole run (HCIBench
//                      block; DiskSpd 'total:' rows of the Total IO table);
//   mean latency     : read/write latency of the HCIBench block, DiskSpd 'total:' rows;
//   other            : p95/percentiles, host CPU (HCIBench Average row), stated ratios
//                      computed from two runs (the baseline scenario is in notes).
// Rows the model cannot predict yet (guest CPU, memory, per-thread rows, points read off a
// curve, sweeps not in examples/) are listed with the reason.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/simulation.hpp"

namespace hcisim {

struct Measurement {
  std::string seed_file;
  std::string scenario;
  std::string workload;
  std::string metric;
  double value = 0;
  std::string unit;
  std::string kind;       // absolute | ratio
  std::string notes;
  std::size_t line = 0;   // in measurements.csv
};

std::vector<Measurement> load_measurements(const std::string& path);
/// Relative error in % of `predicted` against row `m`: (predicted - value) / |value|, or for a
/// row in "ms-floor" (a latency its report floored to whole ms, HCIBench's p95 figures)
/// against the interval [value, value + 1) ms, 0 inside it. Rows with value 0 are never
/// scored (the report has no such I/O): the result is then not a number.
double error_pct(const Measurement& m, double predicted);
/// A host's own CPU row of an HCIBench resource table (cpu.usage or cpu.utilization of one
/// host, not the Average row): compared by rank (the k-th busiest measured host against the
/// model's k-th busiest), never fitted.
bool per_host_cpu_row(const Measurement& m);
/// DiskSpd's own CPU table, its avg. row: the busy share of the benchmark VM's vCPUs, compared
/// with the model's guest stage when the scenario states workload.vcpus_per_vm.
bool guest_cpu_row(const Measurement& m);

enum class AccuracyClass { throughput, mean_latency, other, ratio, unsupported };
const char* accuracy_class_name(AccuracyClass c);

struct Prediction {
  Measurement m;
  AccuracyClass cls = AccuracyClass::unsupported;
  double predicted = 0;     // with replications: the mean over scenario seeds 1..N
  double error_pct = 0;     // (predicted - measured) / |measured| x 100; ratios in points where % changes
  double predicted_min = 0; // lowest and highest prediction over the replications (both =
  double predicted_max = 0; // predicted with one run)
  std::string reason;       // why unsupported
  std::string note;         // beside a predicted row: e.g. the write-latency reading of a row a latency defines
  std::string bottleneck;   // the bottleneck of the scenario's run ("class (member)"; the first seed's)
  // An IOPS row a latency defines (seed 001's "350K IOPS at 0.73 ms"): in the table by class
  // (accuracy_table.hpp), left out of AccuracySummary so its figures keep their history.
  bool latency_defined = false;
};

// The summary over every seed, architecture and sample at once (the table by class,
// accuracy_table.hpp, separates them); rows a latency defines are left out.
struct AccuracySummary {
  int throughput_rows = 0;
  double throughput_median_abs_pct = 0;
  double throughput_max_abs_pct = 0;
  int latency_rows = 0;
  double latency_median_abs_pct = 0;
  double latency_max_abs_pct = 0;
  int ratio_rows = 0;
  double ratio_max_abs_points = 0;
  // The same, with repeated runs of one scenario (seed 002's two DiskSpd runs) scored as one
  // row against their midpoint, half their spread counted as measurement noise.
  double throughput_noise_median_pct = 0;
  double throughput_noise_max_pct = 0;
  double latency_noise_median_pct = 0;
  double latency_noise_max_pct = 0;
};

struct AccuracyOptions {
  std::string repo_dir = ".";          // scenario paths in the CSV are relative to it
  std::vector<std::string> overrides;  // applied to every scenario (e.g. shorter durations)
  int jobs = 0;                        // threads; 0 = all cores
  std::vector<std::string> only_seeds; // seed_file prefixes to keep (empty: all)
  int replications = 1;                // runs per scenario, with scenario seeds 1..N (1: the
                                       // scenario's own seed); predictions are their mean; a
                                       // "seed=" override with N >= 2 is rejected
  ProgressFn run_progress;             // passed to every run (from the worker threads at once):
                                       // a caller that wants to stop the evaluation throws from it
};

struct AccuracyReport {
  std::vector<Prediction> rows;
  AccuracySummary summary;
  int replications = 1;   // scenario seeds per prediction (format_accuracy then adds min/max)
};

/// Runs the scenarios with `catalog` (and its calibration) and predicts every measurement.
AccuracyReport evaluate(const std::vector<Measurement>& measurements, const HardwareCatalog& catalog,
                        const AccuracyOptions& options, const std::function<void(double)>& progress = {});
AccuracySummary summarize(const std::vector<Prediction>& rows);
/// "baseline: examples/scenarios/x.yaml; ..." in a row's notes -> the path ("" if none).
std::string baseline_of(const Measurement& m);
/// Every scenario file the rows run (their scenario and baseline columns), sorted, once each.
std::vector<std::string> referenced_scenarios(const std::vector<Measurement>& measurements);
/// The table (seed, scenario, metric, measured, predicted, error %) and summary lines.
std::string format_accuracy(const AccuracyReport& report, bool include_unsupported);
/// The three summary lines (IOPS/throughput, mean latency, stated ratios).
std::string format_summary(const AccuracySummary& summary);

}  // namespace hcisim
