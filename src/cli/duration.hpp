// Durations on the command line: "500ms", "2s", "1.5s", "100us", "250000ns", "3" (seconds).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace benchkit::cli {

// Nanoseconds, or nullopt when the text is not a non-negative duration.
std::optional<std::int64_t> parse_duration_ns(std::string_view text);

}  // namespace benchkit::cli
