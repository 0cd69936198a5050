// An executor that runs nothing: it answers every request from a script, logs the requests
// (and the hints of run_then) and moves a fake clock by each run's wall time.
#pragma once

#include <functional>
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

  process::RunRecord run(const process::RunRequest& request) override {
    log.push_back(joined(request));
    hints.emplace_back();
    requests.push_back(request);
    process::RunRecord record = script_(request);
    clock_.advance(static_cast<std::int64_t>(record.wall_ns));
    return record;
  }
  // Runs `request` as run() does and logs `next` as its hint.
  process::RunRecord run_then(const process::RunRequest& request,
                              const process::RunRequest& next) override {
    process::RunRecord record = run(request);
    hints.back() = joined(next);
    return record;
  }
  std::string peak_rss_method() const override { return "fake"; }

  static std::string joined(const process::RunRequest& request) {
    std::string line;
    for (const std::string& word : request.argv) line += (line.empty() ? "" : " ") + word;
    return line;
  }

  std::vector<std::string> log;    // every request's argv, joined with spaces, in order
  std::vector<std::string> hints;  // beside each: the run_then hint's argv, "" for run()
  std::vector<process::RunRequest> requests;

 private:
  FakeClock& clock_;
  Script script_;
};

}  // namespace benchkit::testing
