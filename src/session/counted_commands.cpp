#include "session/counted_commands.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/diagnostics.hpp"
#include "analysis/estimates.hpp"
#include "clock/callgrind.hpp"
#include "process/spawn.hpp"
#include "process/temporary_folder.hpp"
#include "session/counted.hpp"
#include "session/launcher.hpp"

namespace benchkit::session {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Runs argv with address randomisation off, `environment` as its whole environment, stdin from
// /dev/null and stdout discarded (the count is the measurement, not the output).
model::Result<process::Exit> run_fixed(const std::vector<std::string>& argv,
                                       const std::vector<std::string>& environment) {
  std::vector<char*> arguments;
  for (const std::string& word : argv) arguments.push_back(const_cast<char*>(word.c_str()));
  arguments.push_back(nullptr);
  std::vector<char*> variables;
  for (const std::string& variable : environment) {
    variables.push_back(const_cast<char*>(variable.c_str()));
  }
  variables.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    return model::Error{"cannot fork to run valgrind", model::ErrorKind::failed};
  }
  if (pid == 0) {
    const int null_in = ::open("/dev/null", O_RDONLY);
    const int null_out = ::open("/dev/null", O_WRONLY);
    if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
    if (null_out >= 0) ::dup2(null_out, STDOUT_FILENO);
    ::personality(ADDR_NO_RANDOMIZE);
    ::execve(arguments[0], arguments.data(), variables.data());
    const char message[] = "error: cannot execute valgrind\n";
    (void)!::write(STDERR_FILENO, message, sizeof message - 1);
    ::_exit(127);
  }
  return process::wait_for_exit(pid);
}

}  // namespace

CountedTotals sum_callgrind_dumps(const std::string& folder, const std::string& prefix) {
  CountedTotals totals;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (!entry.path().filename().string().starts_with(prefix)) continue;
    const auto events = clock::parse_callgrind_totals(read_text(entry.path()));
    if (!events) continue;
    const clock::CountedMetrics metrics = clock::counted_metrics(*events);
    totals.instructions += metrics.instructions;
    totals.l1_hits += metrics.l1_hits;
    totals.ll_hits += metrics.ll_hits;
    totals.ram_hits += metrics.ram_hits;
    totals.estimated_cycles += metrics.estimated_cycles;
    totals.system_calls += metrics.system_calls;
    ++totals.processes;
  }
  return totals;
}

model::Result<BenchmarkResult> count_command(const CountedCommandRequest& request) {
  if (request.argv.empty()) {
    return model::Error{"benchkit run --mode instructions needs a command after --",
                        model::ErrorKind::usage};
  }
  const auto valgrind = find_valgrind();
  if (!valgrind) return valgrind.error();
  const auto folder = process::make_temporary_folder("benchkit-counted-command");
  if (!folder) return folder.error();
  const process::FolderRemover remover(*folder);
  std::string line;
  for (const std::string& word : request.argv) line += (line.empty() ? "" : " ") + word;
  BenchmarkResult result;
  result.name = request.name.empty() ? line : request.name;
  result.kind = "command";
  result.command = line;
  result.metric = "instructions";
  const std::vector<std::string> environment =
      counted_environment(current_environment(), request.keep_env);
  for (std::size_t run = 0; run < std::max<std::size_t>(1, request.runs); ++run) {
    const CountedFiles files{fmt::format("{}/run{}", *folder, run)};
    std::filesystem::create_directories(files.folder);
    std::vector<std::string> argv = callgrind_command(*valgrind, files, true);
    // A whole command is counted from its first instruction: no region to wait for.
    for (std::string& option : argv) {
      if (option == "--instr-atstart=no") option = "--instr-atstart=yes";
      if (option == "--collect-atstart=no") option = "--collect-atstart=yes";
    }
    argv.insert(argv.end(), request.argv.begin(), request.argv.end());
    const auto exit = run_fixed(argv, environment);
    if (!exit) return exit.error();
    if (!exit->ok()) {
      std::string log;
      for (const auto& entry : std::filesystem::directory_iterator(files.folder)) {
        if (entry.path().filename().string().starts_with("valgrind.")) {
          log += read_text(entry.path());
        }
      }
      const std::string tail = stderr_tail(log);
      Failure failure;
      failure.cause = exit->signal != 0 ? Failure::Cause::crashed : Failure::Cause::exited;
      if (exit->signal != 0) failure.signal = exit->signal;
      if (exit->signal == 0) failure.exit_code = exit->exit_code;
      failure.stderr_tail = tail;
      result.failure = failure;
      result.failures.push_back(fmt::format("{} {} under valgrind (run {}){}{}", line,
                                            exit->describe(), run + 1,
                                            tail.empty() ? "" : "; valgrind's log ends: ", tail));
      return result;
    }
    const CountedTotals totals = sum_callgrind_dumps(files.folder, "callgrind.out.");
    if (totals.processes == 0) {
      return model::Error{
          fmt::format("valgrind ran {} but wrote no callgrind dump in {}", line, files.folder),
          model::ErrorKind::failed};
    }
    Sample sample;
    sample.iters = 1;
    sample.ns = totals.instructions;
    sample.counters["l1_hits"] = totals.l1_hits;
    sample.counters["ll_hits"] = totals.ll_hits;
    sample.counters["ram_hits"] = totals.ram_hits;
    sample.counters["estimated_cycles"] = totals.estimated_cycles;
    sample.counters["system_calls"] = totals.system_calls;
    sample.counters["processes"] = static_cast<double>(totals.processes);
    result.samples.push_back(std::move(sample));
  }
  analysis::compute_estimates(result);
  analysis::diagnose_counted(result);
  return result;
}

}  // namespace benchkit::session
