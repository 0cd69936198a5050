#include "session/bisect.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace benchkit::session {
namespace {

using analysis::Verdict;

std::vector<vcs::CommitNode> line_of(std::size_t count) {
  std::vector<vcs::CommitNode> nodes;
  for (std::size_t i = count; i >= 1; --i) {
    nodes.push_back({"c" + std::to_string(i), {"c" + std::to_string(i - 1)}});
  }
  return nodes;
}

Judgement judged(Verdict verdict, double ratio) {
  Judgement j;
  j.summary.verdict = verdict;
  j.summary.ratio = ratio;
  j.summary.benchmark = "work";
  j.rounds = "10";
  return j;
}

// A fake history: commits at and after `first_bad` are 15% slower; `unclear` ones are
// inconclusive whatever the rounds. Records which commits were built.
struct FakeHistory {
  std::size_t first_bad = 0;
  std::set<std::size_t> unclear;
  std::set<std::string> built;
  std::size_t comparisons = 0;
  Judge judge() {
    return [this](const std::string& commit, const std::string& reference,
                  bool) -> model::Result<Judgement> {
      built.insert(commit);
      built.insert(reference);
      ++comparisons;
      const std::size_t n = std::stoul(commit.substr(1));
      const std::size_t r = std::stoul(reference.substr(1));
      if (unclear.count(n)) return judged(Verdict::inconclusive, 1.05);
      const bool slower = n >= first_bad && r < first_bad;
      return judged(slower ? Verdict::regressed : Verdict::unchanged, slower ? 1.15 : 1.0);
    };
  }
};

TEST(Bisect, FindsTheSlowCommitOf32WithAtMostSixBuildsBeyondTheEnds) {
  for (std::size_t first_bad : {1u, 2u, 13u, 17u, 31u, 32u}) {
    FakeHistory history;
    history.first_bad = first_bad;
    const auto outcome = bisect(line_of(32), "c0", "c32", history.judge());
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_EQ(outcome->first_bad, "c" + std::to_string(first_bad));
    EXPECT_LE(history.built.size(), 2u + 6u) << "first bad c" << first_bad;
    EXPECT_LE(outcome->commits_tested, 6u);
    ASSERT_TRUE(outcome->convicting);
    EXPECT_EQ(outcome->convicting->commit, "c" + std::to_string(first_bad));
    EXPECT_EQ(outcome->convicting->judgement.summary.verdict, Verdict::regressed);
    EXPECT_EQ(outcome->steps.front().outcome, "bad end");
  }
}

TEST(Bisect, ComparesEachStepWithTheLastGoodCommit) {
  FakeHistory history;
  history.first_bad = 7;
  const auto outcome = bisect(line_of(8), "c0", "c8", history.judge());
  ASSERT_TRUE(outcome);
  std::string last_good = "c0";
  for (std::size_t i = 1; i < outcome->steps.size(); ++i) {
    EXPECT_EQ(outcome->steps[i].reference, last_good);
    if (outcome->steps[i].outcome == "good") last_good = outcome->steps[i].commit;
  }
  EXPECT_NE(last_good, "c0");
}

TEST(Bisect, StopsWhenBadIsNotSlowerThanGood) {
  FakeHistory history;
  history.first_bad = 99;
  const auto outcome = bisect(line_of(4), "c0", "c4", history.judge());
  ASSERT_FALSE(outcome);
  EXPECT_NE(outcome.error().message.find("not slower"), std::string::npos);
  EXPECT_EQ(history.comparisons, 1u);
}

TEST(Bisect, AnInconclusiveCommitGetsMoreRoundsThenIsSkipped) {
  // c4 splits c1..c8 best, stays unclear and is skipped; c5 (good) then rules it out anyway.
  FakeHistory history;
  history.first_bad = 6;
  history.unclear = {4};
  std::vector<std::string> outcomes;
  const auto outcome = bisect(line_of(8), "c0", "c8", history.judge(),
                              [&](const BisectStep& step) { outcomes.push_back(step.outcome); });
  ASSERT_TRUE(outcome);
  EXPECT_EQ(outcome->first_bad, "c6");
  EXPECT_NE(std::find(outcomes.begin(), outcomes.end(), "retry"), outcomes.end());
  EXPECT_NE(std::find(outcomes.begin(), outcomes.end(), "skipped"), outcomes.end());
  // Everything skipped around the answer: the candidates are listed instead.
  FakeHistory blurred;
  blurred.first_bad = 2;
  blurred.unclear = {1, 2, 3};
  const auto open = bisect(line_of(4), "c0", "c4", blurred.judge());
  ASSERT_TRUE(open);
  EXPECT_FALSE(open->first_bad);
  EXPECT_EQ(open->candidates, (std::vector<std::string>{"c4", "c3", "c2", "c1"}));
}

// A commit between the ends that cannot be built (or measured) is skipped with why, as `git
// bisect skip` does; the answer is still found around it. Ctrl-C stops the bisection.
TEST(Bisect, ACommitThatCannotBeBuiltIsSkippedWithWhy) {
  FakeHistory history;
  history.first_bad = 6;
  const Judge plain = history.judge();
  const Judge broken = [&](const std::string& commit, const std::string& reference,
                           bool more) -> model::Result<Judgement> {
    if (commit == "c4") {
      return model::Error{"step 1: the build failed:\n\terror: x", model::ErrorKind::failed};
    }
    return plain(commit, reference, more);
  };
  std::vector<BisectStep> steps;
  const auto outcome = bisect(line_of(8), "c0", "c8", broken,
                              [&](const BisectStep& step) { steps.push_back(step); });
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(outcome->first_bad, "c6");
  const auto skipped = std::find_if(steps.begin(), steps.end(),
                                    [](const BisectStep& step) { return step.commit == "c4"; });
  ASSERT_NE(skipped, steps.end());
  EXPECT_EQ(skipped->outcome, "skipped");
  EXPECT_EQ(skipped->failure, "step 1: the build failed:\n\terror: x");
  // The log keeps one line a step.
  EXPECT_EQ(log_line(3, *skipped),
            "3\tc4\tskipped\tfailed\t\t\t\tagainst c0\tstep 1: the build failed:  error: x");
  const Judge stopped = [&](const std::string& commit, const std::string& reference,
                            bool more) -> model::Result<Judgement> {
    if (commit == "c4") return model::Error{"interrupted", model::ErrorKind::interrupted};
    return plain(commit, reference, more);
  };
  const auto interrupted = bisect(line_of(8), "c0", "c8", stopped);
  ASSERT_FALSE(interrupted);
  EXPECT_EQ(interrupted.error().kind, model::ErrorKind::interrupted);
}

// A fake history where commits at and after `first_fast` are 15% faster.
Judge speed_up_at(std::size_t first_fast, std::size_t* comparisons) {
  return [first_fast, comparisons](const std::string& commit, const std::string& reference,
                                   bool) -> model::Result<Judgement> {
    ++*comparisons;
    const std::size_t n = std::stoul(commit.substr(1));
    const std::size_t r = std::stoul(reference.substr(1));
    const bool faster = n >= first_fast && r < first_fast;
    Judgement j = judged(faster ? Verdict::improved : Verdict::unchanged, faster ? 0.85 : 1.0);
    j.summary.ratio_lower = j.summary.ratio - 0.01;
    j.summary.ratio_upper = j.summary.ratio + 0.01;
    return j;
  };
}

TEST(Bisect, SeekingASpeedUpFindsTheFirstFasterCommit) {
  for (std::size_t first_fast : {1u, 9u, 16u}) {
    std::size_t comparisons = 0;
    std::vector<std::string> outcomes;
    const auto outcome = bisect(
        line_of(16), "c0", "c16", speed_up_at(first_fast, &comparisons),
        [&](const BisectStep& step) { outcomes.push_back(step.outcome); }, Verdict::improved);
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_EQ(outcome->first_bad, "c" + std::to_string(first_fast));
    EXPECT_EQ(outcome->convicting->judgement.summary.verdict, Verdict::improved);
    EXPECT_EQ(outcomes.front(), "faster end");
    for (std::size_t k = 1; k < outcomes.size(); ++k) {
      EXPECT_TRUE(outcomes[k] == "faster" || outcomes[k] == "not faster") << outcomes[k];
    }
  }
  // Looking for a slowdown in the same history finds none.
  std::size_t comparisons = 0;
  const auto slower = bisect(line_of(4), "c0", "c4", speed_up_at(2, &comparisons));
  ASSERT_FALSE(slower);
  EXPECT_NE(slower.error().message.find("is not slower than GOOD"), std::string::npos);
  // And a speed-up in a history that only slowed down: none either.
  FakeHistory history;
  history.first_bad = 2;
  const auto faster = bisect(line_of(4), "c0", "c4", history.judge(), {}, Verdict::improved);
  ASSERT_FALSE(faster);
  EXPECT_NE(faster.error().message.find("is not faster than GOOD"), std::string::npos);
}

TEST(Bisect, SaysWhenMoreOfTheChangeMayLieAfterTheCommitFound) {
  // c3 makes it 2.5% faster, c6 another 7%: the ends 9.5% apart, the first step found 2.5%.
  const Judge two_speed_ups = [](const std::string& commit, const std::string& reference,
                                 bool) -> model::Result<Judgement> {
    const auto speed = [](std::size_t n) { return (n >= 3 ? 0.975 : 1.0) * (n >= 6 ? 0.93 : 1.0); };
    const double ratio =
        speed(std::stoul(commit.substr(1))) / speed(std::stoul(reference.substr(1)));
    Judgement j = judged(ratio < 0.98 ? Verdict::improved : Verdict::unchanged, ratio);
    j.summary.ratio_lower = ratio - 0.005;
    j.summary.ratio_upper = ratio + 0.005;
    return j;
  };
  const auto outcome = bisect(line_of(8), "c0", "c8", two_speed_ups, {}, Verdict::improved);
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_EQ(outcome->first_bad, "c3");
  ASSERT_TRUE(outcome->ends);
  EXPECT_NEAR(outcome->ends->judgement.summary.ratio, 0.975 * 0.93, 1e-9);
  EXPECT_TRUE(more_change_after(*outcome, Verdict::improved));
  // One change: the ends and the commit agree, nothing more to say.
  std::size_t comparisons = 0;
  const auto one =
      bisect(line_of(8), "c0", "c8", speed_up_at(5, &comparisons), {}, Verdict::improved);
  ASSERT_TRUE(one);
  EXPECT_FALSE(more_change_after(*one, Verdict::improved));
  // The commit found is BAD itself: nothing after it.
  FakeHistory history;
  history.first_bad = 8;
  const auto last = bisect(line_of(8), "c0", "c8", history.judge());
  ASSERT_TRUE(last);
  EXPECT_EQ(last->first_bad, "c8");
  EXPECT_FALSE(more_change_after(*last));
}

TEST(Bisect, EachStepIsOneLogLine) {
  BisectStep step{"0123456789abcdef", "fedcba9876543210", judged(Verdict::regressed, 1.153), "bad"};
  step.judgement.summary.ratio_lower = 1.14;
  step.judgement.summary.ratio_upper = 1.166;
  EXPECT_EQ(log_line(3, step),
            "3\t0123456789abcdef\tbad\tregressed\t1.1530\t[1.1400, 1.1660]\trounds 10\tagainst "
            "fedcba987654\twork");
}

}  // namespace
}  // namespace benchkit::session
