// Scenarios through the bench binary as a user runs it: flags, output, exit status, baselines.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <set>

#include "formats/result_json.hpp"
#include "store/atomic_file.hpp"
#include "support/run_command.hpp"
#include "support/test_programs.hpp"

namespace benchkit {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_command;

using benchkit::testing::kScenarioBench;
using benchkit::testing::kTool;
const std::string kPhases[] = {"pipeline/items=200000/fill", "pipeline/items=200000/checksum",
                               "pipeline/items=200000/drain"};

RunResult parse(const std::string& text) {
  auto parsed = formats::from_json(text, "stdout");
  EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
  return parsed ? parsed->run : RunResult{};
}

std::vector<std::string> names(const RunResult& run) {
  std::vector<std::string> out;
  for (const auto& b : run.benchmarks) out.push_back(b.name);
  return out;
}

TEST(ScenarioBinary, ListsScenariosBesideMicroBenchmarks) {
  const auto result = run_command(kScenarioBench + " --list");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, "pipeline/items=200000\nmix_one\n");
}

TEST(ScenarioBinary, ShowsOneBlockPerScenarioWithARowPerPhase) {
  const auto result = run_command(kScenarioBench + " --filter pipeline --no-machine-warnings");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("scenario pipeline/items=200000: 1 run\n"));
  for (const char* header : {"phase", "time", "throughput", "CPU", "peak RSS", "RSS change"}) {
    EXPECT_THAT(result.out, HasSubstr(header));
  }
  for (const char* row : {"\n  fill ", "\n  checksum ", "\n  drain "}) {
    EXPECT_THAT(result.out, HasSubstr(row));
  }
  EXPECT_LT(result.out.find("  fill "), result.out.find("  checksum "));
  EXPECT_LT(result.out.find("  checksum "), result.out.find("  drain "));
  EXPECT_THAT(result.out, HasSubstr("counters: rounds 64\n  counters of checksum: mixes "));
  EXPECT_THAT(result.out,
              ::testing::ContainsRegex("counters of checksum: mixes [0-9.]+ [kMG]/s\n"));
  EXPECT_THAT(result.out, HasSubstr("no interval: repeat it (--repetitions 5)"));
  EXPECT_THAT(result.out, Not(HasSubstr("benchmark  median")))
      << "no micro table when only scenarios ran";
}

TEST(ScenarioBinary, PhasesAreResultsOfKindScenarioInTheJson) {
  const auto result = run_command(kScenarioBench + " --filter pipeline --format json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const RunResult run = parse(result.out);
  EXPECT_THAT(names(run), ElementsAre(kPhases[0], kPhases[1], kPhases[2]));
  for (const BenchmarkResult& phase : run.benchmarks) {
    EXPECT_EQ(phase.kind, "scenario");
    EXPECT_EQ(phase.params.at("items"), "200000");
    ASSERT_EQ(phase.samples.size(), 1u);
    EXPECT_EQ(phase.samples[0].iters, 1u);
    EXPECT_GT(phase.samples[0].ns, 0.0);
    ASSERT_TRUE(phase.samples[0].resources.has_value());
    const Resources& resources = *phase.samples[0].resources;
    EXPECT_TRUE(resources.user_ns && resources.system_ns && resources.peak_rss_bytes &&
                resources.rss_change_bytes && resources.minor_faults)
        << phase.name;
    EXPECT_EQ(*phase.items_per_iteration, 200'000u);
    EXPECT_TRUE(phase.estimates.items_per_second.has_value());
    EXPECT_FALSE(phase.memory.peak_rss_method.empty());
    EXPECT_DOUBLE_EQ(phase.counters.at("rounds"), 64.0);
    EXPECT_TRUE(phase.valid());
  }
  // The phase counter is on its phase only, with its kind, read back from the worker's JSON.
  EXPECT_DOUBLE_EQ(run.benchmarks[1].counters.at("mixes"), 64.0 * 200'000);
  EXPECT_EQ(run.benchmarks[1].counter_kinds.at("mixes"), counter::rate);
  EXPECT_EQ(run.benchmarks[0].counters.count("mixes"), 0u);
  EXPECT_EQ(run.benchmarks[2].counters.count("mixes"), 0u);
  EXPECT_EQ(*run.benchmarks[0].bytes_per_iteration, 1'600'000u);
}

TEST(ScenarioBinary, RepetitionsAreSamplesAndGiveAnInterval) {
  const auto json =
      run_command(kScenarioBench + " --filter pipeline --repetitions 3 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  for (const BenchmarkResult& phase : parse(json.out).benchmarks) {
    ASSERT_EQ(phase.samples.size(), 3u) << phase.name;
    EXPECT_LE(phase.estimates.median.lower, phase.estimates.median.value);
    EXPECT_GE(phase.estimates.median.upper, phase.estimates.median.value);
  }
  const auto console = run_command(kScenarioBench + " --filter pipeline --repetitions 6");
  ASSERT_EQ(console.exit_code, 0) << console.err;
  EXPECT_THAT(console.out, HasSubstr("scenario pipeline/items=200000: 6 runs\n"));
  EXPECT_THAT(console.out, HasSubstr("95% CI"));
  EXPECT_THAT(console.out, Not(HasSubstr("no interval")));
}

TEST(ScenarioBinary, TestModeRunsTheScenarioOnceAndTheMicroBenchmarkOnce) {
  const auto result = run_command(kScenarioBench + " --test --repetitions 4 --format json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const RunResult run = parse(result.out);
  ASSERT_EQ(run.benchmarks.size(), 4u);
  for (const BenchmarkResult& b : run.benchmarks) EXPECT_EQ(b.samples.size(), 1u) << b.name;
}

TEST(ScenarioBinary, AFailedVerifyExitsWithStatusOneAndSaysWhichCheckAfterWhichPhase) {
  const auto result =
      run_command("SCENARIO_BENCH_BREAK=1 " + kScenarioBench + " --filter pipeline");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("error: pipeline/items=200000 is invalid: check failed after "
                                    "phase drain: every item came back, in order"));
  EXPECT_THAT(result.out, HasSubstr("INVALID"));
  // Whatever the format, and in --test mode too (what CTest runs).
  EXPECT_EQ(
      run_command("SCENARIO_BENCH_BREAK=1 " + kScenarioBench + " --test --format json").exit_code,
      1);
  const auto json =
      run_command("SCENARIO_BENCH_BREAK=1 " + kScenarioBench + " --test --format json");
  for (const BenchmarkResult& b : parse(json.out).benchmarks) {
    if (b.kind == "scenario") {
      EXPECT_FALSE(b.valid()) << b.name;
    }
  }
}

TEST(ScenarioBinary, AnExactCountIsShownAndSavedAsItIs) {
  const auto shown = run_command(kScenarioBench + " --filter pipeline --no-machine-warnings");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_THAT(shown.out, HasSubstr("  exact counts: drained 200000 (200000 items)\n"));
  const auto saved =
      run_command(kScenarioBench + " --filter pipeline --format json --no-machine-warnings");
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  for (const BenchmarkResult& phase : parse(saved.out).benchmarks) {
    ASSERT_EQ(phase.exact_counts.size(), 1u) << phase.name;
    EXPECT_EQ(phase.exact_counts[0].name, "drained");
    EXPECT_EQ(phase.exact_counts[0].value, 200000u);
    EXPECT_EQ(phase.exact_counts[0].input, "200000 items");
  }
}

// A count that one repetition, or one process, gets otherwise: the scenario is invalid, the
// values are named, exit status 1.
TEST(ScenarioBinary, AnExactCountThatDisagreesBetweenRunsExitsWithStatusOne) {
  const auto uneven = run_command("SCENARIO_BENCH_UNEVEN=1 " + kScenarioBench +
                                  " --filter pipeline --repetitions 3 --no-machine-warnings");
  EXPECT_EQ(uneven.exit_code, 1) << uneven.err;
  EXPECT_THAT(uneven.out + uneven.err,
              HasSubstr("exact count drained is not the same in every repetition: 200000 for "
                        "200000 items in repetition 1, 199999 for 200000 items in repetition 2"));
  const std::string marker =
      ::testing::TempDir() + "/benchkit-exact-count-once-" + std::to_string(::getpid());
  std::filesystem::remove(marker);
  const auto processes = run_command("SCENARIO_BENCH_ONCE=" + marker + " " + kScenarioBench +
                                     " --filter pipeline --processes 2 --no-machine-warnings");
  std::filesystem::remove(marker);
  EXPECT_EQ(processes.exit_code, 1) << processes.err;
  EXPECT_THAT(processes.out + processes.err,
              HasSubstr("exact count drained is not the same in every process: 200000 for "
                        "200000 items in process 1, 199999 for 200000 items in process 2"));
}

TEST(ScenarioBinary, ParamReplacesTheRegisteredValues) {
  const auto list = run_command(kScenarioBench + " --list --param items=1000,5000");
  EXPECT_EQ(list.out, "pipeline/items=1000\npipeline/items=5000\nmix_one\n");
  const auto json =
      run_command(kScenarioBench + " --param items=1000 --filter pipeline --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const RunResult run = parse(json.out);
  ASSERT_FALSE(run.benchmarks.empty());
  EXPECT_EQ(*run.benchmarks[0].items_per_iteration, 1000u) << "the function got the new value";
}

TEST(ScenarioBinary, BadScenarioFlagsAreUsageErrors) {
  for (const auto& [flags, message] : std::vector<std::pair<std::string, std::string>>{
           {"--repetitions 0", "--repetitions"},
           {"--param items", "NAME=VALUE"},
           {"--param size=1", "no benchmark has a parameter named size"},
           {"--param items=", "NAME=VALUE"}}) {
    const auto result = run_command(kScenarioBench + " " + flags);
    EXPECT_EQ(result.exit_code, 2) << flags;
    EXPECT_THAT(result.err, HasSubstr(message)) << flags;
  }
}

class ScenarioBaselines : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-scenario-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    env_ = "BENCHKIT_DIR=" + folder_ + " ";
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::string folder_;
  std::string env_;
};

// The whole flow: save a baseline of a scenario (three fresh processes, the default), run it
// again against the baseline and through `benchkit compare`.
TEST_F(ScenarioBaselines, ASavedScenarioIsComparedPhaseByPhase) {
  const std::string flags = " --filter pipeline --no-machine-warnings";
  const auto saved = run_command(env_ + kScenarioBench + flags + " --save-baseline main");
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  EXPECT_THAT(saved.out, HasSubstr("scenario pipeline/items=200000: 3 runs"));
  EXPECT_THAT(saved.out, HasSubstr("baseline main saved to"));

  const std::string again = folder_ + "/again.json";
  const auto rerun = run_command(env_ + kScenarioBench + flags + " --baseline main --out " + again);
  ASSERT_EQ(rerun.exit_code, 0) << rerun.err;
  for (const std::string& phase : kPhases) {
    const std::size_t row = rerun.out.find("\n" + phase + " ");
    ASSERT_NE(row, std::string::npos) << phase << " has a verdict row:\n" << rerun.out;
  }
  const auto compared = run_command(env_ + kTool + " compare main " + again + " --format json");
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  for (const std::string& phase : kPhases) {
    EXPECT_THAT(compared.out, HasSubstr("\"name\": \"" + phase + "\""));
  }
  EXPECT_THAT(compared.out, HasSubstr("\"design\": \"processes\""));
}

// A slower phase is a regression of that phase; a run that failed its check is not compared.
// One process of eight repetitions a side: a fourfold slowdown is then always resolved, where
// three single-run processes on a busy machine can leave it inconclusive (correctly, but not
// testably). --all-samples keeps the machine's speed out of it: under load (CI runs ASan tests
// two at a time) the reference loop can find one side measured only while the machine ran
// slow, and the interval widened for that can reach below the threshold (the likely cause of
// this test's one failure in CI, whose output was cut).
TEST_F(ScenarioBaselines, ASlowerPhaseRegressesAndAnInvalidRunIsKeptOut) {
  const std::string flags =
      " --filter pipeline --no-machine-warnings --processes 1 --repetitions 8 --all-samples";
  const auto saved = run_command(env_ + kScenarioBench + flags + " --quiet --save-baseline main");
  ASSERT_EQ(saved.exit_code, 0) << saved.out << saved.err;

  // The slow-down comes from the environment, which the baseline's kept binary would get too
  // in a side-by-side run: these compare the saved samples.
  const auto slower = run_command(env_ + "SCENARIO_BENCH_SLOW=1 " + kScenarioBench + flags +
                                  " --baseline main --saved-samples --fail-on-regression");
  EXPECT_EQ(slower.exit_code, 1) << slower.out << slower.err;
  const std::size_t row = slower.out.find("\n" + kPhases[1] + " ");
  ASSERT_NE(row, std::string::npos) << slower.out;
  EXPECT_THAT(slower.out.substr(row, slower.out.find('\n', row + 1) - row), HasSubstr("regressed"))
      << "the checksum phase, four times slower:\n"
      << slower.out;

  // Slower too, but its check failed: every phase is `invalid`, none counts as a regression.
  const auto broken =
      run_command(env_ + "SCENARIO_BENCH_SLOW=1 SCENARIO_BENCH_BREAK=1 " + kScenarioBench + flags +
                  " --baseline main --saved-samples --format json");
  EXPECT_EQ(broken.exit_code, 1) << "the failed verify";
  EXPECT_THAT(broken.out, HasSubstr("\"regressed\": 0")) << broken.out;
  EXPECT_THAT(broken.out, HasSubstr("\"invalid\": 3")) << broken.out;
  EXPECT_THAT(broken.err, HasSubstr("check failed after phase drain"));
}

}  // namespace
}  // namespace benchkit
