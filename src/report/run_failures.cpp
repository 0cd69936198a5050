#include "report/run_failures.hpp"

#include <fmt/format.h>

namespace benchkit::report {

std::string failure_summary(const RunResult& run, std::size_t invalid_runs) {
  std::size_t failed = 0;
  std::string lines;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    if (!benchmark.failure) continue;
    ++failed;
    lines += fmt::format("  {}: {}\n", benchmark.name, benchmark.failures.front());
  }
  if (failed > 0) {
    return fmt::format("{} benchmark(s) failed; every other benchmark is measured{}:\n", failed,
                       run.benchmarks.size() > failed ? " and kept" : "") +
           lines;
  }
  if (invalid_runs > 0) {
    return fmt::format("{} scenario run(s) failed a check and are kept out of comparisons\n",
                       invalid_runs);
  }
  return {};
}

RunFailures bench_failures(
    const RunResult& run,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& invalid_runs,
    bool interrupted, const std::vector<std::string>& kept_in) {
  RunFailures failures;
  for (const auto& [name, checks] : invalid_runs) {
    for (const std::string& check : checks) {
      failures.errors.push_back(fmt::format("{} is invalid: {}", name, check));
    }
  }
  failures.note = failure_summary(run, invalid_runs.size());
  if (interrupted) {
    failures.note += fmt::format(
        "interrupted: what finished before it is shown{}\n",
        kept_in.empty() ? "" : fmt::format(" and kept in {}", fmt::join(kept_in, " and ")));
  }
  return failures;
}

std::string interrupted_note(std::string_view figures, std::string_view parts) {
  return fmt::format("interrupted: {} rest on the {} that finished before it (exit status 130)\n",
                     figures, parts);
}

}  // namespace benchkit::report
