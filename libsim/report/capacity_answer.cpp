// Capacity answers as text and JSON (capacity_answer.hpp).
#include "hcisim/report/capacity_answer.hpp"

#include <cstdio>

#include "hcisim/model/report/text_escape.hpp"

namespace hcisim {

namespace {

std::string line(const std::string& label, double value, const std::string& note = "") {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-36s %10.0f%s%s\n", label.c_str(), value, note.empty() ? "" : "  ", note.c_str());
  return buf;
}

}  // namespace

std::string format_capacity(const CapacityAnswer& a) {
  const CapacityReport& c = a.report;
  std::string out = "Scenario: " + a.scenario + "\nCapacity of the " + std::to_string(c.hosts_counted) +
                    " hosts that are up (" + a.architecture + ", " + a.layout + "), decimal GB:\n";
  out += line("raw (capacity devices less format)", c.raw_gb);
  if (c.metadata_gb > 0) out += line("dedupe/compression metadata", c.metadata_gb);
  out += line("reserve, " + a.rule, c.slack_gb, "(" + c.slack_rule + ")");
  if (a.rule == "reserved") {
    out += line("  operations reserve", c.operations_reserve_gb);
    out += line("  host rebuild reserve", c.host_rebuild_reserve_gb);
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-36s %10.3f  (policy%s)\n", "raw per VM byte", c.policy_factor * c.lfs_factor,
                c.lfs_factor > 1 ? " x ESA log-structured overhead" : "");
  out += buf;
  std::snprintf(buf, sizeof buf, "  %-36s %8.2f:1  (%s)\n", "data reduction", c.reduction_ratio,
                a.planned_reduction ? "the planner's data_services.reduction_ratio"
                                    : "from the workload's compress_pct and dedupe_pct");
  out += buf;
  out += line("usable for VM data", c.usable_gb);
  if (a.other) out += line("usable with the " + a.other_rule + " rule instead", a.other->usable_gb);
  out += format_cost(a.cost, c, 0, "");
  return out;
}

std::string to_json(const CapacityAnswer& a) {
  const CapacityReport& c = a.report;
  std::string j = "{\"scenario\": " + json_string(a.scenario) + ", \"architecture\": " + json_string(a.architecture) +
                  ", \"layout\": " + json_string(a.layout) + ", \"hosts_up\": " + std::to_string(c.hosts_counted) +
                  ", \"capacity_reserve\": " + json_string(a.rule) + ", \"raw_gb\": " + json_number(c.raw_gb) +
                  ", \"metadata_gb\": " + json_number(c.metadata_gb) + ", \"reserve_gb\": " + json_number(c.slack_gb) +
                  ", \"reserve_rule\": " + json_string(c.slack_rule) +
                  ", \"operations_reserve_gb\": " + json_number(c.operations_reserve_gb) +
                  ", \"host_rebuild_reserve_gb\": " + json_number(c.host_rebuild_reserve_gb) +
                  ", \"policy_factor\": " + json_number(c.policy_factor) + ", \"lfs_factor\": " + json_number(c.lfs_factor) +
                  ", \"reduction_ratio\": " + json_number(c.reduction_ratio) + ", \"reduction_from\": " +
                  (a.planned_reduction ? "\"planner\"" : "\"workload data\"") + ", \"usable_gb\": " + json_number(c.usable_gb);
  if (a.other) j += ", \"usable_gb_" + a.other_rule + "\": " + json_number(a.other->usable_gb);
  return j + ", \"cost\": " + cost_json(a.cost, c, 0) + "}\n";
}

}  // namespace hcisim
