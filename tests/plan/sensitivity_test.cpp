// Assumption sensitivity (plan/sensitivity.hpp): which assumptions a scenario has, the
// assumed: block's errors, the tornado's arithmetic on answers known in closed form, a
// planted decisive assumption on real runs, a load no assumption moves, and determinism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "../scenario/shared_catalog.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/plan/compare.hpp"
#include "hcisim/plan/sensitivity.hpp"

using namespace hcisim;

namespace sensitivity_test {

const std::string kShort = "workload.duration_s=0.2";
const std::string kShortWarmup = "workload.warmup_s=0.05";

// The built-in default with `extra` YAML appended at its top level.
Scenario default_with(const std::string& extra, const std::vector<std::string>& sets, const HardwareCatalog& cat) {
  return parse_scenario(default_scenario_yaml() + extra, "planted.yaml", sets, cat);
}

const Assumption* find(const std::vector<Assumption>& as, const std::string& name) {
  for (const Assumption& a : as)
    if (a.name == name) return &a;
  return nullptr;
}

bool skipped(const std::vector<SkippedAssumption>& ks, const std::string& name) {
  return std::any_of(ks.begin(), ks.end(), [&](const SkippedAssumption& k) { return k.name == name; });
}

// Two synthetic assumptions, "a" (0..1) and "b" (0..10), both scenario keys: the eval reads
// their values from the overrides, so the answers are known exactly.
std::vector<Assumption> synthetic() {
  Assumption a;
  a.name = "workload.read_pct";   // any key: the eval below never reads a scenario
  a.kind = AssumptionKind::scenario_assumed;
  a.kind_text = assumption_kind_name(a.kind);
  a.low = 0;
  a.high = 1;
  Assumption b = a;
  b.name = "workload.random_pct";
  b.high = 10;
  Assumption c = a;
  c.name = "workload.compress_pct";
  c.high = 100;
  return {a, b, c};
}

double value_of(const std::vector<std::string>& overrides, const std::string& path, double fallback) {
  for (const std::string& o : overrides)
    if (o.rfind(path + "=", 0) == 0) return std::stod(o.substr(path.size() + 1));
  return fallback;
}

// headline = 100 + 3 a - 2 b + 0.001 c (+ 0.01 per noise replication); second answer = a b.
SensitivityAnswer synthetic_answer(const std::vector<std::string>& o, std::uint64_t offset) {
  const double a = value_of(o, "workload.read_pct", 0.5), b = value_of(o, "workload.random_pct", 5);
  const double c = value_of(o, "workload.compress_pct", 50);
  return {{100 + 3 * a - 2 * b + 0.001 * c + 0.01 * static_cast<double>(offset), a * b}, b > 5 ? "net" : "cpu"};
}

// An example scenario, read with `sets`.
Scenario example(const std::string& file, const std::vector<std::string>& sets, const HardwareCatalog& cat) {
  const std::string path = default_data_dir() + "/../examples/scenarios/" + file;
  return parse_scenario(read_scenario_file(path), path, sets, cat);
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const std::string kOsa = "seed000-nuc11-osa-optane-fio-4k-70r.yaml";
const std::string kEsa = "seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml";

}  // namespace sensitivity_test

using namespace sensitivity_test;

TEST_CASE("the tornado's arithmetic on answers known in closed form", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  SensitivityOptions o;
  o.jobs = 2;
  const Sensitivity s = sensitivity(
      synthetic(), cat, {"h", "ab"},
      [](const HardwareCatalog&, const std::vector<std::string>& ov, std::uint64_t offset, const ProgressFn&) {
        return synthetic_answer(ov, offset);
      },
      o);
  // Base: a 0.5, b 5, c 50 -> 100 + 1.5 - 10 + 0.05; the noise runs add 0.01 and 0.02.
  CHECK(s.base[0] == Approx(91.55));
  CHECK(s.noise == Approx(0.02));
  CHECK(s.noise_runs == 2);
  REQUIRE(s.rows.size() == 3);
  // b swings 20, a 3, c 0.1: largest first.
  CHECK(s.rows[0].assumption.name == "workload.random_pct");
  CHECK(s.rows[0].swing == Approx(20));
  CHECK(s.rows[0].swing_pct == Approx(100 * 20 / 91.55));
  CHECK(s.rows[0].bottleneck_low == "cpu");
  CHECK(s.rows[0].bottleneck_high == "net");
  CHECK(s.rows[0].at_high[1] == Approx(0.5 * 10));
  CHECK(s.rows[1].assumption.name == "workload.read_pct");
  CHECK(s.rows[1].swing == Approx(3));
  CHECK(s.rows[2].swing == Approx(0.1));
  CHECK_FALSE(s.rows[1].within_noise);
  CHECK_FALSE(s.rows[2].within_noise);
  // The worst pair: b and a, down (b high, a low) -> 100 + 0 - 20 + 0.05 = 80.05, -11.5;
  // up (b low, a high) -> 103.05, +11.5. Additive here, so the pair adds the two alone.
  REQUIRE(s.has_pair);
  CHECK(s.pair.first == "workload.random_pct");
  CHECK(s.pair.second == "workload.read_pct");
  CHECK(s.pair.first_value == 10);
  CHECK(s.pair.second_value == 0);
  CHECK(s.pair.change_down == Approx(-11.5));
  CHECK(s.pair.change_up == Approx(11.5));
  CHECK(s.pair.sum_down == Approx(-11.5));
  // 1 base + 2 noise + 3 x 2 ends + 3 pairs x 2 directions.
  CHECK(s.runs == 15);
  CHECK(s.runs == sensitivity_runs(3));
  const std::string text = format_sensitivity(s);
  CHECK_THAT(text, Catch::Contains("workload.random_pct") && Catch::Contains("Worst plausible pair") &&
                       Catch::Contains("mechanisms the model lacks"));
}

TEST_CASE("a swing within the noise is flagged, and a failed end is kept with its error", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const Sensitivity s = sensitivity(
      synthetic(), cat, {"h", "ab"},
      [](const HardwareCatalog&, const std::vector<std::string>& ov, std::uint64_t offset, const ProgressFn&) {
        if (value_of(ov, "workload.read_pct", 0.5) == 1) throw InvalidArgument("planted.yaml: read_pct refused");
        SensitivityAnswer a = synthetic_answer(ov, offset);
        a.values[0] += 5 * static_cast<double>(offset);   // noise of 10.02 over the base's replications
        return a;
      });
  REQUIRE(s.rows.size() == 3);
  CHECK(s.noise == Approx(10.02));
  CHECK(s.rows[0].assumption.name == "workload.random_pct");
  CHECK_FALSE(s.rows[0].within_noise);   // 20 > 10.02
  CHECK(s.rows[1].assumption.name == "workload.compress_pct");
  CHECK(s.rows[1].within_noise);         // 0.1
  // read_pct's high end failed: no swing, sorted last, its error kept.
  CHECK(s.rows[2].assumption.name == "workload.read_pct");
  CHECK(std::isnan(s.rows[2].swing));
  CHECK_THAT(s.rows[2].error, Catch::Contains("at high: planted.yaml: read_pct refused"));
  CHECK_FALSE(s.rows[2].within_noise);
}

TEST_CASE("an answer found at one end only sorts first, with no noise when the base has none", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  // A knee-like headline: found (the synthetic value) on the noise runs, or with read_pct
  // below 0.25, or random_pct above 8; otherwise none. The base (0.5, 5) finds none.
  const Sensitivity s = sensitivity(
      synthetic(), cat, {"h", "ab"},
      [](const HardwareCatalog&, const std::vector<std::string>& ov, std::uint64_t offset, const ProgressFn&) {
        SensitivityAnswer a = synthetic_answer(ov, offset);
        const bool found = offset > 0 || value_of(ov, "workload.read_pct", 0.5) < 0.25 ||
                           value_of(ov, "workload.random_pct", 5) > 8;
        if (!found) a.values[0] = std::nan("");
        a.resolution = 0.5;
        return a;
      });
  CHECK(std::isnan(s.base[0]));
  // The noise runs found one, the base did not: their spread says nothing.
  CHECK(std::isnan(s.noise));
  REQUIRE(s.rows.size() == 3);
  // Both switches first, by name; compress_pct (none at either end, none at the base) last.
  CHECK(s.rows[0].assumption.name == "workload.random_pct");
  CHECK(s.rows[1].assumption.name == "workload.read_pct");
  CHECK(s.rows[2].assumption.name == "workload.compress_pct");
  CHECK(s.rows[0].switches);
  CHECK(s.rows[1].switches);
  CHECK_FALSE(s.rows[2].switches);
  CHECK_FALSE(s.rows[0].within_noise);
  CHECK_FALSE(s.rows[1].within_noise);
  // The pair of the two switches, a missing headline counting as the lower: down is
  // random_pct 0 with read_pct 1 (none), up random_pct 10 with read_pct 0: 100 - 20 + 0.05.
  REQUIRE(s.has_pair);
  CHECK(s.pair.first == "workload.random_pct");
  CHECK(s.pair.second == "workload.read_pct");
  CHECK(s.pair.first_value == 0);
  CHECK(s.pair.second_value == 1);
  CHECK(s.pair.first_up_value == 10);
  CHECK(s.pair.second_up_value == 0);
  CHECK(std::isnan(s.pair.at_down[0]));
  CHECK(s.pair.at_up[0] == Approx(80.05));
  const std::string text = format_sensitivity(s);
  CHECK_THAT(text, Catch::Contains("found at one end only") && Catch::Contains("noise - "));
  const std::string json = to_json(s);
  CHECK_THAT(json, Catch::Contains("\"noise\": null") && Catch::Contains("\"appears_or_disappears\": true") &&
                       Catch::Contains("\"appears_or_disappears\": false"));
}

TEST_CASE("an answer found at the base and at neither end sorts before every swing", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const Sensitivity s = sensitivity(
      synthetic(), cat, {"h", "ab"},
      [](const HardwareCatalog&, const std::vector<std::string>& ov, std::uint64_t offset, const ProgressFn&) {
        SensitivityAnswer a = synthetic_answer(ov, offset);
        if (value_of(ov, "workload.compress_pct", 50) != 50) a.values[0] = std::nan("");
        return a;
      });
  CHECK(s.noise == Approx(0.02));
  REQUIRE(s.rows.size() == 3);
  CHECK(s.rows[0].assumption.name == "workload.compress_pct");
  CHECK(s.rows[0].switches);
  CHECK(s.rows[1].assumption.name == "workload.random_pct");
  CHECK_FALSE(s.rows[1].switches);
  CHECK(s.rows[1].swing == Approx(20));
  CHECK_THAT(format_sensitivity(s), Catch::Contains("found at the base only"));
}

TEST_CASE("the sensitivity's wall estimate counts a knee's probes and a sweep's points", "[sensitivity]") {
  // A knee evaluation: the closed loop, then 5 rounds of 2 probes at 1 %.
  CHECK(knee_sensitivity_probes() == 11);
  // 15 runs 4 at a time: 4 waves; of one 2 s simulation each.
  CHECK(sensitivity_wall_estimate(15, 1, 2.0, 4) == Approx(8));
  // The same study of knees: each run 11 simulations one after another.
  CHECK(sensitivity_wall_estimate(15, knee_sensitivity_probes(), 2.0, 4) == Approx(88));
  // A sweep of 3 points, one study after another.
  CHECK(sensitivity_wall_estimate(15, 1, 2.0, 4, 3) == Approx(24));
  // More threads than runs: one wave; no runs: nothing.
  CHECK(sensitivity_wall_estimate(3, 1, 2.0, 8) == Approx(2));
  CHECK(sensitivity_wall_estimate(0, 1, 2.0, 8) == 0);
}

namespace sensitivity_test {
// A row of `kind` with the headline at `lo` and `hi` (its ends 0 and 1).
SensitivityRow row(const std::string& name, AssumptionKind kind, double lo, double hi) {
  SensitivityRow r;
  r.assumption.name = name;
  r.assumption.kind = kind;
  r.assumption.kind_text = assumption_kind_name(kind);
  r.assumption.low = 0;
  r.assumption.high = 1;
  r.at_low = {lo};
  r.at_high = {hi};
  r.swing = std::fabs(hi - lo);
  return r;
}
}  // namespace sensitivity_test

TEST_CASE("a range's assumption span leaves out the fitted calibration, which the range covers", "[sensitivity]") {
  Sensitivity s;
  s.names = {"iops"};
  s.base = {100};
  // The largest moves: a fitted parameter (-50, +60) and the pair with it (-60, +70).
  s.rows = {row("vsan_cpu_scale", AssumptionKind::calibration_fitted, 50, 160),
            row("workload.history_s", AssumptionKind::assumed_key, 90, 120),
            row("net_latency_scale", AssumptionKind::calibration_not_fitted, 95, 105)};
  s.has_pair = true;
  s.pair.first = "vsan_cpu_scale";
  s.pair.second = "workload.history_s";
  s.pair.at_down = {40};
  s.pair.at_up = {170};
  // The plain tornado's span: the pair.
  const AssumptionSpan all = assumption_span(s);
  CHECK(all.down == Approx(-60));
  CHECK(all.up == Approx(70));
  CHECK(all.pair_left_out.empty());
  // Beside a range: the fitted parameter and the pair with it left out.
  const AssumptionSpan span = assumption_span(s, true);
  CHECK(span.down == Approx(-10));
  CHECK(span.up == Approx(20));
  CHECK(span.down_by == "workload.history_s at 0");
  CHECK(span.up_by == "workload.history_s at 1");
  CHECK(span.pair_left_out == "vsan_cpu_scale and workload.history_s");
  CHECK(assumptions_beyond_fit(s) == 2);
  CHECK_THAT(format_with_assumptions("iops", 80, 110, span),
             Catch::StartsWith("with the assumptions: iops 70 .. 130 (") &&
                 Catch::Contains("and with them the worst pair, vsan_cpu_scale and workload.history_s"));
  CHECK_THAT(with_assumptions_json("iops", 80, 110, span),
             Catch::Contains("\"without_fitted\": true, \"pair_left_out\": \"vsan_cpu_scale and workload.history_s\""));
  // A pair of two that are not fitted stays in.
  s.pair.first = "net_latency_scale";
  const AssumptionSpan kept = assumption_span(s, true);
  CHECK(kept.down == Approx(-60));
  CHECK(kept.up == Approx(70));
  CHECK(kept.pair_left_out.empty());
}

TEST_CASE("an assumption's end without the answer (no knee there) is said, not added to the span", "[sensitivity]") {
  Sensitivity s;
  s.names = {"knee_iops"};
  s.base = {100};
  s.rows = {row("stack_latency_us", AssumptionKind::calibration_not_fitted, 90, std::nan("")),
            row("cluster.host.network.rx_queues", AssumptionKind::assumed_key, 80, 110)};
  const AssumptionSpan span = assumption_span(s, true);
  CHECK(span.down == Approx(-20));
  CHECK(span.up == Approx(10));
  CHECK(span.lost_with == std::vector<std::string>{"stack_latency_us at 1"});
  CHECK_THAT(format_with_assumptions("knee_iops", 95, 105, span),
             Catch::Contains("; no knee_iops with stack_latency_us at 1 (not in these ends)"));
  CHECK_THAT(with_assumptions_json("knee_iops", 95, 105, span),
             Catch::Contains("\"lost_with\": [\"stack_latency_us at 1\"]"));
  s.rows.pop_back();
  s.rows[0].at_high = {95};
  CHECK(assumption_span(s, true).lost_with.empty());
  CHECK_THAT(with_assumptions_json("knee_iops", 95, 105, assumption_span(s, true)),
             Catch::Contains("\"lost_with\": []"));
}

TEST_CASE("the assumptions of a scenario: calibration, unstated assumed keys, its own assumed: block", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  std::vector<SkippedAssumption> left;
  const Scenario d = default_with("", {}, cat);
  const std::vector<Assumption> as = scenario_assumptions(d, cat, &left);
  // The default is OSA over TCP with dedupe, a catalog NIC and its memory stated, no resync.
  for (const char* name : {"cluster.host.network.rx_queues", "cluster.osa.destage_idle_fill", "workload.history_s",
                           "congestion_delay_a_us", "stack_latency_us", "rx_thread_gbit_s", "dedupe_lookup_miss"})
    CHECK(find(as, name) != nullptr);
  for (const char* name : {"cluster.resync.outstanding", "esa_gc_factor", "esa_cpu_per_io_factor", "windows_guest_cpu_us",
                           "cluster.host.memory_gib", "cluster.host.network.rx_interrupt_us"}) {
    CHECK(find(as, name) == nullptr);
    CHECK(skipped(left, name));
  }
  // A fitted parameter moves 2 standard errors, clipped to its range; an unfitted one its range.
  for (const CalibrationParameter& p : cat.calibration().parameters()) {
    const Assumption* a = find(as, p.name);
    if (!a) continue;
    if (p.stderr_value > 0) {
      CHECK(a->kind == AssumptionKind::calibration_fitted);
      CHECK(a->low == Approx(std::max(p.min, p.fitted - 2 * p.stderr_value)));
      CHECK(a->high == Approx(std::min(p.max, p.fitted + 2 * p.stderr_value)));
    } else {
      CHECK(a->kind == AssumptionKind::calibration_not_fitted);
      CHECK(a->low == p.min);
      CHECK(a->high == p.max);
    }
  }
  // Without a catalog NIC and memory, their defaults are assumptions too.
  const Scenario bare = parse_scenario(
      "cluster:\n  hosts: 3\n  host:\n    cpu: {cores: 8, ghz: 3}\n    network: {speed_gbe: 10}\n"
      "    disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]\nworkload: {vms: 3}\n",
      "bare.yaml", {}, cat);
  const std::vector<Assumption> cs = scenario_assumptions(bare, cat);
  CHECK(find(cs, "cluster.host.memory_gib") != nullptr);
  CHECK(find(cs, "cluster.host.network.rx_interrupt_us") != nullptr);
  CHECK(find(cs, "dedupe_lookup_miss") == nullptr);
  const Assumption* rx = find(as, "cluster.host.network.rx_queues");
  REQUIRE(rx);
  CHECK(rx->base == 4);
  CHECK(rx->low == 1);
  CHECK(rx->high == 8);

  // A key the file states is not an assumption; its own block adds, or replaces a range.
  const Scenario e = parse_scenario(
      default_scenario_yaml() + "assumed: {cluster.host.cpu.cores: [4, 16], cluster.host.network.rx_queues: [2, 3]}\n",
      "planted.yaml", {"cluster.osa.destage_idle_fill=0.1", "data_services.dedupe=false"}, cat);
  left.clear();
  const std::vector<Assumption> bs = scenario_assumptions(e, cat, &left);
  CHECK(find(bs, "cluster.osa.destage_idle_fill") == nullptr);
  CHECK(skipped(left, "cluster.osa.destage_idle_fill"));
  CHECK(find(bs, "dedupe_lookup_miss") == nullptr);
  const Assumption* cores = find(bs, "cluster.host.cpu.cores");
  REQUIRE(cores);
  CHECK(cores->kind == AssumptionKind::scenario_assumed);
  CHECK(cores->low == 4);
  CHECK(cores->high == 16);
  CHECK(cores->why == "the scenario's assumed: block (planted.yaml:" + std::to_string(e.assumed[0].line) + ")");
  // The block's range replaces the table's for the same key, once.
  CHECK(std::count_if(bs.begin(), bs.end(), [](const Assumption& a) { return a.name == "cluster.host.network.rx_queues"; }) == 1);
  CHECK(find(bs, "cluster.host.network.rx_queues")->low == 2);
}

TEST_CASE("an assumed: block changes nothing in a plain run", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const Scenario plain = default_with("", {kShort, kShortWarmup}, cat);
  const Scenario with = default_with("assumed: {cluster.host.cpu.cores: [4, 16], workload.compress_pct: [0, 50]}\n",
                                     {kShort, kShortWarmup}, cat);
  REQUIRE(with.assumed.size() == 2);
  CHECK(with.assumed[1].path == "workload.compress_pct");
  CHECK(with.assumed[1].high == 50);
  const RunResult a = simulate(plain), b = simulate(with);
  CHECK(a.result.iops == b.result.iops);
  CHECK(a.result.pooled_latency_ms == b.result.pooled_latency_ms);
}

TEST_CASE("the assumed: block's errors name the file, line and key", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const auto error_of = [&cat](const std::string& block) {
    try {
      default_with(block, {}, cat);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string line = ":" + std::to_string(std::count(default_scenario_yaml().begin(), default_scenario_yaml().end(), '\n') + 2);
  CHECK(error_of("assumed: [1, 2]\n") ==
        "planted.yaml" + std::string(":") + std::to_string(std::count(default_scenario_yaml().begin(), default_scenario_yaml().end(), '\n') + 1) +
            ": assumed: expected a map of key paths to [low, high], e.g. assumed: {cluster.host.cpu.sockets: [1, 2], "
            "workload.compress_pct: [0, 50]}");
  CHECK(error_of("assumed:\n  cluster.host.cpu.socket: [1, 2]\n") ==
        "planted.yaml" + line + ": assumed: unknown key 'cluster.host.cpu.socket'; did you mean "
        "'cluster.host.cpu.sockets'? (hcisim keys lists every key)");
  CHECK(error_of("assumed:\n  cluster.host.cpu.model: [1, 2]\n") ==
        "planted.yaml" + line + ": assumed: cluster.host.cpu.model is a name key; an assumed range needs a key whose "
        "value is a number (type number or integer)");
  CHECK(error_of("assumed:\n  workload.compress_pct: [none, 50]\n") ==
        "planted.yaml" + line + ": assumed.workload.compress_pct: 'none' is not a number; expected [low, high], two "
        "numbers with low <= high");
  CHECK(error_of("assumed:\n  workload.compress_pct: 50\n") ==
        "planted.yaml" + line + ": assumed.workload.compress_pct is not allowed; expected [low, high], two numbers with "
        "low <= high");
  CHECK(error_of("assumed:\n  workload.compress_pct: [50, 0]\n") ==
        "planted.yaml" + line + ": assumed.workload.compress_pct = [50, 0]: low is above high; expected [low, high] "
        "with low <= high");
  CHECK(error_of("assumed:\n  workload.compress_pct: [0, 150]\n") ==
        "planted.yaml" + line + ": assumed.workload.compress_pct: 150 is outside the key's allowed range; expected a "
        "percentage 0..100");
  CHECK(error_of("assumed:\n  cluster.host.cpu.sockets: [1, 1.5]\n") ==
        "planted.yaml" + line + ": assumed.cluster.host.cpu.sockets: 1.5 is not a whole number; "
        "cluster.host.cpu.sockets takes whole numbers");
  CHECK(error_of("assumed:\n  cluster.host.memory_gb: [64, 128]\n") ==
        "planted.yaml" + line + ": assumed: key 'cluster.host.memory_gb' was retired; use cluster.host.memory_gib (the "
        "same figure: GiB, as DIMMs are counted)");
}

TEST_CASE("a planted decisive assumption tops the tornado of real runs", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  // The default's cores moved from 2 to 8 per host: two cores cannot carry vSAN's CPU work (one
  // is refused: its LSOM world pins one).
  // Without dedupe and with its history stated, nothing else the default assumes moves its
  // IOPS by more than a few percent.
  const std::string block = "assumed: {cluster.host.cpu.cores: [2, 8]}\n";
  const std::vector<std::string> sets{kShort, kShortWarmup, "data_services.dedupe=false",
                                      "data_services.compression=false", "workload.history_s=1800"};
  const Scenario s = default_with(block, sets, cat);
  const SensitivityReader read = [&](const HardwareCatalog& c, const std::vector<std::string>& more) {
    std::vector<std::string> all = sets;
    all.insert(all.end(), more.begin(), more.end());
    return default_with(block, all, c);
  };
  SensitivityOptions o;
  o.worst_pair = false;
  const Sensitivity r = run_sensitivity(s, read, cat, o);
  REQUIRE(r.rows.size() >= 8);
  CHECK(r.rows[0].assumption.name == "cluster.host.cpu.cores");
  CHECK(r.rows[0].swing > 2 * r.rows[1].swing);
  CHECK(r.rows[0].at_low[0] < r.rows[0].at_high[0]);
  CHECK_FALSE(r.rows[0].within_noise);
  CHECK_THAT(r.rows[0].bottleneck_low, Catch::Contains("cpu"));
}

TEST_CASE("a light open loop far from every limit: no assumption moves its IOPS beyond the noise", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const std::vector<std::string> sets{"workload.duration_s=0.5", kShortWarmup, "workload.iops_limit_per_vm=200"};
  const Scenario s = default_with("", sets, cat);
  const SensitivityReader read = [&](const HardwareCatalog& c, const std::vector<std::string>& more) {
    std::vector<std::string> all = sets;
    all.insert(all.end(), more.begin(), more.end());
    return default_with("", all, c);
  };
  SensitivityOptions o;
  o.worst_pair = false;
  const Sensitivity r = run_sensitivity(s, read, cat, o);
  REQUIRE(r.rows.size() >= 8);
  for (const SensitivityRow& row : r.rows) {
    INFO(row.assumption.name << ": swing " << row.swing << ", noise " << r.noise);
    CHECK(row.within_noise);
  }
}

TEST_CASE("a sensitivity is the same whatever the thread count", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const std::vector<std::string> sets{kShort, kShortWarmup};
  const Scenario s = default_with("", sets, cat);
  const SensitivityReader read = [&](const HardwareCatalog& c, const std::vector<std::string>& more) {
    std::vector<std::string> all = sets;
    all.insert(all.end(), more.begin(), more.end());
    return default_with("", all, c);
  };
  SensitivityOptions one, two;
  one.jobs = 1;
  two.jobs = 2;
  one.noise_replications = two.noise_replications = 1;
  const std::string a = to_json(run_sensitivity(s, read, cat, one)), b = to_json(run_sensitivity(s, read, cat, two));
  CHECK(a == b);
  CHECK_THAT(a, Catch::Contains("\"wall_s\": null") && Catch::Contains("\"worst_pair\": {"));
}

TEST_CASE("the tornado's text keeps long bottlenecks whole, each row on its own line", "[sensitivity]") {
  Sensitivity s;
  s.names = {"iops_b_minus_a"};
  s.base = {100};
  s.base_bottleneck = "A: " + std::string(300, 'a') + "; B: " + std::string(300, 'b') + " end of the base";
  for (const char* name : {"first.key", "second.key"}) {
    SensitivityRow r;
    r.assumption.name = name;
    r.at_low = {90};
    r.at_high = {110};
    r.swing = 20;
    r.bottleneck_low = std::string(400, 'l');
    r.bottleneck_high = std::string(400, 'h') + " end of the row";
    s.rows.push_back(r);
  }
  const std::string text = format_sensitivity(s);
  CHECK_THAT(text, Catch::Contains(" end of the base; 2 assumptions"));
  CHECK_THAT(text, Catch::Contains(" end of the row\nsecond.key "));
  CHECK_THAT(text, Catch::Contains(" end of the row\n\n"));
}

TEST_CASE("a comparison's assumptions are both sides', each acting where it applies", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const Scenario a = example(kOsa, {}, cat), b = example(kEsa, {}, cat);
  const ComparisonAssumptions c = comparison_assumptions(a, b, cat);
  // ESA's parameters act on B only; an OSA one on A only.
  REQUIRE(find(c.assumptions, "esa_gc_factor") != nullptr);
  CHECK(has(c.on_b, "esa_gc_factor"));
  CHECK_FALSE(has(c.on_a, "esa_gc_factor"));
  CHECK_FALSE(skipped(c.skipped, "esa_gc_factor"));
  REQUIRE(find(c.assumptions, "congestion_delay_a_us") != nullptr);
  CHECK(has(c.on_a, "congestion_delay_a_us"));
  CHECK_FALSE(has(c.on_b, "congestion_delay_a_us"));
  // B's assumed: block, after A's assumptions; it says what B's write-up left open, so it moves
  // B only (A's file does not state the sockets either, yet A's NUC is not moved to two).
  const Assumption* sockets = find(c.assumptions, "cluster.host.cpu.sockets");
  REQUIRE(sockets != nullptr);
  CHECK(sockets->kind == AssumptionKind::scenario_assumed);
  CHECK(has(c.on_b, "cluster.host.cpu.sockets"));
  CHECK_FALSE(has(c.on_a, "cluster.host.cpu.sockets"));
  CHECK(std::find_if(c.assumptions.begin(), c.assumptions.end(), [](const Assumption& x) {
          return x.name == "cluster.host.cpu.sockets";
        }) - c.assumptions.begin() >= static_cast<long>(scenario_assumptions(a, cat).size()));
  // A key A's file states is not moved on A (memory_gib: A states it, B does not).
  CHECK_FALSE(has(c.on_a, "cluster.host.memory_gib"));
  // Each name once; skipped only what applies to neither (no Windows guest on either side).
  for (const Assumption& x : c.assumptions)
    CHECK(std::count_if(c.assumptions.begin(), c.assumptions.end(), [&x](const Assumption& y) { return y.name == x.name; }) == 1);
  CHECK(skipped(c.skipped, "windows_guest_cpu_us"));
  for (const SkippedAssumption& k : c.skipped) CHECK(find(c.assumptions, k.name) == nullptr);
}

TEST_CASE("a key both sides declare with different ranges is moved over their union", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const Scenario a = default_with("assumed: {workload.outstanding_per_vmdk: [2, 6]}\n", {}, cat);
  const Scenario b = default_with("assumed: {workload.outstanding_per_vmdk: [4, 12]}\n", {}, cat);
  const ComparisonAssumptions c = comparison_assumptions(a, b, cat);
  const Assumption* x = find(c.assumptions, "workload.outstanding_per_vmdk");
  REQUIRE(x != nullptr);
  CHECK(x->low == 2);
  CHECK(x->high == 12);
  CHECK_THAT(x->why, Catch::Contains("union") && Catch::Contains("2..6") && Catch::Contains("4..12"));
  CHECK(has(c.on_a, x->name));
  CHECK(has(c.on_b, x->name));
}

TEST_CASE("an OSA to ESA comparison's tornado moves ESA's parameters on B", "[sensitivity]") {
  const HardwareCatalog& cat = test::cat();
  const std::vector<std::string> sets{kShort, kShortWarmup};
  const Scenario a = example(kOsa, sets, cat), b = example(kEsa, sets, cat);
  const auto reader = [&](const std::string& file) {
    return SensitivityReader([&cat, &sets, file](const HardwareCatalog& c, const std::vector<std::string>& more) {
      std::vector<std::string> all = sets;
      all.insert(all.end(), more.begin(), more.end());
      return example(file, all, c);
    });
  };
  SensitivityOptions o;
  o.worst_pair = false;
  const Sensitivity r = compare_sensitivity(a, b, reader(kOsa), reader(kEsa), cat, o);
  const auto row = [&r](const std::string& name) -> const SensitivityRow* {
    for (const SensitivityRow& x : r.rows)
      if (x.assumption.name == name) return &x;
    return nullptr;
  };
  const SensitivityRow* gc = row("esa_gc_factor");
  REQUIRE(gc != nullptr);
  CHECK(gc->error.empty());
  CHECK_FALSE(skipped(r.skipped, "esa_gc_factor"));
  CHECK(gc->at_low[1] == gc->at_high[1]);   // A (OSA) is left as it is
  CHECK(gc->at_low[2] != gc->at_high[2]);   // B (ESA) moves
  CHECK(row("cluster.host.cpu.sockets") != nullptr);
  CHECK(row("workload.compress_pct") != nullptr);
}
