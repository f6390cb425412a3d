// Strong units: literals, conversions, rounding and rejection of bad values.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "hcisim/core/check.hpp"
#include "hcisim/core/units.hpp"

using namespace hcisim;
using namespace hcisim::literals;

TEST_CASE("time literals are exact nanosecond counts", "[core]") {
  CHECK((1_s).count_ns() == 1'000'000'000);
  CHECK((10_us).count_ns() == 10'000);
  CHECK((2.5_ms).count_ns() == 2'500'000);
  CHECK(1_ms + 500_us == 1.5_ms);
  CHECK((3_ms).ms() == Approx(3.0));
  CHECK(Time::from_seconds(1.25e-6).count_ns() == 1'250);
}

TEST_CASE("byte and rate literals", "[core]") {
  CHECK((4_KiB).count() == 4096);
  CHECK((1_GB).count() == 1'000'000'000);
  CHECK((25_Gbps).bytes_per_s() == Approx(3.125e9));
  CHECK((2000_MBps).mb_per_s() == Approx(2000.0));
}

TEST_CASE("transfer time rounds up and is exact for round numbers", "[core]") {
  // 1 MB at 1 GB/s = 1 ms exactly.
  CHECK(transfer_time(1_MB, 1_GBps) == 1_ms);
  // 4 KiB over 10 GbE line rate: 4096 * 8 / 10e9 s = 3276.8 ns -> 3277 ns.
  CHECK(transfer_time(4_KiB, 10_Gbps).count_ns() == 3277);
  CHECK(bytes_in(1_GBps, 1_ms) == 1_MB);
}

TEST_CASE("non-finite or zero inputs are rejected with the argument's name", "[core]") {
  CHECK_THROWS_WITH(Time::from_seconds(std::nan(""), "warmup"), Catch::Contains("warmup"));
  CHECK_THROWS_AS(Time::from_seconds(std::numeric_limits<double>::infinity()), InvalidArgument);
  CHECK_THROWS_WITH(transfer_time(4_KiB, Rate::bytes_per_second(0.0)), Catch::Contains("rate"));
  CHECK_THROWS_WITH(transfer_time(4_KiB, Rate::bytes_per_second(std::nan(""))), Catch::Contains("rate"));
}
