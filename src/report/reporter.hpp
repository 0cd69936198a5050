// Output formats for a run, one file per format behind one interface.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::report {

enum class Format { console, json, markdown, csv };

// "console", "json", "markdown", "csv"; the error lists the accepted names.
model::Result<Format> parse_format(std::string_view name);

struct Options {
  bool color = false;  // ANSI colours in console output
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual std::string render(const RunResult& run) const = 0;
};

std::unique_ptr<Reporter> make_reporter(Format format, Options options = {});

// Shared number formatting: "12.3 ns", "4.56 µs", "7.89 ms", "1.23 s" (3 significant digits).
std::string format_duration(double ns);
// "812 MiB/s", "1.23 GiB/s".
std::string format_bytes_per_second(double bytes_per_second);
// "12.3 M/s".
std::string format_items_per_second(double items_per_second);
// "1.5 MiB".
std::string format_bytes(double bytes);
// "1.17 GiB/s", "65.6 M/s", both joined by ", ", or "" when the benchmark declares no work.
std::string format_throughput(const Estimates& estimates);
// `text` padded with spaces to `width` terminal columns, on the left when `right` (numbers).
std::string pad(const std::string& text, std::size_t width, bool right);
// A Markdown table cell: pipes escaped so they do not split the cell.
std::string markdown_escape(const std::string& text);
// A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a newline.
std::string csv_quote(const std::string& field);
// Columns a UTF-8 string takes in a terminal (µ and … are one column, two or three bytes).
std::size_t display_width(const std::string& text);

// A terminal table: columns padded to their widest cell, two spaces apart, each line starting
// with `indent` and without trailing spaces. `right[c]` aligns column c's body cells right (the
// headers stay left). `style(column, cell)`, when given, may wrap a padded body cell in colour
// codes.
using CellStyle = std::function<std::string(std::size_t column, std::string cell)>;
std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& right, const std::string& indent = "",
                         const CellStyle& style = {});

// The median of a figure over the samples whose resources have it (commands, scenario phases),
// or nothing when none has it. `field(sample, resources)` gives one sample's figure, or nothing.
using ResourceField = std::function<std::optional<double>(const Sample&, const Resources&)>;
std::optional<double> median_over_samples(const BenchmarkResult& result,
                                          const ResourceField& field);

}  // namespace benchkit::report
