// Markdown, ready to paste into a pull request or an issue: for results a table, then the
// diagnostics; then each other part of the document in its Markdown form.
#include <fmt/format.h>

#include "model/failure.hpp"
#include "report/counter_text.hpp"
#include "report/parts.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

class MarkdownReporter final : public Reporter {
 private:
  Format format() const override { return Format::markdown; }
  Capabilities capabilities() const override {
    return {{Part::results, Part::comparison, Part::noise}, true};
  }
  std::string render_accepted(const Document& document) const override {
    std::vector<std::string> rendered;
    if (document.results) rendered.push_back(parts::results_markdown(*document.results));
    if (document.comparison) rendered.push_back(parts::comparison_markdown(*document.comparison));
    if (document.noise) rendered.push_back(parts::noise_markdown(*document.noise));
    return parts::join(rendered);
  }
};

// A Markdown table of `headers` and `rows`, the columns marked in `right` aligned right; each
// row's first cell (a benchmark's name) as code, the others escaped.
std::string markdown_table(const std::vector<std::string>& headers,
                           const std::vector<std::vector<std::string>>& rows,
                           const std::vector<bool>& right) {
  std::string out = "|";
  std::string rule = "|";
  for (std::size_t c = 0; c < headers.size(); ++c) {
    out += " " + markdown_escape(headers[c]) + " |";
    rule += right[c] ? "---:|" : "---|";
  }
  out += "\n" + rule + "\n";
  for (const std::vector<std::string>& row : rows) {
    out += "| " + markdown_code(row.front()) + " |";
    for (std::size_t c = 1; c < row.size(); ++c) out += " " + markdown_escape(row[c]) + " |";
    out += "\n";
  }
  return out;
}

// The user counters and labels, as the console shows them: a column per counter name, then the
// label; nothing when no benchmark has one.
std::string counter_table_markdown(const RunResult& run) {
  const std::vector<const BenchmarkResult*> results = with_counters(run);
  if (results.empty()) return "";
  const std::vector<std::string> names = counter_names(results);
  const bool labels = any_label(results);
  std::vector<std::string> headers = {"benchmark"};
  headers.insert(headers.end(), names.begin(), names.end());
  std::vector<bool> right(headers.size(), true);
  right.front() = false;
  if (labels) {
    headers.push_back("label");
    right.push_back(false);
  }
  std::vector<std::vector<std::string>> rows;
  for (const BenchmarkResult* b : results) rows.push_back(counter_row(*b, names, labels));
  return "\n" + markdown_table(headers, rows, right);
}

// The command table (parts::command_cells) as a Markdown table: the columns `benchkit run`
// prints, not a micro benchmark's "samples × iterations".
std::string command_table_markdown(const RunResult& run) {
  const parts::CommandCells cells = parts::command_cells(run);
  return markdown_table(cells.headers, cells.rows, cells.right);
}

// What follows a results table: the counters, every skipped or failed benchmark and every
// diagnostic in full, the run's warnings (a debug build, a busy machine), and the complexity
// fits.
std::string results_notes_markdown(const RunResult& run) {
  std::string out = counter_table_markdown(run);
  bool any = false;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.skipped) {
      if (!any) out += "\n";
      any = true;
      out += fmt::format("- {} skipped ({}): {}\n", markdown_code(b.name),
                         markdown_code("--skip-tag " + b.skipped->tag),
                         markdown_escape(b.skipped->reason));
    }
    if (model::failed_unmeasured(b)) {
      if (!any) out += "\n";
      any = true;
      out += fmt::format("- {} **failed**, kept out of comparisons: {}\n", markdown_code(b.name),
                         markdown_escape(b.failures.front()));
    }
    for (const Diagnostic& d : b.diagnostics) {
      if (!any) out += "\n";
      any = true;
      out += fmt::format("- {} **{}**: {}\n", markdown_code(b.name), d.code, d.message);
    }
  }
  for (const Diagnostic& warning : run.context.warnings) {
    if (!any) out += "\n";
    any = true;
    out += fmt::format("- {} **{}**: {}\n", warning.severity, warning.code,
                       markdown_escape(warning.message));
  }
  return out + parts::complexity_markdown(run);
}

}  // namespace

std::string parts::results_markdown(const RunResult& run) {
  if (all_commands(run)) return command_table_markdown(run) + results_notes_markdown(run);
  // With samples from several processes, the share of the variance between them.
  const bool between = any_between_processes(run);
  const std::string empty_between = between ? " |" : "";
  // A throughput column only when a benchmark declares its bytes or items, as on the console.
  const bool throughput =
      std::any_of(run.benchmarks.begin(), run.benchmarks.end(), [](const BenchmarkResult& b) {
        return !b.skipped && !model::failed_unmeasured(b) &&
               !format_throughput(b.estimates).empty();
      });
  const std::string empty_throughput = throughput ? " |" : "";
  std::string out = fmt::format(
      "| benchmark | median | 95% CI |{} samples |{} diagnostics |\n|---|---:|---|{}---:|{}---|\n",
      throughput ? " throughput |" : "", between ? " between processes |" : "",
      throughput ? "---:|" : "", between ? "---:|" : "");
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.skipped) {
      out += fmt::format("| {} | skipped | |{} |{} {} |\n", markdown_code(b.name), empty_throughput,
                         empty_between, markdown_code("--skip-tag " + b.skipped->tag));
      continue;
    }
    if (model::failed_unmeasured(b)) {
      out += fmt::format("| {} | **failed** | |{} |{} `{}` |\n", markdown_code(b.name),
                         empty_throughput, empty_between, model::unmeasured_cause(b));
      continue;
    }
    const Estimates& e = b.estimates;
    const std::string rate = throughput ? " " + format_throughput(e) + " |" : "";
    std::string flags;
    for (const Diagnostic& d : b.diagnostics) {
      if (!flags.empty()) flags += ", ";
      flags += "`" + d.code + "`";
    }
    // One sample (a scenario phase run once) has no interval: say so rather than "x … x".
    const std::string interval =
        b.samples.size() < 2
            ? std::string("no interval (1 sample)")
            : fmt::format("{} … {}{}", format_measure(e.median.lower, b.metric),
                          format_measure(e.median.upper, b.metric), confidence_suffix(e.median));
    out += fmt::format("| {} | {} | {} |{} {} |{} {} |\n", markdown_code(b.name),
                       format_measure(e.median.value, b.metric), interval, rate, format_samples(b),
                       between ? " " + format_between_processes(e) + " |" : "", flags);
  }
  return out + results_notes_markdown(run);
}

std::unique_ptr<Reporter> make_markdown_reporter() {
  return std::make_unique<MarkdownReporter>();
}

}  // namespace benchkit::report
