// Text that leaves the simulator in JSON and SVG: always valid UTF-8, with the characters
// each format cannot hold escaped or replaced. Names come from user files (scenario names,
// host names, job names), so any byte sequence can arrive here.
#pragma once

#include <string>
#include <string_view>

namespace hcisim {

/// `s` with every byte sequence that is not well-formed UTF-8 (RFC 3629 [S146]: no overlong
/// forms, no surrogates, nothing above U+10FFFF) replaced by U+FFFD.
std::string valid_utf8(std::string_view s);

/// The first `most` bytes of `s` or fewer: never ending inside a UTF-8 character (a cut
/// backs up to the start of the character it would split).
std::string_view utf8_prefix(std::string_view s, std::size_t most);

/// A JSON string literal (RFC 8259 [S147] section 7): quotes, backslash and the control characters
/// U+0000..U+001F escaped, invalid UTF-8 replaced by U+FFFD.
std::string json_string(std::string_view s);

/// `json` (one JSON object, as the reports' to_json give it) with one more key, `value` being
/// JSON already; a document of one key a line stays so. Throws std::logic_error when `json` is
/// no object.
std::string with_json_block(std::string json, const std::string& key, const std::string& value);

/// A JSON number: %.10g (round-trips what reports print), `null` for NaN and infinities.
std::string json_number(double v);

/// `v` in the fewest digits that read back as `v` (0.95, not 0.94999999999999996).
std::string number_text(double v);

/// `v` to four significant figures, without an exponent for counts such as IOPS (as the text
/// reports print them); "-" for NaN and infinities.
std::string figure_text(double v);

/// A CSV field (RFC 4180 [S148]): quoted, a quote inside doubled, invalid UTF-8 replaced by U+FFFD.
std::string csv_field(std::string_view s);

/// Character data for XML/SVG: <, > and & escaped; the control characters XML 1.0 does
/// not allow (all below U+0020 but tab, newline and carriage return) replaced by U+FFFD,
/// as is invalid UTF-8.
std::string xml_text(std::string_view s);

}  // namespace hcisim
