#include "process/handshake.hpp"

#include <gtest/gtest.h>

#include "benchkit_build_info.hpp"
#include "support/run_command.hpp"

namespace benchkit::process {
namespace {

const std::string kBench = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";

TEST(BenchHandshake, TheBinaryPrintsExactlyOneLine) {
  const auto result = testing::run_command(kBench + " --benchkit-info");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, std::string("{\"benchkit\": \"") + build_info::version +
                            "\", \"protocol\": 1, \"turns\": true}\n");
  EXPECT_EQ(result.out, bench_info_line());
}

TEST(BenchHandshake, ProbeRecognisesABenchBinary) {
  const auto handshake = probe_bench_binary(kBench);
  ASSERT_TRUE(handshake) << handshake.error().message;
  EXPECT_TRUE(handshake->benchkit) << handshake->problem;
  EXPECT_EQ(handshake->version, build_info::version);
  EXPECT_EQ(handshake->protocol, kBenchProtocol);
  EXPECT_TRUE(handshake->turns) << "this version samples in turns (side-by-side comparisons)";
}

TEST(BenchHandshake, OtherProgramsFailItAndSayHow) {
  const auto silent = probe_bench_binary("/bin/true");
  ASSERT_TRUE(silent);
  EXPECT_FALSE(silent->benchkit);
  EXPECT_EQ(silent->problem, "it exited without answering --benchkit-info");
  const auto failing = probe_bench_binary("/bin/false");
  ASSERT_TRUE(failing);
  EXPECT_FALSE(failing->benchkit);
  EXPECT_NE(failing->problem.find("exited with status 1"), std::string::npos);
  const auto chatty = probe_bench_binary("/bin/echo");  // prints "--benchkit-info"
  ASSERT_TRUE(chatty);
  EXPECT_FALSE(chatty->benchkit);
  EXPECT_NE(chatty->problem.find("not the benchkit handshake"), std::string::npos);
  EXPECT_FALSE(probe_bench_binary("/no/such/program"));
}

}  // namespace
}  // namespace benchkit::process
