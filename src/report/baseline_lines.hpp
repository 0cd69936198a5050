// What a command says once the pipeline saved a baseline: where, with its bench binary or not,
// and the warning when the binary could not be kept (comparisons then use the saved samples).
#pragma once

#include <optional>
#include <string>

namespace benchkit::report {

// "baseline NAME saved to PATH[ (with its bench binary, EXECUTABLE)]".
std::string baseline_saved(const std::string& name, const std::string& path,
                           const std::optional<std::string>& executable);
// "warning: the bench binary was not kept with baseline NAME (PROBLEM): comparisons against it
// will use its saved samples".
std::string baseline_binary_not_kept(const std::string& name, const std::string& problem);

}  // namespace benchkit::report
