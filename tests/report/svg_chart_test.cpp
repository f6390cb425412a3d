// The SVG charts (report/svg_chart.hpp): well-formed XML, and a tornado's bars where their
// values put them.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "hcisim/report/svg_chart.hpp"
#include "svg_check.hpp"

using namespace hcisim;

TEST_CASE("a tornado draws one bar per input, between its two answers, around the base", "[report]") {
  const std::vector<TornadoBar> in = {
      {"wide <&> \"one\" (10 .. 40 Gb/s)", 80'000, 140'000, "10", "40", false, false},
      {"narrow (1 .. 2)", 101'000, 99'000, "1", "2", false, true},
      {"no answer", std::nan(""), 90'000, "a", "b", false, false},
      {"worst pair: wide + narrow", 70'000, 150'000, "both down", "both up", true, false},
  };
  const std::string svg = svg_tornado("Sensitivity of iops - <test>", "base 100000", "iops", 100'000, in);
  std::vector<svg_check::Element> all;
  REQUIRE_NOTHROW(all = svg_check::parse(svg));
  const std::vector<svg_check::Element> bars = svg_check::bars(all);
  REQUIRE(bars.size() == 4);
  CHECK(bars[0].attrs.at("data-label") == "wide &lt;&amp;&gt; &quot;one&quot; (10 .. 40 Gb/s)");
  CHECK(bars[0].attrs.at("data-swing") == "60000");
  CHECK(bars[1].attrs.at("fill-opacity") == "0.35");   // within noise: faint
  CHECK(bars[2].attrs.at("data-swing") == "nan");
  CHECK(std::stod(bars[2].attrs.at("width")) == 0);
  CHECK(bars[3].attrs.at("class") == "bar combined");
  CHECK(bars[3].attrs.at("fill") != bars[0].attrs.at("fill"));
  // Widths follow the swings; the base line sits inside every drawn bar.
  const auto x = [](const svg_check::Element& e) { return std::stod(e.attrs.at("x")); };
  const auto w = [](const svg_check::Element& e) { return std::stod(e.attrs.at("width")); };
  CHECK(w(bars[0]) == Approx(30 * w(bars[1])));
  CHECK(w(bars[3]) > w(bars[0]));
  double base_x = -1;
  for (const svg_check::Element& e : all)
    if (e.name == "line" && e.attrs.count("stroke-width") && e.attrs.at("stroke") == "black") base_x = std::stod(e.attrs.at("x1"));
  REQUIRE(base_x > 0);
  for (int i : {0, 1, 3}) {
    CHECK(x(bars[static_cast<std::size_t>(i)]) < base_x);
    CHECK(x(bars[static_cast<std::size_t>(i)]) + w(bars[static_cast<std::size_t>(i)]) > base_x);
  }
  // The low end's value is written on its side: "10" left of the first bar (its low answer is lower).
  bool ten_left = false;
  for (const svg_check::Element& e : all)
    if (e.name == "text" && e.text == "10") ten_left = std::stod(e.attrs.at("x")) < x(bars[0]);
  CHECK(ten_left);
}

TEST_CASE("a tornado without bars or answers is still a well-formed chart", "[report]") {
  CHECK(svg_check::bars(svg_check::parse(svg_tornado("t", "s", "iops", 5, {}))).empty());
  const std::string none = svg_tornado("t", "s", "iops", std::nan(""), {{"x", std::nan(""), std::nan(""), "", "", false, false}});
  CHECK(svg_check::bars(svg_check::parse(none)).size() == 1);
  CHECK_THROWS(svg_check::parse("<svg><rect></svg>"));   // the reader itself refuses what is not well-formed
  CHECK_THROWS(svg_check::parse("<svg><text>a < b</text></svg>"));
  CHECK_THROWS(svg_check::parse("<svg><text>a &nbsp; b</text></svg>"));
}
