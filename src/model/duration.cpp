#include "model/duration.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace benchkit::model {

std::optional<std::int64_t> parse_duration_ns(std::string_view text) {
  std::size_t split = 0;
  while (split < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[split])) || text[split] == '.')) {
    ++split;
  }
  if (split == 0) return std::nullopt;
  double value = 0.0;
  try {
    std::size_t used = 0;
    value = std::stod(std::string(text.substr(0, split)), &used);
    if (used != split) return std::nullopt;
  } catch (...) {
    return std::nullopt;
  }
  const std::string_view unit = text.substr(split);
  double scale = 0.0;
  if (unit.empty() || unit == "s") {
    scale = 1e9;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "us" || unit == "µs") {
    scale = 1e3;
  } else if (unit == "ns") {
    scale = 1.0;
  } else if (unit == "m" || unit == "min") {
    scale = 60e9;
  } else {
    return std::nullopt;
  }
  const double ns = value * scale;
  if (!std::isfinite(ns) || ns < 0 || ns > 9e18) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(ns));
}

}  // namespace benchkit::model
