#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <set>
#include <stdexcept>

#include "benchkit/registry.hpp"
#include "measure/instances.hpp"

namespace benchkit {

std::int64_t ParamValue::as_int() const {
  if (const auto* i = std::get_if<std::int64_t>(&value_)) return *i;
  if (const auto* d = std::get_if<double>(&value_)) return static_cast<std::int64_t>(*d);
  throw std::invalid_argument("parameter value \"" + std::get<std::string>(value_) +
                              "\" is text but the benchmark function takes a number");
}

double ParamValue::as_double() const {
  if (const auto* d = std::get_if<double>(&value_)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&value_)) return static_cast<double>(*i);
  throw std::invalid_argument("parameter value \"" + std::get<std::string>(value_) +
                              "\" is text but the benchmark function takes a number");
}

const std::string& ParamValue::as_string() const {
  if (const auto* s = std::get_if<std::string>(&value_)) return *s;
  throw std::invalid_argument("parameter value " + to_string() +
                              " is a number but the benchmark function takes text");
}

std::string ParamValue::to_string() const {
  if (const auto* i = std::get_if<std::int64_t>(&value_)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value_)) return fmt::format("{}", *d);
  return std::get<std::string>(value_);
}

Registration::Registration(std::string name, std::string file, int line, detail::BuildFacts facts)
    : name_(std::move(name)), file_(std::move(file)), line_(line), facts_(facts) {}

void Registration::keep_problem(std::string problem) {
  if (problem_.empty()) problem_ = std::move(problem);
}

Registration& Registration::param(std::string name, std::initializer_list<ParamValue> values) {
  return param(std::move(name), std::vector<ParamValue>(values));
}

Registration& Registration::param(std::string name, std::vector<ParamValue> values) {
  if (name.empty() || name.find_first_of("/=") != std::string::npos) {
    keep_problem(fmt::format(
        "benchmark {}: parameter name \"{}\" must be non-empty without '/' or '='", name_, name));
    return *this;
  }
  if (values.empty()) {
    keep_problem(fmt::format("benchmark {}: parameter {} has no values", name_, name));
    return *this;
  }
  params_.emplace_back(std::move(name), std::move(values));
  return *this;
}

Registration& Registration::complexity(Complexity fit, std::string param) {
  complexity_ = ComplexitySetting{fit, nullptr, std::move(param)};
  return *this;
}

Registration& Registration::complexity(double (*function)(double), std::string param) {
  if (function == nullptr) {
    keep_problem(
        fmt::format("benchmark {}: .complexity(function) was given a null function", name_));
    return *this;
  }
  complexity_ = ComplexitySetting{Complexity::automatic, function, std::move(param)};
  return *this;
}

Registration& Registration::threads(std::initializer_list<std::size_t> counts) {
  return threads(std::vector<std::size_t>(counts));
}

Registration& Registration::threads(std::vector<std::size_t> counts) {
  if (counts.empty()) {
    keep_problem(fmt::format(
        "benchmark {}: .threads({{}}) has no thread count; give one or more, e.g. .threads({{1, "
        "2, 4}})",
        name_));
    return *this;
  }
  std::set<std::size_t> seen;
  for (const std::size_t count : counts) {
    if (count == 0) {
      keep_problem(fmt::format(
          "benchmark {}: .threads gives 0 threads; each count must be 1 or more", name_));
      return *this;
    }
    if (!seen.insert(count).second) {
      keep_problem(fmt::format(
          "benchmark {}: .threads gives {} threads twice; give each count once", name_, count));
      return *this;
    }
  }
  threads_ = std::move(counts);
  return *this;
}

Registration& Registration::sample_size(std::size_t samples) {
  settings_.sample_size = samples;
  return *this;
}

Registration& Registration::set_time_budget_ns(std::int64_t budget) {
  settings_.time_budget_ns = budget;
  return *this;
}

Registration& Registration::set_warm_up_ns(std::int64_t duration) {
  settings_.warm_up_ns = duration;
  return *this;
}

SkipRule measure::checked_skip_rule(const std::string& benchmark, std::string tag,
                                    std::string reason) {
  const bool word = !tag.empty() && std::all_of(tag.begin(), tag.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
  if (!word) {
    throw std::invalid_argument(fmt::format(
        "benchmark {}: skip_when tag \"{}\" must be a word (letters, digits, '-', '_', '.'), as "
        "given to --skip-tag",
        benchmark, tag));
  }
  if (reason.empty()) {
    throw std::invalid_argument(fmt::format(
        "benchmark {}: skip_when(\"{}\", ...) needs a reason: say why the benchmark is left out "
        "and where the evidence is",
        benchmark, tag));
  }
  return SkipRule{std::move(tag), std::move(reason)};
}

Registration& Registration::skip_when(std::string tag, std::string reason) {
  try {
    skips_.push_back(measure::checked_skip_rule(name_, std::move(tag), std::move(reason)));
  } catch (const std::invalid_argument& error) {
    keep_problem(error.what());
  }
  return *this;
}

namespace {
// The registrations, owned here (the public header hands out plain pointers, without
// <memory>), deleted when the program ends.
struct Registry {
  std::vector<Registration*> registrations;

  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  ~Registry() {
    for (Registration* registration : registrations) delete registration;
  }
};

Registry& registry() {
  static Registry instance;
  return instance;
}
}  // namespace

Registration& register_benchmark(std::string name, std::string file, int line,
                                 detail::BuildFacts facts) {
  auto registration = std::make_unique<Registration>(std::move(name), std::move(file), line, facts);
  registry().registrations.push_back(registration.get());
  return *registration.release();
}

const std::vector<Registration*>& registered_benchmarks() {
  return registry().registrations;
}

}  // namespace benchkit

namespace benchkit::measure {

namespace {

const char* fit_name(Complexity fit) {
  switch (fit) {
    case Complexity::automatic:
      return "auto";
    case Complexity::constant:
      return "(1)";
    case Complexity::log_n:
      return "lgN";
    case Complexity::n:
      return "N";
    case Complexity::n_log_n:
      return "NlgN";
    case Complexity::n_squared:
      return "N^2";
    case Complexity::n_cubed:
      return "N^3";
  }
  return "auto";
}

// The size parameter's name: the one given, or the only parameter.
std::string size_param(const Instance& instance, const ComplexitySetting& setting) {
  const Registration& registration = *instance.registration;
  if (!setting.param.empty()) {
    for (const auto& [name, values] : registration.params()) {
      if (name == setting.param) return name;
    }
    throw std::invalid_argument(fmt::format(
        "benchmark {} ({}:{}): .complexity names the parameter \"{}\", which it does not have; "
        "add .param(\"{}\", {{...sizes}}) or name one of its parameters",
        registration.name(), registration.file(), registration.line(), setting.param,
        setting.param));
  }
  if (registration.params().size() != 1) {
    throw std::invalid_argument(fmt::format(
        "benchmark {} ({}:{}): .complexity() needs the size parameter named when a benchmark "
        "has {} parameters: .complexity(benchkit::Complexity::automatic, \"size\")",
        registration.name(), registration.file(), registration.line(),
        registration.params().size()));
  }
  return registration.params().front().first;
}

// A scenario cannot run in threads, and a threaded benchmark's name and params use "threads".
void check_threads(const Registration& registration) {
  if (registration.thread_counts().empty()) return;
  if (registration.is_scenario()) {
    throw std::invalid_argument(fmt::format(
        "scenario {} ({}:{}) sets .threads, which applies to micro benchmarks only: a scenario "
        "starts its own threads in its phases",
        registration.name(), registration.file(), registration.line()));
  }
  for (const auto& [param, values] : registration.params()) {
    if (param == "threads") {
      throw std::invalid_argument(fmt::format(
          "benchmark {} ({}:{}) has a parameter named threads and sets .threads, whose count is "
          "named threads=N; rename the parameter",
          registration.name(), registration.file(), registration.line()));
    }
  }
}

// One instance per thread count of its registration ("/threads=N" last), or itself alone.
std::vector<Instance> with_threads(Instance instance) {
  const std::vector<std::size_t>& counts = instance.registration->thread_counts();
  if (counts.empty()) return {std::move(instance)};
  std::vector<Instance> threaded;
  for (const std::size_t count : counts) {
    Instance one = instance;
    one.threads = count;
    one.params["threads"] = std::to_string(count);
    one.name += "/threads=" + std::to_string(count);
    threaded.push_back(std::move(one));
  }
  return threaded;
}

}  // namespace

std::optional<ComplexityPoint> complexity_point(const Instance& instance) {
  if (!instance.registration || !instance.registration->complexity_setting()) return std::nullopt;
  const ComplexitySetting& setting = *instance.registration->complexity_setting();
  const std::string param = size_param(instance, setting);
  const Registration& registration = *instance.registration;
  std::size_t index = 0;
  while (registration.params()[index].first != param) ++index;
  double n = 0.0;
  try {
    n = instance.values.at(index).as_double();
  } catch (const std::exception&) {
    n = 0.0;
  }
  if (!(n > 0)) {
    throw std::invalid_argument(
        fmt::format("benchmark {}: .complexity needs positive numbers as sizes, and {} is {}",
                    instance.name, param, instance.params.at(param)));
  }
  ComplexityPoint point;
  const std::string part = "/" + param + "=" + instance.params.at(param);
  point.family = instance.name;
  if (const auto at = point.family.find(part); at != std::string::npos) {
    point.family.erase(at, part.size());
  }
  point.param = param;
  point.n = n;
  point.fit = setting.function ? "f(N)" : fit_name(setting.fit);
  if (setting.function) point.custom = setting.function(n);
  return point;
}

std::vector<Instance> expand(const std::vector<const Registration*>& registrations,
                             const ParamOverrides& overrides) {
  std::vector<Instance> instances;
  std::set<std::string> names;
  std::set<std::string> known_params;
  for (const auto& [param, values] : overrides) {
    if (values.empty()) {
      throw std::invalid_argument(fmt::format("--param {}: give at least one value", param));
    }
  }
  for (const Registration* registration : registrations) {
    if (!registration->problem().empty()) {
      throw std::invalid_argument(fmt::format("{} ({}:{})", registration->problem(),
                                              registration->file(), registration->line()));
    }
    const BenchSettings& settings = registration->settings();
    if (registration->is_scenario() &&
        (settings.sample_size || settings.time_budget_ns || settings.warm_up_ns)) {
      throw std::invalid_argument(fmt::format(
          "scenario {} ({}:{}) sets .sample_size, .time_budget or .warm_up, which apply to "
          "micro benchmarks only: a scenario runs once per repetition (--repetitions N)",
          registration->name(), registration->file(), registration->line()));
    }
    check_threads(*registration);
    auto params = registration->params();
    for (auto& [param, values] : params) {
      known_params.insert(param);
      if (const auto found = overrides.find(param); found != overrides.end()) {
        values = found->second;
      }
    }
    for (const Registration::Variant& variant : registration->variants()) {
      if (variant.arity != params.size()) {
        throw std::invalid_argument(fmt::format(
            "benchmark {} ({}:{}) takes {} parameter(s) after {} but {} .param(...) "
            "call(s) were made; add or remove .param so they match",
            registration->name(), registration->file(), registration->line(), variant.arity,
            registration->is_scenario() ? "Scenario&" : "Bencher&", params.size()));
      }
      // Odometer over the parameter values: the last parameter varies fastest.
      std::vector<std::size_t> position(params.size(), 0);
      for (;;) {
        Instance instance;
        instance.registration = registration;
        instance.variant = &variant;
        instance.name = registration->name() + variant.suffix;
        for (std::size_t p = 0; p < params.size(); ++p) {
          const ParamValue& value = params[p].second[position[p]];
          instance.values.push_back(value);
          instance.params[params[p].first] = value.to_string();
          instance.name += "/" + params[p].first + "=" + value.to_string();
        }
        for (Instance& one : with_threads(std::move(instance))) {
          if (!names.insert(one.name).second) {
            throw std::invalid_argument(fmt::format(
                "two benchmarks are named {}: register each function once and keep parameter "
                "values distinct",
                one.name));
          }
          complexity_point(one);  // refuses a sweep it cannot fit, before anything runs
          instances.push_back(std::move(one));
        }
        std::size_t p = params.size();
        while (p > 0) {
          --p;
          if (++position[p] < params[p].second.size()) break;
          position[p] = 0;
          if (p == 0) {
            p = params.size() + 1;  // wrapped around: done
            break;
          }
        }
        if (params.empty() || p == params.size() + 1) break;
      }
    }
  }
  for (const auto& [param, values] : overrides) {
    if (known_params.count(param) == 0) {
      std::string list;
      for (const std::string& known : known_params) list += (list.empty() ? "" : ", ") + known;
      throw std::invalid_argument(
          fmt::format("--param {}: no benchmark has a parameter named {} (the parameters are: {})",
                      param, param, list.empty() ? "none" : list));
    }
  }
  return instances;
}

std::vector<Instance> expand_registered(const ParamOverrides& overrides) {
  std::vector<const Registration*> registrations;
  for (const Registration* registration : registered_benchmarks()) {
    registrations.push_back(registration);
  }
  return expand(registrations, overrides);
}

}  // namespace benchkit::measure
