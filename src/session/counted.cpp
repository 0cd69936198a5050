#include "session/counted.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "process/capture.hpp"
#include "process/worker_invocation.hpp"
#include "session/result_files.hpp"

extern char** environ;

namespace benchkit::session {

model::Result<std::string> find_valgrind() {
  const char* path = std::getenv("PATH");
  std::string folders = path && *path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= folders.size()) {
    const std::size_t end = std::min(folders.find(':', start), folders.size());
    const std::string folder = folders.substr(start, end - start);
    start = end + 1;
    if (folder.empty()) continue;
    const std::string candidate = folder + "/valgrind";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return model::Error{
      "--mode instructions runs the benchmarks under valgrind, which is not installed (no "
      "valgrind in PATH): install it (Debian: apt-get install valgrind; benchkit's "
      "scripts/install-deps does it), or measure time with --mode time",
      model::ErrorKind::usage};
}

std::vector<std::string> callgrind_command(const std::string& valgrind, const CountedFiles& files,
                                           bool trace_children) {
  return {valgrind, "--tool=callgrind",
          // Nothing is counted until the worker's region says so (clock/callgrind.hpp).
          "--instr-atstart=no", "--collect-atstart=no", "--cache-sim=yes", kInstructionCache,
          kDataCache, kLastLevelCache,
          // The system calls made inside a region: counted (sysCount), never timed.
          "--collect-systime=yes", "--callgrind-out-file=" + files.dump_prefix(),
          // valgrind's own messages (the LL warning, an unhandled instruction) go to a file, not
          // into the benchmark's stderr.
          "--log-file=" + files.log_pattern(),
          trace_children ? "--trace-children=yes" : "--trace-children=no"};
}

std::vector<std::string> counted_environment(const std::vector<std::string>& environment,
                                             const std::vector<std::string>& keep) {
  std::vector<std::string> kept;
  bool has_path = false;
  for (const std::string& variable : environment) {
    const std::string name = variable.substr(0, variable.find('='));
    const bool wanted = name == "PATH" || name == "HOME" || name == "TMPDIR" ||
                        name.starts_with("BENCHKIT_") ||
                        std::find(keep.begin(), keep.end(), name) != keep.end();
    if (!wanted) continue;
    has_path = has_path || name == "PATH";
    kept.push_back(variable);
  }
  if (!has_path) kept.push_back("PATH=/usr/bin:/bin");
  // The same language everywhere: a locale's tables change what text functions execute.
  kept.push_back("LC_ALL=C");
  std::sort(kept.begin(), kept.end());
  return kept;
}

std::vector<std::string> current_environment() {
  std::vector<std::string> variables;
  for (char** at = environ; at && *at; ++at) variables.emplace_back(*at);
  return variables;
}

std::string unhandled_instruction_message(const std::string& folder) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (!entry.path().filename().string().starts_with("valgrind.")) continue;
    std::ifstream file(entry.path());
    std::ostringstream text;
    text << file.rdbuf();
    const std::string log = text.str();
    const auto at = log.find("unhandled instruction bytes:");
    if (at == std::string::npos) continue;
    const auto line_start = log.rfind('\n', at);
    const auto line_end = log.find('\n', at);
    const std::string line =
        log.substr(line_start == std::string::npos ? 0 : line_start + 1,
                   line_end == std::string::npos ? std::string::npos : line_end - line_start - 1);
    return fmt::format(
        "valgrind cannot run an instruction of this binary ({}): its simulated CPU lacks that "
        "extension (AVX-512 and a few newer ones). Build the benchmarks for an older CPU "
        "(-march=x86-64-v3, or without -march=native) for --mode instructions, or measure time "
        "with --mode time",
        line.substr(line.find_first_not_of("=0123456789 ")));
  }
  return "";
}

void explain_crashes(RunResult& run, const std::string& folder) {
  std::string message;
  bool looked = false;
  for (BenchmarkResult& benchmark : run.benchmarks) {
    if (!benchmark.failure || benchmark.failure->cause != Failure::Cause::crashed) continue;
    if (!looked) message = unhandled_instruction_message(folder);
    looked = true;
    if (message.empty()) return;
    if (benchmark.failures.empty()) benchmark.failures.push_back(message);
    benchmark.failures.front() += "; " + message;
  }
}

namespace {

model::Result<RunResult> count_with(const std::string& binary, const std::vector<std::string>& argv,
                                    const std::string& out) {
  process::CaptureOptions options;
  options.out = process::Stream::discard;
  options.err = process::Stream::inherit;
  const auto ran = process::run_captured(argv, options);
  if (!ran) {
    return model::Error{fmt::format("{} could not be counted: {}", binary, ran.error().message),
                        model::ErrorKind::failed};
  }
  auto loaded = load_result_file(out);
  if (!loaded) {
    return model::Error{fmt::format("{} --mode instructions {} and wrote no result ({})", binary,
                                    ran->exit.describe(), loaded.error().message),
                        model::ErrorKind::failed};
  }
  return std::move(*loaded);
}

// The counting run of `run`: --mode instructions --quiet --out OUT, and its own flags.
process::WorkerInvocation counting(process::WorkerInvocation run, const std::string& out) {
  run.mode = model::Mode::instructions;
  run.quiet = true;
  run.out = out;
  return run;
}

}  // namespace

model::Result<RunResult> count_bench_binary(const std::string& binary,
                                            process::WorkerInvocation run, const std::string& out) {
  return count_with(binary, counting(std::move(run), out).command(binary), out);
}

model::Result<RunResult> count_bench_binary(const std::string& binary,
                                            const std::vector<std::string>& flags,
                                            const std::string& out) {
  std::vector<std::string> argv = counting({}, out).command(binary);
  argv.insert(argv.end(), flags.begin(), flags.end());
  return count_with(binary, argv, out);
}

}  // namespace benchkit::session
