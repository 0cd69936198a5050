// Durations as people write them: "500ms", "2s", "1.5s", "100us", "250000ns", "3" (seconds).
// Read from the command line and from the flags a driver gives a worker.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace benchkit::model {

// Nanoseconds, or nullopt when the text is not a non-negative duration.
std::optional<std::int64_t> parse_duration_ns(std::string_view text);

}  // namespace benchkit::model
