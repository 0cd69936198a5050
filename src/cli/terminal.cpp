#include "cli/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"
#include "report/reporter.hpp"

namespace benchkit::cli {

bool want_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO) != 0;
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) != 0;
}

std::size_t terminal_width() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    std::size_t value = 0;
    const std::string_view text(columns);
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size() && value > 0) return value;
  }
  return 80;
}

ProgressLine::ProgressLine(bool visible)
    : ProgressLine(visible, std::cerr, visible ? terminal_width() : 80) {}

ProgressLine::ProgressLine(bool visible, std::ostream& out, std::size_t width)
    : out_(out), visible_(visible), width_(width) {}

void ProgressLine::show(std::string_view text) {
  if (!visible_) return;
  // One column is left free: a terminal that wraps at the last column would move the cursor.
  out_ << "\r\033[K"
       << report::fit_to_width(report::terminal_safe(std::string(text), false),
                               width_ > 1 ? width_ - 1 : width_)
       << std::flush;
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  out_ << "\r\033[K" << std::flush;
  shown_ = false;
}

void ProgressLine::print(std::string_view text) {
  clear();
  out_ << text << "\n" << std::flush;
}

void ProgressLine::error(std::string_view message) {
  clear();
  say_error(model::Error{std::string(message)});
}

}  // namespace benchkit::cli
