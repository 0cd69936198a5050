#include "report/merge_lines.hpp"

#include <fmt/format.h>

namespace benchkit::report {

std::string merged_results(std::size_t files, std::size_t benchmarks, const std::string& out) {
  return fmt::format("merged {} file(s), {} benchmarks, into {}\n", files, benchmarks, out);
}

std::string merged_comparisons(std::size_t files, std::size_t benchmarks, const std::string& out) {
  return fmt::format("merged {} comparison file(s), {} benchmarks, into {}\n", files, benchmarks,
                     out);
}

}  // namespace benchkit::report
