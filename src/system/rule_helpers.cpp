#include "system/rule_helpers.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "system/machine_parse.hpp"

namespace benchkit::system::detail {

Check make_check(std::string id, std::string title, Status status, std::string value,
                 std::string advice) {
  return Check{std::move(id), std::move(title), status, std::move(value), std::move(advice)};
}

std::optional<std::string> read_trimmed(const MachineFiles& files, const std::string& path) {
  auto text = files.read(path);
  if (!text) return std::nullopt;
  return trim(*text);
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

std::string format_cpu_set(const std::set<int>& cpus) {
  std::vector<std::string> ranges;
  for (auto it = cpus.begin(); it != cpus.end();) {
    const int first = *it;
    int last = first;
    for (++it; it != cpus.end() && *it == last + 1; ++it) last = *it;
    ranges.push_back(first == last ? std::to_string(first)
                                   : std::to_string(first) + "-" + std::to_string(last));
  }
  return join(ranges, ",");
}

}  // namespace benchkit::system::detail
