// A self-contained SVG line chart (no external assets): IOPS on x, latency on y, one series
// per curve, points marked and labelled — the "hockey stick" of an IOPS-latency sweep.
#pragma once

#include <string>
#include <vector>

namespace hcisim {

struct ChartSeries {
  std::string label;
  std::vector<double> x;   // e.g. IOPS
  std::vector<double> y;   // e.g. mean latency in ms
};

std::string svg_line_chart(const std::string& title, const std::string& x_label, const std::string& y_label,
                           const std::vector<ChartSeries>& series);

}  // namespace hcisim
