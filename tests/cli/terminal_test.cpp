#include "cli/terminal.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "report/reporter.hpp"

namespace benchkit::cli {
namespace {

TEST(ProgressLine, RewritesItsLineInPlaceAndRemovesItBeforeALineOfItsOwn) {
  std::ostringstream out;
  ProgressLine line(true, out, 80);
  line.show("[1/2] alu");
  line.show("[2/2] series");
  line.print("note: a note");
  line.clear();  // nothing shown any more: nothing written
  EXPECT_EQ(out.str(), "\r\033[K[1/2] alu\r\033[K[2/2] series\r\033[Knote: a note\n");
}

TEST(ProgressLine, ShowsNothingWhenNotVisibleButStillPrintsLinesOfTheirOwn) {
  std::ostringstream out;
  ProgressLine line(false, out, 80);
  line.show("[1/2] alu");
  line.clear();
  line.print("benchkit: HEAD: built in 1.0 s");
  EXPECT_EQ(out.str(), "benchkit: HEAD: built in 1.0 s\n");
}

TEST(ProgressLine, NeverWrapsAndNeverLetsANameMoveTheCursor) {
  std::ostringstream out;
  ProgressLine line(true, out, 11);
  // Ten columns at most (one left free); the escape character of the name is made visible.
  line.show("[1/1] BM_\033[2Jx");
  const std::string shown = out.str().substr(4);  // after "\r\033[K"
  EXPECT_EQ(shown.find('\033'), std::string::npos) << shown;
  EXPECT_EQ(shown, report::fit_to_width(shown, 10));
  EXPECT_NE(shown.find("…"), std::string::npos) << shown;
}

}  // namespace
}  // namespace benchkit::cli
