// Inverse sizing (plan/sizing.hpp): on a grid small enough to simulate whole, `size` returns
// exactly the cheapest designs the simulator finds passing and never one it finds failing;
// bad requirements are refused naming the file, the block and why.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "../scenario/shared_catalog.hpp"
#include "hcisim/core/check.hpp"
#include "hcisim/plan/sizing.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/runner.hpp"

using namespace hcisim;

namespace {

// Seed 000's parts (the catalog and the illustrative price file price them all): one or two
// disk groups a host, RAID-1 or RAID-5, 3..5 hosts, one host down. 4K 70/30 at 110K IOPS sits
// between what one and two disk groups deliver, so both outcomes occur.
std::string grid_yaml(const std::string& extra = "") {
  return R"(name: grid
workload: {iops: 110000, block_size: 4k, read_pct: 70, p95_ms: 5, capacity_tb: 2, vms: 8}
host_failures: 1
candidates:
  hosts: {min: 3, max: 5}
  host_models:
    - {name: 1dg, cpu: {model: intel-core-i7-11700b}, disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}
    - name: 2dg
      cpu: {model: intel-core-i7-11700b}
      disk_groups:
        - {cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}
        - {cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}
  networks: [{nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}]
  policies: [{raid: raid1, ftt: 1}, {raid: raid5, ftt: 1}]
prices: )" + default_data_dir() + R"(/../examples/prices/illustrative-2023.yaml
run: {duration_s: 0.3, warmup_s: 0.1}
top: 2
)" + extra;
}

std::string write_temp(const std::string& text) {
  static int n = 0;
  const auto path = std::filesystem::temp_directory_path() /
                    ("hcisim_sizing_" + std::to_string(::getpid()) + "_" + std::to_string(n++) + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

std::string error_of(const std::string& text) {
  HardwareCatalog cat = test::cat();
  const std::string path = write_temp(text);
  try {
    (void)read_requirements(path, cat);
  } catch (const InvalidArgument& e) {
    std::filesystem::remove(path);
    return e.what();
  }
  std::filesystem::remove(path);
  return "no error";
}

// `text` with its one `from` replaced by `to` (which must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// A requirements text, read through a temporary file.
Requirements requirements_of(const std::string& text, HardwareCatalog& cat) {
  const std::string path = write_temp(text);
  struct Remove {
    std::string p;
    ~Remove() { std::filesystem::remove(p); }
  } remove{path};
  return read_requirements(path, cat);
}

}  // namespace

namespace {

// size_cluster against every candidate of the requirements simulated: it returns exactly the
// cheapest passes and every cheaper failure it lists fails.
SizingResult check_against_grid(const std::string& yaml) {
  HardwareCatalog cat = test::cat();
  const std::string path = write_temp(yaml);
  const Requirements req = read_requirements(path, cat);
  std::filesystem::remove(path);
  SizingOptions o;
  o.jobs = 2;
  const SizingResult r = size_cluster(req, cat, o);

  // Every candidate, simulated.
  std::vector<Design> all = candidate_designs(req, cat);
  REQUIRE(all.size() == 12);
  std::vector<Scenario> runs;
  std::vector<Design*> simulated;
  for (Design& d : all)
    if (d.valid && d.capacity_ok) {
      runs.push_back(d.scenario);
      simulated.push_back(&d);
    }
  const std::vector<RunResult> results = run_all(runs, 2);
  for (std::size_t i = 0; i < simulated.size(); ++i) evaluate_design(*simulated[i], req, results[i]);
  std::vector<const Design*> passing;
  for (const Design& d : all)
    if (d.pass) passing.push_back(&d);
  // The sizer's order: cheaper first, and at equal cost the design with more usable capacity
  // (a RAID-5 layout of the same hosts before their RAID-1 one).
  std::stable_sort(passing.begin(), passing.end(), [](const Design* a, const Design* b) {
    if (a->cost.total_usd() != b->cost.total_usd()) return a->cost.total_usd() < b->cost.total_usd();
    return a->capacity.usable_gb > b->capacity.usable_gb;
  });
  // Both outcomes occur on this grid (else the check proves little).
  REQUIRE(passing.size() >= 2);
  REQUIRE(std::count_if(all.begin(), all.end(), [](const Design& d) { return d.simulated && !d.pass; }) >= 1);
  CHECK(std::count_if(all.begin(), all.end(), [](const Design& d) { return !d.valid; }) >= 1);   // RAID-5 on 3 hosts

  REQUIRE(r.answers.size() == 2);
  for (std::size_t i = 0; i < r.answers.size(); ++i) {
    CHECK(r.answers[i].describe() == passing[i]->describe());
    CHECK(r.answers[i].cost.total_usd() == passing[i]->cost.total_usd());
    CHECK(r.answers[i].pass);
  }
  // Nothing cheaper than the last answer passes but the answers; every cheaper failure fails
  // on the whole grid too.
  for (const Design& d : all)
    if (d.valid && d.cost.total_usd() < r.answers.back().cost.total_usd() && d.pass)
      CHECK(std::any_of(r.answers.begin(), r.answers.end(), [&](const Design& a) { return a.describe() == d.describe(); }));
  for (const Design& f : r.cheaper_failures) {
    const auto same = std::find_if(all.begin(), all.end(), [&](const Design& d) { return d.describe() == f.describe(); });
    REQUIRE(same != all.end());
    CHECK_FALSE(same->pass);
    CHECK_FALSE(f.reason.empty());
  }
  CHECK(r.simulated < static_cast<int>(simulated.size()));   // the search stopped early
  // The analytic path's pruning: a pruned design fails on the whole grid by delivery (what
  // its ceiling claims), and the search without pruning gives the same answers with at least
  // as many runs. With one workload it prunes here (the one-disk-group hosts are far short).
  int pruned_listed = 0;
  for (const Design& f : r.cheaper_failures)
    if (f.pruned) {
      ++pruned_listed;
      const auto same = std::find_if(all.begin(), all.end(), [&](const Design& d) { return d.describe() == f.describe(); });
      INFO(f.describe() << ": ceiling " << f.analytic_ceiling_iops << ", simulated " << same->achieved_iops);
      CHECK_FALSE(f.simulated);
      CHECK(f.analytic_ceiling_iops < (1 - kPruneMargin) * 0.97 * req.demand_iops());
      CHECK(f.bottleneck == f.analytic_station);
      // What the simulator delivers stays within the margin of the ceiling (the heuristic's
      // premise), and it fails by delivery, as the pruning claims.
      CHECK(same->achieved_iops <= f.analytic_ceiling_iops / (1 - kPruneMargin));
      CHECK(same->achieved_iops < 0.97 * req.demand_iops());
    }
  if (req.grouped()) {
    CHECK(r.piloted == 0);
  } else {
    CHECK(pruned_listed >= 1);
    SizingOptions no_prune = o;
    no_prune.prune = false;
    no_prune.knee = false;
    const SizingResult plain = size_cluster(req, cat, no_prune);
    CHECK(plain.piloted == 0);
    CHECK(plain.simulated >= r.simulated);
    REQUIRE(plain.answers.size() == r.answers.size());
    for (std::size_t i = 0; i < r.answers.size(); ++i) CHECK(plain.answers[i].describe() == r.answers[i].describe());
  }
  const std::string text = format_sizing(r);
  CHECK_THAT(text, Catch::Contains("Cheapest designs that meet every requirement"));
  return r;
}

}  // namespace

TEST_CASE("size returns the cheapest designs the simulator passes, checked against the whole grid", "[sizing]") {
  (void)check_against_grid(grid_yaml());
}

TEST_CASE("size with several workloads at once: each meets its own target, checked against the whole grid", "[sizing]") {
  // The same grid with two demands: 4K OLTP at p95 5 ms beside a 64K sequential writer at a
  // mean of 10 ms, each with its own VMs and data.
  std::string two = grid_yaml();
  two.replace(two.find("workload: {iops: 110000, block_size: 4k, read_pct: 70, p95_ms: 5, capacity_tb: 2, vms: 8}"),
              std::string("workload: {iops: 110000, block_size: 4k, read_pct: 70, p95_ms: 5, capacity_tb: 2, vms: 8}").size(),
              "workloads:\n"
              "  - {name: oltp, iops: 100000, block_size: 4k, read_pct: 70, p95_ms: 5, capacity_tb: 1.5, vms: 6}\n"
              "  - {name: seq, iops: 2000, block_size: 64k, read_pct: 0, random_pct: 0, mean_ms: 10, capacity_tb: 0.5, vms: 2}");
  const SizingResult r = check_against_grid(two);
  REQUIRE(r.req.demands.size() == 2);
  CHECK(r.req.demand_iops() == Approx(102000));
  for (const Design& d : r.answers) {
    REQUIRE(d.group_latency_ms.size() == 2);
    CHECK(d.group_latency_ms[0] <= 5);
    CHECK(d.group_latency_ms[1] <= 10);
    CHECK(d.group_achieved_iops[1] >= 0.97 * 2000);
    CHECK(d.knee.group_share.size() == 2);
  }
  for (const Design& f : r.cheaper_failures)
    if (f.simulated) CHECK_THAT(f.reason, Catch::StartsWith("workload oltp: ") || Catch::StartsWith("workload seq: "));
  CHECK_THAT(format_sizing(r), Catch::Contains("IOPS in 2 workloads at once (oltp: 100,000 IOPS of 4K") &&
                                   Catch::Contains("seq: 2,000 IOPS of 64K, 0 % read, 0 % random at mean <= 10 ms"));
  CHECK_THAT(to_json(r), Catch::Contains("\"workloads\": [{\"name\": \"oltp\", \"demand_iops\": 100000"));
  // The second workload decides too: a made-up run where only it misses its rate, then its
  // target, then both (every failing workload is named; latency_ms is the furthest past its
  // own target).
  RunResult run;
  run.result.seconds = 1;
  run.groups.resize(2);
  run.groups[0].result.iops = 100000;
  run.groups[0].result.pooled_latency_ms = 1;
  for (int i = 0; i < 1000; ++i) run.groups[0].pooled[0].record(Time::from_ms(1));
  run.groups[1].result.iops = 1800;
  run.groups[1].result.pooled_latency_ms = 1.5;
  run.result.iops = 101800;
  Design d;
  evaluate_design(d, r.req, run);
  CHECK_FALSE(d.pass);
  CHECK_THAT(d.reason, Catch::StartsWith("workload seq: delivers 1800 of 2000 IOPS"));
  CHECK(d.latency_workload == "oltp");   // p95 1 ms of 5 is further than a mean 1.5 ms of 10
  run.groups[1].result.iops = 1939;      // one I/O short of 97 %: counting, not a miss
  evaluate_design(d, r.req, run);
  CHECK(d.pass);
  run.groups[1].result.pooled_latency_ms = 12;
  evaluate_design(d, r.req, run);
  CHECK_THAT(d.reason, Catch::Equals("workload seq: mean 12.00 ms > 10 ms (bottleneck )"));
  CHECK(d.latency_workload == "seq");
  CHECK(d.latency_ms == 12);
  run.groups[0].result.iops = 50000;
  evaluate_design(d, r.req, run);
  CHECK_THAT(d.reason, Catch::StartsWith("workload oltp: delivers 50000 of 100000") && Catch::Contains("; workload seq: mean 12.00 ms"));
  // The knee of every answer is at least the demand it met.
  for (const Design& a : r.answers) CHECK(a.knee.iops >= 0.97 * r.req.demand_iops());
  // Bad demands: both or neither of workload/workloads, one item only, names twice, profiles that differ.
  std::string both = two + "workload: {iops: 1, p95_ms: 1}\n";
  CHECK_THAT(error_of(both), Catch::Contains("give exactly one of workload (one demand) or workloads"));
  std::string dup = two;
  dup.replace(dup.find("name: seq"), 9, "name: oltp");
  CHECK_THAT(error_of(dup), Catch::Contains("name 'oltp' is given to two workloads"));
  std::string profile = two;
  profile.replace(profile.find("mean_ms: 10,"), 12, "mean_ms: 10, compress_pct: 50,");
  CHECK_THAT(error_of(profile), Catch::Contains("workloads[1]") && Catch::Contains("the data profile is the cluster's"));
  std::string empty_name = two;
  empty_name.replace(empty_name.find("name: seq"), 9, "name: \"\"");
  CHECK_THAT(error_of(empty_name), Catch::Contains("workloads[1].name = '' is not allowed; expected a workload's name"));
  std::string one_item = two;
  one_item.erase(one_item.find("  - {name: seq"), one_item.find("\n", one_item.find("  - {name: seq")) - one_item.find("  - {name: seq") + 1);
  CHECK_THAT(error_of(one_item), Catch::Contains("expected a list of 2 to 64 named demands"));
  std::string noname = two;
  noname.replace(noname.find("name: seq, "), 11, "");
  CHECK_THAT(error_of(noname), Catch::Contains("workloads[1]") && Catch::Contains("name"));
}

TEST_CASE("size --range gives each answer its range at the demand and of its knee", "[sizing][range]") {
  HardwareCatalog cat = test::cat();
  std::string one = grid_yaml();
  one.replace(one.find("top: 2"), 6, "top: 1");
  const std::string path = write_temp(one);
  const Requirements req = read_requirements(path, cat);
  std::filesystem::remove(path);
  SizingOptions o;
  o.jobs = 2;
  o.range_seeds = 2;
  const SizingResult r = size_cluster(req, cat, o);
  REQUIRE(r.answers.size() == 1);
  const Design& d = r.answers[0];
  REQUIRE(d.range.seeds == 2);
  // The first seed is the one the search simulated: the same run, the same numbers.
  CHECK(d.range.at("achieved_iops").each[0] == d.achieved_iops);
  CHECK(d.range.at("latency_ms").each[0] == d.latency_ms);
  CHECK(d.range.at("knee_iops").value > 0);
  for (const AnswerRange& a : d.range.answers) {
    INFO(a.name);
    CHECK(a.low <= a.seed_min);
    CHECK(a.high >= a.seed_max);
  }
  // The calibration moves the design: its effects are those of the fitted parameters.
  CHECK(d.range.parameters == std::vector<std::string>{"guest_cpu_us", "vsan_cpu_scale", "cpu_per_kib_scale",
                                                           "congestion_delay_a_us", "lsom_cost_factor"});
  CHECK_THAT(format_sizing(r), Catch::Contains("range over 2 seeds and the calibration (95 %, one cluster): p95 "));
  CHECK_THAT(to_json(r), Catch::Contains("\"range\": {\"seeds\": 2, "));
  if (!r.cheaper_failures.empty()) CHECK_THAT(to_json(r), Catch::Contains("\"range\": null"));
}

TEST_CASE("bad requirements name the file and the block and why", "[sizing][errors]") {
  CHECK_THAT(error_of(grid_yaml("bogus: 1\n")), Catch::Contains("unknown key 'bogus'"));
  std::string two = grid_yaml();
  two.replace(two.find("p95_ms: 5"), 9, "p95_ms: 5, mean_ms: 1");
  CHECK_THAT(error_of(two), Catch::Contains("give exactly one latency target"));
  std::string typo = grid_yaml();
  typo.replace(typo.find("lexar-nm620-2tb"), 15, "lexar-nm620-2t");
  CHECK_THAT(error_of(typo), Catch::Contains("candidates.host_models[0]") && Catch::Contains("no host count from 3 to 5") &&
                                 Catch::Contains("lexar-nm620-2tb"));
  std::string down = grid_yaml();
  down.replace(down.find("host_failures: 1"), 16, "host_failures: 2");
  CHECK_THAT(error_of(down), Catch::Contains("host_failures = 2 is impossible with") &&
                                 Catch::Contains("candidates.policies[0]"));
  std::string hosts = grid_yaml();
  hosts.replace(hosts.find("{min: 3, max: 5}"), 16, "{min: 5, max: 3}");
  CHECK_THAT(error_of(hosts), Catch::Contains("max is below min"));
  std::string iops = grid_yaml();
  iops.replace(iops.find("iops: 110000"), 12, "iops: -5");
  CHECK_THAT(error_of(iops), Catch::Contains("workload.iops = '-5' is not allowed; expected IOPS from 1 to 1e9"));
  std::string block = grid_yaml();
  block.replace(block.find("block_size: 4k"), 14, "block_size: 3");
  CHECK_THAT(error_of(block), Catch::Contains("workload.block_size = '3' is not allowed; expected a multiple of 512 bytes"));
  CHECK_THAT(error_of(grid_yaml("growth: {per_year_pct: 1000, years: 20}\n")), Catch::Contains("the demand, grown by 1000 % a year for 20 years, comes to"));
  std::string ds = grid_yaml();
  ds.replace(ds.find("  policies:"), 0, "  data_services: {compresion: true}\n");
  CHECK_THAT(error_of(ds), Catch::Contains("unknown key 'candidates.data_services.compresion'"));
  std::string twice = grid_yaml();
  twice.replace(twice.find("name: 2dg"), 9, "name: 1dg");
  CHECK_THAT(error_of(twice), Catch::Contains("name '1dg' is already the name of"));
  // A rule that holds only for some host counts sets those aside instead of refusing the file:
  // the switch has 8 ports, so 9..12 hosts are not valid, 3..8 are.
  std::string wide = grid_yaml();
  wide.replace(wide.find("{min: 3, max: 5}"), 16, "{min: 3, max: 12}");
  CHECK(error_of(wide) == "no error");
}

TEST_CASE("requirements that would overrun the search or ask the impossible of a VM are refused at their keys",
          "[sizing][errors]") {
  // 40 x 1 x 2 x 62 = 4,960 designs are searched; 40 x 4 x 2 x 62 = 19,840 are not (each design is
  // built before one runs: gigabytes).
  std::string many = grid_yaml();
  std::string models;
  for (int i = 0; i < 40; ++i)
    models += "    - {name: m" + std::to_string(i) + ", cpu: {model: intel-core-i7-11700b}, disk_groups: [{cache: "
              "optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}\n";
  many = replaced(many, "  host_models:\n", "  host_models:\n" + models);
  many = replaced(many, "{min: 3, max: 5}", "{min: 3, max: 64}");
  many = replaced(many, "  networks: [{nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}]",
                  "  networks: [{speed_gbe: 10}, {speed_gbe: 25}, {speed_gbe: 100}, {speed_gbe: 10, mtu: 9000}]");
  CHECK_THAT(error_of(many), Catch::Contains("candidates: 42 host models x 4 networks x 2 policies x 62 host counts (3 .. 64) "
                                             "= 20832 designs; at most 10000 are searched"));
  // A demand of 1e9 IOPS (the most allowed) on 8 VMs asks 1.25e8 of each: said of the demand.
  CHECK_THAT(error_of(replaced(grid_yaml(), "iops: 110000", "iops: 1e9")),
             Catch::Contains("workload.iops (1e+09 grown) over workload.vms (8) is 1.25e+08 IOPS a VM; expected at most 1e8"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "name: 2dg", "name: ''")),
             Catch::Contains("candidates.host_models[1].name = '' is not allowed; expected a host model's name, 1 to 64"));
  // A second document is refused, not ignored; the node budget holds here too.
  CHECK_THAT(error_of(grid_yaml("---\nname: other\n")), Catch::Contains("a second YAML document; a requirements file holds one"));
  std::string big = grid_yaml("extra: [");
  for (int i = 0; i < 100001; ++i) big += "1,";
  CHECK_THAT(error_of(big + "1]\n"), Catch::Contains("more than 100000 YAML nodes"));
}

TEST_CASE("a demand's guest_os reaches every candidate's VMs, and a bad one is named", "[sizing]") {
  HardwareCatalog cat = test::cat();
  const Requirements linux_vms = requirements_of(grid_yaml(), cat);
  const Requirements windows_vms = requirements_of(replaced(grid_yaml(), "vms: 8}", "vms: 8, guest_os: windows}"), cat);
  CHECK(linux_vms.demands[0].guest_os == GuestOs::linux_os);
  CHECK(windows_vms.demands[0].guest_os == GuestOs::windows);
  const std::vector<Design> designs = candidate_designs(windows_vms, cat);
  REQUIRE(!designs.empty());
  for (const Design& d : designs)
    if (d.valid) CHECK(d.scenario.workload.guest_os == GuestOs::windows);
  for (const Design& d : candidate_designs(linux_vms, cat))
    if (d.valid) CHECK(d.scenario.workload.guest_os == GuestOs::linux_os);
  CHECK_THAT(error_of(replaced(grid_yaml(), "vms: 8}", "vms: 8, guest_os: solaris}")),
             Catch::Contains("workload.guest_os = 'solaris' is not allowed; expected linux | windows"));
}

TEST_CASE("size adds hosts to an existing cluster and prices only what it adds", "[sizing]") {
  // Seed 000's four hosts today; add 0..3 of the same host. Alone (one down) they are far
  // short of 110K; with one added (the added host down) the four carry it.
  const std::string yaml = R"(name: expand
workload: {iops: 110000, block_size: 4k, read_pct: 70, p95_ms: 5, capacity_tb: 2, vms: 8}
host_failures: 1
existing:
  count: 4
  host: {cpu: {model: intel-core-i7-11700b}, disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}
  network: {nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}
candidates:
  hosts: {min: 0, max: 3}
  host_models:
    - {name: a, cpu: {model: intel-core-i7-11700b}, disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}
    - {name: b, cpu: {model: intel-core-i7-11700b}, disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}
  networks: [{nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}]
  policies: [{raid: raid1, ftt: 1}]
prices: )" + default_data_dir() + R"(/../examples/prices/illustrative-2023.yaml
run: {duration_s: 0.3, warmup_s: 0.1}
top: 1
)";
  HardwareCatalog cat = test::cat();
  const Requirements req = requirements_of(yaml, cat);
  CHECK(req.existing_hosts == 4);
  const std::vector<Design> all = candidate_designs(req, cat);
  // Adding none is one design (not one per host model); models a and b add 1..3 each.
  REQUIRE(all.size() == 7);
  CHECK(all[0].describe() == "4 existing (none added), 10 GbE intel-x520-da1 on ubiquiti-usw-aggregation, raid1 ftt 1");
  CHECK(all[0].cost.total_usd() == 0);
  // The added hosts come first (esx01 fails) and the existing ones follow; the cost grows with
  // the hosts added alone, and two identical models cost the same.
  REQUIRE(all[1].scenario.cluster.hosts.size() == 5);
  CHECK(all[1].scenario.cluster.failed_hosts == std::vector<int>{0});
  CHECK(all[1].cost.total_usd() > 0);
  CHECK(all[2].cost.total_usd() > all[1].cost.total_usd());
  CHECK(all[4].cost.total_usd() == all[1].cost.total_usd());
  CHECK(all[1].capacity.usable_gb > all[0].capacity.usable_gb);
  SizingOptions o;
  o.jobs = 2;
  o.knee = false;
  const SizingResult r = size_cluster(req, cat, o);
  REQUIRE(r.answers.size() == 1);
  CHECK(r.answers[0].describe() == "1 x a + 4 existing, 10 GbE intel-x520-da1 on ubiquiti-usw-aggregation, raid1 ftt 1");
  REQUIRE(r.cheaper_failures.size() == 1);
  CHECK(r.cheaper_failures[0].hosts == 0);
  CHECK_THAT(format_sizing(r), Catch::Contains("Existing: 4 hosts, owned"));
  CHECK_THAT(to_json(r), Catch::Contains("\"existing_hosts\": 4"));
  // Existing hosts larger than the added ones (two disk groups against one): an existing host
  // fails instead (esx02, after the one added).
  const std::string larger = replaced(yaml, "disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}\n  network:",
                                      "disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}, "
                                      "{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}\n  network:");
  const Requirements big = requirements_of(larger, cat);
  const std::vector<Design> with_big = candidate_designs(big, cat);
  REQUIRE(with_big.size() == 7);
  CHECK(with_big[1].scenario.cluster.failed_hosts == std::vector<int>{1});
  CHECK(with_big[0].scenario.cluster.failed_hosts == std::vector<int>{0});   // none added: an existing one
  // More failures than larger hosts: one existing host (the larger) and two down, so the last
  // added host fails beside it.
  std::string one_big = replaced(larger, "count: 4", "count: 1");
  one_big = replaced(one_big, "host_failures: 1", "host_failures: 2");
  one_big = replaced(one_big, "policies: [{raid: raid1, ftt: 1}]", "policies: [{raid: raid1, ftt: 2}]");
  one_big = replaced(one_big, "hosts: {min: 0, max: 3}", "hosts: {min: 4, max: 5}");
  const Requirements two_down = requirements_of(one_big, cat);
  const std::vector<Design> d2 = candidate_designs(two_down, cat);
  REQUIRE(d2.size() == 4);
  CHECK(d2[0].hosts == 4);
  CHECK(d2[0].scenario.cluster.failed_hosts == std::vector<int>{3, 4});
  // A candidate network other than the existing hosts' pays for their NICs and ports too.
  const std::string faster = replaced(yaml, "  networks: [{nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}]",
                                      "  networks: [{nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}, "
                                      "{nic: broadcom-57414-25g, speed_gbe: 25, switch: dell-s5248f-on}]");
  const Requirements fast = requirements_of(faster, cat);
  const std::vector<Design> both = candidate_designs(fast, cat);
  REQUIRE(both.size() == 14);   // (none added + 3 of a + 3 of b) on each network
  CHECK(both[0].cost.total_usd() == 0);                       // none added, the same network
  CHECK(both[4].network.find("25 GbE") != std::string::npos);   // none added, re-cabled
  CHECK(both[4].cost.total_usd() > 0);
  CHECK(both[4].cost.network_usd == both[4].cost.total_usd());
  CHECK(both[5].cost.total_usd() > both[1].cost.total_usd());
  // Bad input, named: at its line, and a host model that is wrong even with existing hosts
  // beside it (none added would be valid without it).
  const std::string head = "name: x\nworkload: {iops: 1, p95_ms: 1}\n";
  const std::string host = "{cpu: {model: intel-core-i7-11700b}, disk_groups: [{cache: optane-p4800x-750gb, capacity: "
                           "[lexar-nm620-2tb]}]}";
  const std::string net = "{nic: intel-x520-da1, speed_gbe: 10, switch: ubiquiti-usw-aggregation}";
  const std::string cands = "candidates: {hosts: {min: 0, max: 2}, host_models: [{name: m, cpu: {model: intel-core-i7-11700b}, "
                            "disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]}], policies: [{raid: raid1}]}\n";
  CHECK_THAT(error_of(head + "existing: {host: " + host + ", network: " + net + "}\n" + cands), Catch::Contains("count is missing"));
  CHECK_THAT(error_of(head + "existing: {count: 3, host: " + host + "}\n" + cands), Catch::Contains("network is missing"));
  CHECK_THAT(error_of(head + "existing: {count: 3, host: {cpu: {model: intel-core-i7-11700b}, disk_groups: [{cache: "
                             "optane-p4800x-750gb, capacity: [lexar-nm620-2tbX]}]}, network: " + net + "}\n" + cands),
             Catch::Contains(":3: existing: existing.host.disk_groups[0].capacity[0]") && Catch::Contains("lexar-nm620-2tbX"));
  const std::string typo = replaced(cands, "[lexar-nm620-2tb]", "[lexar-nm620-2tbX]");
  CHECK_THAT(error_of(head + "existing: {count: 3, host: " + host + ", network: " + net + "}\n" + typo),
             Catch::Contains("candidates.host_models[0]") && Catch::Contains("lexar-nm620-2tbX"));
  const std::string esa = replaced(cands, "disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]",
                                  "pool: [{device: samsung-pm1733-3.84tb, count: 4}]");
  CHECK_THAT(error_of(head + "existing: {count: 3, host: " + host + ", network: " + net + "}\n" + esa),
             Catch::Contains("is ESA (a pool) and the existing hosts are OSA (disk_groups)"));
}

TEST_CASE("size holds enough I/O in every window: verdicts sized to the demand, knees too short reported", "[sizing]") {
  HardwareCatalog cat = test::cat();
  SizingOptions o;
  o.jobs = 2;
  // A demand of 3 IOPS: a 0.3 s window holds one I/O, on which every design once passed. The
  // verdict's window holds 400 x 1.25 at the demand instead.
  {
    const Requirements req = requirements_of(replaced(replaced(grid_yaml(), "iops: 110000", "iops: 3"), "top: 2", "top: 1"), cat);
    SizingOptions fast = o;
    fast.knee = false;
    const SizingResult r = size_cluster(req, cat, fast);
    REQUIRE(r.answers.size() == 1);
    const Design& d = r.answers.front();
    CHECK(d.achieved_iops >= 0.97 * 3);
    CHECK(d.window_note.empty());
    CHECK_THAT(format_sizing(r), !Catch::Contains("rests on"));
  }
  // Many VMs at 32 outstanding each: the knee's closed loop holds 12,800 I/Os, far more than
  // its window (0.05 s, 0.4 s lengthened) can carry. The answer stands, its knee "not found"
  // naming the requirements' key (once the size threw and lost every answer).
  {
    const std::string yaml = replaced(replaced(replaced(grid_yaml(), "vms: 8}", "vms: 100}"), "top: 2", "top: 1"),
                                      "run: {duration_s: 0.3, warmup_s: 0.1}", "run: {duration_s: 0.05, warmup_s: 0.02}");
    const Requirements req = requirements_of(yaml, cat);
    SizingOptions no_prune = o;
    no_prune.prune = false;
    const SizingResult r = size_cluster(req, cat, no_prune);
    REQUIRE(r.answers.size() == 1);
    const Design& d = r.answers.front();
    CHECK_FALSE(d.knee.found);
    CHECK(d.knee.window_short);
    const std::string text = format_sizing(r);
    CHECK_THAT(text, Catch::Contains("knee: not found (window too short for 12800 outstanding I/Os") &&
                         Catch::Contains("lengthen run.duration_s)") && !Catch::Contains("workload.duration_s"));
    CHECK_THAT(to_json(r), Catch::Contains("\"knee_window_too_short\": true"));
  }
}

TEST_CASE("size without a capacity demand fills each design's usable capacity, and says so", "[sizing]") {
  // Without capacity_tb the VMDKs were 1 MiB each, in the client cache, and
  // passed any design.
  HardwareCatalog cat = test::cat();
  const Requirements req = requirements_of(replaced(grid_yaml(), "capacity_tb: 2, ", ""), cat);
  const std::vector<Design> all = candidate_designs(req, cat);
  int checked = 0;
  for (const Design& d : all) {
    if (!d.valid) continue;
    REQUIRE(d.capacity_ok);
    REQUIRE(d.vmdk_gb.size() == 1);
    CHECK(d.vmdks_fill_usable);
    CHECK(d.vmdk_gb[0] == Approx(d.capacity.usable_gb / (8 * 4)));
    CHECK(d.data_gb == Approx(d.capacity.usable_gb));
    // The scenario's VMDKs are that size (to the MiB above).
    const double simulated_gb = static_cast<double>(d.scenario.workload.vmdk_size.count()) / 1e9;
    CHECK(simulated_gb == Approx(d.vmdk_gb[0]).epsilon(1e-4));
    CHECK(simulated_gb > 50);   // far beyond the client cache (0.4 % of memory)
    ++checked;
  }
  CHECK(checked >= 6);
  // A stated capacity keeps its own share.
  const Requirements stated = requirements_of(grid_yaml(), cat);
  const Design first = candidate_designs(stated, cat).front();
  CHECK_FALSE(first.vmdks_fill_usable);
  CHECK(first.vmdk_gb.at(0) == Approx(2000.0 / 32));
}

namespace sizing_test {

// ESA RAID-5 on 3 or 4 hosts of one pool model, one host down, the VMDKs filling usable capacity.
std::string esa_raid5_yaml() {
  return R"(name: esa raid5
workload: {iops: 50000, block_size: 8k, p95_ms: 2, vms: 8}
host_failures: 1
candidates:
  hosts: {min: 3, max: 4}
  host_models:
    - {name: esa, cpu: {model: intel-xeon-gold-6338, sockets: 1}, pool: [{device: samsung-pm1733-3.84tb, count: 4}]}
  networks: [{nic: broadcom-57414-25g, speed_gbe: 25, switch: dell-s5248f-on}]
  policies: [{raid: raid5, ftt: 1}]
prices: )" + default_data_dir() + R"(/../examples/prices/illustrative-2023.yaml
run: {duration_s: 0.2, warmup_s: 0.05}
top: 1
)";
}

}  // namespace sizing_test
using sizing_test::esa_raid5_yaml;

TEST_CASE("size marks designs without a rebuild after the failures, and require_rebuild fails them", "[sizing]") {
  // ESA RAID-5 (2+1 on 3..5 hosts) with one host down: on 3 hosts nothing is left to rebuild
  // on, and the objects on the failed host have no redundancy; on 4 the fourth takes them.
  const std::string yaml = esa_raid5_yaml();
  HardwareCatalog cat = test::cat();
  const Requirements req = requirements_of(yaml, cat);
  CHECK_FALSE(req.require_rebuild);
  std::vector<Design> all = candidate_designs(req, cat);
  REQUIRE(all.size() == 2);
  CHECK_FALSE(all[0].rebuild_target);
  CHECK_FALSE(all[0].rebuild_space);   // nor do two hosts hold the data of three
  CHECK(all[0].redundancy_left == 0);
  CHECK(all[0].redundancy_note ==
        "with 1 host down: no host to rebuild on (RAID-5 2+1 (FTT 1) needs 3 hosts, 2 are up); no redundancy left");
  CHECK(all[0].capacity_ok);   // only marked
  CHECK(all[1].rebuild_target);
  CHECK(all[1].rebuild_space);   // the host rebuild reserve keeps a host's room
  CHECK(all[1].redundancy_left == 1);
  CHECK(all[1].redundancy_note.empty());
  // The JSON and text carry the mark (evaluated without runs: the failure list).
  SizingResult r;
  r.req = req;
  r.cheaper_failures = {all[0]};
  r.cheaper_failures[0].reason = "p95 9 ms > 2 ms";
  CHECK_THAT(to_json(r), Catch::Contains("\"rebuild_target\": false, \"rebuild_space\": false, \"redundancy_left\": 0, "
                                         "\"redundancy_note\": \"with 1 host down: no host to rebuild on"));
  CHECK_THAT(format_sizing(r), Catch::Contains("p95 9 ms > 2 ms [with 1 host down: no host to rebuild on"));
  // require_rebuild: the 3-host design fails unsimulated.
  const Requirements strict = requirements_of(replaced(yaml, "host_failures: 1\n", "host_failures: 1\nrequire_rebuild: true\n"), cat);
  CHECK(strict.require_rebuild);
  all = candidate_designs(strict, cat);
  CHECK_FALSE(all[0].capacity_ok);
  CHECK(all[0].reason.rfind("require_rebuild: with 1 host down: no host to rebuild on", 0) == 0);
  CHECK(all[1].capacity_ok);
  CHECK_THAT(error_of(replaced(yaml, "host_failures: 1\n", "host_failures: 1\nrequire_rebuild: maybe\n")),
             Catch::Contains("require_rebuild"));
  // Two hosts down on RAID-6 4+2 with eight hosts: six are up, enough hosts, but the data that
  // fills the usable capacity was kept one host's rebuild space, not two: no room.
  std::string two = replaced(yaml, "host_failures: 1\n", "host_failures: 2\n");
  two = replaced(two, "hosts: {min: 3, max: 4}", "hosts: {min: 8, max: 8}");
  two = replaced(two, "policies: [{raid: raid5, ftt: 1}]", "policies: [{raid: raid6, ftt: 2}]");
  const std::vector<Design> six = candidate_designs(requirements_of(two, cat), cat);
  REQUIRE(six.size() == 1);
  CHECK(six[0].rebuild_target);
  CHECK_FALSE(six[0].rebuild_space);
  CHECK(six[0].redundancy_left == 0);
  CHECK_THAT(six[0].redundancy_note, Catch::StartsWith("with 2 hosts down: no room to rebuild (the data takes "));
}

TEST_CASE("an answer's knee below the demand is 'at its limit' only within 5 %, else the disagreement is said",
          "[sizing]") {
  // A knee capped far below the demand once read "-89 % headroom: at its limit, within the 97 %
  // delivery rule and the knee's 2 % precision". Formatted without runs: the answer's figures set.
  HardwareCatalog cat = test::cat();
  SizingResult r;
  r.req = requirements_of(grid_yaml(), cat);
  const std::vector<Design> designs = candidate_designs(r.req, cat);
  REQUIRE(!designs.empty());
  Design d = designs.front();
  d.simulated = d.pass = true;
  d.achieved_iops = 110000;
  d.latency_ms = 1;
  d.knee.found = true;
  d.knee.latency_ms = 4;
  d.knee.bottleneck = "none";
  const auto knee_text = [&](double knee_iops) {
    d.knee.iops = knee_iops;
    r.answers = {d};
    return format_sizing(r);
  };
  CHECK_THAT(knee_text(12963), Catch::Contains("knee: 12,963 IOPS at p95 4.00 ms (-88 % headroom: below the demand the "
                                               "design passed at; the knee's windows and the verdict's disagree)") &&
                                   !Catch::Contains("within the 97 % delivery rule"));
  CHECK_THAT(knee_text(107000), Catch::Contains("(-3 % headroom: at its limit, within the 97 % delivery rule and the "
                                                "knee's 2 % precision)"));
  CHECK_THAT(knee_text(150000), Catch::Contains("(36 % headroom)") && !Catch::Contains("at its limit"));
}

TEST_CASE("ESA adaptive RAID-5 with one host down: a host to rebuild on, and room for 4+1 turned 2+1", "[sizing]") {
  // vSAN ESA lays RAID-5 out 4+1 from 6 hosts, 2+1 below. A 4+1 object spans 5 hosts: with one
  // of 6 down, its lost component is rebuilt on the host it did not use; a 2+1 object on 5 hosts
  // has two spare. A day later the 6-host cluster's 4+1 objects become 2+1 on the 5 up, 1.5 raw
  // bytes per byte instead of 1.25: 20 TB of VM data fits either way, data that fills the 4+1
  // usable capacity does not. (A 3-host 2+1 has no host to rebuild on: the test above.)
  const std::string yaml =
      replaced(replaced(esa_raid5_yaml(), "hosts: {min: 3, max: 4}", "hosts: {min: 5, max: 6}"), "host_failures: 1\n",
               "host_failures: 1\nrequire_rebuild: true\n");
  const std::string stated = replaced(yaml, "vms: 8}", "vms: 8, capacity_tb: 20}");
  HardwareCatalog cat = test::cat();
  const std::vector<Design> all = candidate_designs(requirements_of(stated, cat), cat);
  REQUIRE(all.size() == 2);
  for (const Design& d : all) {
    INFO(d.hosts << " hosts");
    CHECK(d.scenario.cluster.layout().describe() == (d.hosts >= 6 ? "RAID-5 4+1 (FTT 1)" : "RAID-5 2+1 (FTT 1)"));
    CHECK(d.rebuild_target);
    CHECK(d.rebuild_space);
    CHECK(d.redundancy_left == 1);
    CHECK(d.redundancy_note.empty());
    CHECK(d.capacity_ok);
  }
  // Without a capacity demand the VMDKs fill each design's usable capacity.
  const std::vector<Design> full =
      candidate_designs(requirements_of(yaml, cat), cat);
  REQUIRE(full.size() == 2);
  for (const Design& d : full) {
    INFO(d.hosts << " hosts");
    CHECK(d.rebuild_target);
    CHECK(d.rebuild_space == (d.hosts == 5));   // 2+1 kept a host's room for 2+1
    CHECK(d.capacity_ok == (d.hosts == 5));
  }
  CHECK_THAT(full[1].hosts == 6 ? full[1].redundancy_note : full[0].redundancy_note,
             Catch::StartsWith("with 1 host down: no room to rebuild (the data takes ") &&
                 Catch::Contains(" TB of raw as RAID-5 2+1 (FTT 1), the hosts up have "));
}

// Requirements values that earlier hardening refused at their line and key, kept refused.
TEST_CASE("out-of-range demands, targets and answer counts stay refused at their line and key", "[sizing][errors]") {
  CHECK_THAT(error_of(replaced(grid_yaml(), "p95_ms: 5", "p95_ms: 0")),
             Catch::Contains(":2: workload.p95_ms = '0' is not allowed; expected a latency in ms, > 0 and at most 10000"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "p95_ms: 5", "p95_ms: 10001")), Catch::Contains(":2: workload.p95_ms = '10001'"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "vms: 8", "vms: 1.5")),
             Catch::Contains(":2: workload.vms = '1.5' is not allowed; expected a whole number in [1, 1000]"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "vms: 8", "vms: 1001")), Catch::Contains(":2: workload.vms = '1001'"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "block_size: 4k", "block_size: 4kb")),
             Catch::Contains(":2: workload.block_size = '4kb' is not allowed; expected a size such as 8k"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "capacity_tb: 2", "capacity_tb: -1")),
             Catch::Contains(":2: workload.capacity_tb = '-1' is not allowed; expected decimal TB from 0 to 1e6"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "top: 2", "top: 21")),
             Catch::Contains("top = '21' is not allowed; expected a whole number in [1, 20]"));
  CHECK_THAT(error_of(replaced(grid_yaml(), "top: 2", "top: 0")), Catch::Contains("top = '0' is not allowed"));
}
