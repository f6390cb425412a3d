// Position-aware YAML access with key checking (yaml_reader.hpp).
#include "yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <fstream>
#include <sstream>
#include <vector>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "hcisim/core/check.hpp"

namespace hcisim::detail {

std::string read_small_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InvalidArgument(what + " '" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(what + " '" + path + "' cannot be read");
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw InvalidArgument(what + " '" + path + "' is larger than " + std::to_string(max_bytes >> 20) + " MiB; not a " + what);
  }
  if (in.bad()) throw InvalidArgument(what + " '" + path + "' cannot be read");
  return text;
}

namespace {
}  // namespace

// yaml-cpp's depth guard reports "bad file"; say what it means. The guard counts
// 2000 parser recursions, about four per level of lists or maps: 498 levels parse, 499 do not.
std::string yaml_error(const YAML::Exception& e) {
  if (dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr)
    return "lists or maps nested too deeply (the YAML reader stops at about 500 levels of nesting)";
  return e.msg;
}

namespace {

// Counts a document's nodes as the parser streams them, before any tree is built: yaml-cpp
// builds the whole tree first, and 500,000 unknown keys (5.4 MB) took 476 MB before the
// first was reported. A scenario, a price or a requirements file has a few hundred nodes.
constexpr int kMaxFileNodes = 100000;
class NodeBudget final : public YAML::EventHandler {
 public:
  explicit NodeBudget(std::string source) : source_(std::move(source)) {}
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { count(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(m);
  }
  void OnMapEnd() override {}

 private:
  void count(const YAML::Mark& m) {
    if (++nodes_ > kMaxFileNodes)
      throw InvalidArgument(source_ + ":" + std::to_string(m.line + 1) + ": more than " + std::to_string(kMaxFileNodes) +
                            " YAML nodes (keys, values, list items); an input file has a few hundred");
  }
  std::string source_;
  int nodes_ = 0;
};


}  // namespace

YAML::Node load_one_document(const std::string& text, const std::string& source, const std::string& what) {
  try {
    {
      std::istringstream in(text);
      YAML::Parser parser(in);
      NodeBudget budget(source);
      while (parser.HandleNextDocument(budget)) {
      }
    }
    // Every document is read, so a later one is neither ignored nor left unchecked.
    const std::vector<YAML::Node> docs = YAML::LoadAll(text);
    if (docs.size() > 1) {
      const int line = docs[1].Mark().line;   // -1 for an empty document
      throw InvalidArgument(source + (line >= 0 ? ":" + std::to_string(line + 1) : std::string()) +
                            ": a second YAML document; " + what + " holds one (remove the '---' and what follows)");
    }
    return docs.empty() ? YAML::Node() : docs.front();
  } catch (const YAML::ParserException& e) {
    throw InvalidArgument(source + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + yaml_error(e));
  }
}

YAML::Node parse_yaml_map(const std::string& text, const std::string& source, const std::string& what,
                          const std::string& expected) {
  const YAML::Node root = load_one_document(text, source, what);
  if (!root.IsMap()) throw InvalidArgument(source + ": " + expected);
  return root;
}

std::string YamlReader::where(const YAML::Node& at) const {
  const YAML::Mark m = at.Mark();
  if (m.line < 0) return file_ + " (--set)";
  return file_ + ":" + std::to_string(m.line + 1);
}

void YamlReader::fail(const std::string& message) const {
  throw InvalidArgument(where(node_) + ": " + (path_.empty() ? std::string("document") : path_) + ": " + message);
}

void YamlReader::fail_at(const char* key, const std::string& message) const {
  const YAML::Node at = node_.IsMap() && node_[key] ? node_[key] : node_;
  throw InvalidArgument(where(at) + ": " + (path_.empty() ? std::string("document") : path_) + ": " + message);
}

namespace {

// What a node that is not a single value holds, for messages (an empty value is said to be
// empty, not "a list or map").
std::string describe(const YAML::Node& n) {
  if (n.IsNull()) return "(empty)";
  if (n.IsSequence()) return "(a list)";
  if (n.IsMap()) return "(a map)";
  return "(not a value)";
}

}  // namespace

std::string shorten(const std::string& value) {
  constexpr std::size_t kMax = 80;
  if (value.size() <= kMax) return value;
  return value.substr(0, kMax) + "... (" + std::to_string(value.size()) + " characters)";
}

void YamlReader::fail_value(const std::string& key_path, const std::string& value, const std::string& allowed,
                            const YAML::Node& at) const {
  if (at.IsNull()) throw InvalidArgument(where(at) + ": " + key_path + " is empty; expected " + allowed);
  throw InvalidArgument(where(at) + ": " + key_path + " = '" + shorten(value) + "' is not allowed; expected " + allowed);
}

namespace {

std::string joined(const std::vector<std::string_view>& keys, const char* separator) {
  std::string list;
  for (const std::string_view k : keys) list += (list.empty() ? "" : separator) + std::string(k);
  return list;
}

}  // namespace

void YamlReader::expect_map(std::initializer_list<const char*> keys) const {
  check_keys(std::vector<std::string_view>(keys.begin(), keys.end()));
}

void YamlReader::check_keys(const std::vector<std::string_view>& allowed) const {
  if (!node_.IsMap()) fail("expected a map with keys " + joined(allowed, ", "));
  const std::string section = canonical_section(kind_, section_);
  std::vector<std::string> seen;
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar()) throw InvalidArgument(where(kv.first) + ": a key must be a plain name, not a list or map");
    const std::string k = kv.first.as<std::string>();
    if (std::find(seen.begin(), seen.end(), k) != seen.end())
      throw InvalidArgument(where(kv.first) + ": duplicate key '" + key_path(k.c_str()) + "'");
    seen.push_back(k);
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    const std::optional<FileKey> retired = find_file_key(kind_, section.empty() ? k : section + "." + k);
    if (retired && retired->retired())
      throw InvalidArgument(where(kv.first) + ": key '" + key_path(k.c_str()) + "' was retired; use " +
                            std::string(retired->replaced_by));
    // The nearest allowed key a typo away, else the same key in another section.
    std::string suggestion;
    std::size_t best = 3;
    for (const std::string_view a : allowed) {
      const std::size_t d = edit_distance(k, a);
      if (d < best && d <= std::max<std::size_t>(1, a.size() / 3)) best = d, suggestion = key_path(std::string(a).c_str());
    }
    // Else the table's nearest key, unless it is one of this section that this map does not
    // take (a more_hosts item has no network).
    if (suggestion.empty()) {
      suggestion = did_you_mean(kind_, section, k);
      const std::string_view rest = std::string_view(suggestion).substr(std::min(suggestion.size(), section.size() + 1));
      if (!section.empty() && suggestion.rfind(section + ".", 0) == 0 &&
          std::find(allowed.begin(), allowed.end(), rest) == allowed.end())
        suggestion.clear();
    }
    throw InvalidArgument(where(kv.first) + ": unknown key '" + key_path(k.c_str()) + "'" +
                          (suggestion.empty() ? std::string(";") : "; did you mean '" + suggestion + "'?") +
                          " allowed here: " + joined(allowed, ", "));
  }
}

void YamlReader::expect_keys(std::initializer_list<const char*> also, std::initializer_list<const char*> but) const {
  const std::string section = canonical_section(kind_, section_);
  std::vector<std::string_view> keys(also.begin(), also.end());
  for (const std::string_view k : section_keys(kind_, section)) {
    const auto row = find_file_key(kind_, section.empty() ? std::string(k) : section + "." + std::string(k));
    if (row && !row->retired() && std::find(but.begin(), but.end(), k) == but.end()) keys.push_back(k);
  }
  check_keys(keys);
}

YamlReader YamlReader::child(const char* key) const {
  if (!has(key)) fail("missing key '" + key_path(key) + "'");
  return YamlReader(node_[key], file_, key_path(key), kind_, section_.empty() ? key : section_ + "." + key);
}

YamlReader YamlReader::item(std::size_t index) const {
  return YamlReader(node_[index], file_, path_ + "[" + std::to_string(index) + "]", kind_, section_ + "[]");
}

YamlReader YamlReader::as(std::string_view kind, std::string section) const {
  return YamlReader(node_, file_, path_, kind, std::move(section));
}

FileKey YamlReader::row(const char* key) const {
  const std::string section = canonical_section(kind_, section_);
  const std::optional<FileKey> k = find_file_key(kind_, section.empty() ? key : section + "." + key);
  if (!k) throw std::logic_error("hcisim: no row for key '" + section + "." + key + "' in the " + std::string(kind_) +
                                 " key table (libsim/scenario/file_keys.cpp)");
  return *k;
}

std::string YamlReader::scalar() const {
  if (!node_.IsScalar()) fail("expected a single value");
  return node_.Scalar();
}

std::string YamlReader::text(const char* key, const std::string& fallback) const {
  if (!has(key)) return fallback;
  const YAML::Node n = node_[key];
  if (!n.IsScalar()) fail_value(key_path(key), describe(n), "a single value", n);
  return n.Scalar();
}

std::string YamlReader::required_text(const char* key) const {
  if (!has(key)) fail("missing key '" + key_path(key) + "'");
  return text(key, "");
}

double YamlReader::parsed_number(const char* key, const std::string& allowed) const {
  const YAML::Node n = node_[key];
  const std::string s = n.IsScalar() ? n.Scalar() : describe(n);
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || !std::isfinite(v)) fail_value(key_path(key), s, allowed, n);
  return v;
}

double YamlReader::number(const char* key, double fallback) const {
  if (!has(key)) return fallback;
  return in_range(key, parsed_number(key, "a number"), row(key));
}

double YamlReader::number(const char* key, double fallback, double lo, double hi, const std::string& allowed) const {
  if (!has(key)) return fallback;
  const double v = parsed_number(key, allowed);
  if (!(v >= lo && v <= hi)) fail_value(key_path(key), node_[key].Scalar(), allowed, node_[key]);
  return v;
}

double YamlReader::number(const char* key) const {
  const FileKey k = row(key);
  if (!(k.default_number == k.default_number))
    throw std::logic_error("hcisim: key '" + std::string(k.path) + "' has no numeric default in the key table");
  return number(key, k.default_number);
}

double YamlReader::in_range(const char* key, double v, const FileKey& k) const {
  if ((k.min == k.min && v < k.min) || (k.max == k.max && v > k.max))
    fail_value(key_path(key), node_[key].Scalar(), describe_range(k), node_[key]);
  return v;
}

double YamlReader::required_number(const char* key) const {
  if (!has(key)) fail("missing key '" + key_path(key) + "'");
  return number(key, 0);
}

long YamlReader::integer(const char* key, long fallback) const {
  if (!has(key)) return fallback;
  const FileKey k = row(key);
  const double v = number(key, 0);
  if (v != std::floor(v)) fail_value(key_path(key), node_[key].Scalar(), describe_range(k), node_[key]);
  return static_cast<long>(v);
}

long YamlReader::integer(const char* key) const {
  const FileKey k = row(key);
  if (!(k.default_number == k.default_number))
    throw std::logic_error("hcisim: key '" + std::string(k.path) + "' has no numeric default in the key table");
  return integer(key, static_cast<long>(k.default_number));
}

long YamlReader::integer(const char* key, long fallback, long lo, long hi) const {
  if (!has(key)) return fallback;
  const double v = number(key, 0);
  if (v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi))
    fail_value(key_path(key), node_[key].Scalar(), "a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
               node_[key]);
  return static_cast<long>(v);
}

bool YamlReader::flag(const char* key, bool fallback) const {
  if (!has(key)) return fallback;
  const std::string s = text(key, "");
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  fail_value(key_path(key), s, "true or false", node_[key]);
}

bool YamlReader::flag(const char* key) const {
  const FileKey k = row(key);
  if (k.default_text != "true" && k.default_text != "false")
    throw std::logic_error("hcisim: key '" + std::string(k.path) + "' has no true/false default in the key table");
  return flag(key, k.default_text == "true");
}

std::string YamlReader::choice(const char* key, const std::string& fallback) const {
  const std::string s = text(key, fallback);
  const FileKey k = row(key);
  // The row's allowed values, "a | b | c".
  for (std::string_view rest = k.allowed; !rest.empty();) {
    const std::size_t bar = rest.find(" | ");
    if (rest.substr(0, bar) == s) return s;
    rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 3);
  }
  fail_value(key_path(key), s, std::string(k.allowed), node_[key]);
}

std::string YamlReader::choice(const char* key) const { return choice(key, std::string(row(key).default_text)); }

}  // namespace hcisim::detail
