#include "session/profile.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "clock/profile_markers.hpp"
#include "formats/folded_stacks.hpp"
#include "formats/profile_files.hpp"
#include "process/capture.hpp"
#include "report/flame_graph.hpp"
#include "session/launcher.hpp"
#include "session/profiled.hpp"
#include "store/atomic_file.hpp"

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> in_path(const std::string& program) {
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

model::Result<std::string> need(const std::string& program, const std::string& tool) {
  if (auto found = in_path(program)) return *found;
  return model::Error{
      fmt::format("--tool {} needs {}, which is not installed (not in PATH): "
                  "install the Debian package {} (apt-get install {}; "
                  "benchkit's scripts/install-deps installs it)",
                  tool, program, debian_package_of(program), debian_package_of(program)),
      model::ErrorKind::usage};
}

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string safe_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '=';
    out += plain ? c : '_';
  }
  return out.empty() ? "benchmark" : out;
}

// Runs `argv` with stderr to `err_file`; the error quotes its tail.
model::Result<process::Exit> run_logged(const std::vector<std::string>& argv,
                                        const std::string& err_file, const std::string& what,
                                        std::optional<std::chrono::milliseconds> timeout) {
  process::CaptureOptions options;
  options.out = process::Stream::discard;
  options.err_file = err_file;
  options.timeout = timeout;
  const auto ran = process::run_captured(argv, options);
  if (!ran) return ran.error();
  if (!ran->exit.ok()) {
    const std::string tail = stderr_tail(read_text(err_file));
    return model::Error{
        fmt::format("{} {}{}{}", what,
                    ran->timed_out ? "did not finish in time and was killed" : ran->exit.describe(),
                    tail.empty() ? "" : "; its last words:\n", tail),
        model::ErrorKind::failed};
  }
  return ran->exit;
}

std::vector<std::string> bench_command(const ProfileRequest& request, const std::string& markers,
                                       const std::string& summary) {
  std::vector<std::string> argv = {request.binary,      "--filter",
                                   request.benchmark,   "--exact",
                                   "--profile-time",    fmt::format("{}ns", request.duration_ns),
                                   "--profile-markers", markers,
                                   "--profile-summary", summary};
  argv.insert(argv.end(), request.bench_flags.begin(), request.bench_flags.end());
  return argv;
}

// A heap profile whose sites include the routine itself (formats::kRoutineSite) says why and
// how to see further in.
void explain_routine_sites(model::Profile& profile) {
  const bool folded = std::any_of(
      profile.peak_sites.begin(), profile.peak_sites.end(),
      [](const model::AllocationSite& site) { return site.function == formats::kRoutineSite; });
  if (!folded) return;
  profile.notes.push_back(fmt::format(
      "{}: those allocations were made by code the compiler inlined into the benchmark's "
      "routine (its lambda and what the lambda calls inline, e.g. a container's insert), and "
      "the bench binary's debug information does not tell those functions apart, so the "
      "profiler sees only benchkit's call of the routine. Build the bench binary with -g (CMake: "
      "RelWithDebInfo, or add -g to Release) to see them as inlined frames with their "
      "file:line, or with -fno-inline to keep them functions of their own (the code is then "
      "slower; its allocations are the same)",
      formats::kRoutineSite));
}

void keep_top(model::Profile& profile, std::size_t top) {
  if (profile.functions.size() > top * 4) profile.functions.resize(top * 4);
  if (profile.peak_sites.size() > top) profile.peak_sites.resize(top);
}

// The flame graph and the folded stacks, written beside the raw files.
model::Result<bool> write_flame(model::Profile& profile, const std::string& dir) {
  const std::string svg = dir + "/flame.svg";
  const std::string folded = dir + "/folded.txt";
  const std::string title =
      fmt::format("{} · {} · {}", profile.benchmark, profile.tool, profile.unit);
  if (auto written = store::write_file_atomically(
          svg, report::flame_graph_svg(profile.stacks, title, profile.unit));
      !written) {
    return written.error();
  }
  if (auto written = store::write_file_atomically(folded, formats::folded_text(profile.stacks));
      !written) {
    return written.error();
  }
  profile.files.push_back(svg);
  profile.files.push_back(folded);
  return true;
}

}  // namespace

const std::vector<std::string>& profile_tools() {
  static const std::vector<std::string> tools = {"callgrind", "massif", "heaptrack", "strace",
                                                 "perf"};
  return tools;
}

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
    const std::size_t distance = contains ? 0 : edit_distance(wanted, name);
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
  const auto& tools = profile_tools();
  if (std::find(tools.begin(), tools.end(), request.tool) == tools.end()) {
    return model::Error{
        fmt::format("--tool {}: choose callgrind, massif, heaptrack, strace or perf", request.tool),
        model::ErrorKind::usage};
  }
  // The benchmark, by its full name.
  std::vector<std::string> list_argv = {request.binary, "--list"};
  list_argv.insert(list_argv.end(), request.bench_flags.begin(), request.bench_flags.end());
  process::CaptureOptions list_options;
  list_options.timeout = std::chrono::seconds(60);
  const auto listed = process::run_captured(list_argv, list_options);
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
  if (std::find(names.begin(), names.end(), request.benchmark) == names.end()) {
    const auto near = near_names(request.benchmark, names);
    std::string near_text;
    for (const std::string& name : near) near_text += (near_text.empty() ? "" : ", ") + name;
    return model::Error{fmt::format("{} has no benchmark named \"{}\"{}; {} --list prints all {}",
                                    request.binary, request.benchmark,
                                    near.empty() ? "" : fmt::format(" (near names: {})", near_text),
                                    request.binary, names.size()),
                        model::ErrorKind::usage};
  }

  model::Profile profile;
  profile.tool = request.tool;
  profile.benchmark = request.benchmark;
  profile.binary = request.binary;
  const std::string dir =
      request.out_dir.empty()
          ? fmt::format(".benchkit/profiles/{}-{}", safe_name(request.benchmark), request.tool)
          : request.out_dir;
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    return model::Error{fmt::format("cannot create the profile folder {} ({}): choose another "
                                    "with --out-dir",
                                    dir, error.message()),
                        model::ErrorKind::usage};
  }
  profile.out_dir = dir;
  const std::string summary_file = dir + "/summary.json";
  fs::remove(summary_file, error);
  const std::string err_file = dir + "/stderr.txt";
  // Under valgrind the routine runs for the duration, but start-up and exit take their time:
  // a generous limit against a hang.
  const auto timeout = std::chrono::milliseconds(request.duration_ns / 1'000'000 * 4 + 300'000);
  const std::string what = fmt::format("{} of {}", request.tool, request.binary);

  if (request.tool == "callgrind" || request.tool == "massif") {
    const auto valgrind = need("valgrind", request.tool);
    if (!valgrind) return valgrind.error();
    std::vector<std::string> argv = {*valgrind, "--tool=" + request.tool,
                                     "--log-file=" + dir + "/valgrind.log"};
    std::string out_file;
    if (request.tool == "callgrind") {
      out_file = dir + "/callgrind.out";
      argv.insert(argv.end(), {"--instr-atstart=no", "--collect-atstart=no", "--dump-line=yes",
                               "--compress-strings=no", "--compress-pos=no",
                               "--callgrind-out-file=" + out_file});
    } else {
      out_file = dir + "/massif.out";
      // --read-inline-info=yes: with debug information, the functions inlined into the
      // routine are frames of their own, so a site can name them (explain_routine_sites).
      argv.insert(argv.end(),
                  {"--depth=40", "--read-inline-info=yes", "--massif-out-file=" + out_file});
    }
    fs::remove(out_file, error);
    const auto bench =
        bench_command(request, request.tool == "callgrind" ? "callgrind" : "none", summary_file);
    argv.insert(argv.end(), bench.begin(), bench.end());
    if (auto ran = run_logged(argv, err_file, what, timeout); !ran) {
      auto failure = ran.error();
      const std::string log = stderr_tail(read_text(dir + "/valgrind.log"));
      if (!log.empty()) failure.message += "\nvalgrind's log ends:\n" + log;
      return failure;
    }
    const std::string text = read_text(out_file);
    if (request.tool == "callgrind") {
      auto parsed = formats::parse_callgrind_profile(text, "Ir");
      if (!parsed) return parsed.error();
      profile.unit = "instructions";
      profile.total = parsed->total;
      profile.stacks = formats::fold_call_graph(*parsed);
      profile.functions = std::move(parsed->functions);
      profile.notes.push_back(
          "instructions counted by valgrind's callgrind between the region's marks "
          "(--instr-atstart=no; collection on only while the routine's timer runs): set-up, the "
          "warm-up iteration, inputs, drops and the harness are not in it");
      profile.notes.push_back(
          "the flame graph is drawn from callgrind's call graph: each function's inclusive cost "
          "is split among its callers in proportion to the calls, so a stack is an estimate "
          "where a function is called from several places");
    } else {
      auto parsed = formats::parse_massif_peak(text);
      if (!parsed) return parsed.error();
      profile.unit = "bytes";
      profile.peak_heap_bytes = parsed->bytes;
      profile.peak_sites = std::move(parsed->sites);
      explain_routine_sites(profile);
      profile.notes.push_back(
          "massif sees the whole process: the peak heap includes what the set-up allocated and "
          "still holds, and an allocation site's stack shows whether the routine or the set-up "
          "made it");
    }
    profile.files.push_back(out_file);
    profile.files.push_back(dir + "/valgrind.log");
  } else if (request.tool == "heaptrack") {
    const auto heaptrack = need("heaptrack", "heaptrack");
    if (!heaptrack) return heaptrack.error();
    const auto print = need("heaptrack_print", "heaptrack");
    if (!print) return print.error();
    const std::string base = dir + "/heaptrack";
    for (const char* suffix : {".zst", ".gz"}) fs::remove(base + suffix, error);
    std::vector<std::string> argv = {*heaptrack, "-o", base};
    const auto bench = bench_command(request, "none", summary_file);
    argv.insert(argv.end(), bench.begin(), bench.end());
    if (auto ran = run_logged(argv, err_file, what, timeout); !ran) return ran.error();
    std::string data = base + ".zst";
    if (!fs::exists(data)) data = base + ".gz";
    if (!fs::exists(data)) {
      return model::Error{fmt::format("heaptrack wrote no {}.zst or .gz", base),
                          model::ErrorKind::failed};
    }
    process::CaptureOptions options;
    options.limit = 64u << 20;
    options.timeout = std::chrono::seconds(300);
    // One whole stack a block (--merge-backtraces=0): merged by their innermost frame (the
    // default), every allocation through std::allocator is one block whose callers are cut
    // to a few, and a site could not be told from its stack.
    const auto printed = process::run_captured(
        {*print, "-f", data, "--merge-backtraces=0", "--print-allocators=0", "--print-temporary=0"},
        options);
    if (!printed || !printed->exit.ok()) {
      return model::Error{fmt::format("heaptrack_print -f {} failed ({})", data,
                                      printed ? printed->exit.describe() : printed.error().message),
                          model::ErrorKind::failed};
    }
    const std::string text_file = dir + "/heaptrack.txt";
    (void)store::write_file_atomically(text_file, printed->out);
    const formats::HeaptrackSummary parsed = formats::parse_heaptrack_print(printed->out);
    profile.unit = "bytes";
    profile.peak_heap_bytes = parsed.peak_bytes;
    profile.peak_sites = parsed.peak_sites;
    explain_routine_sites(profile);
    if (parsed.allocation_calls) {
      profile.notes.push_back(fmt::format(
          "heaptrack counted {:.0f} calls to allocation functions in the whole process (set-up "
          "included)",
          *parsed.allocation_calls));
    }
    profile.notes.push_back(
        "heaptrack sees the whole process: the peak heap includes what the set-up allocated");
    profile.files.push_back(data);
    profile.files.push_back(text_file);
  } else if (request.tool == "strace") {
    const auto strace = need("strace", "strace");
    if (!strace) return strace.error();
    const std::string trace = dir + "/strace.txt";
    std::vector<std::string> argv = {*strace, "-f", "-T", "-o", trace};
    const auto bench = bench_command(request, "strace", summary_file);
    argv.insert(argv.end(), bench.begin(), bench.end());
    if (auto ran = run_logged(argv, err_file, what, timeout); !ran) return ran.error();
    auto table =
        formats::parse_strace_region(read_text(trace), clock::kStraceBegin, clock::kStraceEnd);
    if (!table) return table.error();
    profile.unit = "system calls";
    profile.system_calls = std::move(*table);
    profile.notes.push_back(fmt::format(
        "the measured region only: the bench binary calls access(\"{}\") when its set-up and "
        "warm-up are done and access(\"{}\") when the routine's loop ends, and the trace "
        "(strace -f -T, every thread) is cut between the two; times are strace's -T, inflated "
        "by tracing",
        clock::kStraceBegin, clock::kStraceEnd));
    profile.files.push_back(trace);
  } else {  // perf
    const auto perf = need("perf", "perf");
    if (!perf) return perf.error();
    const std::string control = dir + "/perf-control.fifo";
    const std::string ack = dir + "/perf-ack.fifo";
    for (const std::string& fifo : {control, ack}) {
      fs::remove(fifo, error);
      if (::mkfifo(fifo.c_str(), 0600) != 0) {
        return model::Error{fmt::format("cannot make the fifo {} for perf's control", fifo),
                            model::ErrorKind::failed};
      }
    }
    // Opened here read-write (which never blocks on a fifo) and held through the run, so that
    // neither perf's open of one end nor the bench binary's of the other waits for the other.
    struct HeldFifos {
      int fds[2] = {-1, -1};
      ~HeldFifos() {
        for (const int fd : fds) {
          if (fd >= 0) ::close(fd);
        }
      }
    } held;
    held.fds[0] = ::open(control.c_str(), O_RDWR | O_CLOEXEC);
    held.fds[1] = ::open(ack.c_str(), O_RDWR | O_CLOEXEC);
    const std::string data = dir + "/perf.data";
    // The software clock: this machine (a VM) has no hardware counters, and cpu-clock samples
    // on a timer wherever perf_event_open works at all.
    std::vector<std::string> argv = {*perf,
                                     "record",
                                     "-e",
                                     "cpu-clock",
                                     "-F",
                                     "999",
                                     "-g",
                                     "-o",
                                     data,
                                     "--delay=-1",
                                     "--control=fifo:" + control + "," + ack,
                                     "--"};
    const auto bench = bench_command(request, "perf:" + control + "," + ack, summary_file);
    argv.insert(argv.end(), bench.begin(), bench.end());
    auto ran = run_logged(argv, err_file, what, timeout);
    fs::remove(control, error);
    fs::remove(ack, error);
    if (!ran) {
      auto failure = ran.error();
      failure.kind = model::ErrorKind::usage;
      failure.message = "perf cannot sample here: " + failure.message +
                        "\n(perf needs perf_event_open: check /proc/sys/kernel/perf_event_paranoid "
                        "(at most 2 for your own processes) and, in a container, that the "
                        "system call is allowed; --tool callgrind profiles without it)";
      return failure;
    }
    process::CaptureOptions options;
    options.limit = 256u << 20;
    options.timeout = std::chrono::seconds(300);
    const auto script = process::run_captured({*perf, "script", "-i", data}, options);
    if (!script || !script->exit.ok()) {
      return model::Error{fmt::format("perf script -i {} failed ({})", data,
                                      script ? script->exit.describe() : script.error().message),
                          model::ErrorKind::failed};
    }
    const formats::SampledProfile sampled = formats::parse_perf_script(script->out);
    if (sampled.total == 0.0) {
      return model::Error{
          "perf recorded no samples of the routine: perf_event_open works but the cpu-clock "
          "event delivered nothing here; use --tool callgrind",
          model::ErrorKind::usage};
    }
    profile.unit = "samples (cpu-clock)";
    profile.total = sampled.total;
    profile.stacks = sampled.stacks;
    profile.functions = sampled.functions;
    profile.notes.push_back(
        "perf record -e cpu-clock (the software clock: no hardware counters here), events on "
        "only between the region's marks (--delay=-1 and perf's control fifo), stacks by frame "
        "pointers (-g): code built without -fno-omit-frame-pointer shows shorter stacks");
    profile.files.push_back(data);
  }

  const auto summary_text = store::read_file(summary_file);
  if (!summary_text) {
    return model::Error{fmt::format("{} ran, but the bench binary wrote no summary to {}: was it "
                                    "built with this version of benchkit?",
                                    what, summary_file),
                        model::ErrorKind::failed};
  }
  const auto routine = parse_profiled_json(*summary_text);
  if (!routine) return routine.error();
  profile.iterations = routine->iterations;
  profile.routine_seconds = routine->timed_ns / 1e9;
  profile.allocations_per_iteration = routine->allocations_per_iteration;
  profile.allocated_bytes_per_iteration = routine->bytes_per_iteration;
  if ((request.tool == "massif" || request.tool == "heaptrack") &&
      !routine->allocations_per_iteration) {
    profile.notes.push_back(
        "allocations per iteration are counted by benchkit's own allocation hooks: link the "
        "bench binary with benchkit::alloc to get them");
  }
  if (!profile.stacks.empty()) {
    if (auto written = write_flame(profile, dir); !written) return written.error();
  }
  keep_top(profile, request.top);
  profile.files.push_back(summary_file);
  return profile;
}

}  // namespace benchkit::session
