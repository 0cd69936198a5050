#include "cli/command_progress.hpp"

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "report/progress_text.hpp"
#include "report/reporter.hpp"

namespace benchkit::cli {

void CommandProgress::run_started(const std::string& name, std::size_t round, bool warmup,
                                  double elapsed_seconds) {
  line_.show(report::command_run_progress(name, round, warmup, elapsed_seconds));
}

void CommandProgress::failed(const std::string& name, const std::string& message) {
  line_.clear();
  say_error(model::Error{fmt::format("{}: {}", report::terminal_safe(name, false),
                                     report::terminal_safe(message, false))});
}

}  // namespace benchkit::cli
