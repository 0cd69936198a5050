// The versioned result document (docs/result-format.md).
#include "formats/result_json.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {
namespace {
class JsonReporter final : public Reporter {
 public:
  std::string render(const RunResult& run) const override { return formats::to_json(run); }
};
}  // namespace

std::unique_ptr<Reporter> make_json_reporter() {
  return std::make_unique<JsonReporter>();
}

}  // namespace benchkit::report
