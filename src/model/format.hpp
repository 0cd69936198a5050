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

// Every format, in the order above.
inline constexpr Format kFormats[] = {Format::console, Format::json, Format::markdown,
                                      Format::csv,     Format::html, Format::junit,
                                      Format::gbench,  Format::bmf,  Format::github_action};

// "console", "json", "markdown" (or "md"), "csv", "html", "junit", "gbench", "bmf",
// "github-action"; the error lists the accepted names.
Result<Format> parse_format(std::string_view name);

// The name parse_format reads ("github-action" for github_action).
const char* to_string(Format format);

// "console, json or markdown": the names of `formats`, for a flag's help or an error.
std::string format_choices(const std::vector<Format>& formats);

// format_choices of every format: "console, json, ..., bmf or github-action".
std::string format_list();

}  // namespace benchkit::model
