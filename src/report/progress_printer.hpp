// What each command shows of a run's progress (model/progress.hpp) while it measures: which
// events it draws on its progress line, which it says on a line of its own, and in which words.
// The commands show different subsets on purpose (a Google Benchmark binary's process where a
// bench binary shows a benchmark, `compare`'s round lines without a note, a command's failure in
// other words than a benchmark's), so the subset is chosen by the command (ProgressOf), and one
// printer holds every choice. It writes to a ProgressSink: the command line's terminal line, or a
// recording in the tests.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "benchkit/result.hpp"
#include "model/progress.hpp"

namespace benchkit::report {

// Where the progress goes: one line rewritten in place, and lines of their own.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // Replaces the progress line with `text`.
  virtual void show(std::string_view text) = 0;
  // Removes the progress line, if one is shown.
  virtual void clear() = 0;
  // `text` on a line of its own (the progress line removed first).
  virtual void print(std::string_view text) = 0;
  // "error: MESSAGE" on a line of its own (the progress line removed first).
  virtual void error(std::string_view message) = 0;
};

// What a command does with the run so far after each benchmark or round (writes its files);
// `sink` is where it may say a warning.
using Checkpoint = std::function<void(const RunResult& so_far, ProgressSink& sink)>;

// The command whose progress is shown.
enum class ProgressOf {
  bench_binary,       // a bench binary's suite, or its side-by-side rounds with a baseline
  run,                // benchkit run: whole commands in rounds, a Google Benchmark binary
  revisions,          // ab and bisect: builds, then the bench binaries of both in turns
  revision_commands,  // ab --cmd: builds, then a command of each build in rounds
  noise,              // benchkit noise: what it starts, whole commands in rounds
  compare,            // benchkit compare OLD NEW of two executables: rounds side by side
};

// Turns the events into text on `sink`: the progress line (benchmark, round, command run,
// process, pair of builds), failures as errors, notes and the revisions' steps on lines of their
// own (`quiet` leaves out the notes and the revisions' steps; the progress line's own visibility
// is the sink's). `checkpoint`, when given, receives the run so far.
class ProgressPrinter : public virtual model::Observer {
 public:
  ProgressPrinter(ProgressSink& sink, ProgressOf command, bool quiet, Checkpoint checkpoint = {});

  void started(std::size_t process, std::size_t processes, std::size_t index, std::size_t total,
               const std::string& name) override;
  void failed(const BenchmarkResult& failed) override;
  void checkpoint(const RunResult& so_far) override;
  void round_started(std::size_t round, std::size_t planned, std::size_t index, std::size_t count,
                     const std::string& name, bool extra) override;
  void benchmark_failed(const std::string& name, const std::string& message) override;
  void measuring_ended() override;
  void command_run_started(const std::string& name, std::size_t round, bool warmup,
                           double elapsed_seconds) override;
  void note(const std::string& text) override;
  void measuring_started(const std::string& what) override;
  void revision_step(const std::string& revision, const std::string& step) override;
  void revision_built(const std::string& revision, bool cached, double seconds,
                      const std::string& folder) override;
  void pair_round_started(const std::string& target, std::size_t round, std::size_t planned,
                          std::size_t index, std::size_t count, const std::string& name) override;
  void counting_started(const std::string& revision, const std::string& target,
                        std::size_t benchmarks) override;

 protected:
  // A line of its own, unless quiet.
  void say(std::string_view text);

 private:
  bool shows_revisions() const;
  bool shows_commands() const;

  ProgressSink& sink_;
  ProgressOf command_;
  bool quiet_;
  Checkpoint checkpoint_;
};

}  // namespace benchkit::report
