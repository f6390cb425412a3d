// A thin reader over yaml-cpp nodes that knows where it is (file, line, key path), so every
// error can say "file:line: key path = value is not allowed; expected ...", and which section
// of which file's key table it reads (file_keys.hpp): a key's range and default come from its
// row, and keys the table does not hold are refused with a "did you mean". Private to libsim.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "file_keys.hpp"

namespace hcisim::detail {

/// A value or argument as echoed in a message: at most 80 characters, then its length
/// (a 100,000-digit number would otherwise make a 100 KB message).
std::string shorten(const std::string& value);

/// The text of a small input file (`what`, e.g. "price file"), read in chunks up to `max_bytes`:
/// a directory, an unreadable file or a larger one is an InvalidArgument naming it.
std::string read_small_file(const std::string& path, const std::string& what, std::size_t max_bytes);

/// The one YAML document of `text`, read the guarded way: its nodes counted as they stream
/// (at most 100,000, before a tree is built), a second document refused (`what` holds one:
/// "a price file"), and a syntax error named by `source` and its line. Null for empty text.
YAML::Node load_one_document(const std::string& text, const std::string& source, const std::string& what);

/// The same, and a map: anything else says `expected` ("a price file is a map with ...").
YAML::Node parse_yaml_map(const std::string& text, const std::string& source, const std::string& what,
                          const std::string& expected);

/// A yaml-cpp error in words (its depth guard's "bad file": nested too deeply).
std::string yaml_error(const YAML::Exception& e);

class YamlReader {
 public:
  /// The top of a file of kind `kind` ("scenario", "requirements" or "prices": its key table).
  YamlReader(YAML::Node node, std::string file, std::string_view kind)
      : node_(std::move(node)), file_(std::move(file)), kind_(kind) {}

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }
  bool is_map() const { return node_.IsMap(); }
  bool is_sequence() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }
  bool has(const char* key) const { return node_.IsMap() && node_[key]; }

  /// Fails unless this is a map whose keys are all in the key table's section, with the keys
  /// `also` and without those in `but` (a requirements file's existing.host is cluster.host
  /// but network); a retired key names its replacement, an unknown one the key it most likely
  /// meant.
  void expect_keys(std::initializer_list<const char*> also = {}, std::initializer_list<const char*> but = {}) const;
  /// The same for exactly the keys `keys` (a map the table does not describe).
  void expect_map(std::initializer_list<const char*> keys) const;
  YamlReader child(const char* key) const;
  YamlReader item(std::size_t index) const;
  /// This node read as the table section `section` (a requirements file's existing.host is a
  /// scenario's cluster.host).
  YamlReader as(std::string_view kind, std::string section) const;
  /// The table row of `key` in this section; a key the table lacks is a programming error.
  FileKey row(const char* key) const;
  const std::string& section() const { return section_; }
  std::size_t size() const { return node_.size(); }

  std::string text(const char* key, const std::string& fallback) const;
  std::string required_text(const char* key) const;
  /// A number within its row's range ("allowed" names the range in errors).
  double number(const char* key, double fallback) const;
  /// The same, defaulting to its row's default.
  double number(const char* key) const;
  /// A number in [lo, hi] for a key the table does not list by name (a price file's catalog
  /// names); `allowed` says so in errors.
  double number(const char* key, double fallback, double lo, double hi, const std::string& allowed) const;
  double required_number(const char* key) const;
  /// A whole number within its row's range.
  long integer(const char* key, long fallback) const;
  long integer(const char* key) const;
  /// A whole number in [lo, hi], where the range depends on other keys.
  long integer(const char* key, long fallback, long lo, long hi) const;
  bool flag(const char* key, bool fallback) const;
  bool flag(const char* key) const;
  /// One of its row's "a | b | c" values.
  std::string choice(const char* key, const std::string& fallback) const;
  std::string choice(const char* key) const;
  /// This node as a scalar string.
  std::string scalar() const;

  [[noreturn]] void fail(const std::string& message) const;
  /// Like fail(), but at the line of `key` (or "(--set)" when the command line set it), for a
  /// complaint about that key's value alone, e.g. an unknown catalog name.
  [[noreturn]] void fail_at(const char* key, const std::string& message) const;
  [[noreturn]] void fail_value(const std::string& key_path, const std::string& value, const std::string& allowed,
                               const YAML::Node& at) const;
  std::string where(const YAML::Node& at) const;
  std::string key_path(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

 private:
  YamlReader(YAML::Node node, std::string file, std::string path, std::string_view kind, std::string section)
      : node_(std::move(node)), file_(std::move(file)), path_(std::move(path)), kind_(kind), section_(std::move(section)) {}
  void check_keys(const std::vector<std::string_view>& allowed) const;
  // The number at `key` (present), or an error saying `allowed` is expected.
  double parsed_number(const char* key, const std::string& allowed) const;
  // The number at `key` checked against `row`'s range.
  double in_range(const char* key, double v, const FileKey& row) const;

  YAML::Node node_;
  std::string file_;
  std::string path_;
  std::string_view kind_;    // which file's key table: a string literal
  std::string section_;      // the schema path: path_ with "[]" for list indices
};

}  // namespace hcisim::detail
