// The report flags every command that writes a report shares, so that a format added to
// model/format.hpp (model::parse_format) reaches all of them: --format checked against every
// format, and --html FILE, the self-contained HTML page beside whatever --format prints.
#pragma once

#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "report/document.hpp"
#include "report/run_outputs.hpp"
#include "store/atomic_file.hpp"

namespace CLI {
class App;
}

namespace benchkit::cli {

// --format FORMAT, accepting every name report::parse_format reads. `what` starts the help:
// "Output format" or "Format of the report"; the list of formats and `default_note` follow.
void add_format_option(CLI::App& command, model::Format& format, const std::string& what,
                       const std::string& default_note = "default console");

// --format FORMAT for a command that writes a few formats of its own: one of `accepted`
// ("markdown" also as "md"), the first the default; the help lists them, then `note`.
void add_format_choice(CLI::App& command, model::Format& format,
                       const std::vector<model::Format>& accepted, const std::string& note = "");

// --html FILE: "Also write `what` to this file" (by default the report as one self-contained
// HTML page).
void add_html_option(CLI::App& command, std::string& html,
                     const std::string& what =
                         "the report as one self-contained HTML page (plots, "
                         "sortable table; opens from the file, loads "
                         "nothing)");

// Carries out a report's plan (report::plan_run_report, plan_comparison_report, plan_exports):
// each output in order, a file written atomically through `sync`, the rest on stdout. A file that
// cannot be written is said on stderr and its error (kind input) returned; the outputs only to
// follow it are left out.
std::vector<model::Error> emit(const std::vector<report::Output>& outputs,
                               const report::Options& options,
                               store::DiskSync& sync = store::system_disk_sync());
// emit(), then 0, or the exit status of the first file that could not be written.
int emit_status(const std::vector<report::Output>& outputs, const report::Options& options = {});

}  // namespace benchkit::cli
