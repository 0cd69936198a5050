// Real processes: the helper program built with the tests, run through the real executors.
#include "process/run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/stat.h>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>

#include <fstream>
#include <sstream>

#include "process/spawn.hpp"
#include "support/sanitizers.hpp"

namespace benchkit::process {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kMiB = 1024.0 * 1024.0;

#if BENCHKIT_TEST_ASAN
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

const std::string helper = std::string(BENCHKIT_BINARY_DIR) + "/tests/process_helper";

// make_executor then starts the benchkit-spawner of this build.
void use_built_spawner() {
  setenv("BENCHKIT_SPAWNER", (std::string(BENCHKIT_BINARY_DIR) + "/benchkit-spawner").c_str(), 1);
}

class RealRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    use_built_spawner();
    choice_ = make_executor();
    ASSERT_TRUE(choice_.warning.empty()) << choice_.warning;
  }
  RunRecord run(std::vector<std::string> argv, double timeout = 0.0) {
    RunRequest request;
    request.argv = std::move(argv);
    request.timeout_seconds = timeout;
    return choice_.executor->run(request);
  }
  Executor& executor() { return *choice_.executor; }

 private:
  ExecutorChoice choice_;
};

std::string temp_path(const char* name) {
  return ::testing::TempDir() + "/benchkit-run-test-" + std::to_string(getpid()) + "-" + name;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(RealRuns, ASuccessfulRunHasItsTimeAndResources) {
  const RunRecord r = run({helper, "sleep", "20"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_GE(r.wall_ns, 20e6);  // it slept at least that long
  EXPECT_EQ(r.resources.exit_code, 0);
  EXPECT_TRUE(r.resources.user_ns.has_value());
  EXPECT_TRUE(r.resources.system_ns.has_value());
  EXPECT_GT(*r.resources.peak_rss_bytes, 0);
  EXPECT_GT(*r.resources.minor_faults, 0);
  EXPECT_GE(*r.resources.voluntary_switches, 1);  // sleeping gives the CPU away
}

TEST_F(RealRuns, ExitCodesComeBackWithTheLastLinesOfStandardError) {
  const RunRecord r = run({helper, "exit", "3"});
  EXPECT_TRUE(r.started);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.resources.exit_code, 3);
  EXPECT_EQ(r.describe(), "exited with status 3");
  const std::string tail = last_lines(r.stderr_tail, 10);
  EXPECT_THAT(tail, HasSubstr("diagnostic line 15"));
  EXPECT_THAT(tail, HasSubstr("diagnostic line 6"));
  EXPECT_THAT(tail, Not(HasSubstr("diagnostic line 5\n")));
}

TEST_F(RealRuns, SignalsAreReportedByName) {
  // SIGUSR2 (default action: terminate); not SIGSEGV, which sanitizers catch and turn into exit 1.
  const RunRecord r = run({helper, "signal", std::to_string(SIGUSR2)});
  EXPECT_EQ(r.resources.signal, SIGUSR2);
  EXPECT_FALSE(r.resources.exit_code.has_value());
  EXPECT_EQ(r.describe(), "killed by signal " + std::to_string(SIGUSR2) + " (SIGUSR2)");
}

TEST_F(RealRuns, ATimeoutTerminatesTheProcessGroup) {
  const RunRecord r = run({helper, "hang-tree"}, 0.3);
  EXPECT_TRUE(r.resources.timed_out);
  EXPECT_EQ(r.resources.signal, SIGTERM);
  EXPECT_GE(r.wall_ns, 0.3e9);
  EXPECT_LT(r.wall_ns, 30e9);  // it did end
  EXPECT_EQ(r.describe(0.3), "timed out after 0.3 s (killed)");
}

TEST_F(RealRuns, AProcessIgnoringSigtermIsKilled) {
  const RunRecord r = run({helper, "hang", "term"}, 0.2);
  EXPECT_TRUE(r.resources.timed_out);
  EXPECT_EQ(r.resources.signal, SIGKILL);
}

TEST_F(RealRuns, AMissingProgramIsNamed) {
  const RunRecord r = run({"benchkit-no-such-program", "x"});
  EXPECT_FALSE(r.started);
  EXPECT_THAT(r.error, HasSubstr("cannot start benchkit-no-such-program"));
  EXPECT_THAT(r.error, HasSubstr("No such file"));
}

RunRequest shell(const std::string& script) {
  RunRequest request;
  request.argv = {"/bin/sh", "-c", script};
  return request;
}

// Waits (up to 20 s) until the file holds `text`; returns what it holds then.
std::string wait_for_text(const std::string& path, const std::string& text) {
  std::string held;
  for (int i = 0; i < 2000; ++i) {
    held = read_all(path);
    if (held == text) break;
    usleep(10000);
  }
  return held;
}

// An announced run is sent to the spawner at once: it starts as soon as the run before it ends,
// before anyone asks for it, and the call that asks for it gets its own record.
TEST_F(RealRuns, AnAnnouncedRunStartsBeforeItIsAskedForAndAnswersItsTurn) {
  const std::string log = temp_path("announced");
  std::remove(log.c_str());
  ASSERT_TRUE(executor().announce(shell("echo a >> " + log)));
  ASSERT_TRUE(executor().announce(shell("echo b >> " + log + "; exit 3")));
  const RunRecord first = executor().run(shell("echo a >> " + log));
  EXPECT_EQ(first.resources.exit_code, 0) << first.describe();
  EXPECT_EQ(wait_for_text(log, "a\nb\n"), "a\nb\n");  // b ran without being asked
  const RunRecord second = executor().run(shell("echo b >> " + log + "; exit 3"));
  EXPECT_EQ(second.resources.exit_code, 3);
  EXPECT_EQ(read_all(log), "a\nb\n");  // and only once
  std::remove(log.c_str());
}

// An announced run that is not asked for has run; its record is dropped and the next call
// gets its own.
TEST_F(RealRuns, AnAnnouncedRunNotAskedForIsDroppedAndTheAnswersStayInStep) {
  const std::string log = temp_path("dropped");
  std::remove(log.c_str());
  ASSERT_TRUE(executor().announce(shell("exit 0")));
  ASSERT_TRUE(executor().announce(shell("echo announced >> " + log)));
  EXPECT_EQ(executor().run(shell("exit 0")).resources.exit_code, 0);
  const RunRecord other = executor().run(shell("exit 7"));
  EXPECT_EQ(other.resources.exit_code, 7);
  EXPECT_EQ(read_all(log), "announced\n");
  EXPECT_EQ(executor().run(shell("exit 9")).resources.exit_code, 9);
  std::remove(log.c_str());
}

// After a run that failed, the spawner starts none of the runs announced after it (a benchmark
// that crashed or hung is not run again for nothing); one asked for then runs, once.
TEST_F(RealRuns, RunsAnnouncedAfterAFailedOneDoNotStartUntilAskedFor) {
  const std::string log = temp_path("skipped");
  std::remove(log.c_str());
  ASSERT_TRUE(executor().announce(shell("exit 4")));
  ASSERT_TRUE(executor().announce(shell("echo second >> " + log)));
  ASSERT_TRUE(executor().announce(shell("echo third >> " + log)));
  EXPECT_EQ(executor().run(shell("exit 4")).resources.exit_code, 4);
  usleep(200000);
  EXPECT_EQ(read_all(log), "");  // neither started on its own
  const RunRecord third = executor().run(shell("echo third >> " + log));
  EXPECT_EQ(third.resources.exit_code, 0) << third.describe();
  EXPECT_EQ(read_all(log), "third\n");
  std::remove(log.c_str());
}

// Many runs announced at once come back in batches, each record to the call that asks for its
// run: run i writes i bytes on its standard output, and its record says so.
TEST_F(RealRuns, ManyAnnouncedRunsAnswerInOrder) {
  const auto printing = [](int bytes) {
    RunRequest request = shell("head -c " + std::to_string(bytes) + " /dev/zero");
    request.output = Output::pipe;
    return request;
  };
  int announced = 0;
  while (announced < 100 && executor().announce(printing(announced))) ++announced;
  EXPECT_GE(announced, 16);  // the spawner takes dozens ahead
  for (int i = 0; i < 100; ++i) {
    const RunRecord record = executor().run(printing(i));
    ASSERT_TRUE(record.ok()) << i << ": " << record.describe();
    EXPECT_EQ(record.stdout_bytes, static_cast<std::uint64_t>(i));
    if (announced < 100 && executor().announce(printing(announced))) ++announced;
  }
}

// An executor that ends with an announced run still going (the caller stopped) cuts it short.
TEST(AnnouncedRuns, ARunAnnouncedAndLeftOverIsStoppedWithTheExecutor) {
  use_built_spawner();
  const std::string log = temp_path("left-over");
  std::remove(log.c_str());
  auto start = std::chrono::steady_clock::now();
  {
    ExecutorChoice choice = make_executor();
    ASSERT_TRUE(choice.warning.empty()) << choice.warning;
    ASSERT_TRUE(choice.executor->announce(shell("exit 0")));
    ASSERT_TRUE(choice.executor->announce(
        shell("echo started >> " + log + "; sleep 60; echo ended >> " + log)));
    ASSERT_TRUE(choice.executor->announce(shell("echo third >> " + log)));
    choice.executor->run(shell("exit 0"));
    ASSERT_EQ(wait_for_text(log, "started\n"), "started\n");
    start = std::chrono::steady_clock::now();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(read_all(log), "started\n");
  std::remove(log.c_str());
}

// The mask of /proc/PID/status line `field` ("SigIgn:", "SigCgt:") in `status`.
std::uint64_t signal_mask(const std::string& status, const std::string& field) {
  const std::size_t at = status.find(field);
  if (at == std::string::npos) return ~std::uint64_t{0};
  return std::stoull(status.substr(at + field.size()), nullptr, 16);
}

// A signal ignored where benchkit was started (nohup's SIGHUP, a CI runner's SIGPIPE) is at its
// default again in the command, and so are the spawner's own handlers (SIGINT, SIGTERM),
// though the spawner looks its dispositions up once (freeze_signal_dispositions) rather than
// resetting all of them before every run. (glibc's own signals 32 and 33 are left as they are.)
TEST(SignalDispositions, ACommandStartsWithDefaultDispositions) {
  use_built_spawner();
  const std::string status = temp_path("dispositions");
  auto* const previous = std::signal(SIGUSR1, SIG_IGN);
  ExecutorChoice choice = make_executor();  // the spawner inherits SIGUSR1 ignored
  std::signal(SIGUSR1, previous);
  ASSERT_TRUE(choice.warning.empty()) << choice.warning;
  RunRequest request;
  request.argv = {"cat", "/proc/self/status"};
  request.output = Output::file;
  request.output_path = status;
  const std::uint64_t checked =
      (1u << (SIGUSR1 - 1)) | (1u << (SIGINT - 1)) | (1u << (SIGTERM - 1));
  for (int run = 0; run < 2; ++run) {
    std::remove(status.c_str());
    ASSERT_TRUE(choice.executor->run(request).ok());
    const std::string text = read_all(status);
    EXPECT_EQ(signal_mask(text, "SigIgn:") & checked, 0u) << text;
    EXPECT_EQ(signal_mask(text, "SigCgt:") & checked, 0u) << text;
  }
  std::remove(status.c_str());
}

// The program is looked up in PATH as execvp would (once, then remembered): a file of that name
// that cannot be executed is passed over for the next folder's, and each run finds it again.
TEST(PathSearch, ANameRunsTheFirstExecutableOfThatNameInPath) {
  const std::string skipped = temp_path("path-skipped");
  const std::string chosen = temp_path("path-chosen");
  for (const std::string& folder : {skipped, chosen})
    ASSERT_EQ(system(("mkdir -p " + folder).c_str()), 0);
  std::ofstream(skipped + "/benchkit-probe") << "#!/bin/sh\nexit 5\n";  // not executable
  std::ofstream(chosen + "/benchkit-probe") << "#!/bin/sh\nexit 7\n";
  ASSERT_EQ(chmod((chosen + "/benchkit-probe").c_str(), 0755), 0);
  const std::string old_path = getenv("PATH");
  setenv("PATH", (skipped + ":" + chosen + ":" + old_path).c_str(), 1);
  use_built_spawner();
  ExecutorChoice choice = make_executor();  // its spawner starts with this PATH
  setenv("PATH", old_path.c_str(), 1);
  RunRequest request;
  request.argv = {"benchkit-probe"};
  for (int run = 0; run < 2; ++run) {
    const RunRecord r = choice.executor->run(request);
    ASSERT_TRUE(r.started) << r.error;
    EXPECT_EQ(r.resources.exit_code, 7) << "run " << run;
  }
  request.argv = {"benchkit-probe-missing"};
  const RunRecord missing = choice.executor->run(request);
  EXPECT_FALSE(missing.started);
  EXPECT_THAT(missing.error, HasSubstr("cannot start benchkit-probe-missing"));
  ASSERT_EQ(system(("rm -rf " + skipped + " " + chosen).c_str()), 0);
}

TEST_F(RealRuns, PeakRssOfATwoHundredMibProgramIsWithinFivePercent) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer's shadow memory changes resident sizes";
  const RunRecord r = run({helper, "touch", "200"});
  ASSERT_TRUE(r.ok()) << r.describe();
  const double mib = static_cast<double>(*r.resources.peak_rss_bytes) / kMiB;
  EXPECT_GE(mib, 200 * 0.95);
  EXPECT_LE(mib, 200 * 1.05);
}

TEST_F(RealRuns, PeakRssIsTheCommandsOwnNotTheHarnesss) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer's shadow memory changes resident sizes";
  // This test process holds 300 MiB; a command forked from it directly would be charged them.
  std::vector<char> ballast(300u << 20, 1);
  const RunRecord through_helper = run({helper, "sleep", "0"});
  RunRequest request;
  request.argv = {helper, "sleep", "0"};
  const RunRecord from_here = run_one(request);
  EXPECT_LT(static_cast<double>(*through_helper.resources.peak_rss_bytes) / kMiB, 20.0);
  EXPECT_GT(static_cast<double>(*from_here.resources.peak_rss_bytes) / kMiB, 250.0);
  EXPECT_EQ(ballast[12345], 1);
}

TEST_F(RealRuns, PeakRssAgreesWithGnuTime) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer's shadow memory changes resident sizes";
  if (access("/usr/bin/time", X_OK) != 0) GTEST_SKIP() << "/usr/bin/time is not installed";
  const std::string out = temp_path("time");
  RunRequest request;
  request.argv = {"/usr/bin/time", "-f", "%M", "-o", out, "true"};
  ASSERT_TRUE(executor().run(request).ok());
  const double gnu_kib = std::stod(read_all(out));
  std::remove(out.c_str());
  const RunRecord ours = run({"true"});
  const double ours_kib = static_cast<double>(*ours.resources.peak_rss_bytes) / 1024.0;
  // The same small program: a few hundred KiB apart at most (libc mappings vary run to run).
  EXPECT_NEAR(ours_kib, gnu_kib, std::max(512.0, 0.25 * gnu_kib))
      << "benchkit " << ours_kib << " KiB, /usr/bin/time " << gnu_kib << " KiB";
}

TEST_F(RealRuns, CpuTimeOfABusyProgramIsCounted) {
  const RunRecord r = run({helper, "burn", "200"});
  ASSERT_TRUE(r.ok());
  EXPECT_GT(*r.resources.user_ns + *r.resources.system_ns, 0.3 * 200e6);
  EXPECT_LE(*r.resources.user_ns, r.wall_ns * 1.05 + 10e6);  // one thread: not above wall time
}

TEST_F(RealRuns, InputOutputAndEnvironmentAreWiredAsAsked) {
  const std::string in = temp_path("in");
  const std::string out = temp_path("out");
  std::ofstream(in) << std::string(100000, 'x');
  RunRequest request;
  request.argv = {helper, "cat"};
  request.input_path = in;
  request.output = Output::pipe;
  RunRecord piped = executor().run(request);
  ASSERT_TRUE(piped.ok());
  EXPECT_EQ(piped.stdout_bytes, 100000u);
  request.output = Output::file;
  request.output_path = out;
  ASSERT_TRUE(executor().run(request).ok());
  EXPECT_EQ(read_all(out).size(), 100000u);
  std::remove(out.c_str());
  RunRequest env;
  env.argv = {helper, "env", "BENCHKIT_TEST_LEVEL"};
  env.env = {"BENCHKIT_TEST_LEVEL=7"};
  env.output = Output::file;
  env.output_path = out;
  ASSERT_TRUE(executor().run(env).ok());
  EXPECT_EQ(read_all(out), "7");
  std::remove(out.c_str());
  std::remove(in.c_str());
  RunRequest missing;
  missing.argv = {helper, "cat"};
  missing.input_path = "/nonexistent/input";
  EXPECT_THAT(executor().run(missing).error, HasSubstr("cannot open the input file"));
}

TEST_F(RealRuns, PinningRestrictsTheCpus) {
  const std::string out = temp_path("cpus");
  RunRequest request;
  request.argv = {helper, "cpus"};
  request.cpus = {0};
  request.output = Output::file;
  request.output_path = out;
  ASSERT_TRUE(executor().run(request).ok());
  EXPECT_EQ(read_all(out), "0,");
  std::remove(out.c_str());
}

}  // namespace
}  // namespace benchkit::process
