// The tornado of an assumption sensitivity as an SVG chart (sensitivity_svg in
// plan/sensitivity.hpp), drawn by report/svg_chart.hpp's svg_tornado.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "hcisim/model/report/text_escape.hpp"
#include "hcisim/plan/sensitivity.hpp"
#include "hcisim/report/svg_chart.hpp"

namespace hcisim {

namespace {

std::string num(double v) { return figure_text(v); }

double head(const std::vector<double>& v) { return v.empty() ? std::nan("") : v[0]; }

TornadoBar row_bar(const SensitivityRow& r) {
  const Assumption& a = r.assumption;
  TornadoBar b;
  b.label = a.name + " (" + num(a.low) + " .. " + num(a.high) + (a.unit.empty() ? "" : " " + a.unit) + ")" +
            (!r.switches                                                   ? ""
             : std::isfinite(head(r.at_low)) || std::isfinite(head(r.at_high)) ? ": found at one end only"
                                                                                : ": found at the base only");
  b.at_low = head(r.at_low);
  b.at_high = head(r.at_high);
  b.low_end = num(a.low);
  b.high_end = num(a.high);
  b.within_noise = r.within_noise;
  return b;
}

}  // namespace

std::string sensitivity_svg(const Sensitivity& s, const std::string& scenario) {
  const std::string headline = s.names.empty() ? std::string("answer") : s.names[0];
  // As the tornado's text: rows whose answer appears or disappears first (by name), then the
  // largest swing first; a row without a swing (an end without an answer) last.
  std::vector<const SensitivityRow*> rows;
  for (const SensitivityRow& r : s.rows) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const SensitivityRow* x, const SensitivityRow* y) {
    if (x->switches != y->switches) return x->switches;
    if (x->switches) return x->assumption.name < y->assumption.name;
    const bool fx = std::isfinite(x->swing), fy = std::isfinite(y->swing);
    return fx != fy ? fx : fx && x->swing > y->swing;
  });
  std::vector<TornadoBar> bars;
  for (const SensitivityRow* r : rows) bars.push_back(row_bar(*r));
  if (s.has_pair) {
    TornadoBar b;
    b.label = "worst pair: " + s.pair.first + " + " + s.pair.second;
    b.at_low = head(s.pair.at_down);
    b.at_high = head(s.pair.at_up);
    b.low_end = "both down";
    b.high_end = "both up";
    b.combined = true;
    bars.push_back(b);
  }
  const std::string subtitle =
      "each bar: one assumption alone, from the answer at its low end to the answer at its high end (the ends beside it)\n"
      "vertical line: the base answer" +
      std::string(s.has_pair ? "; red: the worst pair of the top three moved together" : "") +
      "; faint: within the run-to-run noise";
  return svg_tornado("Sensitivity of " + headline + "\n" + scenario, subtitle, headline, head(s.base), bars);
}

}  // namespace hcisim
