// libFuzzer entry for the comparison of two result files and the comparison documents written
// from it, as `benchkit compare OLD NEW --format json` makes them: the bytes before the first NUL
// are the baseline file, the rest the new one (the same file twice when there is no NUL). The
// benchkit/comparison JSON is read by CI and dashboards, and by `benchkit merge`
// (formats/comparison_json.hpp), so it must stay JSON whatever the files held (any name, any
// number): it parses, names its schema and lists every benchmark compared, in order; read back,
// it gives the same benchmarks, and a merge of it judges them again. The input is also read as a
// comparison document itself, written back, read again (it must read) and judged again. The other
// comparison formats are rendered too: never a crash, a hang or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "analysis/compare.hpp"
#include "analysis/estimates.hpp"
#include "formats/comparison_json.hpp"
#include "formats/result_file.hpp"
#include "report/comparison.hpp"
#include "report/reporter.hpp"

namespace {

std::optional<benchkit::RunResult> load(std::string_view text) {
  auto loaded = benchkit::formats::read_result(text, "fuzz.json");
  if (!loaded) return std::nullopt;
  if (!loaded->estimates_present) benchkit::analysis::compute_estimates(loaded->run);
  return std::move(loaded->run);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace report = benchkit::report;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The input as a comparison document: judged as a merge does, written back, read again (the
  // same rows, in order) and judged again.
  if (auto read = benchkit::formats::comparison_from_json(text, "fuzz.json")) {
    benchkit::analysis::judge_suite(*read);
    const std::string written = benchkit::formats::comparison_to_json(*read);
    if (!benchkit::formats::is_comparison_document(written)) std::abort();
    if (auto again = benchkit::formats::comparison_from_json(written, "fuzz.json")) {
      if (again->benchmarks.size() != read->benchmarks.size()) std::abort();
      for (std::size_t i = 0; i < again->benchmarks.size(); ++i) {
        if (again->benchmarks[i].name != read->benchmarks[i].name) std::abort();
      }
      benchkit::analysis::judge_suite(*again);
    } else {
      // A document the reader accepted, judged again and written must read back.
      std::fprintf(stderr, "written comparison not read back: %s\n", again.error().message.c_str());
      std::abort();
    }
  }
  const std::size_t split = text.find('\0');
  const auto baseline = load(text.substr(0, split));
  if (!baseline) return 0;
  const auto candidate = split == std::string_view::npos ? baseline : load(text.substr(split + 1));
  if (!candidate) return 0;
  const auto comparison = benchkit::analysis::compare(*baseline, *candidate);

  const std::string json = report::render_comparison(comparison, report::Format::json);
  const auto document = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded() || document.value("schema", "") != "benchkit/comparison") {
    std::abort();
  }
  const auto& listed = document.at("benchmarks");
  if (listed.size() != comparison.benchmarks.size()) std::abort();
  for (std::size_t i = 0; i < listed.size(); ++i) {
    if (listed[i].at("name") != comparison.benchmarks[i].name) std::abort();
  }
  // Read back (a NaN written as null is refused, never a crash), then judged again as a merge does.
  if (auto read = benchkit::formats::comparison_from_json(json, "fuzz.json")) {
    if (read->benchmarks.size() != comparison.benchmarks.size()) std::abort();
    for (std::size_t i = 0; i < listed.size(); ++i) {
      if (read->benchmarks[i].name != comparison.benchmarks[i].name) std::abort();
    }
    benchkit::analysis::judge_suite(*read);
  }
  for (const auto format : {report::Format::console, report::Format::markdown, report::Format::csv,
                            report::Format::junit}) {
    (void)report::render_comparison(comparison, format);
  }
  // The page is large (its script inlined): one input in eight.
  if (data[size - 1] % 8 == 0) (void)report::render_comparison(comparison, report::Format::html);
  return 0;
}
