// The key table (scenario.hpp, file_keys): each row is what the readers do. A file that leaves
// a key out gets the row's default; a value beyond the row's range is refused naming the key;
// unknown keys, in a file or through --set, are refused with the key they most likely meant.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>

#include "hcisim/core/check.hpp"
#include "hcisim/scenario/scenario.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;

namespace file_keys_test {

// Only what a scenario must have: every other key takes its default.
const char* kMinimal = R"(cluster:
  hosts: 4
  host:
    cpu: {cores: 8, ghz: 3}
    network: {speed_gbe: 10}
    disk_groups: [{cache: optane-p4800x-750gb, capacity: [lexar-nm620-2tb]}]
workload: {vms: 4}
)";

Scenario parse(const std::vector<std::string>& sets = {}) { return parse_scenario(kMinimal, "min.yaml", sets, test::cat()); }

std::string error_of(const std::vector<std::string>& sets) {
  try {
    (void)file_keys_test::parse(sets);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no error";
}

bool is_plain(const FileKey& k) {
  const std::string_view p = k.path;
  return p.find("[]") == std::string_view::npos && p.substr(0, 6) != "drive." && p.find('<') == std::string_view::npos;
}

}  // namespace file_keys_test

using namespace file_keys_test;

TEST_CASE("the key table: one row per key, each with a type, a description and a consistent range", "[keys]") {
  const std::set<std::string_view> types{"number", "integer", "flag", "choice", "size", "text", "name", "map", "list", "forms"};
  std::set<std::string> seen;
  for (const FileKey& k : file_keys()) {
    INFO(k.file << ": " << k.path);
    CHECK(seen.insert(std::string(k.file) + ":" + std::string(k.path)).second);
    CHECK(types.count(k.type) == 1);
    CHECK(!k.description.empty());
    CHECK(!k.default_text.empty());
    if (k.min == k.min && k.max == k.max) CHECK(k.min <= k.max);
    if (k.type == "choice") CHECK(!k.allowed.empty());
    if (k.assumed_min == k.assumed_min) {
      CHECK(k.assumed());
      CHECK(k.assumed_min <= k.assumed_max);
      if (k.min == k.min) CHECK(k.assumed_min >= k.min);
      if (k.max == k.max) CHECK(k.assumed_max <= k.max);
    }
    if (k.retired()) {   // "new.key (why)": the new key is a live one of the same file
      const std::string_view to = k.replaced_by.substr(0, k.replaced_by.find(' '));
      const std::vector<FileKey> live = file_keys(to);
      CHECK(std::any_of(live.begin(), live.end(), [&](const FileKey& n) { return n.file == k.file && n.path == to && !n.retired(); }));
    }
  }
  // The prefix selects by path, or a whole file by its name.
  for (const FileKey& k : file_keys("cluster.host.network")) CHECK(k.path.substr(0, 20) == "cluster.host.network");
  const auto of_file = [](const std::vector<FileKey>& keys, std::string_view file) {
    return std::count_if(keys.begin(), keys.end(), [&](const FileKey& k) { return k.file == file; });
  };
  CHECK(of_file(file_keys("prices"), "prices") == of_file(file_keys(), "prices"));
  CHECK(of_file(file_keys("prices"), "prices") >= 10);
  CHECK(file_keys("no.such").empty());
}

TEST_CASE("a scenario that leaves a key out gets the key table's default", "[keys]") {
  const Scenario s = file_keys_test::parse();
  int checked = 0;
  for (const FileKey& k : file_keys()) {
    if (k.file != "scenario" || k.value == nullptr) continue;
    const bool boolean = k.default_text == "true" || k.default_text == "false";
    if (!(k.default_number == k.default_number) && !boolean) continue;   // a default that depends on other keys
    INFO(k.path << " = " << k.value(s) << ", the table says " << k.default_text);
    CHECK(k.value(s) == Approx(boolean ? (k.default_text == "true" ? 1.0 : 0.0) : k.default_number));
    ++checked;
  }
  CHECK(checked >= 30);
}

TEST_CASE("a value beyond a key's range is refused at that key, with the range the table gives", "[keys]") {
  int checked = 0;
  for (const FileKey& k : file_keys()) {
    if (k.file != "scenario" || !is_plain(k) || (k.type != "number" && k.type != "integer")) continue;
    for (const double beyond : {k.min - 1, k.max * 2 + 1}) {
      if (!(beyond == beyond)) continue;   // no bound on that side
      char value[64];
      std::snprintf(value, sizeof value, "%.17g", beyond);
      const std::string set = std::string(k.path) + "=" + value;
      INFO("--set " << set);
      const std::string error = error_of({set});
      CHECK_THAT(error, Catch::Contains(std::string(k.path)));
      ++checked;
    }
  }
  CHECK(checked >= 60);
}

TEST_CASE("an unknown key, in the file or through --set, names the key it most likely meant", "[keys]") {
  CHECK_THAT(error_of({"workload.vsm=4"}), Catch::Contains("unknown key 'workload.vsm'; did you mean 'workload.vms'?"));
  CHECK_THAT(error_of({"cluster.host.mtu=9000"}),
             Catch::Contains("unknown key 'cluster.host.mtu'; did you mean 'cluster.host.network.mtu'?"));
  CHECK_THAT(error_of({"cluster.host.network.rx_queus=2"}), Catch::Contains("did you mean 'cluster.host.network.rx_queues'?"));
  CHECK_THAT(error_of({"cluster.nothing_like_it=1"}), Catch::Contains("unknown key 'cluster.nothing_like_it' (hcisim keys"));
  // In a file: at its line, with the keys allowed there.
  std::string typo = kMinimal;
  typo.replace(typo.find("network:"), 8, "netwrok:");
  CHECK_THROWS_WITH(parse_scenario(typo, "min.yaml", {}, test::cat()),
                    Catch::StartsWith("min.yaml:5: unknown key 'cluster.host.netwrok'; did you mean "
                                      "'cluster.host.network'? allowed here: cpu, memory_gib, network, disk_groups, pool"));
  // A list item's keys are its section's: a workload group takes the workload's keys.
  CHECK_THAT(error_of({"workload.groups=[{name: a, vms: 2}, {name: b, blok_size: 8k}]"}),
             Catch::Contains("unknown key 'workload.groups[1].blok_size'; did you mean 'workload.groups[1].block_size'?"));
}

TEST_CASE("a disk size needs its unit, data the caches hold whole is said, and more ports are active/standby", "[keys]") {
  // A bare number would be bytes: "102400" meant as MB is a 100 KiB disk.
  CHECK_THAT(error_of({"workload.vmdk_size=102400"}),
             Catch::Contains("workload.vmdk_size = '102400' is not allowed; expected a size with its unit") &&
                 Catch::Contains("102400m (100 GiB)"));
  CHECK(file_keys_test::parse({"workload.vmdk_size=100g"}).workload.vmdk_size.count() == std::int64_t{100} << 30);
  // 4 VMs x 16 MiB fit the hosts' client caches (4 x 1 GiB): the run measures memory.
  const Scenario tiny = file_keys_test::parse({"workload.vmdk_size=16m"});
  REQUIRE(tiny.warnings.size() == 1);
  CHECK_THAT(tiny.warnings[0], Catch::Contains("fits in the hosts' client read caches"));
  // 4 VMs x 16 GiB x 2 copies fill 4 x 600 GB write buffers below the elevator's start (30 %):
  // nothing reaches the capacity drives.
  const Scenario buffered = file_keys_test::parse({"workload.vmdk_size=16g"});
  REQUIRE(buffered.warnings.size() == 1);
  CHECK_THAT(buffered.warnings[0], Catch::Contains("fits in the write buffers below the fill where destage starts"));
  CHECK(file_keys_test::parse({"workload.vmdk_size=200g"}).warnings.empty());
  // Two ports without teaming: active/standby, one carries vSAN; LACP when stated.
  const Scenario two = file_keys_test::parse({"cluster.host.network.ports=2"});
  CHECK(two.cluster.fabric.teaming == Teaming::failover);
  CHECK(two.cluster.fabric.active_ports == 1);
  const Scenario lacp = file_keys_test::parse({"cluster.host.network.ports=2", "cluster.host.network.teaming=lacp"});
  CHECK(lacp.cluster.fabric.active_ports == 2);
}

TEST_CASE("a retired key, in the file or through --set, names the key that replaced it", "[keys]") {
  CHECK_THAT(error_of({"cluster.resync.throttle_mbps=400"}),
             Catch::Contains("key 'cluster.resync.throttle_mbps' was retired; use cluster.resync.throttle_mbit_s"));
  std::string old = kMinimal;
  old.replace(old.find("workload:"), 9, "  resync: {throttle_mbps: 400}\nworkload:");
  CHECK_THROWS_WITH(parse_scenario(old, "min.yaml", {}, test::cat()),
                    Catch::StartsWith("min.yaml:7: key 'cluster.resync.throttle_mbps' was retired; use "
                                      "cluster.resync.throttle_mbit_s"));
  CHECK(file_keys_test::parse({"cluster.resync.throttle_mbit_s=400"}).cluster.resync.throttle_mbit_s == 400);
}

TEST_CASE("keys that contradict each other or change nothing are said", "[keys]") {
  const Scenario idle = file_keys_test::parse({"workload.auto_max_s=10", "workload.vmdk_size=200g"});
  REQUIRE(idle.warnings.size() == 1);
  CHECK_THAT(idle.warnings[0], Catch::Contains("workload.auto_max_s changes nothing without duration_s: auto"));
  const Scenario os = file_keys_test::parse(
      {"workload.fio=bs=4k rw=randrw rwmixread=70 iodepth=4 size=200g ioengine=windowsaio", "workload.guest_os=linux"});
  CHECK(os.workload.guest_os == GuestOs::linux_os);
  REQUIRE(os.warnings.size() == 1);
  CHECK_THAT(os.warnings[0], Catch::Contains("workload.guest_os = linux contradicts the fio ioengine (a windows engine)"));
  CHECK(file_keys_test::parse({"workload.fio=bs=4k size=200g ioengine=libaio", "workload.guest_os=linux"}).warnings.empty());
}

TEST_CASE("ghz is the sustained all-core clock: said in its range, and a catalog model's own clock is named", "[keys]") {
  // A clock in MHz is refused with what ghz is.
  CHECK_THAT(error_of({"cluster.host.cpu={cores: 32, ghz: 2000}"}),
             Catch::Contains("cluster.host.cpu.ghz = '2000' is not allowed; expected the sustained all-core clock, "
                             "0.1 .. 10 GHz"));
  // The Gold 6338's base clock (2.0) typed for its sustained one (2.6): modelled as typed, said.
  const Scenario base = file_keys_test::parse(
      {"cluster.host.cpu={model: intel-xeon-gold-6338, sockets: 2, ghz: 2.0}", "workload.vmdk_size=200g"});
  CHECK(base.cluster.hosts[0].cpu.ghz == 2.0);
  REQUIRE(base.warnings.size() == 1);
  CHECK_THAT(base.warnings[0],
             Catch::Contains("(--set): cluster.host.cpu.ghz = 2 is 23 % below the 2.6 GHz sustained all-core clock "
                             "of CPU 'intel-xeon-gold-6338' in the catalog (it is its base clock); ghz is the sustained "
                             "all-core clock"));
  // Within 10 % of the catalog's, or without a model: nothing to say.
  CHECK(file_keys_test::parse({"cluster.host.cpu={model: intel-xeon-gold-6338, ghz: 2.4}", "workload.vmdk_size=200g"})
            .warnings.empty());
  CHECK(file_keys_test::parse({"cluster.host.cpu={cores: 32, ghz: 2.0}", "workload.vmdk_size=200g"}).warnings.empty());
  const std::vector<FileKey> row = file_keys("cluster.host.cpu.ghz");
  REQUIRE(row.size() == 1);
  CHECK_THAT(std::string(row[0].description), Catch::StartsWith("ghz is the sustained all-core clock"));
}
