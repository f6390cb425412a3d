// A small RFC 4180 [S148] CSV reader (quoted fields, doubled quotes, commas inside quotes) that
// remembers line numbers so errors can point at file:line and column name.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace hcisim {

class CsvTable {
 public:
  /// Reads a file with a header row. Throws InvalidArgument naming the file on I/O or
  /// shape errors (a row with a different number of fields than the header). Lines starting
  /// with `#` before the header are comments.
  static CsvTable read(const std::string& path);

  std::size_t rows() const { return rows_.size(); }
  /// Whether the header names `column` (for optional columns such as `price_usd`).
  bool has_column(const std::string& column) const { return columns_.count(column) > 0; }
  /// The field of `column` in row `row`; throws naming file, line and column if absent.
  const std::string& text(std::size_t row, const std::string& column) const;
  /// The field as a number; empty gives `fallback`; garbage throws naming file:line:column.
  double number(std::size_t row, const std::string& column, double fallback = 0.0) const;
  /// The field as a whole number (empty is an error).
  int integer(std::size_t row, const std::string& column) const;
  /// The field as a whole number; empty gives `fallback`.
  int integer(std::size_t row, const std::string& column, int fallback) const {
    return text(row, column).empty() ? fallback : integer(row, column);
  }
  /// The field as `yes` or `no`.
  bool flag(std::size_t row, const std::string& column) const;
  std::size_t line_of(std::size_t row) const { return lines_[row]; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::map<std::string, std::size_t> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> lines_;
};

}  // namespace hcisim
