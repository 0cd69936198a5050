#include "formats/json_document.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

model::Error error_of(std::string_view text, NonFinite non_finite) {
  try {
    parse_json_document(text, "f.json", non_finite);
  } catch (const model::Error& error) {
    return error;
  }
  ADD_FAILURE() << "parsed: " << text;
  return {};
}

TEST(JsonDocument, BareNonFiniteNumbersAreReadWhenAccepted) {
  const auto root = parse_json_document(
      R"({"a": NaN, "b": [Infinity, -Infinity], "c": "NaN Infinity"})", "f", NonFinite::accepted);
  EXPECT_TRUE(std::isnan(root["a"].get<double>()));
  EXPECT_EQ(root["b"][0].get<double>(), INFINITY);
  EXPECT_EQ(root["b"][1].get<double>(), -INFINITY);
  EXPECT_EQ(root["c"], "NaN Infinity");  // inside a string, words stay words
}

TEST(JsonDocument, StrictJsonRefusesThem) {
  EXPECT_THAT(error_of(R"({"a": NaN})", NonFinite::rejected).message,
              HasSubstr("f.json: not valid JSON at line 1"));
}

// Found by comparison_json_fuzzer (a 10-minute run): a number beyond a double's range escaped
// the reader as nlohmann's out_of_range and ended the program (std::terminate).
TEST(JsonDocument, ANumberTooLargeForADoubleIsAnErrorNamingTheFile) {
  for (const NonFinite mode : {NonFinite::accepted, NonFinite::rejected}) {
    const std::string message =
        error_of(R"({"ns": 1.4980265746918295e+86028868692})", mode).message;
    EXPECT_THAT(message, HasSubstr("f.json: not valid JSON: number overflow parsing"));
    EXPECT_THAT(message, HasSubstr("1.4980265746918295e+86028868692"));
    EXPECT_THAT(message, HasSubstr("too large for a double"));
  }
}

TEST(JsonDocument, ErrorPositionsAreThoseOfTheOriginalText) {
  // The damage comes after two NaN that the reader rewrote into longer text: the position given
  // is the one strict JSON gives for the same text with numbers of the same width instead.
  const std::string text = "{\"a\": NaN,\n \"b\": NaN,\n \"c\": ]}";
  const std::string same_width = "{\"a\": 1.0,\n \"b\": 1.0,\n \"c\": ]}";
  const std::string expected = error_of(same_width, NonFinite::rejected).message;
  EXPECT_THAT(expected, HasSubstr("line 3"));
  EXPECT_EQ(error_of(text, NonFinite::accepted).message, expected);
  EXPECT_THAT(error_of(text.substr(0, 12), NonFinite::accepted).message, HasSubstr("truncated"));
}

}  // namespace
}  // namespace benchkit::formats
