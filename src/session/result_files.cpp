#include "session/result_files.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "analysis/complexity.hpp"
#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "formats/comparison_json.hpp"
#include "formats/result_file.hpp"
#include "model/merge.hpp"
#include "store/atomic_file.hpp"
#include "store/baselines.hpp"

namespace benchkit::session {
namespace {

// Another tool's results (Google Benchmark records its CPU's clock rate) faster than one cycle
// per iteration: analysis::check_imported_speed.
void flag_optimised_away(RunResult& run) {
  const auto mhz = run.context.machine.find("cpu_mhz");
  if (mhz == run.context.machine.end()) return;
  double cpu_mhz = 0;
  try {
    cpu_mhz = std::stod(mhz->second);
  } catch (const std::exception&) {
    return;
  }
  for (BenchmarkResult& result : run.benchmarks) analysis::check_imported_speed(result, cpu_mhz);
}

// Repetitions that one process ran one after another (a Google Benchmark file): a trend or
// states across them, analysis::check_imported_repetitions.
void diagnose_repetitions(RunResult& run) {
  if (!model::has_one_process_warning(run.context)) return;
  for (BenchmarkResult& result : run.benchmarks) analysis::check_imported_repetitions(result);
}

model::Result<RunResult> parse(const std::string& text, const std::string& origin) {
  auto parsed = formats::read_result(text, origin);
  if (!parsed) return parsed.error();
  RunResult run = std::move(parsed->run);
  if (!parsed->estimates_present) {
    analysis::compute_estimates(run);
    flag_optimised_away(run);
    diagnose_repetitions(run);
    for (BenchmarkResult& result : run.benchmarks) analysis::check_imported_zero_times(result);
  } else {
    analysis::fit_complexity(run);  // the fits are always recomputed from the samples
  }
  return run;
}

// A file larger than the limit is refused before it is read (see result_files.hpp).
std::optional<model::Error> too_large(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return std::nullopt;  // read_file names what is wrong with it
  const std::uintmax_t limit = result_file_limit_bytes();
  if (size <= limit) return std::nullopt;
  constexpr double kMiB = 1024.0 * 1024.0;
  return model::Error{fmt::format(
      "{} is {:.0f} MiB, more than the {:.0f} MiB benchkit reads as a result file (reading takes "
      "about {} times the file's size in memory, so this one would need about {:.1f} GiB); "
      "split the run, or set {}=MiB to read it anyway",
      path, static_cast<double>(size) / kMiB, static_cast<double>(limit) / kMiB,
      kResultMemoryFactor, static_cast<double>(size) * kResultMemoryFactor / (kMiB * 1024.0),
      kResultLimitVariable)};
}

}  // namespace

std::uintmax_t result_file_limit_bytes() {
  constexpr std::uintmax_t kMiB = 1024 * 1024;
  // Digits only: strtoull would take "-1" for the largest number.
  if (const char* chosen = std::getenv(kResultLimitVariable);
      chosen && *chosen >= '0' && *chosen <= '9') {
    char* end = nullptr;
    const unsigned long long mib = std::strtoull(chosen, &end, 10);
    if (end && *end == '\0' && mib > 0) return static_cast<std::uintmax_t>(mib) * kMiB;
  }
  return kDefaultResultLimitMiB * kMiB;
}

model::Result<RunResult> load_result_file(const std::string& path) {
  if (auto refused = too_large(path)) return *refused;
  const auto text = store::read_file(path);
  if (!text) return text.error();
  return parse(*text, path);
}

model::Result<RunOrComparison> load_run_or_comparison(const std::string& path) {
  if (auto refused = too_large(path)) return *refused;
  const auto text = store::read_file(path);
  if (!text) return text.error();
  if (formats::is_comparison_document(*text)) {
    auto comparison = formats::comparison_from_json(*text, path);
    if (!comparison) return comparison.error();
    return RunOrComparison{.run = std::nullopt, .comparison = std::move(*comparison)};
  }
  auto run = parse(*text, path);
  if (!run) return run.error();
  return RunOrComparison{.run = std::move(*run), .comparison = std::nullopt};
}

std::optional<model::Error> refuse_recompute(const RunOrComparison& input, const std::string& path,
                                             bool recompute) {
  if (!recompute || !input.comparison) return std::nullopt;
  return model::Error{
      fmt::format("--recompute: {} is a comparison (benchkit/comparison), which keeps its verdicts "
                  "but no samples to compute them again from; give it without --recompute, or "
                  "compare the result files again with benchkit compare OLD NEW",
                  path),
      model::ErrorKind::usage};
}

model::Result<RunResult> load_baseline(const std::string& name) {
  if (const auto path = store::baseline_path(name)) {
    if (auto refused = too_large(*path)) return *refused;
  }
  const auto text = store::read_baseline(name);
  if (!text) return text.error();
  return parse(*text, *store::baseline_path(name));
}

model::Result<RunResult> load_file_or_baseline(const std::string& reference) {
  std::error_code error;
  if (std::filesystem::is_regular_file(reference, error)) return load_result_file(reference);
  const auto path = store::baseline_path(reference);
  if (!path) {
    // A path that cannot be a baseline's name: what is wrong is the file.
    if (std::filesystem::exists(reference, error)) {
      return model::Error{"\"" + reference +
                          "\" is not a regular file: give a result file (a "
                          "bench binary's --out, Google Benchmark or hyperfine JSON) or a "
                          "baseline name"};
    }
    return model::Error{"\"" + reference +
                        "\": no such file (and, with a '/', '\\', '..' or a "
                        "leading '.', no baseline name either); check the path, or list the "
                        "saved baselines in .benchkit/baselines"};
  }
  auto run = load_baseline(reference);
  if (!run) {
    return model::Error{"\"" + reference +
                        "\" is not a file, and as a baseline: " + run.error().message};
  }
  return run;
}

bool from_google_benchmark(const RunResult& run) {
  return run.context.machine.count("google_benchmark_build") > 0;
}

model::Result<RunResult> load_merged(const std::vector<std::string>& paths) {
  std::vector<RunResult> runs;
  for (const std::string& path : paths) {
    auto run = load_result_file(path);
    if (!run) return run.error();
    runs.push_back(std::move(*run));
  }
  if (runs.size() == 1) return std::move(runs.front());
  RunResult merged = model::merge_processes(runs);
  analysis::compute_estimates(merged);
  analysis::diagnose_processes(merged);
  // Files of two programs pooled as one build's processes: said (benchkit merge refuses them).
  for (std::size_t k = 1; k < runs.size(); ++k) {
    const Context& first = runs.front().context;
    const Context& other = runs[k].context;
    const bool programs = !first.executable.empty() && !other.executable.empty() &&
                          first.executable != other.executable;
    const bool builds = !first.executable_sha256.empty() && !other.executable_sha256.empty() &&
                        first.executable_sha256 != other.executable_sha256;
    if (!programs && !builds) continue;
    merged.context.warnings.push_back(Diagnostic{
        kMixedPrograms, "warning",
        fmt::format("{} and {} were made by different {} ({} and {}): their samples are pooled "
                    "as processes of one build; import the files of one build (compare two "
                    "builds with benchkit compare)",
                    paths.front(), paths[k], builds ? "builds" : "programs",
                    builds ? first.executable_sha256.substr(0, 12) : first.executable,
                    builds ? other.executable_sha256.substr(0, 12) : other.executable)});
    break;
  }
  return merged;
}

}  // namespace benchkit::session
