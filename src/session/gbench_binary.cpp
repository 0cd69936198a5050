#include "session/gbench_binary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <string_view>
#include <system_error>
#include <unordered_set>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "model/failure.hpp"
#include "model/merge.hpp"
#include "model/spelling.hpp"
#include "process/capture.hpp"
#include "process/interrupt.hpp"
#include "process/placement.hpp"
#include "process/temporary_folder.hpp"
#include "process/turns.hpp"
#include "session/name_filter.hpp"
#include "session/result_files.hpp"
#include "stats/summary.hpp"
#include "system/context.hpp"

namespace benchkit::session {
namespace {

// What a run holds while it lasts: the Ctrl-C handler (the processes it starts are stopped and
// its temporary folder still removed; a second Ctrl-C ends this process at once), and that folder.
class RunScope {
 public:
  explicit RunScope(std::string_view prefix) {
    process::install_interrupt_handler();
    folder_ = process::make_temporary_folder(prefix);
    if (folder_) remover_.emplace(*folder_);
  }
  ~RunScope() { process::restore_default_interrupt_action(); }
  RunScope(const RunScope&) = delete;
  RunScope& operator=(const RunScope&) = delete;
  const model::Result<std::string>& folder() const { return folder_; }

 private:
  model::Result<std::string> folder_ = model::Error{"no folder"};
  std::optional<process::FolderRemover> remover_;
};

// Lines the processes of a run wrote to standard error, each handed on once however many
// processes wrote it.
class OnceNotes {
 public:
  explicit OnceNotes(std::function<void(const std::string&)> note) : note_(std::move(note)) {}
  std::function<void(const std::string&)> sink() {
    if (!note_) return {};
    return [this](const std::string& line) {
      if (seen_.insert(line).second) note_(line);
    };
  }

 private:
  std::function<void(const std::string&)> note_;
  std::set<std::string> seen_;
};

// What a process wrote to standard error (`file`), its banner lines left out.
std::vector<std::string> stderr_lines(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!is_gbench_banner_line(line)) lines.push_back(line);
  }
  return lines;
}

// The last lines of `lines`, joined: what a failing process said, in an error message.
std::string tail_of(const std::vector<std::string>& lines, std::string_view separator = " | ") {
  constexpr std::size_t kTail = 5;
  const std::size_t from = lines.size() > kTail ? lines.size() - kTail : 0;
  std::string text;
  for (std::size_t i = from; i < lines.size(); ++i) {
    if (i > from) text += separator;
    text += lines[i];
  }
  return text;
}

// One process of a Google Benchmark binary writing its results to `out`, read back. Its
// standard output (the console table) is discarded and its standard error kept in `out`.err:
// the banner is left out, and with `spelling` the log lines about a bare --benchmark_min_time
// that benchkit gave (MinTimeSpelling::heard); the rest is handed to `said` (or, when the
// process failed, quoted in the error). With `cpu`, the process runs on that CPU only; with
// `timeout`, it is killed when still running after that long, and fails. A process that failed
// so (killed, crashed, exited with an error) is described in `failure` too, when given.
model::Result<RunResult> run_one_process(
    const std::string& executable, const std::vector<std::string>& flags, const std::string& out,
    const std::string& what, const std::function<void(const std::string&)>& said,
    std::optional<int> cpu = std::nullopt, MinTimeSpelling* spelling = nullptr,
    std::optional<std::chrono::milliseconds> timeout = std::nullopt, Failure* failure = nullptr) {
  std::vector<std::string> argv = {executable};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("--benchmark_out=" + out);
  argv.push_back("--benchmark_out_format=json");
  process::CaptureOptions options;
  options.out = process::Stream::discard;
  options.err_file = out + ".err";
  options.cpu = cpu;
  options.timeout = timeout;
  const auto ran = process::run_captured(argv, options);
  if (!ran) return ran.error();
  if (process::interrupt_requested()) {
    return model::Error{fmt::format("interrupted while {} ran", what),
                        model::ErrorKind::interrupted};
  }
  std::vector<std::string> lines = stderr_lines(options.err_file);
  if (spelling) lines = spelling->heard(std::move(lines));
  if (failure && (ran->timed_out || !ran->exit.ok())) {
    failure->cause = ran->timed_out     ? Failure::Cause::timed_out
                     : ran->exit.signal ? Failure::Cause::crashed
                                        : Failure::Cause::exited;
    if (ran->exit.signal) failure->signal = ran->exit.signal;
    if (!ran->exit.signal) failure->exit_code = ran->exit.exit_code;
    failure->stderr_tail = tail_of(lines, "\n");
  }
  if (ran->timed_out) {
    return model::Error{
        fmt::format(
            "{} ({}) was still running after {} s and was killed; if it needs longer, raise the "
            "limit (compare and ab: --worker-timeout, for each benchmark of a process; "
            "run: --timeout)",
            what, executable, timeout->count() / 1000.0),
        model::ErrorKind::failed};
  }
  if (!ran->exit.ok()) {
    return model::Error{
        fmt::format("{} ({}) {}{}", what, executable, ran->exit.describe(),
                    lines.empty() ? std::string("; it wrote nothing to standard error")
                                  : std::string(model::kStderrTailJoint) + tail_of(lines)),
        model::ErrorKind::failed};
  }
  if (said) {
    for (const std::string& line : lines) said(line);
  }
  auto run = load_result_file(out);
  if (!run) {
    // What the process said is the likelier cause (Google Benchmark 1.7.1 refusing a filter:
    // "Could not compile benchmark re: Invalid escape in regular expression") than a damaged file.
    return model::Error{
        fmt::format("{} ({}) exited without a readable result{}: {}", what, executable,
                    lines.empty() ? "" : " after writing to standard error: " + tail_of(lines),
                    run.error().message),
        model::ErrorKind::failed};
  }
  return run;
}

// The names on standard output of `--benchmark_list_tests=true`, one a line. Any character but
// a newline can be in a name (a capture's "Dump/twitter / -", a template's "<int, long>", a
// name given to RegisterBenchmark).
std::vector<std::string> listed_names(const std::string& out) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < out.size()) {
    std::size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    std::string line = out.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) names.push_back(std::move(line));
    start = end + 1;
  }
  return names;
}

// `lines` less each of `own` once (the first of equal lines), in their order.
std::vector<std::string> without_lines(std::vector<std::string> lines,
                                       const std::vector<std::string>& own) {
  for (const std::string& line : own) {
    const auto found = std::find(lines.begin(), lines.end(), line);
    if (found != lines.end()) lines.erase(found);
  }
  return lines;
}

// `names` without repeats, each where it first appears.
std::vector<std::string> first_of_each(const std::vector<std::string>& names) {
  std::vector<std::string> first;
  std::unordered_set<std::string> seen;
  for (const std::string& name : names) {
    if (seen.insert(name).second) first.push_back(name);
  }
  return first;
}

// Whether `names` is Google Benchmark's console table rather than a list: a program that ran
// its benchmarks instead of listing them prints a rule of dashes and a "Benchmark  Time  CPU"
// heading.
bool looks_like_a_table(const std::vector<std::string>& names) {
  return std::any_of(names.begin(), names.end(), [](const std::string& line) {
    return line.size() >= 20 && line.find_first_not_of('-') == std::string::npos;
  });
}

// A filter no benchmark name matches: the first probe asks for the list of nothing.
constexpr const char* kMatchesNothing = "^benchkit probe: matches no benchmark$";
// What Google Benchmark writes to standard error when a filter matches nothing (1.5 to 1.9).
constexpr std::string_view kNoMatch = "Failed to match any benchmarks against regex";

// Listing runs no benchmark, but a suite's own main() may do much before it reads its flags:
// spdlog's latency suite (bench/latency.cpp) fills a queue of 3 million messages first, and took
// 31 s to list on the loaded 2-vCPU development VM. 60 s lets such a suite answer; a program that
// took the flags as a request to do real work is still stopped.
constexpr auto kListTimeout = std::chrono::seconds(60);

struct Listing {
  process::Captured ran;
  std::vector<std::string> err;  // its standard error, banner left out
  bool no_match = false;         // it said its filter matched nothing
};

// The user's arguments a listing gets too: the suite's own, which its main() reads (spdlog's
// latency suite registers more benchmarks when argv[1] is "full"), and Google Benchmark's flags
// but those the listing sets itself (filter, list, output). A main() may act on the flags given:
// NumKong's adds --benchmark_min_time=10s unless one is given, which Google Benchmark 1.7 reads
// as no number, so without the user's --benchmark_min_time=0.1 its listing failed.
std::vector<std::string> listing_arguments(const std::vector<std::string>& flags) {
  std::vector<std::string> kept;
  for (const std::string& flag : flags) {
    const std::string name = flag.substr(0, flag.find('='));
    if (name == "--benchmark_filter" || name == "--benchmark_list_tests" ||
        name == "--benchmark_out" || name == "--benchmark_out_format" ||
        name == "--benchmark_format") {
      continue;
    }
    kept.push_back(flag);
  }
  return kept;
}

// A listing's command line as the messages show it.
std::string listing_command(const std::string& path, const std::vector<std::string>& own,
                            const std::string& filter) {
  std::string text = path;
  for (const std::string& argument : own) text += " " + argument;
  text += " --benchmark_list_tests=true";
  if (!filter.empty()) text += fmt::format(" --benchmark_filter=\"{}\"", filter);
  return text;
}

model::Result<Listing> list_with(const std::string& path, const std::vector<std::string>& own,
                                 const std::string& filter) {
  auto folder = process::make_temporary_folder("benchkit-gbench-list");
  if (!folder) return folder.error();
  const process::FolderRemover remover(*folder);
  process::CaptureOptions options;
  options.timeout = kListTimeout;
  options.err_file = *folder + "/stderr";
  std::vector<std::string> argv = {path};
  argv.insert(argv.end(), own.begin(), own.end());
  argv.push_back("--benchmark_list_tests=true");
  if (!filter.empty()) argv.push_back("--benchmark_filter=" + filter);
  auto ran = process::run_captured(argv, options);
  if (!ran) return ran.error();
  Listing listing{std::move(*ran), {}, false};
  std::ifstream in(options.err_file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(kNoMatch) != std::string::npos) listing.no_match = true;
    if (!is_gbench_banner_line(line)) listing.err.push_back(line);
  }
  return listing;
}

// Google Benchmark's flags (1.7 and 1.8), for the one a refused flag likely misspells.
const std::vector<std::string> kGbenchFlags = {"--benchmark_list_tests",
                                               "--benchmark_filter",
                                               "--benchmark_min_time",
                                               "--benchmark_min_warmup_time",
                                               "--benchmark_repetitions",
                                               "--benchmark_enable_random_interleaving",
                                               "--benchmark_report_aggregates_only",
                                               "--benchmark_display_aggregates_only",
                                               "--benchmark_format",
                                               "--benchmark_out",
                                               "--benchmark_out_format",
                                               "--benchmark_color",
                                               "--benchmark_counters_tabular",
                                               "--benchmark_context",
                                               "--benchmark_time_unit",
                                               "--benchmark_perf_counters",
                                               "--benchmark_dry_run"};

// What a listing that went wrong did, for the message: timed out, failed (naming the flag of
// `given`, the user's, that the suite refused, if it did, first: the command benchkit ran to list
// it only after), or printed a table.
std::optional<std::string> listing_problem(const Listing& listing, const std::string& asked,
                                           const std::vector<std::string>& given) {
  if (listing.ran.timed_out) {
    return fmt::format("{} did not answer within {} s (it ran benchmarks instead?)", asked,
                       kListTimeout.count());
  }
  if (!listing.ran.exit.ok()) {
    // What it said, from standard error or else standard output (spdlog's logger writes there).
    const std::vector<std::string> out = listed_names(listing.ran.out);
    const std::string said = !listing.err.empty() ? ": " + tail_of(listing.err)
                             : !out.empty()       ? "; its standard output ends: " + tail_of(out)
                                                  : "";
    // A flag given after -- that this suite's Google Benchmark refuses (a flag of a newer
    // release, a value spelt as another release reads it): that flag is what to mend.
    for (const std::string& flag : given) {
      if (flag.starts_with("--benchmark_") && said.find(flag) != std::string::npos) {
        const auto meant = model::likely_meant(flag.substr(0, flag.find('=')), kGbenchFlags);
        return fmt::format(
            "the flag {} given after -- was refused: this suite's Google Benchmark does not read "
            "it so{}; leave it out or spell it as that release does ({} {}{})",
            flag, meant ? fmt::format(" (did you mean {}?)", *meant) : "", asked,
            listing.ran.exit.describe(), said);
      }
    }
    return fmt::format(
        "{} {}{} (benchkit gives a Google Benchmark suite flags of its own, "
        "--benchmark_list_tests, --benchmark_filter and --benchmark_out, after the arguments "
        "given after --: its main() must hand them to benchmark::Initialize)",
        asked, listing.ran.exit.describe(), said);
  }
  if (looks_like_a_table(listed_names(listing.ran.out))) {
    return fmt::format("{} ran benchmarks instead of listing them", asked);
  }
  return std::nullopt;
}

// The user's --benchmark_filter among `flags` (the last one wins, as in Google Benchmark).
std::string user_filter(const std::vector<std::string>& flags) {
  std::string filter;
  for (const std::string& flag : flags) {
    if (flag.rfind("--benchmark_filter=", 0) == 0) filter = flag.substr(19);
  }
  return filter;
}

// A flag of the user's that would take from benchkit what it gives each process (the results
// file it reads back), or make the process list instead of run: refused, with what to use.
std::optional<model::Error> claimed_flag(const std::vector<std::string>& flags) {
  for (const std::string& flag : flags) {
    const std::string name = flag.substr(0, flag.find('='));
    if (name == "--benchmark_out" || name == "--benchmark_out_format") {
      return model::Error{
          fmt::format("{}: benchkit gives every process a results file of its own and merges "
                      "them; leave it out, and write the merged results with --export-json FILE "
                      "(benchkit run) or --out FILE (benchkit compare), as Google Benchmark JSON "
                      "with benchkit report FILE --format gbench",
                      flag),
          model::ErrorKind::usage};
    }
    if (name == "--benchmark_list_tests") {
      return model::Error{fmt::format("{}: benchkit runs the benchmarks; to list them, run the "
                                      "binary itself with --benchmark_list_tests=true",
                                      flag),
                          model::ErrorKind::usage};
    }
  }
  return std::nullopt;
}

// Whether the user's `flags` give Google Benchmark's flag `name` (alone or with =VALUE).
bool gives(const std::vector<std::string>& flags, std::string_view name) {
  return std::any_of(flags.begin(), flags.end(), [name](const std::string& flag) {
    return flag.rfind(name, 0) == 0 && (flag.size() == name.size() || flag[name.size()] == '=');
  });
}

// The time limit of a process that runs `count` benchmarks given `flags`: `per_benchmark` for
// each, and three times what the flags' repetitions of their minimum time ask of each (Google
// Benchmark's 0.5 s when they give none). None without `per_benchmark`, or when a flag asks for
// a count of iterations ("100x"), whose length nothing here knows.
std::optional<std::chrono::milliseconds> process_allowance(
    std::optional<std::chrono::milliseconds> per_benchmark, const std::vector<std::string>& flags,
    std::size_t count) {
  if (!per_benchmark) return std::nullopt;
  double min_time_s = 0.5;
  double repetitions = 1.0;
  for (const std::string& flag : flags) {
    const std::string value = flag.substr(flag.find('=') + 1);
    if (flag.rfind("--benchmark_min_time=", 0) == 0) {
      if (!value.empty() && value.back() == 'x') return std::nullopt;
      min_time_s = std::max(0.0, std::strtod(value.c_str(), nullptr));
    } else if (flag.rfind("--benchmark_repetitions=", 0) == 0) {
      repetitions = std::max(1.0, std::strtod(value.c_str(), nullptr));
    }
  }
  const auto asked = std::chrono::milliseconds(std::llround(3000.0 * repetitions * min_time_s));
  return (*per_benchmark + asked) * static_cast<long>(std::max<std::size_t>(1, count));
}

}  // namespace

bool gbench_repetitions_follow_iterations(const std::vector<std::string>& flags) {
  return !gives(flags, "--benchmark_repetitions") && !gives(flags, "--benchmark_min_time");
}

std::optional<double> gbench_process_min_time(const std::vector<std::string>& flags,
                                              std::size_t processes) {
  if (processes <= 1 || gives(flags, "--benchmark_min_time")) return std::nullopt;
  return kGbenchMinTimeS / static_cast<double>(processes);
}

namespace {

// The positive whole number that part `key` of the benchmark `name` holds ("iterations:1000",
// "threads:2"); nothing when there is no such part, or it holds anything else.
std::optional<std::uint64_t> name_count(const std::string& name, std::string_view key) {
  const auto text = name_part(name, key);
  if (!text) return std::nullopt;
  std::uint64_t count = 0;
  const char* last = text->data() + text->size();
  const auto [end, error] = std::from_chars(text->data(), last, count);
  if (error != std::errc() || end != last || count == 0) return std::nullopt;
  return count;
}

}  // namespace

std::optional<std::uint64_t> fixed_gbench_iterations(const std::string& name) {
  return name_count(name, "iterations:");
}

namespace {

// The minimum time, in seconds, that a benchmark's code sets, read from its name ("/min_time:S",
// as Google Benchmark names a benchmark with ->MinTime(S)); nothing when it sets none.
std::optional<double> code_min_time_s(const std::string& name) {
  const auto part = name_part(name, "min_time:");
  if (!part) return std::nullopt;
  const std::string text(*part);
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(seconds > 0.0)) return std::nullopt;
  return seconds;
}

// How long a repetition of the benchmark `name` lasts when its code fixes it, whatever the min
// time benchkit gives: its iterations times `iteration_ns`, or its own minimum time.
std::optional<double> code_repetition_ns(const std::string& name,
                                         std::optional<double> iteration_ns) {
  if (const auto iterations = fixed_gbench_iterations(name)) {
    if (iteration_ns && *iteration_ns > 0.0) {
      return static_cast<double>(*iterations) * *iteration_ns;
    }
    return std::nullopt;
  }
  if (const auto seconds = code_min_time_s(name)) return *seconds * 1e9;
  return std::nullopt;
}

}  // namespace

std::vector<std::string> gbench_turn_flags(const std::vector<std::string>& flags,
                                           std::optional<double> iteration_ns,
                                           const std::string& name) {
  if (const auto repetition_ns = code_repetition_ns(name, iteration_ns)) {
    if (gives(flags, "--benchmark_repetitions")) return {};
    const double wanted_ns = kGbenchTurnRepetitions * kGbenchTurnMinTimeS * 1e9;
    const long repetitions =
        std::clamp(std::lround(wanted_ns / *repetition_ns), 1L, long{kMostCodeRepetitions});
    return {fmt::format("--benchmark_repetitions={}", repetitions)};
  }
  std::vector<std::string> added;
  if (!gives(flags, "--benchmark_repetitions")) {
    added.push_back(fmt::format("--benchmark_repetitions={}", kGbenchTurnRepetitions));
  }
  if (!gives(flags, "--benchmark_min_time")) {
    added.push_back(fmt::format("--benchmark_min_time={:g}", gbench_threads(name) > 1
                                                                 ? kThreadedTurnMinTimeS
                                                                 : kGbenchTurnMinTimeS));
  }
  return added;
}

std::size_t gbench_threads(const std::string& name) {
  return static_cast<std::size_t>(name_count(name, "threads:").value_or(1));
}

model::Result<std::vector<std::string>> list_gbench_benchmarks(
    const std::string& path, const std::vector<std::string>& flags, double* start_s) {
  if (auto claimed = claimed_flag(flags)) return *claimed;
  const auto started = std::chrono::steady_clock::now();
  // First the list of nothing: a program that takes Google Benchmark's flags runs nothing and
  // says its filter matched nothing. One that ignores them is found out before it is asked for
  // the real list (with only its own main() between the flags and its benchmarks, nothing can
  // be done about such a program beyond the time limit).
  const std::vector<std::string> own = listing_arguments(flags);
  const std::string probe = listing_command(path, own, kMatchesNothing);
  const auto nothing = list_with(path, own, kMatchesNothing);
  if (!nothing) return nothing.error();
  if (auto problem = listing_problem(*nothing, probe, own)) return model::Error{*problem};
  if (!nothing->no_match) {
    return model::Error{fmt::format(
        "{} did not answer as Google Benchmark does: a Google Benchmark suite lists nothing "
        "and says \"{}\" on standard error",
        probe, kNoMatch)};
  }
  // What the suite prints on standard output of its own, whatever it is asked (a main() that
  // says how it is set up; google/benchmark's multiple_ranges_test, whose fixture prints its
  // checks at exit): the list of nothing holds only that, and it is taken out of the list.
  const std::vector<std::string> own_lines = listed_names(nothing->ran.out);
  const std::string filter = user_filter(flags);
  const std::string asked = listing_command(path, own, filter);
  const auto listing = list_with(path, own, filter);
  if (!listing) return listing.error();
  if (auto problem = listing_problem(*listing, asked, own)) return model::Error{*problem};
  // A name registered more than once (google/benchmark's options_test registers BM_basic/1 six
  // times) is one row: no filter can tell its registrations apart, so each process runs them all.
  std::vector<std::string> names =
      first_of_each(without_lines(listed_names(listing->ran.out), own_lines));
  if (names.empty() && !filter.empty()) {
    return model::Error{
        fmt::format("--benchmark_filter=\"{}\" matches no benchmark of {}: see its benchmarks "
                    "with {}, and give a regular expression that matches some of them",
                    filter, path, listing_command(path, own, "")),
        model::ErrorKind::usage};
  }
  if (names.empty()) {
    return model::Error{fmt::format("{} --benchmark_list_tests listed no benchmark", path)};
  }
  if (start_s) {
    *start_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() / 2;
  }
  return names;
}

bool is_gbench_banner_line(std::string_view line) {
  // Google Benchmark's ReportContext (1.5 to 1.9) writes these before its first result.
  static const std::regex kBanner(
      R"(^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d.*|Running .*|Run on \(.*|CPU Caches:.*|\s+L\d .*|)"
      R"(Load Average:.*|\*\*\*WARNING\*\*\*.*|\s*)$)");
  return std::regex_match(line.begin(), line.end(), kBanner);
}

std::string exact_gbench_filter(const std::string& name) {
  std::string pattern = "^";
  for (const char c : name) {
    // The characters special in an extended regular expression outside brackets. Not `]` and
    // `}`, literal there, whose escapes Google Benchmark 1.7.1's regex refuses ("Invalid escape":
    // spdlog's formatter-bench has "[%D %X] [%l] [%n] %v/iterations:2500000").
    if (std::string_view("\\^$.|?*+()[{").find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  return pattern + "$";
}

namespace {

// A --benchmark_filter that matches exactly the benchmarks `names`, each as exact_gbench_filter.
std::string exact_gbench_filter_of(const std::vector<std::string>& names) {
  std::string filter;
  for (const std::string& name : names) {
    filter += (filter.empty() ? "" : "|") + exact_gbench_filter(name);
  }
  return filter;
}

// What Google Benchmark 1.8 and later log, without a newline, for each benchmark given a bare
// number of seconds: "-- LOG(0): Value passed to --benchmark_min_time should have a suffix. Eg.,
// `30s` for 30-seconds."
constexpr std::string_view kAsksForSuffix =
    "Value passed to --benchmark_min_time should have a suffix.";
constexpr std::string_view kLogPrefix = "-- LOG(0): ";
constexpr std::string_view kRequestEnd = "for 30-seconds.";

// `line` with every request for the suffix cut out; whether there was one.
bool cut_requests(std::string& line) {
  bool found = false;
  for (std::size_t at = line.find(kAsksForSuffix); at != std::string::npos;
       at = line.find(kAsksForSuffix, at)) {
    found = true;
    std::size_t from = at;
    if (from >= kLogPrefix.size() &&
        line.compare(from - kLogPrefix.size(), kLogPrefix.size(), kLogPrefix) == 0) {
      from -= kLogPrefix.size();
    }
    const std::size_t end = line.find(kRequestEnd, at);
    const std::size_t to = end == std::string::npos ? line.size() : end + kRequestEnd.size();
    line.erase(from, to - from);
    at = from;
  }
  return found;
}

}  // namespace

std::vector<std::string> MinTimeSpelling::spelled(std::vector<std::string> flags) const {
  constexpr std::string_view kFlag = "--benchmark_min_time=";
  if (!reads_suffix_) return flags;
  for (std::string& flag : flags) {
    if (flag.rfind(kFlag, 0) != 0 || flag.size() == kFlag.size()) continue;
    const char last = flag.back();
    if (last != 's' && last != 'x') flag += 's';
  }
  return flags;
}

std::vector<std::string> MinTimeSpelling::heard(std::vector<std::string> lines) {
  std::vector<std::string> kept;
  for (std::string& line : lines) {
    if (!cut_requests(line)) {
      kept.push_back(std::move(line));
      continue;
    }
    reads_suffix_ = true;
    if (line.find_first_not_of(" \t") != std::string::npos) kept.push_back(std::move(line));
  }
  return kept;
}

namespace {

// What the code of the benchmarks `names` sets that no flag changes, as their names show it
// (->Repetitions(N): "/repeats:N"; ->MinTime(S): "/min_time:S"), for a run of `processes` fresh
// processes (0: side by side, a process per round and side): a note, so that benchkit's shapes
// and shares of Google Benchmark's time are not taken for theirs; nothing when none does.
std::optional<std::string> code_settings_note(const std::vector<std::string>& names,
                                              std::size_t processes) {
  const auto with = [&](std::string_view key) {
    return std::count_if(names.begin(), names.end(),
                         [&](const std::string& name) { return name_part(name, key).has_value(); });
  };
  std::vector<std::string> parts;
  // Fresh processes share Google Benchmark's time per repetition whatever the count: said only
  // side by side, where a process's repetitions are benchkit's choice.
  if (const auto own = with("repeats:"); own > 0 && processes == 0) {
    parts.push_back(fmt::format(
        "{} of {} benchmarks set their repetitions in their code (/repeats:N in the name), "
        "which no flag changes: a process runs that many, each of the length chosen above",
        own, names.size()));
  }
  if (const auto own = with("iterations:"); own > 0 && processes == 0) {
    parts.push_back(fmt::format(
        "{} of {} benchmarks set their iterations in their code (/iterations:N in the name), "
        "which no flag changes: a process runs as many repetitions of them as fill {} of {:g} "
        "ms (one at least, {} at most)",
        own, names.size(), kGbenchTurnRepetitions, 1000.0 * kGbenchTurnMinTimeS,
        kMostCodeRepetitions));
  }
  if (const auto own = with("min_time:"); own > 0) {
    parts.push_back(fmt::format(
        "{} of {} benchmarks set their minimum time in their code (/min_time:S in the name), "
        "which no flag changes: each of their repetitions runs that long in every process{}",
        own, names.size(),
        processes > 1 ? fmt::format(", so they take {} times as long as in the suite's own run "
                                    "(--processes 1 for its time)",
                                    processes)
        : processes == 0
            ? fmt::format(", and a process gets as many as fill {} of {:g} ms (one at least)",
                          kGbenchTurnRepetitions, 1000.0 * kGbenchTurnMinTimeS)
            : ""));
  }
  if (parts.empty()) return std::nullopt;
  std::string note = parts.front();
  for (std::size_t k = 1; k < parts.size(); ++k) note += "; " + parts[k];
  return note;
}

}  // namespace

namespace {

// The processes of `benchkit run ./gb_suite`: each runs every benchmark left. A process that
// fails (a benchmark crashed, exited or hung) runs again one benchmark a process, so that only
// the benchmark that failed fails: it is kept as a failed result and left out of the later
// processes, which then name the benchmarks left with exact filters (as many processes as those
// take at kLongestGbenchFilter each; their results are the process's).
class GbenchRunProcesses {
 public:
  GbenchRunProcesses(const GbenchProcesses& plan, std::vector<std::string> flags,
                     std::vector<std::string> names, std::string folder)
      : plan_(plan),
        flags_(std::move(flags)),
        names_(std::move(names)),
        folder_(std::move(folder)),
        notes_(plan.note) {}

  // Process `index` of `total`: its run, or the error that stops the whole run (Ctrl-C, or every
  // benchmark failed).
  std::optional<model::Error> run(std::size_t index, std::size_t total) {
    const std::string what = fmt::format("process {} of {}", index + 1, total);
    RunResult process;
    std::vector<std::string> left;
    const bool by_name = !failed_.empty();
    for (const std::vector<std::string>& part : parts()) {
      if (auto stopped = run_part(part, by_name, index, what, process, left)) return stopped;
    }
    names_ = std::move(left);
    if (!process.benchmarks.empty()) runs_.push_back(std::move(process));
    if (names_.empty()) return first_failure_;
    return std::nullopt;
  }

  // The processes finished so far, merged, with the benchmarks that failed.
  RunResult merged() const {
    RunResult merged = model::merge_processes(runs_);
    for (const BenchmarkResult& failed : failed_) merged.benchmarks.push_back(failed);
    return merged;
  }
  bool any_finished() const { return !runs_.empty(); }

 private:
  // The benchmarks left, as the processes of one process index run them: all in one, as the
  // user's flags select them, until one failed; then named, as many as a filter holds.
  std::vector<std::vector<std::string>> parts() const {
    if (failed_.empty()) return {names_};
    std::vector<std::size_t> all(names_.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    std::vector<std::vector<std::string>> parts;
    for (const std::vector<std::size_t>& group : filter_groups(
             all, [&](std::size_t k) { return names_[k]; }, [](std::size_t) { return 0; })) {
      parts.emplace_back();
      for (const std::size_t k : group) parts.back().push_back(names_[k]);
    }
    return parts;
  }

  // One process of the benchmarks `part` of process `index` (`what`), named by exact filters when
  // `by_name`, else as the user's flags select them; its results go into `process`, the names of
  // those that ran into `left`. A process of several that fails runs again one benchmark a
  // process, so that only the one that failed fails. The error is Ctrl-C's.
  std::optional<model::Error> run_part(const std::vector<std::string>& part, bool by_name,
                                       std::size_t index, const std::string& what,
                                       RunResult& process, std::vector<std::string>& left) {
    const bool several = part.size() > 1;
    Failure failure;
    auto run = one(by_name ? part : std::vector<std::string>{},
                   fmt::format("{}/process-{}-{}.json", folder_, index, runs_made_++),
                   several ? what : fmt::format("{}, {} alone", what, part.front()), part.size(),
                   &failure);
    if (!run && run.error().kind == model::ErrorKind::interrupted) return run.error();
    if (run) {
      take(process, std::move(*run));
      left.insert(left.end(), part.begin(), part.end());
      return std::nullopt;
    }
    if (!first_failure_) first_failure_ = run.error();
    if (!several) {
      fail(part.front(), run.error(), failure);
      return std::nullopt;
    }
    for (const std::string& name : part) {
      if (auto stopped = run_part({name}, true, index, what, process, left)) return stopped;
    }
    return std::nullopt;
  }

  // One process of the benchmarks `names` (none: the user's selection).
  model::Result<RunResult> one(const std::vector<std::string>& names, const std::string& out,
                               const std::string& what, std::size_t count, Failure* failure) {
    std::vector<std::string> given = flags_;
    if (!names.empty()) given.push_back("--benchmark_filter=" + exact_gbench_filter_of(names));
    MinTimeSpelling* spelling = nullptr;
    if (plan_.min_time_s) {
      const std::vector<std::string> added =
          spelling_.spelled({fmt::format("--benchmark_min_time={:g}", *plan_.min_time_s)});
      given.insert(given.end(), added.begin(), added.end());
      spelling = &spelling_;
    }
    return run_one_process(plan_.executable, given, out, what, notes_.sink(), std::nullopt,
                           spelling, process_allowance(plan_.timeout, given, count), failure);
  }

  // `run` into `process`, one process index's results: the first whole, the benchmarks and
  // Google Benchmark's fits of those after it.
  static void take(RunResult& process, RunResult run) {
    if (process.benchmarks.empty()) {
      process = std::move(run);
      return;
    }
    for (BenchmarkResult& result : run.benchmarks) process.benchmarks.push_back(std::move(result));
    for (ComplexityResult& fit : run.complexity) process.complexity.push_back(std::move(fit));
  }

  void fail(const std::string& name, const model::Error& error, const Failure& failure) {
    BenchmarkResult failed;
    failed.name = name;
    failed.failures.push_back(error.message);
    failed.failure = failure;
    failed_.push_back(std::move(failed));
  }

  const GbenchProcesses& plan_;
  const std::vector<std::string> flags_;
  std::vector<std::string> names_;  // the benchmarks left to run
  const std::string folder_;
  OnceNotes notes_;
  MinTimeSpelling spelling_;
  std::vector<RunResult> runs_;  // one a process index
  std::size_t runs_made_ = 0;    // processes started, for their files' names
  std::vector<BenchmarkResult> failed_;
  std::optional<model::Error> first_failure_;
};

// The names of `listed` that --filter `pattern` keeps (session::NameFilter); the error says when
// it is no regular expression or keeps none of `executable`'s.
model::Result<std::vector<std::string>> filtered_names(const std::vector<std::string>& listed,
                                                       const std::string& pattern,
                                                       const std::string& executable) {
  const auto filter = parse_name_filter(pattern, "--filter");
  if (!filter) return filter.error();
  std::vector<std::string> kept;
  for (const std::string& name : listed) {
    if (!*filter || (*filter)->keeps(name)) kept.push_back(name);
  }
  if (kept.empty()) {
    return model::Error{fmt::format("--filter \"{}\" matches no benchmark of {}: see them with "
                                    "{} --benchmark_list_tests",
                                    pattern, executable, executable),
                        model::ErrorKind::usage};
  }
  return kept;
}

}  // namespace

std::string slow_start_note(const std::string& executable, double start_s, std::size_t processes) {
  return fmt::format(
      "a process of {} took {:.1f} s to start (timed as it listed the benchmarks: its main() "
      "runs before any benchmark): each of the {} processes pays it again, about {:.0f} s of "
      "the run (--processes N sets how many)",
      executable, start_s, processes, start_s * static_cast<double>(processes));
}

model::Result<RunResult> run_gbench_processes(const GbenchProcesses& plan) {
  // Listed first: a filter that matches nothing is said as such (Google Benchmark then writes
  // no result file), before any process runs.
  double start_s = 0.0;
  auto listed = list_gbench_benchmarks(plan.executable, plan.flags, &start_s);
  if (!listed) return listed.error();
  if (plan.note && plan.processes > 1 && start_s >= plan.say_start_from_s) {
    plan.note(slow_start_note(plan.executable, start_s, plan.processes));
  }
  if (!plan.filter.empty()) {
    auto kept = filtered_names(*listed, plan.filter, plan.executable);
    if (!kept) return kept.error();
    *listed = std::move(*kept);
  }
  std::vector<std::string> names = *listed;
  std::optional<Shard> shard;
  if (plan.shard) {
    names = names_in_shard(*listed, *plan.shard);
    shard = shard_record(*plan.shard, names.size(), listed->size());
    if (plan.note) plan.note(describe_shard(*shard));
    if (names.empty()) {
      RunResult nothing;
      nothing.context.shard = shard;
      return nothing;
    }
  }
  // Narrowed by --filter or --shard: each process is told the names kept.
  std::vector<std::string> flags = plan.flags;
  if (!plan.filter.empty() || plan.shard) {
    flags.push_back("--benchmark_filter=" + exact_gbench_filter_of(names));
  }
  const RunScope scope("benchkit-gbench");
  const auto& made = scope.folder();
  if (!made) return made.error();
  const std::size_t total = std::max<std::size_t>(1, plan.processes);
  if (plan.note) {
    if (auto note = code_settings_note(names, total)) plan.note(*note);
  }
  GbenchRunProcesses processes(plan, std::move(flags), std::move(names), *made);
  // What Google Benchmark's file leaves out of the context and benchkit, running it here, knows:
  // the operating system, the kernel and the CPU's model (a result of cctz's suite had them
  // empty, which a history or a comparison of machines then could not tell apart).
  const Context here = system::collect_context(/*identify_executable=*/false);
  // The processes so far as the run's result: merged, estimated, diagnosed.
  const auto merged = [&processes, &shard, &here] {
    RunResult run = processes.merged();
    analysis::compute_estimates(run);
    analysis::diagnose_processes(run);
    run.context.shard = shard;
    for (const auto& [field, known] :
         {std::pair{&run.context.os, &here.os}, std::pair{&run.context.kernel, &here.kernel},
          std::pair{&run.context.cpu_model, &here.cpu_model}}) {
      if (field->empty()) *field = *known;
    }
    return run;
  };
  for (std::size_t index = 0; index < total; ++index) {
    if (plan.progress) plan.progress(index, total);
    if (auto stopped = processes.run(index, total)) {
      const bool keep = stopped->kind == model::ErrorKind::interrupted && plan.interrupted &&
                        processes.any_finished();
      if (!keep) return *stopped;
      *plan.interrupted = true;
      break;
    }
    if (plan.checkpoint && index + 1 < total) plan.checkpoint(merged());
  }
  return merged();
}

namespace {

// One side-by-side comparison of two Google Benchmark builds in progress: per side and
// benchmark, the samples of every round so far.
class GbenchPairs {
 public:
  GbenchPairs(const GbenchSideBySide& plan, std::string folder)
      : plan_(plan),
        folder_(std::move(folder)),
        notes_(plan.note),
        cpus_(plan.cpus.empty() ? process::allowed_cpus() : plan.cpus) {
    for (std::size_t side = 0; side < 2; ++side) {
      for (const std::string& name : plan.benchmarks) {
        BenchmarkResult result;
        result.name = name;
        merged_[side].push_back(std::move(result));
      }
    }
  }

  // A benchmark that a build does not list fails on that side before anything runs (Google
  // Benchmark writes no result for a filter that matches nothing), unless the caller listed
  // both builds already (GbenchSideBySide::listed_start_s).
  std::optional<model::Error> check_listed() {
    const std::string sources[] = {plan_.baseline_executable, plan_.candidate_executable};
    if (plan_.listed_start_s) {
      start_s_ = *plan_.listed_start_s;
      return std::nullopt;
    }
    for (std::size_t side = 0; side < 2; ++side) {
      const auto listed = list_gbench_benchmarks(sources[side], plan_.flags, &start_s_[side]);
      if (!listed) return listed.error();
      for (BenchmarkResult& result : merged_[side]) {
        if (std::find(listed->begin(), listed->end(), result.name) == listed->end()) {
          result.failures.push_back(fmt::format(
              "the {} build {} has no benchmark named {} (its --benchmark_list_tests does not "
              "list it)",
              kSideNames[side], sources[side], result.name));
        }
      }
    }
    return std::nullopt;
  }

  // Before the first round, when a benchmark's code fixes its iterations (/iterations:N), whose
  // repetitions therefore depend on how long an iteration takes (gbench_turn_flags): one process
  // of the baseline runs each such benchmark twice for 1 ms and times its iterations, the faster
  // of the two kept. Once was not enough on a loaded machine: Google Benchmark's search for an
  // iteration count starts with one iteration and stops as soon as a try lasts the minimum time,
  // so a process preempted for a millisecond during that one iteration reports it as an
  // iteration of over a millisecond (a benchmark of 14 ns was taken for one of 500 µs or more).
  // A pilot that fails decides nothing (those benchmarks keep kGbenchTurnRepetitions, a note
  // says why, and the first round fails if the builds do); only Ctrl-C stops here.
  std::optional<model::Error> time_iterations() {
    iteration_ns_.assign(plan_.benchmarks.size(), std::nullopt);
    if (!plan_.turn_flags || plan_.benchmarks.empty() ||
        !gbench_repetitions_follow_iterations(plan_.flags)) {
      return std::nullopt;
    }
    if (const auto say = notes_.sink()) {
      if (auto note = code_settings_note(plan_.benchmarks, 0)) say(*note);
    }
    std::vector<std::string> fixed;
    for (const std::string& name : plan_.benchmarks) {
      if (fixed_gbench_iterations(name)) fixed.push_back(name);
    }
    const std::string filter = exact_gbench_filter_of(fixed);
    if (fixed.empty() || filter.size() > kLongestGbenchFilter) return std::nullopt;
    std::vector<std::string> flags = plan_.flags;
    flags.insert(flags.end(), {"--benchmark_repetitions=2", "--benchmark_min_time=0.001",
                               "--benchmark_filter=" + filter});
    const auto pilot = run_one_process(
        plan_.baseline_executable, flags, folder_ + "/pilot.json",
        // The error adds the executable's path: "...once (PATH) exited with status 1".
        "the baseline build's run timing each benchmark's iterations once", notes_.sink(),
        round_cpu(cpus_, 0, fixed.front()), &spelling_[0],
        process_allowance(plan_.timeout, flags, fixed.size()));
    if (!pilot) {
      if (pilot.error().kind == model::ErrorKind::interrupted) return pilot.error();
      if (const auto say = notes_.sink()) {
        say(fmt::format(
            "timing the iterations of the benchmarks that fix their iterations failed before "
            "the first round, so each of them runs {} repetitions a process: {}",
            kGbenchTurnRepetitions, pilot.error().message));
      }
      return std::nullopt;
    }
    for (const BenchmarkResult& result : pilot->benchmarks) {
      const auto at = std::find(plan_.benchmarks.begin(), plan_.benchmarks.end(), result.name);
      if (at == plan_.benchmarks.end() || !result.valid() || result.samples.empty()) continue;
      const std::vector<double> times = result.per_iteration_ns();
      iteration_ns_[at - plan_.benchmarks.begin()] = *std::min_element(times.begin(), times.end());
    }
    return std::nullopt;
  }

  // A suite slow to start (its main() builds what its benchmarks share before any of them runs)
  // pays that in every process: its rounds run their benchmarks together, one process a build.
  void choose_processes() {
    // The faster build's: a process held up once by other work on the machine is not a suite
    // slow to start (both builds' main() do the same set-up).
    const double start_s = std::min(start_s_[0], start_s_[1]);
    together_ = plan_.benchmarks.size() > 1 && start_s >= plan_.together_from_s;
    // Together whatever the start (compare --together): nothing to explain.
    if (!together_ || plan_.together_from_s <= 0.0) return;
    if (const auto say = notes_.sink()) {
      say(fmt::format(
          "a process of these builds took {:.2f} s to start (timed as it listed the benchmarks), "
          "so each round runs its benchmarks together, one process a build, instead of a "
          "process a benchmark: each follows the others in its process, alike in both builds",
          start_s));
    }
  }

  // Round `round` of the benchmarks at `active` (indices into plan.benchmarks).
  std::optional<model::Error> run_round(std::size_t round, std::size_t planned,
                                        const std::vector<std::size_t>& active) {
    if (auto failed =
            copy_builds(folder_, round, {plan_.baseline_executable, plan_.candidate_executable},
                        shuffle_, executables_)) {
      return *failed;
    }
    std::size_t done = 0;
    for (const std::vector<std::size_t>& together : process_groups(round, active)) {
      if (plan_.progress) {
        plan_.progress(round, planned, done, active.size(), plan_.benchmarks[together.front()]);
      }
      done += together.size();
      // Neither build always runs first: the order alternates by round and by benchmark.
      const std::size_t first = (round + together.front()) % 2;
      for (const std::size_t side : {first, 1 - first}) {
        if (auto failed = run_side(round, planned, together, side, side == first ? 0 : 1)) {
          // Ctrl-C: the processes of this round that finished are left out (the round loop
          // keeps the rounds before it).
          if (failed->kind == model::ErrorKind::interrupted) forget_round(round);
          return failed;
        }
      }
    }
    return std::nullopt;
  }

  bool valid(std::size_t index) const {
    return merged_[0][index].valid() && merged_[1][index].valid();
  }

  // Leaves out every sample of round `round` (keep() numbers them by round).
  void forget_round(std::size_t round) {
    for (std::vector<BenchmarkResult>& side : merged_) {
      for (BenchmarkResult& result : side) {
        std::erase_if(result.samples, [round](const Sample& sample) {
          return sample.round && *sample.round == round;
        });
      }
    }
  }

  // When a process failed and no benchmark is left to compare, the first such failure: a build
  // that fails whatever it runs (a flag it refuses) is one error, not one per benchmark.
  std::optional<model::Error> failed_throughout() const {
    if (!first_failure_) return std::nullopt;
    for (std::size_t index = 0; index < plan_.benchmarks.size(); ++index) {
      if (valid(index)) return std::nullopt;
    }
    return first_failure_;
  }

  SideBySideRuns result() const {
    SideBySideRuns runs;
    runs.together = together_;
    std::array<RunResult*, 2> sides = {&runs.baseline, &runs.candidate};
    for (std::size_t side = 0; side < 2; ++side) {
      sides[side]->context = contexts_[side];
      model::drop_one_process_warning(sides[side]->context);  // a process per round
      sides[side]->context.executable =
          side == 0 ? plan_.baseline_executable : plan_.candidate_executable;
      for (BenchmarkResult result : merged_[side]) {
        if (!result.valid()) result.samples.clear();
        sides[side]->benchmarks.push_back(std::move(result));
      }
      model::note_aggregates_per_process(*sides[side]);
      analysis::compute_estimates(*sides[side]);
    }
    return runs;
  }

 private:
  // The flags benchkit adds for benchmark `index` (gbench_turn_flags), before a side spells them.
  std::vector<std::string> turn_flags(std::size_t index) const {
    if (!plan_.turn_flags) return {};
    return gbench_turn_flags(plan_.flags, iteration_ns_[index], plan_.benchmarks[index]);
  }

  // The processes of a round a side: each benchmark alone, or (together_) those that take the
  // same flags and CPU together, in the order of `active`, each filter at most
  // kLongestGbenchFilter.
  std::vector<std::vector<std::size_t>> process_groups(std::size_t round,
                                                       const std::vector<std::size_t>& active) {
    std::vector<std::vector<std::size_t>> groups;
    if (!together_) {
      for (const std::size_t index : active) groups.push_back({index});
      return groups;
    }
    return filter_groups(
        active, [&](std::size_t index) { return plan_.benchmarks[index]; },
        [&](std::size_t index) {
          return std::pair{turn_flags(index), round_cpu(cpus_, round, plan_.benchmarks[index])};
        });
  }

  // One process of one side in round `round` running the benchmarks at `indices` (of one
  // process_groups group), `turn` 0 when it runs first in the round.
  std::optional<model::Error> run_side(std::size_t round, std::size_t planned,
                                       const std::vector<std::size_t>& indices, std::size_t side,
                                       std::uint32_t turn) {
    std::vector<std::size_t> live;
    std::vector<std::string> names;
    for (const std::size_t index : indices) {
      if (!merged_[side][index].valid()) continue;
      live.push_back(index);
      names.push_back(plan_.benchmarks[index]);
    }
    if (live.empty()) return std::nullopt;
    const std::string& name = plan_.benchmarks[live.front()];
    std::vector<std::string> flags = plan_.flags;
    // When benchkit gives the --benchmark_min_time, it is spelt as this side's binary reads it,
    // and what the binary says of its spelling is benchkit's to hear.
    MinTimeSpelling* spelling = nullptr;
    const std::vector<std::string> added = spelling_[side].spelled(turn_flags(live.front()));
    if (gives(added, "--benchmark_min_time")) spelling = &spelling_[side];
    flags.insert(flags.end(), added.begin(), added.end());
    flags.push_back("--benchmark_filter=" + exact_gbench_filter_of(names));
    const std::string source = side == 0 ? plan_.baseline_executable : plan_.candidate_executable;
    // Both processes of a round on one CPU, the next round on the next: the CPUs of a VM can
    // differ in speed for seconds (docs/interop.md, "One CPU a round").
    const std::optional<int> cpu = round_cpu(cpus_, round, name);
    Failure failure;
    auto run = run_one_process(
        executables_[side], flags,
        fmt::format("{}/{}-{}-{}.json", folder_, kSideFileNames[side], round, live.front()),
        fmt::format("the {} build {} (round {} of {}, {}{})", kSideNames[side], source, round + 1,
                    planned, name,
                    live.size() > 1 ? fmt::format(" and {} more", live.size() - 1) : ""),
        notes_.sink(), cpu, spelling, process_allowance(plan_.timeout, flags, live.size()),
        &failure);
    if (!run && run.error().kind == model::ErrorKind::interrupted) return run.error();
    if (!run && live.size() > 1) {
      // One of them took the process down (or held it past its time): each alone, so that only
      // that one fails.
      for (const std::size_t index : live) {
        if (auto stopped = run_side(round, planned, {index}, side, turn)) return stopped;
      }
      return std::nullopt;
    }
    if (!run) {
      // This benchmark fails on this side and gets no more rounds; the others go on.
      merged_[side][live.front()].failures.push_back(run.error().message);
      merged_[side][live.front()].failure = failure;
      if (!first_failure_) first_failure_ = run.error();
      return std::nullopt;
    }
    if (contexts_[side].date.empty()) contexts_[side] = run->context;
    for (const std::size_t index : live) keep(*run, index, side, round, turn);
    return std::nullopt;
  }

  // What benchmark `index` gave in `run`, a process of `side` in round `round`.
  void keep(const RunResult& run, std::size_t index, std::size_t side, std::size_t round,
            std::uint32_t turn) {
    const std::string& name = plan_.benchmarks[index];
    BenchmarkResult& into = merged_[side][index];
    const auto named = [&](const BenchmarkResult& b) { return b.name == name; };
    const auto found = std::find_if(run.benchmarks.begin(), run.benchmarks.end(), named);
    if (found == run.benchmarks.end()) {
      into.failures.push_back(fmt::format(
          "the {} build has no benchmark named {} (its --benchmark_filter matched nothing)",
          kSideNames[side], name));
      return;
    }
    // The counters: the mean over every round's samples (model::merge_counters), not the last
    // round's.
    model::merge_counters(into, into.samples.size(), *found, found->samples.size());
    // Every registration of the name (first_of_each): their samples together, as `benchkit run`
    // merges them.
    for (auto each = found; each != run.benchmarks.end();
         each = std::find_if(each + 1, run.benchmarks.end(), named)) {
      if (!each->valid()) {
        into.failures = each->failures;
        return;
      }
      for (Sample sample : each->samples) {
        sample.round = static_cast<std::uint32_t>(round);
        sample.turn = turn;
        sample.process = static_cast<std::uint32_t>(round);
        into.samples.push_back(std::move(sample));
      }
    }
    into.bytes_per_iteration = found->bytes_per_iteration;
    into.items_per_iteration = found->items_per_iteration;
    into.label = found->label;
    into.threads = found->threads;
    into.params = found->params;
    into.diagnostics = found->diagnostics;
    // A trend or states across the repetitions of this process (the last round's) are of
    // repetitions benchkit chose, short ones of a fresh process still warming up, which the
    // rounds pair: not the code's, and "make each repetition start from the same state" would
    // send the user after them (re2's BM_CompileToProg "fell 39%" over 20 repetitions of 1 ms).
    if (gives(turn_flags(index), "--benchmark_repetitions")) {
      std::erase_if(into.diagnostics, [](const Diagnostic& d) {
        return d.code == analysis::code::drift || d.code == analysis::code::multimodal;
      });
    }
  }

  const GbenchSideBySide& plan_;
  std::string folder_;
  OnceNotes notes_;
  const std::vector<int> cpus_;
  process::PlacementShuffle shuffle_;
  std::array<std::string, 2> executables_;
  // Per side, per benchmark: every round's result, samples numbered by round.
  std::array<std::vector<BenchmarkResult>, 2> merged_;
  std::array<Context, 2> contexts_;
  // Per side: how its binary reads the --benchmark_min_time benchkit gives (the two builds can
  // link different versions of Google Benchmark).
  std::array<MinTimeSpelling, 2> spelling_;
  // Per benchmark: how long an iteration took in the pilot (time_iterations), for those whose
  // code fixes their iterations, when it ran.
  std::vector<std::optional<double>> iteration_ns_;
  // Per side: how long a process took to start (check_listed); whether a round's benchmarks run
  // together (choose_processes).
  std::array<double, 2> start_s_ = {0.0, 0.0};
  bool together_ = false;
  // The first process of a round that failed (run_side).
  std::optional<model::Error> first_failure_;
};

}  // namespace

model::Result<SideBySideRuns> run_gbench_side_by_side(const GbenchSideBySide& plan,
                                                      const Undecided& undecided) {
  const RunScope scope("benchkit-gbench-side-by-side");
  if (!scope.folder()) return scope.folder().error();
  GbenchPairs pairs(plan, *scope.folder());
  if (auto failed = pairs.check_listed()) return *failed;
  if (auto failed = pairs.time_iterations()) return *failed;
  pairs.choose_processes();
  // The rounds of session/round_loop.hpp.
  RoundLoop loop{plan.benchmarks, plan.rounds, plan.max_rounds, plan.look_every};
  RoundSteps steps;
  steps.run_round = [&](std::size_t round, std::size_t planned,
                        const std::vector<std::size_t>& active) {
    return pairs.run_round(round, planned, active);
  };
  steps.failed = [&](std::size_t index) { return !pairs.valid(index); };
  steps.result = [&] { return pairs.result(); };
  auto runs = run_round_loop(loop, steps, undecided);
  if (!runs) return runs;
  if (auto failed = pairs.failed_throughout()) return *failed;
  return runs;
}

}  // namespace benchkit::session
