#include "vcs/bisection.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace benchkit::vcs {
namespace {

// c1 <- c2 <- ... <- cN (newest first, as rev-list lists them); c0 is GOOD, not a candidate.
std::vector<CommitNode> line_of(std::size_t count) {
  std::vector<CommitNode> nodes;
  for (std::size_t i = count; i >= 1; --i) {
    nodes.push_back({"c" + std::to_string(i), {"c" + std::to_string(i - 1)}});
  }
  return nodes;
}

std::size_t number(const std::string& commit) {
  return std::stoul(commit.substr(1));
}

// Bisects with the first bad commit at `first_bad`; the number of commits tested.
std::size_t tests_to_find(std::size_t count, std::size_t first_bad, std::string& found) {
  Bisection bisection(line_of(count), "c" + std::to_string(count));
  std::size_t tests = 0;
  while (const auto next = bisection.next()) {
    ++tests;
    if (number(*next) >= first_bad) {
      bisection.mark_bad(*next);
    } else {
      bisection.mark_good(*next);
    }
  }
  found = bisection.first_bad().value_or("");
  return tests;
}

TEST(Bisection, FindsEveryFirstBadCommitOf32InFiveTests) {
  for (std::size_t first_bad = 1; first_bad <= 32; ++first_bad) {
    std::string found;
    const std::size_t tests = tests_to_find(32, first_bad, found);
    EXPECT_EQ(found, "c" + std::to_string(first_bad));
    EXPECT_LE(tests, 5u) << "first bad c" << first_bad;
  }
}

TEST(Bisection, OneCandidateIsTheAnswerWithoutATest) {
  Bisection bisection(line_of(1), "c1");
  EXPECT_FALSE(bisection.next());
  EXPECT_EQ(bisection.first_bad(), "c1");
}

TEST(Bisection, FollowsBothSidesOfAMerge) {
  // good g; a1 a2 on one branch, b1 on another, merged in m (bad). b1 is the first bad.
  const std::vector<CommitNode> graph = {
      {"m", {"a2", "b1"}}, {"a2", {"a1"}}, {"b1", {"g"}}, {"a1", {"g"}}};
  Bisection bisection(graph, "m");
  const auto bad = [](const std::string& c) { return c == "b1" || c == "m"; };
  std::size_t tests = 0;
  while (const auto next = bisection.next()) {
    ++tests;
    bad(*next) ? bisection.mark_bad(*next) : bisection.mark_good(*next);
  }
  EXPECT_EQ(bisection.first_bad(), "b1");
  EXPECT_LE(tests, 3u);
}

TEST(Bisection, ASkippedCommitIsNotPickedAgainAndMayLeaveTheAnswerOpen) {
  // c3 is the first bad, but c2 and c3 are both skipped: the answer is one of c2, c3, c4.
  Bisection bisection(line_of(4), "c4");
  while (const auto next = bisection.next()) {
    const std::size_t n = number(*next);
    if (n == 2 || n == 3) {
      bisection.mark_skipped(*next);
    } else if (n >= 3) {
      bisection.mark_bad(*next);
    } else {
      bisection.mark_good(*next);
    }
  }
  EXPECT_FALSE(bisection.first_bad());
  EXPECT_EQ(bisection.remaining(), (std::vector<std::string>{"c4", "c3", "c2"}));
}

}  // namespace
}  // namespace benchkit::vcs
