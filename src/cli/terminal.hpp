// What the command line asks of the terminal: whether to colour the output, whether to show a
// progress line. One rule each, for every command.
#pragma once

#include <string>

namespace benchkit::cli {

// --color: always, never, or auto (stdout is a terminal and NO_COLOR is unset or empty,
// https://no-color.org).
bool want_color(const std::string& mode);

// Whether stderr is a terminal: progress lines (rewritten in place) are shown only there.
bool stderr_is_terminal();

}  // namespace benchkit::cli
