#include "report/progress_text.hpp"

#include <fmt/format.h>

namespace benchkit::report {

std::string benchmark_progress(std::size_t process, std::size_t processes, std::size_t index,
                               std::size_t total, const std::string& name) {
  const std::string where =
      processes > 1 ? fmt::format("[process {}/{}] ", process + 1, processes) : "";
  return fmt::format("{}[{}/{}] {}", where, index + 1, total, name);
}

std::string round_progress(std::size_t round, std::size_t planned, std::size_t index,
                           std::size_t count, const std::string& name, const std::string& note) {
  return fmt::format("[round {}/{}] [{}/{}] {}{}", round + 1, planned, index + 1, count, name,
                     note.empty() ? "" : " (" + note + ")");
}

std::string command_run_progress(const std::string& name, std::size_t round, bool warmup,
                                 double elapsed_seconds) {
  return fmt::format("{} {} · {} · {:.1f} s", warmup ? "warm-up" : "round", round + 1, name,
                     elapsed_seconds);
}

std::string revision_built(const std::string& revision, bool cached, double seconds,
                           const std::string& folder) {
  return fmt::format(
      "benchkit: {}: {}", revision,
      cached ? fmt::format("build kept from an earlier run, nothing rebuilt ({})", folder)
             : fmt::format("built in {:.1f} s ({})", seconds, folder));
}

std::string counting_started(const std::string& revision, const std::string& target,
                             std::size_t benchmarks) {
  return fmt::format(
      "benchkit: {}: counting {} benchmark{} of {} under valgrind (a fresh process each)", revision,
      benchmarks, benchmarks == 1 ? "" : "s", target);
}

}  // namespace benchkit::report
