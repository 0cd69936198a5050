#include "cli/command_progress.hpp"

#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "report/reporter.hpp"

namespace benchkit::cli {

void CommandProgress::run_started(const std::string& name, std::size_t round, bool warmup,
                                  double elapsed_seconds) {
  if (!visible_) return;
  std::cerr << fmt::format("\r\033[K{} {} · {} · {:.1f} s", warmup ? "warm-up" : "round", round + 1,
                           report::terminal_safe(name, false), elapsed_seconds)
            << std::flush;
}

void CommandProgress::failed(const std::string& name, const std::string& message) {
  if (visible_) std::cerr << "\r\033[K";
  say_error(model::Error{fmt::format("{}: {}", report::terminal_safe(name, false),
                                     report::terminal_safe(message, false))});
}

void CommandProgress::clear() const {
  if (visible_) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace benchkit::cli
