// The HCIBench-style resource table: one row per host, two decimals, an Average row.
#include <catch2/catch.hpp>

#include "hcisim/report/run_result.hpp"

using namespace hcisim;

TEST_CASE("resource table lists each host and the average like HCIBench") {
  const std::string t = format_resource_table({{"esx01", 56.571, 29.47, 89.97}, {"esx02", 58.02, 29.7, 88.2}});
  CHECK_THAT(t, Catch::Contains("| esx01   | 56.57      | 29.47            | 89.97      |"));
  CHECK_THAT(t, Catch::Contains("| Average | 57.30      | 29.59            | 89.09      |"));
  const std::string no_mem = format_resource_table({{"esx01", 10, 5, -1}});
  CHECK_THAT(no_mem, Catch::Contains("| Average | 10.00      | 5.00             | -          |"));
}
