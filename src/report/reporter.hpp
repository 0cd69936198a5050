// Output formats for a run, one file per format behind one interface.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "model/format.hpp"
#include "report/document.hpp"

namespace benchkit::report {

// The formats (model/format.hpp), as report/ has always named them.
using model::Format;
using model::format_list;
using model::parse_format;
using model::to_string;

// The formats that render `document` ("console, json, markdown, csv, html or junit" for a
// comparison), for an error that refuses another: a format added to report/ is named there too.
std::string formats_accepting(const Document& document);
// A --format that cannot show a comparison (gbench, bmf, github-action): a usage error naming the
// formats that can; nullopt for one that can.
std::optional<model::Error> refuse_comparison_format(Format format);
// A `format` that has no form for `document` (gbench for a comparison): a usage error naming
// the formats a command's report may use and how to write a run's results in this one; nullopt
// when it renders the document.
std::optional<model::Error> format_refusal(Format format, const Document& document);
// `benchkit report FILE` of comparison file `file` in a `format` with no form for a comparison:
// a usage error naming the file and the formats that have one; nullopt when it renders it.
std::optional<model::Error> comparison_file_refusal(Format format, const std::string& file);

struct Options {
  bool color = false;  // ANSI colours in console output
};

// One reporter per format, each rendering any Document: what a format renders of each part,
// and which documents it refuses, is written once here (a new format adds a column).
//
//                  console            markdown          json                 csv
//   results        table (1)          table             benchkit/result      row per benchmark
//   comparison     table and notes    summary, table(2) benchkit/comparison  row per benchmark
//   noise          table, summary     table, summary    benchkit/noise       row per benchmark
//   machine checks table, fingerprint refused           benchkit/system      refused
//   warnings       warning lines      refused           refused              refused
//
//                  html (3)                                   junit (4)
//   results        summary table, per-benchmark sections,    testsuite: testcase per benchmark
//                  sweeps as line charts, scenario bars
//   comparison     verdicts in the summary, forest plot      testsuite: testcase per benchmark
//   noise          table, process medians plot               testsuite: testcase per benchmark
//   machine checks table                                     refused
//   warnings       warning list under the context            refused
//
// (2) regressions and improvements in a table, the rest in a collapsed <details>, at most
// kMarkdownCommentLimit characters (a pull-request comment).
// (3) one self-contained page (html_reporter.hpp); every part goes into one page.
// (4) one <testsuites> document, a <testsuite> per part (junit_reporter.cpp).
// gbench, bmf and github-action render results only (docs/interop.md).
//
// (1) the whole-process table of `benchkit run` when every benchmark is a command ("command"
// kind), else the benchmark table with scenario blocks.
//
// console, markdown, html and junit render every part held, in the order of Part, a blank line
// between two parts (results then comparison is what a bench binary prints with --baseline). json
// and csv write one document per output, so they refuse a Document holding more than one part:
// render each part on its own. A format refuses a part it has no form for rather than leave it out,
// so that nothing a caller asked for goes missing silently; refusal() says why beforehand.
class Reporter {
 public:
  virtual ~Reporter() = default;

  // The document in this format. Throws std::invalid_argument with refusal()'s message when
  // the format refuses it (a programming error: the caller chose the parts and the format).
  std::string render(const Document& document) const;
  // A run's results alone: render({.results = &run}).
  std::string render(const RunResult& run) const;
  // The same text as render(document), put into `out` (json writes a run's results as it
  // serialises them, without holding the whole text; the other formats render, then write).
  void write(const Document& document, std::ostream& out) const;

  // Why this format refuses `document` (an empty one, a part it has no form for, several parts
  // for json or csv), or "" when it renders it.
  std::string refusal(const Document& document) const;

 protected:
  struct Capabilities {
    std::vector<Part> parts;     // the parts this format renders
    bool several_parts = false;  // whether one output may hold more than one part
  };

 private:
  virtual Format format() const = 0;
  virtual Capabilities capabilities() const = 0;
  // Called only with a document that refusal() accepts.
  virtual std::string render_accepted(const Document& document) const = 0;
  // Called by write() only with a document that refusal() accepts; puts render_accepted's text.
  virtual void write_accepted(const Document& document, std::ostream& out) const;
};

std::unique_ptr<Reporter> make_reporter(Format format, Options options = {});

// Commits and run identities are shown by their first 12 hex digits (as git's and the history's
// own messages show them).
inline constexpr std::size_t kShownDigits = 12;

// Shared number formatting: "12.3 ns", "4.56 µs", "7.89 ms", "1.23 s" (3 significant digits).
std::string format_duration(double ns);
// format_duration(ns) appended to `out`; returns its display width (a column per character:
// µ is two bytes).
std::size_t append_duration(std::string& out, double ns);
// format_duration(ns) written at the start of `text`: returns its end, and its display width in
// `width`; nullptr when it does not fit (a number of 60 digits or more). What follows the end may
// have been written over.
char* duration_to(std::span<char, 64> text, double ns, std::size_t& width);
// A value per iteration in its metric's unit (BenchmarkResult::metric): format_duration for time
// (no metric), "812 instr", "12.0 k instr", "4.56 M instr" for instructions.
std::string format_measure(double value, const std::string& metric);
// "812 MiB/s", "1.23 GiB/s".
std::string format_bytes_per_second(double bytes_per_second);
// "12.3 M/s".
std::string format_items_per_second(double items_per_second);
// "1.5 MiB".
std::string format_bytes(double bytes);
// "1.17 GiB/s", "65.6 M/s", both joined by ", ", or "" when the benchmark declares no work.
std::string format_throughput(const Estimates& estimates);
// " (75%)" after an interval whose confidence is below the 95% its column names (the median's
// order-statistic interval of fewer than 6 samples: 75% for 3, 93.8% for 5 processes), else "".
std::string confidence_suffix(const Estimate& estimate);
// The samples and their iterations: "30 × 1000", or "5 × 5298-5646" when the samples ran
// different counts (a Google Benchmark binary's processes each find their own).
std::string format_samples(const BenchmarkResult& result);
// The share of the variance between processes (Estimates::between_process_share) as "62%", or
// "" without one (a single process).
std::string format_between_processes(const Estimates& estimates);
// Whether any benchmark of `run` has a between-process share: a table then gets its column.
bool any_between_processes(const RunResult& run);
// `text` padded with spaces to `width` terminal columns, on the left when `right` (numbers).
std::string pad(const std::string& text, std::size_t width, bool right);
// Text for a terminal: every control character except the newline shown as a visible escape
// (\e, \r, \t, \x07, \u009b), so that a benchmark name, a command's output or a file from
// elsewhere cannot recolour, retitle, clear or move the cursor of the user's terminal. With
// `keep_colour`, complete SGR sequences (ESC [ digits and semicolons m: only colour and weight)
// pass, for the console's own colours.
std::string terminal_safe(const std::string& text, bool keep_colour);
// A Markdown table cell: pipes escaped so they do not split the cell, control characters (a
// newline would end the row) shown as terminal_safe shows them.
std::string markdown_escape(const std::string& text);
// `text` as a Markdown code span, the backticks included, escaped as markdown_escape escapes.
// A backtick inside would end a span of one backtick early (CommonMark): the fence is one
// backtick longer than the longest run inside, and padded with a space when the text starts or
// ends with a backtick (or both with a space, which CommonMark would strip).
std::string markdown_code(const std::string& text);
// Text for HTML, XML or SVG content and attribute values: < > & " ' as entities; the characters
// XML 1.0 cannot hold (control characters other than tab, newline and carriage return) and bytes
// that are not UTF-8 (a command's argument in another encoding: the document would not parse)
// become '?'.
std::string markup_escape(const std::string& text);
// A CSV text field (a name, a note, a commit; never a number): quoted (quotes doubled) when it
// holds a comma, a quote, a newline or a carriage return. A text that starts with = + - @, a tab
// or a carriage return would be run as a formula by a spreadsheet that opens the file (OWASP's
// "CSV injection"): it gets a ' in front, inside quotes, so the cell shows as text. Numbers are
// written without it, so a change of -3.1 stays a number.
std::string csv_quote(const std::string& field);
// Columns a UTF-8 string takes in a terminal (µ and … are one column, two or three bytes).
std::size_t display_width(std::string_view text);
// `text` cut to at most `width` columns (counted in UTF-8 code points; the cut ends in "…"):
// a progress line rewritten in place must not wrap onto a second line.
std::string fit_to_width(std::string_view text, std::size_t width);

// A terminal table: columns padded to their widest cell, two spaces apart, each line starting
// with `indent` and without trailing spaces. `right[c]` aligns column c's body cells right (the
// headers stay left). `style(column, cell)`, when given, may wrap a padded body cell in colour
// codes.
using CellStyle = std::function<std::string(std::size_t column, std::string cell)>;
// Removes `column` from the headers, the rows and `right` (when given) when no row has anything
// in it: a suite that declares no bytes or items has no throughput column. True when removed.
bool drop_empty_column(std::vector<std::string>& headers,
                       std::vector<std::vector<std::string>>& rows, std::size_t column,
                       std::vector<bool>* right = nullptr);

std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& right, const std::string& indent = "",
                         const CellStyle& style = {});

// A table's body cells in one buffer, row by row, each measured as it is added: no string per
// cell, for the tables of `history trend` (ten million rows for every benchmark of a fleet's
// history). A cell is either added whole or written straight into text() and closed with
// end_cell(); clear() empties the table and keeps its memory for the next.
class TableCells {
 public:
  // A cell of the row being written.
  void add(std::string_view cell);
  // Where to write a cell of up to `most` bytes, at the end of the text; what lies beyond it (64
  // bytes more at least) may be written over as well, by copies of a fixed size. end_cell_at
  // closes it.
  char* room(std::size_t most);
  // Closes the cell written at room(), which ends at `end` and is `width` columns wide.
  void end_cell_at(const char* end, std::size_t width) {
    used_ = static_cast<std::size_t>(end - text_.data());
    end_cell(width);
  }
  // Ends the row being written.
  void end_row() { row_ends_.push_back(ends_.size()); }
  void clear();

 private:
  friend void append_table(std::string& out, const std::vector<std::string>& headers,
                           const TableCells& cells, const std::vector<bool>& right,
                           const std::string& indent, const CellStyle& style);
  void end_cell(std::size_t width) {
    ends_.push_back(used_);
    widths_.push_back(width);
  }
  std::string_view text() const { return {text_.data(), used_}; }
  // The cells' bytes are text_'s first used_: text_ is kept larger, so that a cell is written
  // straight into it.
  std::string text_;
  std::size_t used_ = 0;
  std::vector<std::size_t> ends_;      // where each cell ends in the text
  std::vector<std::size_t> widths_;    // each cell's display width
  std::vector<std::size_t> row_ends_;  // the cells up to the end of each row
};
// render_table of cells kept in a TableCells.
std::string render_table(const std::vector<std::string>& headers, const TableCells& cells,
                         const std::vector<bool>& right, const std::string& indent = "",
                         const CellStyle& style = {});
// The same table appended to `out`.
void append_table(std::string& out, const std::vector<std::string>& headers,
                  const TableCells& cells, const std::vector<bool>& right,
                  const std::string& indent = "", const CellStyle& style = {});

// The median of a figure over the samples whose resources have it (commands, scenario phases),
// or nothing when none has it. `field(sample, resources)` gives one sample's figure, or nothing.
using ResourceField = std::function<std::optional<double>(const Sample&, const Resources&)>;
std::optional<double> median_over_samples(const BenchmarkResult& result,
                                          const ResourceField& field);

}  // namespace benchkit::report
