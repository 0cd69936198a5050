// What `benchkit run` and `benchkit noise -- CMD` show while whole commands run: a progress line
// on a terminal (stderr), each failed benchmark on stderr as it fails, the checkpoints handed on.
#pragma once

#include <functional>
#include <string>

#include "benchkit/result.hpp"
#include "session/commands.hpp"

namespace benchkit::cli {

class CommandProgress final : public session::CommandObserver {
 public:
  // `visible`: show the progress line (stderr is a terminal and the user did not ask for quiet).
  explicit CommandProgress(bool visible, std::function<void(const RunResult&)> save = {})
      : visible_(visible), save_(std::move(save)) {}

  void run_started(const std::string& name, std::size_t round, bool warmup,
                   double elapsed_seconds) override;
  void failed(const std::string& name, const std::string& message) override;
  void checkpoint(const RunResult& so_far) override {
    if (save_) save_(so_far);
  }
  // Removes the progress line, before the table is printed.
  void clear() const;

 private:
  bool visible_;
  std::function<void(const RunResult&)> save_;
};

}  // namespace benchkit::cli
