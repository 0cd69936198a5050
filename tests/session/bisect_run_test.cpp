// benchkit bisect's orchestration (session/bisect_run.hpp) with a fake workshop: no git, no
// compiler, no processes; the log goes to a temporary file.
#include "session/bisect_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "fake_workshop.hpp"

namespace benchkit::session {
namespace {

using session::testing::FakeWorkshop;

class BisectRecorder final : public BisectObserver {
 public:
  void step_decided(const BisectStep& step, const std::string& subject) override {
    decided.push_back(step.commit + " " + step.outcome + " (" + subject + ")");
  }
  std::vector<std::string> decided;
};

BisectPlan bisect_plan_for(const std::string& good, const std::string& bad,
                           const std::string& log) {
  BisectPlan plan;
  plan.good = good;
  plan.bad = bad;
  plan.log = log;
  plan.pairs.rounds = 5;
  plan.pairs.max_rounds = 45;
  return plan;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(BisectRevisions, NarrowsToTheFirstSlowCommitBuildingEachCommitOnce) {
  const std::string log = ::testing::TempDir() + "/bisect-run.log";
  for (const std::size_t first_slow : {1u, 5u, 12u, 16u}) {
    FakeWorkshop workshop;
    workshop.first_slow = first_slow;
    BisectRecorder steps;
    const auto report = bisect_revisions(bisect_plan_for("c0", "c16", log), workshop, steps);
    ASSERT_TRUE(report) << report.error().message;
    const std::string first = "c" + std::to_string(first_slow);
    EXPECT_EQ(report->outcome.first_bad, first);
    EXPECT_EQ(report->first_bad_subject, "subject of " + first);
    EXPECT_EQ(report->exit_status(), 0);
    EXPECT_EQ(report->commits_between, 16u);
    EXPECT_EQ(report->log_path, log);
    // Every commit built at most once: the two ends and at most log2(16) steps.
    const std::set<std::string> distinct(workshop.built.begin(), workshop.built.end());
    EXPECT_EQ(distinct.size(), workshop.built.size());
    EXPECT_EQ(report->builds, workshop.built.size());
    EXPECT_LE(report->builds, 2u + 4u);
    EXPECT_EQ(workshop.built.front(), "c16");  // BAD first: its targets are the ones to have
    ASSERT_TRUE(report->outcome.convicting);
    EXPECT_EQ(report->outcome.convicting->commit, first);
    EXPECT_EQ(steps.decided.front(), "c16 bad end (subject of c16)");
    // The log: a header, one line per step, then the answer.
    const std::string text = read(log);
    EXPECT_EQ(text.rfind("# benchkit bisect c0 c16", 0), 0u);
    EXPECT_NE(text.find("# first bad commit: " + first + " subject of " + first),
              std::string::npos);
    EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')),
              2 + steps.decided.size() + 1);
  }
}

TEST(BisectRevisions, AnInconclusiveStepGetsTwiceTheRoundsEachAsLong) {
  const std::string log = ::testing::TempDir() + "/bisect-retry.log";
  FakeWorkshop workshop;
  workshop.first_slow = 3;
  bool first = true;
  workshop.measure = [&](const AbRequest& request) -> model::Result<AbRuns> {
    // The ends are unclear at first: the same speed on both sides, then a slow-down.
    const bool unclear = first;
    first = false;
    return AbRuns{testing::made(100.0, 1),
                  testing::made(unclear ? 102.0 : 115.0, 2),
                  std::to_string(request.rounds),
                  {},
                  {}};
  };
  BisectRecorder steps;
  const auto report = bisect_revisions(bisect_plan_for("c0", "c4", log), workshop, steps);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_GE(workshop.requests.size(), 2u);
  EXPECT_EQ(workshop.requests[0].rounds, 5u);
  EXPECT_EQ(workshop.requests[1].rounds, 10u);
  EXPECT_EQ(workshop.requests[1].max_rounds, 90u);
  EXPECT_EQ(workshop.requests[1].round_budget_ns, workshop.requests[0].round_budget_ns);
  EXPECT_EQ(steps.decided.front(), "c4 retry (subject of c4)");
}

TEST(BisectRevisions, BadNotSlowerThanGoodIsAFailureAndIsLogged) {
  const std::string log = ::testing::TempDir() + "/bisect-none.log";
  FakeWorkshop workshop;  // nothing slow
  BisectRecorder steps;
  const auto report = bisect_revisions(bisect_plan_for("c0", "c4", log), workshop, steps);
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().kind, model::ErrorKind::failed);
  EXPECT_NE(report.error().message.find("is not slower than GOOD"), std::string::npos);
  EXPECT_NE(read(log).find("# stopped: BAD (c4) is not slower"), std::string::npos);
}

// A commit between the ends that fails to build is skipped, with why, in the log and the step
// lines (git bisect skip); an end that fails stops the bisection; so does Ctrl-C.
TEST(BisectRevisions, AStepThatFailsToBuildIsSkippedAndAnInterruptionStops) {
  const std::string log = ::testing::TempDir() + "/bisect-stop.log";
  FakeWorkshop workshop;
  workshop.first_slow = 3;
  workshop.failing_builds = {"c4"};
  BisectRecorder steps;
  auto report = bisect_revisions(bisect_plan_for("c0", "c8", log), workshop, steps);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->outcome.first_bad, "c3");
  EXPECT_NE(std::find(steps.decided.begin(), steps.decided.end(), "c4 skipped (subject of c4)"),
            steps.decided.end());
  EXPECT_NE(read(log).find("\tc4\tskipped\tfailed\t"), std::string::npos) << read(log);

  FakeWorkshop broken_end;
  broken_end.first_slow = 3;
  broken_end.failing_builds = {"c8"};
  report = bisect_revisions(bisect_plan_for("c0", "c8", log), broken_end, steps);
  ASSERT_FALSE(report);
  EXPECT_EQ(exit_status_of(report.error().kind), 1);
  EXPECT_NE(report.error().message.find("c8"), std::string::npos);

  FakeWorkshop interrupted;
  interrupted.measure = [](const AbRequest&) -> model::Result<AbRuns> {
    return model::Error{"interrupted", model::ErrorKind::interrupted};
  };
  report = bisect_revisions(bisect_plan_for("c0", "c8", log), interrupted, steps);
  ASSERT_FALSE(report);
  EXPECT_EQ(exit_status_of(report.error().kind), 130);

  // Ctrl-C once a round had finished: the side-by-side runs come back with the rounds before
  // it, which are not enough to judge a step by. The search stops at the first step.
  FakeWorkshop stopped_later;
  stopped_later.first_slow = 3;
  stopped_later.measure = [&](const AbRequest&) -> model::Result<AbRuns> {
    AbRuns runs{testing::made(100.0, 1), testing::made(130.0, 2), "3", {}, {}};
    runs.interrupted_note = "; Ctrl-C stopped it in round 4";
    return runs;
  };
  report = bisect_revisions(bisect_plan_for("c0", "c8", log), stopped_later, steps);
  ASSERT_FALSE(report);
  EXPECT_EQ(exit_status_of(report.error().kind), 130);
  EXPECT_EQ(stopped_later.requests.size(), 1u) << "no step after the interrupted one";
}

TEST(BisectRevisions, CommitsThatStayInconclusiveLeaveTheAnswerUndecided) {
  const std::string log = ::testing::TempDir() + "/bisect-undecided.log";
  FakeWorkshop workshop;
  workshop.measure = [&](const AbRequest& request) -> model::Result<AbRuns> {
    const std::string candidate = request.binaries.at(0).candidate;
    // The ends regress; every commit between is as slow as the noise allows to tell.
    const bool end = candidate.find("/c4/") != std::string::npos;
    return AbRuns{testing::made(100.0, 1), testing::made(end ? 115.0 : 102.0, 2), "5", {}, {}};
  };
  BisectRecorder steps;
  const auto report = bisect_revisions(bisect_plan_for("c0", "c4", log), workshop, steps);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_FALSE(report->outcome.first_bad);
  EXPECT_FALSE(report->undecided.empty());
  EXPECT_EQ(report->exit_status(), 1);
  EXPECT_NE(read(log).find("# undecided"), std::string::npos);
}

}  // namespace
}  // namespace benchkit::session
