#include "cli/terminal.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace benchkit::cli {
namespace {

TEST(FitToWidth, KeepsWhatFitsAndCutsTheRestWithAnEllipsis) {
  EXPECT_EQ(fit_to_width("[1/3] alu", 20), "[1/3] alu");
  EXPECT_EQ(fit_to_width("[1/3] alu", 9), "[1/3] alu");
  EXPECT_EQ(fit_to_width("[1/3] alu", 8), "[1/3] a…");
  EXPECT_EQ(fit_to_width("abc", 1), "…");
  EXPECT_EQ(fit_to_width("abc", 0), "");
}

TEST(FitToWidth, CountsCodePointsNotBytes) {
  // "·" and "µ" are two bytes each in UTF-8, one column each.
  EXPECT_EQ(fit_to_width("a · 3 µs", 8), "a · 3 µs");
  EXPECT_EQ(fit_to_width("µµµµ", 3), "µµ…");
}

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
  EXPECT_EQ(shown, fit_to_width(shown, 10));
  EXPECT_NE(shown.find("…"), std::string::npos) << shown;
}

}  // namespace
}  // namespace benchkit::cli
