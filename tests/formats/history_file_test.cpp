#include "formats/history_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

TEST(HistoryFile, ReadsBackTheRunsItWrote) {
  const std::vector<std::string> runs = {R"({"schema": "benchkit/result", "version": 1})",
                                         R"({"schema": "benchkit/result", "version": 1, "x": 2})"};
  const auto read = from_history_file(to_history_file(runs), "h.json");
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size(), 2u);
  EXPECT_THAT((*read)[1], HasSubstr("\"x\":2"));
}

// A "schema" that is not a string threw out of the reader (nlohmann's value() throws on a type
// it cannot convert) and aborted `benchkit history import`: it is refused like any other schema.
TEST(HistoryFile, RefusesASchemaThatIsNotAString) {
  for (const char* text : {R"({"schema": 1, "version": 1, "runs": []})",
                           R"({"schema": null, "runs": []})", R"([1, 2])", R"("text")"}) {
    const auto read = from_history_file(text, "h.json");
    ASSERT_FALSE(read.ok()) << text;
    EXPECT_THAT(read.error().message, HasSubstr("h.json is not a benchkit history file"));
  }
}

TEST(HistoryFile, RefusesANewerVersionAndMissingRuns) {
  EXPECT_THAT(
      from_history_file(R"({"schema": "benchkit/history", "version": 9, "runs": []})", "h.json")
          .error()
          .message,
      HasSubstr("upgrade benchkit"));
  EXPECT_THAT(from_history_file(R"({"schema": "benchkit/history", "version": 1})", "h.json")
                  .error()
                  .message,
              HasSubstr("\"runs\" is missing"));
  EXPECT_THAT(from_history_file("{not json", "h.json").error().message, HasSubstr("is not JSON"));
}

}  // namespace
}  // namespace benchkit::formats
