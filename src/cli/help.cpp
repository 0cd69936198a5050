#include "cli/help.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <string_view>

#include "model/spelling.hpp"

namespace benchkit::cli {

const formats::CliReference& cli_reference() {
  static const formats::CliReference reference = [] {
    auto parsed = formats::parse_cli_reference(kCliReference, "docs/cli.md");
    return parsed ? std::move(*parsed) : formats::CliReference{};
  }();
  return reference;
}

namespace {

void describe_into(CLI::App& app, const std::string& key, const formats::CliReference& reference,
                   Described& described) {
  const auto section = reference.sections.find(key);
  if (section != reference.sections.end() && !section->second.description.empty()) {
    app.description(section->second.description);
    described.used.emplace(key, "");
  } else if (app.get_description().empty()) {
    described.missing.push_back(key);
  }
  for (CLI::Option* option : app.get_options([](CLI::Option*) { return true; })) {
    if (!option->get_description().empty()) continue;
    const std::string name = option->get_name();
    const std::string* text = reference.option(key, name);
    if (text == nullptr) {
      described.missing.push_back(key + " " + name);
      continue;
    }
    option->description(*text);
    const bool own = section != reference.sections.end() && section->second.options.contains(name);
    described.used.emplace(own ? key : std::string(), name);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    describe_into(*sub, key + " " + sub->get_name(), reference, described);
  }
}

}  // namespace

bool asks_for_help(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--help" || word == "-h" || word == "--help-all") return true;
  }
  return false;
}

namespace {

void long_flags_into(const CLI::App& command, std::vector<std::string>& flags) {
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  }
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    long_flags_into(*sub, flags);
  }
}

}  // namespace

std::string misspelt_flags(const CLI::App& command, const std::string& name,
                           const std::vector<std::string>& words) {
  std::vector<std::string> flags;
  long_flags_into(command, flags);
  std::string lines;
  for (const std::string& word : words) {
    if (word == "--") break;
    if (word.size() < 3 || word.rfind("--", 0) != 0) continue;
    const std::string flag = word.substr(0, word.find('='));
    if (const auto meant = model::likely_meant(flag, flags)) {
      lines += fmt::format("{} is not a flag of {}: did you mean {}?\n", flag, name, *meant);
    }
  }
  return lines;
}

Described describe(CLI::App& app, const std::string& key, const formats::CliReference& reference) {
  Described described;
  describe_into(app, key, reference, described);
  return described;
}

}  // namespace benchkit::cli
