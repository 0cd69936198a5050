#include "model/merge.hpp"

#include "model/counters.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::model {
namespace {

RunResult run_with(const std::string& name, int samples, double peak, const char* diagnostic) {
  RunResult run;
  run.context.hostname = "host-" + name;
  BenchmarkResult b;
  b.name = name;
  for (int i = 0; i < samples; ++i)
    b.samples.push_back(Sample{10, 100.0 + i, {}, 0, {}, {}, {}, {}});
  b.memory.peak_rss_bytes = static_cast<std::int64_t>(peak);
  b.warm_up_iters = 5;
  b.untimed_ns = 1.0;
  if (diagnostic) b.diagnostics.push_back({diagnostic, "warning", "x"});
  run.benchmarks.push_back(b);
  run.context.warnings.push_back({"machine_turbo", "warning", "turbo"});
  return run;
}

TEST(Merge, PerIterationCountersAddAcrossProcessesOthersAreTheMeanOverTheSamples) {
  RunResult first = run_with("a", 2, 1000, nullptr);
  RunResult second = run_with("a", 2, 1000, nullptr);
  RunResult third = run_with("a", 4, 1000, nullptr);
  for (RunResult* run : {&first, &second, &third}) {
    BenchmarkResult& b = run->benchmarks[0];
    b.counter_kinds["calls"] = counter::per_iteration;
    b.counter_kinds["bytes"] = counter::rate;
  }
  first.benchmarks[0].counters = {{"calls", 25}, {"bytes", 64}, {"ratio", 1}};
  second.benchmarks[0].counters = {{"calls", 25}, {"bytes", 64}, {"ratio", 2}};
  second.benchmarks[0].label = "compact";
  // A third process of four samples, with a value of its own (CRoaring's ns/query read 54.6,
  // 387, 51.9, 51.3, 51.3 and 404 in six processes, and the last one was kept), and a NaN,
  // which has no value to weigh in (as a Google Benchmark file's NaN is left out of its mean).
  third.benchmarks[0].counters = {{"calls", 0}, {"bytes", 64}, {"ratio", 4}, {"odd", NAN}};
  const BenchmarkResult merged = merge_processes({first, second, third}).benchmarks[0];
  // Each of the first two processes counted 25 calls over its 5 + 2 × 10 iterations, the third
  // none over its 5 + 4 × 10: 50 in all.
  EXPECT_DOUBLE_EQ(merged.counters.at("calls"), 50.0);
  EXPECT_DOUBLE_EQ(merged.counters.at("bytes"), 64.0);
  // The mean over the 8 samples: (1 × 2 + 2 × 2 + 4 × 4) / 8, not the last process's 4.
  EXPECT_DOUBLE_EQ(merged.counters.at("ratio"), 22.0 / 8.0);
  EXPECT_EQ(merged.counters.count("odd"), 0u);
  EXPECT_EQ(merged.counter_kinds.at("bytes"), counter::rate);
  EXPECT_EQ(merged.label, "compact");
}

TEST(Merge, TwoProcessesPerIterationCountIsTheirTotalOverTheirIterations) {
  RunResult first = run_with("a", 2, 1000, nullptr);
  RunResult second = run_with("a", 2, 1000, nullptr);
  for (RunResult* run : {&first, &second}) {
    run->benchmarks[0].counter_kinds["calls"] = counter::per_iteration;
    run->benchmarks[0].counters = {{"calls", 25}};
  }
  const BenchmarkResult merged = merge_processes({first, second}).benchmarks[0];
  EXPECT_EQ(iterations_run(merged), 50u);
  EXPECT_DOUBLE_EQ(*counter_value(merged, "calls"), 1.0);
}

TEST(Merge, SamplesAreNumberedByProcessAndTotalsCombine) {
  RunResult first = run_with("a", 3, 1000, "drift");
  RunResult second = run_with("a", 2, 3000, "drift");
  second.benchmarks.push_back(run_with("b", 1, 10, nullptr).benchmarks[0]);
  const RunResult merged = merge_processes({first, second});
  ASSERT_EQ(merged.benchmarks.size(), 2u);
  const BenchmarkResult& a = merged.benchmarks[0];
  ASSERT_EQ(a.samples.size(), 5u);
  EXPECT_EQ(a.samples[0].process, 0u);
  EXPECT_EQ(a.samples[3].process, 1u);
  EXPECT_EQ(*a.memory.peak_rss_bytes, 3000);
  EXPECT_EQ(a.warm_up_iters, 10u);
  EXPECT_DOUBLE_EQ(a.untimed_ns, 2.0);
  EXPECT_EQ(a.diagnostics.size(), 1u) << "the union by code";
  EXPECT_EQ(merged.benchmarks[1].name, "b");
  EXPECT_EQ(merged.benchmarks[1].samples[0].process, 1u);
  EXPECT_EQ(merged.context.hostname, "host-a");
  EXPECT_EQ(merged.context.warnings.size(), 1u);
}

TEST(Merge, AResultThatFailedItsChecksInAnyProcessStaysInvalid) {
  RunResult first = run_with("pipeline/drain", 1, 10, nullptr);
  RunResult second = run_with("pipeline/drain", 1, 10, nullptr);
  RunResult third = run_with("pipeline/drain", 1, 10, nullptr);
  second.benchmarks[0].failures = {"check failed after phase drain: every item came back"};
  third.benchmarks[0].failures = second.benchmarks[0].failures;
  const RunResult merged = merge_processes({first, second, third});
  ASSERT_EQ(merged.benchmarks.size(), 1u);
  EXPECT_FALSE(merged.benchmarks[0].valid());
  EXPECT_EQ(merged.benchmarks[0].failures.size(), 1u) << "the same message once";
}

// The notes of `run` of the code kAggregatesPerProcess.
std::vector<Diagnostic> aggregates_notes(const RunResult& run) {
  std::vector<Diagnostic> notes;
  for (const Diagnostic& d : run.context.warnings) {
    if (d.code == kAggregatesPerProcess) notes.push_back(d);
  }
  return notes;
}

TEST(Merge, AggregatesOnlyWarningsOfSeveralProcessesBecomeOneNote) {
  RunResult first = run_with("a", 1, 1000, nullptr);
  first.benchmarks[0].diagnostics.push_back({kAggregatesOnly, "warning", "one file"});
  first.benchmarks.push_back(run_with("b", 1, 1000, nullptr).benchmarks[0]);
  first.benchmarks[1].diagnostics.push_back({kAggregatesOnly, "warning", "one file"});
  first.benchmarks.push_back(run_with("c", 2, 1000, "drift").benchmarks[0]);
  // One run: a file's warnings are true of it and stay.
  const RunResult alone = merge_processes({first});
  EXPECT_EQ(alone.benchmarks[0].diagnostics.size(), 1u);
  EXPECT_TRUE(aggregates_notes(alone).empty());
  const RunResult merged = merge_processes({first, first, first});
  EXPECT_TRUE(merged.benchmarks[0].diagnostics.empty());
  EXPECT_TRUE(merged.benchmarks[1].diagnostics.empty());
  // Other diagnostics stay where they are.
  ASSERT_EQ(merged.benchmarks[2].diagnostics.size(), 1u);
  EXPECT_EQ(merged.benchmarks[2].diagnostics[0].code, "drift");
  const std::vector<Diagnostic> notes = aggregates_notes(merged);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].severity, "info");
  EXPECT_THAT(notes[0].message, ::testing::HasSubstr("of 2 benchmarks' repetitions"));
  // Noted again (one benchmark's warning read anew), it is still one note, of that benchmark.
  RunResult again = merged;
  again.benchmarks[0].diagnostics.push_back({kAggregatesOnly, "warning", "one file"});
  note_aggregates_per_process(again);
  ASSERT_EQ(aggregates_notes(again).size(), 1u);
  EXPECT_THAT(aggregates_notes(again)[0].message, ::testing::HasSubstr("of a's repetitions"));
}

TEST(Merge, NothingToMergeGivesAnEmptyRun) {
  EXPECT_TRUE(merge_processes({}).benchmarks.empty());
}

// A benchmark whose exact count differs between processes fails, naming both; one that agrees
// keeps its counts as they are (not summed).
TEST(Merge, ExactCountsMustAgreeBetweenProcesses) {
  RunResult first = run_with("a", 1, 1, nullptr);
  first.benchmarks[0].exact_counts.push_back({"rows", 100, ""});
  first.benchmarks.push_back(first.benchmarks[0]);
  first.benchmarks[1].name = "b";
  RunResult second = first;
  second.benchmarks[0].exact_counts[0].value = 99;
  const RunResult merged = merge_processes({first, first, second});
  ASSERT_EQ(merged.benchmarks.size(), 2u);
  EXPECT_EQ(merged.benchmarks[0].failures,
            std::vector<std::string>{"exact count rows is not the same in every process: 100 in "
                                     "process 1, 99 in process 3"});
  EXPECT_TRUE(merged.benchmarks[1].valid());
  ASSERT_EQ(merged.benchmarks[1].exact_counts.size(), 1u);
  EXPECT_EQ(merged.benchmarks[1].exact_counts[0].value, 100u);
}

}  // namespace
}  // namespace benchkit::model
