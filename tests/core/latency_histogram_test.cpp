// Log-bucket histogram: percentiles within 1% of the exact values on 10^6 samples;
// merging equals recording everything in one histogram.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "hcisim/core/check.hpp"
#include "hcisim/model/core/distribution.hpp"
#include "hcisim/core/latency_histogram.hpp"

using namespace hcisim;

namespace {
std::int64_t exact_quantile(std::vector<std::int64_t> v, double q) {   // nearest rank
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank - 1), v.end());
  return v[rank - 1];
}
}  // namespace

TEST_CASE("bucket boundaries are contiguous and cover the range", "[core]") {
  for (std::size_t i = 0; i + 1 < LatencyHistogram::kBuckets; ++i)
    REQUIRE(LatencyHistogram::bucket_low(i) + LatencyHistogram::bucket_width(i) == LatencyHistogram::bucket_low(i + 1));
  for (std::int64_t v : {0LL, 1LL, 127LL, 128LL, 255LL, 256LL, 1000LL, 123456789LL, (1LL << 44) + 5})
    CHECK(LatencyHistogram::bucket_low(LatencyHistogram::bucket_of(v)) <= v);
}

TEST_CASE("p50/p95/p99/p99.9 within 1% of exact on 10^6 lognormal latencies", "[core]") {
  const auto dist = Distribution::lognormal(250'000.0, 1.5);   // 250 us mean, heavy tail
  RngStream rng(5, 0, "hist");
  std::vector<std::int64_t> values;
  values.reserve(1'000'000);
  LatencyHistogram h;
  for (int i = 0; i < 1'000'000; ++i) {
    const auto v = static_cast<std::int64_t>(dist.sample(rng));
    values.push_back(v);
    h.record_ns(v);
  }
  for (double q : {0.5, 0.95, 0.99, 0.999}) {
    const double exact = static_cast<double>(exact_quantile(values, q));
    CHECK(static_cast<double>(h.percentile(q).count_ns()) == Approx(exact).epsilon(0.01));
  }
  CHECK(h.count() == 1'000'000);
  CHECK(h.min().count_ns() == *std::min_element(values.begin(), values.end()));
  CHECK(h.max().count_ns() == *std::max_element(values.begin(), values.end()));
}

TEST_CASE("merging histograms equals one histogram of all samples", "[core]") {
  RngStream rng(6, 0, "merge");
  LatencyHistogram a, b, all;
  for (int i = 0; i < 20000; ++i) {
    const auto v = static_cast<std::int64_t>(rng.below(5'000'000));
    (i % 3 ? a : b).record_ns(v);
    all.record_ns(v);
  }
  a.merge(b);
  CHECK(a.count() == all.count());
  CHECK(a.mean_ns() == Approx(all.mean_ns()));
  for (double q : {0.0, 0.1, 0.5, 0.9, 0.99, 1.0}) CHECK(a.percentile(q) == all.percentile(q));
  CHECK_THROWS_WITH(a.percentile(1.5), Catch::Contains("[0, 1]"));
  CHECK_THROWS_AS(a.record_ns(-1), InvalidArgument);
}

TEST_CASE("a histogram holds only the rows its values touch, and reset keeps them", "[core]") {
  // Two histograms per VM were 2 x 40 KB whatever the latencies.
  LatencyHistogram h;
  CHECK(h.rows() == 0);
  for (std::int64_t ns = 1000; ns <= 100'000'000; ns *= 10) h.record_ns(ns);   // 1 us .. 100 ms
  // 1 us = 2^9.97 and 100 ms = 2^26.6: the rows of exponents 9 .. 26, one per value here.
  CHECK(h.rows() == 6);
  CHECK(h.rows() * 128 * sizeof(std::uint64_t) < 8 * 1024);
  const Time p50 = h.percentile(0.5);
  h.reset();
  CHECK(h.count() == 0);
  CHECK(h.rows() == 6);                      // kept for the next window: no allocation
  CHECK(h.percentile(0.5) == Time::zero());
  for (std::int64_t ns = 1000; ns <= 100'000'000; ns *= 10) h.record_ns(ns);
  CHECK(h.percentile(0.5) == p50);
  CHECK(h.rows() == 6);
}
