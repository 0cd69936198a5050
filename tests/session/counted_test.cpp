#include "session/counted.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "process/temporary_folder.hpp"

namespace benchkit::session {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CountedEnvironment, KeepsOnlyTheFixedVariablesAndThoseAskedFor) {
  const std::vector<std::string> environment = {"PATH=/usr/bin",   "HOME=/root",  "TERM=xterm",
                                                "BENCHKIT_DIR=/x", "RANDOM_ID=9", "WANTED=1",
                                                "LANG=fr_FR.UTF-8"};
  EXPECT_THAT(
      counted_environment(environment, {"WANTED"}),
      ElementsAre("BENCHKIT_DIR=/x", "HOME=/root", "LC_ALL=C", "PATH=/usr/bin", "WANTED=1"));
  // The same variables in another order give the same environment (the same stack).
  std::vector<std::string> reversed(environment.rbegin(), environment.rend());
  EXPECT_EQ(counted_environment(reversed, {"WANTED"}),
            counted_environment(environment, {"WANTED"}));
  EXPECT_THAT(counted_environment({}, {}), Contains("PATH=/usr/bin:/bin"));
}

TEST(CallgrindCommand, PinsTheCachesAndCountsNothingUntilAsked) {
  const CountedFiles files{"/tmp/run"};
  const auto command = callgrind_command("/usr/bin/valgrind", files, false);
  EXPECT_EQ(command.front(), "/usr/bin/valgrind");
  for (const char* option :
       {"--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--cache-sim=yes",
        "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64", "--collect-systime=yes",
        "--callgrind-out-file=/tmp/run/callgrind.out.%p", "--trace-children=no"}) {
    EXPECT_THAT(command, Contains(std::string(option)));
  }
  EXPECT_THAT(callgrind_command("v", files, true), Contains(std::string("--trace-children=yes")));
}

TEST(UnhandledInstruction, NamesTheInstructionAndTheWayOut) {
  const auto folder = process::make_temporary_folder("benchkit-counted-test");
  ASSERT_TRUE(folder);
  const process::FolderRemover remover(*folder);
  EXPECT_EQ(unhandled_instruction_message(*folder), "");
  std::ofstream(*folder + "/valgrind.123.log")
      << "==123== Callgrind, a call-graph generating cache profiler\n"
         "vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0xFD 0x48\n"
         "==123== Process terminating with default action of signal 4 (SIGILL)\n";
  const std::string message = unhandled_instruction_message(*folder);
  EXPECT_THAT(message, HasSubstr("0x62 0xF1"));
  EXPECT_THAT(message, HasSubstr("-march"));

  RunResult run;
  BenchmarkResult crashed;
  crashed.name = "avx512";
  crashed.failure = Failure{Failure::Cause::crashed, 4, {}, {}};
  crashed.failures = {"crashed: killed by signal 4 (SIGILL)"};
  run.benchmarks.push_back(crashed);
  explain_crashes(run, *folder);
  EXPECT_THAT(run.benchmarks[0].failures.front(), HasSubstr("killed by signal 4"));
  EXPECT_THAT(run.benchmarks[0].failures.front(), HasSubstr("older CPU"));
}

}  // namespace
}  // namespace benchkit::session
