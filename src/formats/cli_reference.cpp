#include "formats/cli_reference.hpp"

#include <fmt/format.h>

#include <optional>
#include <utility>

namespace benchkit::formats {

const std::string* CliReference::option(const std::string& command, const std::string& name) const {
  for (const std::string& key : {command, std::string()}) {
    const auto section = sections.find(key);
    if (section == sections.end()) continue;
    const auto found = section->second.options.find(name);
    if (found != section->second.options.end()) return &found->second;
  }
  return nullptr;
}

namespace {

// The reader's state between lines.
class ReferenceReader {
 public:
  explicit ReferenceReader(std::string origin) : origin_(std::move(origin)) {}

  std::optional<model::Error> line(std::string_view text) {
    ++number_;
    if (text.starts_with("## ")) return heading(text.substr(3));
    if (section_ == nullptr) return std::nullopt;  // the introduction
    if (text.empty()) {
      entry_ = nullptr;
      paragraph_ended_ = true;
      return std::nullopt;
    }
    if (text.starts_with("- `")) return entry(text.substr(3));
    if (text.starts_with("  ") && entry_ != nullptr) {
      *entry_ += " " + std::string(trimmed(text));
      return std::nullopt;
    }
    if (!section_->options.empty()) {
      return error(
          "a paragraph between a section's entries (an entry's next lines are indented "
          "by two spaces)");
    }
    std::string& description = section_->description;
    if (!description.empty()) description += paragraph_ended_ ? "\n" : " ";
    description += trimmed(text);
    paragraph_ended_ = false;
    return std::nullopt;
  }

  CliReference take() { return std::move(reference_); }

 private:
  static std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.back() == ' ' || text.back() == '\r')) {
      text = text.front() == ' ' ? text.substr(1) : text.substr(0, text.size() - 1);
    }
    return text;
  }

  model::Error error(const std::string& what) const {
    return model::Error{fmt::format("{}:{}: {}", origin_, number_, what), model::ErrorKind::input};
  }

  std::optional<model::Error> heading(std::string_view title) {
    std::string key;
    const auto open = title.find('`');
    const auto close = open == std::string_view::npos ? open : title.find('`', open + 1);
    if (close != std::string_view::npos) {
      key = std::string(title.substr(open + 1, close - open - 1));
    } else if (trimmed(title) != kSharedFlagsHeading) {
      return error(fmt::format("a section heading names its command in backticks (or is \"## {}\")",
                               kSharedFlagsHeading));
    }
    const auto [where, added] = reference_.sections.try_emplace(key);
    if (!added) return error(fmt::format("the section \"{}\" is given twice", key));
    section_ = &where->second;
    entry_ = nullptr;
    paragraph_ended_ = true;
    return std::nullopt;
  }

  std::optional<model::Error> entry(std::string_view text) {
    const auto close = text.find('`');
    if (close == std::string_view::npos || !text.substr(close + 1).starts_with(": ")) {
      return error("an entry is \"- `NAME`: what it does\"");
    }
    const std::string name(text.substr(0, std::min(close, text.find(' '))));
    const auto [where, added] =
        section_->options.try_emplace(name, std::string(trimmed(text.substr(close + 3))));
    if (!added) return error(fmt::format("the entry \"{}\" is given twice in its section", name));
    entry_ = &where->second;
    return std::nullopt;
  }

  std::string origin_;
  std::size_t number_ = 0;
  CliReference reference_;
  CliSection* section_ = nullptr;
  std::string* entry_ = nullptr;
  bool paragraph_ended_ = true;
};

}  // namespace

model::Result<CliReference> parse_cli_reference(std::string_view text, const std::string& origin) {
  ReferenceReader reader(origin);
  while (!text.empty()) {
    const auto end = text.find('\n');
    if (auto problem = reader.line(text.substr(0, end))) return std::move(*problem);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return reader.take();
}

}  // namespace benchkit::formats
