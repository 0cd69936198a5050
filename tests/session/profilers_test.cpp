// Each profiler's steps without its tool: the command line it builds around the bench binary,
// the files it clears and reads, its conversion and what it adds to a failure. The real tools run
// in tests/valgrind/profile_test.cpp.
#include "session/profilers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "process/temporary_folder.hpp"
#include "support/text_file.hpp"

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::vector<std::string> kBench = {"./bench", "--filter", "f"};

using benchkit::testing::write_text_file;

class Profilers : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = process::make_temporary_folder("benchkit-profilers-test");
    ASSERT_TRUE(made) << made.error().message;
    folder_ = std::make_unique<process::FolderRemover>(*made);
  }
  const std::string& dir() const { return folder_->path(); }

  std::unique_ptr<process::FolderRemover> folder_;
};

TEST(ProfilerChoice, EachToolHasItsOwnProfiler) {
  for (const model::ProfileTool tool : model::kProfileTools) {
    const auto profiler = make_profiler(tool);
    ASSERT_TRUE(profiler);
    EXPECT_EQ(profiler->tool(), tool) << model::profile_tool_name(tool);
  }
}

TEST(ProfilerChoice, TheProgramsEachNeeds) {
  EXPECT_THAT(make_profiler(model::ProfileTool::callgrind)->programs(), ElementsAre("valgrind"));
  EXPECT_THAT(make_profiler(model::ProfileTool::massif)->programs(), ElementsAre("valgrind"));
  EXPECT_THAT(make_profiler(model::ProfileTool::heaptrack)->programs(),
              ElementsAre("heaptrack", "heaptrack_print"));
  EXPECT_THAT(make_profiler(model::ProfileTool::strace)->programs(), ElementsAre("strace"));
  EXPECT_THAT(make_profiler(model::ProfileTool::perf)->programs(), ElementsAre("perf"));
}

TEST(ProfilerChoice, OnlyTheHeapProfilersAskForAllocationCounts) {
  for (const model::ProfileTool tool : model::kProfileTools) {
    const bool heap = tool == model::ProfileTool::massif || tool == model::ProfileTool::heaptrack;
    EXPECT_EQ(make_profiler(tool)->profiles_heap(), heap) << model::profile_tool_name(tool);
  }
}

TEST(Callgrind, RunsValgrindWithCollectionOffUntilTheRegion) {
  const auto profiler = make_profiler(model::ProfileTool::callgrind);
  EXPECT_EQ(profiler->markers("/p"), "callgrind");
  EXPECT_THAT(profiler->stale_files("/p"), ElementsAre("/p/callgrind.out"));
  EXPECT_THAT(profiler->command({{"valgrind", "/usr/bin/valgrind"}}, "/p", kBench),
              ElementsAre("/usr/bin/valgrind", "--tool=callgrind", "--log-file=/p/valgrind.log",
                          "--instr-atstart=no", "--collect-atstart=no", "--dump-line=yes",
                          "--compress-strings=no", "--compress-pos=no",
                          "--callgrind-out-file=/p/callgrind.out", "./bench", "--filter", "f"));
  const auto conversion = profiler->conversion({{"valgrind", "/usr/bin/valgrind"}}, "/p");
  ASSERT_TRUE(conversion);
  EXPECT_FALSE(*conversion);
}

TEST_F(Profilers, CallgrindReadsItsProfileIntoFunctionsAndStacks) {
  write_text_file(dir() + "/callgrind.out",
                  "events: Ir\nfl=/src/a.cpp\nfn=main\n10 10\ncfn=work\ncalls=1 20\n11 90\n"
                  "fn=work\n20 90\n");
  const auto profiler = make_profiler(model::ProfileTool::callgrind);
  model::Profile profile;
  const auto read = profiler->read(profile, dir(), "");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(profile.unit, "instructions");
  EXPECT_EQ(profile.total, 100.0);
  ASSERT_FALSE(profile.functions.empty());
  EXPECT_EQ(profile.functions[0].name, "work");
  EXPECT_FALSE(profile.stacks.empty());
  EXPECT_THAT(profile.files, ElementsAre(dir() + "/callgrind.out", dir() + "/valgrind.log"));
  EXPECT_EQ(profile.notes.size(), 2u);
}

TEST_F(Profilers, CallgrindWithoutItsFileIsAnError) {
  model::Profile profile;
  EXPECT_FALSE(make_profiler(model::ProfileTool::callgrind)->read(profile, dir(), ""));
}

TEST_F(Profilers, AValgrindFailureEndsWithValgrindsLog) {
  write_text_file(dir() + "/valgrind.log", "==1== Valgrind's memory management: out of memory\n");
  const auto profiler = make_profiler(model::ProfileTool::massif);
  const model::Error error = profiler->explain_failure(
      {"massif of ./bench exited with status 1", model::ErrorKind::failed}, dir());
  EXPECT_EQ(error.kind, model::ErrorKind::failed);
  EXPECT_THAT(error.message, HasSubstr("massif of ./bench exited with status 1\n"
                                       "valgrind's log ends:\n==1== Valgrind's memory"));
  // No log: the error as it was.
  EXPECT_EQ(make_profiler(model::ProfileTool::callgrind)
                ->explain_failure({"x", model::ErrorKind::failed}, dir() + "/none")
                .message,
            "x");
}

TEST(Massif, RunsValgrindOverTheWholeProcessWithInlinedFrames) {
  const auto profiler = make_profiler(model::ProfileTool::massif);
  EXPECT_EQ(profiler->markers("/p"), "none");
  EXPECT_THAT(profiler->stale_files("/p"), ElementsAre("/p/massif.out"));
  EXPECT_THAT(profiler->command({{"valgrind", "/v"}}, "/p", kBench),
              ElementsAre("/v", "--tool=massif", "--log-file=/p/valgrind.log", "--depth=40",
                          "--read-inline-info=yes", "--massif-out-file=/p/massif.out", "./bench",
                          "--filter", "f"));
}

TEST_F(Profilers, MassifReadsThePeakAndItsSites) {
  write_text_file(dir() + "/massif.out",
                  "snapshot=0\n"
                  "mem_heap_B=4096\n"
                  "heap_tree=peak\n"
                  "n1: 4096 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
                  " n0: 4096 0x1: allocate_blocks() (profile_bench.cpp:40)\n");
  model::Profile profile;
  const auto read = make_profiler(model::ProfileTool::massif)->read(profile, dir(), "");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(profile.unit, "bytes");
  ASSERT_TRUE(profile.peak_heap_bytes);
  EXPECT_EQ(*profile.peak_heap_bytes, 4096.0);
  ASSERT_EQ(profile.peak_sites.size(), 1u);
  EXPECT_EQ(profile.peak_sites[0].function, "allocate_blocks()");
  EXPECT_THAT(profile.files, ElementsAre(dir() + "/massif.out", dir() + "/valgrind.log"));
}

TEST(Heaptrack, RunsHeaptrackWithItsOutputInTheFolder) {
  const auto profiler = make_profiler(model::ProfileTool::heaptrack);
  EXPECT_EQ(profiler->markers("/p"), "none");
  EXPECT_THAT(profiler->stale_files("/p"), ElementsAre("/p/heaptrack.zst", "/p/heaptrack.gz"));
  EXPECT_THAT(profiler->command({{"heaptrack", "/h"}, {"heaptrack_print", "/hp"}}, "/p", kBench),
              ElementsAre("/h", "-o", "/p/heaptrack", "./bench", "--filter", "f"));
}

TEST_F(Profilers, HeaptrackIsReadThroughHeaptrackPrintOfTheFileItWrote) {
  const auto profiler = make_profiler(model::ProfileTool::heaptrack);
  const ProgramPaths programs = {{"heaptrack", "/h"}, {"heaptrack_print", "/hp"}};
  const auto none = profiler->conversion(programs, dir());
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, model::ErrorKind::failed);
  EXPECT_THAT(none.error().message, HasSubstr("heaptrack wrote no " + dir() + "/heaptrack.zst"));

  write_text_file(dir() + "/heaptrack.gz", "");
  const auto conversion = profiler->conversion(programs, dir());
  ASSERT_TRUE(conversion) << conversion.error().message;
  ASSERT_TRUE(*conversion);
  EXPECT_THAT((*conversion)->argv,
              ElementsAre("/hp", "-f", dir() + "/heaptrack.gz", "--merge-backtraces=0",
                          "--print-allocators=0", "--print-temporary=0"));
  EXPECT_EQ((*conversion)->what, "heaptrack_print -f " + dir() + "/heaptrack.gz");

  const std::string printed =
      "PEAK MEMORY CONSUMERS\n"
      "400.00K peak memory consumed over 100 calls from\n"
      "allocate_blocks(int)\n"
      "  at /tmp/t.cpp:3\n"
      "\n"
      "calls to allocation functions: 210 (70000/s)\n"
      "peak heap memory consumption: 480.22K\n";
  model::Profile profile;
  const auto read = profiler->read(profile, dir(), printed);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(profile.unit, "bytes");
  EXPECT_EQ(profile.peak_heap_bytes, 480220.0);
  ASSERT_EQ(profile.peak_sites.size(), 1u);
  EXPECT_THAT(profile.notes[0], HasSubstr("210 calls to allocation functions"));
  EXPECT_THAT(profile.files, ElementsAre(dir() + "/heaptrack.gz", dir() + "/heaptrack.txt"));
  std::ifstream kept(dir() + "/heaptrack.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), printed);
}

TEST(Strace, TracesEveryThreadWithTimes) {
  const auto profiler = make_profiler(model::ProfileTool::strace);
  EXPECT_EQ(profiler->markers("/p"), "strace");
  EXPECT_THAT(profiler->stale_files("/p"), IsEmpty());
  EXPECT_THAT(profiler->command({{"strace", "/s"}}, "/p", kBench),
              ElementsAre("/s", "-f", "-T", "-o", "/p/strace.txt", "./bench", "--filter", "f"));
}

TEST_F(Profilers, StraceReadsOnlyTheRegion) {
  write_text_file(dir() + "/strace.txt",
                  "1 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY) = 3 <0.000020>\n"
                  "1 access(\"/benchkit-profile-region-begins\", F_OK) = -1 ENOENT (No such file) "
                  "<0.000005>\n"
                  "1 getppid() = 7 <0.000002>\n"
                  "1 access(\"/benchkit-profile-region-ends\", F_OK) = -1 ENOENT (No such file) "
                  "<0.000005>\n"
                  "1 write_text_file(1, \"done\", 4) = 4 <0.000010>\n");
  model::Profile profile;
  const auto read = make_profiler(model::ProfileTool::strace)->read(profile, dir(), "");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(profile.unit, "system calls");
  ASSERT_EQ(profile.system_calls.size(), 1u);
  EXPECT_EQ(profile.system_calls[0].name, "getppid");
  EXPECT_THAT(profile.files, ElementsAre(dir() + "/strace.txt"));
}

TEST(Perf, RecordsTheCpuClockWithEventsOffUntilTheRegion) {
  const auto profiler = make_profiler(model::ProfileTool::perf);
  EXPECT_EQ(profiler->markers("/p"), "perf:/p/perf-control.fifo,/p/perf-ack.fifo");
  EXPECT_THAT(profiler->command({{"perf", "/usr/bin/perf"}}, "/p", kBench),
              ElementsAre("/usr/bin/perf", "record", "-e", "cpu-clock", "-F", "999", "-g", "-o",
                          "/p/perf.data", "--delay=-1",
                          "--control=fifo:/p/perf-control.fifo,/p/perf-ack.fifo", "--", "./bench",
                          "--filter", "f"));
  const auto conversion = profiler->conversion({{"perf", "/usr/bin/perf"}}, "/p");
  ASSERT_TRUE(conversion);
  ASSERT_TRUE(*conversion);
  EXPECT_THAT((*conversion)->argv, ElementsAre("/usr/bin/perf", "script", "-i", "/p/perf.data"));
}

TEST(Perf, AFailedRecordIsAUsageErrorThatSaysWhy) {
  const model::Error error =
      make_profiler(model::ProfileTool::perf)
          ->explain_failure({"perf of ./bench exited with status 255", model::ErrorKind::failed},
                            "/p");
  EXPECT_EQ(error.kind, model::ErrorKind::usage);
  EXPECT_THAT(error.message, HasSubstr("perf cannot sample here: perf of ./bench exited"));
  EXPECT_THAT(error.message, HasSubstr("perf_event_paranoid"));
}

TEST_F(Profilers, PerfsFifosLastAsLongAsItsSetUp) {
  const auto profiler = make_profiler(model::ProfileTool::perf);
  auto set_up = profiler->prepare(dir());
  ASSERT_TRUE(set_up) << set_up.error().message;
  struct stat control {};
  ASSERT_EQ(::stat((dir() + "/perf-control.fifo").c_str(), &control), 0);
  EXPECT_TRUE(S_ISFIFO(control.st_mode));
  EXPECT_TRUE(std::filesystem::exists(dir() + "/perf-ack.fifo"));
  set_up->reset();
  EXPECT_FALSE(std::filesystem::exists(dir() + "/perf-control.fifo"));
  EXPECT_FALSE(std::filesystem::exists(dir() + "/perf-ack.fifo"));
}

TEST(Perf, SamplesBecomeStacksAndNoSamplesIsAnError) {
  const auto profiler = make_profiler(model::ProfileTool::perf);
  model::Profile profile;
  const auto read = profiler->read(profile, "/p",
                                   "bench 10 1.0: 250000 cpu-clock:\n"
                                   "\t    1139 mix+0x19 (/tmp/bench)\n"
                                   "\t    1300 main+0x5 (/tmp/bench)\n");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(profile.unit, "samples (cpu-clock)");
  EXPECT_EQ(profile.total, 1.0);
  ASSERT_EQ(profile.stacks.size(), 1u);
  EXPECT_THAT(profile.stacks[0].frames, ElementsAre("main", "mix"));
  EXPECT_THAT(profile.files, ElementsAre("/p/perf.data"));

  model::Profile empty;
  const auto none = profiler->read(empty, "/p", "");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(none.error().message, HasSubstr("perf recorded no samples"));
}

}  // namespace
}  // namespace benchkit::session
