#include "session/profiled.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "clock/clock.hpp"
#include "measure/memory.hpp"
#include "session/bench_options.hpp"
#include "store/atomic_file.hpp"

namespace benchkit::session {

model::Result<ProfiledRoutine> profile_routine(const RunSettings& settings,
                                               const measure::Instance& instance,
                                               std::int64_t duration_ns,
                                               clock::ProfileMarkers* markers) {
  if (instance.is_scenario()) {
    return model::Error{fmt::format("{} is a scenario: --profile-time runs a micro benchmark's "
                                    "routine; profile a scenario by running it under the tool",
                                    instance.name),
                        model::ErrorKind::usage};
  }
  measure::ProfileRun profile{duration_ns, markers};
  measure::Probes probes;
  // Only what reads no file and makes no system call: the profile is of the routine.
  probes.allocations = measure::allocation_reader();
  probes.profile = &profile;
  // No calibration: the profiled loop reads the clock only to stop, and calibrating under a
  // profiler (valgrind) would take seconds.
  measure::Engine engine(clock::steady_clock(), clock::Calibration{}, measure::Overhead{},
                         settings_for(settings, instance.registration->settings()), probes);
  BenchmarkResult result;
  try {
    result = engine.measure(
        instance.name,
        [&instance](Bencher& bencher) {
          instance.variant->invoker(instance.variant->function, bencher, instance.values);
        },
        instance.threads);
  } catch (const std::exception& error) {
    return model::Error{error.what(), model::ErrorKind::failed};
  }
  if (result.samples.empty()) {
    return model::Error{fmt::format("benchmark {}: nothing was profiled", instance.name),
                        model::ErrorKind::failed};
  }
  const Sample& sample = result.samples.front();
  ProfiledRoutine routine;
  routine.benchmark = instance.name;
  routine.iterations = sample.iters;
  routine.timed_ns = sample.ns;
  routine.first_iteration_ns = result.first_iteration_ns.value_or(0.0);
  const double iterations = static_cast<double>(std::max<std::uint64_t>(1, sample.iters));
  if (const auto found = sample.counters.find("allocations"); found != sample.counters.end()) {
    routine.allocations_per_iteration = found->second / iterations;
  }
  if (const auto found = sample.counters.find("allocated_bytes"); found != sample.counters.end()) {
    routine.bytes_per_iteration = found->second / iterations;
  }
  return routine;
}

model::Result<ProfiledRoutine> run_profiled(
    const ProfiledRequest& request, const RunSettings& settings,
    const std::vector<measure::Instance>& chosen,
    const std::function<void(const std::string&)>& starting) {
  if (auto problem = check_profiled(request.duration_ns, request.shown, chosen)) return *problem;
  std::string problem;
  const auto markers = clock::make_profile_markers(request.markers, problem);
  if (!markers) return model::Error{problem, model::ErrorKind::usage};
  starting(chosen.front().name);
  auto routine = profile_routine(settings, chosen.front(), *request.duration_ns, markers.get());
  if (!routine) return routine.error();
  if (!request.summary.empty()) {
    const auto written = store::write_file_atomically(request.summary, profiled_json(*routine));
    if (!written) return written.error();
  }
  return routine;
}

std::string profiled_json(const ProfiledRoutine& routine) {
  nlohmann::json json = {{"benchmark", routine.benchmark},
                         {"iterations", routine.iterations},
                         {"timed_ns", routine.timed_ns},
                         {"first_iteration_ns", routine.first_iteration_ns}};
  if (routine.allocations_per_iteration) {
    json["allocations_per_iteration"] = *routine.allocations_per_iteration;
  }
  if (routine.bytes_per_iteration) json["bytes_per_iteration"] = *routine.bytes_per_iteration;
  return json.dump() + "\n";
}

model::Result<ProfiledRoutine> parse_profiled_json(const std::string& text) {
  try {
    const nlohmann::json json = nlohmann::json::parse(text);
    ProfiledRoutine routine;
    routine.benchmark = json.at("benchmark").get<std::string>();
    routine.iterations = json.at("iterations").get<std::uint64_t>();
    routine.timed_ns = json.at("timed_ns").get<double>();
    routine.first_iteration_ns = json.value("first_iteration_ns", 0.0);
    if (json.contains("allocations_per_iteration")) {
      routine.allocations_per_iteration = json["allocations_per_iteration"].get<double>();
    }
    if (json.contains("bytes_per_iteration")) {
      routine.bytes_per_iteration = json["bytes_per_iteration"].get<double>();
    }
    return routine;
  } catch (const std::exception& error) {
    return model::Error{fmt::format("the profiled run's summary is not readable: {}", error.what()),
                        model::ErrorKind::failed};
  }
}

}  // namespace benchkit::session
