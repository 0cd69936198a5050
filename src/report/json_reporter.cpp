// JSON, one versioned document per output: the result document (docs/result-format.md), or the
// comparison, noise or system document of the part the Document holds.
#include <ostream>

#include "formats/result_json.hpp"
#include "report/parts.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

std::string parts::results_json(const RunResult& run) {
  return formats::to_json(run);
}

namespace {

class JsonReporter final : public Reporter {
 private:
  Format format() const override { return Format::json; }
  Capabilities capabilities() const override {
    return {{Part::results, Part::comparison, Part::noise, Part::machine_checks}, false};
  }
  std::string render_accepted(const Document& document) const override {
    if (document.comparison) return parts::comparison_json(*document.comparison);
    if (document.noise) return parts::noise_json(*document.noise);
    if (document.machine_checks) return parts::machine_checks_json(*document.machine_checks);
    return parts::results_json(*document.results);
  }
  void write_accepted(const Document& document, std::ostream& out) const override {
    if (document.results) {
      formats::write_json(*document.results, out);
      return;
    }
    out << render_accepted(document);
  }
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter() {
  return std::make_unique<JsonReporter>();
}

}  // namespace benchkit::report
