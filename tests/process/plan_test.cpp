#include "process/plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <set>

namespace benchkit::process {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Plan, ScanCountsFromMinToMaxInclusive) {
  auto p = scan_parameter("threads", 1, 4, 1);
  ASSERT_TRUE(p);
  EXPECT_THAT(p->values, ElementsAre("1", "2", "3", "4"));
  auto decimals = scan_parameter("ratio", 0.1, 0.5, 0.2);
  ASSERT_TRUE(decimals);
  EXPECT_THAT(decimals->values, ElementsAre("0.1", "0.3", "0.5"));
  auto steps = scan_parameter("n", 0, 10, 4);
  ASSERT_TRUE(steps);
  EXPECT_THAT(steps->values, ElementsAre("0", "4", "8"));
}

TEST(Plan, ScanRefusesBadRanges) {
  EXPECT_THAT(scan_parameter("n", 5, 1, 1).error().message, HasSubstr("below the minimum"));
  EXPECT_THAT(scan_parameter("n", 1, 5, 0).error().message, HasSubstr("must be positive"));
  EXPECT_THAT(scan_parameter("n", 0, 1e9, 1).error().message, HasSubstr("--parameter-step-size"));
  // Found by tests/fuzz/flag_values_fuzzer: "nan" (which strtod reads) made the count of values
  // NaN, and its conversion to an integer undefined behaviour.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THAT(scan_parameter("n", nan, nan, 1).error().message, HasSubstr("finite numbers"));
  EXPECT_THAT(scan_parameter("n", inf, inf, 1).error().message, HasSubstr("finite numbers"));
  EXPECT_THAT(scan_parameter("n", 0, 1, inf).error().message, HasSubstr("finite numbers"));
}

TEST(Plan, ListSplitsOnCommasAndRefusesEmptyValues) {
  EXPECT_THAT(list_parameter("level", "1,3,9")->values, ElementsAre("1", "3", "9"));
  EXPECT_THAT(list_parameter("level", "1,,9").error().message, HasSubstr("empty value"));
}

TEST(Plan, SubstituteReplacesOnlyKnownPlaceholders) {
  EXPECT_EQ(substitute("zstd -{level} {file} {unknown} {", {{"level", "3"}, {"file", "a.bin"}}),
            "zstd -3 a.bin {unknown} {");
}

TEST(Plan, ExpandIsTheCartesianProductFirstParameterSlowest) {
  CommandSpec spec;
  spec.argv = {"convert", "--workers={workers}", "--batch={batch}"};
  auto planned = expand({spec}, {{"workers", {"1", "2"}}, {"batch", {"5000", "10000"}}}, "");
  ASSERT_TRUE(planned) << planned.error().message;
  ASSERT_EQ(planned->size(), 4u);
  EXPECT_THAT((*planned)[0].argv, ElementsAre("convert", "--workers=1", "--batch=5000"));
  EXPECT_THAT((*planned)[1].argv, ElementsAre("convert", "--workers=1", "--batch=10000"));
  EXPECT_THAT((*planned)[3].argv, ElementsAre("convert", "--workers=2", "--batch=10000"));
  EXPECT_EQ((*planned)[2].name, "convert --workers=2 --batch=5000");
  EXPECT_EQ((*planned)[2].params.at("workers"), "2");
}

TEST(Plan, NamesTakeParameterValues) {
  CommandSpec spec;
  spec.name = "zstd";
  spec.argv = {"zstd", "-{level}"};
  auto planned = expand({spec}, {{"level", {"1", "9"}}}, "");
  ASSERT_TRUE(planned);
  EXPECT_EQ((*planned)[0].name, "zstd/level=1");
  spec.name = "zstd level {level}";
  planned = expand({spec}, {{"level", {"1", "9"}}}, "");
  EXPECT_EQ((*planned)[1].name, "zstd level 9");
}

TEST(Plan, ShellCommandsRunThroughTheShellWithValuesSubstituted) {
  CommandSpec spec;
  spec.shell_command = "gzip -{level} < in | wc -c";
  auto planned = expand({spec}, {{"level", {"1"}}}, "/bin/bash");
  ASSERT_TRUE(planned);
  EXPECT_THAT((*planned)[0].argv, ElementsAre("/bin/bash", "-c", "gzip -1 < in | wc -c"));
  EXPECT_EQ((*planned)[0].display, "gzip -1 < in | wc -c");
}

TEST(Plan, ExpandRefusesAmbiguousPlans) {
  CommandSpec a;
  a.argv = {"sleep", "1"};
  EXPECT_THAT(expand({a, a}, {}, "").error().message, HasSubstr("different --name"));
  EXPECT_THAT(expand({a}, {{"n", {"1", "2"}}}, "").error().message,
              HasSubstr("uses none of the parameters"));
  CommandSpec b;
  b.argv = {"sleep", "{n}"};
  EXPECT_THAT(expand({b}, {{"n", {"1"}}, {"n", {"2"}}}, "").error().message,
              HasSubstr("given twice"));
}

TEST(Plan, AlternateOrderReversesEveryOtherRound) {
  EXPECT_THAT(round_order(3, 0, Order::alternate, 0), ElementsAre(0, 1, 2));
  EXPECT_THAT(round_order(3, 1, Order::alternate, 0), ElementsAre(2, 1, 0));
  EXPECT_THAT(round_order(3, 2, Order::alternate, 0), ElementsAre(0, 1, 2));
}

TEST(Plan, RandomOrderIsSeededAndVaries) {
  std::set<std::vector<std::size_t>> seen;
  for (std::size_t round = 0; round < 30; ++round) {
    const auto order = round_order(4, round, Order::random, 7);
    EXPECT_EQ(order, round_order(4, round, Order::random, 7));  // same seed, same order
    std::vector<std::size_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_THAT(sorted, ElementsAre(0, 1, 2, 3));
    seen.insert(order);
  }
  EXPECT_GT(seen.size(), 5u);
  EXPECT_NE(round_order(6, 0, Order::random, 1), round_order(6, 0, Order::random, 2));
}

TEST(Plan, SplitWordsFollowsShellQuoting) {
  EXPECT_THAT(*split_words("zstd -3 -c 'my file.bin'"),
              ElementsAre("zstd", "-3", "-c", "my file.bin"));
  EXPECT_THAT(*split_words(R"(echo "a \"b\"" c\ d '')"), ElementsAre("echo", "a \"b\"", "c d", ""));
  EXPECT_THAT(split_words("sort < in.txt").error().message, HasSubstr("--shell"));
  EXPECT_THAT(split_words("a | b").error().message, HasSubstr("shell syntax"));
  EXPECT_THAT(split_words("echo 'open").error().message, HasSubstr("unterminated"));
  EXPECT_FALSE(split_words("   "));
}

}  // namespace
}  // namespace benchkit::process
