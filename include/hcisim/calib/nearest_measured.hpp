// "Nearest measured": for a question (a run, a knee, a sizing or a what-if), the measured rows
// of the committed accuracy table (data/accuracy.csv) nearest to it, and how far the model
// was from them. Matched on architecture first, then what-if type (absolute, or what differs
// between the two designs), then bottleneck class, network speed and block size class. The
// verdict comes from the error of the matched row's class: within 10 % "close", 10-30 %
// "a guide", more "direction only"; nothing of the same architecture and what-if type:
// "unvalidated".
#pragma once

#include <string>
#include <vector>

#include "hcisim/calib/accuracy_table.hpp"
#include "hcisim/scenario/scenario.hpp"

namespace hcisim {

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
