#include "process/worker_invocation.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace benchkit::process {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Role = WorkerInvocation::Role;

// Every field away from its default.
WorkerInvocation every_field() {
  WorkerInvocation invocation;
  invocation.filter = "sort|hash";
  invocation.exact = true;
  invocation.indices = std::vector<std::size_t>{0, 2, 5};
  invocation.skip_tags = {"ci", "slow"};
  invocation.shard_positions = std::vector<std::size_t>{1, 3, 4};
  invocation.params = {"size=64,4096", "items=10"};
  invocation.list = true;
  invocation.time_budget_ns = 250'000'000;
  invocation.warm_up_ns = 1'000'000;
  invocation.timeout_ns = 30'000'000'000;
  invocation.sample_size = 7;
  invocation.precision = 0.005;
  invocation.seed = 18'446'744'073'709'551'615u;
  invocation.repetitions = 3;
  invocation.test = true;
  invocation.no_counters = true;
  invocation.no_machine_warnings = true;
  invocation.tags = {"compiler=clang", "cpu=x"};
  invocation.mode = model::Mode::instructions;
  invocation.callgrind_dumps = "/tmp/dir/callgrind.out.%p";
  invocation.keep_env = {"LD_LIBRARY_PATH"};
  invocation.profile_time_ns = 30'000'000'000;
  invocation.profile_markers = "perf:/tmp/control,/tmp/ack";
  invocation.profile_summary = "/tmp/summary.json";
  invocation.stream_fd = 4;
  invocation.turns_fd = 3;
  invocation.index = 2;
  invocation.out = "/tmp/out.json";
  invocation.quiet = true;
  invocation.processes = 1;
  return invocation;
}

TEST(WorkerInvocation, EveryFieldSurvivesTheRoundTrip) {
  const WorkerInvocation invocation = every_field();
  const auto parsed = WorkerInvocation::parse(invocation.to_argv());
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, invocation);
}

TEST(WorkerInvocation, EachFieldAloneSurvivesTheRoundTrip) {
  // One field set at a time: a field whose default hides another's would show here.
  const WorkerInvocation all = every_field();
  const std::vector<void (*)(WorkerInvocation&, const WorkerInvocation&)> setters = {
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.filter = a.filter; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.exact = a.exact; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.indices = a.indices; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.skip_tags = a.skip_tags; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.shard_positions = a.shard_positions; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.params = a.params; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.list = a.list; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.time_budget_ns = a.time_budget_ns; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.warm_up_ns = a.warm_up_ns; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.timeout_ns = a.timeout_ns; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.sample_size = a.sample_size; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.precision = a.precision; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.seed = a.seed; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.repetitions = a.repetitions; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.test = a.test; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.no_counters = a.no_counters; },
      [](WorkerInvocation& w, const WorkerInvocation& a) {
        w.no_machine_warnings = a.no_machine_warnings;
      },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.tags = a.tags; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.mode = a.mode; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.callgrind_dumps = a.callgrind_dumps; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.keep_env = a.keep_env; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.profile_time_ns = a.profile_time_ns; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.profile_markers = a.profile_markers; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.profile_summary = a.profile_summary; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.stream_fd = a.stream_fd; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.turns_fd = a.turns_fd; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.index = a.index; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.out = a.out; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.quiet = a.quiet; },
      [](WorkerInvocation& w, const WorkerInvocation& a) { w.processes = a.processes; },
  };
  for (std::size_t i = 0; i < setters.size(); ++i) {
    WorkerInvocation one;
    setters[i](one, all);
    ASSERT_NE(one, WorkerInvocation{}) << "field " << i;
    const auto parsed = WorkerInvocation::parse(one.to_argv());
    ASSERT_TRUE(parsed) << "field " << i << ": " << parsed.error().message;
    EXPECT_EQ(*parsed, one) << "field " << i;
  }
}

TEST(WorkerInvocation, ADefaultInvocationHasNoFlags) {
  EXPECT_TRUE(WorkerInvocation{}.to_argv().empty());
  const auto parsed = WorkerInvocation::parse(std::vector<std::string>{});
  ASSERT_TRUE(parsed);
  EXPECT_EQ(*parsed, WorkerInvocation{});
}

// The spellings are a protocol with bench binaries of other versions: a side-by-side worker is
// started exactly as before the invocation was a type.
TEST(WorkerInvocation, ATurnsWorkerIsSpelledAsEveryVersionSpelledIt) {
  WorkerInvocation turns;
  turns.quiet = true;
  turns.processes = 1;
  turns.filter = "add/amount=1";
  turns.exact = true;
  turns.time_budget_ns = 10'000'000;
  turns.out = "out.json";
  turns.turns_fd = 3;
  EXPECT_EQ(turns.role(), Role::turns);
  EXPECT_THAT(
      turns.command("./bench"),
      ElementsAre("./bench", "--quiet", "--processes", "1", "--filter", "add/amount=1", "--exact",
                  "--time-budget", "10000000ns", "--out", "out.json", "--turns-fd", "3"));
}

TEST(WorkerInvocation, WhatOlderDriversSentIsRead) {
  // A stream worker as benchkit 0.x started one, --worker-progress included.
  const std::vector<std::string> argv = {
      "--quiet", "--time-budget",    "333333333ns", "--sample-size",
      "10",      "--precision",      "0.01",        "--filter",
      "sort",    "--warm-up",        "50000000ns",  "--seed",
      "0",       "--repetitions",    "1",           "--worker-select",
      "0,1",     "--worker-stream",  "4",           "--worker-index",
      "1",       "--worker-progress"};
  const auto parsed = WorkerInvocation::parse(argv);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->role(), Role::stream);
  EXPECT_EQ(parsed->stream_fd, 4);
  EXPECT_THAT(*parsed->indices, ElementsAre(0u, 1u));
  EXPECT_EQ(parsed->index, 1u);
  EXPECT_EQ(parsed->time_budget_ns, 333'333'333);
  EXPECT_EQ(parsed->sample_size, 10u);
  EXPECT_DOUBLE_EQ(parsed->precision, 0.01);
  EXPECT_EQ(parsed->warm_up_ns, 50'000'000);
  EXPECT_EQ(parsed->seed, 0u);
}

TEST(WorkerInvocation, AUsersFlagsAfterDoubleDashAreReadInTheirOwnUnits) {
  const std::vector<std::string> argv = {"--turns-fd",    "3",      "--warm-up=10ms",   "--param",
                                         "size=4096",     "--mode", "counters",         "-q",
                                         "--time-budget", "1.5s",   "--param=items=1,2"};
  const auto parsed = WorkerInvocation::parse(argv);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->warm_up_ns, 10'000'000);
  EXPECT_EQ(parsed->time_budget_ns, 1'500'000'000);
  EXPECT_EQ(parsed->mode, model::Mode::counters);
  EXPECT_TRUE(parsed->quiet);
  EXPECT_THAT(parsed->params, ElementsAre("size=4096", "items=1,2"));
}

TEST(WorkerInvocation, RolesFollowTheFieldsThatAreSet) {
  WorkerInvocation invocation;
  EXPECT_EQ(invocation.role(), Role::run);
  invocation.list = true;
  EXPECT_EQ(invocation.role(), Role::lister);
  invocation.profile_summary = "summary.json";
  EXPECT_EQ(invocation.role(), Role::profiled);
  invocation.stream_fd = 4;
  EXPECT_EQ(invocation.role(), Role::stream);
  invocation.callgrind_dumps = "d/callgrind.out.%p";
  EXPECT_EQ(invocation.role(), Role::counted);
  invocation.turns_fd = 3;
  EXPECT_EQ(invocation.role(), Role::turns);
}

TEST(WorkerInvocation, OnlyADriversFlagsMakeAWorker) {
  using Words = std::vector<std::string>;
  EXPECT_TRUE(WorkerInvocation::is_worker(Words{"--quiet", "--worker-stream", "4"}));
  EXPECT_TRUE(WorkerInvocation::is_worker(Words{"--turns-fd=3"}));
  EXPECT_TRUE(WorkerInvocation::is_worker(Words{"--callgrind-dumps", "x"}));
  EXPECT_TRUE(WorkerInvocation::is_worker(Words{"--profile-summary", "s.json"}));
  // --profile-time alone is the user's: the routine under a profiler the user attaches.
  EXPECT_FALSE(WorkerInvocation::is_worker(Words{"--profile-time", "30s"}));
  EXPECT_FALSE(WorkerInvocation::is_worker(Words{"--list", "--param", "size=1"}));
  EXPECT_FALSE(WorkerInvocation::is_worker(Words{"--benchkit-info"}));
  // A flag's value is not a flag.
  EXPECT_FALSE(WorkerInvocation::is_worker(Words{"--filter", "x"}));
}

TEST(WorkerInvocation, AnUnknownFlagIsAnErrorNamingIt) {
  const auto parsed =
      WorkerInvocation::parse(std::vector<std::string>{"--worker-stream", "4", "--bogus", "1"});
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(parsed.error().message, HasSubstr("--bogus"));
  const auto stray = WorkerInvocation::parse(std::vector<std::string>{"sort"});
  ASSERT_FALSE(stray);
  EXPECT_THAT(stray.error().message, HasSubstr("sort"));
}

TEST(WorkerInvocation, AMalformedValueIsAnErrorNamingTheFlagAndTheValue) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--worker-stream", "four"}, "--worker-stream \"four\""},
      {{"--turns-fd", "-1"}, "--turns-fd \"-1\""},
      {{"--sample-size", "0"}, "--sample-size \"0\""},
      {{"--sample-size", "12x"}, "--sample-size \"12x\""},
      {{"--repetitions", "-3"}, "--repetitions \"-3\""},
      {{"--seed", "1e3"}, "--seed \"1e3\""},
      {{"--precision", "2"}, "--precision \"2\""},
      {{"--time-budget", "soon"}, "--time-budget \"soon\""},
      {{"--warm-up", "5 parsecs"}, "--warm-up \"5 parsecs\""},
      {{"--worker-select", "0,,2"}, "--worker-select \"0,,2\""},
      {{"--worker-index", "x"}, "--worker-index \"x\""},
      {{"--mode", "cycles"}, "--mode \"cycles\""},
      {{"--profile-time", "long"}, "--profile-time \"long\""},
      {{"--filter"}, "--filter needs a value"},
      {{"--exact=yes"}, "--exact takes no value"},
  };
  for (const auto& [argv, message] : cases) {
    const auto parsed = WorkerInvocation::parse(argv);
    ASSERT_FALSE(parsed) << message;
    EXPECT_EQ(parsed.error().kind, model::ErrorKind::usage);
    EXPECT_THAT(parsed.error().message, HasSubstr(message));
  }
}

}  // namespace
}  // namespace benchkit::process
