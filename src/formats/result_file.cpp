#include "formats/result_file.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "formats/gbench_json.hpp"
#include "formats/hyperfine_json.hpp"
#include "formats/json_document.hpp"
#include "formats/result_json.hpp"

namespace benchkit::formats {

std::string_view to_string(SourceFormat format) {
  switch (format) {
    case SourceFormat::benchkit:
      return "benchkit";
    case SourceFormat::google_benchmark:
      return "Google Benchmark";
    case SourceFormat::hyperfine:
      return "hyperfine";
  }
  return "benchkit";
}

model::Result<LoadedRun> read_result(std::string_view text, const std::string& origin) {
  nlohmann::ordered_json root;
  try {
    // Strict JSON first: every benchkit result is, and most other files too.
    root = parse_json_document(text, origin);
  } catch (const model::Error& strict) {
    // Google Benchmark writes NaN and Infinity bare; a file that parses only with them is read
    // as one of its files, and any other damage is reported as strict JSON sees it.
    try {
      root = parse_json_document(text, origin, NonFinite::accepted);
    } catch (const model::Error&) {
      return strict;
    }
    if (!is_gbench_document(root)) return strict;
  }
  if (root.is_object() && root.contains("schema")) {
    auto parsed = from_json_document(root, origin);
    if (!parsed) return parsed.error();
    return LoadedRun{std::move(parsed->run), parsed->estimates_present, SourceFormat::benchkit};
  }
  if (is_gbench_document(root)) {
    auto run = gbench_from_document(root, origin);
    if (!run) return run.error();
    return LoadedRun{std::move(*run), false, SourceFormat::google_benchmark};
  }
  if (is_hyperfine_document(root)) {
    auto run = hyperfine_from_document(root, origin);
    if (!run) return run.error();
    return LoadedRun{std::move(*run), false, SourceFormat::hyperfine};
  }
  return model::Error{fmt::format(
      "{}: not a result file benchkit reads: expected a benchkit result (\"schema\": "
      "\"benchkit/result\", from a bench binary's --out), Google Benchmark JSON (an object with "
      "\"context\" and \"benchmarks\", from --benchmark_out=FILE --benchmark_out_format=json) "
      "or a hyperfine export (an object with \"results\", from hyperfine --export-json FILE)",
      origin)};
}

}  // namespace benchkit::formats
