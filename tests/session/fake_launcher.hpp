// A launcher whose workers follow a script: they start and finish benchmarks, crash, hang, exit
// or are interrupted on cue, without real processes (session/launcher.hpp).
#pragma once

#include <signal.h>

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "session/launcher.hpp"

namespace benchkit::session::testing {

// What the worker given benchmark `name` does with it.
enum class Act { finish, crash, hang, exit_early, interrupt, garble };

class FakeWorker final : public Worker {
 public:
  explicit FakeWorker(std::deque<WorkerEvent> events) : events_(std::move(events)) {}
  WorkerEvent next(std::optional<Deadline> deadline) override {
    if (events_.empty()) return ended(process::Exit{0, 0});
    WorkerEvent event = std::move(events_.front());
    events_.pop_front();
    // A hang: nothing more until the deadline, which kills it (none: it would wait for ever,
    // which the script turns into a clean end so that a test cannot hang).
    if (event.kind == WorkerEvent::Kind::ended && event.text == "hang") {
      WorkerEvent end = ended(process::Exit{-1, SIGKILL});
      end.end.timed_out = deadline.has_value();
      end.end.stderr_tail = "spinning";
      events_.clear();
      deadline_seen = deadline.has_value();
      return end;
    }
    return event;
  }
  static WorkerEvent ended(process::Exit exit) {
    WorkerEvent event;
    event.kind = WorkerEvent::Kind::ended;
    event.end.exit = exit;
    return event;
  }
  bool deadline_seen = false;

 private:
  std::deque<WorkerEvent> events_;
};

class FakeLauncher final : public Launcher {
 public:
  // `act(name)` says what happens to benchmark `name`; `names` are the run's benchmarks.
  FakeLauncher(std::vector<std::string> names, std::function<Act(const std::string&)> act)
      : names_(std::move(names)), act_(std::move(act)) {}

  model::Result<std::unique_ptr<Worker>> launch(
      const std::vector<std::size_t>& benchmarks) override {
    launches.push_back(benchmarks);
    if (refuse) return model::Error{"fork failed: Resource temporarily unavailable"};
    std::deque<WorkerEvent> events;
    for (const std::size_t index : benchmarks) {
      const std::string& name = names_[index];
      events.push_back(WorkerEvent{WorkerEvent::Kind::started, name, {}});
      const Act act = act_(name);
      if (act == Act::finish) {
        events.push_back(
            WorkerEvent{WorkerEvent::Kind::finished, payload ? payload(name) : name, {}});
        continue;
      }
      if (act == Act::garble) {
        events.push_back(WorkerEvent{WorkerEvent::Kind::finished, "garbled:" + name, {}});
        continue;
      }
      WorkerEvent end = FakeWorker::ended(process::Exit{0, 0});
      if (act == Act::crash) end.end.exit = process::Exit{-1, SIGSEGV};
      if (act == Act::exit_early) end.end.exit = process::Exit{3, 0};
      if (act == Act::interrupt) {
        end.end.exit = process::Exit{-1, SIGKILL};
        end.end.interrupted = true;
      }
      if (act == Act::hang) end.text = "hang";
      end.end.stderr_tail = "last words of " + name;
      events.push_back(end);
      break;  // the worker is gone
    }
    events.push_back(WorkerEvent{WorkerEvent::Kind::fact, "peak_rss_bytes=4096", {}});
    return std::unique_ptr<Worker>(std::make_unique<FakeWorker>(std::move(events)));
  }

  std::vector<std::vector<std::size_t>> launches;
  bool refuse = false;
  // The text of a 'finished' event for benchmark `name` (none: the name itself).
  std::function<std::string(const std::string& name)> payload;

 private:
  std::vector<std::string> names_;
  std::function<Act(const std::string&)> act_;
};

// A decoder for the fake's 'finished' texts: the text is the benchmark's name, made into a
// result with one sample; "garbled:..." cannot be read.
inline model::Result<std::vector<BenchmarkResult>> decode_fake(const std::string& text) {
  if (text.starts_with("garbled:")) return model::Error{"not a result"};
  BenchmarkResult result;
  result.name = text;
  result.samples.push_back(Sample{});
  return std::vector<BenchmarkResult>{result};
}

}  // namespace benchkit::session::testing
