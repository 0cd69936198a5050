#include "session/gbench_binary.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "model/merge.hpp"
#include "process/handshake.hpp"
#include "process/temporary_folder.hpp"
#include "process/turns.hpp"
#include "support/test_programs.hpp"
#include "system/context.hpp"

namespace benchkit::session {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

const std::string kSuite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite";
using benchkit::testing::kGbenchSuiteSlower;
// Every form of name, and a main() of its own that ignores flags it does not know.
const std::string kGbenchNames = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_names";
const std::string kBenchkitBinary = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
// A suite whose main() takes arguments of its own (gbench_own_arguments.cpp: a chatty program,
// a crash, a hang, a costly set-up, ... on request).
const std::string kOwnArguments = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_own_arguments";
// Short runs: these tests check what is run and merged, not how fast anything is.
const std::vector<std::string> kQuick = {"--benchmark_min_time=0.005"};

TEST(GbenchBinary, RecognisesAGoogleBenchmarkBinaryBeforeRunningIt) {
  EXPECT_TRUE(links_google_benchmark(kSuite));
  EXPECT_FALSE(links_google_benchmark(kBenchkitBinary));
  EXPECT_FALSE(links_google_benchmark("/bin/sh"));
  EXPECT_FALSE(links_google_benchmark("/no/such/file"));
}

TEST(GbenchBinary, ASuiteWithItsOwnMainIsNeverAskedBenchkitsHandshake) {
  // Its main() would ignore --benchkit-info and run every benchmark it has.
  const auto handshake = process::probe_bench_binary(kGbenchNames);
  ASSERT_TRUE(handshake) << handshake.error().message;
  EXPECT_FALSE(handshake->benchkit);
  EXPECT_THAT(handshake->problem, HasSubstr("links Google Benchmark, so it was not asked"));
}

TEST(GbenchBinary, ListsEveryFormOfName) {
  const auto names = list_gbench_benchmarks(kGbenchNames);
  ASSERT_TRUE(names) << names.error().message;
  std::ifstream in(std::string(BENCHKIT_TEST_FIXTURES) + "/interop/gbench_names_list.txt");
  std::vector<std::string> expected;
  for (std::string line; std::getline(in, line);) expected.push_back(line);
  EXPECT_EQ(*names, expected);
}

TEST(GbenchBinary, AFilterThatMatchesNothingSaysSo) {
  const auto names = list_gbench_benchmarks(kGbenchNames, {"--benchmark_filter=^BM_nothing$"});
  ASSERT_FALSE(names);
  EXPECT_EQ(names.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(names.error().message,
              HasSubstr("--benchmark_filter=\"^BM_nothing$\" matches no benchmark of"));
  GbenchProcesses plan;
  plan.executable = kGbenchNames;
  plan.processes = 1;
  plan.flags = {"--benchmark_filter=^BM_nothing$"};
  const auto run = run_gbench_processes(plan);
  ASSERT_FALSE(run);
  EXPECT_THAT(run.error().message, HasSubstr("matches no benchmark"));
}

TEST(GbenchBinary, FlagsThatTakeBenchkitsResultsFileAreRefusedWithWhatToUse) {
  for (const std::string flag : {"--benchmark_out=mine.json", "--benchmark_out_format=csv"}) {
    const auto names = list_gbench_benchmarks(kGbenchNames, {"--benchmark_filter=BM_", flag});
    ASSERT_FALSE(names) << flag;
    EXPECT_EQ(names.error().kind, model::ErrorKind::usage);
    EXPECT_THAT(names.error().message, HasSubstr(flag + ": benchkit gives every process"));
    EXPECT_THAT(names.error().message, HasSubstr("--export-json FILE"));
  }
  const auto listing = list_gbench_benchmarks(kGbenchNames, {"--benchmark_list_tests=true"});
  ASSERT_FALSE(listing);
  EXPECT_THAT(listing.error().message, HasSubstr("to list them, run the binary itself"));
  // Google Benchmark's other flags pass.
  EXPECT_TRUE(list_gbench_benchmarks(kGbenchNames, {"--benchmark_min_time=0.01"}));
}

TEST(GbenchBinary, FiltersAreGroupedByKeyAndNeverOverTheLongestFilter) {
  // 30 KiB names: two fit in one filter of at most 64 KiB, three do not.
  const std::vector<std::string> names = {std::string(30'000, 'a'), std::string(30'000, 'b'),
                                          std::string(30'000, 'c'), "short", "other"};
  const auto name_of = [&](std::size_t k) { return names[k]; };
  const std::vector<std::size_t> all = {0, 1, 2, 3, 4};
  EXPECT_THAT(filter_groups(all, name_of, [](std::size_t) { return 0; }),
              ElementsAre(ElementsAre(0, 1), ElementsAre(2, 3, 4)));
  // By key (even and odd): each item joins the last group of its key, in the order given; a and
  // c fill 60 KiB of theirs, which still has room for "other".
  EXPECT_THAT(filter_groups(all, name_of, [](std::size_t k) { return k % 2; }),
              ElementsAre(ElementsAre(0, 2, 4), ElementsAre(1, 3)));
  EXPECT_THAT(filter_groups({4, 3}, name_of, [](std::size_t) { return 0; }),
              ElementsAre(ElementsAre(4, 3)));
  // One name longer than the limit still gets a process of its own.
  const std::vector<std::string> huge = {std::string(70'000, 'x'), "y"};
  EXPECT_THAT(filter_groups(
                  {0, 1}, [&](std::size_t k) { return huge[k]; }, [](std::size_t) { return 0; }),
              ElementsAre(ElementsAre(0), ElementsAre(1)));
}

TEST(GbenchBinary, TheBannerIsRecognisedLineByLine) {
  std::ifstream in(std::string(BENCHKIT_TEST_FIXTURES) + "/interop/gbench_names_stderr.txt");
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    EXPECT_TRUE(is_gbench_banner_line(line)) << line;
  }
  EXPECT_GE(lines, 4u);
  // Lines of the banner on machines that report their caches.
  EXPECT_TRUE(is_gbench_banner_line("CPU Caches:"));
  EXPECT_TRUE(is_gbench_banner_line("  L1 Data 32 KiB (x2)"));
  EXPECT_TRUE(
      is_gbench_banner_line("***WARNING*** CPU scaling is enabled, the benchmark real "
                            "time measurements may be noisy and will incur extra "
                            "overhead."));
  EXPECT_FALSE(is_gbench_banner_line("cannot open input.json"));
}

TEST(GbenchBinary, EveryFormOfNameRunsAloneAndSideBySide) {
  // Selected one at a time by an escaped filter, in processes whose banner is never passed on.
  const std::vector<std::string> chosen = {"Dump/twitter / -",
                                           "BM_Sequential<std::vector<long>, long>/64",
                                           "BM_shared_sum/threads:2", "BM_manual/manual_time"};
  std::vector<std::string> notes;
  for (const std::string& name : chosen) {
    GbenchProcesses plan;
    plan.executable = kGbenchNames;
    plan.processes = 1;
    plan.flags = {"--benchmark_min_time=0.001", "--benchmark_filter=" + exact_gbench_filter(name)};
    plan.note = [&](const std::string& line) { notes.push_back(line); };
    const auto run = run_gbench_processes(plan);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_EQ(run->benchmarks.size(), 1u) << name;
    EXPECT_EQ(run->benchmarks[0].name, name);
    EXPECT_TRUE(run->benchmarks[0].valid()) << name;
  }
  EXPECT_TRUE(notes.empty()) << notes.front();
  GbenchSideBySide pairs;
  pairs.baseline_executable = kGbenchNames;
  pairs.candidate_executable = kGbenchNames;
  pairs.benchmarks = {chosen[0], chosen[1]};
  pairs.rounds = 2;
  pairs.flags = {"--benchmark_min_time=0.001"};
  const auto runs = run_gbench_side_by_side(pairs);
  ASSERT_TRUE(runs) << runs.error().message;
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    for (const BenchmarkResult& b : side->benchmarks) {
      EXPECT_TRUE(b.valid()) << b.name << ": " << (b.failures.empty() ? "" : b.failures[0]);
      EXPECT_EQ(b.samples.size(), 2u) << b.name;
    }
    EXPECT_FALSE(model::has_one_process_warning(side->context)) << "a fresh process per round";
  }
  // Each sample says which process of its round came first (Sample::turn), so that the
  // comparison cancels what coming second does: the two sides of a round differ, and a side
  // that ran first in round 0 runs second in round 1.
  for (std::size_t k = 0; k < 2; ++k) {
    std::vector<std::uint32_t> base_turns;
    for (std::size_t side = 0; side < 2; ++side) {
      const BenchmarkResult& b = (side == 0 ? runs->baseline : runs->candidate).benchmarks[k];
      ASSERT_EQ(b.samples.size(), 2u);
      for (const Sample& sample : b.samples) {
        ASSERT_TRUE(sample.turn.has_value()) << b.name;
        ASSERT_TRUE(sample.round.has_value()) << b.name;
        if (side == 0) {
          base_turns.push_back(*sample.turn);
        } else {
          EXPECT_EQ(*sample.turn, 1 - base_turns[*sample.round]) << b.name;
        }
      }
    }
    EXPECT_NE(base_turns[0], base_turns[1]) << "the order alternates by round";
  }
}

TEST(GbenchBinary, BothProcessesOfARoundRunOnOneCpu) {
  // gbench_cpu's one benchmark reports how many CPUs its process may use and the first of them.
  const std::string where = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_cpu";
  const std::vector<int> cpus = process::allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  GbenchSideBySide pairs;
  pairs.baseline_executable = where;
  pairs.candidate_executable = where;
  pairs.benchmarks = {"BM_where"};
  pairs.rounds = 1;
  pairs.flags = kQuick;
  // Round 0 on the first CPU this process may use; with cpus given, on cpus[round % size].
  for (const std::vector<int>& given : {std::vector<int>{}, std::vector<int>{cpus.back()}}) {
    pairs.cpus = given;
    const auto runs = run_gbench_side_by_side(pairs);
    ASSERT_TRUE(runs) << runs.error().message;
    const int expected = given.empty() ? cpus.front() : given.front();
    for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
      ASSERT_EQ(side->benchmarks.size(), 1u);
      const BenchmarkResult& b = side->benchmarks[0];
      ASSERT_TRUE(b.valid()) << (b.failures.empty() ? "" : b.failures[0]);
      EXPECT_EQ(b.counters.at("allowed_cpus"), 1.0);
      EXPECT_EQ(b.counters.at("first_cpu"), static_cast<double>(expected));
    }
  }
  EXPECT_EQ(process::allowed_cpus(), cpus) << "this process keeps its CPUs";
}

TEST(GbenchBinary, AComplexitySweepRunsWithoutAFailedBenchmark) {
  GbenchProcesses plan;
  plan.executable = kGbenchNames;
  plan.processes = 2;
  plan.flags = {"--benchmark_min_time=0.001", "--benchmark_filter=^BM_linear"};
  const auto run = run_gbench_processes(plan);
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->benchmarks.size(), 4u);  // 64, 256, 1024, 4096; the fit is no benchmark
  for (const BenchmarkResult& b : run->benchmarks) EXPECT_TRUE(b.valid()) << b.name;
  // Google Benchmark's fit (of the first process), and benchkit's on every process's samples.
  ASSERT_EQ(run->complexity.size(), 2u);
  EXPECT_EQ(run->complexity[0].source, "Google Benchmark");
  EXPECT_EQ(run->complexity[1].family, "BM_linear");
  EXPECT_TRUE(run->complexity[1].source.empty());
  EXPECT_FALSE(model::has_one_process_warning(run->context)) << "two processes";
}

TEST(GbenchBinary, ListsTheSuitesBenchmarks) {
  const auto names = list_gbench_benchmarks(kSuite);
  ASSERT_TRUE(names) << names.error().message;
  EXPECT_THAT(*names, ElementsAre("BM_sum", "BM_accumulate/4096"));
  const auto not_one = list_gbench_benchmarks("/bin/false");
  ASSERT_FALSE(not_one);
  EXPECT_THAT(not_one.error().message, HasSubstr("exited with status 1"));
  // A program that prints something else is not a suite either.
  const auto echo = list_gbench_benchmarks("/bin/echo");
  ASSERT_FALSE(echo);
  EXPECT_THAT(echo.error().message, HasSubstr("did not answer as Google Benchmark does"));
}

TEST(GbenchBinary, AProcessGetsThreeShortRepetitionsUnlessTheUserSetThem) {
  EXPECT_THAT(gbench_turn_flags({}),
              ElementsAre("--benchmark_repetitions=3", "--benchmark_min_time=0.008"));
  EXPECT_THAT(gbench_turn_flags({"--benchmark_repetitions=3"}),
              ElementsAre("--benchmark_min_time=0.008"));
  EXPECT_THAT(gbench_turn_flags({"--benchmark_min_time=2", "--benchmark_filter=x"}),
              ElementsAre("--benchmark_repetitions=3"));
  EXPECT_THAT(gbench_turn_flags({"--benchmark_min_time=100x", "--benchmark_repetitions=1"}),
              IsEmpty());
  // A flag that only begins like one of them is not it.
  EXPECT_THAT(gbench_turn_flags({"--benchmark_repetitions_extra=1"}),
              ElementsAre("--benchmark_repetitions=3", "--benchmark_min_time=0.008"));
}

TEST(GbenchBinary, AMinTimeIsSpeltWithTheSuffixOnceTheBinaryAsksForIt) {
  // Google Benchmark 1.9.5's log for a bare number, written without a newline, once a benchmark.
  const std::string request =
      "-- LOG(0): Value passed to --benchmark_min_time should have a suffix. Eg., `30s` for "
      "30-seconds.";
  const std::vector<std::string> given = {"--benchmark_repetitions=3", "--benchmark_min_time=0.008",
                                          "--benchmark_filter=^BM_a$"};
  MinTimeSpelling spelling;
  // Before 1.8 only the bare number is read; so it is until the binary says otherwise.
  EXPECT_EQ(spelling.spelled(given), given);
  EXPECT_THAT(spelling.heard({"a warning of the suite's own", "***WARNING*** CPU scaling"}),
              ElementsAre("a warning of the suite's own", "***WARNING*** CPU scaling"));
  EXPECT_FALSE(spelling.reads_suffix());
  // Three benchmarks' requests glued on one line, and one before a line of the suite's own: only
  // the requests go.
  EXPECT_THAT(
      spelling.heard({request + request + request, request + "the suite says this", "after them"}),
      ElementsAre("the suite says this", "after them"));
  EXPECT_TRUE(spelling.reads_suffix());
  EXPECT_THAT(spelling.spelled(given),
              ElementsAre("--benchmark_repetitions=3", "--benchmark_min_time=0.008s",
                          "--benchmark_filter=^BM_a$"));
  // A value already with a unit is left alone.
  EXPECT_THAT(spelling.spelled({"--benchmark_min_time=2s", "--benchmark_min_time=100x"}),
              ElementsAre("--benchmark_min_time=2s", "--benchmark_min_time=100x"));
}

// A stand-in for a suite built with Google Benchmark 1.8 or later, as far as benchkit sees it:
// it lists like Google Benchmark, logs the request for a suffix (no newline) when its
// --benchmark_min_time is a bare number, writes one result of BM_sum to --benchmark_out, and
// appends its flags to `log`, a line a process.
std::string write_suite_of_gbench_1_8(const std::string& folder, const std::string& log) {
  const std::string path = folder + "/gb18.sh";
  std::ofstream script(path);
  script << "#!/bin/sh\n"
            "out=''\n"
            "for flag in \"$@\"; do\n"
            "  case \"$flag\" in\n"
            "    --benchmark_list_tests=true) list=1 ;;\n"
            "    --benchmark_filter=*benchkit\\ probe*) nothing=1 ;;\n"
            "    --benchmark_out=*) out=\"${flag#--benchmark_out=}\" ;;\n"
            "    --benchmark_min_time=*s) ;;\n"
            "    --benchmark_min_time=*) printf '%s' '-- LOG(0): Value passed to "
            "--benchmark_min_time should have a suffix. Eg., `30s` for 30-seconds.' >&2 ;;\n"
            "  esac\n"
            "done\n"
            "if [ -n \"$list\" ]; then\n"
            "  if [ -n \"$nothing\" ]; then\n"
            "    echo 'Failed to match any benchmarks against regex: x' >&2; exit 0\n"
            "  fi\n"
            "  echo BM_sum; exit 0\n"
            "fi\n"
            "echo \"$*\" >> '"
         << log
         << "'\n"
            "cat > \"$out\" <<'JSON'\n"
            "{\"context\": {\"date\": \"2026-12-06T22:30:00+00:00\", \"host_name\": \"h\",\n"
            " \"executable\": \"gb18\", \"num_cpus\": 2, \"mhz_per_cpu\": 2600,\n"
            " \"cpu_scaling_enabled\": false, \"caches\": [], \"load_avg\": [],\n"
            " \"library_build_type\": \"release\"},\n"
            " \"benchmarks\": [{\"name\": \"BM_sum\", \"run_name\": \"BM_sum\",\n"
            "  \"run_type\": \"iteration\", \"repetitions\": 1, \"repetition_index\": 0,\n"
            "  \"threads\": 1, \"iterations\": 1000, \"real_time\": 10.0, \"cpu_time\": 10.0,\n"
            "  \"time_unit\": \"ns\"}]}\n"
            "JSON\n";
  script.close();
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

// A folder with the stand-in suite, removed after the test.
class GbenchOf18 : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = process::make_temporary_folder("benchkit-gb18-test");
    ASSERT_TRUE(made) << made.error().message;
    folder_ = *made;
    suite_ = write_suite_of_gbench_1_8(folder_, folder_ + "/argv.log");
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  const std::string& suite() const { return suite_; }
  // The flags of each process the stand-in ran, one a line.
  std::vector<std::string> processes_flags() const {
    std::ifstream in(folder_ + "/argv.log");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

 private:
  std::string folder_;
  std::string suite_;
};

TEST_F(GbenchOf18, IsGivenTheSuffixOnceItAsksAndItsRequestIsNoNote) {
  GbenchProcesses plan;
  plan.executable = suite();
  plan.processes = 3;
  plan.min_time_s = 0.5 / 3;
  std::vector<std::string> notes;
  plan.note = [&](const std::string& line) { notes.push_back(line); };
  const auto run = run_gbench_processes(plan);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->benchmarks.size(), 1u);
  const std::vector<std::string> lines = processes_flags();
  ASSERT_EQ(lines.size(), 3u);
  // The first process is given the bare number every version reads; it asks for the suffix, so
  // the others get it; and the request is not passed on as a note of the run.
  EXPECT_THAT(lines[0], HasSubstr("--benchmark_min_time=0.166667 "));
  EXPECT_THAT(lines[1], HasSubstr("--benchmark_min_time=0.166667s "));
  EXPECT_THAT(lines[2], HasSubstr("--benchmark_min_time=0.166667s "));
  EXPECT_THAT(notes, IsEmpty());

  // The user's own bare number is theirs: given as it is, and Google Benchmark's request about
  // it reaches them.
  plan.min_time_s.reset();
  plan.processes = 1;
  plan.flags = {"--benchmark_min_time=0.2"};
  ASSERT_TRUE(run_gbench_processes(plan));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_THAT(notes[0], HasSubstr("should have a suffix"));
}

TEST_F(GbenchOf18, EachSideOfAComparisonIsSpeltForItsOwnGoogleBenchmark) {
  // The baseline links Debian's Google Benchmark 1.7.1, which refuses "0.008s"; the new build a
  // later one: a suffix learned from one side given to the other would fail the baseline.
  GbenchSideBySide plan;
  plan.baseline_executable = kSuite;
  plan.candidate_executable = suite();
  plan.benchmarks = {"BM_sum"};
  plan.rounds = 2;
  plan.turn_flags = true;
  std::vector<std::string> notes;
  plan.note = [&](const std::string& line) { notes.push_back(line); };
  const auto runs = run_gbench_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  // The baseline's processes ran both rounds: it was never given the suffix.
  const BenchmarkResult& baseline = runs->baseline.benchmarks.at(0);
  ASSERT_TRUE(baseline.valid()) << baseline.failures.front();
  ASSERT_FALSE(baseline.samples.empty());
  EXPECT_EQ(baseline.samples.back().round, std::optional<std::uint32_t>(1));
  const std::vector<std::string> lines = processes_flags();
  ASSERT_EQ(lines.size(), 2u);
  const std::regex bare("--benchmark_min_time=[0-9.]+ ");
  const std::regex suffixed("--benchmark_min_time=[0-9.]+s ");
  EXPECT_TRUE(std::regex_search(lines[0], bare)) << lines[0];
  EXPECT_TRUE(std::regex_search(lines[1], suffixed)) << lines[1];
  for (const std::string& note : notes) EXPECT_THAT(note, Not(HasSubstr("suffix")));
}

TEST(GbenchBinary, ARunsProcessesShareGoogleBenchmarksHalfSecondABenchmark) {
  EXPECT_EQ(gbench_process_min_time({}, 5), 0.1);
  EXPECT_EQ(gbench_process_min_time({"--benchmark_filter=x"}, 10), 0.05);
  EXPECT_EQ(gbench_process_min_time({"--benchmark_repetitions=3"}, 2), 0.25);
  // One process measures as the suite alone does; the user's choice is kept whole.
  EXPECT_EQ(gbench_process_min_time({}, 1), std::nullopt);
  EXPECT_EQ(gbench_process_min_time({"--benchmark_min_time=2"}, 5), std::nullopt);
  EXPECT_EQ(gbench_process_min_time({"--benchmark_min_time=100x"}, 5), std::nullopt);
  EXPECT_EQ(gbench_process_min_time({"--benchmark_min_time_extra=1"}, 5), 0.1);
}

TEST(GbenchBinary, EveryIterationGetsThreeRepetitionsOf8MsAndThreadsLongerOnes) {
  const std::vector<std::string> three = {"--benchmark_repetitions=3",
                                          "--benchmark_min_time=0.008"};
  // However short its iteration (twenty of 1 ms for 50 µs or less until 2026-12-07).
  EXPECT_EQ(gbench_turn_flags({}, 35'000.0, "BM_crc/1048576"), three);
  EXPECT_EQ(gbench_turn_flags({}, 1.4, "BM_Raw_Decode"), three);
  EXPECT_EQ(gbench_turn_flags({}, std::nullopt), three);
  // Several threads: repetitions of 50 ms, in which they run together.
  EXPECT_THAT(gbench_turn_flags({}, std::nullopt, "BM_Atomic/real_time/threads:2"),
              ElementsAre("--benchmark_repetitions=3", "--benchmark_min_time=0.05"));
  EXPECT_EQ(gbench_turn_flags({}, std::nullopt, "BM_Atomic/threads:1"), three);
  EXPECT_EQ(gbench_threads("BM_Atomic/real_time/threads:8"), 8u);
  EXPECT_EQ(gbench_threads("BM_threads:x"), 1u);
  EXPECT_EQ(gbench_threads("BM_plain"), 1u);
  // The user's choice of either is kept whole.
  EXPECT_THAT(gbench_turn_flags({"--benchmark_repetitions=5"}, 1'000.0),
              ElementsAre("--benchmark_min_time=0.008"));
  EXPECT_THAT(gbench_turn_flags({"--benchmark_min_time=0.05"}, 1'000.0, "BM/threads:2"),
              ElementsAre("--benchmark_repetitions=3"));
  EXPECT_TRUE(gbench_repetitions_follow_iterations({"--benchmark_filter=x"}));
  EXPECT_FALSE(gbench_repetitions_follow_iterations({"--benchmark_min_time=0.05"}));
  EXPECT_FALSE(gbench_repetitions_follow_iterations({"--benchmark_repetitions"}));
}

// Samples a round per side of the one benchmark of `runs`, by round.
std::map<std::uint32_t, std::size_t> samples_by_round(const SideBySideRuns& runs) {
  std::map<std::uint32_t, std::size_t> per_round;
  for (const RunResult* side : {&runs.baseline, &runs.candidate}) {
    for (const Sample& sample : side->benchmarks.at(0).samples) ++per_round[sample.round.value()];
  }
  for (auto& [round, count] : per_round) count /= 2;
  return per_round;
}

// `rounds` rounds of the `benchmarks` of `executable` against itself, benchkit choosing each
// process's repetitions (turn_flags); its notes, when `notes` is given, collected there.
GbenchSideBySide self_pairs(const std::string& executable, std::vector<std::string> benchmarks,
                            std::size_t rounds, std::vector<std::string>* notes = nullptr) {
  GbenchSideBySide plan;
  plan.baseline_executable = executable;
  plan.candidate_executable = executable;
  plan.benchmarks = std::move(benchmarks);
  plan.rounds = rounds;
  plan.turn_flags = true;
  if (notes) plan.note = [notes](const std::string& line) { notes->push_back(line); };
  return plan;
}

// Two rounds of BM_sum (2,000 additions: a few µs an iteration) against itself, its repetitions
// chosen by benchkit.
GbenchSideBySide short_benchmark_plan() {
  return self_pairs(kSuite, {"BM_sum"}, 2);
}

TEST(GbenchBinary, AShortBenchmarkTakesThreeRepetitionsAProcessAsAnyOther) {
  GbenchSideBySide plan = short_benchmark_plan();
  const auto runs = run_gbench_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(runs->baseline.benchmarks.at(0).samples.size(),
            runs->candidate.benchmarks.at(0).samples.size());
  EXPECT_EQ(samples_by_round(*runs), (std::map<std::uint32_t, std::size_t>{{0, 3}, {1, 3}}));
  // The user's repetitions are kept whatever the iteration takes.
  plan.flags = {"--benchmark_repetitions=2"};
  const auto asked = run_gbench_side_by_side(plan);
  ASSERT_TRUE(asked) << asked.error().message;
  EXPECT_EQ(samples_by_round(*asked), (std::map<std::uint32_t, std::size_t>{{0, 2}, {1, 2}}));
}

TEST(GbenchBinary, EveryFormOfNameRunsAndASuitesOwnRepetitionsStay) {
  // A space and a slash, a template with a comma, threads, manual time, and a benchmark whose
  // code sets its own repetitions (->Repetitions(3)), which no flag overrides.
  std::vector<std::string> notes;
  const auto runs = run_gbench_side_by_side(
      self_pairs(kGbenchNames,
                 {"Dump/twitter / -", "BM_Sequential<std::vector<long>, long>/64",
                  "BM_shared_sum/threads:2", "BM_manual/manual_time", "BM_shared_sum/repeats:3"},
                 1, &notes));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_THAT(notes, Contains(HasSubstr("1 of 5 benchmarks set their repetitions in their code")));
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    ASSERT_EQ(side->benchmarks.size(), 5u);
    for (std::size_t k = 0; k < 5; ++k) {
      EXPECT_TRUE(side->benchmarks[k].valid()) << side->benchmarks[k].name;
      EXPECT_EQ(side->benchmarks[k].samples.size(), 3u) << side->benchmarks[k].name;
    }
  }
}

// Benchmarks whose code calls ReportAggregatesOnly(): a process writes their median and no
// repetition, so each process (each round's, side by side) gives one sample of each, and the
// file's "no spread to test" gives way to one note on the run.
TEST(GbenchBinary, ASuiteThatWritesOnlyAggregatesGivesASampleAProcess) {
  const std::string suite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_aggregates";
  const auto note_of = [](const RunResult& run) -> std::string {
    for (const Diagnostic& d : run.context.warnings) {
      if (d.code == model::kAggregatesPerProcess) return d.message;
    }
    return "";
  };
  GbenchProcesses plan;
  plan.executable = suite;
  plan.processes = 3;
  plan.flags = kQuick;
  plan.flags.push_back("--benchmark_filter=^BM_add|^BM_plain$");
  const auto run = run_gbench_processes(plan);
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->benchmarks.size(), 3u);
  for (const BenchmarkResult& b : run->benchmarks) {
    const bool aggregates = b.name.starts_with("BM_add/");
    // BM_add's four repetitions a process are one median; BM_plain writes its one repetition.
    EXPECT_EQ(b.samples.size(), 3u) << b.name;
    EXPECT_THAT(b.diagnostics,
                Not(Contains(::testing::Field(&Diagnostic::code, model::kAggregatesOnly))))
        << b.name;
    if (aggregates) {
      EXPECT_THAT(b.name, HasSubstr("/repeats:4"));
    }
  }
  EXPECT_THAT(note_of(*run), HasSubstr("only the aggregates of 2 benchmarks' repetitions"));
  EXPECT_THAT(note_of(*run), HasSubstr("ReportAggregatesOnly()"));
  EXPECT_THAT(note_of(*run), HasSubstr("between processes"));
  // One process: the one file's warning stays on each such benchmark.
  plan.processes = 1;
  const auto one = run_gbench_processes(plan);
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(note_of(*one), "");
  ASSERT_FALSE(one->benchmarks.at(0).diagnostics.empty());
  EXPECT_EQ(one->benchmarks.at(0).diagnostics.front().code, model::kAggregatesOnly);
  EXPECT_THAT(one->benchmarks.at(0).diagnostics.front().message, HasSubstr("4 repetitions"));

  std::vector<std::string> notes;
  const auto runs =
      run_gbench_side_by_side(self_pairs(suite, {"BM_add/16/repeats:4", "BM_plain"}, 2, &notes));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_THAT(notes, Contains(HasSubstr("1 of 2 benchmarks set their repetitions in their code")));
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    ASSERT_EQ(side->benchmarks.size(), 2u);
    // A round's process of BM_add: its code's four repetitions, whatever benchkit asked, one
    // median.
    EXPECT_EQ(side->benchmarks[0].samples.size(), 2u);
    EXPECT_TRUE(side->benchmarks[0].diagnostics.empty());
    EXPECT_EQ(side->benchmarks[1].samples.size(), 2u * kGbenchTurnRepetitions);
    EXPECT_THAT(note_of(*side), HasSubstr("only the aggregates of BM_add/16/repeats:4's"));
  }
}

// A minimum time set in a benchmark's code (->MinTime: "/min_time:S") holds in every process: a
// run of N processes takes N times the suite's own time for it, and says so.
TEST(GbenchBinary, WhatABenchmarksCodeSetsIsSaidBeforeTheProcessesRun) {
  GbenchProcesses plan;
  plan.executable = kGbenchNames;
  plan.processes = 2;
  plan.flags = {"--benchmark_min_time=0.001", "--benchmark_filter=^BM_shared_sum"};
  std::vector<std::string> notes;
  plan.note = [&](const std::string& line) { notes.push_back(line); };
  const auto run = run_gbench_processes(plan);
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->benchmarks.size(), 4u);
  ASSERT_FALSE(notes.empty());
  // Repetitions set in code share the time as any others do: not said here.
  EXPECT_THAT(notes.front(), Not(HasSubstr("set their repetitions")));
  EXPECT_THAT(notes.front(), HasSubstr("1 of 4 benchmarks set their minimum time in their code"));
  EXPECT_THAT(notes.front(), HasSubstr("2 times as long as in the suite's own run"));
  // Nothing set in code, nothing said.
  notes.clear();
  plan.flags = {"--benchmark_min_time=0.001", "--benchmark_filter=^BM_manual"};
  ASSERT_TRUE(run_gbench_processes(plan));
  EXPECT_THAT(notes, Not(Contains(HasSubstr("in their code"))));
}

TEST(GbenchBinary, IterationsSetInCodeGetRepetitionsByTheirLength) {
  EXPECT_EQ(fixed_gbench_iterations("BM_x/iterations:1000"), std::optional<std::uint64_t>(1000));
  EXPECT_EQ(fixed_gbench_iterations("BM_x/8/iterations:20/repeats:3"),
            std::optional<std::uint64_t>(20));
  EXPECT_EQ(fixed_gbench_iterations("BM_x/8"), std::nullopt);
  EXPECT_EQ(fixed_gbench_iterations("BM_x/iterations:"), std::nullopt);
  EXPECT_EQ(fixed_gbench_iterations("BM_x/iterations:12ab"), std::nullopt);
  // 20 million iterations of 2 ns: 40 ms a repetition, one fills more than the 24 ms.
  EXPECT_THAT(gbench_turn_flags({}, 2.0, "BM_x/iterations:20000000"),
              ElementsAre("--benchmark_repetitions=1"));
  // 8 ms a repetition: three; 10 µs: twenty at most.
  EXPECT_THAT(gbench_turn_flags({}, 8000.0, "BM_x/iterations:1000"),
              ElementsAre("--benchmark_repetitions=3"));
  EXPECT_THAT(gbench_turn_flags({}, 10.0, "BM_x/iterations:1000"),
              ElementsAre("--benchmark_repetitions=20"));
  // The user's repetitions stay; a min time the user gives does not matter to a fixed count.
  EXPECT_THAT(gbench_turn_flags({"--benchmark_repetitions=5"}, 2.0, "BM_x/iterations:1000"),
              IsEmpty());
  EXPECT_THAT(gbench_turn_flags({"--benchmark_min_time=1"}, 8000.0, "BM_x/iterations:1000"),
              ElementsAre("--benchmark_repetitions=3"));
  // Not timed: the usual shape.
  EXPECT_THAT(gbench_turn_flags({}, std::nullopt, "BM_x/iterations:1000"),
              ElementsAre("--benchmark_repetitions=3", "--benchmark_min_time=0.008"));
  // A minimum time in the code (->MinTime(S)) is a repetition's length, timed or not: 10 ms, two
  // of them (not the twenty of a short iteration); half a second, one.
  EXPECT_THAT(gbench_turn_flags({}, 5.0, "BM_shared_sum/min_time:0.010"),
              ElementsAre("--benchmark_repetitions=2"));
  EXPECT_THAT(gbench_turn_flags({}, std::nullopt, "BM_y/8/min_time:0.500/real_time"),
              ElementsAre("--benchmark_repetitions=1"));
  EXPECT_THAT(gbench_turn_flags({}, 5.0, "BM_y/min_time:zero"),
              ElementsAre("--benchmark_repetitions=3", "--benchmark_min_time=0.008"));

  // Real processes: BM_plain's hundred million iterations (a few tens of ms a repetition) are
  // timed by a pilot and get repetitions by their length; BM_plain alone, the usual three.
  std::vector<std::string> notes;
  const auto runs = run_gbench_side_by_side(
      self_pairs(std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_aggregates",
                 {"BM_plain/iterations:100000000", "BM_plain"}, 2, &notes));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_THAT(notes, Contains(HasSubstr("1 of 2 benchmarks set their iterations in their code")));
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    const BenchmarkResult& fixed = side->benchmarks.at(0);
    ASSERT_TRUE(fixed.valid());
    EXPECT_GE(fixed.samples.size(), 2u);
    EXPECT_LE(fixed.samples.size(), 2u * 10) << "each of 2 rounds: at most 10 repetitions";
    EXPECT_EQ(fixed.samples.front().iters, 100'000'000u);
    EXPECT_EQ(side->benchmarks.at(1).samples.size(), 2u * kGbenchTurnRepetitions);
  }
}

TEST(GbenchBinary, AMinimumTimeSetInCodeGetsRepetitionsByItsLength) {
  // BM_shared_sum/min_time:0.010 iterates in nanoseconds, in repetitions of its own 10 ms: two
  // fill the 24 ms.
  std::vector<std::string> notes;
  const auto runs = run_gbench_side_by_side(
      self_pairs(kGbenchNames, {"BM_shared_sum/min_time:0.010"}, 2, &notes));
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(samples_by_round(*runs), (std::map<std::uint32_t, std::size_t>{{0, 2}, {1, 2}}));
  EXPECT_THAT(notes, Contains(HasSubstr("1 of 1 benchmarks set their minimum time in their code")));
}

TEST(GbenchBinary, APilotThatFailsSaysSoAndDecidesNothing) {
  // BM_crash/iterations:1000 aborts in every process, the pilot's too (a flag the suite refuses
  // now fails its listings first: ASuitesOwnArgumentsReachItsListings).
  std::vector<std::string> notes;
  GbenchSideBySide plan = self_pairs(kOwnArguments, {"BM_crash/iterations:1000"}, 2, &notes);
  plan.flags = {"crash-fixed"};
  const auto runs = run_gbench_side_by_side(plan);
  // The first round fails as it did before there was a pilot, naming its process.
  ASSERT_FALSE(runs);
  EXPECT_THAT(runs.error().message, HasSubstr("round 1 of 2"));
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_THAT(notes[0], HasSubstr("1 of 1 benchmarks set their iterations in their code"));
  EXPECT_THAT(notes[1], HasSubstr("timing the iterations of the benchmarks that fix their "
                                  "iterations failed before the first round, so each of them "
                                  "runs 3 repetitions a process"));
  // The process is named once, its path after what it was doing.
  EXPECT_THAT(notes[1], HasSubstr("the baseline build's run timing each benchmark's iterations "
                                  "once (" +
                                  plan.baseline_executable + ")"));
  // No benchmark fixes its iterations: no pilot, nothing said of one.
  notes.clear();
  GbenchSideBySide plain = self_pairs(kOwnArguments, {"BM_crash"}, 2, &notes);
  plain.flags = {"crash"};
  ASSERT_FALSE(run_gbench_side_by_side(plain));
  EXPECT_THAT(notes, Not(Contains(HasSubstr("timing"))));
}

// A benchmark whose process crashes or hangs fails on its own: the others are compared, alone
// in their processes or together (a suite slow to start), and the hung one is killed at its time.
TEST(GbenchBinary, ABenchmarkThatCrashesOrHangsFailsAloneAndTheOthersAreCompared) {
  const std::string& suite = kOwnArguments;
  const auto expect_only_base = [](const SideBySideRuns& runs, const std::string& failed,
                                   const std::string& why) {
    for (const RunResult* side : {&runs.baseline, &runs.candidate}) {
      ASSERT_EQ(side->benchmarks.size(), 2u);
      EXPECT_TRUE(side->benchmarks[0].valid()) << side->benchmarks[0].failures.front();
      EXPECT_FALSE(side->benchmarks[0].samples.empty());
    }
    // Each side's process of the failing benchmark failed in the first round.
    for (const RunResult* side : {&runs.baseline, &runs.candidate}) {
      const BenchmarkResult& gone = side->benchmarks[1];
      EXPECT_EQ(gone.name, failed);
      ASSERT_FALSE(gone.valid());
      EXPECT_THAT(gone.failures.front(), HasSubstr("round 1 of 2, " + failed));
      EXPECT_THAT(gone.failures.front(), HasSubstr(why));
      ASSERT_TRUE(gone.failure);
      EXPECT_EQ(gone.failure->cause,
                failed == "BM_hang" ? Failure::Cause::timed_out : Failure::Cause::crashed);
    }
  };
  for (const double together_from_s : {kSlowStartS, 0.0}) {
    GbenchSideBySide plan = self_pairs(suite, {"BM_base", "BM_crash"}, 2);
    plan.flags = {"crash"};
    plan.together_from_s = together_from_s;
    const auto runs = run_gbench_side_by_side(plan);
    ASSERT_TRUE(runs) << runs.error().message;
    EXPECT_EQ(runs->together, together_from_s == 0.0);
    expect_only_base(*runs, "BM_crash", "SIGABRT");
  }
  GbenchSideBySide plan = self_pairs(suite, {"BM_base", "BM_hang"}, 2);
  plan.flags = {"hang"};
  plan.timeout = std::chrono::milliseconds(1500);
  const auto runs = run_gbench_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  // 1.5 s, and three times the 3 repetitions of 8 ms asked of it.
  expect_only_base(*runs, "BM_hang", "was still running after 1.572 s and was killed");
  // Every benchmark failed: one error, the first process's.
  plan = self_pairs(suite, {"BM_crash"}, 2);
  plan.flags = {"crash"};
  const auto failed = run_gbench_side_by_side(plan);
  ASSERT_FALSE(failed);
  EXPECT_THAT(failed.error().message, HasSubstr("round 1 of 2, BM_crash"));
}

// benchkit run ./gb_suite: a process that a benchmark took down or held past its time is run
// again a benchmark a process; only that benchmark fails, with how, and runs no more.
TEST(GbenchBinary, RunProcessesKeepEveryBenchmarkButTheOneThatCrashedOrHung) {
  const std::string& suite = kOwnArguments;
  for (const std::string argument : {"crash", "hang"}) {
    GbenchProcesses plan;
    plan.executable = suite;
    plan.processes = 3;
    plan.flags = {argument};
    plan.min_time_s = 0.01;
    plan.timeout = std::chrono::milliseconds(1000);
    const auto run = run_gbench_processes(plan);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_EQ(run->benchmarks.size(), 2u);
    const BenchmarkResult& base = run->benchmarks[0];
    EXPECT_EQ(base.name, "BM_base");
    EXPECT_TRUE(base.valid());
    // Every process gave its samples: the first through BM_base's process alone.
    std::set<std::uint32_t> processes;
    for (const Sample& sample : base.samples) processes.insert(sample.process);
    EXPECT_EQ(processes.size(), 3u);
    const BenchmarkResult& gone = run->benchmarks[1];
    EXPECT_EQ(gone.name, argument == "crash" ? "BM_crash" : "BM_hang");
    ASSERT_TRUE(gone.failure);
    EXPECT_EQ(gone.failure->cause,
              argument == "crash" ? Failure::Cause::crashed : Failure::Cause::timed_out);
    EXPECT_THAT(gone.failures.front(), HasSubstr("process 1 of 3, " + gone.name + " alone"));
  }
  // Nothing left to run: the error of the first process that failed.
  GbenchProcesses plan;
  plan.executable = suite;
  plan.processes = 2;
  plan.flags = {"crash", "--benchmark_filter=BM_crash"};
  const auto failed = run_gbench_processes(plan);
  ASSERT_FALSE(failed);
  EXPECT_THAT(failed.error().message, HasSubstr("process 1 of 2"));
  EXPECT_THAT(failed.error().message, HasSubstr("SIGABRT"));
}

TEST(GbenchBinary, ExactFilterMatchesOnlyThatName) {
  const std::regex filter(exact_gbench_filter("BM_x<int>/8/threads:2"));
  EXPECT_TRUE(std::regex_match("BM_x<int>/8/threads:2", filter));
  EXPECT_FALSE(std::regex_match("BM_x<int>/8/threads:20", filter));
  EXPECT_EQ(exact_gbench_filter("a.b(c)"), "^a\\.b\\(c\\)$");
  // `]` and `}` are literal in an extended regular expression, and escaped are refused by Google
  // Benchmark 1.7.1 (run for real with "brackets" in ASuitesOwnArgumentsReachItsListings).
  EXPECT_EQ(exact_gbench_filter("arr[4] {x}"), "^arr\\[4] \\{x}$");
}

TEST(GbenchBinary, FreshProcessesAreMergedWithTheProcessAsUnit) {
  GbenchProcesses plan;
  plan.executable = kSuite;
  plan.processes = 2;
  plan.flags = kQuick;
  plan.flags.push_back("--benchmark_repetitions=2");
  std::size_t started = 0;
  plan.progress = [&](std::size_t, std::size_t) { ++started; };
  const auto run = run_gbench_processes(plan);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(started, 2u);
  ASSERT_EQ(run->benchmarks.size(), 2u);
  const BenchmarkResult& sum = run->benchmarks[0];
  EXPECT_EQ(sum.name, "BM_sum");
  ASSERT_EQ(sum.samples.size(), 4u);  // 2 processes × 2 repetitions
  std::multiset<std::uint32_t> processes;
  for (const Sample& sample : sum.samples) processes.insert(sample.process);
  EXPECT_EQ(processes, (std::multiset<std::uint32_t>{0, 0, 1, 1}));
  EXPECT_GT(sum.estimates.median.value, 0.0);
  EXPECT_EQ(sum.items_per_iteration, std::optional<std::uint64_t>(2000));
  // What Google Benchmark's file leaves out, benchkit knows of the machine it ran it on.
  const Context here = system::collect_context(false);
  EXPECT_EQ(run->context.os, here.os);
  EXPECT_EQ(run->context.kernel, here.kernel);
  EXPECT_EQ(run->context.cpu_model, here.cpu_model);
  EXPECT_FALSE(run->context.kernel.empty());
}

TEST(GbenchBinary, AProcessThatFailsNamesItself) {
  GbenchProcesses plan;
  plan.executable = kOwnArguments;
  plan.processes = 1;
  plan.flags = {"crash", "--benchmark_filter=BM_crash"};  // its only benchmark aborts
  const auto run = run_gbench_processes(plan);
  ASSERT_FALSE(run);
  EXPECT_THAT(run.error().message, HasSubstr("process 1 of 1"));
}

TEST(GbenchBinary, SideBySideRoundsArePairedAndAMissingBenchmarkFails) {
  GbenchSideBySide plan;
  plan.baseline_executable = kSuite;
  plan.candidate_executable = kGbenchSuiteSlower;
  plan.benchmarks = {"BM_sum", "BM_missing"};
  plan.rounds = 2;
  plan.flags = kQuick;
  const auto runs = run_gbench_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    ASSERT_EQ(side->benchmarks.size(), 2u);
    const BenchmarkResult& sum = side->benchmarks[0];
    ASSERT_EQ(sum.samples.size(), 2u);
    EXPECT_EQ(sum.samples[0].round, std::optional<std::uint32_t>(0));
    EXPECT_EQ(sum.samples[1].round, std::optional<std::uint32_t>(1));
    EXPECT_FALSE(side->benchmarks[1].valid());
    EXPECT_THAT(side->benchmarks[1].failures.at(0), HasSubstr("has no benchmark named BM_missing"));
  }
  EXPECT_EQ(runs->baseline.context.executable, kSuite);
  EXPECT_EQ(runs->candidate.context.executable, kGbenchSuiteSlower);
}

TEST(GbenchBinary, UndecidedBenchmarksGetMoreRoundsInBatches) {
  GbenchSideBySide plan;
  plan.baseline_executable = kSuite;
  plan.candidate_executable = kSuite;
  plan.benchmarks = {"BM_sum", "BM_accumulate/4096"};
  plan.rounds = 2;
  plan.max_rounds = 5;
  plan.flags = kQuick;
  std::vector<std::size_t> looked_at;  // rounds of BM_sum at each look
  const auto runs = run_gbench_side_by_side(plan, [&](const SideBySideRuns& so_far) {
    looked_at.push_back(so_far.baseline.benchmarks[0].samples.size());
    return std::vector<std::string>{"BM_sum"};  // BM_accumulate is decided at the first look
  });
  ASSERT_TRUE(runs) << runs.error().message;
  // Looks after rounds 2 and 4; the fifth round is the last, with no look after it.
  EXPECT_THAT(looked_at, ElementsAre(2u, 4u));
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    EXPECT_EQ(side->benchmarks[0].samples.size(), 5u);
    EXPECT_EQ(side->benchmarks[1].samples.size(), 2u);
    EXPECT_EQ(side->benchmarks[0].samples.back().round, std::optional<std::uint32_t>(4));
  }
}

// `benchkit run` of a suite slow to start says, before its processes run, that each pays the
// start again (CRoaring's main() took 12.1 s, and six processes 125 s where the suite took 43 s,
// unannounced). gbench_slow_start takes 120 ms: said from 0.1 s, not at the default 1 s.
TEST(GbenchBinary, ARunOfASuiteSlowToStartSaysWhatItsProcessesPayForIt) {
  const std::string suite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_slow_start";
  ASSERT_EQ(::unsetenv("GBENCH_START_LOG"), 0);
  for (const double from_s : {0.1, kSayStartS}) {
    std::vector<std::string> notes;
    GbenchProcesses plan;
    plan.executable = suite;
    plan.processes = 2;
    plan.flags = {"--benchmark_filter=^BM_one$", "--benchmark_min_time=0.001"};
    plan.say_start_from_s = from_s;
    plan.note = [&notes](const std::string& line) { notes.push_back(line); };
    const auto run = run_gbench_processes(plan);
    ASSERT_TRUE(run) << run.error().message;
    const auto said = std::find_if(notes.begin(), notes.end(), [](const std::string& note) {
      return note.find("to start (timed as it listed the benchmarks") != std::string::npos;
    });
    if (from_s == kSayStartS) {
      EXPECT_EQ(said, notes.end()) << *said;
      continue;
    }
    ASSERT_NE(said, notes.end());
    EXPECT_THAT(*said, HasSubstr("a process of " + suite + " took 0."));
    EXPECT_THAT(*said, HasSubstr("each of the 2 processes pays it again"));
    EXPECT_THAT(*said, HasSubstr("(--processes N sets how many)"));
  }
}

// A suite that takes long to start pays it in every process: its rounds run their benchmarks
// together, one process a build (120 ms in gbench_slow_start's main(); 1.1 s in spdlog's).
TEST(GbenchBinary, ASuiteSlowToStartRunsARoundsBenchmarksTogether) {
  const std::string suite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_slow_start";
  const auto folder = process::make_temporary_folder("benchkit-slow-start");
  ASSERT_TRUE(folder) << folder.error().message;
  const process::FolderRemover remover(*folder);
  const std::string log = *folder + "/started";
  ASSERT_EQ(::setenv("GBENCH_START_LOG", log.c_str(), 1), 0);
  const auto processes_started = [&] {
    std::ifstream in(log);
    std::size_t lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    std::filesystem::remove(log);
    return lines;
  };
  const std::vector<std::string> names = {"BM_one", "BM_two", "BM_three"};
  std::vector<std::string> notes;
  const auto runs = run_gbench_side_by_side(self_pairs(suite, names, 2, &notes));
  const std::size_t together = processes_started();
  // Each build listed (two processes), then two processes a round (no pilot: no benchmark fixes
  // its iterations).
  EXPECT_EQ(together, 2u * 2u + 2u * 2u);
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_TRUE(runs->together);
  EXPECT_THAT(notes, Contains(HasSubstr("so each round runs its benchmarks together")));
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::map<std::uint32_t, std::uint32_t> base_turns;
    for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
      const BenchmarkResult& b = side->benchmarks.at(k);
      EXPECT_EQ(b.name, names[k]);
      ASSERT_TRUE(b.valid()) << b.name;
      ASSERT_EQ(b.samples.size(), 2u * kGbenchTurnRepetitions) << b.name;
      for (const Sample& sample : b.samples) {
        ASSERT_TRUE(sample.round && sample.turn) << b.name;
        if (side == &runs->baseline) {
          base_turns[*sample.round] = *sample.turn;
        } else {
          EXPECT_EQ(*sample.turn, 1 - base_turns.at(*sample.round)) << b.name;
        }
      }
    }
    // One process a build a round: every benchmark's side came first in the same rounds.
    EXPECT_NE(base_turns.at(0), base_turns.at(1));
  }
  // Kept apart, each benchmark has two processes a round.
  GbenchSideBySide apart = self_pairs(suite, names, 2);
  apart.together_from_s = std::numeric_limits<double>::infinity();
  const auto alone = run_gbench_side_by_side(apart);
  EXPECT_EQ(processes_started(), 2u * 2u + 2u * 2u * names.size());
  // Listed by the caller already (compare and ab list both builds to find the benchmarks they
  // share): not listed again, the start times given decide. Then the rounds.
  GbenchSideBySide listed = self_pairs(suite, names, 2);
  listed.listed_start_s = std::array<double, 2>{0.5, 0.6};
  const auto known = run_gbench_side_by_side(listed);
  EXPECT_EQ(processes_started(), 2u * 2u);
  ASSERT_TRUE(known) << known.error().message;
  EXPECT_TRUE(known->together);
  listed.listed_start_s = std::array<double, 2>{0.001, 0.002};
  const auto quick = run_gbench_side_by_side(listed);
  EXPECT_EQ(processes_started(), 2u * 2u * names.size());
  ::unsetenv("GBENCH_START_LOG");
  ASSERT_TRUE(alone) << alone.error().message;
  EXPECT_FALSE(alone->together);
  ASSERT_TRUE(quick) << quick.error().message;
  EXPECT_FALSE(quick->together);
}

// Together, every form of name is still matched by the one filter of the process, and a
// benchmark that runs threads has processes of its own, on every CPU.
TEST(GbenchBinary, EveryFormOfNameRunsTogether) {
  const std::vector<std::string> names = {"Dump/twitter / -",
                                          "BM_Sequential<std::vector<long>, long>/64",
                                          "BM_shared_sum/threads:2", "BM_manual/manual_time"};
  std::vector<std::string> notes;
  GbenchSideBySide plan = self_pairs(kGbenchNames, names, 2, &notes);
  plan.together_from_s = 0.0;
  const auto runs = run_gbench_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_TRUE(runs->together);
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    ASSERT_EQ(side->benchmarks.size(), names.size());
    for (const BenchmarkResult& b : side->benchmarks) {
      EXPECT_TRUE(b.valid()) << b.name << ": " << (b.failures.empty() ? "" : b.failures[0]);
      EXPECT_FALSE(b.samples.empty()) << b.name;
      std::set<std::uint32_t> rounds;
      for (const Sample& sample : b.samples) rounds.insert(sample.round.value_or(99));
      EXPECT_EQ(rounds, (std::set<std::uint32_t>{0, 1})) << b.name;
    }
  }
}

// A process that wrote no result says why in its error when it said anything (Google Benchmark
// refusing a filter exits 0), not only that the file is missing or damaged.
TEST(GbenchBinary, AProcessWithoutAResultIsExplainedByWhatItSaid) {
  GbenchProcesses plan;
  plan.executable = kOwnArguments;
  plan.processes = 1;
  plan.flags = {"refuse-run"};
  const auto run = run_gbench_processes(plan);
  ASSERT_FALSE(run);
  EXPECT_THAT(run.error().message,
              HasSubstr("exited without a readable result after writing to standard error: Could "
                        "not compile benchmark re: Invalid escape in regular expression"));
}

// A trend across a process's repetitions is the code's when the user chose them (one process,
// --benchmark_repetitions), and is left out side by side, where benchkit chose short ones that a
// fresh process runs while still warming up and the rounds pair.
TEST(GbenchBinary, ATrendAcrossRepetitionsBenchkitChoseIsNotBlamedOnTheCode) {
  const auto has_drift = [](const BenchmarkResult& b) {
    return std::any_of(b.diagnostics.begin(), b.diagnostics.end(),
                       [](const Diagnostic& d) { return d.code == "drift"; });
  };
  GbenchProcesses own;
  own.executable = kOwnArguments;
  own.processes = 1;
  own.flags = {"growing", "--benchmark_filter=BM_growing", "--benchmark_repetitions=20",
               "--benchmark_min_time=0.002"};
  const auto run = run_gbench_processes(own);
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->benchmarks.size(), 1u);
  // Twenty, in blocks of two: a repetition a busy machine slowed is one of two in its block.
  std::string times;
  for (const Sample& sample : run->benchmarks[0].samples) {
    times += " " + std::to_string(sample.ns / static_cast<double>(sample.iters));
  }
  EXPECT_TRUE(has_drift(run->benchmarks[0]))
      << "each repetition slower: the user's to see;" << times;

  GbenchSideBySide plan = self_pairs(kOwnArguments, {"BM_growing"}, 2);
  plan.flags = {"growing"};
  const auto runs = run_gbench_side_by_side(plan);
  ASSERT_TRUE(runs) << runs.error().message;
  for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
    ASSERT_EQ(side->benchmarks.size(), 1u);
    EXPECT_FALSE(has_drift(side->benchmarks[0]));
  }
}

// A suite's own arguments (given after --, not Google Benchmark's --benchmark_ flags) reach its
// listings too, first, so that benchmarks its main() registers by them are listed and compared;
// a main() that refuses benchkit's flags is named with what it said, on either stream.
TEST(GbenchBinary, ASuitesOwnArgumentsReachItsListings) {
  const std::string& suite = kOwnArguments;
  const auto listed = [&](const std::vector<std::string>& flags) {
    const auto names = list_gbench_benchmarks(suite, flags);
    EXPECT_TRUE(names) << names.error().message;
    return names ? *names : std::vector<std::string>{};
  };
  EXPECT_EQ(listed({}), std::vector<std::string>{"BM_base"});
  EXPECT_EQ(listed({"full"}), (std::vector<std::string>{"BM_base", "BM_full"}));
  EXPECT_EQ(listed({"full", "--benchmark_filter=ful+"}), std::vector<std::string>{"BM_full"});
  // Lines the suite prints of its own, whatever it is asked, are not benchmarks; a name
  // registered twice is one.
  EXPECT_EQ(listed({"chatty"}), std::vector<std::string>{"BM_base"});
  EXPECT_EQ(listed({"twice"}), std::vector<std::string>{"BM_base"});
  // The user's Google Benchmark flags reach the listings too (a main() may act on them), but for
  // the filter and the output, which the listings set.
  EXPECT_EQ(listed({"min-time", "--benchmark_min_time=0.01", "--benchmark_repetitions=2"}),
            std::vector<std::string>{"BM_base"});
  const auto no_min_time = list_gbench_benchmarks(suite, {"min-time"});
  ASSERT_FALSE(no_min_time);
  EXPECT_THAT(no_min_time.error().message, HasSubstr("--benchmark_min_time=10s"));
  // A flag of the user's that the suite's Google Benchmark refuses is named as what to mend.
  const auto unknown = list_gbench_benchmarks(kSuite, {"--benchmark_no_such_flag"});
  ASSERT_FALSE(unknown);
  EXPECT_THAT(unknown.error().message,
              HasSubstr("the flag --benchmark_no_such_flag given after -- was refused"));
  EXPECT_THAT(unknown.error().message, Not(HasSubstr("did you mean")));
  // The message starts with the flag, and names the one it likely misspells.
  const auto misspelt = list_gbench_benchmarks(kSuite, {"--benchmark_repetitons=3"});
  ASSERT_FALSE(misspelt);
  EXPECT_THAT(misspelt.error().message,
              ::testing::StartsWith("the flag --benchmark_repetitons=3 given after -- was refused: "
                                    "this suite's Google Benchmark does not read it so (did you "
                                    "mean --benchmark_repetitions?)"));
  const auto refused = list_gbench_benchmarks(suite, {"usage"});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr(suite + " usage --benchmark_list_tests=true"));
  EXPECT_THAT(refused.error().message,
              HasSubstr("its standard output ends: [error] Usage: " + suite + " <pattern>"));
  EXPECT_THAT(refused.error().message, HasSubstr("hand them to benchmark::Initialize"));

  for (const auto& [argument, name] : {std::pair<std::string, std::string>{"full", "BM_full"},
                                       {"chatty", "BM_base"},
                                       {"twice", "BM_base"},
                                       {"brackets", "BM_base/arr[4] {x}"}}) {
    GbenchSideBySide plan = self_pairs(suite, {name}, 2);
    plan.flags = {argument};
    const auto runs = run_gbench_side_by_side(plan);
    ASSERT_TRUE(runs) << runs.error().message;
    for (const RunResult* side : {&runs->baseline, &runs->candidate}) {
      ASSERT_EQ(side->benchmarks.size(), 1u);
      EXPECT_TRUE(side->benchmarks[0].valid())
          << (side->benchmarks[0].failures.empty() ? "" : side->benchmarks[0].failures[0]);
      // Both registrations of a name registered twice: their samples together.
      EXPECT_EQ(side->benchmarks[0].samples.size(),
                (argument == "twice" ? 4u : 2u) * kGbenchTurnRepetitions);
    }
  }
}

}  // namespace
}  // namespace benchkit::session
