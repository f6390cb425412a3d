// SVG rendering of IOPS-latency curves and tornado charts (svg_chart.hpp).
#include "hcisim/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <limits>
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

namespace tornado_chart {

// An axis value with K or M for thousands or millions, signed.
std::string tick(double v) {
  char buf[32];
  const double a = std::fabs(v);
  if (a >= 1e6) std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
  else if (a >= 1e3) std::snprintf(buf, sizeof buf, "%gK", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A value as the text reports give it: whole above 1000, else four significant figures.
std::string value_text(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 && std::fabs(v) < 1e15 ? "%.0f" : "%.4g", v);
  return buf;
}

// An attribute value: character data with the quote escaped too.
std::string attr(std::string_view s) {
  std::string out;
  for (char c : xml_text(s)) out += c == '"' ? std::string("&quot;") : std::string(1, c);
  return out;
}

// A number for a data- attribute, read back exactly enough ("nan" for none).
std::string data_number(double v) {
  if (!std::isfinite(v)) return "nan";
  std::ostringstream os;
  os << std::setprecision(12) << v;
  return os.str();
}

// The axis: `lo` .. `hi` widened to whole ticks of 1, 2, 2.5 or 5 times a power of ten.
struct Axis {
  double lo = 0, hi = 1, step = 1;
};

Axis axis_over(double lo, double hi) {
  if (!(hi > lo)) {
    const double pad = std::max(1.0, std::fabs(lo) * 0.05);
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * p;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * p >= raw) {
      step = m * p;
      break;
    }
  return {std::floor(lo / step) * step, std::ceil(hi / step) * step, step};
}

// The lines of `s` ('\n' between them).
std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> lines{""};
  for (char c : s) {
    if (c == '\n') lines.emplace_back();
    else lines.back() += c;
  }
  return lines;
}

// The answers' span: the base and every bar's finite ends, with room on both sides for the
// ends' values (an eighth of the span).
Axis tornado_axis(double base, const std::vector<TornadoBar>& bars) {
  double lo = std::isfinite(base) ? base : std::numeric_limits<double>::infinity(), hi = -lo;
  for (const TornadoBar& b : bars)
    for (double v : {b.at_low, b.at_high})
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (!std::isfinite(lo)) lo = hi = 0;   // nothing to draw: an empty axis around 0
  const double pad = (hi - lo) / 8;
  return axis_over(lo - pad, hi + pad);
}

// One bar: its label left of the plot, the <rect>, and the ends' values beside its ends (the
// low end's on its side), or "no answer at an end".
void draw_bar(std::ostringstream& os, const TornadoBar& b, double y, double label_right, double base_x,
              const std::function<double(double)>& px) {
  constexpr double BAR = 16;
  const bool drawn = std::isfinite(b.at_low) && std::isfinite(b.at_high);
  const double left = drawn ? px(std::min(b.at_low, b.at_high)) : base_x;
  const double right = drawn ? px(std::max(b.at_low, b.at_high)) : left;
  os << "<text x=\"" << label_right << "\" y=\"" << y + BAR - 4 << "\" text-anchor=\"end\">" << xml_text(b.label)
     << "</text>\n"
     << "<rect class=\"" << (b.combined ? "bar combined" : "bar") << "\" data-label=\"" << attr(b.label) << "\" data-low=\""
     << data_number(b.at_low) << "\" data-high=\"" << data_number(b.at_high) << "\" data-swing=\""
     << data_number(drawn ? std::fabs(b.at_high - b.at_low) : std::nan("")) << "\" x=\"" << left << "\" y=\"" << y
     << "\" width=\"" << right - left << "\" height=\"" << BAR << "\" fill=\"" << (b.combined ? "#d62728" : "#1f77b4") << "\""
     << (b.within_noise ? " fill-opacity=\"0.35\"" : "") << "/>\n";
  if (!drawn) {
    os << "<text x=\"" << left + 4 << "\" y=\"" << y + BAR - 4 << "\" fill=\"#555\">no answer at an end</text>\n";
    return;
  }
  const bool low_left = b.at_low <= b.at_high;
  const auto end_text = [&](double x, bool at_left, const std::string& text) {
    os << "<text x=\"" << (at_left ? x - 4 : x + 4) << "\" y=\"" << y + BAR - 4 << "\" text-anchor=\""
       << (at_left ? "end" : "start") << "\" font-size=\"10\" fill=\"#333\">" << xml_text(text) << "</text>\n";
  };
  end_text(px(b.at_low), low_left, b.low_end);
  end_text(px(b.at_high), !low_left, b.high_end);
}

}  // namespace tornado_chart

std::string svg_tornado(const std::string& title, const std::string& subtitle, const std::string& value_label,
                        double base, const std::vector<TornadoBar>& bars) {
  using namespace tornado_chart;
  const std::vector<std::string> titles = lines_of(title), notes = lines_of(subtitle);
  // The labels' column as wide as the longest label (about 6.6 px a character at 12 px).
  std::size_t longest = 0;
  for (const TornadoBar& b : bars) longest = std::max(longest, b.label.size());
  const double LW = std::clamp(20 + 6.6 * static_cast<double>(longest), 220.0, 560.0), PLOT = 500, R = 80;
  const double W = LW + PLOT + R, B = 56, ROW = 26;
  const double T = 58 + 18 * static_cast<double>(titles.size() - 1) + 16 * static_cast<double>(notes.size());
  const double bottom = T + ROW * static_cast<double>(bars.size());
  const double H = T + ROW * static_cast<double>(std::max<std::size_t>(bars.size(), 1)) + B;
  const Axis ax = tornado_axis(base, bars);
  const std::function<double(double)> px = [&](double v) { return LW + PLOT * (v - ax.lo) / (ax.hi - ax.lo); };
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
     << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  double y = 22;
  for (std::size_t i = 0; i < titles.size(); ++i, y += 18)
    os << "<text x=\"" << W / 2 << "\" y=\"" << y << "\" text-anchor=\"middle\" font-size=\"" << (i == 0 ? 15 : 13) << "\">"
       << xml_text(titles[i]) << "</text>\n";
  for (std::size_t i = 0; i < notes.size(); ++i, y += 16)
    os << "<text x=\"" << W / 2 << "\" y=\"" << y << "\" text-anchor=\"middle\" fill=\"#555\">" << xml_text(notes[i])
       << "</text>\n";
  const int ticks = static_cast<int>(std::lround((ax.hi - ax.lo) / ax.step));
  for (int k = 0; k <= ticks; ++k) {
    const double v = ax.lo + ax.step * k, x = px(v);
    os << "<line x1=\"" << x << "\" y1=\"" << T - 4 << "\" x2=\"" << x << "\" y2=\"" << bottom << "\" stroke=\"#eee\"/>\n"
       << "<text x=\"" << x << "\" y=\"" << bottom + 16 << "\" text-anchor=\"middle\">" << xml_text(tick(v)) << "</text>\n";
  }
  os << "<text x=\"" << LW + PLOT / 2 << "\" y=\"" << H - 14 << "\" text-anchor=\"middle\">" << xml_text(value_label)
     << "</text>\n";
  const double base_x = std::isfinite(base) ? px(base) : LW;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double row_top = T + ROW * static_cast<double>(i);
    if (bars[i].combined)
      os << "<line x1=\"10\" y1=\"" << row_top << "\" x2=\"" << W - 10 << "\" y2=\"" << row_top
         << "\" stroke=\"#999\" stroke-dasharray=\"2,3\"/>\n";
    draw_bar(os, bars[i], row_top + 5, LW - 10, base_x, px);
  }
  if (std::isfinite(base))
    os << "<line x1=\"" << base_x << "\" y1=\"" << T - 10 << "\" x2=\"" << base_x << "\" y2=\"" << bottom
       << "\" stroke=\"black\" stroke-width=\"1.5\"/>\n"
       << "<text x=\"" << base_x << "\" y=\"" << T - 14 << "\" text-anchor=\"middle\">base " << xml_text(value_text(base))
       << "</text>\n";
  os << "</svg>\n";
  return os.str();
}

}  // namespace hcisim
