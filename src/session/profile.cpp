#include "session/profile.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>

#include "formats/folded_stacks.hpp"
#include "model/spelling.hpp"
#include "process/worker_invocation.hpp"
#include "session/launcher.hpp"
#include "session/profiled.hpp"
#include "session/profilers.hpp"
#include "store/atomic_file.hpp"

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;

// Under valgrind the routine runs for the duration, but start-up and exit take their time: the
// tool is killed only after four times the duration and five minutes more, against a hang.
constexpr std::int64_t kToolTimeSlack = 4;
constexpr std::chrono::milliseconds kToolStartAndExit = std::chrono::minutes(5);
// --list answers at once; a minute means the binary hangs.
constexpr std::chrono::seconds kProfileListTimeout{60};
// heaptrack_print and perf script read a long run's file for a while; five minutes is a hang.
constexpr std::chrono::seconds kConversionTimeout{300};

class RealProcesses final : public ProfileProcesses {
 public:
  std::optional<std::string> find(const std::string& program) override {
    const char* path = std::getenv("PATH");
    std::string folders = path && *path ? path : "/usr/bin:/bin";
    std::stringstream list(folders);
    for (std::string folder; std::getline(list, folder, ':');) {
      if (folder.empty()) continue;
      const std::string candidate = folder + "/" + program;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
  }

  model::Result<process::Captured> run(const std::vector<std::string>& argv,
                                       const process::CaptureOptions& options) override {
    return process::run_captured(argv, options);
  }
};

std::string safe_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '=';
    out += plain ? c : '_';
  }
  return out.empty() ? "benchmark" : out;
}

// The folder of one profile and the files every tool's run leaves in it.
struct ProfileFolder {
  std::string dir;
  std::string summary() const { return dir + "/summary.json"; }  // the bench binary's
  std::string errors() const { return dir + "/stderr.txt"; }     // the tool's standard error
};

// The bench binary has the benchmark, by its full name; else the names near it.
model::Result<bool> check_benchmark(const ProfileRequest& request, ProfileProcesses& processes) {
  std::vector<std::string> list_argv = {request.binary, "--list"};
  list_argv.insert(list_argv.end(), request.bench_flags.begin(), request.bench_flags.end());
  process::CaptureOptions list_options;
  list_options.timeout = kProfileListTimeout;
  const auto listed = processes.run(list_argv, list_options);
  if (!listed || !listed->exit.ok()) {
    return model::Error{
        fmt::format("{} --list failed ({}): is it a bench binary linked with benchkit::main?",
                    request.binary, listed ? listed->exit.describe() : listed.error().message),
        model::ErrorKind::usage};
  }
  std::vector<std::string> names;
  std::stringstream lines(listed->out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) names.push_back(line);
  }
  if (std::find(names.begin(), names.end(), request.benchmark) != names.end()) return true;
  const auto near = near_names(request.benchmark, names);
  std::string near_text;
  for (const std::string& name : near) near_text += (near_text.empty() ? "" : ", ") + name;
  return model::Error{fmt::format("{} has no benchmark named \"{}\"{}; {} --list prints all {}",
                                  request.binary, request.benchmark,
                                  near.empty() ? "" : fmt::format(" (near names: {})", near_text),
                                  request.binary, names.size()),
                      model::ErrorKind::usage};
}

// The folder, made, without an earlier run's summary in it.
model::Result<ProfileFolder> make_folder(const ProfileRequest& request) {
  const ProfileFolder folder{request.out_dir.empty()
                                 ? fmt::format(".benchkit/profiles/{}-{}",
                                               safe_name(request.benchmark),
                                               model::profile_tool_name(request.tool))
                                 : request.out_dir};
  std::error_code error;
  fs::create_directories(folder.dir, error);
  if (error || !fs::is_directory(folder.dir)) {
    return model::Error{fmt::format("cannot create the profile folder {} ({}): choose another "
                                    "with --out-dir",
                                    folder.dir, error.message()),
                        model::ErrorKind::usage};
  }
  fs::remove(folder.summary(), error);
  return folder;
}

// Every program the profiler runs, found in PATH; the first missing one named with its package.
model::Result<ProgramPaths> find_programs(const Profiler& profiler, ProfileProcesses& processes) {
  ProgramPaths found;
  for (const std::string& program : profiler.programs()) {
    const auto path = processes.find(program);
    if (!path) {
      const std::string package = debian_package_of(program);
      return model::Error{
          fmt::format("--tool {} needs {}, which is not installed (not in PATH): "
                      "install the Debian package {} (apt-get install {}; "
                      "benchkit's scripts/install-deps installs it)",
                      model::profile_tool_name(profiler.tool()), program, package, package),
          model::ErrorKind::usage};
    }
    found[program] = *path;
  }
  return found;
}

std::vector<std::string> bench_command(const ProfileRequest& request, const std::string& markers,
                                       const std::string& summary) {
  process::WorkerInvocation invocation;
  invocation.filter = request.benchmark;
  invocation.exact = true;
  invocation.profile_time_ns = request.duration_ns;
  invocation.profile_markers = markers;
  invocation.profile_summary = summary;
  std::vector<std::string> argv = invocation.command(request.binary);
  argv.insert(argv.end(), request.bench_flags.begin(), request.bench_flags.end());
  return argv;
}

std::string what_ran(const ProfileRequest& request) {
  return fmt::format("{} of {}", model::profile_tool_name(request.tool), request.binary);
}

// The tool around the bench binary, its standard error to the folder; a failure quotes its tail
// and what the profiler adds.
model::Result<bool> run_tool(const Profiler& profiler, const ProfileRequest& request,
                             const ProgramPaths& programs, const ProfileFolder& folder,
                             ProfileProcesses& processes) {
  std::error_code ignored;
  for (const std::string& file : profiler.stale_files(folder.dir)) fs::remove(file, ignored);
  auto set_up = profiler.prepare(folder.dir);
  if (!set_up) return set_up.error();
  process::CaptureOptions options;
  options.out = process::Stream::discard;
  options.err_file = folder.errors();
  options.timeout = std::chrono::milliseconds(request.duration_ns / 1'000'000 * kToolTimeSlack) +
                    kToolStartAndExit;
  const auto ran = processes.run(
      profiler.command(programs, folder.dir,
                       bench_command(request, profiler.markers(folder.dir), folder.summary())),
      options);
  set_up->reset();
  if (!ran) return profiler.explain_failure(ran.error(), folder.dir);
  if (!ran->exit.ok()) {
    const std::string tail = stderr_tail(file_text(folder.errors()));
    return profiler.explain_failure(
        model::Error{fmt::format("{} {}{}{}", what_ran(request),
                                 ran->timed_out ? "did not finish in time and was killed"
                                                : ran->exit.describe(),
                                 tail.empty() ? "" : "; its last words:\n", tail),
                     model::ErrorKind::failed},
        folder.dir);
  }
  return true;
}

// The conversion's output, or "" when the profiler reads its files itself.
model::Result<std::string> convert(const Profiler& profiler, const ProgramPaths& programs,
                                   const ProfileFolder& folder, ProfileProcesses& processes) {
  const auto conversion = profiler.conversion(programs, folder.dir);
  if (!conversion) return conversion.error();
  if (!*conversion) return std::string();
  process::CaptureOptions options;
  options.limit = (*conversion)->limit;
  options.timeout = kConversionTimeout;
  const auto converted = processes.run((*conversion)->argv, options);
  if (!converted || !converted->exit.ok()) {
    return model::Error{
        fmt::format("{} failed ({})", (*conversion)->what,
                    converted ? converted->exit.describe() : converted.error().message),
        model::ErrorKind::failed};
  }
  return converted->out;
}

// The bench binary's summary of the routine: its iterations, time and allocations.
model::Result<bool> read_summary(model::Profile& profile, const Profiler& profiler,
                                 const ProfileRequest& request, const ProfileFolder& folder) {
  const auto summary_text = store::read_file(folder.summary());
  if (!summary_text) {
    return model::Error{fmt::format("{} ran, but the bench binary wrote no summary to {}: was it "
                                    "built with this version of benchkit?",
                                    what_ran(request), folder.summary()),
                        model::ErrorKind::failed};
  }
  const auto routine = parse_profiled_json(*summary_text);
  if (!routine) return routine.error();
  profile.iterations = routine->iterations;
  profile.routine_seconds = routine->timed_ns / 1e9;
  profile.allocations_per_iteration = routine->allocations_per_iteration;
  profile.allocated_bytes_per_iteration = routine->bytes_per_iteration;
  if (profiler.profiles_heap() && !routine->allocations_per_iteration) {
    profile.notes.push_back(
        "allocations per iteration are counted by benchkit's own allocation hooks: link the "
        "bench binary with benchkit::alloc to get them");
  }
  return true;
}

// The flame graph drawn from the stacks (flame.svg, when the request can draw one) and the folded
// stacks themselves, beside the raw files (what flamegraph.pl and speedscope read).
model::Result<bool> write_folded_stacks(model::Profile& profile, const ProfileFolder& folder,
                                        const ProfileRequest& request) {
  if (profile.stacks.empty()) return true;
  if (request.draw_flame_graph) {
    const std::string svg = folder.dir + "/flame.svg";
    if (auto written = store::write_file_atomically(svg, request.draw_flame_graph(profile));
        !written) {
      return written.error();
    }
    profile.files.push_back(svg);
  }
  const std::string folded = folder.dir + "/folded.txt";
  if (auto written = store::write_file_atomically(folded, formats::folded_text(profile.stacks));
      !written) {
    return written.error();
  }
  profile.files.push_back(folded);
  return true;
}

void keep_top(model::Profile& profile, std::size_t top) {
  if (profile.functions.size() > top * 4) profile.functions.resize(top * 4);
  if (profile.peak_sites.size() > top) profile.peak_sites.resize(top);
}

}  // namespace

std::string debian_package_of(const std::string& program) {
  if (program == "perf") return "linux-perf";
  if (program == "heaptrack_print") return "heaptrack";
  return program;  // valgrind, strace, heaptrack
}

std::vector<std::string> near_names(const std::string& wanted,
                                    const std::vector<std::string>& names) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& name : names) {
    const bool contains = name.find(wanted) != std::string::npos ||
                          (!name.empty() && wanted.find(name) != std::string::npos);
    const std::size_t distance = contains ? 0 : model::edit_distance(wanted, name);
    if (contains || distance <= std::max<std::size_t>(3, wanted.size() / 3)) {
      scored.emplace_back(distance, name);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> near;
  for (std::size_t i = 0; i < scored.size() && i < 5; ++i) near.push_back(scored[i].second);
  return near;
}

model::Result<model::Profile> run_profile(const ProfileRequest& request) {
  RealProcesses processes;
  return run_profile(request, processes);
}

model::Result<model::Profile> run_profile(const ProfileRequest& request,
                                          ProfileProcesses& processes) {
  const std::unique_ptr<Profiler> profiler = make_profiler(request.tool);
  if (auto found = check_benchmark(request, processes); !found) return found.error();
  const auto folder = make_folder(request);
  if (!folder) return folder.error();
  const auto programs = find_programs(*profiler, processes);
  if (!programs) return programs.error();
  if (auto ran = run_tool(*profiler, request, *programs, *folder, processes); !ran) {
    return ran.error();
  }
  const auto converted = convert(*profiler, *programs, *folder, processes);
  if (!converted) return converted.error();
  model::Profile profile;
  profile.tool = request.tool;
  profile.benchmark = request.benchmark;
  profile.binary = request.binary;
  profile.out_dir = folder->dir;
  if (auto read = profiler->read(profile, folder->dir, *converted); !read) return read.error();
  if (auto read = read_summary(profile, *profiler, request, *folder); !read) return read.error();
  if (auto written = write_folded_stacks(profile, *folder, request); !written)
    return written.error();
  keep_top(profile, request.top);
  profile.files.push_back(folder->summary());
  return profile;
}

}  // namespace benchkit::session
