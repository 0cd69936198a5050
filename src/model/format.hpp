// The formats a report is written in. Parsed where flags are read (a command's --format);
// nothing below them compares the names, and report/ renders each (report/reporter.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/error.hpp"

namespace benchkit::model {

// gbench, bmf and github_action are the formats other tools read (report/interop_reporters.cpp).
enum class Format { console, json, markdown, csv, html, junit, gbench, bmf, github_action };

// "console", "json", "markdown" (or "md"), "csv", "html", "junit", "gbench", "bmf",
// "github-action"; the error lists the accepted names.
Result<Format> parse_format(std::string_view name);

// The name parse_format reads ("github-action" for github_action).
const char* to_string(Format format);

// Every name parse_format accepts, aliases included: what a command's --format checks against,
// so that a new format reaches every command that writes a report.
const std::vector<std::string>& format_names();

// "console, json, markdown, csv, html, junit, gbench, bmf or github-action": for a flag's help.
std::string format_list();

}  // namespace benchkit::model
