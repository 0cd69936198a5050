// The programs the tests run as real processes, by their paths in the build folder: the benchkit
// command and the bench binaries and other tools tests/CMakeLists.txt builds for them.
#pragma once

#include <string>

namespace benchkit::testing {

inline const std::string kTool = std::string(BENCHKIT_BINARY_DIR) + "/benchkit";
inline const std::string kSampleBench = std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench";
// sample_bench with copy_string sixteen times longer built in (SAMPLE_BENCH_SLOW_BUILD).
inline const std::string kSampleBenchSlow =
    std::string(BENCHKIT_BINARY_DIR) + "/tests/sample_bench_slow";
inline const std::string kScenarioBench =
    std::string(BENCHKIT_BINARY_DIR) + "/tests/scenario_bench";
inline const std::string kDataBench = std::string(BENCHKIT_BINARY_DIR) + "/tests/data_bench";
inline const std::string kMisbehavingBench =
    std::string(BENCHKIT_BINARY_DIR) + "/tests/misbehaving_bench";
inline const std::string kCountedBench = std::string(BENCHKIT_BINARY_DIR) + "/tests/counted_bench";
inline const std::string kProfileBench = std::string(BENCHKIT_BINARY_DIR) + "/tests/profile_bench";
// The Google Benchmark suite with BM_sum twice as slow (GBENCH_SUITE_SLOWER_PERCENT=100).
inline const std::string kGbenchSuiteSlower =
    std::string(BENCHKIT_BINARY_DIR) + "/tests/gbench_suite_slower";

}  // namespace benchkit::testing
