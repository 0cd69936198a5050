#include "store/redaction.hpp"

#include <gtest/gtest.h>

namespace benchkit::store {
namespace {

// The command line a result keeps held the password of --store (hostile_input.py found it in
// the result, the history and the HTML report).
TEST(Redaction, ReplacesThePasswordOfEveryUrlInACommandLine) {
  EXPECT_EQ(redact_passwords("bench --record --store postgresql://ci:s3cret@db:5432/perf --out x"),
            "bench --record --store postgresql://ci:***@db:5432/perf --out x");
  EXPECT_EQ(redact_passwords("a postgres://u:p@h b postgresql://v:q@k/d"),
            "a postgres://u:***@h b postgresql://v:***@k/d");
}

TEST(Redaction, LeavesTextWithoutAPasswordAlone) {
  for (const char* text : {"bench --store postgresql://ci@db/perf", "bench --store h.db",
                           "see https://example.com/a:b@c", "x://", "mail a@b:c", ""}) {
    EXPECT_EQ(redact_passwords(text), text);
  }
}

TEST(Redaction, TheRecordedCommandLineIsTheWordsJoinedWithoutPasswords) {
  const char* const argv[] = {"./bench", "--store", "postgresql://ci:s3cret@db/perf", "--record"};
  EXPECT_EQ(recorded_command_line(4, argv), "./bench --store postgresql://ci:***@db/perf --record");
  EXPECT_EQ(recorded_command_line(1, argv), "./bench");
  EXPECT_EQ(recorded_command_line(0, argv), "");
}

}  // namespace
}  // namespace benchkit::store
