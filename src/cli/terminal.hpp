// What the command line asks of the terminal: whether to colour the output, whether to show a
// progress line, and the progress line itself. One rule each, for every command.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

#include "report/progress_printer.hpp"

namespace benchkit::cli {

// --color: always, never, or auto (stdout is a terminal and NO_COLOR is unset or empty,
// https://no-color.org).
bool want_color(const std::string& mode);

// Whether stderr is a terminal: progress lines (rewritten in place) are shown only there.
bool stderr_is_terminal();

// The columns of the terminal on stderr (TIOCGWINSZ, else $COLUMNS), 80 when neither says.
std::size_t terminal_width();

// The one progress line of a command, on stderr: rewritten in place when `visible` (stderr is a
// terminal and the user did not ask for quiet), its control characters made visible
// (report::terminal_safe: a benchmark's name cannot move the cursor), cut to the terminal's
// width (report::fit_to_width, so that it never wraps onto a line "\r" cannot reach); removed
// before anything else is printed on stderr, and at the end. The sink of every command's
// report::ProgressPrinter.
class ProgressLine final : public report::ProgressSink {
 public:
  explicit ProgressLine(bool visible);
  ProgressLine(bool visible, std::ostream& out, std::size_t width);

  bool visible() const { return visible_; }
  // Replaces the line with `text` (nothing when not visible).
  void show(std::string_view text) override;
  // Removes the line, if one is shown.
  void clear() override;
  // `text` on a line of its own, the progress line removed first; printed visible or not.
  void print(std::string_view text) override;
  // The line removed, then "error: MESSAGE" as say_error says every error.
  void error(std::string_view message) override;

 private:
  std::ostream& out_;
  bool visible_;
  std::size_t width_;
  bool shown_ = false;
};

}  // namespace benchkit::cli
