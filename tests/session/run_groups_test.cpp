// Run groups in the history: the shards of one CI run, recorded by several writers at once into
// either store, are one run for list, show, check and prune; an incomplete group is refused.
#include "session/run_groups.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "analysis/estimates.hpp"
#include "session/history.hpp"
#include "store/history_backends.hpp"
#include "support/history_runs.hpp"

namespace benchkit::session {
namespace {

using benchkit::testing::made_run;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::uint32_t kShards = 4;
constexpr std::size_t kPerShard = 3;

// Shard `k` of 4 of commit `commit`: its own benchmarks ("s<k>_bench_000i"), 12 in all.
RunResult shard_run(std::uint32_t k, const std::string& commit = "c1", double ns = 100.0) {
  RunResult run = made_run({.commit = commit,
                            .date = fmt::format("2026-11-02T00:00:0{}Z", k),
                            .benchmarks = kPerShard,
                            .ns = ns,
                            .seed = k});
  for (BenchmarkResult& benchmark : run.benchmarks) {
    benchmark.name = fmt::format("s{}_{}", k, benchmark.name);
  }
  run.context.shard = Shard{.index = k,
                            .count = kShards,
                            .by = "count",
                            .benchmarks = kPerShard,
                            .selected = kPerShard * kShards};
  return run;
}

TEST(RunGroup, ChosenElseForAShardTheCiRunElseCommitAndBuild) {
  RunResult whole = made_run({.commit = "abc"});
  EXPECT_EQ(run_group(whole, "", "github:1.1"), "") << "a whole run is grouped only when chosen";
  EXPECT_EQ(run_group(whole, "nightly-7", "github:1.1"), "nightly-7");
  RunResult shard = shard_run(2, "abc");
  EXPECT_EQ(run_group(shard, "", "github:1.1"), "github:1.1");
  EXPECT_EQ(run_group(shard, "", ""), "abc+" + build_id(shard.context));
  EXPECT_EQ(run_group(shard, "override", "github:1.1"), "override");
}

store::RunInfo shard_run_info(std::string id, std::string group, std::string commit,
                              std::size_t shard, std::size_t count = kShards) {
  return store::RunInfo{.id = std::move(id),
                        .date = "2026-11-02T00:00:00Z",
                        .commit = std::move(commit),
                        .benchmarks = 3,
                        .group = std::move(group),
                        .shard_index = shard,
                        .shard_count = count};
}

// Groups are joined by group and commit (ab's two revisions in one CI run stay two runs), placed
// where their newest member is, and a shard recorded twice counts once.
TEST(JoinGroups, JoinsByGroupAndCommitInTheOrderOfTheNewestMember) {
  const std::vector<store::RunInfo> runs = {
      shard_run_info("a1", "g", "c1", 2), shard_run_info("lone", "", "c0", 0, 0),
      shard_run_info("b1", "g", "c2", 1), shard_run_info("a2", "g", "c1", 1),
      shard_run_info("a3", "g", "c1", 2),  // shard 2 again: replaces a1
  };
  const std::vector<JoinedRun> joined = join_groups(runs);
  ASSERT_EQ(joined.size(), 3u);
  EXPECT_EQ(joined[0].info.id, "lone");
  EXPECT_EQ(joined[0].shards_text(), "");
  EXPECT_EQ(joined[1].info.id, "b1");
  EXPECT_EQ(joined[2].members.size(), 2u);
  EXPECT_EQ(joined[2].info.id, "a2") << "the first shard names the group";
  EXPECT_EQ(joined[2].members[1].id, "a3");
  EXPECT_EQ(joined[2].info.benchmarks, 6u);
  EXPECT_EQ(joined[2].shards_text(), "2/4");
  EXPECT_THAT(joined[2].missing_shards(), ElementsAre(3u, 4u));
  EXPECT_THAT(joined[2].missing_shards(5), ElementsAre(3u, 4u, 5u));
}

TEST(JoinGroups, AnIncompleteGroupNamesTheMissingShardsAndTheFix) {
  const std::vector<JoinedRun> joined = join_groups(
      {shard_run_info("aaaa1111", "ci:9", "c1", 1), shard_run_info("bbbb2222", "ci:9", "c1", 3)});
  ASSERT_EQ(joined.size(), 1u);
  const auto problem = incomplete_group(joined.front(), 0, "history.db");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->kind, model::ErrorKind::input);
  EXPECT_THAT(problem->message, HasSubstr("run group ci:9 of commit c1 in history.db"));
  EXPECT_THAT(problem->message, HasSubstr("shards 2/4, 4/4 were not recorded"));
  EXPECT_THAT(problem->message, HasSubstr("1/4 (run aaaa1111)"));
  EXPECT_THAT(problem->message, HasSubstr("--wait DURATION"));
  EXPECT_FALSE(incomplete_group(join_groups({shard_run_info("x", "", "c", 0, 0)}).front(), 0, "h"));
  const auto none =
      incomplete_group(join_groups({shard_run_info("cccc", "g", "c", 0, 0)}).front(), 2, "h");
  ASSERT_TRUE(none.has_value()) << "--expect-shards 2 of a group without shards";
  EXPECT_THAT(none->message, HasSubstr("shards 1/2, 2/2 were not recorded (no shard of it is"));
}

template <class Backend>
class RunGroups : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!backend_.available()) {
      GTEST_SKIP() << "the fixture PostgreSQL server is not running: run the session tests "
                      "through ctest (it starts tests/store/postgres_server.sh)";
    }
    auto opened = store::open_history(backend_.location());
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    store_ = std::move(*opened);
  }
  // Each shard recorded by its own thread, each with its own connection, all at once.
  void record_concurrently(const std::vector<RunResult>& shards, const std::string& group) {
    std::vector<std::thread> writers;
    std::vector<std::string> errors(shards.size());
    for (std::size_t i = 0; i < shards.size(); ++i) {
      writers.emplace_back([&, i] {
        const auto recorded = record_run_at(backend_.location(), shards[i], group);
        if (!recorded) errors[i] = recorded.error().message;
      });
    }
    for (std::thread& writer : writers) writer.join();
    for (const std::string& error : errors) EXPECT_EQ(error, "");
  }
  Backend backend_;
  std::unique_ptr<store::Store> store_;
};

using benchkit::testing::BackendName;
using benchkit::testing::Backends;
TYPED_TEST_SUITE(RunGroups, Backends, BackendName);

// Four shards of one CI run recorded at once (four threads, four connections): one run of 12
// benchmarks in list, show and check, its verdicts written to every shard's rows.
TYPED_TEST(RunGroups, FourShardsRecordedAtOnceAreOneRun) {
  // The base branch's history: eight earlier commits, each run whole.
  constexpr std::size_t kEarlier = 8;
  for (std::size_t i = 0; i < kEarlier; ++i) {
    RunResult earlier = made_run({.commit = fmt::format("m{}", i),
                                  .date = fmt::format("2026-10-0{}T00:00:00Z", i + 1),
                                  .benchmarks = 0});
    for (std::uint32_t k = 1; k <= kShards; ++k) {
      RunResult shard = shard_run(k, "m", 100.0);
      for (BenchmarkResult& benchmark : shard.benchmarks) {
        for (Sample& sample : benchmark.samples) sample.ns *= benchkit::testing::wobble(i + 7, k);
        analysis::compute_estimates(benchmark);
        earlier.benchmarks.push_back(std::move(benchmark));
      }
    }
    ASSERT_TRUE(record_run(*this->store_, earlier).ok());
  }
  std::vector<RunResult> shards;
  for (std::uint32_t k = 1; k <= kShards; ++k) shards.push_back(shard_run(k, "c1", 125.0));
  this->record_concurrently(shards, "github:42.1");

  const auto runs = this->store_->list({});
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  EXPECT_EQ(runs->size(), kEarlier + kShards) << "each shard is stored as it was measured";
  const std::vector<JoinedRun> joined = join_groups(*runs);
  ASSERT_EQ(joined.size(), kEarlier + 1);
  const JoinedRun& group = joined.back();
  EXPECT_EQ(group.info.group, "github:42.1");
  EXPECT_EQ(group.info.benchmarks, kPerShard * kShards);
  EXPECT_EQ(group.shards_text(), "4/4");

  const auto shown = find_joined(*this->store_, group.members[2].id.substr(0, 8));
  ASSERT_TRUE(shown.ok()) << shown.error().message;
  const auto whole = load_joined_run(*this->store_, *shown);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(whole->benchmarks.size(), kPerShard * kShards);
  EXPECT_FALSE(whole->context.shard.has_value());

  const auto checked = check_run(*this->store_, {});
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_EQ(checked->candidate.group, "github:42.1");
  EXPECT_EQ(checked->shards, "4/4");
  EXPECT_EQ(checked->history_runs, kEarlier);
  ASSERT_EQ(checked->comparison.benchmarks.size(), kPerShard * kShards);
  for (const auto& benchmark : checked->comparison.benchmarks) {
    EXPECT_EQ(benchmark.verdict, analysis::Verdict::regressed) << benchmark.name;
  }
  for (const store::RunInfo& member : group.members) {
    const auto stored = this->store_->find(member.id);
    ASSERT_TRUE(stored.ok());
    for (const store::SummaryRow& row : stored->summaries) EXPECT_EQ(row.verdict, "regressed");
  }
}

// A history of sharded runs: each earlier run group is one run of the history check counts.
TYPED_TEST(RunGroups, CheckCountsEarlierGroupsAsOneRunEach) {
  for (const std::string commit : {"c1", "c2"}) {
    std::vector<RunResult> shards;
    for (std::uint32_t k = 1; k <= kShards; ++k) {
      shards.push_back(shard_run(k, commit, 100.0));
      shards.back().context.date = fmt::format("2026-11-0{}T00:00:0{}Z", commit[1], k);
    }
    this->record_concurrently(shards, "ci:" + commit);
  }
  const auto checked = check_run(*this->store_, {});
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_EQ(checked->candidate.commit, "c2");
  EXPECT_EQ(checked->shards, "4/4");
  EXPECT_EQ(checked->history_runs, 1u) << "c1's four shards are one earlier run";
}

// Three of four shards recorded: check refuses (input: exit status 2), naming shard 4/4;
// --expect-shards asks for more than the shards recorded.
TYPED_TEST(RunGroups, CheckRefusesAnIncompleteGroup) {
  std::vector<RunResult> shards;
  for (std::uint32_t k = 1; k <= 3; ++k) shards.push_back(shard_run(k));
  this->record_concurrently(shards, "gitlab:7");
  const auto refused = check_run(*this->store_, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, model::ErrorKind::input);
  EXPECT_THAT(refused.error().message, HasSubstr("shard 4/4 was not recorded"));
  this->record_concurrently({shard_run(4)}, "gitlab:7");
  EXPECT_TRUE(check_run(*this->store_, {}).ok());
  const auto more = check_run(*this->store_, {.expect_shards = 5});
  ASSERT_FALSE(more.ok());
  EXPECT_THAT(more.error().message, HasSubstr("shard 5/5 was not recorded"));
}

// --wait: the last shard arrives while check waits, and the group is checked whole.
TYPED_TEST(RunGroups, CheckWaitsForTheLastShard) {
  std::vector<RunResult> shards;
  for (std::uint32_t k = 1; k <= 3; ++k) shards.push_back(shard_run(k));
  this->record_concurrently(shards, "gitlab:8");
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    this->record_concurrently({shard_run(4)}, "gitlab:8");
  });
  const auto checked = check_run(*this->store_, {.wait_seconds = 30});
  late.join();
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_EQ(checked->shards, "4/4");
  const auto timed_out = check_run(*this->store_, {.expect_shards = 5, .wait_seconds = 0.1});
  ASSERT_FALSE(timed_out.ok());
  EXPECT_THAT(timed_out.error().message, HasSubstr("(waited 0.1 s)"));
}

// prune --keep counts a group as one run and removes its shards together.
TYPED_TEST(RunGroups, PruneKeepsOrRemovesAGroupWhole) {
  std::vector<RunResult> old_shards, new_shards;
  for (std::uint32_t k = 1; k <= kShards; ++k) {
    old_shards.push_back(shard_run(k, "c1"));
    new_shards.push_back(shard_run(k, "c2"));
  }
  this->record_concurrently(old_shards, "ci:1");
  this->record_concurrently(new_shards, "ci:2");
  const auto removed = prune(*this->store_, {.keep = 1});
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_EQ(*removed, std::size_t{kShards});
  const auto left = this->store_->list({});
  ASSERT_TRUE(left.ok());
  ASSERT_EQ(join_groups(*left).size(), 1u);
  EXPECT_EQ(join_groups(*left).front().info.commit, "c2");
  EXPECT_THAT(join_groups(*left).front().info.group, Not(""));
}

}  // namespace
}  // namespace benchkit::session
