// The committed accuracy table (data/accuracy.csv): every scored row of data/measurements.csv
// with the model's prediction, its error and the features "nearest measured" matches on
// (architecture, what-if type, network speed, block size, bottleneck class); the summary by
// class (architecture x answer type x sample); and a hash of the inputs, so that a table
// older than its inputs is found without rerunning the model.
#pragma once

#include <string>
#include <vector>

#include "hcisim/calib/accuracy.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"

namespace hcisim {

/// Bump when a change to the model moves the accuracy table's predictions: with the project
/// version it is the model version the table's hash covers (the hash cannot see libsim's code).
inline constexpr int kModelRevision = 1;
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

/// The file's text: '#' header lines (what it is, the command, the model version, the
/// inputs' hash), then the CSV.
std::string accuracy_table_text(const AccuracyTable& table);
/// Reads a file accuracy_table_text wrote; InvalidArgument naming the file and line.
AccuracyTable read_accuracy_table(const std::string& path);
/// Empty when `table_path`'s hash is that of the inputs now; else why it is stale (or
/// missing) and the command that rewrites it.
std::string accuracy_table_stale(const std::string& table_path, const std::string& data_dir, const std::string& repo_dir);

}  // namespace hcisim
