// Cluster cost (report/cost.hpp) and price files (scenario/hardware_catalog.hpp): exact counts of
// every part, seed 001's per-port network prices, what is unpriced, and bad price files named.
#include <catch2/catch.hpp>

#include <cmath>

#include "hcisim/core/check.hpp"
#include "hcisim/report/cost.hpp"
#include "hcisim/scenario/hardware_catalog.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "../scenario/shared_catalog.hpp"

using namespace hcisim;

namespace {

const std::string kScenarios = default_data_dir() + "/../examples/scenarios/";

const CostLine* line(const ClusterCost& c, const std::string& item) {
  for (const CostLine& l : c.lines)
    if (l.item == item) return &l;
  return nullptr;
}

}  // namespace

namespace cost_test {

// The message a price file's text is refused with, read as "p.yaml".
std::string error(const std::string& text) {
  try {
    parse_price_file(text, "p.yaml", test::cat());
  } catch (const InvalidArgument& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

}  // namespace cost_test

TEST_CASE("seed 001 network costs what its write-up prices per port over twelve ports", "[cost]") {
  for (const char* file : {"seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml", "seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml"}) {
    const Scenario s = load_scenario(kScenarios + file, {}, test::cat());
    const ClusterCost c = cluster_cost(s.cluster, scenario_capacity(s), s.prices);
    // Six hosts, one dual-port card each, both ports cabled: 12 switch ports and cables.
    const bool fast = std::string(file).find("100gbe") != std::string::npos;
    const CostLine* nic = line(c, fast ? "nic broadcom-57508-100g" : "nic broadcom-57414-25g");
    REQUIRE(nic != nullptr);
    CHECK(nic->count == 6);
    const CostLine* port = line(c, fast ? "switch port dell-s5232f-on" : "switch port dell-s5248f-on");
    REQUIRE(port != nullptr);
    CHECK(port->count == 12);
    CHECK(line(c, fast ? "cable dell-s5232f-on" : "cable dell-s5248f-on")->count == 12);
    // The write-up: $3,554 (100 GbE) and $1,743 (25 GbE) per port, from whole-part list prices.
    CHECK(c.network_usd / 12 == Approx(fast ? 3554.0 : 1743.0).margin(1.0));
    // Hosts, CPUs, drives and licences have no catalog price: the total is unknown.
    CHECK_FALSE(c.complete());
    CHECK(std::isnan(c.total_usd()));
    CHECK(std::isnan(c.per_iops(1000)));
    CHECK(std::find(c.missing.begin(), c.missing.end(), "cpu intel-xeon-gold-6338") != c.missing.end());
    CHECK(std::find(c.missing.begin(), c.missing.end(), "device samsung-pm1733-3.84tb") != c.missing.end());
  }
}

TEST_CASE("a price file completes the cost with every part counted once per unit", "[cost]") {
  HardwareCatalog cat = test::cat();
  cat.add_prices(parse_price_file(R"(currency: USD
host_base: 10000
cpus: {intel-xeon-gold-6338: 2000}
devices: {samsung-pm1733-3.84tb: 1000}
licences: {per_core: 100, min_cores_per_socket: 40, per_tib_raw: 10}
)", "prices.yaml", cat));
  const Scenario s = load_scenario(kScenarios + "seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml", {}, cat);
  const CapacityReport cap = scenario_capacity(s);
  const ClusterCost c = cluster_cost(s.cluster, cap, s.prices);
  REQUIRE(c.complete());
  // 6 hosts x (10,000 + 2 sockets x 2,000 + 6 drives x 1,000).
  CHECK(c.hosts_usd == Approx(6 * (10000 + 2 * 2000 + 6 * 1000)));
  // 32 cores per socket, licensed at the 40-core minimum: 6 x 2 x 40 cores; raw TiB x 10.
  CHECK(line(c, "licence per core")->count == 6 * 2 * 40);
  CHECK(line(c, "licence per TiB raw")->count == Approx(cap.raw_gb * 1e9 / std::pow(2.0, 40)));
  CHECK(c.total_usd() == Approx(c.hosts_usd + c.network_usd + c.licences_usd));
  CHECK(c.per_usable_tb(cap) == Approx(c.total_usd() / (cap.usable_gb / 1000)));
  CHECK(c.per_iops(500000) == Approx(c.total_usd() / 500000));
  const std::string text = format_cost(c, cap, 500000, "at the knee");
  CHECK(text.find("per usable TB") != std::string::npos);
  CHECK(text.find("per IOPS at the knee") != std::string::npos);
  // A failed host is still bought.
  const Scenario down = load_scenario(kScenarios + "seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml",
                                      {"cluster.failed_hosts=[esx01]"}, cat);
  CHECK(cluster_cost(down.cluster, scenario_capacity(down), down.prices).hosts_usd == Approx(c.hosts_usd));
}

TEST_CASE("a price of 0 is free and an absent one unpriced and a price file overrides the catalog", "[cost]") {
  HardwareCatalog cat = test::cat();
  cat.add_prices(parse_price_file("currency: USD\nnics: {broadcom-57508-100g: 1}\nlicences: {per_core: 0}\n",
                                  "p.yaml", cat));
  const Scenario s = load_scenario(kScenarios + "seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml", {}, cat);
  const ClusterCost c = cluster_cost(s.cluster, scenario_capacity(s), s.prices);
  CHECK(line(c, "nic broadcom-57508-100g")->unit_usd == 1);
  CHECK(line(c, "licence per core") == nullptr);
  CHECK(std::find(c.missing.begin(), c.missing.end(), "licence per core") == c.missing.end());
  CHECK(std::find(c.missing.begin(), c.missing.end(), "licence per TiB raw") != c.missing.end());
}

TEST_CASE("more ports than a card has take more cards and a failed host stays licensed", "[cost]") {
  HardwareCatalog cat = test::cat();
  cat.add_prices(parse_price_file("currency: USD\nlicences: {per_tib_raw: 100}\n", "p.yaml", cat));
  const std::string file = kScenarios + "seed001-vxrail-esa-raid6-25gbe-oltp32k.yaml";
  const Scenario four = load_scenario(file, {"cluster.host.network.ports=4"}, cat);
  const ClusterCost c = cluster_cost(four.cluster, scenario_capacity(four), four.prices);
  CHECK(line(c, "nic broadcom-57414-25g")->count == 12);   // 2 dual-port cards per host
  CHECK(line(c, "switch port dell-s5248f-on")->count == 24);
  const Scenario all = load_scenario(file, {}, cat);
  const Scenario down = load_scenario(file, {"cluster.failed_hosts=[esx01]"}, cat);
  const double licensed = cluster_cost(all.cluster, scenario_capacity(all), all.prices).licences_usd;
  CHECK(licensed > 0);
  CHECK(cluster_cost(down.cluster, scenario_capacity(down), down.prices).licences_usd == Approx(licensed));
  // A CPU or NIC written as figures has no catalog name: said, not looked up.
  const Scenario inline_cpu = load_scenario(file, {"cluster.host.cpu={cores: 16, ghz: 2.5}"}, cat);
  const ClusterCost ci = cluster_cost(inline_cpu.cluster, scenario_capacity(inline_cpu), inline_cpu.prices);
  CHECK(std::find(ci.missing.begin(), ci.missing.end(), "cpu (inline figures: name a catalog part to price it)") !=
        ci.missing.end());
  CHECK_THAT(format_cost(ci, scenario_capacity(inline_cpu), 1000, ""), Catch::Contains("Cost: incomplete, priced $"));
}

TEST_CASE("bad price files name the file and line and key", "[cost][errors]") {
  using cost_test::error;
  CHECK_THAT(error("host_base: 1\n"), Catch::Contains("missing key 'currency'"));
  CHECK_THAT(error("currency: EUR\n"), Catch::Contains("currency = 'EUR' is not allowed; expected USD"));
  CHECK_THAT(error("currency: USD\ncpus: {intel-xeon-gold-633: 1}\n"),
             Catch::Contains("p.yaml:2: cpus.intel-xeon-gold-633 = 'intel-xeon-gold-633' is not allowed") &&
                 Catch::Contains("intel-xeon-gold-6338"));
  CHECK_THAT(error("currency: USD\ndevices:\n  samsung-pm1733-3.84tb: -5\n"),
             Catch::Contains("p.yaml:3: devices.samsung-pm1733-3.84tb = '-5' is not allowed; expected US dollars"));
  CHECK_THAT(error("currency: USD\nhost_base: lots\n"), Catch::Contains("host_base = 'lots' is not allowed; expected a number"));
  CHECK_THAT(error("currency: USD\nnics: {broadcom-57508-100g: 1, broadcom-57508-100g: 2}\n"),
             Catch::Contains("duplicate key 'nics.broadcom-57508-100g'"));
  CHECK_THAT(error("currency: USD\nswitches: {dell-s5232f-on: {port: 1}}\n"),
             Catch::Contains("unknown key 'switches.dell-s5232f-on.port'; allowed here: switch, cable"));
  CHECK_THAT(error("currency: USD\nlicences: {min_cores_per_socket: 16}\n"),
             Catch::Contains("min_cores_per_socket is given without per_core"));
  CHECK_THAT(error("currency: USD\nhosts: 1\n"), Catch::Contains("unknown key 'hosts'"));
  CHECK_THAT(error("[1, 2]\n"), Catch::Contains("p.yaml: a price file is a map"));
  CHECK_THAT(error("currency: USD\nhost_base: 1e12\n"), Catch::Contains("expected US dollars from 0 to 1e9"));
  CHECK_THAT(error("currency: USD\nsource: \"\"\n"), Catch::Contains("source is empty"));
  CHECK_THAT(error("currency: USD\nswitches: {dell-s5232f-on: {}}\n"), Catch::Contains("expected switch: USD and/or cable: USD"));
  CHECK_THAT(error("currency: USD\nlicences: {}\n"), Catch::Contains("expected per_core: USD and/or per_tib_raw: USD"));
}

// Price files are read the scenario's guarded way: every document, a node budget, a nesting
// limit, each said at its line.
TEST_CASE("a price file's second document, deep nesting and node flood are refused at their line", "[cost][errors]") {
  using cost_test::error;
  CHECK_THAT(error("currency: USD\nhost_base: 1\n---\ncurrency: EUR\n"),
             Catch::Contains("p.yaml:4: a second YAML document; a price file holds one"));
  CHECK_THAT(error("currency: USD\n---\ncurrency: EUR\n--- [unclosed\n"),
             Catch::Contains("p.yaml:") && Catch::Contains("not valid YAML"));
  CHECK_THAT(error("currency: USD\nsource: " + std::string(10000, '[') + std::string(10000, ']') + "\n"),
             Catch::Contains("p.yaml:2: not valid YAML: lists or maps nested too deeply"));
  std::string flood = "currency: USD\nx: [1";
  for (int i = 0; i < 100001; ++i) flood += ",1";
  CHECK_THAT(error(flood + "]\n"), Catch::Contains("p.yaml:2: more than 100000 YAML nodes"));
  CHECK(error("currency: USD\nhost_base: 1\n...\n") == "no error");
}

// Bad price values that were refused before, kept refused: amounts that are not plain
// numbers of dollars, a currency in lower case, an empty file, a switch priced as a scalar.
TEST_CASE("price values that are not plain US dollars stay refused with their line and key", "[cost][errors]") {
  using cost_test::error;
  for (const char* amount : {".nan", ".inf", "12k", "$12,000", "1_000", "0x10", "[1]"})
    CHECK_THAT(error(std::string("currency: USD\nhost_base: ") + amount + "\n"),
               Catch::Contains("p.yaml:2: host_base = ") && Catch::Contains("is not allowed"));
  CHECK_THAT(error("currency: usd\n"), Catch::Contains("p.yaml:1: currency = 'usd' is not allowed; expected USD"));
  CHECK_THAT(error(""), Catch::Contains("p.yaml: a price file is a map with the keys currency"));
  CHECK_THAT(error("currency: USD\nswitches: {dell-s5232f-on: 5}\n"),
             Catch::Contains("p.yaml:2: ") && Catch::Contains("switches.dell-s5232f-on"));
  CHECK_THAT(error("currency: USD\nlicences: {per_core: 1, min_cores_per_socket: 1e9}\n"),
             Catch::Contains("p.yaml:2: ") && Catch::Contains("min_cores_per_socket"));
}
