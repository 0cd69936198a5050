#include "measure/scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/counters.hpp"
#include "model/exact_counts.hpp"

namespace benchkit {

using detail::ScenarioState;

namespace {

std::string describe_count(const std::optional<std::int64_t>& count) {
  return count ? std::to_string(*count) : std::string("no");
}

std::optional<std::uint64_t> as_unsigned(const std::optional<std::int64_t>& count) {
  if (!count) return std::nullopt;
  return static_cast<std::uint64_t>(*count);
}

// The result of phase `phase` of scenario `scenario` ("<scenario>/<phase>"), or end().
std::vector<BenchmarkResult>::iterator find_phase(std::vector<BenchmarkResult>& phases,
                                                  const std::string& scenario,
                                                  const std::string& phase) {
  const std::string full_name = scenario + "/" + phase;
  return std::find_if(phases.begin(), phases.end(),
                      [&](const BenchmarkResult& r) { return r.name == full_name; });
}

// The result that collects the samples of one phase, created the first time the phase runs.
BenchmarkResult& phase_result(ScenarioState& state, const std::string& phase,
                              const Scenario::Work& work) {
  const auto found = find_phase(*state.phases, state.name, phase);
  if (found == state.phases->end()) {
    BenchmarkResult result;
    result.name = state.name + "/" + phase;
    result.kind = "scenario";
    result.items_per_iteration = as_unsigned(work.items);
    result.bytes_per_iteration = as_unsigned(work.bytes);
    state.phases->push_back(std::move(result));
    return state.phases->back();
  }
  if (found->items_per_iteration != as_unsigned(work.items) ||
      found->bytes_per_iteration != as_unsigned(work.bytes)) {
    throw std::invalid_argument(fmt::format(
        "phase {} declared {} items and {} bytes in an earlier repetition but {} items and {} "
        "bytes in repetition {}: a phase's work must be the same in every repetition",
        phase, found->items_per_iteration ? std::to_string(*found->items_per_iteration) : "no",
        found->bytes_per_iteration ? std::to_string(*found->bytes_per_iteration) : "no",
        describe_count(work.items), describe_count(work.bytes), state.repetition + 1));
  }
  return *found;
}

template <class T>
std::optional<T> difference(const std::optional<T>& after, const std::optional<T>& before) {
  if (!after || !before) return std::nullopt;
  return *after - *before;
}

}  // namespace

void Scenario::run_phase(std::string_view name, const Work& work, detail::PhaseBody body) {
  ScenarioState& state = *state_;
  const std::string phase(name);
  if (phase.empty() || phase.find_first_of("/=") != std::string::npos) {
    throw std::invalid_argument(
        fmt::format("phase name \"{}\" must be non-empty, without '/' or '='", phase));
  }
  if (!state.current_phase.empty()) {
    throw std::invalid_argument(
        fmt::format("phase {} started inside phase {}: phases do not nest; end one before the next",
                    phase, state.current_phase));
  }
  if (std::find(state.phases_run.begin(), state.phases_run.end(), phase) !=
      state.phases_run.end()) {
    throw std::invalid_argument(
        fmt::format("phase {} ran twice: give each phase of a scenario its own name", phase));
  }
  if ((work.items && *work.items < 0) || (work.bytes && *work.bytes < 0)) {
    throw std::invalid_argument(
        fmt::format("phase {}: items ({}) and bytes ({}) must not be negative", phase,
                    describe_count(work.items), describe_count(work.bytes)));
  }
  BenchmarkResult& result = phase_result(state, phase, work);
  state.phases_run.push_back(phase);

  measure::ProcessMemory* memory = state.probes.memory;
  measure::ProcessUsage* usage = state.probes.usage;
  // Everything read before the clock starts and after it stops: the phase's time is its own.
  const bool peak_was_reset = memory && memory->reset_peak();
  const std::optional<std::int64_t> rss_before =
      memory ? memory->rss_bytes() : std::optional<std::int64_t>();
  const std::optional<measure::UsageTotals> usage_before =
      usage ? usage->read() : std::optional<measure::UsageTotals>();
  state.current_phase = phase;
  const std::int64_t start = state.clock->now_ns();
  body.run(body.object);
  const std::int64_t stop = state.clock->now_ns();
  state.current_phase.clear();
  const std::optional<measure::UsageTotals> usage_after =
      usage ? usage->read() : std::optional<measure::UsageTotals>();

  Sample sample;
  sample.iters = 1;
  sample.ns = static_cast<double>(stop - start);
  Resources resources;
  if (usage_before && usage_after) {
    resources.user_ns = usage_after->user_ns - usage_before->user_ns;
    resources.system_ns = usage_after->system_ns - usage_before->system_ns;
    resources.minor_faults = usage_after->minor_faults - usage_before->minor_faults;
    resources.major_faults = usage_after->major_faults - usage_before->major_faults;
    resources.voluntary_switches =
        usage_after->voluntary_switches - usage_before->voluntary_switches;
    resources.involuntary_switches =
        usage_after->involuntary_switches - usage_before->involuntary_switches;
  }
  if (memory) {
    resources.peak_rss_bytes = memory->peak_rss_bytes();
    resources.rss_change_bytes = difference(memory->rss_bytes(), rss_before);
    if (resources.peak_rss_bytes && (!result.memory.peak_rss_bytes ||
                                     *resources.peak_rss_bytes > *result.memory.peak_rss_bytes)) {
      result.memory.peak_rss_bytes = resources.peak_rss_bytes;
    }
    if (resources.rss_change_bytes &&
        (!result.memory.rss_growth_bytes ||
         *resources.rss_change_bytes > *result.memory.rss_growth_bytes)) {
      result.memory.rss_growth_bytes = resources.rss_change_bytes;
    }
    // One repetition whose peak could not be isolated makes the whole phase's peak approximate.
    if (result.memory.peak_rss_method.empty() || !peak_was_reset) {
      result.memory.peak_rss_method = measure::peak_rss_method(peak_was_reset);
    }
  }
  sample.resources = resources;
  result.samples.push_back(std::move(sample));
}

bool Scenario::verify(bool condition, std::string_view what) {
  if (condition) return true;
  ScenarioState& state = *state_;
  std::string where;
  if (!state.current_phase.empty()) {
    where = "during phase " + state.current_phase;
  } else if (!state.phases_run.empty()) {
    where = "after phase " + state.phases_run.back();
  } else {
    where = "before the first phase";
  }
  std::string message = fmt::format("check failed {}: {}", where, what);
  if (state.repetitions > 1) {
    message =
        fmt::format("repetition {} of {}: {}", state.repetition + 1, state.repetitions, message);
  }
  state.failures->push_back(std::move(message));
  return false;
}

namespace {

std::string kind_text(counter::Kind kind) {
  const std::vector<std::string> names = model::counter_kind_names(kind);
  if (names.empty()) return "counter::plain";
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "counter::" : " | counter::") + name;
  return text;
}

// Records that `phase` (empty: the whole scenario) sets counter `name` with `kind`, refusing a
// kind this scope does not allow, a kind other than the one given before, and a name used in
// the other scope.
void remember_kind(ScenarioState& state, const std::string& phase, const std::string& name,
                   counter::Kind kind) {
  if (name.empty()) throw std::invalid_argument("a scenario counter needs a name");
  const std::string call =
      phase.empty() ? fmt::format("Scenario::counter(\"{}\")", name)
                    : fmt::format("Scenario::phase_counter(\"{}\", \"{}\")", phase, name);
  if (counter::has(kind, counter::per_iteration) || counter::has(kind, counter::per_thread)) {
    throw std::invalid_argument(fmt::format(
        "{} with {}: a phase runs once per repetition on one thread, so a scenario counter has "
        "no iterations or threads to divide by; set the value per run",
        call, kind_text(kind)));
  }
  if (phase.empty() && counter::has(kind, counter::rate)) {
    throw std::invalid_argument(
        fmt::format("{} with counter::rate: a rate needs the time of one phase; give the phase: "
                    "s.phase_counter(\"PHASE\", \"{}\", value, counter::rate)",
                    call, name));
  }
  auto& kinds = *state.counter_kinds;
  for (const auto& [key, known] : kinds) {
    if (key.second == name && key.first.empty() != phase.empty()) {
      throw std::invalid_argument(fmt::format(
          "{}: counter {} is already set {}; a name is either for the whole scenario or for "
          "phases: give one of them another name",
          call, name, key.first.empty() ? "for the whole scenario" : "for phase " + key.first));
    }
  }
  const auto [where, added] = kinds.emplace(std::pair(phase, name), kind);
  if (!added && where->second != kind) {
    throw std::invalid_argument(
        fmt::format("{} with {}: it was set with {} before; a counter "
                    "keeps one kind",
                    call, kind_text(kind), kind_text(where->second)));
  }
}

}  // namespace

Scenario& Scenario::counter(std::string_view name, double value) {
  return counter(name, value, counter::plain);
}

Scenario& Scenario::counter(std::string_view name, double value, counter::Kind kind) {
  remember_kind(*state_, "", std::string(name), kind);
  state_->counters[std::string(name)] = value;
  return *this;
}

Scenario& Scenario::phase_counter(std::string_view phase, std::string_view name, double value,
                                  counter::Kind kind) {
  if (phase.empty()) {
    throw std::invalid_argument(
        fmt::format("Scenario::phase_counter(\"\", \"{}\") needs the phase's name", name));
  }
  remember_kind(*state_, std::string(phase), std::string(name), kind);
  state_->phase_counters[std::string(phase)][std::string(name)] = value;
  return *this;
}

Scenario& Scenario::exact_count(std::string_view name, std::uint64_t value,
                                std::string_view input) {
  if (name.empty()) throw std::invalid_argument("Scenario::exact_count needs a name");
  auto& counts = state_->exact_counts;
  const auto same = std::find_if(counts.begin(), counts.end(),
                                 [&](const ExactCount& count) { return count.name == name; });
  if (same != counts.end()) {
    same->value = value;
    same->input = std::string(input);
  } else {
    counts.push_back(ExactCount{std::string(name), value, std::string(input)});
  }
  return *this;
}

const std::string& Scenario::name() const {
  return state_->name;
}

std::size_t Scenario::repetition() const {
  return state_->repetition;
}

}  // namespace benchkit

namespace benchkit::measure {

std::vector<BenchmarkResult> run_scenario(clock::Clock& clock, const ScenarioSettings& settings,
                                          const ScenarioProbes& probes, const std::string& name,
                                          const std::function<void(Scenario&)>& body) {
  std::vector<BenchmarkResult> phases;
  std::vector<std::string> failures;
  std::map<std::string, std::pair<double, std::size_t>> counter_sums;  // sum, repetitions
  // By phase, then name: sum, repetitions.
  std::map<std::string, std::map<std::string, std::pair<double, std::size_t>>> phase_sums;
  std::map<std::pair<std::string, std::string>, counter::Kind> counter_kinds;
  std::vector<ExactCount> exact_counts;  // the first repetition's
  const std::size_t repetitions = std::max<std::size_t>(1, settings.repetitions);
  for (std::size_t repetition = 0; repetition < repetitions; ++repetition) {
    detail::ScenarioState state;
    state.clock = &clock;
    state.probes = probes;
    state.name = name;
    state.repetition = repetition;
    state.repetitions = repetitions;
    state.phases = &phases;
    state.failures = &failures;
    state.counter_kinds = &counter_kinds;
    Scenario scenario(state);
    auto where = [&state] {
      if (!state.current_phase.empty()) return " in phase " + state.current_phase;
      if (!state.phases_run.empty()) return " after phase " + state.phases_run.back();
      return std::string(" before its first phase");
    };
    try {
      body(scenario);
    } catch (const std::exception& error) {
      throw std::runtime_error(fmt::format("scenario {} threw{}: {}", name, where(), error.what()));
    } catch (...) {
      throw std::runtime_error(fmt::format(
          "scenario {} threw{} an exception that is not a std::exception", name, where()));
    }
    for (const auto& [counter, value] : state.counters) {
      auto& [sum, count] = counter_sums[counter];
      sum += value;
      ++count;
    }
    for (const auto& [phase, counters] : state.phase_counters) {
      for (const auto& [counter, value] : counters) {
        auto& [sum, count] = phase_sums[phase][counter];
        sum += value;
        ++count;
      }
    }
    if (repetition == 0) {
      exact_counts = state.exact_counts;
    } else if (auto disagreement = model::count_disagreement("repetition", exact_counts, 0,
                                                             state.exact_counts, repetition)) {
      failures.push_back(std::move(*disagreement));
    }
  }
  if (phases.empty()) {
    throw std::runtime_error(fmt::format(
        "scenario {} ran no phase: wrap the code to time in s.phase(\"name\", {{.items = n}}, "
        "[&] {{ ... }})",
        name));
  }
  for (const auto& [phase, sums] : phase_sums) {
    const auto found = find_phase(phases, name, phase);
    if (found == phases.end()) {
      throw std::runtime_error(fmt::format(
          "scenario {} set counter {} for phase {}, which never ran: name a phase of the "
          "scenario (s.phase(\"{}\", ...))",
          name, sums.begin()->first, phase, phase));
    }
    for (const auto& [counter, total] : sums) {
      found->counters[counter] = total.first / static_cast<double>(total.second);
    }
  }
  for (BenchmarkResult& result : phases) {
    result.failures = failures;
    for (const auto& [counter, total] : counter_sums) {
      result.counters[counter] = total.first / static_cast<double>(total.second);
    }
    const std::string phase = result.name.substr(name.size() + 1);
    for (const auto& [key, kind] : counter_kinds) {
      if (kind != counter::plain && (key.first.empty() || key.first == phase)) {
        result.counter_kinds[key.second] = kind;
      }
    }
    result.exact_counts = exact_counts;
  }
  return phases;
}

}  // namespace benchkit::measure
