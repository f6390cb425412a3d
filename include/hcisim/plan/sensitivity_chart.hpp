// The tornado of an assumption sensitivity (plan/sensitivity.hpp) as an SVG chart
// (report/svg_chart.hpp): one bar per assumption, largest swing first, from the headline
// answer at the assumption's low end to the answer at its high end, around the base answer;
// the worst pair of the top three last, in a second colour.
#pragma once

#include <string>

#include "hcisim/plan/sensitivity.hpp"

namespace hcisim {

/// The chart of `s`, titled with its headline answer and, under it, `scenario` (the scenario's
/// name; a comparison's "A: name" and "B: name" a line each, '\n' between). Rows whose headline has no value at an end are drawn empty,
/// last among the assumptions.
std::string sensitivity_svg(const Sensitivity& s, const std::string& scenario);

}  // namespace hcisim
