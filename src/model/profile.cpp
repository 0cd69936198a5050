#include "model/profile.hpp"

#include <iterator>

namespace benchkit::model {

std::string_view profile_tool_name(ProfileTool tool) {
  switch (tool) {
    case ProfileTool::callgrind:
      return "callgrind";
    case ProfileTool::massif:
      return "massif";
    case ProfileTool::heaptrack:
      return "heaptrack";
    case ProfileTool::strace:
      return "strace";
    case ProfileTool::perf:
      return "perf";
  }
  return "unknown";
}

std::optional<ProfileTool> parse_profile_tool(std::string_view name) {
  for (const ProfileTool tool : kProfileTools) {
    if (profile_tool_name(tool) == name) return tool;
  }
  return std::nullopt;
}

std::string profile_tool_choices() {
  constexpr std::size_t count = std::size(kProfileTools);
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) text += i + 1 == count ? " or " : ", ";
    text += profile_tool_name(kProfileTools[i]);
  }
  return text;
}

}  // namespace benchkit::model
