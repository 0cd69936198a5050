#include "report/run_outputs.hpp"

#include <utility>

#include "analysis/compare.hpp"

namespace benchkit::report {

RunOutputs route_run_outputs(Format format, bool has_comparison, bool out_given) {
  RunOutputs route;
  route.both_in_one = format == Format::html || format == Format::junit;
  if (!has_comparison || out_given || format == Format::console || route.both_in_one) {
    return route;
  }
  // Whether the format has a form for a comparison depends on the parts, not on their content.
  const analysis::Comparison any;
  route.comparison_on_stdout = make_reporter(format)->refusal(Document{.comparison = &any}).empty();
  return route;
}

namespace {

Output file(std::string path, Format format, Document document) {
  return Output{.path = std::move(path), .format = format, .document = document};
}

Output shown(Format format, Document document, std::vector<std::string> only_after = {}) {
  return Output{.format = format, .document = document, .only_after = std::move(only_after)};
}

Output line(std::string text, std::vector<std::string> only_after = {}) {
  return Output{.text = std::move(text), .only_after = std::move(only_after)};
}

}  // namespace

RunReport plan_run_report(const Destinations& to, const RunResult& run,
                          const model::Comparison* comparison) {
  const RunOutputs route = route_run_outputs(to.format, comparison != nullptr, !to.out.empty());
  const Document results{.results = &run};
  const Document page{.results = &run, .comparison = comparison};
  RunReport report;
  if (!to.html.empty()) report.results.push_back(file(to.html, Format::html, page));
  if (!to.out.empty()) {
    report.results.push_back(file(to.out, to.format, route.both_in_one ? page : results));
    if (!to.quiet) {
      report.results.push_back(shown(Format::console, results, {to.out}));
      report.results.push_back(line("results written to " + to.out + "\n", {to.out}));
    }
  } else if (route.both_in_one) {
    report.results.push_back(shown(to.format, page));
  } else if (!route.comparison_on_stdout && (!to.quiet || to.format != Format::console)) {
    report.results.push_back(shown(to.format, results));
  }
  report.kept_quietly = to.quiet || route.comparison_on_stdout;
  if (!comparison) return report;
  // Apart from the results (not one document of both) because the lines saying what was kept
  // come between them.
  const Document verdicts{.comparison = comparison};
  if (route.comparison_on_stdout) {
    report.verdicts.push_back(shown(to.format, verdicts));
  } else if (!to.quiet && !(route.both_in_one && to.out.empty())) {
    report.verdicts.push_back(line("\n"));
    report.verdicts.push_back(shown(Format::console, verdicts));
  }
  return report;
}

std::vector<Output> plan_document(const Destinations& to, const Document& document,
                                  const Document& page) {
  std::vector<Output> outputs;
  outputs.push_back(to.out.empty() ? shown(to.format, document)
                                   : file(to.out, to.format, document));
  if (!to.html.empty()) {
    Output html = file(to.html, Format::html, page);
    html.only_after = {to.out};
    outputs.push_back(std::move(html));
  }
  return outputs;
}

std::vector<Output> plan_comparison_report(const Destinations& to, OutStyle style,
                                           const model::Comparison& comparison,
                                           const RunResult* run,
                                           const std::string& commands_table) {
  const Document verdicts{.comparison = &comparison};
  std::vector<Output> outputs;
  if (style == OutStyle::replaced) {
    // compare: the HTML page shows the new run's samples under the verdicts, the other formats
    // the verdicts alone.
    const Document page{.results = run, .comparison = &comparison};
    return plan_document(to, to.format == Format::html ? page : verdicts, page);
  }
  if (!to.html.empty()) outputs.push_back(file(to.html, Format::html, verdicts));
  if (!to.out.empty()) outputs.push_back(file(to.out, to.format, verdicts));
  if (to.format != Format::console && to.out.empty()) {
    outputs.push_back(shown(to.format, verdicts));
    return outputs;
  }
  if (to.quiet) return outputs;
  if (!commands_table.empty()) outputs.push_back(line(commands_table + "\n"));
  outputs.push_back(shown(Format::console, verdicts));
  if (!to.out.empty()) {
    outputs.push_back(line("written to " + to.out + "\n", {to.out, to.html}));
  }
  return outputs;
}

std::vector<Output> plan_exports(const Exports& exports, const RunResult& run) {
  std::vector<Output> outputs;
  for (const auto& [path, format] :
       {std::pair{&exports.json, Format::json}, std::pair{&exports.markdown, Format::markdown},
        std::pair{&exports.csv, Format::csv}, std::pair{&exports.junit, Format::junit}}) {
    if (!path->empty()) outputs.push_back(file(*path, format, Document{.results = &run}));
  }
  return outputs;
}

}  // namespace benchkit::report
