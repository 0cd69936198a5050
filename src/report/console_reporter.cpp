// The terminal table: one row per benchmark, then the diagnostics in full.
#include <fmt/format.h>

#include <algorithm>

#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

std::string pad(const std::string& text, std::size_t width, bool right) {
  const std::size_t w = display_width(text);
  if (w >= width) return text;
  const std::string fill(width - w, ' ');
  return right ? fill + text : text + fill;
}

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(Options options) : options_(options) {}

  std::string render(const RunResult& run) const override {
    const std::vector<std::string> headers = {"benchmark", "median", "95% CI", "throughput",
                                              "samples",   "spread", "flags"};
    std::vector<std::vector<std::string>> rows;
    for (const BenchmarkResult& b : run.benchmarks) {
      const Estimates& e = b.estimates;
      const std::string throughput = format_throughput(e);
      const std::uint64_t iterations = b.samples.empty() ? 0 : b.samples.front().iters;
      const std::string samples = fmt::format("{} × {}", b.samples.size(), iterations);
      // Spread: MAD relative to the median, the robust counterpart of the CV.
      const std::string spread =
          e.median.value > 0 ? fmt::format("±{:.1f}%", 100.0 * e.mad / e.median.value) : "";
      std::string flags;
      for (const Diagnostic& d : b.diagnostics) {
        if (!flags.empty()) flags += ",";
        flags += d.code;
      }
      rows.push_back({b.name, format_duration(e.median.value),
                      fmt::format("[{} … {}]", format_duration(e.median.lower),
                                  format_duration(e.median.upper)),
                      throughput, samples, spread, flags});
    }
    std::vector<std::size_t> widths(headers.size());
    for (std::size_t c = 0; c < headers.size(); ++c) widths[c] = display_width(headers[c]);
    for (const auto& row : rows) {
      for (std::size_t c = 0; c < row.size(); ++c) {
        widths[c] = std::max(widths[c], display_width(row[c]));
      }
    }
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells, bool header) {
      std::string line;
      for (std::size_t c = 0; c < cells.size(); ++c) {
        const bool right = c == 1 || c == 4 || c == 5;
        std::string cell = pad(cells[c], widths[c], right && !header);
        if (options_.color && !header && c == 1) cell = "\033[1m" + cell + "\033[0m";
        if (options_.color && !header && c == 6 && !cells[c].empty()) {
          cell = "\033[33m" + cell + "\033[0m";
        }
        if (c > 0) line += "  ";
        line += cell;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    };
    emit(headers, true);
    for (const auto& row : rows) emit(row, false);

    bool any_diagnostic = false;
    for (const BenchmarkResult& b : run.benchmarks) {
      for (const Diagnostic& d : b.diagnostics) {
        if (!any_diagnostic) out += "\n";
        any_diagnostic = true;
        out += fmt::format("{} [{}]: {}\n", b.name, d.code, d.message);
      }
    }
    if (!run.context.warnings.empty()) {
      out += "\n";
      for (const Diagnostic& warning : run.context.warnings) {
        out += fmt::format("{} [{}]: {}\n", warning.severity, warning.code, warning.message);
      }
    }
    return out;
  }

 private:
  Options options_;
};

}  // namespace

std::unique_ptr<Reporter> make_console_reporter(Options options) {
  return std::make_unique<ConsoleReporter>(options);
}

}  // namespace benchkit::report
