// What `benchkit run` says of a run of whole commands, of one command counted under callgrind,
// or of a Google Benchmark binary: the line before it starts, the results with how they were
// measured and the comparisons (stdout), and what failed or stopped it (stderr).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "benchkit/result.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

// The kinds of run `benchkit run` makes; each shows its results its way.
enum class RunKind { commands, counted, gbench };

// "benchkit run: N benchmark(s)[ and the shell's start-up], interleaved in rounds (ORDER
// order)".
std::string commands_start_line(std::size_t benchmarks, bool shell_probe, const std::string& order);
// "benchkit run: counting ARGV under valgrind's callgrind, children traced, N run(s)".
std::string counted_start_line(const std::vector<std::string>& argv, std::size_t runs);
// "benchkit run: ARGV": a bench binary handed its flags, run in fresh worker processes.
std::string bench_binary_start_line(const std::vector<std::string>& argv);

// How a run was measured and what it is compared with, as plain values.
struct RunSummary {
  RunKind kind = RunKind::commands;
  std::size_t rounds = 0;                 // commands: the rounds run
  std::string stop_reason = {};           // commands: why the rounds stopped
  std::size_t processes = 0;              // gbench: the fresh processes
  std::string program = {};               // gbench: the binary
  std::optional<double> min_time_s = {};  // gbench: given to each process
  bool interrupted = false;  // gbench: Ctrl-C stopped the processes, those finished are shown
  const analysis::Comparison* against_reference = nullptr;  // commands: paired rounds
  std::string reference = {};                               // its name, as the user gave it
  const analysis::Comparison* against_baseline = nullptr;
  std::string baseline = {};
};

// The results (the commands' table and "N round(s): REASON"; else the console report, and for a
// Google Benchmark binary "N fresh process(es) of PROGRAM" with the --benchmark_min_time benchkit
// gave each, "planned" when interrupted), then the comparisons against the reference command
// ("against NAME (paired rounds):", the name made terminal-safe) and against the baseline ("against
// baseline NAME:").
std::string run_summary(const RunResult& run, const RunSummary& summary, Options options = {});

// What failed or stopped a run, for stderr: `errors` each said as an error (a Google Benchmark
// benchmark as "NAME: CAUSE", a counted command's failure as its cause; commands' failures were
// said as they happened), and `note`: "interrupted: the runs so far are in the table[ and in
// FILE]" (then no error), or "N benchmark(s) failed" for commands, or "".
struct RunFailures {
  std::vector<std::string> errors = {};
  std::string note = {};
};
RunFailures run_failures(const RunResult& run, RunKind kind, bool interrupted,
                         const std::string& export_json);

}  // namespace benchkit::report
