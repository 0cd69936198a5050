#include "report/run_failures.hpp"

#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

BenchmarkResult measured(std::string name) {
  BenchmarkResult benchmark;
  benchmark.name = std::move(name);
  return benchmark;
}

BenchmarkResult crashed(std::string name, std::string cause) {
  BenchmarkResult benchmark = measured(std::move(name));
  benchmark.failure = Failure{};
  benchmark.failure->cause = Failure::Cause::crashed;
  benchmark.failure->signal = 11;
  benchmark.failures = {std::move(cause), "a later failure, not shown"};
  return benchmark;
}

TEST(FailureSummary, NamesEachFailedBenchmarkWithItsFirstCause) {
  RunResult run;
  run.benchmarks = {measured("alu"), crashed("sort", "killed by signal 11 (SIGSEGV)"),
                    crashed("hash", "threw: bad input")};
  EXPECT_EQ(failure_summary(run, 0),
            "2 benchmark(s) failed; every other benchmark is measured and kept:\n"
            "  sort: killed by signal 11 (SIGSEGV)\n"
            "  hash: threw: bad input\n");
}

TEST(FailureSummary, SaysNothingIsKeptWhenEveryBenchmarkFailed) {
  RunResult run;
  run.benchmarks = {crashed("sort", "timed out")};
  EXPECT_EQ(failure_summary(run, 3),
            "1 benchmark(s) failed; every other benchmark is measured:\n  sort: timed out\n");
}

TEST(FailureSummary, CountsScenarioRunsThatFailedACheckWhenNoBenchmarkFailed) {
  RunResult run;
  run.benchmarks = {measured("alu")};
  EXPECT_EQ(failure_summary(run, 2),
            "2 scenario run(s) failed a check and are kept out of comparisons\n");
  EXPECT_EQ(failure_summary(run, 0), "");
}

TEST(BenchFailures, NamesEachFailedCheckThenSumsUpThenSaysAnInterruption) {
  RunResult run;
  run.benchmarks = {measured("alu")};
  const report::RunFailures failures =
      bench_failures(run, {{"lifecycle", {"every item read back", "no leak"}}}, true);
  EXPECT_EQ(failures.errors, (std::vector<std::string>{"lifecycle is invalid: every item read back",
                                                       "lifecycle is invalid: no leak"}));
  EXPECT_EQ(failures.note,
            "1 scenario run(s) failed a check and are kept out of comparisons\n"
            "interrupted: what finished before it is shown\n");
  EXPECT_EQ(bench_failures(run, {}, true, {"out.json", "baseline main"}).note,
            "interrupted: what finished before it is shown and kept in out.json and baseline "
            "main\n");
  const report::RunFailures clean = bench_failures(run, {}, false);
  EXPECT_TRUE(clean.errors.empty());
  EXPECT_EQ(clean.note, "");
}

}  // namespace
}  // namespace benchkit::report
