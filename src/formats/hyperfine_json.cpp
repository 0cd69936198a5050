#include "formats/hyperfine_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "formats/json_document.hpp"

namespace benchkit::formats {

using nlohmann::ordered_json;

namespace {

const ordered_json& array_of(const ordered_json& object, const char* key, const std::string& path) {
  const ordered_json* value = find_member(object, key);
  if (!value || !value->is_array())
    fail_at(path.empty() ? key : path + "." + key, "missing: expected an array");
  return *value;
}

// Seconds, as hyperfine writes every time, in nanoseconds; negative or non-finite is damage.
double seconds_to_ns(const ordered_json& value, const std::string& path) {
  if (!value.is_number())
    fail_at(path, fmt::format("expected a number of seconds, got {}", value.type_name()));
  const double seconds = value.get<double>();
  if (!std::isfinite(seconds) || seconds < 0) {
    fail_at(path, fmt::format("expected a time of zero seconds or more, got {}", seconds));
  }
  return seconds * 1e9;
}

BenchmarkResult read_command(const ordered_json& entry, const std::string& path) {
  if (!entry.is_object()) fail_at(path, "expected an object (one command)");
  const ordered_json* command = find_member(entry, "command");
  if (!command || !command->is_string()) fail_at(path + ".command", "missing: expected a string");
  BenchmarkResult result;
  result.kind = "command";
  result.name = command->get<std::string>();
  result.command = result.name;
  if (!find_member(entry, "times")) {
    fail_at(path + ".times",
            fmt::format("missing: the export holds only the summary of \"{}\" (mean, stddev, ...), "
                        "and benchkit reads the time of each run, which hyperfine --export-json "
                        "writes in \"times\" (was it taken out of the file?)",
                        result.name));
  }
  const ordered_json& times = array_of(entry, "times", path);
  // One run is read (a sample with no interval, as a one-repetition Google Benchmark file's);
  // none is nothing to read.
  if (times.empty()) {
    fail_at(path + ".times", fmt::format("empty: \"{}\" has no run to read; run hyperfine "
                                         "again with --runs 2 or more (10 is a good start)",
                                         result.name));
  }
  const ordered_json* exit_codes = find_member(entry, "exit_codes");
  if (exit_codes && (!exit_codes->is_array() || exit_codes->size() != times.size())) {
    fail_at(path + ".exit_codes", "expected an array with one exit code per entry of times");
  }
  const ordered_json* memory = find_member(entry, "memory_usage_byte");
  if (memory && (!memory->is_array() || memory->size() != times.size())) {
    fail_at(path + ".memory_usage_byte", "expected an array with one value per entry of times");
  }
  for (std::size_t i = 0; i < times.size(); ++i) {
    Sample sample;
    sample.ns = seconds_to_ns(times[i], fmt::format("{}.times[{}]", path, i));
    Resources resources;
    if (exit_codes && (*exit_codes)[i].is_number_integer()) {
      const auto code = (*exit_codes)[i].get<std::int64_t>();
      if (code >= std::numeric_limits<int>::min() && code <= std::numeric_limits<int>::max()) {
        resources.exit_code = static_cast<int>(code);
      }
    }
    if (memory && (*memory)[i].is_number() && (*memory)[i].get<double>() >= 0 &&
        (*memory)[i].get<double>() < 9.2e18) {
      resources.peak_rss_bytes = static_cast<std::int64_t>((*memory)[i].get<double>());
    }
    if (resources.exit_code || resources.peak_rss_bytes) sample.resources = resources;
    result.samples.push_back(std::move(sample));
  }
  for (const auto& [key, name] : {std::pair{"user", "user_ns"}, std::pair{"system", "system_ns"}}) {
    if (const ordered_json* value = find_member(entry, key)) {
      result.counters[name] = seconds_to_ns(*value, path + "." + key);
    }
  }
  if (const ordered_json* parameters = find_member(entry, "parameters")) {
    if (!parameters->is_object()) fail_at(path + ".parameters", "expected an object");
    for (const auto& [name, value] : parameters->items()) {
      result.params[name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
  }
  return result;
}

RunResult read_hyperfine_document(const ordered_json& root) {
  if (!root.is_object()) fail_at("", "expected a JSON object");
  RunResult run;
  run.context.tool_version = "hyperfine";
  const ordered_json* results = find_member(root, "results");
  if (!results || !results->is_array()) fail_at("results", "missing: expected an array");
  for (std::size_t i = 0; i < results->size(); ++i) {
    run.benchmarks.push_back(read_command((*results)[i], fmt::format("results[{}]", i)));
  }
  if (run.benchmarks.empty()) {
    fail_at("results", "empty: the file holds no command; run hyperfine with at least one command");
  }
  return run;
}

}  // namespace

bool is_hyperfine_document(const ordered_json& root) {
  if (!root.is_object() || root.contains("schema")) return false;
  const auto results = root.find("results");
  if (results == root.end() || !results->is_array()) return false;
  if (results->empty()) return true;
  const ordered_json& first = results->front();
  // "times" or, in an export whose runs were taken out, the summary's "mean": the reader then
  // says what is missing.
  return first.is_object() && first.contains("command") &&
         (first.contains("times") || first.contains("mean"));
}

model::Result<RunResult> hyperfine_from_document(const ordered_json& root,
                                                 const std::string& origin) {
  return read_with_origin<RunResult>(origin, [&] { return read_hyperfine_document(root); });
}

model::Result<RunResult> from_hyperfine_json(std::string_view text, const std::string& origin) {
  return read_with_origin<RunResult>(origin, [&] {
    return read_hyperfine_document(parse_json_document(text, origin, NonFinite::accepted));
  });
}

}  // namespace benchkit::formats
