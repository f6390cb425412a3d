// The tornado of an assumption sensitivity as text and JSON (sensitivity.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/plan/sensitivity.hpp"

namespace hcisim {

namespace sensitivity_report {

std::string num(double v) { return figure_text(v); }

std::string signed_num(double v) { return (std::isfinite(v) && v > 0 ? "+" : "") + num(v); }

std::string pct(double v) {
  if (!std::isfinite(v)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, " (%.1f %%)", v);
  return buf;
}

double head(const std::vector<double>& v) { return v.empty() ? std::nan("") : v[0]; }

std::string range_text(const Assumption& a) {
  return num(a.low) + " .. " + num(a.high) + (a.unit.empty() ? "" : " " + a.unit);
}

std::string row_line(const SensitivityRow& r) {
  // The bottlenecks are appended whole: a comparison's two sides at both ends run long.
  char buf[400];
  const std::string swing =
      r.switches ? (std::isfinite(head(r.at_low)) || std::isfinite(head(r.at_high)) ? "found at one end only"
                                                                                    : "found at the base only")
                 : num(r.swing) + pct(r.swing_pct) + (r.within_noise ? " ~noise" : "");
  const std::string bottlenecks = r.bottleneck_low == r.bottleneck_high ? r.bottleneck_low
                                                                          : r.bottleneck_low + " | " + r.bottleneck_high;
  std::snprintf(buf, sizeof buf, "%-38s %-29s %-22s %11s %11s  %-20s ", r.assumption.name.c_str(),
                r.assumption.kind_text.c_str(), range_text(r.assumption).c_str(), num(head(r.at_low)).c_str(),
                num(head(r.at_high)).c_str(), swing.c_str());
  std::string out = buf + bottlenecks + "\n";
  if (!r.error.empty()) out += "    (" + r.error + ")\n";
  return out;
}

std::string pair_text(const Sensitivity& s) {
  if (!s.has_pair) return "Worst pair: fewer than two assumptions moved the answer.\n";
  const SensitivityPair& p = s.pair;
  const std::string& h = s.names[0];
  std::string out = "Worst plausible pair of the top three: " + p.first + " and " + p.second + "\n";
  out += "  both down (" + p.first + " " + num(p.first_value) + ", " + p.second + " " + num(p.second_value) + "): " + h +
         " " + num(head(p.at_down)) + " (" + signed_num(p.change_down) + "; the two alone add to " + signed_num(p.sum_down) +
         ")" + (p.bottleneck_down.empty() ? "" : ", bottleneck " + p.bottleneck_down) + "\n";
  out += "  both up   (" + p.first + " " + num(p.first_up_value) + ", " + p.second + " " + num(p.second_up_value) + "): " + h +
         " " + num(head(p.at_up)) + " (" + signed_num(p.change_up) + "; the two alone add to " + signed_num(p.sum_up) + ")" +
         (p.bottleneck_up.empty() ? "" : ", bottleneck " + p.bottleneck_up) + "\n";
  return out;
}

std::string answers_json(const std::vector<std::string>& names, const std::vector<double>& v) {
  std::string out = "{";
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i ? ", " : "") + json_string(names[i]) + ": " + json_number(i < v.size() ? v[i] : std::nan(""));
  return out + "}";
}

std::string row_json(const Sensitivity& s, const SensitivityRow& r) {
  const Assumption& a = r.assumption;
  return "{\"name\": " + json_string(a.name) + ", \"kind\": " + json_string(a.kind_text) + ", \"base\": " +
         json_number(a.base) + ", \"low\": " + json_number(a.low) + ", \"high\": " + json_number(a.high) +
         ", \"unit\": " + json_string(a.unit) + ", \"why\": " + json_string(a.why) + ", \"at_low\": " +
         answers_json(s.names, r.at_low) + ", \"at_high\": " + answers_json(s.names, r.at_high) +
         ", \"bottleneck_low\": " + json_string(r.bottleneck_low) + ", \"bottleneck_high\": " +
         json_string(r.bottleneck_high) + ", \"swing\": " + json_number(r.swing) + ", \"swing_pct\": " +
         json_number(r.swing_pct) + ", \"within_noise\": " + (r.within_noise ? "true" : "false") +
         ", \"appears_or_disappears\": " + (r.switches ? "true" : "false") +
         ", \"error\": " + (r.error.empty() ? std::string("null") : json_string(r.error)) + "}";
}

std::string pair_json(const Sensitivity& s) {
  if (!s.has_pair) return "null";
  const SensitivityPair& p = s.pair;
  return "{\"first\": " + json_string(p.first) + ", \"second\": " + json_string(p.second) +
         ", \"down\": {\"first_value\": " + json_number(p.first_value) + ", \"second_value\": " +
         json_number(p.second_value) + ", \"answers\": " + answers_json(s.names, p.at_down) + ", \"bottleneck\": " +
         json_string(p.bottleneck_down) + ", \"change\": " + json_number(p.change_down) + ", \"sum_of_singles\": " +
         json_number(p.sum_down) + "}, \"up\": {\"first_value\": " + json_number(p.first_up_value) +
         ", \"second_value\": " + json_number(p.second_up_value) + ", \"answers\": " + answers_json(s.names, p.at_up) +
         ", \"bottleneck\": " + json_string(p.bottleneck_up) + ", \"change\": " + json_number(p.change_up) +
         ", \"sum_of_singles\": " + json_number(p.sum_up) + "}}";
}

}  // namespace sensitivity_report

std::string sensitivity_covers() {
  return "Covers: each assumption above moved alone over its range (the worst pair: two at once), on the scenario's "
         "own seed (common random numbers); '~noise': a swing within the headline's spread over the base and its "
         "noise runs; 'found at one end only': the headline exists with the assumption at one end and not at the other (first in "
         "the table, no swing measures it). Not covered: assumptions moved together beyond the pair, and mechanisms the model lacks (hcisim "
         "accuracy shows those errors, which are larger).\n";
}

std::string format_sensitivity(const Sensitivity& s) {
  using namespace sensitivity_report;
  const std::string& h = s.names.empty() ? std::string() : s.names[0];
  char buf[400];
  // The base's bottleneck is appended whole: a comparison's names both sides' and runs long.
  std::snprintf(buf, sizeof buf,
                "; %zu assumptions, %d runs, %.1f s wall; noise %s (the spread over the base and %d more "
                "replications)\n\n",
                s.rows.size(), s.runs, s.wall_s, num(s.noise).c_str(), s.noise_runs);
  std::string out = "Sensitivity of " + h + ": base " + num(head(s.base)) +
                    (s.base_bottleneck.empty() ? "" : ", bottleneck " + s.base_bottleneck) + buf;
  const std::string at_low = h + " at low", at_high = "at high";
  std::snprintf(buf, sizeof buf, "%-38s %-29s %-22s %11s %11s  %-20s %s\n", "assumption", "kind", "low .. high",
                at_low.size() > 11 ? "at low" : at_low.c_str(), at_high.c_str(), "swing (% of base)",
                "bottleneck at low | high");
  out += buf;
  for (const SensitivityRow& r : s.rows) out += row_line(r);
  out += "\n" + pair_text(s);
  if (!s.skipped.empty()) {
    out += "\nNot moved:\n";
    for (const SkippedAssumption& k : s.skipped) out += "  " + k.name + " (" + k.kind_text + "): " + k.reason + "\n";
  }
  return out + "\n" + sensitivity_covers();
}

std::string to_json(const Sensitivity& s, bool with_wall) {
  using namespace sensitivity_report;
  std::string out = "{\"names\": [";
  for (std::size_t i = 0; i < s.names.size(); ++i) out += (i ? ", " : "") + json_string(s.names[i]);
  out += "], \"headline\": " + json_string(s.names.empty() ? "" : s.names[0]) + ", \"base\": " +
         answers_json(s.names, s.base) + ", \"base_bottleneck\": " + json_string(s.base_bottleneck) +
         ", \"noise\": " + json_number(s.noise) + ", \"noise_runs\": " + std::to_string(s.noise_runs) +
         ", \"runs\": " + std::to_string(s.runs) + ", \"wall_s\": " + (with_wall ? json_number(s.wall_s) : "null") +
         ", \"rows\": [";
  for (std::size_t i = 0; i < s.rows.size(); ++i) out += (i ? ", " : "") + row_json(s, s.rows[i]);
  out += "], \"worst_pair\": " + pair_json(s) + ", \"skipped\": [";
  for (std::size_t i = 0; i < s.skipped.size(); ++i)
    out += (i ? ", " : "") + std::string("{\"name\": ") + json_string(s.skipped[i].name) + ", \"kind\": " +
           json_string(s.skipped[i].kind_text) + ", \"reason\": " + json_string(s.skipped[i].reason) + "}";
  return out + "], \"covers\": " + json_string(sensitivity_covers()) + "}";
}

AssumptionSpan assumption_span(const Sensitivity& s) { return assumption_span(s, false); }

namespace sensitivity_report {
bool fitted(const Sensitivity& s, const std::string& name) {
  return std::any_of(s.rows.begin(), s.rows.end(), [&name](const SensitivityRow& r) {
    return r.assumption.name == name && r.assumption.kind == AssumptionKind::calibration_fitted;
  });
}
}  // namespace sensitivity_report

AssumptionSpan assumption_span(const Sensitivity& s, bool without_fitted) {
  using sensitivity_report::head;
  using sensitivity_report::num;
  AssumptionSpan span;
  span.without_fitted = without_fitted;
  const double base = head(s.base);
  const auto consider = [&](double value, const std::string& by) {
    const double change = value - base;
    if (!std::isfinite(change)) {
      // An end without the answer (a knee not found there) has no fall or rise to add: said.
      if (std::isfinite(base)) span.lost_with.push_back(by);
      return;
    }
    if (change < span.down) {
      span.down = change;
      span.down_by = by;
    }
    if (change > span.up) {
      span.up = change;
      span.up_by = by;
    }
  };
  for (const SensitivityRow& r : s.rows) {
    if (without_fitted && r.assumption.kind == AssumptionKind::calibration_fitted) continue;
    consider(head(r.at_low), r.assumption.name + " at " + num(r.assumption.low));
    consider(head(r.at_high), r.assumption.name + " at " + num(r.assumption.high));
  }
  if (!s.has_pair) return span;
  const SensitivityPair& p = s.pair;
  if (without_fitted && (sensitivity_report::fitted(s, p.first) || sensitivity_report::fitted(s, p.second))) {
    span.pair_left_out = p.first + " and " + p.second;
    return span;
  }
  consider(head(p.at_down), p.first + " at " + num(p.first_value) + " with " + p.second + " at " + num(p.second_value));
  consider(head(p.at_up), p.first + " at " + num(p.first_up_value) + " with " + p.second + " at " + num(p.second_up_value));
  return span;
}

int assumptions_beyond_fit(const Sensitivity& s) {
  return static_cast<int>(std::count_if(s.rows.begin(), s.rows.end(), [](const SensitivityRow& r) {
    return r.assumption.kind != AssumptionKind::calibration_fitted;
  }));
}

namespace sensitivity_report {
// A range's low end moved down, kept at 0 where the range's own is (IOPS, latencies).
double moved_low(double low, const AssumptionSpan& span) { return low >= 0 ? std::max(0.0, low + span.down) : low + span.down; }
}  // namespace sensitivity_report

std::string format_with_assumptions(const std::string& answer, double low, double high, const AssumptionSpan& span) {
  using sensitivity_report::num;
  using sensitivity_report::signed_num;
  std::string left_out;
  if (span.without_fitted)
    left_out = "; the fitted calibration parameters left out, the range covers them" +
               (span.pair_left_out.empty() ? std::string()
                                           : ", and with them the worst pair, " + span.pair_left_out);
  std::string lost;
  for (const std::string& by : span.lost_with) lost += (lost.empty() ? "; no " + answer + " with " : ", ") + by;
  if (!lost.empty()) lost += " (not in these ends)";
  return "with the assumptions: " + answer + " " + num(sensitivity_report::moved_low(low, span)) + " .. " + num(high + span.up) +
         " (the range's ends moved by the largest fall, " + signed_num(span.down) +
         (span.down_by.empty() ? "" : " with " + span.down_by) + ", and rise, " + signed_num(span.up) +
         (span.up_by.empty() ? "" : " with " + span.up_by) + ", of the tornado" + left_out + lost + ")\n";
}

std::string with_assumptions_json(const std::string& answer, double low, double high, const AssumptionSpan& span) {
  std::string lost;
  for (const std::string& by : span.lost_with) lost += (lost.empty() ? "" : ", ") + json_string(by);
  return "{\"answer\": " + json_string(answer) + ", \"low\": " + json_number(sensitivity_report::moved_low(low, span)) +
         ", \"high\": " + json_number(high + span.up) + ", \"down\": " + json_number(span.down) +
         ", \"down_by\": " + json_string(span.down_by) + ", \"up\": " + json_number(span.up) +
         ", \"up_by\": " + json_string(span.up_by) + ", \"without_fitted\": " + (span.without_fitted ? "true" : "false") +
         ", \"pair_left_out\": " + (span.pair_left_out.empty() ? std::string("null") : json_string(span.pair_left_out)) +
         ", \"lost_with\": [" + lost + "]}";
}

}  // namespace hcisim
