// An executor that runs nothing: it answers every request from a script, logs the requests
// (and the runs announced ahead, up to `most_ahead` at a time) and moves a fake clock by each
// run's wall time.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fakes/fake_clock.hpp"
#include "process/run.hpp"

namespace benchkit::testing {

class FakeExecutor final : public process::Executor {
 public:
  using Script = std::function<process::RunRecord(const process::RunRequest&)>;

  FakeExecutor(FakeClock& clock, Script script) : clock_(clock), script_(std::move(script)) {}

  // A run that succeeded after `ns` nanoseconds.
  static process::RunRecord ok_after(double ns) {
    process::RunRecord r;
    r.started = true;
    r.wall_ns = ns;
    r.resources.exit_code = 0;
    return r;
  }

  // A script under which each command succeeds after the milliseconds `milliseconds` gives for
  // its command line (its argv joined with spaces, as in `log`).
  static Script timed(std::map<std::string, double> milliseconds) {
    return [milliseconds](const process::RunRequest& request) {
      return ok_after(milliseconds.at(joined(request)) * 1e6);
    };
  }

  process::RunRecord run(const process::RunRequest& request) override {
    log.push_back(joined(request));
    // As the spawner: the announced runs before this one, not asked for, are dropped.
    bool was_announced = false;
    while (!ahead.empty() && !was_announced) {
      was_announced = ahead.front() == log.back();
      ahead.erase(ahead.begin());
    }
    if (!was_announced) ahead.clear();
    announced.push_back(was_announced ? "ahead" : "now");
    requests.push_back(request);
    process::RunRecord record = script_(request);
    clock_.advance(static_cast<std::int64_t>(record.wall_ns));
    // As the spawner: the runs announced after a failed one are skipped, and dropped.
    if (!record.ok()) ahead.clear();
    return record;
  }
  bool announce(const process::RunRequest& request) override {
    if (ahead.size() >= most_ahead) return false;
    ahead.push_back(joined(request));
    ahead_log.push_back(std::to_string(log.size()) + ":" + ahead.back());
    return true;
  }
  std::string peak_rss_method() const override { return "fake"; }

  static std::string joined(const process::RunRequest& request) {
    std::string line;
    for (const std::string& word : request.argv) line += (line.empty() ? "" : " ") + word;
    return line;
  }

  std::vector<std::string> log;  // every request's argv, joined with spaces, in order
  // Beside each: "ahead" when it had been announced (and was next in line), else "now".
  std::vector<std::string> announced;
  // Every announcement, as "N:argv" with N the number of runs asked for before it.
  std::vector<std::string> ahead_log;
  std::vector<std::string> ahead;  // announced and not yet asked for, in order
  std::size_t most_ahead = 3;
  std::vector<process::RunRequest> requests;

 private:
  FakeClock& clock_;
  Script script_;
};

}  // namespace benchkit::testing
