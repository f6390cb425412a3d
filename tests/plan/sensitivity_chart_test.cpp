// The tornado of a sensitivity as an SVG chart (sensitivity_svg, plan/sensitivity.hpp): one bar per
// assumption, largest swing first, the worst pair last, on a study whose numbers are given.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "../report/svg_check.hpp"
#include "hcisim/plan/sensitivity.hpp"

using namespace hcisim;

namespace sensitivity_chart_test {

SensitivityRow row(const std::string& name, double low, double high, double at_low, double at_high) {
  SensitivityRow r;
  r.assumption.name = name;
  r.assumption.kind_text = "assumed key";
  r.assumption.low = low;
  r.assumption.high = high;
  r.assumption.unit = "us";
  r.at_low = {at_low, 1.0};
  r.at_high = {at_high, 1.0};
  r.swing = std::isfinite(at_low) && std::isfinite(at_high) ? std::fabs(at_high - at_low) : std::nan("");
  return r;
}

}  // namespace sensitivity_chart_test

TEST_CASE("the tornado chart has one bar per assumption by swing and the worst pair last", "[plan]") {
  using sensitivity_chart_test::row;
  Sensitivity s;
  s.names = {"iops", "pooled_latency_ms"};
  s.base = {100'000, 1.0};
  // Given out of order: the chart sorts by swing, the one without an answer last.
  s.rows = {row("small", 1, 2, 99'000, 101'000), row("none", 1, 2, std::nan(""), 90'000),
            row("large", 5, 50, 60'000, 120'000), row("middle", 3, 4, 110'000, 95'000)};
  s.has_pair = true;
  s.pair.first = "large";
  s.pair.second = "middle";
  s.pair.at_down = {55'000, 2.0};
  s.pair.at_up = {125'000, 0.5};
  const std::string svg = sensitivity_svg(s, "seed 000 <NUC>");
  std::vector<svg_check::Element> all;
  REQUIRE_NOTHROW(all = svg_check::parse(svg));
  const auto bars = svg_check::bars(all);
  REQUIRE(bars.size() == 5);
  CHECK(bars[0].attrs.at("data-label") == "large (5 .. 50 us)");
  CHECK(bars[1].attrs.at("data-label") == "middle (3 .. 4 us)");
  CHECK(bars[2].attrs.at("data-label") == "small (1 .. 2 us)");
  CHECK(bars[3].attrs.at("data-label") == "none (1 .. 2 us)");
  CHECK(bars[4].attrs.at("data-label") == "worst pair: large + middle");
  CHECK(bars[4].attrs.at("class") == "bar combined");
  for (std::size_t i = 0; i + 1 < 3; ++i)   // the drawn ones
    CHECK(std::stod(bars[i].attrs.at("data-swing")) >= std::stod(bars[i + 1].attrs.at("data-swing")));
  CHECK(bars[0].attrs.at("data-low") == "60000");
  CHECK(bars[0].attrs.at("data-high") == "120000");
  // The title names the answer, and the scenario under it.
  REQUIRE(all.size() > 3);
  CHECK(all[2].text == "Sensitivity of iops");
  CHECK(all[3].text == "seed 000 &lt;NUC&gt;");
  // Without a pair, no combined bar.
  s.has_pair = false;
  CHECK(svg_check::bars(svg_check::parse(sensitivity_svg(s, "x"))).size() == 4);
}
