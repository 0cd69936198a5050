#include "cli/report_output.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "report/reporter.hpp"
#include "session/pipeline.hpp"
#include "store/atomic_file.hpp"

namespace benchkit::cli {

namespace {

// --format's names as a model::Format, only those of `accepted` (every format when empty): a
// name is parsed here, at the boundary, and a number is refused.
CLI::Validator format_names_of(const std::vector<model::Format>& accepted) {
  const std::string choices =
      accepted.empty() ? model::format_list() : model::format_choices(accepted);
  return CLI::Validator(
      [accepted, choices](std::string& text) -> std::string {
        const auto format = model::parse_format(text);
        if (!format || (!accepted.empty() &&
                        std::find(accepted.begin(), accepted.end(), *format) == accepted.end())) {
          return "\"" + text + "\" is not a format here; choose " + choices;
        }
        // CLI11 stores an enum from its number.
        text = std::to_string(static_cast<int>(*format));
        return {};
      },
      "{" + choices + "}");
}

}  // namespace

void add_format_option(CLI::App& command, model::Format& format) {
  command.add_option("--format", format)->transform(format_names_of({}))->type_name("FORMAT");
}

void add_format_choice(CLI::App& command, model::Format& format,
                       const std::vector<model::Format>& accepted) {
  command.add_option("--format", format)->transform(format_names_of(accepted))->type_name("FORMAT");
}

std::vector<model::Error> emit(const std::vector<report::Output>& outputs,
                               const report::Options& options, store::DiskSync& sync) {
  std::vector<model::Error> errors;
  std::vector<std::string> unwritten;
  for (const report::Output& output : outputs) {
    const auto not_written = [&](const std::string& path) {
      return std::find(unwritten.begin(), unwritten.end(), path) != unwritten.end();
    };
    if (std::any_of(output.only_after.begin(), output.only_after.end(), not_written)) continue;
    const bool text = output.document.parts().empty();
    if (!output.to_file()) {
      std::cout << (text ? output.text
                         : report::make_reporter(output.format, options)->render(output.document));
      continue;
    }
    const auto reporter = report::make_reporter(output.format, options);
    const auto written = store::write_file_atomically(
        output.path,
        [&](std::ostream& out) {
          if (text) {
            out << output.text;
          } else {
            reporter->write(output.document, out);
          }
        },
        sync);
    if (!written) {
      say_error(written.error());
      errors.push_back(written.error());
      unwritten.push_back(output.path);
    }
  }
  std::cout.flush();
  return errors;
}

int emit_status(const std::vector<report::Output>& outputs, const report::Options& options) {
  const auto errors = emit(outputs, options);
  return errors.empty() ? 0 : session::exit_status_of(errors.front().kind);
}

}  // namespace benchkit::cli
