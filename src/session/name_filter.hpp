// A benchmark filter as every command reads it (--filter, ab's --bench): an ECMAScript regular
// expression searched anywhere in the name; a leading '-' keeps the names it does not match, as
// Google Benchmark's --benchmark_filter does, so a suite's scripts and habits carry over.
#pragma once

#include <regex>
#include <string>

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

}  // namespace benchkit::session
