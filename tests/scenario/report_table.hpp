// A run's CSV report read back through the project's own RFC 4180 [S148] reader (model/scenario/csv.hpp),
// so tests look cells up by column name with quotes respected.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "hcisim/report/run_report.hpp"
#include "hcisim/model/scenario/csv.hpp"

namespace hcisim::test {

inline CsvTable report_table(const RunResult& r, const std::string& tag) {
  const auto path = std::filesystem::temp_directory_path() / ("hcisim_report_" + tag + ".csv");
  std::ofstream(path) << csv_header() << "\n" << csv_row(r) << "\n";
  return CsvTable::read(path.string());   // throws if the row has a different field count
}

}  // namespace hcisim::test
