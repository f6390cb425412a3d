// Accuracy against the seeds: data/measurements.csv holds every number the write-ups state;
// evaluate() runs each scenario they reference once (in parallel), predicts each supported
// measurement and reports the errors. Which rows count (rules in accuracy.cpp):
//   IOPS/throughput  : iops, throughput_mbps / throughput_mibps of a whole run (HCIBench
//                      block; DiskSpd 'total:' rows of the Total IO table);
//   mean latency     : read/write latency of the HCIBench block, DiskSpd 'total:' rows;
//   other            : p95/percentiles, host CPU (HCIBench Average row), stated ratios
//                      computed from two runs (the baseline scenario is in notes).
// Rows the model cannot predict yet (guest CPU, memory, per-thread rows, sweeps not in
// examples/) are listed with the reason. Below: the committed table by class and the nearest
// measured rows of a question.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/scenario.hpp"
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

// The committed accuracy table (data/accuracy.csv): every scored row of data/measurements.csv
// with the model's prediction, its error and the features "nearest measured" matches on
// (architecture, what-if type, network speed, block size, bottleneck class); the summary by
// class (architecture x answer type x sample); and a hash of the inputs, so that a table
// older than its inputs is found without rerunning the model (libsim/calib/accuracy_table.cpp).

/// Bump when a change to the model moves the accuracy table's predictions: with the project
/// version it is the model version the table's hash covers (the hash cannot see libsim's code).
inline constexpr int kModelRevision = 3;
/// "0.1.0 model 1": the project version and kModelRevision.
std::string model_version();

inline constexpr const char* kSampleIn = "in sample";            // seeds the calibration was fitted to
inline constexpr const char* kSampleOut = "out of sample";       // seeds never fitted
inline constexpr const char* kSampleCv = "leave-one-seed-out";   // each seed predicted by a fit on the others
inline constexpr const char* kNotMeasured = "not measured with this model version";

struct AccuracyTableRow {
  std::string sample;              // kSampleIn, kSampleOut or kSampleCv
  std::string seed;                // "001"
  std::string architecture;        // "OSA" or "ESA"
  std::string answer_type;         // "IOPS/throughput", "mean latency", "host CPU", "what-if ratio", "other"
  std::string what_if;             // "absolute", or what differs from the baseline ("network speed; cache device")
  double network_gbps = 0;         // the scenario's vSAN links
  double baseline_network_gbps = 0;   // the baseline's (what-if rows), else 0
  double block_kib = 0;
  std::string bottleneck;          // the class of the run's bottleneck ("" when unknown)
  std::string scenario;            // file stem
  std::string metric;
  std::string description;         // "ESA, 25 vs 100 GbE, OLTP32K"
  double measured = 0;
  std::string unit;
  double predicted = 0;
  double error = 0;                // relative %, or points for a change stated in %
  std::string error_unit;          // "%" or "points"
  std::string note;                // the prediction's note (a row a latency defines: the write-latency reading)
  std::string status = "scored";   // "scored" or kNotMeasured
};

struct AccuracyTable {
  std::string model_version;
  std::string inputs_hash;
  std::string fingerprint;         // model_fingerprint when it was written ("" in older tables)
  std::string command;             // what wrote it
  std::vector<AccuracyTableRow> rows;
};

/// Answer type of a predicted row (the table's answer_type column).
std::string answer_type(const Prediction& p);
/// The scored rows of `report` with their features; `sample` forces the sample column (the
/// leave-one-seed-out rows), else each seed's own (in sample: kInSampleSeeds). Scenario files
/// are read from `repo_dir` with `catalog` for the features.
std::vector<AccuracyTableRow> table_rows(const AccuracyReport& report, const HardwareCatalog& catalog,
                                         const std::string& repo_dir, const std::string& sample = "");
/// A leave-one-seed-out row marked kNotMeasured: the table without `--cv`.
AccuracyTableRow cv_not_measured_row();
/// The scored leave-one-seed-out rows of the table at `path` when it was written from inputs
/// that hash to `inputs_hash` (a rewrite without `--cv` keeps them); else none (no file, an
/// unreadable one, or other inputs).
std::vector<AccuracyTableRow> cv_rows_to_keep(const std::string& path, const std::string& inputs_hash);

struct AccuracyClassRow {
  std::string architecture, answer_type, sample;
  int rows = 0;
  double median_abs = 0, max_abs = 0;
  std::string error_unit;          // "%", "points" or "% / points" (ratios of both kinds)
  std::vector<std::string> seeds;
  std::string note;                // fitted on its only seed; not measured with this model version
};
/// One class per (architecture, answer type, sample) with scored rows, in a fixed order;
/// leave-one-seed-out classes also when only marked kNotMeasured.
std::vector<AccuracyClassRow> class_summary(const std::vector<AccuracyTableRow>& rows);
/// The class table as text (columns) or as a Markdown table.
std::string format_class_table(const std::vector<AccuracyClassRow>& classes);
std::string format_class_markdown(const std::vector<AccuracyClassRow>& classes);
/// The median |error| of a row's class (its architecture, answer type and sample).
const AccuracyClassRow* class_of(const std::vector<AccuracyClassRow>& classes, const AccuracyTableRow& row);

/// FNV-1a (64-bit, hex) over model_version() and, by name, each input's bytes: data_dir's
/// calibration.yaml, measurements.csv and hardware catalog (devices, flash, connections,
/// nics, switches, cpus), and every scenario the measurements reference (under repo_dir). A
/// missing file counts as "missing", so removing one changes the hash too.
std::string accuracy_inputs_hash(const std::string& data_dir, const std::string& repo_dir);

/// What the model predicts now, as a hash (hex): every scenario the measurements reference
/// (under repo_dir) run for 20 ms of simulated time after 5 ms of warm-up with its own seed,
/// and its headline figures (IOPS, latencies, p95s, I/Os, each host's CPU) hashed (FNV-1a).
/// The inputs hash cannot see libsim's code: a change to the model that moves a prediction
/// moves this, whether or not kModelRevision was bumped. About a second of wall time.
std::string model_fingerprint(const std::string& data_dir, const std::string& repo_dir, const HardwareCatalog& catalog);

/// The file's text: '#' header lines (what it is, the command, the model version, the
/// inputs' hash, the model's fingerprint), then the CSV.
std::string accuracy_table_text(const AccuracyTable& table);
/// Reads a file accuracy_table_text wrote; InvalidArgument naming the file and line.
AccuracyTable read_accuracy_table(const std::string& path);
/// Empty when `table_path`'s hash is that of the inputs now and, when `fingerprint` is given
/// (model_fingerprint now), its fingerprint is that one; else why it is stale (or missing)
/// and the command that rewrites it.
std::string accuracy_table_stale(const std::string& table_path, const std::string& data_dir, const std::string& repo_dir,
                                 const std::string& fingerprint = "");

// "Nearest measured": for a question (a run, a knee, a sizing or a what-if), the measured rows
// of the committed accuracy table (data/accuracy.csv) nearest to it, and how far the model
// was from them. Matched on architecture first, then what-if type (absolute, or what differs
// between the two designs), then bottleneck class, network speed and block size class. The
// verdict comes from the error of the matched row's class: within 10 % "close", 10-30 %
// "a guide", more "direction only", and a class of one seed at best "a guide"; nothing of
// the same architecture and what-if type: "unvalidated" (libsim/calib/nearest_measured.cpp).

struct QuestionFeatures {
  std::string architecture;             // "OSA" or "ESA" ("" unknown)
  std::vector<std::string> what_if;     // empty: an absolute answer; else what differs (what_differs)
  std::string bottleneck;               // bottleneck class: "cpu", "cache_device", "network_port", ... ("" unknown)
  double network_gbps = 0;              // the design's vSAN links (a what-if's B)
  double baseline_network_gbps = 0;     // a what-if's A
  double block_kib = 0;
};

/// A scenario's features; `bottleneck` as a run reports it ("class (member)") or a class.
QuestionFeatures question_features(const Scenario& s, const std::string& bottleneck);
/// A what-if's: B's, with what differs from A and A's network speed.
QuestionFeatures what_if_features(const Scenario& a, const Scenario& b, const std::string& bottleneck_b);
/// What differs between two designs, in a fixed order: "architecture", "host count",
/// "network speed", "NIC", "disk groups", "cache device", "capacity devices", "RAID", "CPU",
/// "workload"; {"other settings"} when none of these does.
std::vector<std::string> what_differs(const Scenario& a, const Scenario& b);
/// "small" (up to 16 KiB), "medium" (up to 64 KiB), "large".
const char* block_size_class(double block_kib);

struct NearestMeasured {
  std::string text;                     // the line: "nearest measured: seed 001 (...): ...; treat ... as ..."
  std::string verdict;                  // close | a guide | direction only | unvalidated | table missing
  std::vector<std::string> seeds;       // seeds of every matched row, nearest first
  AccuracyTableRow row;                 // the nearest row (when matched)
  AccuracyClassRow cls;                 // its class (when matched)
  bool matched = false;
};

/// The nearest rows of `table` (scored, in or out of sample) to the question.
NearestMeasured nearest_measured(const std::vector<AccuracyTableRow>& table, const QuestionFeatures& q);
/// The same, from the table file; a missing or unreadable file gives a line saying so.
NearestMeasured nearest_measured(const std::string& table_path, const QuestionFeatures& q);
/// {"text": ..., "verdict": ..., "seeds": [...], "row": {...} | null, "class": {...} | null}
std::string to_json(const NearestMeasured& n);

}  // namespace hcisim
