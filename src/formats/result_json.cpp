#include "formats/result_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace benchkit::formats {

using model::Error;

namespace {

using nlohmann::ordered_json;

ordered_json estimate_json(const Estimate& estimate) {
  return ordered_json{{"value", estimate.value},
                      {"lower", estimate.lower},
                      {"upper", estimate.upper},
                      {"confidence", estimate.confidence}};
}

ordered_json context_json(const Context& c) {
  ordered_json j;
  j["date"] = c.date;
  j["tool_version"] = c.tool_version;
  j["hostname"] = c.hostname;
  j["os"] = c.os;
  j["kernel"] = c.kernel;
  j["cpu_model"] = c.cpu_model;
  j["logical_cpus"] = c.logical_cpus;
  j["compiler"] = c.compiler;
  j["build_type"] = c.build_type;
  j["optimized"] = c.optimized;
  j["assertions"] = c.assertions;
  j["compile_flags"] = c.compile_flags;
  j["library_flags"] = c.library_flags;
  ordered_json git;
  git["commit"] = c.git_commit;
  git["branch"] = c.git_branch;
  git["dirty"] = c.git_dirty ? ordered_json(*c.git_dirty) : ordered_json(nullptr);
  j["git"] = git;
  j["executable"] = c.executable;
  j["executable_sha256"] = c.executable_sha256;
  j["command_line"] = c.command_line;
  j["seed"] = c.seed;
  j["tags"] = c.tags;
  j["machine"] = c.machine;
  j["checks"] = c.checks;
  j["clock"] = c.clock;
  if (c.process_peak_rss_bytes) j["process_peak_rss_bytes"] = *c.process_peak_rss_bytes;
  ordered_json warnings = ordered_json::array();
  for (const Diagnostic& d : c.warnings) {
    warnings.push_back({{"code", d.code}, {"severity", d.severity}, {"message", d.message}});
  }
  j["warnings"] = std::move(warnings);
  return j;
}

ordered_json resources_json(const Resources& r) {
  ordered_json j = ordered_json::object();
  auto put = [&j](const char* key, const auto& value) {
    if (value) j[key] = *value;
  };
  put("user_ns", r.user_ns);
  put("system_ns", r.system_ns);
  put("peak_rss_bytes", r.peak_rss_bytes);
  put("rss_change_bytes", r.rss_change_bytes);
  put("minor_faults", r.minor_faults);
  put("major_faults", r.major_faults);
  put("voluntary_switches", r.voluntary_switches);
  put("involuntary_switches", r.involuntary_switches);
  put("exit_code", r.exit_code);
  put("signal", r.signal);
  if (r.timed_out) j["timed_out"] = true;
  return j;
}

ordered_json benchmark_json(const BenchmarkResult& b) {
  ordered_json j;
  j["name"] = b.name;
  j["kind"] = b.kind;
  if (!b.command.empty()) j["command"] = b.command;
  if (!b.failures.empty()) j["failures"] = b.failures;
  if (!b.params.empty()) j["params"] = b.params;
  ordered_json samples = ordered_json::array();
  for (const Sample& s : b.samples) {
    ordered_json sample{{"iters", s.iters}, {"ns", s.ns}};
    if (s.process != 0) sample["process"] = s.process;
    if (s.round) sample["round"] = *s.round;
    if (s.probe_ns) sample["probe_ns"] = *s.probe_ns;
    if (!s.counters.empty()) sample["counters"] = s.counters;
    if (s.resources) sample["resources"] = resources_json(*s.resources);
    samples.push_back(std::move(sample));
  }
  j["samples"] = std::move(samples);
  if (b.bytes_per_iteration) j["bytes_per_iteration"] = *b.bytes_per_iteration;
  if (b.items_per_iteration) j["items_per_iteration"] = *b.items_per_iteration;
  if (!b.counters.empty()) j["counters"] = b.counters;
  j["overhead"] = {{"ns_per_sample", b.overhead_ns_per_sample}};
  j["warm_up"] = {{"iters", b.warm_up_iters}, {"ns", b.warm_up_ns}};
  if (b.first_iteration_ns) j["warm_up"]["first_iteration_ns"] = *b.first_iteration_ns;
  j["untimed_ns"] = b.untimed_ns;
  ordered_json memory = ordered_json::object();
  if (b.memory.peak_rss_bytes) memory["peak_rss_bytes"] = *b.memory.peak_rss_bytes;
  if (b.memory.rss_growth_bytes) memory["rss_growth_bytes"] = *b.memory.rss_growth_bytes;
  if (!b.memory.peak_rss_method.empty()) memory["peak_rss_method"] = b.memory.peak_rss_method;
  j["memory"] = std::move(memory);
  const Estimates& e = b.estimates;
  ordered_json estimates;
  estimates["median"] = estimate_json(e.median);
  estimates["mean"] = estimate_json(e.mean);
  estimates["min"] = e.min;
  estimates["max"] = e.max;
  estimates["stddev"] = e.stddev;
  estimates["mad"] = e.mad;
  estimates["iqr"] = e.iqr;
  estimates["mdape"] = e.mdape;
  estimates["outliers"] = {{"low", e.outliers_low},
                           {"high", e.outliers_high},
                           {"severe", e.outliers_severe},
                           {"variance_share", e.outlier_variance}};
  if (e.bytes_per_second) estimates["bytes_per_second"] = *e.bytes_per_second;
  if (e.items_per_second) estimates["items_per_second"] = *e.items_per_second;
  if (e.slow_samples > 0) estimates["slow_samples"] = e.slow_samples;
  j["estimates"] = std::move(estimates);
  ordered_json diagnostics = ordered_json::array();
  for (const Diagnostic& d : b.diagnostics) {
    diagnostics.push_back({{"code", d.code}, {"severity", d.severity}, {"message", d.message}});
  }
  j["diagnostics"] = std::move(diagnostics);
  return j;
}

// Reading: every accessor names the path of the field it failed on.
struct Reader {
  const std::string& origin;

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw Error{fmt::format("{}: {}: {}", origin, path, problem)};
  }

  static const char* type_name(const ordered_json& value) { return value.type_name(); }

  const ordered_json* member(const ordered_json& object, const char* key) const {
    auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }

  double number(const ordered_json& object, const char* key, const std::string& path, bool required,
                double fallback = 0.0) const {
    const ordered_json* value = member(object, key);
    if (!value) {
      if (required) fail(path + "." + key, "missing (a number is required)");
      return fallback;
    }
    if (!value->is_number()) {
      fail(path + "." + key, fmt::format("expected a number, got {}", type_name(*value)));
    }
    return value->get<double>();
  }

  std::uint64_t count(const ordered_json& object, const char* key, const std::string& path,
                      bool required, std::uint64_t fallback = 0) const {
    const ordered_json* value = member(object, key);
    if (!value) {
      if (required) fail(path + "." + key, "missing (a non-negative integer is required)");
      return fallback;
    }
    if (value->is_number_unsigned()) return value->get<std::uint64_t>();
    if (value->is_number_integer() && value->get<std::int64_t>() >= 0) {
      return static_cast<std::uint64_t>(value->get<std::int64_t>());
    }
    if (value->is_number_float()) {
      const double d = value->get<double>();
      if (d >= 0 && d == static_cast<double>(static_cast<std::uint64_t>(d))) {
        return static_cast<std::uint64_t>(d);
      }
    }
    fail(path + "." + key, fmt::format("expected a non-negative integer, got {}", value->dump()));
  }

  std::string text(const ordered_json& object, const char* key, const std::string& path) const {
    const ordered_json* value = member(object, key);
    if (!value) return {};
    if (!value->is_string()) {
      fail(path + "." + key, fmt::format("expected a string, got {}", type_name(*value)));
    }
    return value->get<std::string>();
  }

  std::map<std::string, std::string> text_map(const ordered_json& object, const char* key,
                                              const std::string& path) const {
    std::map<std::string, std::string> result;
    const ordered_json* value = member(object, key);
    if (!value) return result;
    if (!value->is_object()) fail(path + "." + key, "expected an object");
    for (auto it = value->begin(); it != value->end(); ++it) {
      result[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    }
    return result;
  }

  std::map<std::string, double> number_map(const ordered_json& object, const char* key,
                                           const std::string& path) const {
    std::map<std::string, double> result;
    const ordered_json* value = member(object, key);
    if (!value) return result;
    if (!value->is_object()) fail(path + "." + key, "expected an object of numbers");
    for (auto it = value->begin(); it != value->end(); ++it) {
      if (!it->is_number()) {
        fail(path + "." + key + "." + it.key(),
             fmt::format("expected a number, got {}", type_name(*it)));
      }
      result[it.key()] = it->get<double>();
    }
    return result;
  }

  std::vector<Diagnostic> diagnostics(const ordered_json& object, const char* key,
                                      const std::string& path) const {
    std::vector<Diagnostic> result;
    const ordered_json* list = member(object, key);
    if (!list) return result;
    const std::string where = path + "." + key;
    if (!list->is_array()) fail(where, "expected an array");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string here = fmt::format("{}[{}]", where, i);
      const ordered_json& d = (*list)[i];
      if (!d.is_object()) fail(here, "expected an object with code and message");
      result.push_back(
          Diagnostic{text(d, "code", here), text(d, "severity", here), text(d, "message", here)});
    }
    return result;
  }

  Resources resources(const ordered_json& r, const std::string& path) const {
    const std::string here = path + ".resources";
    if (!r.is_object()) fail(here, "expected an object");
    Resources out;
    auto real = [&](const char* key, std::optional<double>& into) {
      if (member(r, key)) into = number(r, key, here, true);
    };
    auto whole = [&](const char* key, std::optional<std::int64_t>& into) {
      if (member(r, key)) into = static_cast<std::int64_t>(number(r, key, here, true));
    };
    real("user_ns", out.user_ns);
    real("system_ns", out.system_ns);
    whole("peak_rss_bytes", out.peak_rss_bytes);
    whole("rss_change_bytes", out.rss_change_bytes);
    whole("minor_faults", out.minor_faults);
    whole("major_faults", out.major_faults);
    whole("voluntary_switches", out.voluntary_switches);
    whole("involuntary_switches", out.involuntary_switches);
    if (member(r, "exit_code"))
      out.exit_code = static_cast<int>(number(r, "exit_code", here, true));
    if (member(r, "signal")) out.signal = static_cast<int>(number(r, "signal", here, true));
    if (const auto* t = member(r, "timed_out"); t && t->is_boolean())
      out.timed_out = t->get<bool>();
    return out;
  }

  Estimate estimate(const ordered_json& object, const char* key, const std::string& path) const {
    Estimate e;
    const ordered_json* value = member(object, key);
    if (!value) return e;
    const std::string here = path + "." + key;
    if (!value->is_object()) fail(here, "expected an object with value, lower, upper");
    e.value = number(*value, "value", here, true);
    e.lower = number(*value, "lower", here, false, e.value);
    e.upper = number(*value, "upper", here, false, e.value);
    e.confidence = number(*value, "confidence", here, false, 0.95);
    return e;
  }

  Context context(const ordered_json& root) const {
    Context c;
    const ordered_json* value = member(root, "context");
    if (!value) return c;
    if (!value->is_object()) fail("context", "expected an object");
    const ordered_json& j = *value;
    const std::string path = "context";
    c.date = text(j, "date", path);
    c.tool_version = text(j, "tool_version", path);
    c.hostname = text(j, "hostname", path);
    c.os = text(j, "os", path);
    c.kernel = text(j, "kernel", path);
    c.cpu_model = text(j, "cpu_model", path);
    c.logical_cpus = static_cast<int>(count(j, "logical_cpus", path, false));
    c.compiler = text(j, "compiler", path);
    c.build_type = text(j, "build_type", path);
    if (const auto* o = member(j, "optimized"); o && o->is_boolean()) c.optimized = o->get<bool>();
    if (const auto* a = member(j, "assertions"); a && a->is_boolean()) {
      c.assertions = a->get<bool>();
    }
    c.compile_flags = text(j, "compile_flags", path);
    c.library_flags = text(j, "library_flags", path);
    if (const ordered_json* git = member(j, "git")) {
      if (!git->is_object()) fail("context.git", "expected an object");
      c.git_commit = text(*git, "commit", "context.git");
      c.git_branch = text(*git, "branch", "context.git");
      if (const auto* dirty = member(*git, "dirty"); dirty && dirty->is_boolean()) {
        c.git_dirty = dirty->get<bool>();
      }
    }
    c.executable = text(j, "executable", path);
    c.executable_sha256 = text(j, "executable_sha256", path);
    c.command_line = text(j, "command_line", path);
    c.seed = count(j, "seed", path, false);
    c.tags = text_map(j, "tags", path);
    c.machine = text_map(j, "machine", path);
    c.checks = text_map(j, "checks", path);
    c.clock = text_map(j, "clock", path);
    if (member(j, "process_peak_rss_bytes")) {
      c.process_peak_rss_bytes =
          static_cast<std::int64_t>(number(j, "process_peak_rss_bytes", path, true));
    }
    c.warnings = diagnostics(j, "warnings", "context");
    return c;
  }

  BenchmarkResult benchmark(const ordered_json& j, const std::string& path, bool& has_estimates) {
    if (!j.is_object()) fail(path, fmt::format("expected an object, got {}", type_name(j)));
    BenchmarkResult b;
    const ordered_json* name = member(j, "name");
    if (!name || !name->is_string() || name->get<std::string>().empty()) {
      fail(path + ".name", "missing (every benchmark needs a non-empty name)");
    }
    b.name = name->get<std::string>();
    b.kind = text(j, "kind", path);
    if (b.kind.empty()) b.kind = "micro";
    if (b.kind != "micro" && b.kind != "scenario" && b.kind != "command") {
      fail(path + ".kind",
           fmt::format("unknown kind \"{}\" (expected micro, scenario or command)", b.kind));
    }
    b.params = text_map(j, "params", path);
    b.command = text(j, "command", path);
    if (const ordered_json* failures = member(j, "failures")) {
      if (!failures->is_array()) fail(path + ".failures", "expected an array of strings");
      for (std::size_t i = 0; i < failures->size(); ++i) {
        if (!(*failures)[i].is_string()) {
          fail(fmt::format("{}.failures[{}]", path, i), "expected a string");
        }
        b.failures.push_back((*failures)[i].get<std::string>());
      }
    }
    const ordered_json* samples = member(j, "samples");
    if (!samples || !samples->is_array()) {
      fail(path + ".samples", "missing (an array of {\"iters\": N, \"ns\": T} is required)");
    }
    for (std::size_t i = 0; i < samples->size(); ++i) {
      const std::string here = fmt::format("{}.samples[{}]", path, i);
      const ordered_json& s = (*samples)[i];
      if (!s.is_object()) fail(here, "expected an object with iters and ns");
      Sample sample;
      sample.iters = count(s, "iters", here, true);
      if (sample.iters == 0) fail(here + ".iters", "must be at least 1");
      sample.ns = number(s, "ns", here, true);
      if (!(sample.ns >= 0)) fail(here + ".ns", "must be a non-negative number of nanoseconds");
      sample.counters = number_map(s, "counters", here);
      sample.process = static_cast<std::uint32_t>(count(s, "process", here, false));
      if (member(s, "round"))
        sample.round = static_cast<std::uint32_t>(count(s, "round", here, true));
      if (const ordered_json* r = member(s, "resources")) sample.resources = resources(*r, here);
      if (member(s, "probe_ns")) {
        sample.probe_ns = number(s, "probe_ns", here, true);
        if (!(*sample.probe_ns > 0)) fail(here + ".probe_ns", "must be a positive number");
      }
      b.samples.push_back(std::move(sample));
    }
    if (member(j, "bytes_per_iteration")) {
      b.bytes_per_iteration = count(j, "bytes_per_iteration", path, true);
    }
    if (member(j, "items_per_iteration")) {
      b.items_per_iteration = count(j, "items_per_iteration", path, true);
    }
    b.counters = number_map(j, "counters", path);
    b.untimed_ns = number(j, "untimed_ns", path, false);
    if (const ordered_json* overhead = member(j, "overhead")) {
      b.overhead_ns_per_sample = number(*overhead, "ns_per_sample", path + ".overhead", false);
    }
    if (const ordered_json* warm = member(j, "warm_up")) {
      b.warm_up_iters = count(*warm, "iters", path + ".warm_up", false);
      b.warm_up_ns = number(*warm, "ns", path + ".warm_up", false);
      if (member(*warm, "first_iteration_ns")) {
        b.first_iteration_ns = number(*warm, "first_iteration_ns", path + ".warm_up", true);
      }
    }
    if (const ordered_json* memory = member(j, "memory")) {
      const std::string here = path + ".memory";
      if (member(*memory, "peak_rss_bytes")) {
        b.memory.peak_rss_bytes =
            static_cast<std::int64_t>(number(*memory, "peak_rss_bytes", here, true));
      }
      if (member(*memory, "rss_growth_bytes")) {
        b.memory.rss_growth_bytes =
            static_cast<std::int64_t>(number(*memory, "rss_growth_bytes", here, true));
      }
      b.memory.peak_rss_method = text(*memory, "peak_rss_method", here);
    }
    if (const ordered_json* e = member(j, "estimates")) {
      has_estimates = true;
      const std::string here = path + ".estimates";
      if (!e->is_object()) fail(here, "expected an object");
      Estimates& out = b.estimates;
      out.median = estimate(*e, "median", here);
      out.mean = estimate(*e, "mean", here);
      out.min = number(*e, "min", here, false);
      out.max = number(*e, "max", here, false);
      out.stddev = number(*e, "stddev", here, false);
      out.mad = number(*e, "mad", here, false);
      out.iqr = number(*e, "iqr", here, false);
      out.mdape = number(*e, "mdape", here, false);
      if (const ordered_json* o = member(*e, "outliers")) {
        out.outliers_low = count(*o, "low", here + ".outliers", false);
        out.outliers_high = count(*o, "high", here + ".outliers", false);
        out.outliers_severe = count(*o, "severe", here + ".outliers", false);
        out.outlier_variance = number(*o, "variance_share", here + ".outliers", false);
      }
      if (member(*e, "bytes_per_second")) {
        out.bytes_per_second = number(*e, "bytes_per_second", here, true);
      }
      out.slow_samples = count(*e, "slow_samples", here, false);
      if (member(*e, "items_per_second")) {
        out.items_per_second = number(*e, "items_per_second", here, true);
      }
    } else {
      has_estimates = false;
    }
    b.diagnostics = diagnostics(j, "diagnostics", path);
    return b;
  }
};

std::string line_and_column(std::string_view text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("line {}, column {}", line, column);
}

}  // namespace

std::string to_json(const RunResult& run) {
  ordered_json root;
  root["schema"] = RunResult::schema;
  root["version"] = RunResult::version;
  root["context"] = context_json(run.context);
  ordered_json benchmarks = ordered_json::array();
  for (const BenchmarkResult& b : run.benchmarks) benchmarks.push_back(benchmark_json(b));
  root["benchmarks"] = std::move(benchmarks);
  return root.dump(2) + "\n";
}

model::Result<ParsedRun> from_json(std::string_view text, const std::string& origin) {
  ordered_json root;
  try {
    root = ordered_json::parse(text.begin(), text.end());
  } catch (const ordered_json::parse_error& error) {
    const std::string where = error.byte > 0 ? line_and_column(text, error.byte - 1) : "start";
    const bool truncated = error.byte >= text.size();
    return Error{
        fmt::format("{}: not valid JSON at {}{}; the file is damaged: re-run the "
                    "benchmark to produce it again",
                    origin, where, truncated ? " (the file ends too early: truncated?)" : "")};
  }
  try {
    Reader reader{origin};
    if (!root.is_object()) reader.fail("(top level)", "expected a JSON object");
    const ordered_json* schema = reader.member(root, "schema");
    if (!schema || !schema->is_string()) {
      reader.fail("schema",
                  "missing: this is not a benchkit result (expected \"schema\": "
                  "\"benchkit/result\"; Google Benchmark or hyperfine files are read "
                  "by `benchkit import`)");
    }
    if (schema->get<std::string>() != RunResult::schema) {
      reader.fail("schema", fmt::format("is \"{}\", expected \"{}\"", schema->get<std::string>(),
                                        RunResult::schema));
    }
    const ordered_json* version = reader.member(root, "version");
    if (!version || !version->is_number_integer()) {
      reader.fail("version", "missing (expected an integer format version)");
    }
    if (version->get<int>() != RunResult::version) {
      reader.fail("version", fmt::format("format version {} is not supported: this benchkit reads "
                                         "version {}; use a benchkit that matches the file",
                                         version->get<int>(), RunResult::version));
    }
    ParsedRun parsed;
    parsed.run.context = reader.context(root);
    const ordered_json* benchmarks = reader.member(root, "benchmarks");
    if (!benchmarks || !benchmarks->is_array()) {
      reader.fail("benchmarks", "missing (expected an array of benchmarks)");
    }
    parsed.estimates_present = !benchmarks->empty();
    for (std::size_t i = 0; i < benchmarks->size(); ++i) {
      bool has_estimates = false;
      parsed.run.benchmarks.push_back(
          reader.benchmark((*benchmarks)[i], fmt::format("benchmarks[{}]", i), has_estimates));
      parsed.estimates_present = parsed.estimates_present && has_estimates;
    }
    return parsed;
  } catch (Error& error) {
    return error;
  } catch (const ordered_json::exception& error) {
    return Error{fmt::format("{}: unexpected content: {}", origin, error.what())};
  }
}

}  // namespace benchkit::formats
