// Assumption sensitivity: every assumption at both ends of its range, one at a time, with
// common random numbers, in parallel (sensitivity.hpp).
#include "hcisim/plan/sensitivity.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <functional>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/parallel.hpp"
#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/plan/analytic.hpp"

namespace hcisim {

const char* assumption_kind_name(AssumptionKind k) {
  switch (k) {
    case AssumptionKind::calibration_not_fitted: return "calibration (not fitted)";
    case AssumptionKind::calibration_fitted: return "calibration (fitted, +-2 se)";
    case AssumptionKind::assumed_key: return "assumed key";
    case AssumptionKind::scenario_assumed: return "scenario assumed:";
  }
  return "?";
}

// Helpers in a named namespace: the library is a unity build, and answer_range.cpp's
// anonymous helpers would otherwise meet these.
namespace sensitivity_detail {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Why a calibration parameter does not act on this cluster (Calibration::moves is false).
std::string parameter_not_acting(const std::string& name) {
  if (name == "guest_cpu_us") return "no Linux guest runs";
  if (name == "windows_guest_cpu_us") return "no Windows guest runs";
  if (name == "esa_gc_factor" || name == "esa_cpu_per_io_factor") return "ESA only";
  if (name == "congestion_delay_a_us") return "OSA only";
  if (name == "rx_thread_gbit_s") return "TCP only (the network is RDMA)";
  if (name == "dedupe_lookup_miss") return "OSA with dedupe only";
  if (name == "lsom_cost_factor") return "OSA with LSOM worlds only";
  if (name == "usb_bridge_latency_us") return "no drive sits behind a USB bridge";
  return "does not act on this cluster";
}

// The scenario key whose default is the calibration parameter `name`, if the file states it
// (the file's value then wins over the calibration: moving it moves nothing).
std::string stated_override(const Scenario& s, const std::string& name) {
  const std::string marker = "data/calibration.yaml " + name;
  for (const FileKey& k : file_keys("scenario"))
    if (k.default_text == marker && scenario_states(s, k.path)) return std::string(k.path);
  return {};
}

// Why an assumed key does not act on this cluster, or "" when it does.
std::string key_not_acting(const Scenario& s, std::string_view path) {
  const ClusterSpec& c = s.cluster;
  const bool osa = c.architecture == Architecture::osa;
  const bool rdma = c.network.framing.transport == Transport::rdma;
  if (path == "cluster.resync.outstanding" && !c.resync.active) return "no resync (cluster.resync.active is false)";
  if (path == "cluster.host.memory_gib" && !(c.client_cache_mb > 0)) return "the client cache is off (client_cache_mib 0)";
  if ((path == "cluster.host.network.rx_queues" || path == "cluster.host.network.rx_interrupt_us") && rdma)
    return "RDMA receives without the receive queues";
  if (path == "cluster.host.network.rx_interrupt_us") {
    if (scenario_states(s, "cluster.host.network.nic")) return "the catalog NIC's figure (cluster.host.network.nic is stated)";
    if (c.fabric.rx_queues == 0) return "rx_queues 0: no receive queues to moderate";
  }
  if ((path == "cluster.osa.destage_idle_fill" || path == "workload.history_s") && !osa)
    return "OSA only (ESA has no write buffer to age or drain)";
  if (path == "cluster.esa.client_worlds_per_object") {
    if (osa) return "ESA only";
    if (c.release < VsanRelease::v8_0u2) return "one world per object before vSAN 8.0 U2 (cluster.vsan_release)";
  }
  if (path == "cluster.esa.large_write_kib") {
    if (osa) return "ESA only";
    if (c.release < VsanRelease::v8_0u1) return "vSAN 8.0 has no large-I/O write path (cluster.vsan_release)";
    if (largest_write_block(s) < 128 * 1024) return "no write of 128 KiB or more (the range's low end)";
  }
  return {};
}

double rounded_end(const FileKey& k, double v) { return k.type == "integer" ? std::round(v) : v; }

void calibration_assumptions(const Scenario& s, const HardwareCatalog& cat, std::vector<Assumption>& out,
                             std::vector<SkippedAssumption>& skipped) {
  std::vector<GuestOs> guests;
  for (const WorkloadSpec& w : scenario_workloads(s)) guests.push_back(w.guest_os);
  for (const CalibrationParameter& p : cat.calibration().parameters()) {
    Assumption a;
    a.name = p.name;
    const bool fitted = p.stderr_value > 0;
    a.kind = fitted ? AssumptionKind::calibration_fitted : AssumptionKind::calibration_not_fitted;
    a.kind_text = assumption_kind_name(a.kind);
    a.base = p.fitted;
    a.low = fitted ? std::max(p.min, p.fitted - 2 * p.stderr_value) : p.min;
    a.high = fitted ? std::min(p.max, p.fitted + 2 * p.stderr_value) : p.max;
    a.why = fitted ? "fitted " + json_number(p.fitted) + " +- 2 x " + json_number(p.stderr_value) + " (clipped to " +
                         json_number(p.min) + ".." + json_number(p.max) + "): " + p.provenance
                   : p.range_source;
    if (!cat.calibration().moves(p.name, s.cluster, guests)) {
      skipped.push_back({a.name, a.kind_text, parameter_not_acting(p.name)});
      continue;
    }
    if (const std::string key = stated_override(s, p.name); !key.empty()) {
      skipped.push_back({a.name, a.kind_text, "the file states " + key + ", which wins over the calibration"});
      continue;
    }
    if (!(a.high > a.low)) {
      skipped.push_back({a.name, a.kind_text, "a range of zero width"});
      continue;
    }
    out.push_back(std::move(a));
  }
}

void key_assumptions(const Scenario& s, std::vector<Assumption>& out, std::vector<SkippedAssumption>& skipped) {
  const char* kind = assumption_kind_name(AssumptionKind::assumed_key);
  for (const FileKey& k : file_keys("scenario")) {
    if (!k.assumed() || k.retired()) continue;
    const std::string path(k.path);
    if (scenario_states(s, path)) {
      skipped.push_back({path, kind, "the file states it"});
      continue;
    }
    if (!(k.assumed_min == k.assumed_min && k.assumed_max == k.assumed_max)) {
      skipped.push_back({path, kind, "a choice, not a numeric range: not moved (" + std::string(k.assumed_why) + ")"});
      continue;
    }
    if (const std::string why = key_not_acting(s, path); !why.empty()) {
      skipped.push_back({path, kind, why});
      continue;
    }
    Assumption a;
    a.name = path;
    a.kind = AssumptionKind::assumed_key;
    a.kind_text = kind;
    a.base = k.value ? k.value(s) : kNan;
    a.low = rounded_end(k, k.assumed_min);
    a.high = rounded_end(k, k.assumed_max);
    a.unit = std::string(k.unit);
    a.why = std::string(k.assumed_why);
    out.push_back(std::move(a));
  }
}

void declared_assumptions(const Scenario& s, std::vector<Assumption>& out) {
  for (const DeclaredAssumption& d : s.assumed) {
    // The file's own range for a key replaces the table's.
    out.erase(std::remove_if(out.begin(), out.end(), [&d](const Assumption& a) { return a.name == d.path; }), out.end());
    const std::vector<FileKey> rows = file_keys(d.path);
    Assumption a;
    a.name = d.path;
    a.kind = AssumptionKind::scenario_assumed;
    a.kind_text = assumption_kind_name(a.kind);
    a.base = kNan;
    for (const FileKey& k : rows)
      if (k.path == d.path) {
        a.base = k.value ? k.value(s) : kNan;
        a.unit = std::string(k.unit);
      }
    a.low = d.low;
    a.high = d.high;
    a.why = "the scenario's assumed: block" + (d.line > 0 ? " (" + s.source + ":" + std::to_string(d.line) + ")" : std::string());
    out.push_back(std::move(a));
  }
}

// `v` as a --set value: the shortest text that reads back as it.
std::string value_text(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, end) : std::string("0");
}

// One evaluation: the catalog (moved, or the base) and the extra --set overrides.
struct Move {
  std::optional<HardwareCatalog> catalog;   // empty: the base catalog
  std::vector<std::string> overrides;
};

// `a` at value `v`, on top of `m` (a pair moves two).
void add_move(Move& m, const Assumption& a, double v, const HardwareCatalog& base) {
  if (a.calibration()) {
    if (!m.catalog) m.catalog = base;
    Calibration c = m.catalog->calibration();
    c.set(a.name, v);
    m.catalog->set_calibration(c);
  } else {
    m.overrides.push_back(a.name + "=" + value_text(v));
  }
}

struct Outcome {
  SensitivityAnswer answer;
  std::string error;   // what a read or run said (the answer then NaN)
};

// Every move evaluated, in parallel; a move whose read or run fails (a moved value the
// scenario refuses, a run that stalls) gives NaN answers and its error, except the first
// `must_succeed` (the base and its noise runs). Anything else, such as a stop thrown by the
// progress function, ends the study.
std::vector<Outcome> evaluate(const std::vector<Move>& moves, const std::vector<std::uint64_t>& offsets,
                              const HardwareCatalog& catalog, std::size_t names, const SensitivityEval& eval,
                              const SensitivityOptions& options, std::size_t must_succeed) {
  std::vector<Outcome> out(moves.size());
  parallel_for(moves.size(), options.jobs, [&](std::size_t i) {
    const HardwareCatalog& c = moves[i].catalog ? *moves[i].catalog : catalog;
    const auto failed = [&](const char* what) {
      out[i].error = what;
      out[i].answer.values.assign(names, kNan);
    };
    try {
      out[i].answer = eval(c, moves[i].overrides, offsets[i], options.run_progress);
    } catch (const InvalidArgument& e) {
      if (i < must_succeed) throw;
      failed(e.what());
    } catch (const std::runtime_error& e) {   // a run whose model stalled
      if (i < must_succeed) throw;
      failed(e.what());
    }
    if (out[i].answer.values.size() != names)
      throw InvalidArgument("sensitivity: an answer gave " + std::to_string(out[i].answer.values.size()) +
                            " values for " + std::to_string(names) + " names");
  });
  return out;
}

double headline(const std::vector<double>& v) { return v.empty() ? kNan : v[0]; }

// The noise estimate: the headline's spread over the base and its extra replications.
double spread(const std::vector<Outcome>& runs, std::size_t n) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  int found = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double h = headline(runs[i].answer.values);
    if (!std::isfinite(h)) continue;
    lo = std::min(lo, h);
    hi = std::max(hi, h);
    ++found;
  }
  return found >= 2 ? hi - lo : kNan;
}

// The rows whose answer appears or disappears first (by name), then by swing, largest first;
// rows without a swing last; ties keep the input order.
void sort_rows(std::vector<SensitivityRow>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const SensitivityRow& a, const SensitivityRow& b) {
    if (a.switches != b.switches) return a.switches;
    if (a.switches) return a.assumption.name < b.assumption.name;
    const bool fa = std::isfinite(a.swing), fb = std::isfinite(b.swing);
    if (fa != fb) return fa;
    return fa && a.swing > b.swing;
  });
}

// Whether the headline `x` is below `y`, no headline (NaN) below every number: a knee not
// found is the worse answer.
bool below(double x, double y) {
  if (std::isnan(x)) return !std::isnan(y);
  return !std::isnan(y) && x < y;
}

// The end of `r` that lowered the headline (down) or raised it (up).
double end_toward(const SensitivityRow& r, bool down) {
  const bool low_is_lower = !below(headline(r.at_high), headline(r.at_low));
  return low_is_lower == down ? r.assumption.low : r.assumption.high;
}

// The headline's change from `base` at the end of `r` that lowered (down) or raised (up) it.
double single_change(const SensitivityRow& r, bool down, double base) {
  const double a = headline(r.at_low), b = headline(r.at_high);
  const bool a_lower = !below(b, a);
  return ((a_lower == down) ? a : b) - base;
}

// The worst plausible pair among the top three rows as they sort (a switch or a swing): each
// pair moved both down, then both up; the pair whose larger |change| is largest.
void worst_pair(Sensitivity& out, const HardwareCatalog& catalog, const SensitivityEval& eval,
                const SensitivityOptions& options) {
  std::vector<const SensitivityRow*> top;
  for (const SensitivityRow& r : out.rows)
    if (top.size() < 3 && (r.switches || std::isfinite(r.swing)) && r.error.empty()) top.push_back(&r);
  if (top.size() < 2) return;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < top.size(); ++i)
    for (std::size_t j = i + 1; j < top.size(); ++j) pairs.emplace_back(i, j);
  std::vector<Move> moves;
  for (const auto& [i, j] : pairs)
    for (bool down : {true, false}) {
      Move m;
      add_move(m, top[i]->assumption, end_toward(*top[i], down), catalog);
      add_move(m, top[j]->assumption, end_toward(*top[j], down), catalog);
      moves.push_back(std::move(m));
    }
  const std::vector<Outcome> got =
      evaluate(moves, std::vector<std::uint64_t>(moves.size(), 0), catalog, out.names.size(), eval, options, 0);
  out.runs += static_cast<int>(moves.size());
  const double base = headline(out.base);
  double worst = -1;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const SensitivityRow& a = *top[pairs[p].first];
    const SensitivityRow& b = *top[pairs[p].second];
    SensitivityPair c;
    c.first = a.assumption.name;
    c.second = b.assumption.name;
    c.first_value = end_toward(a, true);
    c.second_value = end_toward(b, true);
    c.first_up_value = end_toward(a, false);
    c.second_up_value = end_toward(b, false);
    c.at_down = got[2 * p].answer.values;
    c.bottleneck_down = got[2 * p].answer.bottleneck;
    c.at_up = got[2 * p + 1].answer.values;
    c.bottleneck_up = got[2 * p + 1].answer.bottleneck;
    c.change_down = headline(c.at_down) - base;
    c.change_up = headline(c.at_up) - base;
    c.sum_down = single_change(a, true, base) + single_change(b, true, base);
    c.sum_up = single_change(a, false, base) + single_change(b, false, base);
    const double size = std::max(std::isfinite(c.change_down) ? std::fabs(c.change_down) : 0.0,
                                 std::isfinite(c.change_up) ? std::fabs(c.change_up) : 0.0);
    if (size > worst) {
      worst = size;
      out.pair = std::move(c);
      out.has_pair = true;
    }
  }
}

}  // namespace sensitivity_detail

std::vector<Assumption> scenario_assumptions(const Scenario& scenario, const HardwareCatalog& catalog,
                                             std::vector<SkippedAssumption>* skipped) {
  std::vector<Assumption> out;
  std::vector<SkippedAssumption> left;
  sensitivity_detail::calibration_assumptions(scenario, catalog, out, left);
  sensitivity_detail::key_assumptions(scenario, out, left);
  sensitivity_detail::declared_assumptions(scenario, out);
  // A skipped entry the scenario's own block names is not skipped.
  std::erase_if(left, [&out](const SkippedAssumption& k) {
    return std::any_of(out.begin(), out.end(), [&k](const Assumption& a) { return a.name == k.name; });
  });
  if (skipped) *skipped = std::move(left);
  return out;
}

namespace sensitivity_detail {

// Whether assumption `name` acts on scenario `s`: among its assumptions, or a key it neither
// states nor skips (a key of the other side's assumed: block that this side does not name).
// A key from the other side's list moves this side where this file leaves it unstated, unless
// it comes from the other file's own assumed: block: that says what the other write-up left
// open (seed 001's sockets), not this one.
bool acts_on(const Assumption& x, const Scenario& s, const std::vector<Assumption>& own,
             const std::vector<SkippedAssumption>& skipped) {
  const auto named = [&x](const auto& y) { return y.name == x.name; };
  if (std::any_of(own.begin(), own.end(), named)) return true;
  if (x.calibration() || x.kind == AssumptionKind::scenario_assumed || std::any_of(skipped.begin(), skipped.end(), named))
    return false;
  return !scenario_states(s, x.name);
}

// `b`'s range folded into `a`'s: the union of the two, said in why.
void widen(Assumption& a, const Assumption& b) {
  if (a.low == b.low && a.high == b.high) return;
  a.why = "the union of A's " + json_number(a.low) + ".." + json_number(a.high) + " (" + a.why + ") and B's " +
          json_number(b.low) + ".." + json_number(b.high) + " (" + b.why + ")";
  a.low = std::min(a.low, b.low);
  a.high = std::max(a.high, b.high);
}

// A skipped assumption of both sides: one reason when they agree, else each side's.
SkippedAssumption skipped_by_both(const SkippedAssumption& a, const std::vector<SkippedAssumption>& b) {
  for (const SkippedAssumption& k : b)
    if (k.name == a.name && k.reason != a.reason) return {a.name, a.kind_text, "A: " + a.reason + "; B: " + k.reason};
  return a;
}

}  // namespace sensitivity_detail

ComparisonAssumptions comparison_assumptions(const Scenario& a, const Scenario& b, const HardwareCatalog& catalog) {
  using namespace sensitivity_detail;
  std::vector<SkippedAssumption> skip_a, skip_b;
  const std::vector<Assumption> own_a = scenario_assumptions(a, catalog, &skip_a);
  const std::vector<Assumption> own_b = scenario_assumptions(b, catalog, &skip_b);
  ComparisonAssumptions r;
  r.assumptions = own_a;
  for (const Assumption& x : own_b) {
    const auto same = std::find_if(r.assumptions.begin(), r.assumptions.end(),
                                   [&x](const Assumption& y) { return y.name == x.name; });
    if (same != r.assumptions.end())
      widen(*same, x);
    else
      r.assumptions.push_back(x);
  }
  for (const Assumption& x : r.assumptions) {
    if (acts_on(x, a, own_a, skip_a)) r.on_a.push_back(x.name);
    if (acts_on(x, b, own_b, skip_b)) r.on_b.push_back(x.name);
  }
  const auto listed = [&r](const std::string& name) {
    return std::any_of(r.assumptions.begin(), r.assumptions.end(), [&name](const Assumption& y) { return y.name == name; });
  };
  for (const SkippedAssumption& k : skip_a)
    if (!listed(k.name)) r.skipped.push_back(skipped_by_both(k, skip_b));
  for (const SkippedAssumption& k : skip_b) {
    const auto named = [&k](const SkippedAssumption& y) { return y.name == k.name; };
    if (!listed(k.name) && std::none_of(r.skipped.begin(), r.skipped.end(), named)) r.skipped.push_back(k);
  }
  return r;
}

int sensitivity_runs(std::size_t assumptions, const SensitivityOptions& options) {
  const std::size_t top = std::min<std::size_t>(assumptions, 3);
  const std::size_t pairs = top * (top - (top > 0 ? 1 : 0)) / 2;
  return static_cast<int>(1 + static_cast<std::size_t>(std::max(0, options.noise_replications)) + 2 * assumptions +
                          (options.worst_pair ? 2 * pairs : 0));
}

int knee_sensitivity_probes() { return 1 + knee_rounds(KneeOptions{}.precision) * kKneeProbesPerRound; }

double sensitivity_wall_estimate(int runs, int probes, double one_s, int at_once, int studies) {
  if (runs <= 0 || studies <= 0) return 0;
  const int parallel = std::clamp(at_once, 1, runs);
  const double waves = std::ceil(static_cast<double>(runs) / static_cast<double>(parallel));
  return studies * waves * std::max(1, probes) * one_s;
}

Sensitivity sensitivity(const std::vector<Assumption>& assumptions, const HardwareCatalog& catalog,
                        const std::vector<std::string>& names, const SensitivityEval& eval,
                        const SensitivityOptions& options) {
  using namespace sensitivity_detail;
  check::in_range(options.jobs, 0, 256, "sensitivity jobs");
  check::in_range(options.noise_replications, 0, 10, "sensitivity noise replications");
  if (names.empty()) throw InvalidArgument("sensitivity: no answer named");
  const auto start = std::chrono::steady_clock::now();
  Sensitivity out;
  out.names = names;
  // The base, its noise runs, then every assumption at its low and its high end.
  const auto noise = static_cast<std::size_t>(options.noise_replications);
  std::vector<Move> moves(1 + noise);
  std::vector<std::uint64_t> offsets;
  for (std::size_t i = 0; i <= noise; ++i) offsets.push_back(i);
  for (const Assumption& a : assumptions)
    for (double v : {a.low, a.high}) {
      Move m;
      add_move(m, a, v, catalog);
      moves.push_back(std::move(m));
      offsets.push_back(0);
    }
  const std::vector<Outcome> got = evaluate(moves, offsets, catalog, names.size(), eval, options, 1 + noise);
  out.runs = static_cast<int>(moves.size());
  out.base = got[0].answer.values;
  out.base_bottleneck = got[0].answer.bottleneck;
  out.noise_runs = options.noise_replications;
  const double base = headline(out.base);
  // No headline at the base (no knee): the noise runs that found one tell nothing of its spread.
  out.noise = std::isfinite(base) ? spread(got, 1 + noise) : kNan;
  if (std::isfinite(base) && got[0].answer.resolution > 0)
    out.noise = std::isfinite(out.noise) ? std::max(out.noise, got[0].answer.resolution) : got[0].answer.resolution;
  for (std::size_t k = 0; k < assumptions.size(); ++k) {
    const Outcome& lo = got[1 + noise + 2 * k];
    const Outcome& hi = got[2 + noise + 2 * k];
    SensitivityRow r;
    r.assumption = assumptions[k];
    r.at_low = lo.answer.values;
    r.at_high = hi.answer.values;
    r.bottleneck_low = lo.answer.bottleneck;
    r.bottleneck_high = hi.answer.bottleneck;
    r.error = !lo.error.empty() ? "at low: " + lo.error : !hi.error.empty() ? "at high: " + hi.error : "";
    r.swing = std::fabs(headline(r.at_high) - headline(r.at_low));
    r.swing_pct = std::isfinite(base) && base != 0 ? 100 * r.swing / std::fabs(base) : kNan;
    const bool at_low = std::isfinite(headline(r.at_low)), at_high = std::isfinite(headline(r.at_high));
    r.switches = r.error.empty() && (at_low != at_high || (std::isfinite(base) && !at_low && !at_high));
    r.within_noise = !r.switches && std::isfinite(r.swing) && std::isfinite(out.noise) && r.swing <= out.noise;
    out.rows.push_back(std::move(r));
  }
  sort_rows(out.rows);
  if (options.worst_pair) worst_pair(out, catalog, eval, options);
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

namespace sensitivity_detail {

// The answer of one read scenario, told whether it is the base (the unmoved scenario on its
// own replication), so a command can keep the base's whole result.
using BaseAwareAnswer = std::function<SensitivityAnswer(const Scenario& s, const ProgressFn& progress, bool base)>;

Sensitivity study(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                  const std::vector<std::string>& names, const BaseAwareAnswer& answer, const SensitivityOptions& options) {
  std::vector<SkippedAssumption> skipped;
  const std::vector<Assumption> assumptions = scenario_assumptions(scenario, catalog, &skipped);
  Sensitivity s = sensitivity(
      assumptions, catalog, names,
      [&](const HardwareCatalog& c, const std::vector<std::string>& overrides, std::uint64_t offset,
          const ProgressFn& progress) {
        Scenario moved = read(c, overrides);
        moved.replication += offset;
        return answer(moved, progress, &c == &catalog && overrides.empty() && offset == 0);
      },
      options);
  s.skipped = std::move(skipped);
  return s;
}

}  // namespace sensitivity_detail

Sensitivity sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                        const std::vector<std::string>& names, const SensitivityAnswerFn& answer,
                        const SensitivityOptions& options) {
  return sensitivity_detail::study(scenario, read, catalog, names,
                                   [&answer](const Scenario& s, const ProgressFn& progress, bool) { return answer(s, progress); },
                                   options);
}

Sensitivity run_sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                            const SensitivityOptions& options, RunResult* base_run) {
  return sensitivity_detail::study(scenario, read, catalog, {"iops", "pooled_latency_ms", "pooled_p95_ms"},
                                   [base_run](const Scenario& s, const ProgressFn& progress, bool base) {
                                     RunResult r = simulate(s, progress);
                                     const bool any = r.result.simulated_ios > 0;
                                     const double none = std::numeric_limits<double>::quiet_NaN();
                                     SensitivityAnswer a{{r.result.iops, any ? r.result.pooled_latency_ms : none,
                                                          any ? latency_statistic(r, LatencyStat::p95) : none},
                                                         r.bottleneck,
                                                         r.result.seconds > 0 ? 2 / r.result.seconds : 0};
                                     if (base && base_run) *base_run = std::move(r);   // one base run: no race
                                     return a;
                                   },
                                   options);
}

Sensitivity knee_sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                             const KneeTarget& target, const SensitivityOptions& options, KneeResult* base_knee) {
  return sensitivity_detail::study(scenario, read, catalog, {"knee_iops", "latency_ms"},
                                   [&target, base_knee](const Scenario& s, const ProgressFn& progress, bool base) {
                                     KneeOptions o;
                                     o.jobs = 1;   // the assumptions are the parallel work
                                     o.run_progress = progress;
                                     KneeResult k = find_knee(s, target, o);
                                     const double none = std::numeric_limits<double>::quiet_NaN();
                                     SensitivityAnswer a{{k.found ? k.iops : none, k.found ? k.latency_ms : none},
                                                         k.bottleneck, k.resolution_iops};
                                     if (base && base_knee) *base_knee = std::move(k);
                                     return a;
                                   },
                                   options);
}

Sensitivity curve_sensitivity(const Scenario& scenario, const SensitivityReader& read, const HardwareCatalog& catalog,
                              double limit_ms, const SensitivityOptions& options) {
  if (!(limit_ms > 0)) throw InvalidArgument("curve sensitivity: the knee's mean latency limit must be > 0 ms");
  return sensitivity(scenario, read, catalog, {"knee_iops", "ceiling_iops"},
                     [limit_ms](const Scenario& s, const ProgressFn& progress) {
                       const AnalyticModel m = analytic_model(s, progress);
                       const double knee = analytic_knee(m, limit_ms).iops;
                       std::string station;
                       const double ceiling = analytic_ceiling(m, &station);
                       const double none = std::numeric_limits<double>::quiet_NaN();
                       return SensitivityAnswer{{knee > 0 ? knee : none, std::isfinite(ceiling) ? ceiling : none}, station};
                     },
                     options);
}

}  // namespace hcisim
