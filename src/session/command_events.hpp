// The progress of whole commands run in rounds (session/commands.hpp), told to the run
// pipeline's observer.
#pragma once

#include <string>

#include "session/commands.hpp"
#include "session/pipeline.hpp"

namespace benchkit::session {

class CommandEvents final : public CommandObserver {
 public:
  explicit CommandEvents(Observer& observer) : observer_(observer) {}
  void run_started(const std::string& name, std::size_t round, bool warmup,
                   double elapsed_seconds) override {
    observer_.command_run_started(name, round, warmup, elapsed_seconds);
  }
  void failed(const std::string& name, const std::string& message) override {
    observer_.benchmark_failed(name, message);
  }

 private:
  Observer& observer_;
};

}  // namespace benchkit::session
