#include "report/history_lines.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

TEST(HistoryLines, ARecordedRunIsShownByTwelveDigits) {
  EXPECT_EQ(recorded_run(true, "0123456789abcdef0123", ".benchkit/history.db"),
            "recorded run 0123456789ab in .benchkit/history.db\n");
  EXPECT_EQ(recorded_run(false, "0123456789abcdef0123", "h.db"),
            "already recorded: run 0123456789ab in h.db\n");
  EXPECT_EQ(recorded_file(true, "0123456789abcdef0123", "r.json"),
            "recorded 0123456789ab (r.json)\n");
  EXPECT_EQ(recorded_file(false, "0123456789abcdef0123", "r.json"),
            "already recorded: 0123456789ab (r.json)\n");
}

TEST(HistoryLines, CountsAreSingularForOne) {
  EXPECT_EQ(runs_in(1, "h.db"), "1 run in h.db\n");
  EXPECT_EQ(runs_in(0, "h.db"), "0 runs in h.db\n");
  EXPECT_EQ(imported_runs(1, "x.json", "h.db"), "imported 1 new run from x.json into h.db\n");
  EXPECT_EQ(imported_runs(3, "x.json", "h.db"), "imported 3 new runs from x.json into h.db\n");
  EXPECT_EQ(removed_runs(1, "h.db"), "removed 1 run from h.db\n");
  EXPECT_EQ(removed_runs(2, "h.db"), "removed 2 runs from h.db\n");
}

}  // namespace
}  // namespace benchkit::report
