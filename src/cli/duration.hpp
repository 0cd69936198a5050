// Durations on the command line: "500ms", "2s", "1.5s", "100us", "250000ns", "3" (seconds).
// The one parser is model/duration.hpp (a worker's flags are read with it too).
#pragma once

#include "model/duration.hpp"

namespace benchkit::cli {

using model::parse_duration_ns;

}  // namespace benchkit::cli
