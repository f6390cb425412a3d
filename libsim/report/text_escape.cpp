// Escaping for JSON and SVG output (text_escape.hpp).
#include "hcisim/model/report/text_escape.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

namespace hcisim {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";   // U+FFFD in UTF-8

// Length of the well-formed UTF-8 sequence at s[i], or 0 when the bytes there are not one
// (RFC 3629 [S146] section 4, the table of well-formed byte sequences).
std::size_t sequence_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;   // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;   // no surrogates
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;   // nothing above U+10FFFF
  else return 0;
  if (i + n > s.size()) return 0;
  if (b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(k) < 0x80 || b(k) > 0xBF) return 0;
  return n;
}

// Calls `ascii(c)` for each ASCII byte and `other(bytes)` for each valid multi-byte
// sequence; an invalid byte becomes U+FFFD (one per byte that starts no valid sequence).
template <typename Ascii>
void transcode(std::string& out, std::string_view s, Ascii ascii) {
  out.reserve(out.size() + s.size() + 2);
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = sequence_length(s, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else if (n == 1) {
      ascii(out, s[i]);
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
}

}  // namespace

std::string valid_utf8(std::string_view s) {
  std::string out;
  transcode(out, s, [](std::string& o, char c) { o += c; });
  return out;
}

std::string_view utf8_prefix(std::string_view s, std::size_t most) {
  if (s.size() <= most) return s;
  std::size_t end = most;   // s[end] is the first byte left out
  const auto continuation = [&s](std::size_t i) { return (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; };
  while (end > 0 && continuation(end)) --end;
  return s.substr(0, end);
}

std::string with_json_block(std::string json, const std::string& key, const std::string& value) {
  while (!json.empty() && (json.back() == '\n' || json.back() == ' ')) json.pop_back();
  if (json.empty() || json.back() != '}') throw std::logic_error("with_json_block: not a JSON object");
  json.pop_back();
  const bool lines = !json.empty() && json.back() == '\n';   // a document of one key a line
  while (!json.empty() && (json.back() == '\n' || json.back() == ' ')) json.pop_back();
  return json + (lines ? ",\n  " : ", ") + json_string(key) + ": " + value + (lines ? "\n}\n" : "}\n");
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  transcode(out, s, [](std::string& o, char c) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          o += buf;
        } else {
          o += c;
        }
    }
  });
  out += '"';
  return out;
}

std::string xml_text(std::string_view s) {
  std::string out;
  transcode(out, s, [](std::string& o, char c) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '\t':
      case '\n':
      case '\r': o += c; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) o += kReplacement;
        else o += c;
    }
  });
  return out;
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string number_text(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);   // the shortest text that reads back as v
  return ec == std::errc{} ? std::string(buf, end) : std::string("?");
}

std::string figure_text(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 && std::fabs(v) < 1e15 ? "%.0f" : "%.4g", v);
  return buf;
}

std::string csv_field(std::string_view s) {
  std::string out = "\"";
  for (char c : valid_utf8(s)) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace hcisim
