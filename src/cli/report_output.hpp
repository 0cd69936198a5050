// The --format flag every command that writes a report shares, so that a format added to
// model/format.hpp (model::parse_format) reaches all of them, and the writing of a report's
// outputs.
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

// --format FORMAT, accepting every name report::parse_format reads.
void add_format_option(CLI::App& command, model::Format& format);

// --format FORMAT for a command that writes a few formats of its own: one of `accepted`
// ("markdown" also as "md"), the first the default.
void add_format_choice(CLI::App& command, model::Format& format,
                       const std::vector<model::Format>& accepted);

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
