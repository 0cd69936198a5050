// What a bench binary measures in each sample: time (the default), instructions counted under
// valgrind's callgrind, or instructions:u read from the CPU's counters. Parsed where flags are
// read (the command line, a worker's invocation); nothing below them compares the words.
#pragma once

#include <optional>
#include <string_view>

namespace benchkit::model {

enum class Mode { time, instructions, counters };

// "time", "instructions", "counters"; nothing for another word.
std::optional<Mode> parse_mode(std::string_view text);
const char* to_string(Mode mode);

}  // namespace benchkit::model
