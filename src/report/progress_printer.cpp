#include "report/progress_printer.hpp"

#include <fmt/format.h>

#include <utility>

#include "report/progress_text.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

ProgressPrinter::ProgressPrinter(ProgressSink& sink, ProgressOf command, bool quiet,
                                 Checkpoint checkpoint)
    : sink_(sink), command_(command), quiet_(quiet), checkpoint_(std::move(checkpoint)) {}

bool ProgressPrinter::shows_revisions() const {
  return command_ == ProgressOf::revisions || command_ == ProgressOf::revision_commands;
}

// The commands whose runs are whole commands in rounds.
bool ProgressPrinter::shows_commands() const {
  return command_ == ProgressOf::run || command_ == ProgressOf::noise || shows_revisions();
}

void ProgressPrinter::say(std::string_view text) {
  if (!quiet_) sink_.print(text);
}

void ProgressPrinter::started(std::size_t process, std::size_t processes, std::size_t index,
                              std::size_t total, const std::string& name) {
  if (command_ == ProgressOf::bench_binary) {
    sink_.show(benchmark_progress(process, processes, index, total, name));
  } else if (command_ == ProgressOf::run) {
    // `benchkit run` of a Google Benchmark binary: its processes, not its benchmarks.
    sink_.show(fmt::format("[process {}/{}] Google Benchmark suite", process + 1, processes));
  }
}

void ProgressPrinter::failed(const BenchmarkResult& failed) {
  if (command_ == ProgressOf::bench_binary) benchmark_failed(failed.name, failed.failures.front());
}

void ProgressPrinter::checkpoint(const RunResult& so_far) {
  if (checkpoint_) checkpoint_(so_far, sink_);
}

void ProgressPrinter::round_started(std::size_t round, std::size_t planned, std::size_t index,
                                    std::size_t count, const std::string& name, bool extra) {
  if (command_ == ProgressOf::bench_binary) {
    sink_.show(round_progress(round, planned, index, count, name,
                              extra ? "baseline and new in turns; more rounds: still inconclusive"
                                    : "baseline and new in turns"));
  } else if (command_ == ProgressOf::compare) {
    sink_.show(round_progress(round, planned, index, count, name));
  }
}

void ProgressPrinter::benchmark_failed(const std::string& name, const std::string& message) {
  if (command_ == ProgressOf::compare) return;
  sink_.clear();
  if (command_ == ProgressOf::bench_binary || command_ == ProgressOf::revisions) {
    sink_.error(fmt::format("{} failed: {}", name, message));
  } else {
    // A command's name and message are the user's words (or its output): shown, not obeyed.
    sink_.error(fmt::format("{}: {}", terminal_safe(name, false), terminal_safe(message, false)));
  }
}

void ProgressPrinter::measuring_ended() {
  sink_.clear();
}

void ProgressPrinter::command_run_started(const std::string& name, std::size_t round, bool warmup,
                                          double elapsed_seconds) {
  if (shows_commands()) sink_.show(command_run_progress(name, round, warmup, elapsed_seconds));
}

void ProgressPrinter::note(const std::string& text) {
  if (command_ == ProgressOf::run || command_ == ProgressOf::compare) say("note: " + text);
}

void ProgressPrinter::measuring_started(const std::string& what) {
  if (command_ == ProgressOf::noise) say("benchkit noise: " + what);
}

void ProgressPrinter::revision_step(const std::string& revision, const std::string& step) {
  if (shows_revisions()) say(fmt::format("benchkit: {}: {}", revision, step));
}

void ProgressPrinter::revision_built(const std::string& revision, bool cached, double seconds,
                                     const std::string& folder) {
  if (shows_revisions()) say(report::revision_built(revision, cached, seconds, folder));
}

void ProgressPrinter::pair_round_started(const std::string& target, std::size_t round,
                                         std::size_t planned, std::size_t index, std::size_t count,
                                         const std::string& name) {
  if (shows_revisions()) {
    sink_.show(
        round_progress(round, planned, index, count, target + " " + name, "both builds in turns"));
  }
}

void ProgressPrinter::counting_started(const std::string& revision, const std::string& target,
                                       std::size_t benchmarks) {
  if (shows_revisions()) say(report::counting_started(revision, target, benchmarks));
}

}  // namespace benchkit::report
