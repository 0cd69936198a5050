#include "report/run_summary.hpp"

#include <fmt/format.h>

#include "report/command_table.hpp"
#include "report/comparison.hpp"

namespace benchkit::report {

std::string commands_start_line(std::size_t benchmarks, bool shell_probe,
                                const std::string& order) {
  return fmt::format("benchkit run: {} benchmark{}{}, interleaved in rounds ({} order)\n",
                     benchmarks, benchmarks == 1 ? "" : "s",
                     shell_probe ? " and the shell's start-up" : "", order);
}

std::string counted_start_line(const std::vector<std::string>& argv, std::size_t runs) {
  return fmt::format(
      "benchkit run: counting {} under valgrind's callgrind, children traced, {} run{}\n",
      fmt::join(argv, " "), runs, runs == 1 ? "" : "s");
}

std::string bench_binary_start_line(const std::vector<std::string>& argv) {
  return fmt::format("benchkit run: {}\n", fmt::join(argv, " "));
}

std::string run_summary(const RunResult& run, const RunSummary& summary, Options options) {
  std::string text;
  if (summary.kind == RunKind::commands) {
    text += render_command_table(run, options);
    text += fmt::format("{} round{}: {}\n", summary.rounds, summary.rounds == 1 ? "" : "s",
                        summary.stop_reason);
  } else {
    text += make_reporter(Format::console, options)->render(Document{.results = &run});
    if (summary.kind == RunKind::gbench && summary.processes > 0) {
      text +=
          fmt::format("{} fresh process{} of {}{}", summary.processes,
                      summary.processes == 1 ? "" : "es", summary.program,
                      summary.interrupted ? " planned, the table holding those that finished" : "");
      if (summary.min_time_s) {
        text += fmt::format(
            ", each given --benchmark_min_time={:g} (Google Benchmark's 0.5 s a benchmark shared "
            "among them; give --benchmark_min_time after -- to choose)",
            *summary.min_time_s);
      }
      text += "\n";
    }
  }
  if (summary.against_reference) {
    text += fmt::format("\nagainst {} (paired rounds):\n", terminal_safe(summary.reference, false));
    text += render_comparison(*summary.against_reference, Format::console, options);
  }
  if (summary.against_baseline) {
    text += fmt::format("\nagainst baseline {}:\n", summary.baseline);
    text += render_comparison(*summary.against_baseline, Format::console, options);
  }
  return text;
}

RunFailures run_failures(const RunResult& run, RunKind kind, bool interrupted,
                         const std::string& export_json) {
  RunFailures failures;
  if (interrupted) {
    // A Google Benchmark binary's processes: those that finished (session::GbenchProcesses).
    failures.note = fmt::format("interrupted: the {} so far are in the table{}\n",
                                kind == RunKind::gbench ? "processes finished" : "runs",
                                export_json.empty() ? std::string() : " and in " + export_json);
    return failures;
  }
  std::size_t failed = 0;
  for (const BenchmarkResult& benchmark : run.benchmarks) {
    if (benchmark.valid()) continue;
    ++failed;
    if (kind == RunKind::gbench) {
      failures.errors.push_back(fmt::format("{}: {}", benchmark.name, benchmark.failures.front()));
    } else if (kind == RunKind::counted && benchmark.failure) {
      failures.errors.push_back(benchmark.failures.front());
    }
  }
  if (kind == RunKind::commands && failed > 0) {
    failures.note = fmt::format("{} benchmark{} failed\n", failed, failed == 1 ? "" : "s");
  }
  return failures;
}

}  // namespace benchkit::report
