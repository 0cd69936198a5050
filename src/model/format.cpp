#include "model/format.hpp"

#include <fmt/format.h>

#include <iterator>

namespace benchkit::model {

Result<Format> parse_format(std::string_view name) {
  if (name == "console") return Format::console;
  if (name == "json") return Format::json;
  if (name == "markdown" || name == "md") return Format::markdown;
  if (name == "csv") return Format::csv;
  if (name == "html") return Format::html;
  if (name == "junit") return Format::junit;
  if (name == "gbench") return Format::gbench;
  if (name == "bmf") return Format::bmf;
  if (name == "github-action") return Format::github_action;
  return Error{fmt::format("unknown format \"{}\" (expected {})", name, format_list())};
}

std::string format_choices(const std::vector<Format>& formats) {
  std::string text;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) text += i + 1 == formats.size() ? " or " : ", ";
    text += to_string(formats[i]);
  }
  return text;
}

std::string format_list() {
  return format_choices(std::vector<Format>(std::begin(kFormats), std::end(kFormats)));
}

const char* to_string(Format format) {
  switch (format) {
    case Format::console:
      return "console";
    case Format::json:
      return "json";
    case Format::markdown:
      return "markdown";
    case Format::csv:
      return "csv";
    case Format::html:
      return "html";
    case Format::junit:
      return "junit";
    case Format::gbench:
      return "gbench";
    case Format::bmf:
      return "bmf";
    case Format::github_action:
      return "github-action";
  }
  return "console";
}

}  // namespace benchkit::model
