// JSON and SVG text from arbitrary bytes (text_escape.hpp): control characters escaped as
// RFC 8259 [S147] \u00XX, the same bytes every time (a double once passed to %x gave random escapes),
// invalid UTF-8 replaced by U+FFFD so the output stays parseable, XML-forbidden controls replaced.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "hcisim/model/report/text_escape.hpp"

using namespace hcisim;

TEST_CASE("json_string: RFC 8259 escapes, the same bytes every time") {
  CHECK(json_string("a\x01" "b") == "\"a\\u0001b\"");
  CHECK(json_string("\x1f\x7f") == "\"\\u001f\x7f\"");
  CHECK(json_string(std::string("a\0b", 3)) == "\"a\\u0000b\"");
  CHECK(json_string("q\"\\\n\r\t") == "\"q\\\"\\\\\\n\\r\\t\"");
  CHECK(json_string("\x1b[0m") == json_string("\x1b[0m"));
  CHECK(json_string("\x1b") == "\"\\u001b\"");
}

TEST_CASE("valid_utf8: well-formed text is kept, every other byte becomes U+FFFD") {
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x92\xBE") == "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x92\xBE");
  CHECK(valid_utf8("caf\xE9") == "caf" + fffd);                       // Latin-1 e acute
  CHECK(valid_utf8("\xC0\xAF") == fffd + fffd);                       // overlong '/'
  CHECK(valid_utf8("\xED\xA0\x80") == fffd + fffd + fffd);            // a surrogate
  CHECK(valid_utf8("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd); // above U+10FFFF
  CHECK(valid_utf8("\xE2\x82") == fffd + fffd);                       // truncated
  CHECK(json_string("caf\xE9") == "\"caf" + fffd + "\"");
}

TEST_CASE("utf8_prefix: a cut backs up to a character's start") {
  const std::string s = "ab\xE2\x82\xAC" "c";   // a, b, the euro sign (3 bytes), c
  CHECK(utf8_prefix(s, 10) == s);
  CHECK(utf8_prefix(s, 6) == s);
  CHECK(utf8_prefix(s, 5) == "ab\xE2\x82\xAC");
  CHECK(utf8_prefix(s, 4) == "ab");   // would end after 2 of the euro sign's 3 bytes
  CHECK(utf8_prefix(s, 3) == "ab");
  CHECK(utf8_prefix(s, 2) == "ab");
  CHECK(utf8_prefix("\xC3\xA9", 1).empty());
}

TEST_CASE("xml_text: markup escaped, controls XML 1.0 forbids replaced") {
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(xml_text("a<b>&c") == "a&lt;b&gt;&amp;c");
  CHECK(xml_text("a\x01" "b\tc\n") == "a" + fffd + "b\tc\n");
  CHECK(xml_text("\xFF") == fffd);
}

TEST_CASE("with_json_block: one key added to a one-line or a one-key-a-line object, nothing else taken") {
  CHECK(with_json_block("{\"a\": 1}\n", "b", "[2]") == "{\"a\": 1, \"b\": [2]}\n");
  CHECK(with_json_block("{\n  \"a\": 1\n}\n", "b", "2") == "{\n  \"a\": 1,\n  \"b\": 2\n}\n");
  CHECK(with_json_block("{\"a\": 1}", "q\"", "null") == "{\"a\": 1, \"q\\\"\": null}\n");   // the key escaped
  CHECK_THROWS_AS(with_json_block("[1]", "b", "2"), std::logic_error);
  CHECK_THROWS_AS(with_json_block("", "b", "2"), std::logic_error);
}
