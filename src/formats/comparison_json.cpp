#include "formats/comparison_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/json_document.hpp"

namespace benchkit::formats {
namespace {

using model::BenchmarkComparison;
using model::Verdict;
using nlohmann::ordered_json;

// Each enum's words, in one table for both directions.
constexpr std::pair<model::Adjustment, const char*> kAdjustments[] = {
    {model::Adjustment::holm, "holm"},
    {model::Adjustment::benjamini_hochberg, "benjamini_hochberg"},
    {model::Adjustment::none, "none"}};
constexpr Verdict kVerdicts[] = {Verdict::regressed,    Verdict::improved, Verdict::unchanged,
                                 Verdict::inconclusive, Verdict::added,    Verdict::removed,
                                 Verdict::invalid,      Verdict::skipped};
constexpr model::Design kDesigns[] = {model::Design::independent, model::Design::processes,
                                      model::Design::paired, model::Design::exact};

const char* adjustment_name(model::Adjustment adjustment) {
  for (const auto& [value, name] : kAdjustments) {
    if (value == adjustment) return name;
  }
  return "none";
}

// Whether the two sides were measured against each other (not added, removed, invalid or
// skipped): only such rows carry the figures of a test.
bool compared(const BenchmarkComparison& c) {
  return c.verdict != Verdict::added && c.verdict != Verdict::removed &&
         c.verdict != Verdict::invalid && c.verdict != Verdict::skipped;
}

// The standard deviation of the log round ratios (about the relative spread of the rounds).
double log_scatter(const std::vector<double>& ratios) {
  double mean = 0.0;
  for (const double r : ratios) mean += std::log(r);
  mean /= static_cast<double>(ratios.size());
  double squares = 0.0;
  for (const double r : ratios) squares += (std::log(r) - mean) * (std::log(r) - mean);
  return std::sqrt(squares / static_cast<double>(ratios.size() - 1));
}

ordered_json settings_json(const model::CompareSettings& s) {
  ordered_json settings = {{"noise_threshold", s.noise_threshold},
                           {"count_noise_threshold", s.count_noise_threshold},
                           {"alpha", s.alpha},
                           {"confidence", s.confidence},
                           {"adjustment", adjustment_name(s.adjustment)}};
  if (s.mde > 0.0) {
    settings["mde"] = s.mde;
    settings["power"] = s.power;
  }
  if (!s.sequential_alpha.empty()) settings["sequential_alpha"] = s.sequential_alpha;
  return settings;
}

// The figures of a row whose two sides were measured against each other.
void write_compared(const BenchmarkComparison& c, ordered_json& item) {
  item["design"] = to_string(c.design);
  if (!c.metric.empty()) item["metric"] = c.metric;
  // Rounds too few to pair are said too (analysis::compare compared their processes).
  if (c.design == model::Design::processes && c.pairs > 0) item["rounds"] = c.pairs;
  if (c.design == model::Design::paired) {
    item["rounds"] = c.pairs;
    // Each round's new/baseline ratio in round order, and their scatter: what the interval's
    // width comes from.
    item["round_ratios"] = c.round_ratios;
    if (c.round_ratios.size() > 1) item["round_scatter"] = log_scatter(c.round_ratios);
    // Compared as an AB/BA crossover: which side ran first in each round, and how much faster or
    // slower a round's second process ran (cancelled by the comparison).
    if (!c.baseline_first.empty()) {
      item["baseline_first"] = c.baseline_first;
      if (c.order_ratio) item["order_ratio"] = *c.order_ratio;
    }
    // --mde: the rounds planned for the power asked for, and whether they were run.
    if (c.planned_rounds) {
      item["planned_rounds"] = c.planned_rounds->rounds;
      item["planned_within_cap"] = c.planned_rounds->within_cap;
      item["planned_power_reached"] = model::planned_power_reached(c);
    }
  }
  item["baseline_median_ns"] = c.baseline_median;
  item["new_median_ns"] = c.candidate_median;
  item["ratio"] = c.ratio;
  item["ratio_lower"] = c.ratio_lower;
  item["ratio_upper"] = c.ratio_upper;
  item["p_value"] = c.p_value;
  item["p_adjusted"] = c.p_adjusted;
  // What the suite's verdicts are made from again when shards are merged.
  item["tested"] = c.tested;
  if (c.scenario) item["scenario"] = true;
  if (c.command) item["command"] = true;
  if (c.level > 0.0) item["level"] = c.level;
  if (!c.level_reached) item["level_reached"] = false;
  if (!c.effect_note.empty()) item["effect_note"] = c.effect_note;
  if (c.minimum_detectable_change) {
    item["minimum_detectable_change"] = *c.minimum_detectable_change;
  }
  if (c.throughput_change) item["throughput_change"] = *c.throughput_change;
  if (c.baseline_slow_samples + c.candidate_slow_samples > 0) {
    item["slow_samples_left_out"] = {{"baseline", c.baseline_slow_samples},
                                     {"new", c.candidate_slow_samples}};
  }
}

ordered_json row_json(const BenchmarkComparison& c) {
  ordered_json item;
  item["name"] = c.name;
  item["verdict"] = to_string(c.verdict);
  if (compared(c)) {
    write_compared(c, item);
  } else if (c.verdict != Verdict::added && c.baseline_median > 0) {
    item["baseline_median_ns"] = c.baseline_median;
  }
  if (!compared(c) && c.verdict != Verdict::removed && c.candidate_median > 0) {
    item["new_median_ns"] = c.candidate_median;
  }
  if (c.more_rounds) {
    ordered_json settle;
    settle["more_rounds"] = *c.more_rounds;
    if (c.more_time_ns) settle["more_seconds"] = *c.more_time_ns / 1e9;
    item["to_settle"] = std::move(settle);
  }
  if (!c.note.empty()) item["note"] = c.note;
  if (!c.candidate_diagnostics.empty()) item["diagnostics"] = c.candidate_diagnostics;
  return item;
}

void write_build(const char* key, const model::ComparedBuild& build, ordered_json& root) {
  if (build.git_commit.empty() && build.executable_sha256.empty()) return;
  ordered_json side;
  if (!build.git_commit.empty()) side["git_commit"] = build.git_commit;
  if (!build.executable_sha256.empty()) side["executable_sha256"] = build.executable_sha256;
  root[key] = std::move(side);
}

// ---- reading ----

[[noreturn]] void missing(const std::string& path, const char* expected) {
  fail_at(path, fmt::format("missing: expected {}; write the file again with benchkit compare or "
                            "ab --format json",
                            expected));
}

const ordered_json& need(const ordered_json& object, const std::string& path, const char* key,
                         const char* expected) {
  const ordered_json* member = find_member(object, key);
  if (!member) missing(path.empty() ? key : path + "." + key, expected);
  return *member;
}

double number_at(const ordered_json& object, const std::string& path, const char* key) {
  const ordered_json& value = need(object, path, key, "a number");
  if (!value.is_number()) {
    fail_at(path + "." + key, fmt::format("expected a number, got {}", value.type_name()));
  }
  return value.get<double>();
}

// A p-value: the suite's adjustment (stats::holm_adjusted, benjamini_hochberg_adjusted) takes
// only values in [0, 1].
double probability_at(const ordered_json& object, const std::string& path, const char* key) {
  const double p = number_at(object, path, key);
  if (!(p >= 0.0 && p <= 1.0)) {
    fail_at(path + "." + key,
            fmt::format("{:g} is not a probability: expected a number from 0 to 1; write the "
                        "file again with benchkit compare or ab --format json",
                        p));
  }
  return p;
}

double number_or(const ordered_json& object, const std::string& path, const char* key,
                 double fallback) {
  return find_member(object, key) ? number_at(object, path, key) : fallback;
}

std::size_t count_or(const ordered_json& object, const std::string& path, const char* key,
                     std::size_t fallback) {
  const ordered_json* value = find_member(object, key);
  if (!value) return fallback;
  if (!value->is_number_unsigned()) {
    fail_at(path + "." + key, "expected a whole number of 0 or more");
  }
  return value->get<std::size_t>();
}

std::string text_or(const ordered_json& object, const std::string& path, const char* key) {
  const ordered_json* value = find_member(object, key);
  if (!value) return {};
  if (!value->is_string()) {
    fail_at(path + "." + key, fmt::format("expected a string, got {}", value->type_name()));
  }
  return value->get<std::string>();
}

bool flag_or(const ordered_json& object, const std::string& path, const char* key, bool fallback) {
  const ordered_json* value = find_member(object, key);
  if (!value) return fallback;
  if (!value->is_boolean()) fail_at(path + "." + key, "expected true or false");
  return value->get<bool>();
}

// The array at `key` of values of one JSON type (is_number, is_boolean), `what` naming them
// for the error; empty when absent.
template <class T>
std::vector<T> array_or_empty(const ordered_json& object, const std::string& path, const char* key,
                              bool (ordered_json::*is)() const noexcept, const char* what) {
  std::vector<T> values;
  const ordered_json* value = find_member(object, key);
  if (!value) return values;
  const std::string expected = std::string("expected an array of ") + what;
  if (!value->is_array()) fail_at(path + "." + key, expected);
  for (const ordered_json& item : *value) {
    if (!(item.*is)()) fail_at(path + "." + key, expected);
    values.push_back(item.get<T>());
  }
  return values;
}

std::vector<double> numbers_or_empty(const ordered_json& object, const std::string& path,
                                     const char* key) {
  return array_or_empty<double>(object, path, key, &ordered_json::is_number, "numbers");
}

std::vector<bool> flags_or_empty(const ordered_json& object, const std::string& path,
                                 const char* key) {
  return array_or_empty<bool>(object, path, key, &ordered_json::is_boolean, "true or false");
}

template <class Enum, class Names>
Enum word_at(const ordered_json& object, const std::string& path, const char* key,
             const Names& names) {
  const std::string word = text_or(object, path, key);
  std::vector<std::string> known;
  for (const Enum value : names) {
    if (word == to_string(value)) return value;
    known.push_back(fmt::format("\"{}\"", to_string(value)));
  }
  if (word.empty()) missing(path + "." + key, "a string");
  fail_at(path + "." + key,
          fmt::format("unknown value \"{}\": expected one of {}", word, fmt::join(known, ", ")));
}

model::CompareSettings read_settings(const ordered_json& root) {
  const ordered_json& object = need(root, "", "settings", "an object");
  model::CompareSettings s;
  s.noise_threshold = number_at(object, "settings", "noise_threshold");
  s.count_noise_threshold =
      number_or(object, "settings", "count_noise_threshold", s.count_noise_threshold);
  s.alpha = number_at(object, "settings", "alpha");
  s.confidence = number_at(object, "settings", "confidence");
  s.mde = number_or(object, "settings", "mde", 0.0);
  s.power = number_or(object, "settings", "power", s.power);
  s.sequential_alpha = numbers_or_empty(object, "settings", "sequential_alpha");
  const std::string adjustment = text_or(object, "settings", "adjustment");
  bool known = false;
  for (const auto& [value, name] : kAdjustments) {
    if (adjustment == name) {
      s.adjustment = value;
      known = true;
    }
  }
  if (!known) {
    fail_at("settings.adjustment",
            fmt::format("unknown value \"{}\": expected \"holm\", \"benjamini_hochberg\" or "
                        "\"none\"",
                        adjustment));
  }
  return s;
}

void read_compared(const ordered_json& item, const std::string& path, BenchmarkComparison& c) {
  c.design = word_at<model::Design>(item, path, "design", kDesigns);
  c.metric = text_or(item, path, "metric");
  c.pairs = count_or(item, path, "rounds", 0);
  c.round_ratios = numbers_or_empty(item, path, "round_ratios");
  c.baseline_first = flags_or_empty(item, path, "baseline_first");
  if (!c.baseline_first.empty() && c.baseline_first.size() != c.round_ratios.size()) {
    fail_at(path + ".baseline_first", fmt::format("expected one entry per round ({}), got {}",
                                                  c.round_ratios.size(), c.baseline_first.size()));
  }
  // A crossover's note takes the logarithms of its ratios (analysis::width_driver).
  if (!c.baseline_first.empty()) {
    for (const double ratio : c.round_ratios) {
      if (!(ratio > 0.0 && std::isfinite(ratio))) {
        fail_at(path + ".round_ratios",
                fmt::format("{:g} is not a ratio of two times: expected a number above 0", ratio));
      }
    }
  }
  if (find_member(item, "order_ratio")) {
    c.order_ratio = number_at(item, path, "order_ratio");
    if (!(*c.order_ratio > 0.0)) {
      fail_at(path + ".order_ratio", fmt::format("{:g} is not a ratio of two times: expected a "
                                                 "number above 0",
                                                 *c.order_ratio));
    }
  }
  if (find_member(item, "planned_rounds")) {
    c.planned_rounds = model::RoundsForPower{count_or(item, path, "planned_rounds", 0),
                                             flag_or(item, path, "planned_within_cap", true)};
  }
  c.baseline_median = number_at(item, path, "baseline_median_ns");
  c.candidate_median = number_at(item, path, "new_median_ns");
  c.ratio = number_at(item, path, "ratio");
  c.ratio_lower = number_at(item, path, "ratio_lower");
  c.ratio_upper = number_at(item, path, "ratio_upper");
  c.p_value = probability_at(item, path, "p_value");
  c.p_adjusted = probability_at(item, path, "p_adjusted");
  if (!find_member(item, "tested")) missing(path + ".tested", "true or false");
  c.tested = flag_or(item, path, "tested", false);
  c.scenario = flag_or(item, path, "scenario", false);
  c.command = flag_or(item, path, "command", false);
  c.level = number_or(item, path, "level", 0.0);
  c.level_reached = flag_or(item, path, "level_reached", true);
  c.effect_note = text_or(item, path, "effect_note");
  if (find_member(item, "minimum_detectable_change")) {
    c.minimum_detectable_change = number_at(item, path, "minimum_detectable_change");
  }
  if (find_member(item, "throughput_change")) {
    c.throughput_change = number_at(item, path, "throughput_change");
  }
  if (const ordered_json* slow = find_member(item, "slow_samples_left_out")) {
    c.baseline_slow_samples = count_or(*slow, path + ".slow_samples_left_out", "baseline", 0);
    c.candidate_slow_samples = count_or(*slow, path + ".slow_samples_left_out", "new", 0);
  }
}

BenchmarkComparison read_row(const ordered_json& item, const std::string& path) {
  if (!item.is_object()) fail_at(path, "expected an object (one benchmark)");
  BenchmarkComparison c;
  c.name = text_or(item, path, "name");
  if (c.name.empty()) missing(path + ".name", "the benchmark's name");
  c.verdict = word_at<Verdict>(item, path, "verdict", kVerdicts);
  if (compared(c)) {
    read_compared(item, path, c);
  } else {
    c.baseline_median = number_or(item, path, "baseline_median_ns", 0.0);
    c.candidate_median = number_or(item, path, "new_median_ns", 0.0);
  }
  if (const ordered_json* settle = find_member(item, "to_settle")) {
    c.more_rounds = count_or(*settle, path + ".to_settle", "more_rounds", 0);
    if (find_member(*settle, "more_seconds")) {
      c.more_time_ns = number_at(*settle, path + ".to_settle", "more_seconds") * 1e9;
    }
  }
  c.note = text_or(item, path, "note");
  if (const ordered_json* diagnostics = find_member(item, "diagnostics")) {
    if (!diagnostics->is_array()) fail_at(path + ".diagnostics", "expected an array of codes");
    for (const ordered_json& code : *diagnostics) {
      if (!code.is_string()) fail_at(path + ".diagnostics", "expected an array of codes");
      c.candidate_diagnostics.push_back(code.get<std::string>());
    }
  }
  return c;
}

model::ComparedBuild read_build(const ordered_json& root, const char* key) {
  const ordered_json* side = find_member(root, key);
  if (!side) return {};
  if (!side->is_object()) fail_at(key, "expected an object (git_commit, executable_sha256)");
  return {text_or(*side, key, "git_commit"), text_or(*side, key, "executable_sha256")};
}

std::optional<Shard> read_shard(const ordered_json& root) {
  const ordered_json* object = find_member(root, "shard");
  if (!object) return std::nullopt;
  if (!object->is_object()) fail_at("shard", "expected an object (index, count, by, ...)");
  Shard shard;
  shard.index = static_cast<std::uint32_t>(count_or(*object, "shard", "index", 0));
  shard.count = static_cast<std::uint32_t>(count_or(*object, "shard", "count", 0));
  if (shard.index < 1 || shard.count < shard.index) {
    fail_at("shard", fmt::format("shard {}/{} is not a part of a split: expected 1 <= index <= "
                                 "count; write the file again with --shard K/N",
                                 shard.index, shard.count));
  }
  shard.by = text_or(*object, "shard", "by");
  shard.benchmarks = count_or(*object, "shard", "benchmarks", 0);
  shard.selected = count_or(*object, "shard", "selected", 0);
  return shard;
}

void check_header(const ordered_json& root) {
  if (!root.is_object()) fail_at("", "expected a JSON object (a benchkit/comparison document)");
  if (text_or(root, "", "schema") != kComparisonSchema) {
    fail_at("schema", fmt::format("expected \"{}\": give benchkit merge the files written by "
                                  "benchkit compare or ab --format json",
                                  kComparisonSchema));
  }
  const ordered_json* version = find_member(root, "version");
  if (!version || !version->is_number_integer()) {
    missing("version", "an integer format version");
  }
  if (version->get<long long>() != kComparisonVersion) {
    fail_at("version",
            fmt::format("comparison format version {} is not supported: this benchkit reads "
                        "version {}{}; write the comparison again with this benchkit",
                        version->get<long long>(), kComparisonVersion,
                        version->get<long long>() < kComparisonVersion
                            ? " (older files lack the figures a merge judges the suite from)"
                            : ""));
  }
}

model::Comparison read_comparison_document(const ordered_json& root) {
  check_header(root);
  model::Comparison comparison;
  comparison.settings = read_settings(root);
  comparison.context_warning = text_or(root, "", "context_warning");
  comparison.design_warning = text_or(root, "", "design_warning");
  comparison.speed_note = text_or(root, "", "machine_speed_note");
  comparison.method_note = text_or(root, "", "method_note");
  comparison.baseline_build = read_build(root, "baseline");
  comparison.candidate_build = read_build(root, "new");
  comparison.shard = read_shard(root);
  const ordered_json& rows = need(root, "", "benchmarks", "an array");
  if (!rows.is_array()) fail_at("benchmarks", "expected an array");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    comparison.benchmarks.push_back(read_row(rows[i], fmt::format("benchmarks[{}]", i)));
  }
  return comparison;
}

}  // namespace

std::string comparison_to_json(const model::Comparison& comparison) {
  ordered_json root;
  root["schema"] = kComparisonSchema;
  root["version"] = kComparisonVersion;
  root["settings"] = settings_json(comparison.settings);
  ordered_json summary;
  for (Verdict v : {Verdict::regressed, Verdict::improved, Verdict::inconclusive,
                    Verdict::unchanged, Verdict::added, Verdict::removed, Verdict::invalid}) {
    summary[to_string(v)] = comparison.count(v);
  }
  // Only when there are some: documents without skipped benchmarks keep their shape.
  if (comparison.count(Verdict::skipped)) {
    summary[to_string(Verdict::skipped)] = comparison.count(Verdict::skipped);
  }
  root["summary"] = summary;
  if (!comparison.context_warning.empty()) root["context_warning"] = comparison.context_warning;
  if (!comparison.design_warning.empty()) root["design_warning"] = comparison.design_warning;
  if (!comparison.speed_note.empty()) root["machine_speed_note"] = comparison.speed_note;
  if (!comparison.method_note.empty()) root["method_note"] = comparison.method_note;
  write_build("baseline", comparison.baseline_build, root);
  write_build("new", comparison.candidate_build, root);
  if (comparison.shard) {
    const Shard& shard = *comparison.shard;
    root["shard"] = {{"index", shard.index},
                     {"count", shard.count},
                     {"by", shard.by},
                     {"benchmarks", shard.benchmarks},
                     {"selected", shard.selected}};
  }
  ordered_json list = ordered_json::array();
  for (const BenchmarkComparison& c : comparison.benchmarks) list.push_back(row_json(c));
  root["benchmarks"] = std::move(list);
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

model::Result<model::Comparison> comparison_from_json(std::string_view text,
                                                      const std::string& origin) {
  return read_with_origin<model::Comparison>(
      origin, [&] { return read_comparison_document(parse_json_document(text, origin)); });
}

bool is_comparison_document(std::string_view text) {
  // A result file of millions of samples is not parsed to find that it is not one.
  if (text.find(kComparisonSchema) == std::string_view::npos) return false;
  const auto root = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return false;
  const auto schema = root.find("schema");
  return schema != root.end() && schema->is_string() && *schema == kComparisonSchema;
}

}  // namespace benchkit::formats
