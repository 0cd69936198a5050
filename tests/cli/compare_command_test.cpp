// `benchkit compare OLD_BINARY NEW_BINARY` and `benchkit run ./gb_binary` on real Google
// Benchmark binaries (tests/cli/gbench_suite.cpp, one build with BM_sum doing twice the work),
// and compare on two benchkit bench binaries (tests/cli/sample_bench.cpp, one build with
// copy_string copying sixteen times more).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "analysis/round_budget.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_command;

using benchkit::testing::kGbenchSuiteSlower;
using benchkit::testing::kTool;
const std::string kSuite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite";
const std::string kQuick = " -- --benchmark_min_time=0.01";
const std::string kBenchkitBuild = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
const std::string kBenchkitSlower = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench_slow";

// The verdict of `name` in a benchkit/comparison document.
std::string verdict(const nlohmann::json& document, const std::string& name) {
  for (const auto& row : document["benchmarks"]) {
    if (row["name"] == name) return row["verdict"].get<std::string>();
  }
  return "(absent)";
}

// A Google Benchmark benchmark that crashes fails alone: `compare` and `run` report the others,
// name it with how it failed, and exit with status 1.
TEST(CompareCommand, ACrashingGoogleBenchmarkFailsAloneAndTheStatusSaysSo) {
  const std::string suite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_own_arguments";
  const auto compared = run_command(kTool + " compare " + suite + " " + suite +
                                    " --rounds 6 --max-rounds 6 --format json -- crash");
  EXPECT_EQ(compared.exit_code, 1) << compared.err;
  const auto document = nlohmann::json::parse(compared.out);
  EXPECT_EQ(verdict(document, "BM_crash"), "invalid") << compared.out;
  EXPECT_NE(verdict(document, "BM_base"), "invalid") << compared.out;
  EXPECT_NE(verdict(document, "BM_base"), "(absent)") << compared.out;
  EXPECT_THAT(compared.out, HasSubstr("killed by signal 6 (SIGABRT)"));
  const auto ran = run_command(kTool + " run " + suite + " --processes 2 -- crash");
  EXPECT_EQ(ran.exit_code, 1) << ran.err;
  EXPECT_THAT(ran.out, ::testing::ContainsRegex("BM_base +[0-9.]+ ns"));
  EXPECT_THAT(ran.out, ::testing::ContainsRegex("BM_crash +failed +crashed"));
  EXPECT_THAT(ran.err, HasSubstr("BM_crash: process 1 of 2, BM_crash alone"));
}

TEST(CompareCommand, TwoGoogleBenchmarkBuildsGiveVerdicts) {
  // No rounds beyond the 10: BM_accumulate is the same code on both sides, and would otherwise
  // take rounds up to --max-rounds' 90 to stay undecided (the sequential design is tested
  // elsewhere).
  const auto result = run_command(kTool + " compare " + kSuite + " " + kGbenchSuiteSlower +
                                  " --rounds 10 --max-rounds 10 --format json" + kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto document = nlohmann::json::parse(result.out);
  // BM_sum does twice the additions in the second build; BM_accumulate is the same code.
  EXPECT_EQ(verdict(document, "BM_sum"), "regressed") << result.out;
  EXPECT_NE(verdict(document, "BM_accumulate/4096"), "regressed") << result.out;
  EXPECT_NE(verdict(document, "BM_accumulate/4096"), "(absent)") << result.out;
}

// --together: each round's benchmarks run one after another in one process a build, as in the
// suite's own run (chfast/intx's shl_public/0 read "improved 17%" alone in its process, where the
// suite's own alternated runs, and --together, read it 7-9% slower); the method note says so.
// Refused for benchkit binaries and for two files, where it would change nothing.
TEST(CompareCommand, TogetherRunsARoundsBenchmarksInOneProcessABuild) {
  const auto result = run_command(kTool + " compare " + kSuite + " " + kGbenchSuiteSlower +
                                  " --together --rounds 10 --max-rounds 10 --format json" + kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto document = nlohmann::json::parse(result.out);
  EXPECT_EQ(verdict(document, "BM_sum"), "regressed") << result.out;
  const std::string note = document["method_note"].get<std::string>();
  EXPECT_THAT(note, HasSubstr("running the benchmarks left"));
  EXPECT_THAT(note, HasSubstr(", as --together asks"));
  EXPECT_THAT(result.err, Not(HasSubstr("to start (timed as it listed")));
  EXPECT_THAT(note, HasSubstr("Benchmarks run one after another in a process"));
  const auto benchkit = run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitBuild +
                                    " --together --rounds 2");
  EXPECT_EQ(benchkit.exit_code, 2) << benchkit.err;
  EXPECT_THAT(benchkit.err, HasSubstr("are benchkit bench binaries"));
  EXPECT_THAT(benchkit.err, HasSubstr("leave --together out"));
}

TEST(CompareCommand, FailOnRegressionExitsOne) {
  const auto result =
      run_command(kTool + " compare " + kSuite + " " + kGbenchSuiteSlower +
                  " --rounds 10 --fail-on-regression" + kQuick + " --benchmark_filter=BM_sum");
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
}

// The row of `name` in a benchkit/comparison document (null when absent).
nlohmann::json row_of(const nlohmann::json& document, const std::string& name) {
  for (const auto& row : document["benchmarks"]) {
    if (row["name"] == name) return row;
  }
  return nullptr;
}

std::string temporary(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("benchkit-compare-" + std::to_string(::getpid()) + "-" + name);
}

// --budget on two real bench binaries (the same build twice): the comparison keeps to it (up to
// one round over: the loop stops at the first look that cannot afford a round), says how the
// budget went, and every benchmark still inconclusive says how many more rounds, and about how
// long, would settle it. 0.1% noise threshold: A/A rounds of a shared machine rarely settle
// inside it, so some are left undecided for the estimate.
TEST(CompareCommand, TheBudgetEndsTheRoundsAndTheUndecidedSayWhatWouldSettleThem) {
  const auto started = std::chrono::steady_clock::now();
  const auto result =
      run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitBuild +
                  " --rounds 6 --max-rounds 400 --budget 5s --noise-threshold 0.001 --format json "
                  "--filter 'add/amount=1$|copy_string'");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto document = nlohmann::json::parse(result.out);
  EXPECT_THAT(document["method_note"].get<std::string>(), HasSubstr("--budget of 5 s"));
  // 400 rounds of two benchmarks would take minutes; the budget stops them (a loose bound: the
  // machine is shared and the command also starts and lists the binaries).
  EXPECT_LT(seconds, 120.0);
  for (const auto& row : document["benchmarks"]) {
    ASSERT_TRUE(row.contains("rounds")) << "paired rounds: " << row.dump();
    EXPECT_LT(row["rounds"].get<int>(), 400) << row.dump();
    if (row["verdict"] != "inconclusive") continue;
    if (!row.contains("to_settle")) {
      EXPECT_THAT(row["note"].get<std::string>(), HasSubstr("no practical number of rounds"));
      continue;
    }
    EXPECT_GE(row["to_settle"]["more_rounds"].get<std::uint64_t>(), 1u) << row.dump();
    EXPECT_LE(row["to_settle"]["more_rounds"].get<std::uint64_t>(), analysis::kMostRoundsEstimated)
        << row.dump();
    EXPECT_GT(row["to_settle"]["more_seconds"].get<double>(), 0.0) << row.dump();
    EXPECT_THAT(row["note"].get<std::string>(), HasSubstr("would settle it (about"));
  }
}

TEST(CompareCommand, ABudgetThatIsNotADurationIsRefused) {
  const auto result =
      run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitBuild + " --budget soon");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("--budget \"soon\" is not a positive duration"));
}

// Two builds of one benchkit suite: copy_string copies 16 times more in the second (about 10x the
// time, far beyond any noise), add/amount=1 is the same source. Being in another executable, its
// code sits at other addresses, which moved it by a real 3.4% under ASan (interval 2.2-4.0%): a
// 20% noise threshold keeps such layout effects from being a verdict, and 10x is far above it.
// Eight rounds: the fewest whose smallest p-value, 2/2^8, stays below 0.05 once adjusted over
// two benchmarks.
// BENCHKIT_PHASE_TRACE (clock/phase_trace.hpp): the controller and every worker append their
// phases to one file, which bench/verdicts/round_cost cuts into the comparison's wall time.
TEST(CompareCommand, ThePhaseTraceHoldsTheControllersAndTheWorkersPhases) {
  const std::string trace = temporary("phases.tsv");
  std::filesystem::remove(trace);
  const auto result =
      run_command("BENCHKIT_PHASE_TRACE=" + trace + " " + kTool + " compare " + kBenchkitBuild +
                  " " + kBenchkitBuild + " --rounds 2 --max-rounds 2 --filter 'add/amount=1$'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::ifstream file(trace);
  ASSERT_TRUE(file) << "no trace written";
  std::map<std::string, std::set<std::string>> pids_of;
  std::string line;
  while (std::getline(file, line)) {
    std::vector<std::string> fields;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
    ASSERT_GE(fields.size(), 4u) << line;
    EXPECT_LE(std::stoll(fields[2]), std::stoll(fields[3])) << line;
    pids_of[fields[1]].insert(fields[0]);
  }
  // Two rounds of one benchmark: two copies, four workers, each started, warmed up, sampled,
  // written and stopped.
  for (const char* phase : {"probe", "copy", "shuffle_hold", "start_worker", "turns",
                            "finish_worker", "collect", "merge"}) {
    ASSERT_EQ(pids_of[phase].size(), 1u) << phase << ": the controller's alone";
  }
  const std::string controller = *pids_of["copy"].begin();
  // main: the four workers, and the --benchkit-info and --list answers of both builds.
  EXPECT_EQ(pids_of["main"].size(), 8u);
  for (const char* phase : {"calibrate", "warm_up", "sampling", "write"}) {
    std::set<std::string> workers = pids_of[phase];
    workers.erase(controller);
    EXPECT_EQ(workers.size(), 4u) << phase;
  }
  std::filesystem::remove(trace);
}

TEST(CompareCommand, TwoBenchkitBuildsRunInPairedRoundsAndGiveVerdicts) {
  const std::string out = temporary("verdicts.json");
  const std::string page = temporary("verdicts.html");
  const auto result =
      run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitSlower +
                  " --rounds 8 --noise-threshold 0.2 --filter 'copy_string|add/amount=1$' "
                  "--fail-on-regression --format json --out " +
                  out + " --html " + page);
  EXPECT_EQ(result.exit_code, 1) << result.err;  // copy_string regressed
  std::ifstream file(out);
  ASSERT_TRUE(file) << result.err;
  const auto document = nlohmann::json::parse(file);
  EXPECT_THAT(document["method_note"].get<std::string>(),
              HasSubstr("benchkit bench binaries: 8 rounds (up to 72 for a benchmark still "
                        "undecided) of fresh process pairs"));
  ASSERT_EQ(document["benchmarks"].size(), 2u) << document.dump(1);  // --filter kept two
  const auto slower = row_of(document, "copy_string");
  const auto same = row_of(document, "add/amount=1");
  ASSERT_FALSE(slower.is_null());
  ASSERT_FALSE(same.is_null());
  EXPECT_EQ(slower["verdict"], "regressed") << slower.dump(1);
  EXPECT_GT(slower["ratio_lower"].get<double>(), 3.0) << slower.dump(1);
  EXPECT_NE(same["verdict"], "regressed") << same.dump(1);
  for (const auto& row : {slower, same}) {
    EXPECT_EQ(row["design"], "paired rounds") << row.dump(1);
    // 8 rounds, and more for a benchmark still undecided, one look at a time (--max-rounds).
    EXPECT_GE(row["rounds"].get<int>(), 8) << row.dump(1);
    EXPECT_LE(row["rounds"].get<int>(), 72) << row.dump(1);
  }
  std::ifstream html(page);
  std::string first_line;
  std::getline(html, first_line);
  EXPECT_EQ(first_line, "<!DOCTYPE html>");  // --html works for executables too
  std::filesystem::remove(out);
  std::filesystem::remove(page);
}

// Ctrl-C once the fourth round has begun, for Google Benchmark and for benchkit binaries: the
// verdicts of the rounds that finished are written, the note says where it stopped, the exit
// status is 130, and the temporary folder is gone.
TEST(CompareCommand, CtrlCAfterARoundGivesTheVerdictsOfTheRoundsBeforeIt) {
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {kSuite + " " + kGbenchSuiteSlower, kQuick}, {kBenchkitBuild + " " + kBenchkitSlower, ""}};
  for (const auto& [binaries, flags] : kinds) {
    const std::string tmp = temporary("interrupted-compare");
    const std::string out = temporary("interrupted-compare.json");
    std::filesystem::remove_all(tmp);
    std::filesystem::remove(out);
    std::filesystem::create_directories(tmp);
    // A round's files are named SIDE-ROUND-... (from round 0): base-3-0.json, new-3.bin.
    const std::string command = "(TMPDIR=" + tmp + " " + kTool + " compare " + binaries +
                                " --rounds 10 --max-rounds 10 --format json --out " + out + flags +
                                " & pid=$!; while ! ls " + tmp +
                                "/*/ 2>/dev/null | grep -Eq '^[a-z]+-3[-.]'; do sleep 0.02; "
                                "done; kill -INT $pid; wait $pid)";
    const auto stopped = run_command(command);
    EXPECT_EQ(stopped.exit_code, 130) << binaries << stopped.out << stopped.err;
    EXPECT_THAT(stopped.err, HasSubstr("interrupted: the verdicts rest on the rounds that finished "
                                       "before it"));
    std::ifstream file(out);
    ASSERT_TRUE(file) << stopped.err;
    const auto document = nlohmann::json::parse(file);
    EXPECT_THAT(document["method_note"].get<std::string>(),
                HasSubstr("; Ctrl-C stopped it in round "));
    ASSERT_FALSE(document["benchmarks"].empty());
    for (const auto& row : document["benchmarks"]) {
      EXPECT_GE(row["rounds"].get<int>(), 3) << row.dump(1);
      EXPECT_LT(row["rounds"].get<int>(), 10) << row.dump(1);
    }
    EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "the rounds' folder is removed";
    std::filesystem::remove_all(tmp);
    std::filesystem::remove(out);
  }
}

TEST(CompareCommand, AFilterAfterTheDashesIsRefusedBeforeAnythingRuns) {
  const auto result = run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitSlower +
                                  " -- --filter copy_string");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("compare's own --filter REGEX"));
}

TEST(CompareCommand, AnMdeThatIsNoChangeOrNotBeyondTheThresholdIsRefused) {
  const auto inside = run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitSlower +
                                  " --mde 1% --noise-threshold 0.02");
  EXPECT_EQ(inside.exit_code, 2);
  EXPECT_THAT(inside.err, HasSubstr("--mde 1% is not above --noise-threshold 2%"));
  const auto words =
      run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitSlower + " --mde lots");
  EXPECT_EQ(words.exit_code, 2);
  EXPECT_THAT(words.err, HasSubstr("\"lots\" is not a change: give 1% or 0.01"));
  const auto whole =
      run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitSlower + " --mde 150%");
  EXPECT_EQ(whole.exit_code, 2);
  EXPECT_THAT(whole.err, HasSubstr("is not between 0 and 100%"));
}

TEST(CompareCommand, AFilterMatchingNothingNamesTheBinaries) {
  const auto result = run_command(kTool + " compare " + kBenchkitBuild + " " + kBenchkitSlower +
                                  " --filter no_such_benchmark");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("no benchmark in common that --filter \"no_such_benchmark\""));
}

TEST(CompareCommand, AFlagBenchkitGivesItselfIsRefusedAsSuch) {
  const auto result = run_command(kTool + " compare " + kSuite + " " + kGbenchSuiteSlower +
                                  " -- --benchmark_out=mine.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("--benchmark_out=mine.json: benchkit gives every process"));
  EXPECT_THAT(result.err, Not(HasSubstr("neither")));
  const auto nothing = run_command(kTool + " compare " + kSuite + " " + kGbenchSuiteSlower +
                                   " -- --benchmark_filter=^BM_nothing$");
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_THAT(nothing.err, HasSubstr("matches no benchmark of"));
  EXPECT_THAT(nothing.err, Not(HasSubstr("neither")));
}

TEST(CompareCommand, AProgramOfNeitherKindIsABadInput) {
  const auto result = run_command(kTool + " compare /bin/true " + kSuite);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("/bin/true is an executable but neither"));
}

TEST(CompareCommand, AGoogleBenchmarkSuiteThatCannotListSaysWhyNotWhichKindItIs) {
  const std::string suite = std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_own_arguments";
  const auto result = run_command(kTool + " compare " + suite + " " + suite + " -- min-time");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr(suite + " links Google Benchmark, but listing its benchmarks "
                                            "failed"));
  EXPECT_THAT(result.err, HasSubstr("--benchmark_min_time=10s"));
  EXPECT_THAT(result.err, Not(HasSubstr("neither a benchkit bench binary")));
}

TEST(CompareCommand, APathThatDoesNotExistIsSaidSo) {
  // Not "neither a result file nor a baseline name (baseline name ... may not contain '/')".
  const auto missing = run_command(kTool + " compare results/old.json results/new.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("\"results/old.json\": no such file"));
  const auto beside = run_command(kTool + " compare ./no_such_suite " + kSuite);
  EXPECT_EQ(beside.exit_code, 2);
  EXPECT_THAT(beside.err, HasSubstr("./no_such_suite: no such file"));
  const auto folder = run_command(kTool + " compare /tmp results/new.json");
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_THAT(folder.err, HasSubstr("\"/tmp\" is not a regular file"));
}

TEST(RunGbenchBinary, RunsInFreshProcesses) {
  const std::string out = std::filesystem::temp_directory_path() /
                          ("benchkit-gbench-run-" + std::to_string(::getpid()) + ".json");
  const auto result =
      run_command(kTool + " run " + kSuite + " --processes 2 --export-json " + out + kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("BM_accumulate/4096"));  // the table
  std::ifstream in(out);
  const auto document = nlohmann::json::parse(in);
  std::filesystem::remove(out);
  ASSERT_EQ(document["benchmarks"].size(), 2u);
  EXPECT_EQ(document["benchmarks"][0]["samples"].size(), 2u);  // one per process
  // The machine's warnings (a busy machine, a VM) are the run's, as a bench binary's are, and
  // BENCHKIT_NO_MACHINE_WARNINGS silences them: the same checks as benchkit system's.
  const auto system = run_command(kTool + " system");
  const auto silenced = run_command("BENCHKIT_NO_MACHINE_WARNINGS=1 " + kTool + " run " + kSuite +
                                    " --processes 1" + kQuick);
  ASSERT_EQ(silenced.exit_code, 0) << silenced.err;
  EXPECT_THAT(silenced.out + silenced.err, Not(HasSubstr("warning [machine_")));
  if (system.out.find("warning  Virtual machine") != std::string::npos) {
    EXPECT_THAT(result.out + result.err, HasSubstr("warning [machine_virtual_machine]"));
  }
}

// --filter on run, as compare reads it: a Google Benchmark binary's processes run the names it
// keeps; one that keeps none, and one given for commands, are refused.
TEST(RunGbenchBinary, AFilterSelectsTheBenchmarksAsCompareDoes) {
  const auto kept =
      run_command(kTool + " run " + kSuite + " --filter accumulate --processes 1" + kQuick);
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_THAT(kept.out, HasSubstr("BM_accumulate/4096"));
  EXPECT_THAT(kept.out, Not(HasSubstr("BM_sum")));
  const auto negated =
      run_command(kTool + " run " + kSuite + " --filter -accumulate --processes 1" + kQuick);
  ASSERT_EQ(negated.exit_code, 0) << negated.err;
  EXPECT_THAT(negated.out, HasSubstr("BM_sum"));
  EXPECT_THAT(negated.out, Not(HasSubstr("BM_accumulate")));
  const auto none = run_command(kTool + " run " + kSuite + " --filter zzz" + kQuick);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.err, HasSubstr("--filter \"zzz\" matches no benchmark of " + kSuite));
  // A benchkit bench binary is handed it.
  const auto bench = run_command(kTool + " run " + kBenchkitBuild +
                                 " --filter copy --processes 1 -- --time-budget 20ms");
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_THAT(bench.out, HasSubstr("copy_string"));
  EXPECT_THAT(bench.out, Not(HasSubstr("add/")));
  const auto commands = run_command(kTool + " run --filter x -- true");
  EXPECT_EQ(commands.exit_code, 2);
  EXPECT_THAT(commands.err, HasSubstr("commands are run whole: drop --filter"));
}

// Ctrl-C once the first of four processes finished (its checkpoint wrote the export): the
// table and the exports hold the processes that finished, and the exit status is 130.
TEST(RunGbenchBinary, CtrlCKeepsTheProcessesThatFinished) {
  const std::string out = temporary("interrupted.json");
  const std::string markdown = temporary("interrupted.md");
  std::filesystem::remove(out);
  std::filesystem::remove(markdown);
  const std::string command = "(" + kTool + " run " + kSuite + " --processes 4 --export-json " +
                              out + " --export-markdown " + markdown +
                              " -- --benchmark_min_time=0.2 & pid=$!; while [ ! -s " + out +
                              " ]; do sleep 0.05; done; kill -INT $pid; wait $pid)";
  const auto stopped = run_command(command);
  EXPECT_EQ(stopped.exit_code, 130) << stopped.out << stopped.err;
  EXPECT_THAT(stopped.out, HasSubstr("BM_accumulate/4096"));  // the table
  EXPECT_THAT(stopped.out, HasSubstr("4 fresh processes of " + kSuite +
                                     " planned, the table holding those that finished"));
  EXPECT_THAT(stopped.err, HasSubstr("interrupted: the processes finished so far are in the "
                                     "table and in " +
                                     out));
  std::ifstream in(out);
  const auto document = nlohmann::json::parse(in);
  ASSERT_EQ(document["benchmarks"].size(), 2u);
  const std::size_t samples = document["benchmarks"][0]["samples"].size();
  EXPECT_GE(samples, 1u);
  EXPECT_LT(samples, 4u) << "one sample a process that finished";
  EXPECT_TRUE(std::filesystem::exists(markdown));
  std::filesystem::remove(out);
  std::filesystem::remove(markdown);
}

TEST(RunGbenchBinary, TheProcessesShareGoogleBenchmarksHalfSecondUnlessTheUserChose) {
  // Four processes of the real suite, given 0.5 / 4 s a benchmark each: the line says so.
  const auto shared =
      run_command(kTool + " run " + kSuite + " --processes 4 -- --benchmark_filter=^BM_sum$");
  ASSERT_EQ(shared.exit_code, 0) << shared.err;
  EXPECT_THAT(shared.out, HasSubstr("4 fresh processes of " + kSuite +
                                    ", each given --benchmark_min_time=0.125"));
  // The user's --benchmark_min_time is the one given: nothing is said of another.
  const auto chosen = run_command(kTool + " run " + kSuite + " --processes 2" + kQuick +
                                  " --benchmark_filter=^BM_sum$");
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_THAT(chosen.out, HasSubstr("2 fresh processes of " + kSuite + "\n"));
  EXPECT_THAT(chosen.out, Not(HasSubstr("--benchmark_min_time")));
}

TEST(RunGbenchBinary, ABaselineKeepsItsBinaryWhichRunsBesideTheNextBuild) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("benchkit-gbench-kept-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  const std::string env = "BENCHKIT_DIR=" + folder.string() + " ";
  const std::string only_sum = " --benchmark_filter=^BM_sum$";
  const auto saved =
      run_command(env + kTool + " run " + kSuite + " --save-baseline main" + kQuick + only_sum);
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  EXPECT_THAT(saved.out, HasSubstr("(with its bench binary"));
  EXPECT_TRUE(std::filesystem::exists(folder / "baselines" / "main.bin"));

  // The next build (BM_sum twice the work) runs in rounds beside the kept one, as compare does.
  const auto beside = run_command(env + kTool + " run " + kGbenchSuiteSlower +
                                  " --baseline main --fail-on-regression" + kQuick + only_sum);
  EXPECT_EQ(beside.exit_code, 1) << beside.out << beside.err;
  EXPECT_THAT(beside.out, HasSubstr("Google Benchmark binaries: 10 rounds"));
  EXPECT_THAT(beside.out, HasSubstr("1 regressed"));
  EXPECT_THAT(beside.out, Not(HasSubstr("fresh processes of")));

  // Processes are the pairs of each round there: --processes is refused, naming the baseline.
  const auto processes = run_command(env + kTool + " run " + kGbenchSuiteSlower +
                                     " --baseline main --processes 3" + kQuick + only_sum);
  EXPECT_EQ(processes.exit_code, 2);
  EXPECT_THAT(processes.err, HasSubstr("baseline main kept its Google Benchmark binary"));

  // Its rounds are set as compare's are: --rounds, --max-rounds, --budget.
  const auto rounds =
      run_command(env + kTool + " run " + kGbenchSuiteSlower +
                  " --baseline main --rounds 6 --max-rounds 8 --budget 20s" + kQuick + only_sum);
  EXPECT_EQ(rounds.exit_code, 0) << rounds.out << rounds.err;
  EXPECT_THAT(rounds.out, HasSubstr("Google Benchmark binaries: 6 rounds (up to 8 for a "
                                    "benchmark still undecided)"));
  EXPECT_THAT(rounds.out, HasSubstr("within the --budget of 20 s"));
  const auto below = run_command(env + kTool + " run " + kGbenchSuiteSlower +
                                 " --baseline main --rounds 8 --max-rounds 6" + kQuick + only_sum);
  EXPECT_EQ(below.exit_code, 2);
  EXPECT_THAT(below.err, HasSubstr("--max-rounds 6 is below --rounds 8"));
  // --together is taken there (one benchmark: alone and together are one).
  const auto together =
      run_command(env + kTool + " run " + kGbenchSuiteSlower +
                  " --baseline main --together --fail-on-regression" + kQuick + only_sum);
  EXPECT_EQ(together.exit_code, 1) << together.out << together.err;
  EXPECT_THAT(together.out, HasSubstr("1 regressed"));

  // A baseline without its binary (saved before binaries were kept) compares saved samples.
  std::filesystem::remove(folder / "baselines" / "main.bin");
  const auto saved_samples = run_command(env + kTool + " run " + kGbenchSuiteSlower +
                                         " --baseline main" + kQuick + only_sum);
  EXPECT_EQ(saved_samples.exit_code, 0) << saved_samples.err;
  EXPECT_THAT(saved_samples.out, HasSubstr("fresh processes of"));
  EXPECT_THAT(saved_samples.out, HasSubstr("against baseline main"));
  EXPECT_THAT(saved_samples.out, Not(HasSubstr("Google Benchmark binaries: 10 rounds")));
  // Nothing runs side by side there: --rounds is refused, saying where it applies.
  const auto no_rounds = run_command(env + kTool + " run " + kGbenchSuiteSlower +
                                     " --baseline main --rounds 6" + kQuick + only_sum);
  EXPECT_EQ(no_rounds.exit_code, 2);
  EXPECT_THAT(no_rounds.err, HasSubstr("--rounds sets the rounds of a side-by-side comparison"));
  EXPECT_THAT(no_rounds.err, HasSubstr("the baseline kept no binary"));
  const auto no_together = run_command(env + kTool + " run " + kGbenchSuiteSlower +
                                       " --baseline main --together" + kQuick + only_sum);
  EXPECT_EQ(no_together.exit_code, 2);
  EXPECT_THAT(no_together.err, HasSubstr("here the baseline kept no binary: leave --together out"));
  std::filesystem::remove_all(folder);
}

TEST(RunGbenchBinary, ComplexityFitsOfARealSuiteAreKeptAndFittedAgain) {
  // BM_sum adds N numbers: O(n) by Google Benchmark's fit in each process, and by benchkit's
  // over the medians of the merged processes. No fake row "BM_sum_BigO" among the benchmarks.
  // On a busy machine (load 8) a fit can take the neighbouring class, O(n log n): either is
  // accepted, what is tested is that both fits are there and sensible.
  const std::string out = std::filesystem::temp_directory_path() /
                          ("benchkit-gbench-complexity-" + std::to_string(::getpid()) + ".json");
  const auto result = run_command(kTool + " run " + std::string(BENCHKIT_BINARY_DIR) +
                                  "/tests/gbench_complexity --processes 2 --export-json " + out +
                                  kQuick + " --benchmark_filter=^BM_sum/");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, ::testing::AnyOf(HasSubstr("BM_sum over N: O(n),"),
                                           HasSubstr("BM_sum over N: O(n log n),")))
      << result.out;
  EXPECT_THAT(result.out, HasSubstr("(fitted by Google Benchmark)"));
  std::ifstream in(out);
  const auto document = nlohmann::json::parse(in);
  std::filesystem::remove(out);
  ASSERT_EQ(document["benchmarks"].size(), 7u);  // 16 … 65536, by 4
  for (const auto& b : document["benchmarks"]) {
    EXPECT_THAT(b["name"].get<std::string>(), Not(HasSubstr("BigO"))) << b["name"];
  }
  ASSERT_TRUE(document.contains("complexity")) << document.dump(1).substr(0, 2000);
  bool refitted = false;
  for (const auto& fit : document["complexity"]) {
    if (fit.value("source", std::string()).empty()) {
      refitted = fit["big_o"] == "N" || fit["big_o"] == "NlgN";
    }
  }
  EXPECT_TRUE(refitted) << document["complexity"].dump(1);
}

}  // namespace
}  // namespace benchkit::cli
