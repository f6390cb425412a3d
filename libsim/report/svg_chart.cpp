// SVG rendering of IOPS-latency curves (svg_chart.hpp).
#include "hcisim/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "hcisim/model/report/text_escape.hpp"

namespace hcisim {

namespace {

// A "nice" axis maximum: 1, 2 or 5 times a power of ten at or above v.
double nice_max(double v) {
  if (!(v > 0)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * p >= v) return m * p;
  return 10 * p;
}

std::string label(double v) {
  char buf[32];
  if (v >= 1e6) std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
  else if (v >= 1e3) std::snprintf(buf, sizeof buf, "%gK", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string svg_line_chart(const std::string& title, const std::string& x_label, const std::string& y_label,
                           const std::vector<ChartSeries>& series) {
  constexpr double W = 720, H = 440, L = 70, R = 20, T = 40, B = 60;
  double xmax = 0, ymax = 0;
  for (const auto& s : series) {
    for (double x : s.x) xmax = std::max(xmax, x);
    for (double y : s.y) ymax = std::max(ymax, y);
  }
  xmax = nice_max(xmax * 1.05);
  ymax = nice_max(ymax * 1.05);
  auto px = [&](double x) { return L + (W - L - R) * x / xmax; };
  auto py = [&](double y) { return H - B - (H - T - B) * y / ymax; };
  static const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
     << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << xml_text(title) << "</text>\n";
  for (int i = 0; i <= 5; ++i) {
    const double xv = xmax * i / 5, yv = ymax * i / 5;
    os << "<line x1=\"" << px(xv) << "\" y1=\"" << py(0) << "\" x2=\"" << px(xv) << "\" y2=\"" << py(ymax)
       << "\" stroke=\"#eee\"/>\n"
       << "<line x1=\"" << px(0) << "\" y1=\"" << py(yv) << "\" x2=\"" << px(xmax) << "\" y2=\"" << py(yv)
       << "\" stroke=\"#eee\"/>\n"
       << "<text x=\"" << px(xv) << "\" y=\"" << H - B + 18 << "\" text-anchor=\"middle\">" << label(xv) << "</text>\n"
       << "<text x=\"" << L - 8 << "\" y=\"" << py(yv) + 4 << "\" text-anchor=\"end\">" << label(yv) << "</text>\n";
  }
  os << "<line x1=\"" << L << "\" y1=\"" << py(0) << "\" x2=\"" << W - R << "\" y2=\"" << py(0) << "\" stroke=\"black\"/>\n"
     << "<line x1=\"" << L << "\" y1=\"" << py(0) << "\" x2=\"" << L << "\" y2=\"" << T << "\" stroke=\"black\"/>\n"
     << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 18 << "\" text-anchor=\"middle\">" << xml_text(x_label)
     << "</text>\n"
     << "<text transform=\"translate(18," << (T + H - B) / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
     << xml_text(y_label) << "</text>\n";
  for (std::size_t s = 0; s < series.size(); ++s) {
    const char* colour = kColours[s % 6];
    os << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
    for (std::size_t i = 0; i < series[s].x.size() && i < series[s].y.size(); ++i)
      os << px(series[s].x[i]) << "," << py(series[s].y[i]) << " ";
    os << "\"/>\n";
    for (std::size_t i = 0; i < series[s].x.size() && i < series[s].y.size(); ++i)
      os << "<circle cx=\"" << px(series[s].x[i]) << "\" cy=\"" << py(series[s].y[i]) << "\" r=\"3.5\" fill=\"" << colour
         << "\"/>\n";
    os << "<rect x=\"" << L + 12 << "\" y=\"" << T + 8 + 18 * static_cast<double>(s) << "\" width=\"12\" height=\"12\" fill=\""
       << colour << "\"/>\n"
       << "<text x=\"" << L + 30 << "\" y=\"" << T + 18 + 18 * static_cast<double>(s) << "\">" << xml_text(series[s].label)
       << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

}  // namespace hcisim
