// RFC 4180 [S148] CSV reading with line tracking.
#include "hcisim/model/scenario/csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hcisim/core/check.hpp"

namespace hcisim {

namespace {
// Splits one record starting at `pos`; advances pos and line past it.
std::vector<std::string> parse_record(const std::string& s, std::size_t& pos, std::size_t& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (; pos < s.size(); ++pos) {
    const char c = s[pos];
    if (quoted) {
      if (c == '"' && pos + 1 < s.size() && s[pos + 1] == '"') {
        fields.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++pos;
      ++line;
      break;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}
}  // namespace

CsvTable CsvTable::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(path + ": cannot open file");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string s = buf.str();
  CsvTable t;
  t.path_ = path;
  std::size_t pos = 0, line = 1;
  if (s.rfind("\xEF\xBB\xBF", 0) == 0) pos = 3;   // a UTF-8 byte-order mark (spreadsheet exports)
  // Lines starting with '#' before the header are comments (data/accuracy.csv's header).
  while (pos < s.size() && s[pos] == '#') {
    const auto eol = s.find('\n', pos);
    pos = eol == std::string::npos ? s.size() : eol + 1;
    ++line;
  }
  const auto header = parse_record(s, pos, line);
  for (std::size_t i = 0; i < header.size(); ++i) t.columns_[header[i]] = i;
  while (pos < s.size()) {
    const std::size_t start_line = line;
    auto fields = parse_record(s, pos, line);
    if (fields.size() == 1 && fields[0].empty()) continue;   // blank line
    if (fields.size() != header.size()) {
      std::ostringstream os;
      os << path << ":" << start_line << ": " << fields.size() << " fields, expected " << header.size()
         << " (the header's columns)";
      throw InvalidArgument(os.str());
    }
    t.rows_.push_back(std::move(fields));
    t.lines_.push_back(start_line);
  }
  return t;
}

const std::string& CsvTable::text(std::size_t row, const std::string& column) const {
  const auto it = columns_.find(column);
  if (it == columns_.end()) throw InvalidArgument(path_ + ": no column '" + column + "' in the header");
  return rows_.at(row)[it->second];
}

double CsvTable::number(std::size_t row, const std::string& column, double fallback) const {
  const std::string& f = text(row, column);
  if (f.empty()) return fallback;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(f.c_str(), &end);
  if (end == f.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v)) {
    std::ostringstream os;
    os << path_ << ":" << lines_[row] << ": column '" << column << "' = '" << f << "' is ";
    // A number strtod read but cannot hold: too close to zero (below the smallest normal
    // double) or too large, not "not a finite number".
    if (end != f.c_str() && *end == '\0' && errno == ERANGE)
      os << (std::fabs(v) < 1.0 ? "too close to zero to represent (below 2.2e-308)" : "too large to represent");
    else
      os << "not a finite number";
    throw InvalidArgument(os.str());
  }
  return v;
}

int CsvTable::integer(std::size_t row, const std::string& column) const {
  const std::string& f = text(row, column);
  const double v = number(row, column, std::nan(""));
  if (!(v == std::floor(v)) || std::abs(v) > 1e9) {
    std::ostringstream os;
    os << path_ << ":" << lines_[row] << ": column '" << column << "' = '" << f << "' is not a whole number";
    throw InvalidArgument(os.str());
  }
  return static_cast<int>(v);
}

bool CsvTable::flag(std::size_t row, const std::string& column) const {
  const std::string& f = text(row, column);
  if (f == "yes") return true;
  if (f == "no") return false;
  std::ostringstream os;
  os << path_ << ":" << lines_[row] << ": column '" << column << "' = '" << f << "' is not allowed; expected yes or no";
  throw InvalidArgument(os.str());
}

}  // namespace hcisim
