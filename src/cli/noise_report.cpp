#include "cli/noise_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "report/noise.hpp"
#include "report/reporter.hpp"

namespace benchkit::cli {

int report_noise(const RunResult& run, const NoiseOptions& options) {
  const auto format = report::parse_format(options.format);
  if (!format) return report_error(model::Error{format.error().message, model::ErrorKind::usage});
  report::NoiseReport noise;
  noise.subject = options.subject;
  noise.example = options.example;
  noise.analysis = analysis::analyse_noise(run, options.settings);
  noise.warnings = run.context.warnings;
  const report::Document document{.noise = &noise};
  if (const int status = render_or_write(*format, document, options.out); status != 0) {
    return status;
  }
  if (!options.html.empty()) {
    if (const int status = write_html(options.html, document); status != 0) return status;
  }
  if (!noise.analysis.recommendation) {
    return report_error(model::Error{"no benchmark ran in 2 or more processes; nothing to analyse",
                                     model::ErrorKind::input});
  }
  return 0;
}

namespace {

std::string order_json(const session::OrderReport& report) {
  nlohmann::json json = {{"benchkit_order_dependence", 1},
                         {"threshold", report.threshold},
                         {"moved", report.moved()},
                         {"missing", report.missing}};
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& move : report.benchmarks) {
    rows.push_back({{"name", move.name},
                    {"forward", move.forward},
                    {"reverse", move.reverse},
                    {"change", move.change},
                    {"moved", move.moved}});
  }
  json["benchmarks"] = std::move(rows);
  return json.dump(2) + "\n";
}

}  // namespace

std::string render_order_report(const session::OrderReport& report, const std::string& format) {
  if (format == "json") return order_json(report);
  std::string text;
  std::size_t width = 9;
  for (const auto& move : report.benchmarks) width = std::max(width, move.name.size());
  text += fmt::format("{:<{}}  {:>14}  {:>14}  {:>9}\n", "benchmark", width, "forward", "reverse",
                      "change");
  for (const auto& move : report.benchmarks) {
    text +=
        fmt::format("{:<{}}  {:>14.1f}  {:>14.1f}  {:>+8.3f}%{}\n", move.name, width, move.forward,
                    move.reverse, 100.0 * move.change, move.moved ? "  order-dependent" : "");
  }
  text += fmt::format(
      "\n{} of {} benchmarks moved by more than {:.1f}% when the order was reversed (counts "
      "in instructions per iteration, every benchmark in one valgrind process per order)\n",
      report.moved(), report.benchmarks.size(), 100.0 * report.threshold);
  if (report.moved() > 0) {
    text +=
        "An order-dependent count depends on what ran before it in the process: the "
        "allocator's state, caches or statics filled by another benchmark, or lazy "
        "initialisation done by whichever ran first. benchkit's counted runs start each "
        "benchmark in a fresh process, so their counts do not move; a suite run in one process "
        "(another harness, --in-process) would.\n";
  }
  for (const std::string& name : report.missing) {
    text += fmt::format("{}: counted in one order only (it failed in the other)\n", name);
  }
  return text;
}

}  // namespace benchkit::cli
