#include "session/result_files.hpp"

#include <filesystem>

#include "analysis/estimates.hpp"
#include "formats/result_file.hpp"
#include "store/atomic_file.hpp"
#include "store/baselines.hpp"

namespace benchkit::session {
namespace {

model::Result<RunResult> parse(const std::string& text, const std::string& origin) {
  auto parsed = formats::read_result(text, origin);
  if (!parsed) return parsed.error();
  RunResult run = std::move(parsed->run);
  if (!parsed->estimates_present) analysis::compute_estimates(run);
  return run;
}

}  // namespace

model::Result<RunResult> load_result_file(const std::string& path) {
  const auto text = store::read_file(path);
  if (!text) return text.error();
  return parse(*text, path);
}

model::Result<RunResult> load_baseline(const std::string& name) {
  const auto text = store::read_baseline(name);
  if (!text) return text.error();
  return parse(*text, *store::baseline_path(name));
}

model::Result<RunResult> load_file_or_baseline(const std::string& reference) {
  std::error_code error;
  if (std::filesystem::is_regular_file(reference, error)) return load_result_file(reference);
  const auto path = store::baseline_path(reference);
  if (!path) {
    return model::Error{"\"" + reference + "\" is neither a result file nor a baseline name (" +
                        path.error().message + ")"};
  }
  auto run = load_baseline(reference);
  if (!run) {
    return model::Error{"\"" + reference +
                        "\" is not a file, and as a baseline: " + run.error().message};
  }
  return run;
}

}  // namespace benchkit::session
