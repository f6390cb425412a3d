// A thin reader over yaml-cpp nodes that knows where it is (file, line, key path), so every
// error can say "file:line: key path = value is not allowed; expected ...", and that rejects
// keys it was not told about (typo protection). Private to libsim.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace hcisim::detail {

/// A value or argument as echoed in a message: at most 80 characters, then its length
/// (a 100,000-digit number would otherwise make a 100 KB message).
std::string shorten(const std::string& value);

/// The text of a small input file (`what`, e.g. "price file"), read in chunks up to `max_bytes`:
/// a directory, an unreadable file or a larger one is an InvalidArgument naming it.
std::string read_small_file(const std::string& path, const std::string& what, std::size_t max_bytes);

/// `text` parsed as one YAML map; a syntax error names `source` and its line, anything but a
/// map says `expected` ("a price file is a map with the keys ...").
YAML::Node parse_yaml_map(const std::string& text, const std::string& source, const std::string& expected);

class YamlReader {
 public:
  YamlReader(YAML::Node node, std::string file, std::string path) : node_(std::move(node)), file_(std::move(file)), path_(std::move(path)) {}

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }
  bool is_map() const { return node_.IsMap(); }
  bool is_sequence() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }
  bool has(const char* key) const { return node_.IsMap() && node_[key]; }

  /// Fails unless this is a map whose keys are all in `keys`.
  void expect_map(std::initializer_list<const char*> keys) const;
  YamlReader child(const char* key) const;
  YamlReader item(std::size_t index) const;
  std::size_t size() const { return node_.size(); }

  std::string text(const char* key, const std::string& fallback) const;
  std::string required_text(const char* key) const;
  double number(const char* key, double fallback) const;
  double required_number(const char* key) const;
  long integer(const char* key, long fallback, long lo, long hi) const;
  bool flag(const char* key, bool fallback) const;
  /// One of `allowed`.
  std::string choice(const char* key, const std::string& fallback, std::initializer_list<const char*> allowed) const;
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
  YAML::Node node_;
  std::string file_;
  std::string path_;
};

}  // namespace hcisim::detail
