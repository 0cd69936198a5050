// Secrets kept out of what benchkit records and prints: the password of a postgresql://
// --store URL (or any URL with user:password@) in a command line that a result, the history and
// the HTML report keep (tests/reliability/hostile_input.py).
#pragma once

#include <string>
#include <string_view>

namespace benchkit::store {

// `text` with the password of every SCHEME://USER:PASSWORD@HOST in it replaced by ***.
std::string redact_passwords(std::string_view text);

// The command line a result keeps: the `argc` words of `argv` joined by one space, passwords
// redacted as above.
std::string recorded_command_line(int argc, const char* const* argv);

}  // namespace benchkit::store
