#include "store/history_store.hpp"

#include <fmt/format.h>
#include <sha2.h>

#include <array>

#include "formats/result_json.hpp"
#include "store/compression.hpp"

namespace benchkit::store {
namespace {

// 128 bits of SHA-256: collisions are out of reach for any history, and ids stay short enough
// to read; `show` accepts any unique prefix.
constexpr std::size_t kIdentityDigits = 32;

std::string identity_of(std::string_view document) {
  std::array<char, SHA256_DIGEST_STRING_LENGTH> hex{};
  SHA256Data(reinterpret_cast<const std::uint8_t*>(document.data()), document.size(), hex.data());
  return std::string(hex.data(), kIdentityDigits);
}

std::string diagnostic_codes(const BenchmarkResult& benchmark) {
  std::string codes;
  for (const Diagnostic& diagnostic : benchmark.diagnostics) {
    codes += (codes.empty() ? "" : ",") + diagnostic.code;
  }
  return codes;
}

SummaryRow summary_of(const BenchmarkResult& benchmark) {
  const Estimate& median = benchmark.estimates.median;
  return SummaryRow{.benchmark = benchmark.name,
                    .median = median.value,
                    .lower = median.lower,
                    .upper = median.upper,
                    .samples = benchmark.samples.size(),
                    .verdict = "",
                    .diagnostics = diagnostic_codes(benchmark)};
}

}  // namespace

StoredRun make_stored_run(const RunResult& run, std::string machine, std::string build,
                          std::string group) {
  const std::string document = formats::to_json(run);
  StoredRun stored;
  stored.id = identity_of(document);
  stored.date = run.context.date;
  stored.commit = run.context.git_commit;
  stored.branch = run.context.git_branch;
  stored.dirty = run.context.git_dirty;
  stored.tags = run.context.tags;
  stored.machine = std::move(machine);
  stored.build = std::move(build);
  stored.hostname = run.context.hostname;
  stored.benchmarks = run.benchmarks.size();
  stored.group = std::move(group);
  if (run.context.shard) {
    stored.shard_index = run.context.shard->index;
    stored.shard_count = run.context.shard->count;
  }
  stored.compressed_result = compress(document);
  stored.summaries.reserve(run.benchmarks.size());
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    stored.summaries.push_back(summary_of(benchmark));
  }
  return stored;
}

std::optional<model::Error> bad_run_identity(std::string_view id_prefix) {
  if (id_prefix.size() >= 4 &&
      id_prefix.find_first_not_of("0123456789abcdef") == std::string_view::npos) {
    return std::nullopt;
  }
  return model::Error{fmt::format(
      "\"{}\" is not a run identity: give at least 4 of its hex digits, as benchkit history "
      "list shows them",
      id_prefix)};
}

model::Result<std::string> result_document(const StoredRun& run) {
  return decompress(run.compressed_result, run.id);
}

model::Result<StoredRun> backfill_from_result(StoredRun run) {
  const auto document = result_document(run);
  if (!document) return document.error();
  auto parsed = formats::from_json(*document, "stored run " + run.id);
  if (!parsed) return parsed.error();
  run.tags = parsed->run.context.tags;
  run.summaries.clear();
  for (const BenchmarkResult& benchmark : parsed->run.benchmarks) {
    run.summaries.push_back(summary_of(benchmark));
  }
  return run;
}

model::Result<std::vector<SeriesRun>> Store::series(const RunQuery& query) {
  std::vector<SeriesRun> runs;
  const auto read = each_series_run(query, [&](SeriesRun& run) { runs.push_back(std::move(run)); });
  if (!read) return read.error();
  return runs;
}

}  // namespace benchkit::store
