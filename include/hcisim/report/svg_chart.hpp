// Self-contained SVG charts (no external assets): a line chart, IOPS on x, latency on y, one
// series per curve, points marked and labelled — the "hockey stick" of an IOPS-latency sweep;
// and a tornado chart, one horizontal bar per input from the answer at the input's low end to
// the answer at its high end, around a vertical line at the base answer.
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

/// One bar of a tornado chart: the answer with one input (or a set of inputs moved together)
/// at its low end and at its high end.
struct TornadoBar {
  std::string label;        // the input and its range, e.g. "rx_thread_gbit_s (10 .. 40 Gb/s)"
  double at_low = 0;        // the answer at the low end (NaN: none; the bar is drawn empty)
  double at_high = 0;       // the answer at the high end (NaN: none)
  std::string low_end;      // written at the bar's end for at_low, e.g. "10"
  std::string high_end;     // written at the bar's end for at_high
  bool combined = false;    // inputs moved together (the worst pair): drawn in the second colour
  bool within_noise = false;  // the swing is within the answer's run-to-run noise: drawn faint
};

/// The tornado: `bars` top to bottom as given (the caller sorts them), the x axis the answer
/// (`value_label`), a vertical line at `base`; `title` and `subtitle` a line per '\n' (the
/// title's first line larger); the labels' column as wide as the longest label. Each bar is one <rect class="bar"> (class
/// "bar combined" for a combined one) with data-label, data-low, data-high and data-swing
/// (|at_high - at_low|; "nan" when an end has no answer), so a program can read it back.
std::string svg_tornado(const std::string& title, const std::string& subtitle, const std::string& value_label,
                        double base, const std::vector<TornadoBar>& bars);

}  // namespace hcisim
