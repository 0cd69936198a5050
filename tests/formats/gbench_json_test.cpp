#include "formats/gbench_json.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "analysis/estimates.hpp"
#include "formats/json_document.hpp"
#include "formats/result_json.hpp"
#include "model/merge.hpp"
#include "model/threads.hpp"
#include "support/golden.hpp"
#include "support/interop_fixture.hpp"
#include "support/sample_run.hpp"

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

using benchkit::testing::interop_fixture;

RunResult read(const std::string& name) {
  auto run = from_gbench_json(interop_fixture(name), name);
  EXPECT_TRUE(run) << run.error().message;
  return run ? *run : RunResult{};
}

const BenchmarkResult& named(const RunResult& run, const std::string& name) {
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.name == name) return b;
  }
  throw std::runtime_error("no benchmark " + name);
}

// The lines of a fixture, each without its newline.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(GbenchJson, RepetitionsAreSamplesOfOneProcess) {
  const RunResult run = read("gbench_repetitions.json");
  ASSERT_EQ(run.benchmarks.size(), 4u);  // BM_copy/64, BM_copy/4096, BM_sum_us, BM_fails
  const BenchmarkResult& copy = named(run, "BM_copy/64");
  ASSERT_EQ(copy.samples.size(), 3u);  // the aggregate rows are not samples
  // One process ran them all: the process, benchkit's unit of variation, is one.
  for (const Sample& sample : copy.samples) EXPECT_EQ(sample.process, 0u);
  EXPECT_TRUE(model::has_one_process_warning(run.context));
  const auto rows = parse_json_document(interop_fixture("gbench_repetitions.json"), "fixture",
                                        NonFinite::accepted);
  // Sample 0 is the first row: real_time (ns per iteration) times its iterations.
  const auto& first = rows["benchmarks"][0];
  ASSERT_EQ(first["name"], "BM_copy/64");
  EXPECT_EQ(copy.samples[0].iters, first["iterations"].get<std::uint64_t>());
  EXPECT_DOUBLE_EQ(copy.samples[0].ns / static_cast<double>(copy.samples[0].iters),
                   first["real_time"].get<double>());
  EXPECT_DOUBLE_EQ(
      copy.samples[0].counters.at("cpu_ns") / static_cast<double>(copy.samples[0].iters),
      first["cpu_time"].get<double>());
}

TEST(GbenchJson, ReadsTimeUnitsRatesAndUserCounters) {
  const RunResult run = read("gbench_repetitions.json");
  const BenchmarkResult& copy = named(run, "BM_copy/4096");
  EXPECT_EQ(copy.bytes_per_iteration, std::optional<std::uint64_t>(4096));
  EXPECT_EQ(copy.items_per_iteration, std::optional<std::uint64_t>(1));
  EXPECT_DOUBLE_EQ(copy.counters.at("size"), 4096.0);
  EXPECT_GT(copy.counters.at("copies_rate"), 0.0);
  // Written bare as NaN and Infinity by Google Benchmark.
  EXPECT_TRUE(std::isinf(copy.counters.at("unbounded")));
  EXPECT_EQ(copy.counters.count("undefined"), 0u) << "a NaN counter has no mean";
  // time_unit "us": 1000 additions take about a microsecond, far more than 1 ns per iteration.
  const BenchmarkResult& sum = named(run, "BM_sum_us");
  ASSERT_FALSE(sum.samples.empty());
  EXPECT_GT(sum.samples[0].ns / static_cast<double>(sum.samples[0].iters), 50.0);
}

// gbench_counters.cpp sets one counter of each of Google Benchmark's flags. Its JSON holds each
// counter as the flags made it, and no flag: benchkit keeps those values, as plain counters.
TEST(GbenchJson, UserCountersAreReadAsGoogleBenchmarkShowedThemWithTheLabel) {
  const RunResult run = read("gbench_counters.json");
  ASSERT_EQ(run.benchmarks.size(), 2u);
  for (const char* name : {"BM_counters/threads:1", "BM_counters/threads:2"}) {
    const BenchmarkResult& b = named(run, name);
    EXPECT_EQ(b.label, "compact") << name;
    EXPECT_TRUE(b.counter_kinds.empty()) << name << ": Google Benchmark's JSON has no flags";
    EXPECT_DOUBLE_EQ(b.counters.at("per_iteration"), 3.0) << name;  // kAvgIterations
    EXPECT_DOUBLE_EQ(b.counters.at("per_thread"), 8.0) << name;     // kAvgThreads
    // The mean of the repetitions' rates: each thread's 4096 bytes, added over the threads, over
    // the row's CPU time per iteration.
    double expected = 0.0;
    for (const Sample& sample : b.samples) {
      const double cpu_seconds =
          sample.counters.at("cpu_ns") * 1e-9 / static_cast<double>(sample.iters);
      expected += 4096.0 * model::thread_count(b) / cpu_seconds;
    }
    expected /= static_cast<double>(b.samples.size());
    EXPECT_NEAR(b.counters.at("bytes_rate") / expected, 1.0, 1e-9) << name;
  }
  // Google Benchmark adds a plain counter over its threads: 42 per thread.
  EXPECT_DOUBLE_EQ(named(run, "BM_counters/threads:1").counters.at("plain"), 42.0);
  EXPECT_DOUBLE_EQ(named(run, "BM_counters/threads:2").counters.at("plain"), 84.0);
  EXPECT_EQ(model::thread_count(named(run, "BM_counters/threads:2")), 2u);
}

// A command's run has its CPU time (user and system, from wait4): a `sleep 0.1` is 100 ms of
// real time and a millisecond of CPU. A micro benchmark records none, and its rows carry the
// wall time.
TEST(GbenchJson, ACommandsCpuTimeIsItsUserAndSystemTime) {
  RunResult run;
  BenchmarkResult command;
  command.name = "sleep 0.1";
  command.kind = "command";
  for (const double user_ms : {0.4, 0.6, 0.5}) {
    Sample sample{1, 100e6, {}, 0, {}, {}, {}, {}};
    sample.resources = Resources{};
    sample.resources->user_ns = user_ms * 1e6;
    sample.resources->system_ns = 0.5e6;
    command.samples.push_back(sample);
  }
  analysis::compute_estimates(command);
  run.benchmarks.push_back(command);
  BenchmarkResult micro;
  micro.name = "hash";
  micro.samples = {Sample{1000, 50'000.0, {}, 0, {}, {}, {}, {}},
                   Sample{1000, 60'000.0, {}, 0, {}, {}, {}, {}}};
  analysis::compute_estimates(micro);
  run.benchmarks.push_back(micro);
  const auto document = nlohmann::json::parse(to_gbench_json(run));
  std::vector<double> cpu_ms;
  for (const auto& row : document["benchmarks"]) {
    if (row["name"] == "sleep 0.1") cpu_ms.push_back(row["cpu_time"].get<double>() / 1e6);
    if (row["name"] == "sleep 0.1_median") {
      EXPECT_DOUBLE_EQ(row["cpu_time"].get<double>(), 1.0e6);
      EXPECT_DOUBLE_EQ(row["real_time"].get<double>(), 100e6);
    }
    if (row["name"] == "hash" && row["run_type"] == "iteration") {
      EXPECT_DOUBLE_EQ(row["cpu_time"].get<double>(), row["real_time"].get<double>());
    }
  }
  EXPECT_THAT(cpu_ms, ::testing::ElementsAre(0.9, 1.1, 1.0));
}

// Google Benchmark divides bytes by CPU time: a file's rows are written back with the rates it
// had (google/snappy's BM_UFlat/0/1 on a busy machine: 29.1 µs real, 24.2 µs CPU, 3.94 GiB/s;
// --format gbench wrote 3.27 GiB/s under the same key).
TEST(GbenchJson, AFilesRatesAreWrittenBackByItsCpuTime) {
  const std::string file = R"({"context": {"date": "2026-12-07T10:52:16+00:00", "num_cpus": 2},
    "benchmarks": [
     {"name": "BM_UFlat/0/1", "run_name": "BM_UFlat/0/1", "run_type": "iteration",
      "repetitions": 2, "repetition_index": 0, "threads": 1, "iterations": 100,
      "real_time": 29132.5, "cpu_time": 24227.6, "time_unit": "ns",
      "bytes_per_second": 4226590333.0791454, "label": "html"},
     {"name": "BM_UFlat/0/1", "run_name": "BM_UFlat/0/1", "run_type": "iteration",
      "repetitions": 2, "repetition_index": 1, "threads": 1, "iterations": 100,
      "real_time": 25000.0, "cpu_time": 24000.0, "time_unit": "ns",
      "bytes_per_second": 4266666666.6666665, "label": "html"}]})";
  const auto run = from_gbench_json(file, "snappy.json");
  ASSERT_TRUE(run) << run.error().message;
  const auto written = nlohmann::json::parse(to_gbench_json(*run));
  std::vector<double> rates;
  for (const auto& row : written["benchmarks"]) {
    if (row["run_type"] == "iteration") rates.push_back(row["bytes_per_second"].get<double>());
    if (row["name"] == "BM_UFlat/0/1_median") {
      // The median's rate: the bytes over the median CPU time (24113.8 ns).
      EXPECT_NEAR(row["bytes_per_second"].get<double>() / (102400 / 24113.8e-9), 1.0, 1e-5);
    }
  }
  // Within the file's own rounding of its times (24227.6 ns, to a tenth).
  ASSERT_EQ(rates.size(), 2u);
  EXPECT_NEAR(rates[0] / 4226590333.08, 1.0, 1e-5);
  EXPECT_NEAR(rates[1] / 4266666666.67, 1.0, 1e-5);
}

// A threaded row's rate too: Google Benchmark divides by the CPU time of all the threads
// (google/re2's Parse_Digits_RE2/threads:2: 2532.7 ns real, 3028.6 ns CPU, 330187 items/s).
TEST(GbenchJson, AThreadedRowsRatesAreWrittenBackByItsCpuTime) {
  const std::string file = R"({"context": {"date": "2026-12-07T14:20:00+00:00", "num_cpus": 2},
    "benchmarks": [
     {"name": "Parse_Digits_RE2/threads:2", "run_name": "Parse_Digits_RE2/threads:2",
      "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 2,
      "iterations": 42872, "real_time": 2532.66773184039, "cpu_time": 3028.586536667274,
      "time_unit": "ns", "items_per_second": 330187.03209993895}]})";
  const auto run = from_gbench_json(file, "re2.json");
  ASSERT_TRUE(run) << run.error().message;
  const auto written = nlohmann::json::parse(to_gbench_json(*run));
  bool seen = false;
  for (const auto& row : written["benchmarks"]) {
    if (row["run_type"] != "iteration") continue;
    seen = true;
    EXPECT_NEAR(row["items_per_second"].get<double>() / 330187.03209993895, 1.0, 1e-9);
    EXPECT_NEAR(row["cpu_time"].get<double>() / 3028.586536667274, 1.0, 1e-9);
  }
  EXPECT_TRUE(seen);
}

// CRoaring's synthetic_bench calls SetItemsProcessed(10000) and SetBytesProcessed once, not
// times the iterations: its rates give 3.65 items and 35.7 bytes an iteration in a row of 2738
// iterations (and other fractions in rows of other counts). No throughput is kept (rounded to 4
// and 36 it was off, and from 0.07 items nothing was said), and the warning says why; a whole
// amount in the same file is kept.
TEST(GbenchJson, ARateThatGivesAFractionOfAnItemAnIterationIsNotAThroughput) {
  const std::string file = R"({"context": {"date": "2026-12-07T22:22:44+00:00", "num_cpus": 2},
    "benchmarks": [
     {"name": "r64PortableSerialize/10000/65536", "run_name": "r64PortableSerialize/10000/65536",
      "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
      "iterations": 2738, "real_time": 254846.0, "cpu_time": 254836.0, "time_unit": "ns",
      "bytes_per_second": 139989.0, "items_per_second": 14332.1},
     {"name": "BM_copy", "run_name": "BM_copy", "run_type": "iteration", "repetitions": 1,
      "repetition_index": 0, "threads": 1, "iterations": 1000, "real_time": 100.5,
      "cpu_time": 100.0, "time_unit": "ns", "bytes_per_second": 640000000.0}]})";
  const auto run = from_gbench_json(file, "synthetic.json");
  ASSERT_TRUE(run) << run.error().message;
  const BenchmarkResult& fraction = named(*run, "r64PortableSerialize/10000/65536");
  EXPECT_FALSE(fraction.items_per_iteration);
  EXPECT_FALSE(fraction.bytes_per_iteration);
  ASSERT_EQ(fraction.diagnostics.size(), 1u);
  EXPECT_EQ(fraction.diagnostics[0].code, model::kWorkNotPerIteration);
  EXPECT_THAT(fraction.diagnostics[0].message,
              HasSubstr("items_per_second and bytes_per_second give 3.65 items an iteration"));
  EXPECT_THAT(fraction.diagnostics[0].message, HasSubstr("state.iterations()"));
  const BenchmarkResult& whole = named(*run, "BM_copy");
  EXPECT_EQ(whole.bytes_per_iteration, std::optional<std::uint64_t>(64));
  EXPECT_TRUE(whole.diagnostics.empty());
}

// Two registrations of one name (spdlog's formatter-bench registers "%l" twice): one benchmark
// of both's samples, which says so; the repetitions of one registration say nothing.
TEST(GbenchJson, ANameRegisteredTwiceIsOneBenchmarkThatSaysSo) {
  const auto row = [](int family, int repetition) {
    return fmt::format(R"({{"name": "%l", "family_index": {}, "per_family_instance_index": 0,
      "run_name": "%l", "run_type": "iteration", "repetitions": 2, "repetition_index": {},
      "threads": 1, "iterations": 1000, "real_time": 6.0, "cpu_time": 6.0, "time_unit": "ns"}})",
                       family, repetition);
  };
  const auto read_rows = [](const std::string& rows) {
    const auto run = from_gbench_json(
        R"({"context": {"date": "2026-12-07T14:30:00+00:00"}, "benchmarks": [)" + rows + "]}",
        "dup.json");
    EXPECT_TRUE(run) << run.error().message;
    return run ? *run : RunResult{};
  };
  const RunResult twice =
      read_rows(row(1, 0) + "," + row(1, 1) + "," + row(4, 0) + "," + row(4, 1));
  ASSERT_EQ(twice.benchmarks.size(), 1u);
  EXPECT_EQ(twice.benchmarks[0].samples.size(), 4u);
  ASSERT_EQ(twice.benchmarks[0].diagnostics.size(), 1u);
  EXPECT_EQ(twice.benchmarks[0].diagnostics[0].code, "duplicate_name");
  EXPECT_THAT(twice.benchmarks[0].diagnostics[0].message,
              HasSubstr("2 benchmarks of this suite are named %l"));
  const RunResult once = read_rows(row(1, 0) + "," + row(1, 1));
  ASSERT_EQ(once.benchmarks.size(), 1u);
  EXPECT_TRUE(once.benchmarks[0].diagnostics.empty());

  // Aggregates only (--benchmark_report_aggregates_only): each registration's median is a sample,
  // and the name says so too. frozen's BM_StrNotInStdArray wrote 443 and 370 ns; only the first
  // was read, without a word.
  const auto median = [](int family, double ns) {
    return fmt::format(R"({{"name": "%l_median", "family_index": {}, "per_family_instance_index": 0,
      "run_name": "%l", "run_type": "aggregate", "repetitions": 5, "threads": 1,
      "aggregate_name": "median", "aggregate_unit": "time", "iterations": 5, "real_time": {},
      "cpu_time": {}, "time_unit": "ns"}})",
                       family, ns, ns);
  };
  const RunResult aggregates = read_rows(median(11, 443.0) + "," + median(27, 370.3));
  ASSERT_EQ(aggregates.benchmarks.size(), 1u);
  const BenchmarkResult& pooled = aggregates.benchmarks[0];
  ASSERT_EQ(pooled.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(pooled.samples[0].ns, 443.0);
  EXPECT_DOUBLE_EQ(pooled.samples[1].ns, 370.3);
  std::vector<std::string> codes;
  for (const Diagnostic& d : pooled.diagnostics) codes.push_back(d.code);
  EXPECT_THAT(codes, ::testing::UnorderedElementsAre("aggregates_only", "duplicate_name"));
  const RunResult one_median = read_rows(median(11, 443.0));
  ASSERT_EQ(one_median.benchmarks.at(0).samples.size(), 1u);
  EXPECT_EQ(one_median.benchmarks[0].diagnostics.size(), 1u);
}

// A family's instances share its family_index, numbered within it, as Google Benchmark numbers
// them (cctz's BM_Format_ParseTime/0 to /6 were written as seven families), and read back as
// seven benchmarks, not one name registered seven times.
TEST(GbenchJson, TheInstancesOfAFamilyShareItsIndex) {
  RunResult run;
  for (const char* name : {"BM_Format/0", "BM_Format/1", "BM_Zone", "BM_Format/2"}) {
    BenchmarkResult b;
    b.name = name;
    b.samples = {Sample{1000, 50'000.0, {}, 0, {}, {}, {}, {}}};
    analysis::compute_estimates(b);
    run.benchmarks.push_back(b);
  }
  const auto rows = nlohmann::json::parse(to_gbench_json(run))["benchmarks"];
  ASSERT_EQ(rows.size(), 4u);
  std::vector<std::pair<int, int>> numbered;
  for (const auto& row : rows) {
    numbered.emplace_back(row["family_index"].get<int>(),
                          row["per_family_instance_index"].get<int>());
  }
  EXPECT_EQ(numbered, (std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {1, 0}, {0, 2}}));
  const auto back = from_gbench_json(to_gbench_json(run), "written");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->benchmarks.size(), 4u);
  for (const BenchmarkResult& b : back->benchmarks) EXPECT_TRUE(b.diagnostics.empty()) << b.name;
}

TEST(GbenchJson, CountersAndTheLabelAreWrittenAsGoogleBenchmarkWritesThem) {
  // A rate is written divided by each row's time, as Google Benchmark's are; the label on every
  // row; the values read back.
  RunResult run;
  BenchmarkResult b;
  b.name = "hash";
  b.samples = {Sample{1000, 50'000.0, {}, 0, {}, {}, {}, {}},
               Sample{1000, 100'000.0, {}, 0, {}, {}, {}, {}}};
  b.counters = {{"bytes", 64}, {"size", 4096}};
  b.counter_kinds = {{"bytes", counter::rate | counter::base_1024}};
  b.label = "text payload";
  analysis::compute_estimates(b);
  run.benchmarks.push_back(b);
  const auto document = nlohmann::json::parse(to_gbench_json(run));
  const auto& rows = document["benchmarks"];
  ASSERT_GE(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[0]["bytes"].get<double>(), 64 / 50e-9);   // 50 ns per iteration
  EXPECT_DOUBLE_EQ(rows[1]["bytes"].get<double>(), 64 / 100e-9);  // 100 ns per iteration
  EXPECT_DOUBLE_EQ(rows[0]["size"].get<double>(), 4096.0);
  for (const auto& row : rows) EXPECT_EQ(row["label"], "text payload") << row["name"];
  const auto back = from_gbench_json(to_gbench_json(run), "written");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->benchmarks.at(0).label, "text payload");
  EXPECT_DOUBLE_EQ(back->benchmarks.at(0).counters.at("bytes"), (64 / 50e-9 + 64 / 100e-9) / 2);
}

TEST(GbenchJson, AnErroredBenchmarkIsInvalidWithItsMessage) {
  const RunResult run = read("gbench_repetitions.json");
  const BenchmarkResult& fails = named(run, "BM_fails");
  EXPECT_FALSE(fails.valid());
  EXPECT_TRUE(fails.samples.empty());
  ASSERT_EQ(fails.failures.size(), 1u);  // three repetitions, one message
  EXPECT_THAT(fails.failures[0], HasSubstr("no input file"));
}

TEST(GbenchJson, AggregatesAreUsedOnlyWhenNoIterationRowExistsAndSaySo) {
  const RunResult run = read("gbench_aggregates_only.json");
  const BenchmarkResult& copy = named(run, "BM_copy/64");
  ASSERT_EQ(copy.samples.size(), 1u);
  ASSERT_EQ(copy.diagnostics.size(), 1u);
  EXPECT_EQ(copy.diagnostics[0].code, "aggregates_only");
  EXPECT_THAT(copy.diagnostics[0].message, HasSubstr("median"));
  EXPECT_THAT(copy.diagnostics[0].message, HasSubstr("--benchmark_report_aggregates_only"));
  // The file says how many repetitions the aggregates stand for; the code's own request, which no
  // flag undoes, is named beside the flag.
  EXPECT_THAT(copy.diagnostics[0].message, HasSubstr("aggregates of the 3 repetitions"));
  EXPECT_THAT(copy.diagnostics[0].message, HasSubstr("ReportAggregatesOnly()"));
  // The throughput is read from the aggregate, as from an iteration row.
  EXPECT_EQ(copy.bytes_per_iteration, std::optional<std::uint64_t>(64));
  EXPECT_EQ(copy.items_per_iteration, std::optional<std::uint64_t>(1));
  // The run's note: the repetitions ran in one process (not "once each", as a file without
  // repetitions is told).
  ASSERT_TRUE(model::has_one_process_warning(run.context));
  for (const Diagnostic& d : run.context.warnings) {
    if (d.code == model::kOneProcessRepetitions) {
      EXPECT_THAT(d.message, HasSubstr("every repetition of this file in one process"));
    }
  }
  // With iteration rows present, no such diagnostic.
  EXPECT_TRUE(named(read("gbench_repetitions.json"), "BM_copy/64").diagnostics.empty());
}

TEST(GbenchJson, TheContextBlockBecomesTheRunsContext) {
  const RunResult run = read("gbench_single.json");
  EXPECT_EQ(run.context.hostname, "fixture-host");
  EXPECT_EQ(run.context.executable, "./gbench_suite");
  EXPECT_EQ(run.context.logical_cpus, 2);
  EXPECT_FALSE(run.context.date.empty());
  EXPECT_THAT(run.context.tool_version, HasSubstr("Google Benchmark"));
  EXPECT_EQ(run.context.machine.count("caches"), 1u);
  EXPECT_EQ(run.context.machine.at("google_benchmark_build"), "debug");
}

TEST(GbenchJson, EveryNameGoogleBenchmarkListsIsABenchmark) {
  // gbench_names_list.txt is the suite's own --benchmark_list_tests: spaces, commas, angle
  // brackets, /threads:N, /real_time, /manual_time, /min_time:, /repeats:.
  const RunResult run = read("gbench_names.json");
  const std::vector<std::string> listed = lines_of(interop_fixture("gbench_names_list.txt"));
  ASSERT_EQ(listed.size(), 15u);
  for (const std::string& name : listed) {
    EXPECT_NO_THROW(named(run, name)) << name;
  }
  EXPECT_EQ(run.benchmarks.size(), listed.size()) << "no row of its own for an aggregate or a fit";
  for (const char* name :
       {"BM_Sequential<std::vector<int>,int>/512", "BM_Sequential<std::vector<long>, long>/64",
        "Dump/twitter / -", "BM_shared_sum/threads:2", "BM_shared_sum/real_time",
        "BM_manual/manual_time", "BM_shared_sum/min_time:0.010", "BM_shared_sum/repeats:3"}) {
    const BenchmarkResult& b = named(run, name);
    EXPECT_TRUE(b.valid()) << name;
    // Two repetitions (--benchmark_repetitions=2), and three for ->Repetitions(3).
    EXPECT_EQ(b.samples.size(), std::string(name).ends_with("repeats:3") ? 3u : 2u) << name;
  }
  EXPECT_EQ(named(run, "Dump/twitter / -").label, "compact");
  EXPECT_EQ(named(run, "Dump/twitter / -").params.count("label"), 0u) << "a label is no parameter";
  EXPECT_EQ(named(run, "Dump/twitter / 4").bytes_per_iteration, std::optional<std::uint64_t>(1000));
  EXPECT_DOUBLE_EQ(named(run, "BM_shared_sum/threads:2").counters.at("sums"), 1.0);
  EXPECT_THAT(named(run, "BM_fails").failures.at(0), HasSubstr("no input file"));
  EXPECT_THAT(named(run, "BM_skipped").failures.at(0), HasSubstr("needs a GPU"));
}

TEST(GbenchJson, AComplexityFitIsKeptAsTheRunsFitNotMadeABenchmark) {
  const RunResult run = read("gbench_names.json");
  for (const BenchmarkResult& b : run.benchmarks) EXPECT_NE(b.name, "BM_linear");
  // Google Benchmark's fit, structured; every size is a valid benchmark and a point of the sweep.
  ASSERT_EQ(run.complexity.size(), 1u);
  const ComplexityResult& fit = run.complexity[0];
  EXPECT_EQ(fit.family, "BM_linear");
  EXPECT_EQ(fit.big_o, "N");
  EXPECT_EQ(fit.source, "Google Benchmark");
  EXPECT_GT(fit.coefficient.value, 0.0);
  EXPECT_GT(fit.rms, 0.0);
  for (const char* size : {"BM_linear/64", "BM_linear/256", "BM_linear/1024", "BM_linear/4096"}) {
    EXPECT_TRUE(named(run, size).valid()) << size;
    ASSERT_TRUE(named(run, size).complexity) << size;
    EXPECT_EQ(named(run, size).complexity->family, "BM_linear");
    EXPECT_TRUE(named(run, size).diagnostics.empty()) << size;
  }
  EXPECT_DOUBLE_EQ(named(run, "BM_linear/4096").complexity->n, 4096.0);
}

// Google Benchmark names a fitted family by the benchmark's name and settings without its
// argument: "BM_sort/real_time" of "BM_sort/64/real_time" (UseRealTime), "BM_sort/repeats:3" of
// "BM_sort/64/repeats:3"; an ArgName names the argument ("BM_sort/size:64"). Each size is a point
// of the sweep, so that benchkit fits the samples beside Google Benchmark's fit.
TEST(GbenchJson, EveryFormOfAFittedFamilysNameGivesItsSizes) {
  for (const auto& [family, member] : std::vector<std::pair<std::string, std::string>>{
           {"BM_sort", "BM_sort/{}"},
           {"BM_sort", "BM_sort/size:{}"},
           {"BM_sort/real_time", "BM_sort/{}/real_time"},
           {"BM_sort/repeats:3", "BM_sort/{}/repeats:3"},
           {"BM_sort/repeats:3/threads:2", "BM_sort/size:{}/repeats:3/threads:2"},
           {"/dev/null/real_time", "/dev/null/{}/real_time"}}) {
    nlohmann::json rows = nlohmann::json::array();
    for (const int n : {64, 256}) {
      const std::string name = fmt::format(fmt::runtime(member), n);
      rows.push_back({{"name", name},
                      {"run_name", name},
                      {"run_type", "iteration"},
                      {"iterations", 1000},
                      {"real_time", n * 0.5},
                      {"cpu_time", n * 0.5},
                      {"time_unit", "ns"}});
    }
    rows.push_back({{"name", family + "_BigO"},
                    {"run_name", family},
                    {"run_type", "aggregate"},
                    {"aggregate_name", "BigO"},
                    {"cpu_coefficient", 0.5},
                    {"real_coefficient", 0.5},
                    {"big_o", "N"},
                    {"time_unit", "ns"}});
    rows.push_back({{"name", family + "_RMS"},
                    {"run_name", family},
                    {"run_type", "aggregate"},
                    {"aggregate_name", "RMS"},
                    {"rms", 0.01}});
    const nlohmann::json document = {{"context", nlohmann::json::object()}, {"benchmarks", rows}};
    const auto run = from_gbench_json(document.dump(), "f.json");
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_EQ(run->complexity.size(), 1u) << family;
    EXPECT_EQ(run->complexity[0].family, family);
    ASSERT_EQ(run->benchmarks.size(), 2u) << family;
    for (const int n : {64, 256}) {
      const std::string name = fmt::format(fmt::runtime(member), n);
      const auto& point = named(*run, name).complexity;
      ASSERT_TRUE(point) << name << " of " << family;
      EXPECT_EQ(point->family, family);
      EXPECT_DOUBLE_EQ(point->n, n) << name;
    }
  }
  // Two arguments: which one is the size is not said, so none is taken.
  const nlohmann::json two = {{"context", nlohmann::json::object()},
                              {"benchmarks",
                               {{{"name", "BM_pair/8/64"},
                                 {"run_type", "iteration"},
                                 {"iterations", 10},
                                 {"real_time", 1.0},
                                 {"cpu_time", 1.0},
                                 {"time_unit", "ns"}},
                                {{"name", "BM_pair_BigO"},
                                 {"run_name", "BM_pair"},
                                 {"run_type", "aggregate"},
                                 {"aggregate_name", "BigO"},
                                 {"cpu_coefficient", 0.5},
                                 {"big_o", "N"},
                                 {"time_unit", "ns"}}}}};
  const auto run = from_gbench_json(two.dump(), "f.json");
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_FALSE(named(*run, "BM_pair/8/64").complexity);
}

TEST(GbenchJson, AFilesContextIsWrittenBackAsItWas) {
  // A debug build of the library (symious/malloc-post's results): written again as gbench, the
  // file must not turn into a release build's, nor lose its load and CPU scaling.
  const auto run = from_gbench_json(
      R"({"context": {"date": "2026-03-18T00:14:48+08:00", "host_name": "zmc", "num_cpus": 32,
          "mhz_per_cpu": 5756, "cpu_scaling_enabled": true, "aslr_enabled": false,
          "load_avg": [3.85, 1.85, 0.79], "library_version": "v1.9.4",
          "library_build_type": "debug", "json_schema_version": 1},
          "benchmarks": [{"name": "BM_a", "run_type": "iteration", "iterations": 10,
                          "real_time": 5, "cpu_time": 5, "time_unit": "ns"}]})",
      "f.json");
  ASSERT_TRUE(run) << run.error().message;
  const auto context = nlohmann::json::parse(to_gbench_json(*run)).at("context");
  EXPECT_EQ(context.at("library_build_type"), "debug");
  EXPECT_EQ(context.at("library_version"), "v1.9.4");
  EXPECT_EQ(context.at("cpu_scaling_enabled"), true);
  EXPECT_EQ(context.at("aslr_enabled"), false);
  EXPECT_EQ(context.at("load_avg"), nlohmann::json({3.85, 1.85, 0.79}));
  EXPECT_EQ(context.at("mhz_per_cpu"), 5756.0);
}

TEST(GbenchJson, AFitReadWithoutItsSizesIsWrittenBack) {
  // google/benchmark's tools/gbench/Inputs/test1_run1.json: MyComplexityTest's BigO and RMS
  // rows, none of its sizes.
  const auto run = from_gbench_json(
      R"({"context": {}, "benchmarks": [
          {"name": "BM_a", "iterations": 10, "real_time": 5, "cpu_time": 5, "time_unit": "ns"},
          {"name": "MyComplexityTest_BigO", "run_name": "MyComplexityTest",
           "run_type": "aggregate", "aggregate_name": "BigO", "cpu_coefficient": 4.27,
           "real_coefficient": 6.48, "big_o": "N", "time_unit": "ns"},
          {"name": "MyComplexityTest_RMS", "run_name": "MyComplexityTest",
           "run_type": "aggregate", "aggregate_name": "RMS", "rms": 0.0045}]})",
      "f.json");
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->complexity.size(), 1u);
  const auto rows = nlohmann::json::parse(to_gbench_json(*run)).at("benchmarks");
  std::vector<std::string> names;
  for (const auto& row : rows) names.push_back(row.at("name"));
  EXPECT_THAT(names, ::testing::Contains("MyComplexityTest_BigO"));
  EXPECT_THAT(names, ::testing::Contains("MyComplexityTest_RMS"));
}

TEST(GbenchJson, ADebugBuildOfTheLibraryIsWarnedAboutOnce) {
  const RunResult run = read("gbench_names.json");  // Debian's libbenchmark-dev says "debug"
  std::size_t warnings = 0;
  for (const Diagnostic& d : run.context.warnings) {
    if (d.code == "google_benchmark_debug_build") ++warnings;
  }
  EXPECT_EQ(warnings, 1u);
}

TEST(GbenchJson, ImportedRunMatchesTheGoldenFile) {
  RunResult run = read("gbench_repetitions.json");
  analysis::compute_estimates(run);
  testing::expect_golden("import_gbench_repetitions.json", to_json(run));
}

TEST(GbenchJson, NewerSchemaVersionNamesTheFileAndTheFix) {
  const auto run = from_gbench_json(interop_fixture("gbench_newer_schema.json"), "new.json");
  ASSERT_FALSE(run);
  EXPECT_THAT(run.error().message, HasSubstr("new.json: context.json_schema_version: is 2"));
  EXPECT_THAT(run.error().message, HasSubstr("update benchkit"));
}

TEST(GbenchJson, TruncatedFileSaysSo) {
  const std::string text = interop_fixture("gbench_single.json");
  const auto run = from_gbench_json(text.substr(0, text.size() / 2), "cut.json");
  ASSERT_FALSE(run);
  EXPECT_THAT(run.error().message, HasSubstr("cut.json: not valid JSON"));
  EXPECT_THAT(run.error().message, HasSubstr("truncated"));
}

TEST(GbenchJson, BadRowsNameTheirPlace) {
  const auto bad_unit = from_gbench_json(
      R"({"context": {}, "benchmarks": [{"name": "a", "real_time": 1, "time_unit": "ps"}]})", "f");
  ASSERT_FALSE(bad_unit);
  EXPECT_THAT(bad_unit.error().message, HasSubstr("f: benchmarks[0].time_unit"));
  const auto no_name =
      from_gbench_json(R"({"context": {}, "benchmarks": [{"real_time": 1}]})", "f");
  ASSERT_FALSE(no_name);
  EXPECT_THAT(no_name.error().message, HasSubstr("benchmarks[0].name: missing"));
  const auto nan_time = from_gbench_json(
      R"({"context": {}, "benchmarks": [{"name": "a", "iterations": 5, "real_time": NaN}]})", "f");
  ASSERT_TRUE(nan_time) << nan_time.error().message;
  EXPECT_FALSE(nan_time->benchmarks[0].valid());
}

TEST(GbenchJson, SkippedRowsAreInvalid) {
  const auto run = from_gbench_json(
      R"({"context": {"json_schema_version": 1}, "benchmarks": [{"name": "a", "run_type":
      "iteration", "skipped": true, "skip_message": "needs AVX-512", "iterations": 0}]})",
      "f");
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_THAT(run->benchmarks[0].failures.at(0), HasSubstr("needs AVX-512"));
}

TEST(GbenchJson, WrittenRunMatchesTheGoldenFile) {
  testing::expect_golden("gbench.json", to_gbench_json(testing::sample_run()));
}

TEST(GbenchJson, WhatIsWrittenReadsBackWithTheSameSamples) {
  const RunResult original = testing::sample_run();
  const auto back = from_gbench_json(to_gbench_json(original), "written");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->benchmarks.size(), original.benchmarks.size());
  for (std::size_t b = 0; b < original.benchmarks.size(); ++b) {
    const BenchmarkResult& was = original.benchmarks[b];
    const BenchmarkResult& is = back->benchmarks[b];
    EXPECT_EQ(is.name, was.name);
    EXPECT_EQ(is.bytes_per_iteration, was.bytes_per_iteration);
    EXPECT_EQ(is.items_per_iteration, was.items_per_iteration);
    ASSERT_EQ(is.samples.size(), was.samples.size());
    const std::vector<double> expected = was.per_iteration_ns();
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_NEAR(is.per_iteration_ns()[i], expected[i], 1e-9 * expected[i]);
    }
  }
}

TEST(GbenchJson, WrittenDocumentHasWhatDashboardsRequire) {
  const auto document = nlohmann::json::parse(to_gbench_json(testing::sample_run()));
  // Bencher's cpp_google adapter: context.caches, and name, real_time and time_unit per row.
  EXPECT_TRUE(document["context"]["caches"].is_array());
  for (const auto& row : document["benchmarks"]) {
    EXPECT_TRUE(row["name"].is_string());
    EXPECT_TRUE(row["real_time"].is_number());
    EXPECT_TRUE(row["cpu_time"].is_number());  // compare.py reads both
    EXPECT_EQ(row["time_unit"], "ns");
    EXPECT_TRUE(row["run_type"] == "iteration" || row["run_type"] == "aggregate");
  }
}

// A threaded benchmark is written as Google Benchmark writes ->Threads(N): "/threads:N", threads
// N, the iterations of all the threads and the time per iteration of all of them (benchkit's
// median is one thread's); the rates are of all the threads already.
TEST(GbenchJson, AThreadedBenchmarkIsWrittenAsGoogleBenchmarkNamesThreads) {
  RunResult run;
  BenchmarkResult b;
  b.name = "counter/size=8/threads=4";
  b.params = {{"size", "8"}, {"threads", "4"}};
  b.items_per_iteration = 4;  // 1 per thread, as the engine records it
  for (const double ns : {40000.0, 44000.0, 42000.0}) {
    Sample sample;
    sample.iters = 1000;
    sample.ns = ns;
    b.samples.push_back(sample);
  }
  analysis::compute_estimates(b);
  run.benchmarks.push_back(b);
  const auto document = nlohmann::json::parse(to_gbench_json(run));
  const auto& rows = document["benchmarks"];
  ASSERT_GE(rows.size(), 4u);
  const auto& first = rows[0];
  EXPECT_EQ(first["name"], "counter/size=8/threads:4");
  EXPECT_EQ(first["run_name"], "counter/size=8/threads:4");
  EXPECT_EQ(first["threads"], 4);
  EXPECT_EQ(first["iterations"], 4000);
  EXPECT_DOUBLE_EQ(first["real_time"].get<double>(), 10.0);  // 40 ns per thread ÷ 4
  // 4 items per 40 ns iteration of the four threads: 1e8 items per second.
  EXPECT_DOUBLE_EQ(first["items_per_second"].get<double>(), 1e8);
  bool median_seen = false;
  for (const auto& row : rows) {
    if (row["name"] != "counter/size=8/threads:4_median") continue;
    median_seen = true;
    EXPECT_EQ(row["threads"], 4);
    EXPECT_DOUBLE_EQ(row["real_time"].get<double>(), 42.0 / 4);
  }
  EXPECT_TRUE(median_seen);
}

TEST(GbenchJson, AnUnthreadedBenchmarkKeepsItsNameAndOneThread) {
  RunResult run;
  BenchmarkResult b;
  b.name = "plain/threads_total=3";  // a parameter that only looks like it
  b.params = {{"threads_total", "3"}};
  Sample sample;
  sample.iters = 10;
  sample.ns = 100.0;
  b.samples.push_back(sample);
  analysis::compute_estimates(b);
  run.benchmarks.push_back(b);
  const auto document = nlohmann::json::parse(to_gbench_json(run));
  EXPECT_EQ(document["benchmarks"][0]["name"], "plain/threads_total=3");
  EXPECT_EQ(document["benchmarks"][0]["threads"], 1);
  EXPECT_DOUBLE_EQ(document["benchmarks"][0]["real_time"].get<double>(), 10.0);
}

}  // namespace
}  // namespace benchkit::formats
