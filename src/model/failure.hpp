// The names of a failed benchmark's causes, as result files and reports spell them.
#pragma once

#include <optional>
#include <string_view>

#include "benchkit/result.hpp"

namespace benchkit::model {

// "threw", "crashed", "timed_out", "exited", "interrupted".
std::string_view failure_cause_name(Failure::Cause cause);
// The cause a name stands for; nothing for an unknown name.
std::optional<Failure::Cause> failure_cause_from_name(std::string_view name);

}  // namespace benchkit::model
