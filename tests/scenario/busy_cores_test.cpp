// A host's CPU said one way: the resource table's busy cores are the sum of "CPU by stage",
// and the bottleneck, when it is a CPU, gives the same figure for the same host.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>

#include "hcisim/report/run_report.hpp"
#include "hcisim/scenario/simulation.hpp"
#include "shared_catalog.hpp"

using namespace hcisim;

namespace busy_cores_test {

// Seed 003's two hosts with every stage on their shared cores: CPU-bound.
RunResult cpu_bound_run() {
  const std::string file =
      std::string(default_data_dir()) + "/../examples/scenarios/seed003-2node-osa-optane905p-100gbe-easyrun-4k-70r.yaml";
  return simulate(load_scenario(file, {"workload.duration_s=0.3", "workload.warmup_s=0.1", "cluster.osa.lsom_worlds_per_dg=0"},
                                test::cat()));
}

// The numbers after "CPU by stage (...):", summed.
double stage_line_sum(const std::string& report) {
  const std::size_t at = report.find("CPU by stage (cores per host, full-speed thread time):");
  REQUIRE(at != std::string::npos);
  const std::string line = report.substr(at, report.find('\n', at) - at);
  const std::regex number(" ([0-9]+\\.[0-9]+)");
  double sum = 0;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), number); it != std::sregex_iterator(); ++it)
    sum += std::atof((*it)[1].str().c_str());
  return sum;
}

}  // namespace busy_cores_test

TEST_CASE("the resource table's busy cores sum the CPU by stage and the bottleneck says the same") {
  const RunResult r = busy_cores_test::cpu_bound_run();
  const std::string report = format_hcibench(r);
  INFO(report);
  // The Average row's busy cores against the stage line's figures (each rounded to 0.01, and
  // stages under 0.005 left out of the line).
  std::smatch avg;
  REQUIRE(std::regex_search(report, avg, std::regex("\\| Average \\| ([0-9.]+) / ([0-9]+) ")));
  CHECK(std::atof(avg[1].str().c_str()) == Approx(busy_cores_test::stage_line_sum(report)).margin(0.07));
  CHECK(std::atof(avg[1].str().c_str()) > 1);
  // Each host's row, from its own stage times.
  for (const HostResourceRow& h : r.hosts) {
    double sum = 0;
    for (double c : h.stage_cores) sum += c;
    char cell[64];
    std::snprintf(cell, sizeof cell, "| %s   | %.2f / %d ", h.host.c_str(), sum, h.cpu_cores);
    CHECK_THAT(report, Catch::Contains(cell));
  }
  // The bottleneck is a CPU and reads the busiest host's row: the same busy cores and cores.
  std::smatch b;
  const std::string line = r.bottleneck + ": " + r.bottleneck_detail;
  CHECK_THAT(report, Catch::Contains("Bottleneck: " + line + "\n"));
  REQUIRE(std::regex_search(line, b, std::regex("^cpu \\((esx[0-9]+)\\): ([0-9.]+) of ([0-9]+) cores busy")));
  const HostResourceRow* host = r.host(b[1].str());
  REQUIRE(host != nullptr);
  CHECK_THAT(report, Catch::Contains("| " + b[1].str() + "   | " + b[2].str() + " / " + b[3].str() + " "));
  // The utilisation it was chosen by is that host's busy cores over what its cores do at most.
  const ResourceClassUse* cpu = r.resource("cpu");
  REQUIRE(cpu != nullptr);
  CHECK(cpu->busiest == b[1].str());
  CHECK(cpu->max == Approx(std::max(std::min(1.0, host->busy_cores() / host->cpu_core_capacity), host->shared_thread_share)));
  CHECK(host->cpu_core_capacity > host->cpu_cores);   // hyper-threading counted at its factor
}

TEST_CASE("full shared cores beside idle cores pinned to LSOM worlds are the CPU bottleneck") {
  // Seed 003's 100 % read run with four LSOM worlds per disk group: reads leave the pinned cores
  // nearly idle while the shared cores' threads queue; the pinned cores' capacity in the busy
  // cores' denominator must not hide that.
  const std::string file =
      std::string(default_data_dir()) + "/../examples/scenarios/seed003-2node-osa-optane905p-100gbe-easyrun-4k-100r.yaml";
  const RunResult r = simulate(load_scenario(
      file, {"workload.duration_s=0.2", "workload.warmup_s=0.05", "cluster.osa.lsom_worlds_per_dg=4"}, test::cat()));
  const ResourceClassUse* cpu = r.resource("cpu");
  REQUIRE(cpu != nullptr);
  const HostResourceRow* host = r.host(cpu->busiest);
  REQUIRE(host != nullptr);
  INFO(r.bottleneck << ": " << r.bottleneck_detail << "; busy share " << host->busy_share() << ", shared threads "
                    << host->shared_thread_share);
  CHECK(host->shared_thread_share > host->busy_share() + 0.05);   // the case: pinned cores idle
  CHECK(cpu->max == Approx(host->shared_thread_share));
  CHECK(r.bottleneck.rfind("cpu (", 0) == 0);
  CHECK_THAT(r.bottleneck_detail, Catch::Contains("its shared cores' threads") && Catch::Contains("pinned to LSOM worlds less"));
}
