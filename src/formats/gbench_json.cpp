#include "formats/gbench_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>
#include <vector>

#include "formats/json_document.hpp"
#include "model/counters.hpp"
#include "model/merge.hpp"
#include "model/threads.hpp"

namespace benchkit::formats {

using nlohmann::ordered_json;

namespace {

std::optional<std::string> text_of(const ordered_json& object, const char* key,
                                   const std::string& path) {
  const ordered_json* value = find_member(object, key);
  if (!value) return std::nullopt;
  if (!value->is_string()) {
    fail_at(path + "." + key, fmt::format("expected a string, got {}", value->type_name()));
  }
  return value->get<std::string>();
}

std::optional<double> number_of(const ordered_json& object, const char* key,
                                const std::string& path) {
  const ordered_json* value = find_member(object, key);
  if (!value) return std::nullopt;
  if (!value->is_number()) {
    fail_at(path + "." + key, fmt::format("expected a number, got {}", value->type_name()));
  }
  return value->get<double>();
}

bool flag_of(const ordered_json& object, const char* key) {
  const ordered_json* value = find_member(object, key);
  return value && value->is_boolean() && value->get<bool>();
}

// Nanoseconds in one `unit` (Google Benchmark's kNanosecond ... kSecond).
double unit_ns(const std::string& unit, const std::string& path) {
  if (unit == "ns") return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  fail_at(path, fmt::format("time_unit \"{}\" is not one of ns, us, ms, s", unit));
}

// The keys of a row that are not user counters (Google Benchmark writes user counters as flat
// numeric keys beside these).
const std::set<std::string> kRowKeys = {"name",
                                        "family_index",
                                        "per_family_instance_index",
                                        "run_name",
                                        "run_type",
                                        "repetitions",
                                        "repetition_index",
                                        "threads",
                                        "aggregate_name",
                                        "aggregate_unit",
                                        "error_occurred",
                                        "error_message",
                                        "skipped",
                                        "skip_message",
                                        "iterations",
                                        "real_time",
                                        "cpu_time",
                                        "time_unit",
                                        "cpu_coefficient",
                                        "real_coefficient",
                                        "big_o",
                                        "rms",
                                        "bytes_per_second",
                                        "items_per_second",
                                        "label"};

struct Row {
  std::string name;
  std::string run_name;
  bool aggregate = false;
  std::string aggregate_name;
  std::optional<std::string> failure;  // error_occurred or skipped, with the message
  std::size_t repetition_index = 0;
  // Which registration wrote the row (Google Benchmark 1.6 and later): two benchmarks may share a
  // name, never these.
  std::optional<std::pair<double, double>> registration;
  std::size_t repetitions = 0;  // the benchmark's repetitions, as the row says (0: not said)
  std::uint64_t iterations = 1;
  std::optional<double> real_ns;  // per iteration
  std::optional<double> cpu_ns;   // per iteration
  std::optional<double> bytes_per_second;
  std::optional<double> items_per_second;
  std::string label;
  std::uint32_t threads = 1;
  std::map<std::string, double> counters;
  // A complexity row (aggregate BigO or RMS): the fitted class, its coefficients (in the row's
  // time unit, per unit of N's function) and the normalised root mean square of the fit.
  std::string big_o;
  std::optional<double> real_coefficient;
  std::optional<double> cpu_coefficient;
  std::optional<double> rms;
  std::string time_unit = "ns";
};

Row read_gbench_row(const ordered_json& object, const std::string& path, std::size_t repetition) {
  if (!object.is_object()) fail_at(path, "expected an object (one benchmark run)");
  Row row;
  const auto name = text_of(object, "name", path);
  if (!name || name->empty()) fail_at(path + ".name", "missing (every run has a name)");
  row.name = *name;
  row.run_name = text_of(object, "run_name", path).value_or(row.name);
  const std::string run_type = text_of(object, "run_type", path).value_or("iteration");
  row.aggregate = run_type == "aggregate";
  row.aggregate_name = text_of(object, "aggregate_name", path).value_or("");
  if (flag_of(object, "error_occurred")) {
    row.failure = "Google Benchmark reported an error: " +
                  text_of(object, "error_message", path).value_or("(no message)");
  } else if (flag_of(object, "skipped")) {
    row.failure = "skipped by Google Benchmark: " +
                  text_of(object, "skip_message", path).value_or("(no message)");
  }
  row.repetition_index = repetition;
  if (const auto family = number_of(object, "family_index", path)) {
    row.registration = {*family, number_of(object, "per_family_instance_index", path).value_or(0)};
  }
  if (const auto index = number_of(object, "repetition_index", path)) {
    if (*index < 0 || *index > 1e9 || *index != std::floor(*index)) {
      fail_at(path + ".repetition_index", "expected a non-negative integer");
    }
    row.repetition_index = static_cast<std::size_t>(*index);
  }
  if (const auto repetitions = number_of(object, "repetitions", path)) {
    if (*repetitions >= 1 && *repetitions < 1e9 && *repetitions == std::floor(*repetitions)) {
      row.repetitions = static_cast<std::size_t>(*repetitions);
    }
  }
  if (const auto iterations = number_of(object, "iterations", path)) {
    // 2^63: beyond any iteration count Google Benchmark runs (an int64 there).
    if (!(*iterations >= 0 && *iterations < 9.2e18) || *iterations != std::floor(*iterations)) {
      fail_at(path + ".iterations",
              fmt::format("expected a non-negative integer, got {}", *iterations));
    }
    row.iterations = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(*iterations));
  }
  row.time_unit = text_of(object, "time_unit", path).value_or("ns");
  const double scale = unit_ns(row.time_unit, path + ".time_unit");
  row.big_o = text_of(object, "big_o", path).value_or("");
  row.real_coefficient = number_of(object, "real_coefficient", path);
  row.cpu_coefficient = number_of(object, "cpu_coefficient", path);
  row.rms = number_of(object, "rms", path);
  if (const auto real = number_of(object, "real_time", path)) row.real_ns = *real * scale;
  if (const auto cpu = number_of(object, "cpu_time", path)) row.cpu_ns = *cpu * scale;
  row.bytes_per_second = number_of(object, "bytes_per_second", path);
  row.items_per_second = number_of(object, "items_per_second", path);
  row.label = text_of(object, "label", path).value_or("");
  if (const auto threads = number_of(object, "threads", path)) {
    // Google Benchmark's ->Threads(N) takes an int; anything else is left at 1.
    if (*threads >= 1 && *threads < 1e6 && *threads == std::floor(*threads)) {
      row.threads = static_cast<std::uint32_t>(*threads);
    }
  }
  for (const auto& [key, value] : object.items()) {
    if (kRowKeys.count(key) == 0 && value.is_number()) row.counters[key] = value.get<double>();
  }
  return row;
}

bool finite_time(const std::optional<double>& ns) {
  return ns && std::isfinite(*ns) && *ns >= 0;
}

// Work per iteration from a rate Google Benchmark printed: it divides the work by CPU time,
// or by real time for a benchmark with UseRealTime/UseManualTime. Counts are whole numbers per
// iteration in nearly every suite, so the time that gives the nearer whole number is the one
// it used.
std::optional<double> work_of_one(const std::optional<double>& rate, const Row& row) {
  if (!rate || !std::isfinite(*rate) || *rate <= 0) return std::nullopt;
  std::optional<double> best;
  for (const std::optional<double>& ns : {row.cpu_ns, row.real_ns}) {
    if (!finite_time(ns) || *ns <= 0) continue;
    const double work = *rate * *ns * 1e-9;
    if (!best || std::abs(work - std::round(work)) < std::abs(*best - std::round(*best))) {
      best = work;
    }
  }
  return best;
}

// The same, rounded: an aggregate row's rate is a mean of the repetitions' rates, which times
// their mean time is the amount only nearly.
std::optional<std::uint64_t> work_per_iteration(const std::optional<double>& rate, const Row& row) {
  const std::optional<double> best = work_of_one(rate, row);
  if (!best || std::round(*best) < 1 || *best > 1e18) return std::nullopt;
  return static_cast<std::uint64_t>(std::round(*best));
}

// An iteration row's amount of work in one iteration, when it is a whole number (within 0.1%:
// a rate and a time printed with six digits). A code that sets the work as a fixed amount rather
// than the iterations times the work of one (CRoaring's synthetic_bench calls
// SetItemsProcessed(count) once) gives a fraction that changes with the iteration count: 22.07
// items in a process of 453 iterations, 3.45 in one of 2,900, 0.07 in another.
struct RowWork {
  std::optional<std::uint64_t> whole;
  std::optional<double> fraction;  // set when the rate gives no whole amount
};

RowWork row_work(const std::optional<double>& rate, const Row& row) {
  const std::optional<double> work = work_of_one(rate, row);
  if (!work || *work > 1e18) return {};
  const double nearest = std::round(*work);
  if (nearest >= 1 && std::abs(*work - nearest) <= 1e-3 * *work) {
    return {static_cast<std::uint64_t>(nearest), std::nullopt};
  }
  return {std::nullopt, work};
}

void read_context(const ordered_json& context, Context& out) {
  const std::string path = "context";
  if (const auto value = text_of(context, "date", path)) out.date = *value;
  if (const auto value = text_of(context, "host_name", path)) out.hostname = *value;
  if (const auto value = text_of(context, "executable", path)) out.executable = *value;
  if (const auto value = number_of(context, "num_cpus", path)) {
    if (*value >= 0 && *value < 1e6) out.logical_cpus = static_cast<int>(*value);
  }
  out.tool_version = "Google Benchmark";
  if (const auto value = text_of(context, "library_version", path)) {
    out.tool_version += " " + *value;
  }
  if (const auto value = number_of(context, "mhz_per_cpu", path)) {
    out.machine["cpu_mhz"] = fmt::format("{}", *value);
  }
  if (const ordered_json* value = find_member(context, "cpu_scaling_enabled")) {
    if (value->is_boolean())
      out.machine["cpu_scaling"] = value->get<bool>() ? "enabled" : "disabled";
  }
  if (const ordered_json* value = find_member(context, "aslr_enabled")) {
    if (value->is_boolean()) out.machine["aslr"] = value->get<bool>() ? "enabled" : "disabled";
  }
  if (const auto value = text_of(context, "library_build_type", path)) {
    out.machine["google_benchmark_build"] = *value;
  }
  if (const ordered_json* loads = find_member(context, "load_avg"); loads && loads->is_array()) {
    std::string text;
    for (const ordered_json& load : *loads) {
      if (load.is_number())
        text += (text.empty() ? "" : " ") + fmt::format("{:.2f}", load.get<double>());
    }
    if (!text.empty()) out.machine["load_avg"] = text;
  }
  if (const ordered_json* caches = find_member(context, "caches"); caches && caches->is_array()) {
    std::string text;
    for (const ordered_json& cache : *caches) {
      const auto type = text_of(cache, "type", path + ".caches");
      const auto level = number_of(cache, "level", path + ".caches");
      const auto size = number_of(cache, "size", path + ".caches");
      if (!type || !level || !size) continue;
      text += fmt::format("{}L{} {} {} KiB", text.empty() ? "" : ", ", *level, *type, *size / 1024);
    }
    if (!text.empty()) out.machine["caches"] = text;
  }
}

// The document's context: its schema version checked, then read into `out`.
void read_checked_context(const ordered_json& root, Context& out) {
  const ordered_json* context = find_member(root, "context");
  if (!context) return;
  if (!context->is_object()) fail_at("context", "expected an object");
  if (const auto version = number_of(*context, "json_schema_version", "context")) {
    if (*version != kGbenchSchemaVersion) {
      fail_at("context.json_schema_version",
              fmt::format("is {}: this benchkit reads Google Benchmark's JSON schema version {}. "
                          "Use a benchkit that reads version {} (update benchkit), or write the "
                          "file with a Google Benchmark release whose JSON schema is version {}",
                          *version, kGbenchSchemaVersion, *version, kGbenchSchemaVersion));
    }
  }
  read_context(*context, out);
}

// The rows of the benchmarks array grouped by run name, in the order each first appears.
struct RowGroups {
  std::vector<std::string> order;
  std::map<std::string, std::vector<Row>> groups;
};

RowGroups read_rows(const ordered_json& rows) {
  RowGroups out;
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string path = fmt::format("benchmarks[{}]", i);
    const ordered_json& object = rows[i];
    // The run name, read first to number the repetitions of files that do not.
    const std::string key =
        object.is_object()
            ? text_of(object, "run_name", path).value_or(text_of(object, "name", path).value_or(""))
            : "";
    Row row = read_gbench_row(object, path, seen[key]);
    if (!row.aggregate) ++seen[key];
    if (out.groups.find(row.run_name) == out.groups.end()) out.order.push_back(row.run_name);
    out.groups[row.run_name].push_back(std::move(row));
  }
  return out;
}

// A rate that gives a fraction of an item (or byte) per iteration in a row: no throughput is
// kept for it (rounded, it was 13% off; below one, it was dropped without a word; and each of
// several processes ran its own number of iterations, so the fraction differed between them), and
// the diagnostic says why.
void note_fractional_work(const std::optional<double>& bytes, const std::optional<double>& items,
                          BenchmarkResult& result) {
  if (!bytes && !items) return;
  if (bytes) result.bytes_per_iteration.reset();
  if (items) result.items_per_iteration.reset();
  const bool both = bytes && items;
  result.diagnostics.push_back(Diagnostic{
      model::kWorkNotPerIteration, "warning",
      fmt::format("Google Benchmark's {} {} {:.3g} {} an iteration, not a whole number: the "
                  "code sets a fixed amount of work, not state.iterations() times one "
                  "iteration's, so the rate depends on how many iterations ran; no throughput is "
                  "shown for it",
                  both    ? "items_per_second and bytes_per_second"
                  : items ? "items_per_second"
                          : "bytes_per_second",
                  both ? "give" : "gives", items ? *items : *bytes, items ? "items" : "bytes")});
}

// One sample per iteration row (repetition), with the mean of each user counter over them and
// the work per iteration from the first rates given; a row without a finite time is a failure.
void add_iteration_samples(const std::vector<const Row*>& iterations, BenchmarkResult& result) {
  std::map<std::string, std::pair<double, std::size_t>> counter_sums;
  std::optional<double> bytes_fraction;
  std::optional<double> items_fraction;
  for (const Row* row : iterations) {
    if (!finite_time(row->real_ns)) {
      result.failures.push_back(
          fmt::format("repetition {} has no finite real_time: Google Benchmark could not time it",
                      row->repetition_index));
      continue;
    }
    Sample sample;
    sample.iters = row->iterations;
    sample.ns = *row->real_ns * static_cast<double>(row->iterations);
    // One process took every repetition (the file is one run of the suite): see
    // kOneProcessRepetitions.
    sample.process = 0;
    if (finite_time(row->cpu_ns)) {
      sample.counters["cpu_ns"] = *row->cpu_ns * static_cast<double>(row->iterations);
    }
    result.samples.push_back(std::move(sample));
    for (const auto& [name, value] : row->counters) {
      auto& [sum, count] = counter_sums[name];
      if (!std::isnan(value)) {  // an infinite counter stays infinite; NaN has no mean
        sum += value;
        ++count;
      }
    }
    for (auto [rate, amount, fraction] :
         {std::tuple{&row->bytes_per_second, &result.bytes_per_iteration, &bytes_fraction},
          std::tuple{&row->items_per_second, &result.items_per_iteration, &items_fraction}}) {
      const RowWork work = row_work(*rate, *row);
      if (work.fraction && !*fraction) *fraction = work.fraction;
      if (work.whole && !*amount) *amount = work.whole;
    }
  }
  note_fractional_work(bytes_fraction, items_fraction, result);
  for (const auto& [name, sum_count] : counter_sums) {
    if (sum_count.second > 0) {
      result.counters[name] = sum_count.first / static_cast<double>(sum_count.second);
    }
  }
}

// A group of aggregates only: the median when there is one, else the mean, as one sample of each
// registration that wrote one (a name registered twice wrote two: frozen's BM_StrNotInStdArray,
// 443 and 370 ns, of which only the first was read), with the aggregates_only diagnostic; a
// failure when neither is there. Returns the rows read.
std::vector<const Row*> add_aggregate_samples(const std::vector<Row>& group,
                                              BenchmarkResult& result) {
  std::vector<const Row*> read;
  for (const char* wanted : {"median", "mean"}) {
    for (const Row& row : group) {
      if (row.aggregate && row.aggregate_name == wanted && finite_time(row.real_ns)) {
        read.push_back(&row);
      }
    }
    if (!read.empty()) break;
  }
  if (read.empty()) {
    result.failures.push_back(
        "Google Benchmark wrote no iteration row and no median or mean for it: nothing to "
        "read");
    return read;
  }
  for (const Row* row : read) {
    Sample sample;
    sample.ns = *row->real_ns;
    if (finite_time(row->cpu_ns)) sample.counters["cpu_ns"] = *row->cpu_ns;
    result.samples.push_back(std::move(sample));
  }
  const Row* chosen = read.front();
  result.counters = chosen->counters;
  result.bytes_per_iteration = work_per_iteration(chosen->bytes_per_second, *chosen);
  result.items_per_iteration = work_per_iteration(chosen->items_per_second, *chosen);
  // Google Benchmark writes only aggregates when the suite ran with
  // --benchmark_report_aggregates_only, and for a benchmark whose code calls
  // ReportAggregatesOnly(), which no flag undoes (real suites do: ->Repetitions(10)
  // ->ReportAggregatesOnly(true)). Several files of one build, or runs in fresh processes, give a
  // sample each (model::note_aggregates_per_process).
  const std::string repetitions =
      chosen->repetitions > 0 ? fmt::format("{} repetitions", chosen->repetitions) : "repetitions";
  result.diagnostics.push_back(Diagnostic{
      model::kAggregatesOnly, "warning",
      fmt::format("Google Benchmark wrote only the aggregates of the {} (its code "
                  "calls ReportAggregatesOnly(), or the suite ran with "
                  "--benchmark_report_aggregates_only), so benchkit read their {} as one sample "
                  "and one file has no spread to test: run the suite in fresh processes "
                  "(benchkit run ./SUITE, benchkit compare OLD_BINARY NEW_BINARY), each "
                  "process's {} a sample, or without the flag when it was given",
                  repetitions, chosen->aggregate_name, chosen->aggregate_name)});
  return read;
}

// The duplicate_name warning when the rows read for one name (its iterations, or its aggregates)
// come from several registrations (family_index and per_family_instance_index): benchkit keys a
// benchmark by its name, so their samples are one benchmark's (spdlog's formatter-bench registers
// "%l" and "%i" twice each).
void note_shared_name(const std::vector<const Row*>& rows, BenchmarkResult& result) {
  std::set<std::pair<double, double>> registrations;
  for (const Row* row : rows) {
    if (row->registration) registrations.insert(*row->registration);
  }
  if (registrations.size() < 2) return;
  result.diagnostics.push_back(Diagnostic{
      model::kDuplicateName, "warning",
      fmt::format("{} benchmarks of this suite are named {}: benchkit keys a benchmark by its "
                  "name, so their samples are pooled here as one benchmark's, and its interval "
                  "and spread mix them. Give each its own name (the name given to "
                  "RegisterBenchmark, a BENCHMARK_CAPTURE's label, an Arg)",
                  registrations.size(), result.name)});
}

// The benchmark of one run name: its failures, label, and samples from its iteration rows (or
// from its aggregates when it has only those).
BenchmarkResult read_benchmark(const std::string& name, const std::vector<Row>& group) {
  BenchmarkResult result;
  result.name = name;
  std::vector<const Row*> iterations;
  for (const Row& row : group) {
    if (row.failure) {
      if (std::find(result.failures.begin(), result.failures.end(), *row.failure) ==
          result.failures.end()) {
        result.failures.push_back(*row.failure);
      }
    } else if (!row.aggregate) {
      iterations.push_back(&row);
    }
    if (!row.label.empty()) result.label = row.label;
    if (row.threads > 1) result.threads = row.threads;
  }
  add_iteration_samples(iterations, result);
  if (iterations.empty() && result.failures.empty()) {
    note_shared_name(add_aggregate_samples(group, result), result);
  } else {
    note_shared_name(iterations, result);
  }
  return result;
}

// A group of a complexity fit's rows alone (`->Complexity()` writes NAME_BigO and NAME_RMS under
// the family's run name, beside the rows of each size): not a benchmark of its own.
bool complexity_only(const std::vector<Row>& group) {
  return !group.empty() && std::all_of(group.begin(), group.end(), [](const Row& row) {
    return row.aggregate && (row.aggregate_name == "BigO" || row.aggregate_name == "RMS");
  });
}

// Google Benchmark's fit over `family`'s sizes, kept as a structured fit (source "Google
// Benchmark"): its class, its real-time coefficient (per unit of the class's function, in
// nanoseconds) and its RMS.
ComplexityResult imported_fit(const std::string& family, const std::vector<Row>& group) {
  ComplexityResult fit;
  fit.family = family;
  fit.param = "N";
  fit.source = "Google Benchmark";
  for (const Row& row : group) {
    if (row.aggregate_name == "BigO") {
      fit.big_o = row.big_o;
      fit.requested = row.big_o;
      fit.best = row.big_o;
      const double scale = unit_ns(row.time_unit, "BigO.time_unit");
      const double value = row.real_coefficient.value_or(row.cpu_coefficient.value_or(0.0));
      fit.coefficient = Estimate{value * scale, value * scale, value * scale, 0.95};
    } else if (row.aggregate_name == "RMS") {
      fit.rms = row.rms.value_or(0.0);
    }
  }
  return fit;
}

// Whether `part` of a Google Benchmark name is one of the settings it writes after the arguments
// (/min_time:, /iterations:, /repeats:, /threads:, /real_time, ...) rather than an argument.
bool setting_part(std::string_view part) {
  for (const std::string_view key :
       {"min_time:", "min_warmup_time:", "iterations:", "repeats:", "threads:"}) {
    if (part.starts_with(key)) return true;
  }
  return part == "process_time" || part == "real_time" || part == "manual_time";
}

// The size of a member of a fitted family. Google Benchmark names the family by the benchmark's
// name and settings without its argument ("BM_sort" of "BM_sort/4096", "BM_sort/real_time" of
// "BM_sort/4096/real_time", "BM_sort/repeats:3" of "BM_sort/4096/repeats:3") and fits over the
// argument, bare or named by ArgName ("BM_sort/size:4096"); names with more than one argument are
// left alone.
std::optional<double> size_in(const std::string& name, const std::string& family) {
  // The family's settings: its trailing parts that are settings, which follow the size.
  std::size_t base_end = family.size();
  while (base_end > 0) {
    const std::size_t slash = family.rfind('/', base_end - 1);
    if (slash == std::string::npos ||
        !setting_part(std::string_view(family).substr(slash + 1, base_end - slash - 1))) {
      break;
    }
    base_end = slash;
  }
  const std::string base = family.substr(0, base_end);
  const std::string settings = family.substr(base_end);
  if (name.size() <= base.size() + settings.size() + 1 || !name.starts_with(base + "/") ||
      !name.ends_with(settings)) {
    return std::nullopt;
  }
  std::string rest = name.substr(base.size() + 1, name.size() - base.size() - 1 - settings.size());
  // A named argument ("size:4096"): its value.
  if (const std::size_t colon = rest.find(':');
      colon != std::string::npos && rest.find('/') == std::string::npos) {
    rest = rest.substr(colon + 1);
  }
  if (rest.empty() || rest.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  try {
    const double n = std::stod(rest);
    return n > 0 ? std::optional<double>(n) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The fit is kept as the run's (RunResult::complexity), and each size of the family becomes a
// point of a sweep, so that benchkit fits the same samples beside it.
void add_complexity(const std::string& family, const std::vector<Row>& group, RunResult& run) {
  run.complexity.push_back(imported_fit(family, group));
  for (BenchmarkResult& result : run.benchmarks) {
    if (const auto n = size_in(result.name, family)) {
      result.complexity = ComplexityPoint{family, "N", *n, "auto", std::nullopt};
    }
  }
}

// The run's warnings: the library's debug build, and that one process took every repetition.
void add_run_warnings(RunResult& run) {
  const auto build = run.context.machine.find("google_benchmark_build");
  if (build != run.context.machine.end() && build->second == "debug") {
    run.context.warnings.push_back(Diagnostic{
        "google_benchmark_debug_build", "warning",
        "Google Benchmark's library was built as a debug build (library_build_type \"debug\"; "
        "Debian's libbenchmark-dev is one): its code that times each batch of iterations ran "
        "unoptimised, which shows most in the shortest benchmarks; link a release build of the "
        "library (CMAKE_BUILD_TYPE=Release) for figures to publish"});
  }
  // Aggregates stand for repetitions too (add_aggregate_samples).
  const bool repeated =
      std::any_of(run.benchmarks.begin(), run.benchmarks.end(), [](const BenchmarkResult& b) {
        return b.samples.size() > 1 ||
               std::any_of(b.diagnostics.begin(), b.diagnostics.end(),
                           [](const Diagnostic& d) { return d.code == model::kAggregatesOnly; });
      });
  run.context.warnings.push_back(Diagnostic{
      model::kOneProcessRepetitions, "info",
      repeated ? "Google Benchmark ran every repetition of this file in one process: they show "
                 "the spread within that process, not between runs of the suite (several "
                 "percent on a shared machine), so no verdict is drawn from them; for one, run "
                 "the two builds side by side: benchkit compare OLD_BINARY NEW_BINARY"
               : "Google Benchmark ran this file's benchmarks once each, in one process: there "
                 "is no spread to judge a change against; for a verdict, run the two builds side "
                 "by side: benchkit compare OLD_BINARY NEW_BINARY"});
}

RunResult read_gbench_document(const ordered_json& root) {
  if (!root.is_object()) fail_at("", "expected a JSON object");
  RunResult run;
  read_checked_context(root, run.context);
  const ordered_json* rows = find_member(root, "benchmarks");
  if (!rows || !rows->is_array()) {
    fail_at("benchmarks", "missing: expected the array of benchmark runs Google Benchmark writes");
  }
  RowGroups grouped = read_rows(*rows);
  std::vector<std::string> fits;
  for (const std::string& name : grouped.order) {
    if (complexity_only(grouped.groups[name])) {
      fits.push_back(name);
      continue;
    }
    run.benchmarks.push_back(read_benchmark(name, grouped.groups[name]));
  }
  for (const std::string& family : fits) add_complexity(family, grouped.groups[family], run);
  add_run_warnings(run);
  return run;
}

// ---- Writing --------------------------------------------------------------------------------

ordered_json number(double value) {
  // JSON has no NaN or infinity; Google Benchmark's readers take a 0 better than a null.
  return std::isfinite(value) ? ordered_json(value) : ordered_json(0.0);
}

ordered_json context_of(const RunResult& run) {
  const Context& c = run.context;
  ordered_json context = ordered_json::object();
  context["date"] = c.date;
  context["host_name"] = c.hostname;
  context["executable"] = c.executable;
  context["num_cpus"] = c.logical_cpus;
  double mhz = 0;
  if (const auto it = c.machine.find("cpu_mhz"); it != c.machine.end()) {
    try {
      mhz = std::stod(it->second);
    } catch (const std::exception&) {
      mhz = 0;
    }
  }
  context["mhz_per_cpu"] = mhz;
  // What a Google Benchmark file's context said (read_context) goes back where it was.
  const auto fact = [&c](const char* key) -> const std::string* {
    const auto it = c.machine.find(key);
    return it == c.machine.end() ? nullptr : &it->second;
  };
  if (const std::string* scaling = fact("cpu_scaling")) {
    context["cpu_scaling_enabled"] = *scaling == "enabled";
  }
  if (const std::string* aslr = fact("aslr")) context["aslr_enabled"] = *aslr == "enabled";
  // Bencher's cpp_google adapter requires the array; benchkit keeps caches as text.
  context["caches"] = ordered_json::array();
  ordered_json loads = ordered_json::array();
  if (const std::string* text = fact("load_avg")) {
    std::istringstream in(*text);
    for (double load = 0; in >> load;) loads.push_back(load);
  }
  context["load_avg"] = std::move(loads);
  constexpr std::string_view kGbench = "Google Benchmark";
  const bool from_gbench = c.tool_version.rfind(kGbench, 0) == 0;
  const std::string version =
      from_gbench ? c.tool_version.substr(std::min(c.tool_version.size(), kGbench.size() + 1))
                  : "benchkit " + c.tool_version;
  if (!version.empty()) context["library_version"] = version;
  const std::string* build = fact("google_benchmark_build");
  context["library_build_type"] = build                          ? *build
                                  : c.optimized && !c.assertions ? "release"
                                                                 : "debug";
  context["json_schema_version"] = kGbenchSchemaVersion;
  return context;
}

// The benchmark's name as Google Benchmark spells it: a threaded benchmark's "/threads=N" (its
// thread count, last) becomes "/threads:N"; the rest of benchkit's name is kept.
std::string gbench_name(const BenchmarkResult& b) {
  const auto threads = b.params.find("threads");
  if (threads == b.params.end()) return b.name;
  const std::string suffix = "/threads=" + threads->second;
  if (b.name.size() < suffix.size() ||
      b.name.compare(b.name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return b.name;
  }
  return b.name.substr(0, b.name.size() - suffix.size()) + "/threads:" + threads->second;
}

// Where Google Benchmark would number a benchmark: its family (the registration, whose instances
// share the name before the first '/': BM_Format_ParseTime/0 to /6 are one) and its instance in
// it, in the order they first appear.
struct Registration {
  std::size_t family = 0;
  std::size_t instance = 0;
};

std::vector<Registration> registrations(const RunResult& run) {
  std::map<std::string, Registration> seen;
  std::vector<Registration> out;
  for (const BenchmarkResult& b : run.benchmarks) {
    const std::string family = b.name.substr(0, b.name.find('/'));
    auto [found, added] = seen.try_emplace(family, Registration{seen.size(), 0});
    if (!added) ++found->second.instance;
    out.push_back(found->second);
  }
  return out;
}

// How many families `at` numbers.
std::size_t families_of(const std::vector<Registration>& at) {
  std::size_t families = 0;
  for (const Registration& one : at) families = std::max(families, one.family + 1);
  return families;
}

// The keys every row starts with: `name` is the row's, `b` (numbered `at`) its run.
ordered_json row_head(const BenchmarkResult& b, Registration at, const std::string& name,
                      const char* type, std::size_t repetitions) {
  ordered_json row = ordered_json::object();
  row["name"] = name;
  row["family_index"] = at.family;
  row["per_family_instance_index"] = at.instance;
  row["run_name"] = gbench_name(b);
  row["run_type"] = type;
  row["repetitions"] = repetitions;
  return row;
}

// A benchmark that failed or has no samples: one row with error_occurred and its failures.
ordered_json failed_row(const BenchmarkResult& b, Registration at) {
  ordered_json row = row_head(b, at, gbench_name(b), "iteration", 1);
  row["repetition_index"] = 0;
  row["threads"] = model::thread_count(b);
  row["error_occurred"] = true;
  std::string message;
  for (const std::string& failure : b.failures) message += (message.empty() ? "" : "; ") + failure;
  row["error_message"] = message.empty() ? std::string("no samples") : message;
  row["iterations"] = 0;
  row["real_time"] = 0.0;
  row["cpu_time"] = 0.0;
  row["time_unit"] = "ns";
  return row;
}

// The rates, user counters and label of a row whose time per iteration is `ns`. Google
// Benchmark writes each counter as its flags made it (a rate divided by the row's time) and
// no flag: so does this, with the counter's kind applied to the row's time.
void add_work(const BenchmarkResult& b, double ns, ordered_json& row) {
  if (ns > 0 && b.bytes_per_iteration) {
    row["bytes_per_second"] = number(static_cast<double>(*b.bytes_per_iteration) * 1e9 / ns);
  }
  if (ns > 0 && b.items_per_iteration) {
    row["items_per_second"] = number(static_cast<double>(*b.items_per_iteration) * 1e9 / ns);
  }
  for (const auto& [name, value] : b.counters) {
    if (kRowKeys.count(name) != 0) continue;
    if (const auto shown = model::counter_value(b, name, ns)) row[name] = number(*shown);
  }
  if (!b.label.empty()) row["label"] = b.label;
}

// The CPU time of a sample per iteration: its counter cpu_ns (read from a Google Benchmark file),
// or the user and system time of a command's run; nothing for benchkit's micro benchmarks, which
// record no CPU time (their rows then carry the wall time as cpu_time, as before).
std::optional<double> cpu_per_iteration_ns(const Sample& sample) {
  std::optional<double> total;
  if (const auto cpu = sample.counters.find("cpu_ns"); cpu != sample.counters.end()) {
    total = cpu->second;
  } else if (sample.resources && sample.resources->user_ns && sample.resources->system_ns) {
    total = *sample.resources->user_ns + *sample.resources->system_ns;
  }
  if (!total) return std::nullopt;
  return *total / static_cast<double>(std::max<std::uint64_t>(1, sample.iters));
}

// Whether a row's rates (bytes_per_second, items_per_second, rate counters) are divided by its
// CPU time rather than its real time: Google Benchmark divides by CPU time, benchkit by real time
// (its micro benchmarks record none). A benchmark read from a Google Benchmark file has its CPU
// time (cpu_ns), and its rates are written back as the file had them (snappy's 3.94 GiB/s, not
// 3.27 from the real time), threaded rows too: their CPU time is all the threads' (re2's
// Parse_Digits_RE2/threads:2, 330187 items/s in the file, was written as 394841).
bool rates_by_cpu_time(const BenchmarkResult& b) {
  return !b.samples.empty() && b.samples.front().counters.count("cpu_ns") != 0;
}

// The time per iteration a rate is divided by: the CPU time when rates_by_cpu_time and the row
// has one (0: none), else the real time.
double work_time_ns(bool by_cpu, double cpu_ns, double real_ns) {
  return by_cpu && cpu_ns > 0 ? cpu_ns : real_ns;
}

// One iteration row per sample, as Google Benchmark writes one per repetition. A threaded
// benchmark's row is Google Benchmark's: iterations of all the threads, and the time per one of
// them (benchkit's time per iteration, which is one thread's, divided by the threads).
void add_iteration_rows(const BenchmarkResult& b, Registration at, ordered_json& rows) {
  const std::vector<double> per_iteration = b.per_iteration_ns();
  const std::size_t count = per_iteration.size();
  const double threads = model::gbench_thread_share(b);
  for (std::size_t i = 0; i < count; ++i) {
    const Sample& sample = b.samples[i];
    ordered_json row = row_head(b, at, gbench_name(b), "iteration", count);
    row["repetition_index"] = i;
    row["threads"] = model::thread_count(b);
    row["iterations"] = sample.iters * model::gbench_thread_share(b);
    row["real_time"] = number(per_iteration[i] / threads);
    const std::optional<double> cpu = cpu_per_iteration_ns(sample);
    row["cpu_time"] = number(cpu ? *cpu : per_iteration[i] / threads);
    row["time_unit"] = "ns";
    add_work(b, work_time_ns(rates_by_cpu_time(b), cpu.value_or(0.0), per_iteration[i]), row);
    rows.push_back(std::move(row));
  }
}

// CPU time has no estimates of its own: its aggregates (mean, median, stddev, cv) come from the
// samples' CPU times (cpu_per_iteration_ns); none unless every sample has one.
std::map<std::string, double> cpu_aggregates(const BenchmarkResult& b) {
  const std::size_t count = b.samples.size();
  std::vector<double> cpu;
  for (const Sample& sample : b.samples) {
    const std::optional<double> found = cpu_per_iteration_ns(sample);
    if (!found) break;
    cpu.push_back(*found);
  }
  if (cpu.size() != count) return {};
  double sum = 0;
  for (double value : cpu) sum += value;
  const double mean = sum / static_cast<double>(count);
  double squares = 0;
  for (double value : cpu) squares += (value - mean) * (value - mean);
  std::vector<double> sorted = cpu;
  std::sort(sorted.begin(), sorted.end());
  const double median =
      count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
  const double stddev = std::sqrt(squares / static_cast<double>(count - 1));
  return {{"mean", mean},
          {"median", median},
          {"stddev", stddev},
          {"cv", mean > 0 ? stddev / mean : 0.0}};
}

// The aggregates Google Benchmark adds after repetitions, from benchkit's estimates (which
// leave out samples taken while the machine ran slow).
void add_aggregate_rows(const BenchmarkResult& b, Registration at, ordered_json& rows) {
  const std::size_t count = b.samples.size();
  const Estimates& e = b.estimates;
  const std::pair<const char*, double> aggregates[] = {
      {"mean", e.mean.value},
      {"median", e.median.value},
      {"stddev", e.stddev},
      {"cv", e.mean.value > 0 ? e.stddev / e.mean.value : 0.0},
  };
  const std::map<std::string, double> cpu = cpu_aggregates(b);
  for (const auto& [name, value] : aggregates) {
    const bool percentage = std::string(name) == "cv";
    // Times per iteration of all the threads, as the iteration rows (a ratio stays).
    const double share = percentage ? 1.0 : model::gbench_thread_share(b);
    ordered_json row = row_head(b, at, gbench_name(b) + "_" + name, "aggregate", count);
    row["threads"] = model::thread_count(b);
    row["aggregate_name"] = name;
    row["aggregate_unit"] = percentage ? "percentage" : "time";
    row["iterations"] = count;
    row["real_time"] = number(value / share);
    const auto cpu_value = cpu.find(name);
    row["cpu_time"] = number(cpu_value != cpu.end() ? cpu_value->second : value / share);
    row["time_unit"] = "ns";
    if (std::string(name) == "mean" || std::string(name) == "median") {
      // A file's rates follow its CPU time, as its iteration rows'.
      const double cpu_ns = cpu_value != cpu.end() ? cpu_value->second : 0.0;
      add_work(b, work_time_ns(rates_by_cpu_time(b), cpu_ns, value), row);
    } else if (!b.label.empty()) {
      row["label"] = b.label;  // Google Benchmark labels every row of a run
    }
    rows.push_back(std::move(row));
  }
}

// The fit to write after the `index`th benchmark: the fit of its sweep when it is the sweep's
// last benchmark. benchkit's own fit is written when there is one; an imported one otherwise.
const ComplexityResult* last_of_sweep(const RunResult& run, std::size_t index) {
  const std::optional<ComplexityPoint>& point = run.benchmarks[index].complexity;
  if (!point) return nullptr;
  for (std::size_t later = index + 1; later < run.benchmarks.size(); ++later) {
    const auto& other = run.benchmarks[later].complexity;
    if (other && other->family == point->family) return nullptr;
  }
  const ComplexityResult* found = nullptr;
  for (const ComplexityResult& fit : run.complexity) {
    if (fit.family != point->family) continue;
    if (fit.source.empty()) return &fit;
    found = found ? found : &fit;
  }
  return found;
}

// Google Benchmark's two rows of a fit: NAME_BigO with the coefficient (real and CPU: benchkit
// fits the real time, and writes it in both) and NAME_RMS with the RMS as a fraction.
void add_complexity_rows(const ComplexityResult& fit, std::size_t repetitions, std::size_t family,
                         ordered_json& rows) {
  ordered_json big_o = ordered_json::object();
  big_o["name"] = fit.family + "_BigO";
  big_o["family_index"] = family;
  big_o["per_family_instance_index"] = 0;
  big_o["run_name"] = fit.family;
  big_o["run_type"] = "aggregate";
  big_o["repetitions"] = repetitions;
  big_o["threads"] = 1;
  ordered_json rms = big_o;
  rms["name"] = fit.family + "_RMS";
  big_o["aggregate_name"] = "BigO";
  big_o["aggregate_unit"] = "time";
  big_o["cpu_coefficient"] = number(fit.coefficient.value);
  big_o["real_coefficient"] = number(fit.coefficient.value);
  big_o["big_o"] = fit.big_o;
  big_o["time_unit"] = "ns";
  rms["aggregate_name"] = "RMS";
  rms["aggregate_unit"] = "percentage";
  rms["rms"] = number(fit.rms);
  rows.push_back(std::move(big_o));
  rows.push_back(std::move(rms));
}

}  // namespace

bool is_gbench_document(const ordered_json& root) {
  if (!root.is_object() || root.contains("schema")) return false;
  const auto benchmarks = root.find("benchmarks");
  const auto context = root.find("context");
  return benchmarks != root.end() && benchmarks->is_array() && context != root.end() &&
         context->is_object();
}

model::Result<RunResult> gbench_from_document(const ordered_json& root, const std::string& origin) {
  return read_with_origin<RunResult>(origin, [&] { return read_gbench_document(root); });
}

model::Result<RunResult> from_gbench_json(std::string_view text, const std::string& origin) {
  return read_with_origin<RunResult>(origin, [&] {
    return read_gbench_document(parse_json_document(text, origin, NonFinite::accepted));
  });
}

std::string to_gbench_json(const RunResult& run) {
  ordered_json root = ordered_json::object();
  root["context"] = context_of(run);
  ordered_json rows = ordered_json::array();
  const std::vector<Registration> at = registrations(run);
  for (std::size_t index = 0; index < run.benchmarks.size(); ++index) {
    const BenchmarkResult& b = run.benchmarks[index];
    if (!b.valid() || b.samples.empty()) {
      rows.push_back(failed_row(b, at[index]));
    } else {
      add_iteration_rows(b, at[index], rows);
      if (b.samples.size() >= 2) add_aggregate_rows(b, at[index], rows);
    }
    if (const ComplexityResult* fit = last_of_sweep(run, index)) {
      add_complexity_rows(*fit, b.samples.size(), at[index].family, rows);
    }
  }
  // A fit read with none of its sizes (a file of a sweep's BigO and RMS rows alone, as
  // google/benchmark's own compare.py inputs hold) is written at the end, not lost.
  for (const ComplexityResult& fit : run.complexity) {
    const bool placed =
        std::any_of(run.benchmarks.begin(), run.benchmarks.end(), [&fit](const BenchmarkResult& b) {
          return b.complexity && b.complexity->family == fit.family;
        });
    if (!placed) add_complexity_rows(fit, 1, families_of(at), rows);
  }
  root["benchmarks"] = std::move(rows);
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace benchkit::formats
