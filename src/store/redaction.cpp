#include "store/redaction.hpp"

namespace benchkit::store {

std::string redact_passwords(std::string_view text) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t scheme = text.find("://"); scheme != std::string_view::npos;
       scheme = text.find("://", scheme + 3)) {
    const std::size_t authority = scheme + 3;
    // The authority ends at the path, or at the end of the word (a command line's blank).
    std::size_t end = authority;
    while (end < text.size() && text[end] != '/' && text[end] != ' ' && text[end] != '\t' &&
           text[end] != '\n') {
      ++end;
    }
    const std::size_t at = text.rfind('@', end == authority ? authority : end - 1);
    if (at == std::string_view::npos || at < authority) continue;
    const std::size_t colon = text.find(':', authority);
    if (colon == std::string_view::npos || colon >= at) continue;
    out.append(text.substr(from, colon + 1 - from));
    out += "***";
    from = at;
  }
  out.append(text.substr(from));
  return out;
}

std::string recorded_command_line(int argc, const char* const* argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) text += (i > 0 ? " " : "") + std::string(argv[i]);
  return redact_passwords(text);
}

}  // namespace benchkit::store
