// run_profile's pipeline with fake processes: --list answered from a list, each "tool" writing
// the files a real one would (the profilers' own steps: profilers_test.cpp; the real tools:
// tests/valgrind/profile_test.cpp).
#include "session/profile.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include "process/temporary_folder.hpp"
#include "session/profiled.hpp"
#include "support/text_file.hpp"

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using benchkit::testing::write_text_file;

// The value after `flag` in `argv`; "" when it is not there.
std::string after(const std::vector<std::string>& argv, const std::string& flag) {
  const auto at = std::find(argv.begin(), argv.end(), flag);
  return at != argv.end() && at + 1 != argv.end() ? *(at + 1) : "";
}

// As callgrind: main calling work, written where --callgrind-out-file= says.
void write_callgrind_out(const std::vector<std::string>& argv) {
  const auto out = std::find_if(argv.begin(), argv.end(), [](const std::string& word) {
    return word.rfind("--callgrind-out-file=", 0) == 0;
  });
  ASSERT_NE(out, argv.end());
  write_text_file(out->substr(std::string("--callgrind-out-file=").size()),
                  "events: Ir\nfn=main\n10 10\ncfn=work\ncalls=1 20\n11 90\nfn=work\n20 90\n");
}

// Programs found at /fake/NAME unless missing; the bench binary lists `names`; a tool run writes
// the routine's summary and what `tool_writes` says, then exits with `tool_exit` having written
// `tool_stderr`; a conversion prints `converted`.
class FakeProcesses final : public ProfileProcesses {
 public:
  std::set<std::string> missing;
  std::string names = "one_hot\nallocating\nsyscalling\n";
  std::function<void(const std::vector<std::string>&)> tool_writes = [](const auto&) {};
  int tool_exit = 0;
  std::string tool_stderr;
  std::optional<double> allocations_per_iteration = 2.0;
  std::string converted;
  std::vector<std::vector<std::string>> ran;
  std::vector<process::CaptureOptions> options;

  std::optional<std::string> find(const std::string& program) override {
    if (missing.count(program)) return std::nullopt;
    return "/fake/" + program;
  }

  model::Result<process::Captured> run(const std::vector<std::string>& argv,
                                       const process::CaptureOptions& with) override {
    ran.push_back(argv);
    options.push_back(with);
    process::Captured captured;
    captured.exit.exit_code = 0;
    if (argv.size() >= 2 && argv[1] == "--list") {
      captured.out = names;
    } else if (const std::string summary = after(argv, "--profile-summary"); !summary.empty()) {
      ProfiledRoutine routine;
      routine.benchmark = after(argv, "--filter");
      routine.iterations = 1000;
      routine.timed_ns = 2e8;
      routine.allocations_per_iteration = allocations_per_iteration;
      if (tool_exit == 0) write_text_file(summary, profiled_json(routine));
      tool_writes(argv);
      if (!with.err_file.empty()) write_text_file(with.err_file, tool_stderr);
      captured.exit.exit_code = tool_exit;
    } else {
      captured.out = converted;
    }
    return captured;
  }
};

class Pipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = process::make_temporary_folder("benchkit-profile-test");
    ASSERT_TRUE(made) << made.error().message;
    folder_ = std::make_unique<process::FolderRemover>(*made);
    request_.binary = "./bench";
    request_.duration_ns = 300'000'000;
    request_.out_dir = dir() + "/out";
  }
  std::string dir() const { return folder_->path(); }
  std::string out(const std::string& name) const { return request_.out_dir + "/" + name; }

  std::unique_ptr<process::FolderRemover> folder_;
  ProfileRequest request_;
  FakeProcesses processes_;
};

TEST_F(Pipeline, StraceRunsAroundTheBenchBinaryAndReadsTheRegion) {
  request_.tool = model::ProfileTool::strace;
  request_.benchmark = "syscalling";
  request_.bench_flags = {"--param", "n=1"};
  processes_.tool_writes = [](const std::vector<std::string>& argv) {
    write_text_file(after(argv, "-o"),
                    "1 access(\"/benchkit-profile-region-begins\", F_OK) = -1 ENOENT <0.000005>\n"
                    "1 getppid() = 7 <0.000002>\n"
                    "1 access(\"/benchkit-profile-region-ends\", F_OK) = -1 ENOENT <0.000005>\n");
  };
  const auto profile = run_profile(request_, processes_);
  ASSERT_TRUE(profile) << profile.error().message;
  ASSERT_EQ(processes_.ran.size(), 2u);  // --list, then the tool: no conversion
  EXPECT_THAT(processes_.ran[0], ElementsAre("./bench", "--list", "--param", "n=1"));
  EXPECT_THAT(
      processes_.ran[1],
      ElementsAre("/fake/strace", "-f", "-T", "-o", out("strace.txt"), "./bench", "--filter",
                  "syscalling", "--exact", "--profile-time", "300000000ns", "--profile-markers",
                  "strace", "--profile-summary", out("summary.json"), "--param", "n=1"));
  EXPECT_EQ(processes_.options[1].err_file, out("stderr.txt"));
  ASSERT_TRUE(processes_.options[1].timeout);
  EXPECT_GT(*processes_.options[1].timeout, std::chrono::milliseconds(1200));
  EXPECT_EQ(profile->tool, model::ProfileTool::strace);
  EXPECT_EQ(profile->benchmark, "syscalling");
  EXPECT_EQ(profile->out_dir, request_.out_dir);
  EXPECT_EQ(profile->iterations, 1000u);
  EXPECT_DOUBLE_EQ(profile->routine_seconds, 0.2);
  ASSERT_EQ(profile->system_calls.size(), 1u);
  EXPECT_EQ(profile->system_calls[0].name, "getppid");
  EXPECT_THAT(profile->files, ElementsAre(out("strace.txt"), out("summary.json")));
}

TEST_F(Pipeline, CallgrindKeepsTheFoldedStacksBeforeTheSummary) {
  request_.tool = model::ProfileTool::callgrind;
  request_.benchmark = "one_hot";
  write_text_file(dir() + "/stale", "");
  processes_.tool_writes = [](const std::vector<std::string>& argv) {
    EXPECT_EQ(after(argv, "--profile-markers"), "callgrind");
    write_callgrind_out(argv);
  };
  const auto profile = run_profile(request_, processes_);
  ASSERT_TRUE(profile) << profile.error().message;
  EXPECT_EQ(profile->unit, "instructions");
  EXPECT_THAT(profile->files, ElementsAre(out("callgrind.out"), out("valgrind.log"),
                                          out("folded.txt"), out("summary.json")));
  std::ifstream folded(out("folded.txt"));
  EXPECT_THAT(std::string(std::istreambuf_iterator<char>(folded), {}), HasSubstr("main;work 90"));
  // A request that cannot draw one keeps no flame graph (report::profile_flame_graph draws it).
  EXPECT_FALSE(std::filesystem::exists(out("flame.svg")));
}

TEST_F(Pipeline, AFlameGraphTheRequestDrawsIsKeptBeforeTheFoldedStacks) {
  request_.tool = model::ProfileTool::callgrind;
  request_.benchmark = "one_hot";
  request_.draw_flame_graph = [](const model::Profile& profile) {
    return "<svg>" + std::to_string(profile.stacks.size()) + " stacks</svg>";
  };
  processes_.tool_writes = write_callgrind_out;
  const auto profile = run_profile(request_, processes_);
  ASSERT_TRUE(profile) << profile.error().message;
  EXPECT_THAT(profile->files,
              ElementsAre(out("callgrind.out"), out("valgrind.log"), out("flame.svg"),
                          out("folded.txt"), out("summary.json")));
  std::ifstream svg(out("flame.svg"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(svg), {}),
            "<svg>" + std::to_string(profile->stacks.size()) + " stacks</svg>");
}

TEST_F(Pipeline, HeaptrackIsConvertedAndAsksForAllocationCounts) {
  request_.tool = model::ProfileTool::heaptrack;
  request_.benchmark = "allocating";
  processes_.allocations_per_iteration.reset();
  processes_.tool_writes = [](const std::vector<std::string>& argv) {
    write_text_file(after(argv, "-o") + ".zst", "");
  };
  processes_.converted = "peak heap memory consumption: 1.00K\n";
  const auto profile = run_profile(request_, processes_);
  ASSERT_TRUE(profile) << profile.error().message;
  ASSERT_EQ(processes_.ran.size(), 3u);
  EXPECT_THAT(processes_.ran[2],
              ElementsAre("/fake/heaptrack_print", "-f", out("heaptrack.zst"),
                          "--merge-backtraces=0", "--print-allocators=0", "--print-temporary=0"));
  EXPECT_EQ(processes_.options[2].limit, 64u << 20);
  EXPECT_EQ(profile->peak_heap_bytes, 1000.0);
  EXPECT_THAT(profile->notes.back(), HasSubstr("link the bench binary with benchkit::alloc"));
  EXPECT_THAT(profile->files,
              ElementsAre(out("heaptrack.zst"), out("heaptrack.txt"), out("summary.json")));
}

TEST_F(Pipeline, AnUnknownBenchmarkIsNamedWithTheNearOnes) {
  request_.benchmark = "one_ht";
  const auto profile = run_profile(request_, processes_);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(profile.error().message, HasSubstr("no benchmark named \"one_ht\""));
  EXPECT_THAT(profile.error().message, HasSubstr("near names: one_hot"));
  EXPECT_EQ(processes_.ran.size(), 1u);
}

TEST_F(Pipeline, AMissingProgramIsNamedWithItsPackageBeforeAnythingRuns) {
  request_.tool = model::ProfileTool::heaptrack;
  request_.benchmark = "allocating";
  processes_.missing = {"heaptrack_print"};
  const auto profile = run_profile(request_, processes_);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(profile.error().message,
              HasSubstr("--tool heaptrack needs heaptrack_print, which is not installed"));
  EXPECT_THAT(profile.error().message, HasSubstr("apt-get install heaptrack"));
  EXPECT_EQ(processes_.ran.size(), 1u);  // --list only
}

TEST_F(Pipeline, AFailingRunQuotesItsLastWords) {
  request_.tool = model::ProfileTool::strace;
  request_.benchmark = "syscalling";
  processes_.tool_exit = 3;
  processes_.tool_stderr = "crashing on purpose\n";
  const auto profile = run_profile(request_, processes_);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().kind, model::ErrorKind::failed);
  EXPECT_THAT(profile.error().message,
              HasSubstr("strace of ./bench exited with status 3; its last words:\n"
                        "crashing on purpose"));
}

TEST_F(Pipeline, PerfThatCannotRecordIsAUsageErrorAndItsFifosAreGone) {
  request_.tool = model::ProfileTool::perf;
  request_.benchmark = "one_hot";
  processes_.tool_exit = 255;
  const auto profile = run_profile(request_, processes_);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(profile.error().message, HasSubstr("perf cannot sample here"));
  EXPECT_FALSE(std::filesystem::exists(out("perf-control.fifo")));
  EXPECT_FALSE(std::filesystem::exists(out("perf-ack.fifo")));
}

TEST_F(Pipeline, ABenchBinaryThatWritesNoSummaryIsNamed) {
  request_.tool = model::ProfileTool::perf;
  request_.benchmark = "one_hot";
  processes_.tool_writes = [](const std::vector<std::string>& argv) {
    std::filesystem::remove(after(argv, "--profile-summary"));
  };
  processes_.converted = "bench 10 1.0: 250000 cpu-clock:\n\t    1300 main+0x5 (/tmp/bench)\n";
  const auto profile = run_profile(request_, processes_);
  ASSERT_FALSE(profile);
  EXPECT_EQ(profile.error().kind, model::ErrorKind::failed);
  EXPECT_THAT(profile.error().message,
              HasSubstr("perf of ./bench ran, but the bench binary wrote no summary to " +
                        out("summary.json")));
}

TEST_F(Pipeline, TheDefaultFolderIsNamedForTheBenchmarkAndTheTool) {
  request_.tool = model::ProfileTool::strace;
  request_.benchmark = "syscalling";
  request_.out_dir.clear();
  processes_.tool_exit = 1;  // stops the run once the folder is made
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir());
  const auto profile = run_profile(request_, processes_);
  std::filesystem::current_path(cwd);
  ASSERT_FALSE(profile);
  ASSERT_EQ(processes_.ran.size(), 2u);
  EXPECT_EQ(after(processes_.ran[1], "-o"), ".benchkit/profiles/syscalling-strace/strace.txt");
}

TEST(NearNames, ContainingFirstThenFewEditsAway) {
  const std::vector<std::string> names = {"sort_ints/size=1000", "sort_ints/size=10000",
                                          "build_map", "lookup"};
  EXPECT_THAT(near_names("sort_ints", names),
              ElementsAre("sort_ints/size=1000", "sort_ints/size=10000"));
  EXPECT_THAT(near_names("build_mpa", names), ElementsAre("build_map"));
  EXPECT_TRUE(near_names("zzzzzzzzzzzz", names).empty());
}

TEST(Profile, PackagesOfTheTools) {
  EXPECT_EQ(debian_package_of("perf"), "linux-perf");
  EXPECT_EQ(debian_package_of("heaptrack_print"), "heaptrack");
  EXPECT_EQ(debian_package_of("valgrind"), "valgrind");
}

TEST(Profiled, TheSummaryReadsBackAsWritten) {
  ProfiledRoutine routine;
  routine.benchmark = "a/b=1";
  routine.iterations = 1234;
  routine.timed_ns = 5e9;
  routine.allocations_per_iteration = 2.0;
  const auto back = parse_profiled_json(profiled_json(routine));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->benchmark, "a/b=1");
  EXPECT_EQ(back->iterations, 1234u);
  EXPECT_EQ(back->allocations_per_iteration, 2.0);
  EXPECT_FALSE(back->bytes_per_iteration);
  EXPECT_FALSE(parse_profiled_json("{}"));
}

}  // namespace
}  // namespace benchkit::session
