// A small reader of the SVG the charts write, for tests: checks that it is well-formed XML
// (every tag closed in order, attributes quoted, '<' and '&' only as markup or entities) and
// returns its elements with their attributes.
#pragma once

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace svg_check {

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;   // the character data right after its start tag
};

// Throws std::runtime_error with the offset of what is not well-formed.
inline void check_entities(const std::string& s, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i) {
    if (s[i] == '<') throw std::runtime_error("raw '<' at " + std::to_string(i));
    if (s[i] != '&') continue;
    const std::size_t end = s.find(';', i);
    if (end == std::string::npos || end > to) throw std::runtime_error("unterminated entity at " + std::to_string(i));
    const std::string e = s.substr(i + 1, end - i - 1);
    if (e != "amp" && e != "lt" && e != "gt" && e != "quot" && e != "apos" && (e.empty() || e[0] != '#'))
      throw std::runtime_error("unknown entity &" + e + "; at " + std::to_string(i));
  }
}

inline bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':';
}

// One start tag's name and attributes, from just after '<' to just before '>' or "/>".
inline Element start_tag(const std::string& s, std::size_t from, std::size_t to) {
  Element e;
  std::size_t i = from;
  while (i < to && name_char(s[i])) e.name += s[i++];
  if (e.name.empty()) throw std::runtime_error("tag without a name at " + std::to_string(from));
  while (i < to) {
    if (s[i] == ' ' || s[i] == '\n') {
      ++i;
      continue;
    }
    std::string key;
    while (i < to && name_char(s[i])) key += s[i++];
    if (key.empty() || i + 1 >= to || s[i] != '=' || s[i + 1] != '"')
      throw std::runtime_error("bad attribute in <" + e.name + "> at " + std::to_string(i));
    const std::size_t close = s.find('"', i + 2);
    if (close == std::string::npos || close > to) throw std::runtime_error("unquoted attribute at " + std::to_string(i));
    check_entities(s, i + 2, close);
    if (e.attrs.count(key)) throw std::runtime_error("attribute " + key + " twice in <" + e.name + ">");
    e.attrs[key] = s.substr(i + 2, close - i - 2);
    i = close + 1;
  }
  return e;
}

/// Every element of `svg`, in document order; throws std::runtime_error when it is not
/// well-formed or its root is not <svg>.
inline std::vector<Element> parse(const std::string& svg) {
  std::vector<Element> out;
  std::vector<std::string> open;
  std::size_t i = 0;
  bool after_start = false;   // the character data follows a start tag (it is that element's)
  while (i < svg.size()) {
    const std::size_t lt = svg.find('<', i);
    check_entities(svg, i, lt == std::string::npos ? svg.size() : lt);
    if (after_start && lt != std::string::npos) out.back().text = svg.substr(i, lt - i);
    after_start = false;
    if (lt == std::string::npos) break;
    const std::size_t gt = svg.find('>', lt);
    if (gt == std::string::npos) throw std::runtime_error("unclosed tag at " + std::to_string(lt));
    if (svg[lt + 1] == '/') {
      const std::string name = svg.substr(lt + 2, gt - lt - 2);
      if (open.empty() || open.back() != name) throw std::runtime_error("</" + name + "> closes nothing open");
      open.pop_back();
    } else {
      const bool empty = svg[gt - 1] == '/';
      if (out.empty() == false && open.empty()) throw std::runtime_error("a second root element");
      out.push_back(start_tag(svg, lt + 1, empty ? gt - 1 : gt));
      if (out.size() == 1 && out[0].name != "svg") throw std::runtime_error("the root is <" + out[0].name + ">");
      if (!empty) open.push_back(out.back().name);
      after_start = !empty;
    }
    i = gt + 1;
  }
  if (out.empty() || !open.empty()) throw std::runtime_error("unclosed elements or no root");
  return out;
}

/// The tornado's bars (<rect> whose class starts with "bar"), top to bottom.
inline std::vector<Element> bars(const std::vector<Element>& elements) {
  std::vector<Element> out;
  for (const Element& e : elements)
    if (e.name == "rect" && e.attrs.count("class") && e.attrs.at("class").rfind("bar", 0) == 0) out.push_back(e);
  return out;
}

}  // namespace svg_check
