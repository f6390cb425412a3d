// Text rendering of the per-host resource table (report/run_result.hpp).
#include "hcisim/report/run_result.hpp"

#include <algorithm>
#include <cstdio>

namespace hcisim {

namespace {

std::string fixed2(double v) {
  if (v < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

std::string format_resource_table(const std::vector<HostResourceRow>& rows) {
  const std::vector<std::string> head = {"Host", "cpu.usage%", "cpu.utilization%", "mem.usage%"};
  std::vector<std::vector<std::string>> cells;
  double sum[3] = {0, 0, 0};
  bool mem_known = !rows.empty();
  for (const auto& r : rows) {
    cells.push_back({r.host, fixed2(r.cpu_usage_pct), fixed2(r.cpu_utilization_pct), fixed2(r.mem_usage_pct)});
    sum[0] += r.cpu_usage_pct;
    sum[1] += r.cpu_utilization_pct;
    sum[2] += r.mem_usage_pct;
    mem_known = mem_known && r.mem_usage_pct >= 0;
  }
  const double n = rows.empty() ? 1.0 : static_cast<double>(rows.size());
  const std::vector<std::string> avg = {"Average", fixed2(sum[0] / n), fixed2(sum[1] / n),
                                        mem_known ? fixed2(sum[2] / n) : "-"};
  std::size_t width[4];
  for (std::size_t c = 0; c < 4; ++c) {
    width[c] = std::max(head[c].size(), avg[c].size());
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  std::string rule = "+";
  for (std::size_t w : width) rule += std::string(w + 2, '-') + "+";
  auto line = [&](const std::vector<std::string>& row) {
    std::string s = "|";
    for (std::size_t c = 0; c < 4; ++c) s += " " + row[c] + std::string(width[c] - row[c].size(), ' ') + " |";
    return s + "\n";
  };
  std::string out = rule + "\n" + line(head) + rule + "\n";
  for (const auto& row : cells) out += line(row);
  return out + rule + "\n" + line(avg) + rule + "\n";
}

}  // namespace hcisim
