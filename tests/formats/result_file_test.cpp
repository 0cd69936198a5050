#include "formats/result_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "formats/result_json.hpp"
#include "support/interop_fixture.hpp"
#include "support/sample_run.hpp"

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

using benchkit::testing::interop_fixture;

TEST(ResultFile, TellsTheFormatFromTheContent) {
  const auto benchkit = read_result(to_json(testing::sample_run()), "a");
  ASSERT_TRUE(benchkit) << benchkit.error().message;
  EXPECT_EQ(benchkit->format, SourceFormat::benchkit);
  EXPECT_TRUE(benchkit->estimates_present);
  // gbench_single.json holds bare NaN and Infinity: not strict JSON, still read.
  const auto gbench = read_result(interop_fixture("gbench_single.json"), "b");
  ASSERT_TRUE(gbench) << gbench.error().message;
  EXPECT_EQ(gbench->format, SourceFormat::google_benchmark);
  EXPECT_FALSE(gbench->estimates_present);
  const auto hyperfine = read_result(interop_fixture("hyperfine_two_commands.json"), "c");
  ASSERT_TRUE(hyperfine) << hyperfine.error().message;
  EXPECT_EQ(hyperfine->format, SourceFormat::hyperfine);
}

TEST(ResultFile, AnythingElseSaysWhatWasExpected) {
  const auto other = read_result(R"({"data": [1, 2]})", "other.json");
  ASSERT_FALSE(other);
  EXPECT_THAT(other.error().message, HasSubstr("other.json: not a result file benchkit reads"));
  EXPECT_THAT(other.error().message, HasSubstr("--benchmark_out_format=json"));
  EXPECT_THAT(other.error().message, HasSubstr("--export-json"));
}

TEST(ResultFile, DamagedJsonIsReportedAsStrictJsonSeesIt) {
  const auto damaged = read_result("{\"schema\": \"benchkit/result\", NaN", "bad.json");
  ASSERT_FALSE(damaged);
  EXPECT_THAT(damaged.error().message, HasSubstr("bad.json: not valid JSON at line 1"));
  // NaN is Google Benchmark's, not benchkit's: a benchkit result with it stays refused.
  const auto with_nan = read_result(
      R"({"schema": "benchkit/result", "version": 1, "benchmarks": [{"name": "a", "samples": [{"iters": 1, "ns": NaN}]}]})",
      "nan.json");
  ASSERT_FALSE(with_nan);
  EXPECT_THAT(with_nan.error().message, HasSubstr("not valid JSON"));
}

}  // namespace
}  // namespace benchkit::formats
