#include "report/order_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace benchkit::report {

namespace {

std::string order_json(const analysis::OrderReport& report) {
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

std::string render_order_report(const analysis::OrderReport& report, model::Format format) {
  if (format == model::Format::json) return order_json(report);
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

}  // namespace benchkit::report
