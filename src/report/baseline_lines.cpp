#include "report/baseline_lines.hpp"

#include <fmt/format.h>

namespace benchkit::report {

std::string baseline_saved(const std::string& name, const std::string& path,
                           const std::optional<std::string>& executable) {
  return fmt::format(
      "baseline {} saved to {}{}\n", name, path,
      executable ? fmt::format(" (with its bench binary, {})", *executable) : std::string());
}

std::string baseline_binary_not_kept(const std::string& name, const std::string& problem) {
  return fmt::format(
      "warning: the bench binary was not kept with baseline {} ({}): comparisons against it will "
      "use its saved samples\n",
      name, problem);
}

}  // namespace benchkit::report
