// What `benchkit run`, `benchkit noise -- CMD` and `ab --cmd` show while whole commands run: a
// progress line on a terminal (stderr), each failed benchmark on stderr as it fails, the
// checkpoints handed on.
#pragma once

#include <functional>
#include <string>

#include "benchkit/result.hpp"
#include "cli/terminal.hpp"
#include "session/commands.hpp"

namespace benchkit::cli {

class CommandProgress final : public session::CommandObserver {
 public:
  // `line`: the command's progress line, shared with its other observers.
  explicit CommandProgress(ProgressLine& line, std::function<void(const RunResult&)> save = {})
      : line_(line), save_(std::move(save)) {}

  void run_started(const std::string& name, std::size_t round, bool warmup,
                   double elapsed_seconds) override;
  void failed(const std::string& name, const std::string& message) override;
  void checkpoint(const RunResult& so_far) override {
    if (save_) save_(so_far);
  }

 private:
  ProgressLine& line_;
  std::function<void(const RunResult&)> save_;
};

}  // namespace benchkit::cli
