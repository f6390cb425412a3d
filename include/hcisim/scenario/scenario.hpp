// A scenario: one cluster, one workload, one seed, read from YAML (scenario_yaml.cpp for the
// schema; docs/reference.md, "Scenario files", for the user's view). Catalog names resolve
// through the HardwareCatalog; devices, CPUs and NICs can also be written inline. Errors name
// the file, line, key path and what is allowed; unknown keys are errors.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "hcisim/report/capacity_answer.hpp"
#include "hcisim/report/price_book.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/storage/capacity.hpp"
#include "hcisim/storage/cluster_spec.hpp"
#include "hcisim/workload/workload_spec.hpp"

namespace hcisim {

/// One entry of a scenario's `assumed:` block: a key the write-up does not state, and the range
/// it could take (plan/sensitivity.hpp moves it; a plain run does not use it).
struct DeclaredAssumption {
  std::string path;       // a scenario key path with a numeric value, e.g. cluster.host.cpu.sockets
  double low = 0, high = 0;
  int line = 0;           // its line in the file (1-based; 0: not from a file)
};

struct Scenario {
  std::string name;
  std::string source;                 // file path, or "<built-in default>"
  std::uint64_t seed = 1;
  // Independent runs of the same cluster: every random stream but placement's is keyed by
  // (seed, replication). The seed also places the components, so two seeds are two clusters.
  std::uint64_t replication = 0;
  ClusterSpec cluster;
  WorkloadSpec workload;
  // Workload groups that run at once (`workload.groups` in a file): empty
  // for one workload; else every group, each named (WorkloadSpec::name), and `workload` is a
  // copy of the first. The run's length, warm-up and history and the data profile
  // (compress_pct, dedupe_pct) are the same in every group.
  std::vector<WorkloadSpec> groups;
  int threads_per_vmdk = 1;           // DiskSpd -t: per-thread report rows
  // What the scenario asks for that is legal but unusual, said once where the model departs
  // from the file (a link faster than the named NIC, VM data beyond usable capacity, ...).
  std::vector<std::string> warnings;
  // What the parts cost: the catalog's prices with any price file laid over them
  // (HardwareCatalog::prices); reports give the cluster's cost from it (report/cost.hpp).
  PriceBook prices;
  // How the cluster's software constants (cpu_costs, stack latency, the OSA and ESA settings
  // that data/calibration.yaml names) were set: from a catalog's calibration (parse_scenario,
  // load_scenario, make_scenario) or left at their uncalibrated defaults on purpose
  // (make_uncalibrated_scenario). simulate() refuses a scenario that is neither: an
  // uncalibrated model gives several times the IOPS, and nothing else would say so.
  enum class Calibration : std::uint8_t { none, applied, opted_out };
  Calibration calibration = Calibration::none;
  // The file's `assumed:` block, in file order: no effect on a run.
  std::vector<DeclaredAssumption> assumed;
  // Every key path the file (with --set) states, in schema form ("[]" for a list's items),
  // sorted: a key not among them got its default. Empty for a scenario built in code.
  std::vector<std::string> stated_keys;
};

/// Every workload the scenario's cluster runs: its groups, or its one workload.
inline std::vector<WorkloadSpec> scenario_workloads(const Scenario& s) {
  return s.groups.empty() ? std::vector<WorkloadSpec>{s.workload} : s.groups;
}

/// The largest block any workload of the scenario writes, bytes (0: none writes).
inline std::int64_t largest_write_block(const Scenario& s) {
  std::int64_t largest = 0;
  for (const WorkloadSpec& w : scenario_workloads(s))
    if (w.read_pct < 100) largest = std::max(largest, w.block.count());
  return largest;
}

/// Whether the file (with --set) states the key `path` (Scenario::stated_keys); a workload key
/// counts when a workload group states it (workload.groups[].history_s).
bool scenario_states(const Scenario& s, std::string_view path);

/// What the scenario runs, for headers and reports: the workload's describe(), or each group's
/// "name: describe()" joined by "; ".
std::string describe_workloads(const Scenario& s);

/// A scenario from specs built in code, calibrated and validated like a file (the warnings a
/// file's network keys can give, such as a link faster than its NIC, are not repeated): the catalog's
/// calibration sets the software constants (it scales the CPU costs `cluster` has, once: a
/// cluster taken from a calibrated scenario keeps its constants; to study one, change it on
/// the result), the drives' calibrated figures are applied, then the cluster,
/// the workload and their combination are checked as parse_scenario checks them. Throws
/// InvalidArgument naming the field and what is allowed; legal but unusual settings are in
/// `warnings`.
Scenario make_scenario(std::string name, ClusterSpec cluster, WorkloadSpec workload, const HardwareCatalog& catalog,
                       std::uint64_t seed = 1);
/// The same, leaving the software constants as `cluster` has them: the named opt-out for
/// studies of the uncalibrated model.
Scenario make_uncalibrated_scenario(std::string name, ClusterSpec cluster, WorkloadSpec workload,
                                    std::uint64_t seed = 1);

/// Parses YAML `text` (named `source` in errors). `overrides` are "key.path=value" strings
/// (the CLI's --set), applied to the document before it is read.
Scenario parse_scenario(const std::string& text, const std::string& source, const std::vector<std::string>& overrides,
                        const HardwareCatalog& catalog);
/// Reads and parses a scenario file.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                       const HardwareCatalog& catalog);
/// A scenario file's text, as load_scenario reads it (at most 16 MiB; InvalidArgument names
/// the file otherwise).
std::string read_scenario_file(const std::string& path);

/// The built-in default: seed 000's cluster (4 x NUC 11 Extreme, OSA, Optane P4800X 750 GB
/// cache, Lexar NM620 2 TB capacity, 10 GbE) and its first HCIBench workload.
const std::string& default_scenario_yaml();

/// The scenario's capacity line (storage/capacity.hpp): its cluster, the reserve rule it
/// names, and its workload's data (reduction) and largest object (a VMDK). Instant: nothing
/// is simulated.
CapacityReport scenario_capacity(const Scenario& s);
/// The same under the scenario's reserve rule and, beside it, the other one (a 2-node
/// cluster has only slack), for `hcisim capacity` and Python's hcisim.capacity().
CapacityAnswer capacity_answer(const Scenario& s);

/// One key of an input file: a scenario, a requirements file (`hcisim size`) or a price file.
/// Each key is declared once (libsim/scenario/file_keys.cpp): the readers take its range and
/// default from here, `--set` and unknown keys are checked against it (with a "did you mean"),
/// and `hcisim keys`, hcisim.keys() and docs/reference.md list it.
struct FileKey {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::string_view file;           // "scenario", "requirements" or "prices"
  // Dotted path from the file's top; "[]" marks a list's items ("workload.groups[].name").
  // A path under "drive." is a drive given by its figures, wherever a drive goes.
  std::string_view path;
  // number | integer | flag | choice | size | text | name | map | list | forms (a value of
  // several forms, read by its own code: `duration_s: auto`, a drive's name or figures).
  std::string_view type;
  std::string_view unit;           // "GB" (decimal), "GiB", "us", "Gbit/s", "%", ...; "" for none
  std::string_view default_text;   // what a file that leaves the key out gets
  double min = kNone, max = kNone; // the allowed range of a number (kNone: no bound)
  std::string_view allowed;        // what the error says is allowed, or a choice's values
  std::string_view description;    // one line
  // A value that stands in for hardware or history a file does not state: the range it could
  // plausibly take (kNone: not assumed) and why.
  double assumed_min = kNone, assumed_max = kNone;
  std::string_view assumed_why;
  std::string_view replaced_by;    // a retired key: what to write instead ("" for a live key)
  std::string_view field;          // the C++ field it sets (scenario keys)
  // Reads the key's value back from a scenario (numeric scenario keys; nullptr otherwise).
  double (*value)(const Scenario&) = nullptr;
  double default_number = kNone;   // default_text as a number, when it is one (filled in)

  bool retired() const { return !replaced_by.empty(); }
  bool assumed() const { return !assumed_why.empty(); }
};

/// The keys of the three input files under `prefix` ("" for all; a path such as
/// "cluster.host.network" for it and the keys below it; "scenario", "requirements" or "prices"
/// for a whole file), in the order of the files and their sections (a section's retired keys
/// after its live ones).
std::vector<FileKey> file_keys(std::string_view prefix = {});

}  // namespace hcisim
