// What `benchkit merge` says on stderr once the merged file is written (docs/ci.md).
#pragma once

#include <cstddef>
#include <string>

namespace benchkit::report {

// "merged N file(s), B benchmarks, into OUT".
std::string merged_results(std::size_t files, std::size_t benchmarks, const std::string& out);
// "merged N comparison file(s), B benchmarks, into OUT".
std::string merged_comparisons(std::size_t files, std::size_t benchmarks, const std::string& out);

}  // namespace benchkit::report
