// The HTML format: the Document as JSON for the page's script, and the page around it
// (html_reporter.hpp says what the page shows and how it stays safe and fast).
#include "report/html_reporter.hpp"
#include "report/flame_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/compare.hpp"
#include "analysis/complexity.hpp"
#include "analysis/estimates.hpp"
#include "analysis/machine_speed.hpp"
#include "model/confidence.hpp"
#include "model/failure.hpp"
#include "report/comparison.hpp"
#include "report/counter_text.hpp"
#include "report/machine_checks.hpp"
#include "report/noise.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

namespace html::assets {
// Compiled in from src/report/html/ by cmake/embed_assets.cmake.
extern const char kScript[];
extern const char kStyle[];
}  // namespace html::assets

namespace html {
namespace {

using Json = nlohmann::ordered_json;
using analysis::Verdict;

// Six significant digits: far finer than a plot or a table shows, and half the bytes of the
// seventeen a double takes in JSON (a report of 100 × 1,000 samples stays near 1 MB).
double rounded(double value) {
  if (!std::isfinite(value)) return 0.0;
  if (value == 0.0) return 0.0;
  return std::stod(fmt::format("{:.6g}", value));
}

std::string unit_name(Unit unit) {
  switch (unit) {
    case Unit::nanoseconds:
      return "ns";
    case Unit::bytes_per_second:
      return "B/s";
    case Unit::items_per_second:
      return "/s";
    case Unit::number:
      return "";
  }
  return "";
}

// A name split into what is not a parameter (joined by '/') and its key=value parameters.
struct SplitName {
  std::string base;
  std::vector<std::pair<std::string, std::string>> params;
};

SplitName split_name(const std::string& name) {
  SplitName split;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t slash = std::min(name.find('/', start), name.size());
    const std::string part = name.substr(start, slash - start);
    const std::size_t equals = part.find('=');
    if (equals != std::string::npos && equals > 0) {
      split.params.emplace_back(part.substr(0, equals), part.substr(equals + 1));
    } else {
      if (!split.base.empty()) split.base += "/";
      split.base += part;
    }
    start = slash + 1;
  }
  return split;
}

std::optional<double> as_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  try {
    const double value = std::stod(text, &used);
    if (used != text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Json chart_json(const LineChart& chart) {
  Json out;
  out["title"] = chart.title;
  out["x_label"] = chart.x_label;
  out["y_label"] = chart.y_label;
  out["y_unit"] = unit_name(chart.y_unit);
  out["log_x"] = chart.log_x;
  if (!chart.categories.empty()) out["categories"] = chart.categories;
  Json series = Json::array();
  for (const LineSeries& line : chart.series) {
    Json points = Json::array();
    for (const LinePoint& p : line.points) {
      Json point = {{"x", rounded(p.x)}, {"y", rounded(p.y)}};
      if (p.lower) point["lo"] = rounded(*p.lower);
      if (p.upper) point["hi"] = rounded(*p.upper);
      if (!p.label.empty()) point["label"] = p.label;
      if (p.marked) point["marked"] = true;
      points.push_back(std::move(point));
    }
    Json entry = {{"name", line.name}, {"points", std::move(points)}};
    if (line.fitted) entry["fitted"] = true;
    series.push_back(std::move(entry));
  }
  out["series"] = std::move(series);
  return out;
}

Json context_json(const Context& c) {
  Json rows = Json::array();
  auto add = [&](const char* label, const std::string& value) {
    if (!value.empty()) rows.push_back({label, value});
  };
  std::string machine = c.hostname;
  if (!c.cpu_model.empty()) machine += (machine.empty() ? "" : " · ") + c.cpu_model;
  if (c.logical_cpus > 0) machine += fmt::format(" · {} logical CPUs", c.logical_cpus);
  add("machine", machine);
  add("system", c.os.empty() ? c.kernel : c.kernel.empty() ? c.os : c.os + " · " + c.kernel);
  std::string commit = c.git_commit.substr(0, std::min<std::size_t>(12, c.git_commit.size()));
  if (!c.git_branch.empty()) commit += (commit.empty() ? "" : " on ") + c.git_branch;
  if (c.git_dirty && *c.git_dirty) commit += " (uncommitted changes)";
  add("commit", commit);
  std::string build = c.build_type;
  if (!c.compiler.empty()) build += (build.empty() ? "" : " · ") + c.compiler;
  if (!c.optimized) build += " · not optimised";
  if (c.assertions) build += " · assertions on";
  add("build", build);
  add("date", c.date);
  // benchkit's own version ("0.1.0"), or the tool a file came from ("Google Benchmark v1.8.3",
  // "hyperfine"), named as it is.
  const bool own_version = !c.tool_version.empty() &&
                           std::isdigit(static_cast<unsigned char>(c.tool_version.front())) != 0;
  add("tool", own_version ? "benchkit " + c.tool_version : c.tool_version);
  add("command", c.command_line);
  if (c.seed != 0) add("seed", std::to_string(c.seed));
  return rows;
}

int verdict_rank(Verdict verdict) {
  switch (verdict) {
    case Verdict::regressed:
      return 0;
    case Verdict::invalid:
      return 1;
    case Verdict::inconclusive:
      return 2;
    case Verdict::improved:
      return 3;
    case Verdict::unchanged:
      return 4;
    case Verdict::added:
      return 5;
    case Verdict::removed:
      return 6;
    case Verdict::skipped:
      return 7;
  }
  return 8;
}

bool compared(const analysis::BenchmarkComparison& c) {
  return c.verdict != Verdict::added && c.verdict != Verdict::removed &&
         c.verdict != Verdict::invalid && c.verdict != Verdict::skipped;
}

// One row of the summary: the benchmark's figures, its verdict when compared, and the index of
// its detail section (-1: none).
Json summary_row(const BenchmarkResult* b, const analysis::BenchmarkComparison* c, int detail) {
  Json row;
  row["name"] = b ? b->name : c->name;
  row["detail"] = detail;
  if (b) {
    row["kind"] = b->kind;
    if (b->failure) {
      row["failed"] = std::string(model::failure_cause_name(b->failure->cause));
    } else if (!b->samples.empty()) {
      const Estimates& e = b->estimates;
      row["median"] = rounded(e.median.value);
      if (b->samples.size() > 1) {
        row["lo"] = rounded(e.median.lower);
        row["hi"] = rounded(e.median.upper);
        // Below the 95% the column names (few samples): the table says the interval's own.
        if (const auto below = model::confidence_below_nominal(e.median)) {
          row["confidence"] = *below;
        }
      }
      const std::string throughput = format_throughput(e);
      if (!throughput.empty()) {
        row["throughput"] = throughput;
        row["throughput_value"] =
            rounded(e.bytes_per_second ? *e.bytes_per_second : e.items_per_second.value_or(0.0));
      }
      row["samples"] = b->samples.size();
    }
    Json flags = Json::array();
    for (const Diagnostic& d : b->diagnostics) flags.push_back(d.code);
    if (!b->valid() && !b->failure) flags.push_back("invalid");
    row["flags"] = std::move(flags);
  }
  if (c) {
    row["verdict"] = analysis::to_string(c->verdict);
    if (compared(*c)) {
      row["ratio"] = rounded(c->ratio);
      row["ratio_lo"] = rounded(c->ratio_lower);
      row["ratio_hi"] = rounded(c->ratio_upper);
      if (!b) row["median"] = rounded(c->candidate_median);
    }
    // A comparison alone (no results beside it) has the new build's diagnostics in its rows:
    // below_resolution, multimodal, ... (the page's flags column was empty for them).
    if (!b) {
      Json flags = Json::array();
      for (const std::string& code : c->candidate_diagnostics) flags.push_back(code);
      row["flags"] = std::move(flags);
    }
  }
  return row;
}

Json comparison_json(const analysis::Comparison& comparison) {
  Json out;
  out["summary"] = comparison_summary(comparison);
  out["threshold"] = comparison.settings.noise_threshold;
  out["confidence"] = comparison.settings.confidence;
  Json notes = Json::array();
  for (const std::string* note : {&comparison.context_warning, &comparison.design_warning,
                                  &comparison.method_note, &comparison.speed_note}) {
    if (!note->empty()) notes.push_back(*note);
  }
  out["notes"] = std::move(notes);
  Json items = Json::array();
  std::vector<const analysis::BenchmarkComparison*> ordered;
  for (const auto& c : comparison.benchmarks) ordered.push_back(&c);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    return verdict_rank(a->verdict) < verdict_rank(b->verdict);
  });
  for (const analysis::BenchmarkComparison* c : ordered) {
    Json item = {{"name", c->name}, {"verdict", analysis::to_string(c->verdict)}};
    if (compared(*c)) {
      item["ratio"] = rounded(c->ratio);
      item["lo"] = rounded(c->ratio_lower);
      item["hi"] = rounded(c->ratio_upper);
      item["design"] = analysis::to_string(c->design);
      if (!c->round_ratios.empty()) {
        Json rounds = Json::array();
        for (double r : c->round_ratios) rounds.push_back(rounded(r));
        item["rounds"] = std::move(rounds);
        // Compared as an AB/BA crossover: which rounds the baseline ran first in, and the
        // order effect, for the forest plot's two clouds and its tooltip.
        if (!c->baseline_first.empty()) {
          item["first"] = c->baseline_first;
          if (c->order_ratio) item["order"] = rounded(*c->order_ratio);
        }
      }
    }
    if (!c->note.empty()) item["note"] = c->note;
    items.push_back(std::move(item));
  }
  out["benchmarks"] = std::move(items);
  return out;
}

// Per-sample figures in the resources of commands and scenario phases, as medians.
void resources_json(const BenchmarkResult& b, Json& out) {
  Json resources;
  auto median = [&](const char* key, const ResourceField& field) {
    if (const auto value = median_over_samples(b, field)) resources[key] = rounded(*value);
  };
  median("user_ns", [](const Sample&, const Resources& r) { return r.user_ns; });
  median("system_ns", [](const Sample&, const Resources& r) { return r.system_ns; });
  median("peak_rss_bytes", [](const Sample&, const Resources& r) -> std::optional<double> {
    if (!r.peak_rss_bytes) return std::nullopt;
    return static_cast<double>(*r.peak_rss_bytes);
  });
  median("minor_faults", [](const Sample&, const Resources& r) -> std::optional<double> {
    if (!r.minor_faults) return std::nullopt;
    return static_cast<double>(*r.minor_faults);
  });
  median("major_faults", [](const Sample&, const Resources& r) -> std::optional<double> {
    if (!r.major_faults) return std::nullopt;
    return static_cast<double>(*r.major_faults);
  });
  if (!resources.empty()) out["resources"] = std::move(resources);
}

// What a benchmark's section draws: its samples (per iteration, in the order taken), which were
// slow, the outlier fences, the estimates, diagnostics, counters and memory.
Json detail_json(const BenchmarkResult& b, std::size_t index) {
  Json out;
  out["index"] = index;
  out["name"] = b.name;
  out["kind"] = b.kind;
  if (!b.command.empty()) out["command"] = b.command;
  const std::vector<double> times = b.per_iteration_ns();
  Json t = Json::array();
  for (double v : times) t.push_back(rounded(v));
  out["t"] = std::move(t);
  if (!b.samples.empty()) out["iters"] = b.samples.front().iters;
  const std::vector<bool> slow = analysis::slow_sample_flags(b);
  Json slow_indices = Json::array();
  for (std::size_t i = 0; i < slow.size(); ++i) {
    if (slow[i]) slow_indices.push_back(i);
  }
  out["slow"] = std::move(slow_indices);
  if (const auto fences = analysis::outlier_fences(b)) {
    out["fences"] = {rounded(fences->low_severe), rounded(fences->low_mild),
                     rounded(fences->high_mild), rounded(fences->high_severe)};
  }
  const Estimates& e = b.estimates;
  if (!b.samples.empty() && !b.failure) {
    Json estimates = {{"median", rounded(e.median.value)},
                      {"lo", rounded(e.median.lower)},
                      {"hi", rounded(e.median.upper)},
                      {"mean", rounded(e.mean.value)},
                      {"min", rounded(e.min)},
                      {"max", rounded(e.max)},
                      {"stddev", rounded(e.stddev)},
                      {"mad", rounded(e.mad)},
                      {"outliers", e.outliers_low + e.outliers_high},
                      {"slow_samples", e.slow_samples}};
    const std::string throughput = format_throughput(e);
    if (!throughput.empty()) estimates["throughput"] = throughput;
    if (e.between_process_share) estimates["between"] = rounded(*e.between_process_share);
    out["estimates"] = std::move(estimates);
  }
  Json diagnostics = Json::array();
  for (const Diagnostic& d : b.diagnostics) {
    diagnostics.push_back({{"code", d.code}, {"severity", d.severity}, {"message", d.message}});
  }
  out["diagnostics"] = std::move(diagnostics);
  if (!b.failures.empty()) out["failures"] = b.failures;
  if (b.failure) {
    out["failure"] = {{"cause", std::string(model::failure_cause_name(b.failure->cause))},
                      {"stderr", b.failure->stderr_tail}};
  }
  if (!b.counters.empty()) {
    // As the other reports show them: the kind applied, with units ("1.2 Gi/s").
    Json counters;
    for (const auto& [name, value] : b.counters) counters[name] = counter_cell(b, name);
    out["counters"] = std::move(counters);
  }
  if (!b.label.empty()) out["label"] = b.label;
  if (!b.exact_counts.empty()) {
    Json counts = Json::array();
    for (const ExactCount& count : b.exact_counts) {
      counts.push_back({{"name", count.name}, {"value", count.value}, {"input", count.input}});
    }
    out["exact_counts"] = std::move(counts);
  }
  // Hardware counters and allocations, per iteration: the median over samples of total/iters.
  std::map<std::string, std::vector<double>> per_iteration;
  for (const Sample& sample : b.samples) {
    for (const auto& [name, total] : sample.counters) {
      per_iteration[name].push_back(total /
                                    static_cast<double>(std::max<std::uint64_t>(1, sample.iters)));
    }
  }
  if (!per_iteration.empty()) {
    Json sample_counters;
    for (auto& [name, values] : per_iteration) {
      std::sort(values.begin(), values.end());
      const std::size_t n = values.size();
      sample_counters[name] =
          rounded(n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0);
    }
    out["per_iteration"] = std::move(sample_counters);
  }
  Json memory;
  if (b.memory.peak_rss_bytes) memory["peak_rss_bytes"] = *b.memory.peak_rss_bytes;
  if (b.memory.rss_growth_bytes) memory["rss_growth_bytes"] = *b.memory.rss_growth_bytes;
  if (!b.memory.peak_rss_method.empty()) memory["method"] = b.memory.peak_rss_method;
  if (!memory.empty()) out["memory"] = std::move(memory);
  resources_json(b, out);
  if (b.first_iteration_ns) out["first_iteration_ns"] = rounded(*b.first_iteration_ns);
  return out;
}

std::string scenario_of(const std::string& name) {
  return name.substr(0, name.rfind('/'));
}
std::string phase_of(const std::string& name) {
  return name.substr(name.rfind('/') + 1);
}

Json scenarios_json(const RunResult& run) {
  Json out = Json::array();
  std::string current;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.kind != "scenario" || b.failure || b.samples.empty()) continue;
    if (out.empty() || scenario_of(b.name) != current) {
      current = scenario_of(b.name);
      out.push_back({{"name", current}, {"phases", Json::array()}});
    }
    Json phase = {{"name", phase_of(b.name)},
                  {"median", rounded(b.estimates.median.value)},
                  {"runs", b.samples.size()},
                  {"valid", b.valid()}};
    const std::string throughput = format_throughput(b.estimates);
    if (!throughput.empty()) phase["throughput"] = throughput;
    const auto share = median_over_samples(b, [](const Sample& s, const Resources& r) {
      if (!r.user_ns && !r.system_ns) return std::optional<double>();
      const double wall = s.ns / static_cast<double>(std::max<std::uint64_t>(1, s.iters));
      if (wall <= 0) return std::optional<double>();
      return std::optional<double>((r.user_ns.value_or(0) + r.system_ns.value_or(0)) / wall);
    });
    if (share) phase["cpu_share"] = rounded(*share);
    if (b.memory.peak_rss_bytes) phase["peak_rss_bytes"] = *b.memory.peak_rss_bytes;
    out.back()["phases"].push_back(std::move(phase));
  }
  return out;
}

Json noise_json(const NoiseReport& report) {
  Json out;
  out["subject"] = report.subject;
  out["summary"] = noise_summary(report);
  out["processes"] = report.analysis.processes;
  Json items = Json::array();
  for (const analysis::BenchmarkNoise& b : report.analysis.benchmarks) {
    Json item = {{"name", b.name}, {"median", rounded(b.median)}};
    Json medians = Json::array();
    for (double m : b.process_medians) medians.push_back(rounded(m));
    item["process_medians"] = std::move(medians);
    if (b.analysed()) {
      item["spread"] = rounded(b.spread);
      item["cv"] = rounded(b.cv);
      if (b.recommendation) {
        item["processes_needed"] = b.recommendation->processes;
        item["threshold"] = rounded(b.recommendation->threshold);
      }
    }
    if (!b.note.empty()) item["note"] = b.note;
    items.push_back(std::move(item));
  }
  out["benchmarks"] = std::move(items);
  return out;
}

Json machine_checks_json(const SystemReport& report) {
  Json checks = Json::array();
  for (const model::MachineCheck& check : report.checks) {
    checks.push_back({{"title", check.title},
                      {"status", std::string(model::to_string(check.status))},
                      {"value", check.value},
                      {"advice", check.advice}});
  }
  return {{"checks", std::move(checks)}, {"fingerprint", report.fingerprint_id}};
}

std::string dump(const Json& json) {
  return escape_for_script(json.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// ---- The sweep charts (sweep_charts) ------------------------------------------------------

// A benchmark of a sweep, with its name split into the base and the parameters.
struct SweepMember {
  const BenchmarkResult* result;
  SplitName split;
};

// The benchmarks of the run that have parameters, grouped by the base name and the parameter
// keys in order, in order of first appearance; failed, invalid and scenario results left out.
std::vector<std::pair<std::string, std::vector<SweepMember>>> sweep_groups(const RunResult& run) {
  std::vector<std::pair<std::string, std::vector<SweepMember>>> groups;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.kind == "scenario" || b.failure || b.samples.empty() || !b.valid()) continue;
    SplitName split = split_name(b.name);
    if (split.params.empty()) continue;
    std::string key = split.base;
    for (const auto& [k, v] : split.params) key += "\n" + k;
    auto found = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& group) { return group.first == key; });
    if (found == groups.end()) {
      groups.emplace_back(key, std::vector<SweepMember>{});
      found = std::prev(groups.end());
    }
    found->second.push_back({&b, std::move(split)});
  }
  return groups;
}

// The x axis of a sweep's charts: which parameter, whether its values are numbers, and the
// values in order of appearance when they are not.
struct SweepAxis {
  std::size_t parameter;
  bool numeric;
  std::vector<std::string> categories;
};

// The x parameter: the one with the most distinct values, numeric ones first; none when no
// parameter varies.
std::optional<SweepAxis> sweep_axis(const std::vector<SweepMember>& members) {
  const std::size_t keys = members.front().split.params.size();
  std::size_t x = keys;
  std::size_t best_count = 0;
  bool best_numeric = false;
  for (std::size_t k = 0; k < keys; ++k) {
    std::set<std::string> values;
    bool numeric = true;
    for (const SweepMember& m : members) {
      values.insert(m.split.params[k].second);
      numeric = numeric && as_number(m.split.params[k].second).has_value();
    }
    if (values.size() < 2) continue;
    if (x == keys || (numeric && !best_numeric) ||
        (numeric == best_numeric && values.size() > best_count)) {
      x = k;
      best_count = values.size();
      best_numeric = numeric;
    }
  }
  if (x == keys) return std::nullopt;
  SweepAxis axis{x, best_numeric, {}};
  if (!best_numeric) {
    for (const SweepMember& m : members) {
      const std::string& value = m.split.params[x].second;
      if (std::find(axis.categories.begin(), axis.categories.end(), value) ==
          axis.categories.end()) {
        axis.categories.push_back(value);
      }
    }
  }
  return axis;
}

// Whether the x axis is logarithmic: parameters that grow by powers (64, 4096, 1 << 20) read
// best on a log axis.
bool sweep_log_x(const std::vector<SweepMember>& members, const SweepAxis& axis) {
  bool positive = axis.numeric;
  double low = 0, high = 0;
  for (const SweepMember& m : members) {
    const double value = axis.numeric ? *as_number(m.split.params[axis.parameter].second) : 0.0;
    if (&m == &members.front()) low = high = value;
    low = std::min(low, value);
    high = std::max(high, value);
    positive = positive && value > 0;
  }
  return positive && high / low >= 16.0;
}

// The line a member belongs to: its other parameters ("k=v, k=v").
std::string sweep_series(const SweepMember& m, const SweepAxis& axis) {
  std::string name;
  for (std::size_t k = 0; k < m.split.params.size(); ++k) {
    if (k == axis.parameter) continue;
    if (!name.empty()) name += ", ";
    name += m.split.params[k].first + "=" + m.split.params[k].second;
  }
  return name;
}

// A member's x: its parameter's value, or the value's place among the categories.
double sweep_x(const SweepMember& m, const SweepAxis& axis) {
  const std::string& value = m.split.params[axis.parameter].second;
  if (axis.numeric) return *as_number(value);
  return static_cast<double>(std::find(axis.categories.begin(), axis.categories.end(), value) -
                             axis.categories.begin());
}

// The fitted curve of each line of a sweep's time chart whose members are the sizes of a
// complexity fit over the chart's x parameter: coefficient × g(n) at each size, and between
// sizes for a built-in class (a user's function is known only at the sizes).
void add_fitted_curves(const RunResult& run, const std::vector<SweepMember>& members,
                       const SweepAxis& axis, LineChart& time) {
  if (!axis.numeric) return;
  std::vector<LineSeries> curves;
  for (const ComplexityResult& fit : run.complexity) {
    LineSeries curve;
    curve.fitted = true;
    curve.name =
        fmt::format("{} fit{}: {}", fit.family, fit.source.empty() ? "" : " (" + fit.source + ")",
                    analysis::big_o_words(fit.big_o));
    const bool built_in = fit.big_o != "f(N)";
    std::vector<std::pair<double, std::optional<double>>> sizes;
    for (const SweepMember& m : members) {
      const auto& point = m.result->complexity;
      if (!point || point->family != fit.family ||
          m.split.params[axis.parameter].first != point->param) {
        continue;
      }
      sizes.emplace_back(point->n, point->custom);
    }
    if (sizes.size() < 2) continue;
    std::sort(sizes.begin(), sizes.end());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto [n, custom] = sizes[i];
      curve.points.push_back({n, analysis::fitted_value(fit, n, custom), {}, {}, "", false});
      if (!built_in || i + 1 == sizes.size()) continue;
      // Four points between sizes, evenly spaced on the axis's scale.
      const double next = sizes[i + 1].first;
      for (int step = 1; step < 5; ++step) {
        const double t = step / 5.0;
        const double between = time.log_x ? n * std::pow(next / n, t) : n + (next - n) * t;
        curve.points.push_back(
            {between, analysis::fitted_value(fit, between, std::nullopt), {}, {}, "", false});
      }
    }
    curves.push_back(std::move(curve));
  }
  for (LineSeries& curve : curves) time.series.push_back(std::move(curve));
}

// A sweep's charts: time per iteration, and throughput when every member reports one.
void add_sweep_charts(const RunResult& run, const std::vector<SweepMember>& members,
                      const SweepAxis& axis, std::vector<LineChart>& charts) {
  LineChart time;
  time.title = members.front().split.base + ": time per iteration";
  time.x_label = members.front().split.params[axis.parameter].first;
  time.y_label = "time per iteration";
  time.log_x = sweep_log_x(members, axis);
  time.categories = axis.categories;
  LineChart throughput = time;
  throughput.title = members.front().split.base + ": throughput";
  throughput.y_label = "throughput";
  const bool bytes = std::all_of(members.begin(), members.end(), [](const SweepMember& m) {
    return m.result->estimates.bytes_per_second.has_value();
  });
  const bool items = std::all_of(members.begin(), members.end(), [](const SweepMember& m) {
    return m.result->estimates.items_per_second.has_value();
  });
  throughput.y_unit = bytes ? Unit::bytes_per_second : Unit::items_per_second;
  for (const SweepMember& m : members) {
    const std::string name = sweep_series(m, axis);
    auto line = std::find_if(time.series.begin(), time.series.end(),
                             [&](const LineSeries& s) { return s.name == name; });
    if (line == time.series.end()) {
      time.series.push_back({name, {}});
      throughput.series.push_back({name, {}});
      line = std::prev(time.series.end());
    }
    const std::size_t at = static_cast<std::size_t>(line - time.series.begin());
    const Estimates& e = m.result->estimates;
    LinePoint point{sweep_x(m, axis), e.median.value, e.median.lower,
                    e.median.upper,   m.result->name, false};
    line->points.push_back(point);
    if (bytes || items) {
      const double rate = bytes ? *e.bytes_per_second : *e.items_per_second;
      // Throughput at the interval's ends: the faster end is the lower time.
      LinePoint work{point.x, rate, std::nullopt, std::nullopt, m.result->name, false};
      if (e.median.upper > 0 && e.median.lower > 0) {
        work.lower = rate * e.median.value / e.median.upper;
        work.upper = rate * e.median.value / e.median.lower;
      }
      throughput.series[at].points.push_back(work);
    }
  }
  for (LineChart* chart : {&time, &throughput}) {
    for (LineSeries& s : chart->series) {
      std::sort(s.points.begin(), s.points.end(),
                [](const LinePoint& a, const LinePoint& b) { return a.x < b.x; });
    }
  }
  add_fitted_curves(run, members, axis, time);
  charts.push_back(std::move(time));
  if (bytes || items) charts.push_back(std::move(throughput));
}

// ---- The page (render_page) ---------------------------------------------------------------

// The warnings of the run's context, the noise report and the machine, in that order.
Json warnings_json(const Document& document) {
  Json warnings = Json::array();
  if (document.results) {
    for (const Diagnostic& w : document.results->context.warnings) {
      // A run's context keeps notes too (severity "info": Google Benchmark's repetitions of one
      // process), which the page must not call warnings.
      warnings.push_back({{"message", w.message}, {"code", w.code}, {"severity", w.severity}});
    }
  }
  if (document.noise) {
    for (const Diagnostic& w : document.noise->warnings) {
      warnings.push_back({{"message", w.message}, {"code", w.code}});
    }
  }
  if (document.warnings) {
    for (const model::MachineWarning& w : *document.warnings) {
      warnings.push_back({{"message", w.message},
                          {"code", std::string(model::to_string(w.kind))},
                          {"advice", w.advice}});
    }
  }
  return warnings;
}

// The summary: every benchmark of the results, with its verdict when compared; a comparison
// alone gives its own rows. Regressions first, then in the run's order.
Json summary_json(const Document& document) {
  const RunResult* run = document.results;
  std::map<std::string, const analysis::BenchmarkComparison*> by_name;
  if (document.comparison) {
    for (const auto& c : document.comparison->benchmarks) by_name[c.name] = &c;
  }
  struct Row {
    int rank;
    Json json;
  };
  std::vector<Row> rows;
  if (run) {
    for (std::size_t i = 0; i < run->benchmarks.size(); ++i) {
      const BenchmarkResult& b = run->benchmarks[i];
      const auto found = by_name.find(b.name);
      const analysis::BenchmarkComparison* c = found == by_name.end() ? nullptr : found->second;
      int rank = c ? verdict_rank(c->verdict) : 10;
      if (model::failed_unmeasured(b)) rank = 1;
      rows.push_back({rank, summary_row(&b, c, static_cast<int>(i))});
    }
  }
  if (document.comparison) {
    for (const auto& c : document.comparison->benchmarks) {
      const bool in_run =
          run && std::any_of(run->benchmarks.begin(), run->benchmarks.end(),
                             [&](const BenchmarkResult& b) { return b.name == c.name; });
      if (!in_run) rows.push_back({verdict_rank(c.verdict), summary_row(nullptr, &c, -1)});
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.rank < b.rank; });
  Json summary = Json::array();
  for (Row& row : rows) summary.push_back(std::move(row.json));
  return summary;
}

// A section of charts given by the caller (trend, profile), with its flame graph, tables and
// notes.
Json chart_section_json(const ChartSection& section) {
  Json charts = Json::array();
  for (const LineChart& chart : section.charts) charts.push_back(chart_json(chart));
  Json entry = {{"id", section.id},
                {"title", section.title},
                {"intro", section.intro},
                {"charts", std::move(charts)}};
  if (section.flame) {
    double total = 0.0;
    Json frames = Json::array();
    for (const FlameFrame& frame : layout_flame_graph(section.flame->stacks, total)) {
      frames.push_back({frame.name, frame.depth, frame.start, frame.value});
    }
    entry["flame"] = {{"title", section.flame->title},
                      {"unit", section.flame->unit},
                      {"total", total},
                      {"frames", std::move(frames)}};
  }
  if (!section.tables.empty()) {
    Json tables = Json::array();
    for (const TextTable& table : section.tables) {
      tables.push_back({{"title", table.title}, {"columns", table.columns}, {"rows", table.rows}});
    }
    entry["tables"] = std::move(tables);
  }
  if (!section.notes.empty()) entry["notes"] = section.notes;
  return entry;
}

// The sections of line charts: the run's sweeps, then the caller's sections.
Json line_sections_json(const RunResult* run, const std::vector<ChartSection>& extra) {
  Json sections = Json::array();
  if (run) {
    const std::vector<LineChart> sweeps = sweep_charts(*run);
    if (!sweeps.empty()) {
      Json charts = Json::array();
      for (const LineChart& chart : sweeps) charts.push_back(chart_json(chart));
      sections.push_back({{"id", "sweeps"},
                          {"title", "Sweeps"},
                          {"intro",
                           "Benchmarks that differ by parameters: the median with its 95% CI "
                           "against one parameter, one line per value of the others."},
                          {"charts", std::move(charts)}});
    }
  }
  for (const ChartSection& section : extra) sections.push_back(chart_section_json(section));
  return sections;
}

// The page itself: the data (escaped for a script element) and each benchmark's details in
// script elements of their own, the style and the script inline.
std::string page_html(const std::string& title, const std::string& data, const RunResult* run) {
  // The page's one script carries a nonce, so that the policy below runs it and nothing else:
  // no inline event handler, no script element the data could ever smuggle in. Derived from the
  // data, it differs between reports.
  const std::string nonce = fmt::format("{:016x}", std::hash<std::string>{}(data));
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // No request may leave the page: its script and style are inline, it loads nothing.
  page += fmt::format(
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "script-src 'nonce-{}'; style-src 'unsafe-inline'\">\n",
      nonce);
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>" + markup_escape(title) + "</title>\n<style>\n";
  page += assets::kStyle;
  page += "</style>\n</head>\n<body>\n<main id=\"report\"></main>\n";
  page += "<script type=\"application/json\" id=\"benchkit-data\">" + data + "</script>\n";
  if (run) {
    for (std::size_t i = 0; i < run->benchmarks.size(); ++i) {
      page += fmt::format("<script type=\"application/json\" id=\"benchkit-detail-{}\">", i);
      page += dump(detail_json(run->benchmarks[i], i));
      page += "</script>\n";
    }
  }
  page += fmt::format("<script nonce=\"{}\">\n", nonce);
  page += assets::kScript;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace

std::string escape_for_script(const std::string& json) {
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xe2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
               (json[i + 2] == '\xa8' || json[i + 2] == '\xa9')) {
      out += json[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<LineChart> sweep_charts(const RunResult& run) {
  std::vector<LineChart> charts;
  for (const auto& [key, members] : sweep_groups(run)) {
    if (members.size() < 2) continue;
    const std::optional<SweepAxis> axis = sweep_axis(members);
    if (!axis) continue;
    add_sweep_charts(run, members, *axis, charts);
  }
  return charts;
}

std::string render_page(const Document& document, const std::vector<ChartSection>& extra) {
  Json model;
  std::string title = "benchkit report";
  const RunResult* run = document.results;
  if (run) {
    model["context"] = context_json(run->context);
    if (!run->context.git_commit.empty()) {
      title += " · " + run->context.git_commit.substr(0, 12);
    }
  }
  model["warnings"] = warnings_json(document);
  model["summary"] = summary_json(document);
  model["compared"] = document.comparison != nullptr;
  if (document.comparison) model["comparison"] = comparison_json(*document.comparison);
  model["line_sections"] = line_sections_json(run, extra);
  if (run) model["scenarios"] = scenarios_json(*run);
  if (document.noise) model["noise"] = noise_json(*document.noise);
  if (document.machine_checks)
    model["machine_checks"] = machine_checks_json(*document.machine_checks);
  model["details"] = run ? run->benchmarks.size() : 0;
  return page_html(title, dump(model), run);
}

}  // namespace html

namespace {

class HtmlReporter final : public Reporter {
 private:
  Format format() const override { return Format::html; }
  Capabilities capabilities() const override {
    return {{Part::results, Part::comparison, Part::noise, Part::machine_checks, Part::warnings},
            true};
  }
  std::string render_accepted(const Document& document) const override {
    return html::render_page(document);
  }
};

}  // namespace

std::unique_ptr<Reporter> make_html_reporter() {
  return std::make_unique<HtmlReporter>();
}

}  // namespace benchkit::report
