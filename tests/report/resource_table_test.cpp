// The HCIBench-style resource table: one row per host, two decimals, an Average row, busy
// cores against the host's cores before vCenter's counters, and a legend.
#include <catch2/catch.hpp>

#include "hcisim/report/run_result.hpp"

using namespace hcisim;

namespace resource_table_test {

HostResourceRow row(const char* host, double usage, double utilization, double mem, double guest, double network,
                    int cores, double capacity) {
  HostResourceRow r{host, usage, utilization, mem};
  r.stage_cores[static_cast<std::size_t>(CpuStage::guest)] = guest;
  r.stage_cores[static_cast<std::size_t>(CpuStage::network)] = network;
  r.cpu_cores = cores;
  r.cpu_core_capacity = capacity;
  return r;
}

}  // namespace resource_table_test

using resource_table_test::row;

TEST_CASE("resource table lists each host and the average like HCIBench") {
  const std::string t = format_resource_table(
      {row("esx01", 56.571, 29.47, 89.97, 1.5, 2.75, 8, 10), row("esx02", 58.02, 29.7, 88.2, 1, 1.15, 8, 10)});
  CHECK_THAT(t, Catch::Contains("| Host    | busy cores / cores | cpu.usage% | cpu.utilization% | mem.usage% |"));
  CHECK_THAT(t, Catch::Contains("| esx01   | 4.25 / 8           | 56.57      | 29.47            | 89.97      |"));
  CHECK_THAT(t, Catch::Contains("| Average | 3.20 / 8           | 57.30      | 29.59            | 89.09      |"));
  // The legend: what busy cores count, hyper-threading's factor, and whose counters the others are.
  CHECK_THAT(t, Catch::Contains("busy cores: full-speed thread time per second summed over the stages"));
  CHECK_THAT(t, Catch::Contains("with hyper-threading a core's threads together do more than one thread's work"));
  CHECK_THAT(t, Catch::Contains("cpu.usage% and cpu.utilization% are vCenter's counters"));
  const std::string no_mem = format_resource_table({row("esx01", 10, 5, -1, 0.5, 0, 4, 4)});
  CHECK_THAT(no_mem, Catch::Contains("| Average | 0.50 / 4           | 10.00      | 5.00             | -          |"));
  CHECK_THAT(no_mem, !Catch::Contains("hyper-threading"));   // no hyper-threads: no factor to explain
}

TEST_CASE("a host's CPU in busy cores: the sum of its stages, against what its cores do at most") {
  const HostResourceRow ht = row("esx03", 100, 60, -1, 3, 4.1, 8, 10);
  CHECK(ht.busy_cores() == Approx(7.1));
  CHECK(ht.busy_share() == Approx(0.71));
  CHECK(busy_cores_text(ht) == "7.10 of 8 cores busy (71 % of the 10 they do with hyper-threading)");
  CHECK(busy_cores_text(row("esx01", 50, 50, -1, 2, 0, 4, 4)) == "2.00 of 4 cores busy (50 %)");
  // Full shared cores beside idle pinned ones are said; within 5 points they are not.
  HostResourceRow pinned = ht;
  pinned.shared_thread_share = 0.995;
  CHECK(pinned.cpu_share() == Approx(0.995));
  CHECK(busy_cores_text(pinned) == "7.10 of 8 cores busy (71 % of the 10 they do with hyper-threading); its shared "
                                   "cores' threads 100 % busy, the cores pinned to LSOM worlds less");
  pinned.shared_thread_share = 0.75;
  CHECK(pinned.cpu_share() == Approx(0.75));
  CHECK(busy_cores_text(pinned) == "7.10 of 8 cores busy (71 % of the 10 they do with hyper-threading)");
  // A mean over hosts that differ reads with three figures.
  CHECK_THAT(format_resource_table({row("a", 1, 1, -1, 1, 0, 8, 10), row("b", 1, 1, -1, 1, 0, 10, 12),
                                    row("c", 1, 1, -1, 1, 0, 10, 12)}),
             Catch::Contains("| Average | 1.00 / 9.33 "));
}
