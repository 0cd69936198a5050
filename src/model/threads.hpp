// The thread count of a threaded micro benchmark (Registration::threads), kept in its result as
// the parameter "threads" (its name ends in "/threads=N"): what divides its time per iteration
// into the time per iteration of all its threads, and what counters averaged over threads divide
// by.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

#include "benchkit/result.hpp"

namespace benchkit::model {

// The benchmark's thread count: BenchmarkResult::threads when set (an imported Google Benchmark
// row's), else its "threads" parameter, 1 when it has neither (or a value that is not a
// positive integer, as an imported file might hold).
inline std::uint32_t thread_count(const BenchmarkResult& benchmark) {
  if (benchmark.threads && *benchmark.threads > 0) return *benchmark.threads;
  const auto found = benchmark.params.find("threads");
  if (found == benchmark.params.end()) return 1;
  const std::string& text = found->second;
  std::uint32_t count = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (error != std::errc{} || end != text.data() + text.size() || count == 0) return 1;
  return count;
}

// True for a result of a threaded benchmark (one that has the "threads" parameter), whatever N.
inline bool is_threaded(const BenchmarkResult& benchmark) {
  return benchmark.params.count("threads") != 0;
}

// What benchkit's time per iteration is divided by to give Google Benchmark's (all the threads
// together) and its iterations multiplied by: the thread count of a threaded benchmark measured
// here, whose time is one thread's; 1 for anything else, an imported row's time being Google
// Benchmark's already.
inline std::uint32_t gbench_thread_share(const BenchmarkResult& benchmark) {
  return is_threaded(benchmark) ? thread_count(benchmark) : 1;
}

}  // namespace benchkit::model
