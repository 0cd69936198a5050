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

// Another tool's text output given where its JSON is read is not a damaged file: the message
// says what it is and how to write the JSON (a user gave `benchkit import` snappy's
// --benchmark_format=csv output and was told to re-run the benchmark).
TEST(JsonDocument, AnotherToolsTextOutputIsNamedWithTheFlagThatWritesJson) {
  const auto message = [](std::string_view text) {
    return error_of(text, NonFinite::accepted).message;
  };
  const std::string csv = message(
      "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,"
      "error_occurred,error_message\n\"BM_UFlat/3/1\",66170,10.58,10.58,us,,,,,\n");
  EXPECT_THAT(csv, HasSubstr("f.json: not JSON: this is Google Benchmark's CSV output"));
  EXPECT_THAT(csv, HasSubstr("--benchmark_out_format=json"));
  EXPECT_THAT(csv, ::testing::Not(HasSubstr("damaged")));
  EXPECT_THAT(message("2026-12-07T11:01:12+00:00\nRunning ./snappy_benchmark\nRun on (2 X 2596 "
                      "MHz CPU s)\n-----------\nBenchmark      Time      CPU   Iterations\n"),
              HasSubstr("Google Benchmark's console output"));
  EXPECT_THAT(message("command,mean,stddev,median,user,system,min,max\nsleep 0.1,0.1,0,0.1,0,0,"
                      "0.1,0.1\n"),
              HasSubstr("hyperfine's CSV export; benchkit reads its JSON: --export-json FILE"));
  EXPECT_THAT(message("| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n"),
              HasSubstr("hyperfine's Markdown export"));
  EXPECT_THAT(message("name,kind,median_ns,median_lower_ns\n"),
              HasSubstr("benchkit's CSV export, which is not read back"));
  // Text that is none of these is still damaged JSON.
  EXPECT_THAT(message("hello"), HasSubstr("the file is damaged"));
}

}  // namespace
}  // namespace benchkit::formats
