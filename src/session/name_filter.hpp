// A benchmark filter as every command reads it (--filter, ab's --bench): an ECMAScript regular
// expression searched anywhere in the name; a leading '-' keeps the names it does not match, as
// Google Benchmark's --benchmark_filter does, so a suite's scripts and habits carry over.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::session {

class NameFilter {
 public:
  // Throws std::regex_error when `pattern` (after its '-') is no regular expression.
  explicit NameFilter(const std::string& pattern)
      : negative_(pattern.size() > 1 && pattern.front() == '-'),
        regex_(negative_ ? pattern.substr(1) : pattern, std::regex::ECMAScript) {}

  bool keeps(const std::string& name) const { return std::regex_search(name, regex_) != negative_; }

 private:
  bool negative_;
  std::regex regex_;
};

// `pattern`, given to `flag` ("--filter", "--bench"), as a filter: none when it is empty; a usage
// error naming the flag when it is no regular expression (with how to write a name's special
// characters).
inline model::Result<std::optional<NameFilter>> parse_name_filter(const std::string& pattern,
                                                                  std::string_view flag) {
  if (pattern.empty()) return std::optional<NameFilter>();
  try {
    return std::optional<NameFilter>(NameFilter(pattern));
  } catch (const std::regex_error& error) {
    return model::Error{fmt::format("{} \"{}\" is not a regular expression ({}); escape special "
                                    "characters such as < > ( ) with a backslash",
                                    flag, pattern, error.what()),
                        model::ErrorKind::usage};
  }
}

}  // namespace benchkit::session
