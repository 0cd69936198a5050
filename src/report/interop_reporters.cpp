// The formats other tools read, each a run's results only (comparisons, noise reports and
// machine checks have no form in them), written by src/formats/ (docs/interop.md):
//   gbench         Google Benchmark-compatible JSON: github-action-benchmark's googlecpp tool,
//                  Bencher's cpp_google adapter and Google Benchmark's tools/compare.py
//   bmf            Bencher Metric Format: the median with its 95% CI as lower and upper values
//   github-action  github-action-benchmark's customSmallerIsBetter JSON
#include "formats/dashboard_json.hpp"
#include "formats/gbench_json.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

using Writer = std::string (*)(const RunResult&);

class ResultsDocumentReporter final : public Reporter {
 public:
  ResultsDocumentReporter(Format format, Writer writer) : format_(format), writer_(writer) {}

 private:
  Format format() const override { return format_; }
  Capabilities capabilities() const override { return {{Part::results}, false}; }
  std::string render_accepted(const Document& document) const override {
    return writer_(*document.results);
  }
  Format format_;
  Writer writer_;
};

}  // namespace

std::unique_ptr<Reporter> make_gbench_reporter() {
  return std::make_unique<ResultsDocumentReporter>(Format::gbench, formats::to_gbench_json);
}
std::unique_ptr<Reporter> make_bmf_reporter() {
  return std::make_unique<ResultsDocumentReporter>(Format::bmf, formats::to_bmf_json);
}
std::unique_ptr<Reporter> make_github_action_reporter() {
  return std::make_unique<ResultsDocumentReporter>(Format::github_action,
                                                   formats::to_github_action_json);
}

}  // namespace benchkit::report
