#include "formats/folded_stacks.hpp"

#include <fmt/format.h>

namespace benchkit::formats {

std::string folded_text(const std::vector<model::FoldedStack>& stacks) {
  std::string text;
  for (const model::FoldedStack& stack : stacks) {
    for (std::size_t i = 0; i < stack.frames.size(); ++i) {
      if (i > 0) text += ';';
      for (const char c : stack.frames[i]) text += c == ';' || c == '\n' ? ' ' : c;
    }
    text += fmt::format(" {:.0f}\n", stack.value);
  }
  return text;
}

}  // namespace benchkit::formats
