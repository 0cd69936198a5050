// Two processes taking turns sample by sample: the protocol between benchkit's side-by-side
// baseline comparison (the controller) and the bench binaries it runs (the workers).
//
// Each worker inherits one end of a Unix socket pair as file descriptor kTurnFd. Before every
// sample it sends 'R' (ready) and waits for one byte: 'G' to take the sample, anything else or end
// of file to stop sampling. The controller gives turns to two workers alternately, so one sleeps
// in a read while the other samples, and both see the machine in the same state.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "process/spawn.hpp"

namespace benchkit::process {

inline constexpr int kTurnFd = 3;

// Worker side: announces that it is ready and waits for the controller's answer. True: take one
// sample. False: stop (the controller said so, closed the socket, or is gone).
bool await_turn(int fd);

// The CPUs this process may run on, in increasing order.
std::vector<int> allowed_cpus();

// Controller side: one worker process.
class TurnTaker {
 public:
  // Starts argv[0] (a path) with stdin and stdout on /dev/null, the socket as kTurnFd, and
  // stderr inherited, or written to the file `stderr_path` (created or truncated) when that is
  // not empty; when `cpu` is set, the worker runs on that CPU only. The error names the program
  // when it cannot start.
  static model::Result<TurnTaker> spawn(const std::vector<std::string>& argv,
                                        std::optional<int> cpu = std::nullopt,
                                        const std::string& stderr_path = {});

  TurnTaker(TurnTaker&& other) noexcept;
  TurnTaker& operator=(TurnTaker&& other) = delete;
  TurnTaker(const TurnTaker&) = delete;
  TurnTaker& operator=(const TurnTaker&) = delete;
  // A worker still running is killed and reaped.
  ~TurnTaker();

  // How long wait_ready, give_turn and finish each wait for the worker (none: for ever). A
  // worker that does not answer in time is killed: the call returns as if it had ended, and
  // timed_out() says why.
  void set_timeout(std::optional<std::chrono::milliseconds> timeout) { timeout_ = timeout; }
  bool timed_out() const { return timed_out_; }
  // Set when a wait ended because this process was asked to stop (process/interrupt.hpp, once
  // its handler is installed): the worker was killed.
  bool interrupted() const { return interrupted_; }
  // The worker's process id (-1 once it was reaped).
  pid_t pid() const { return pid_; }

  // Waits until the worker asks for its first turn. False: it ended without asking (it ran
  // something that is not sampled in turns, or failed); finish() then says how it exited.
  bool wait_ready();
  // Lets the worker take one sample and waits until it asks again. False: it ended instead.
  bool give_turn();
  // Tells the worker to stop sampling and waits for it to exit.
  Exit finish();

 private:
  TurnTaker(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
  // The worker's next byte; '\0' when it closed the socket, or did not answer in time (it is
  // then killed).
  char receive();
  pid_t pid_ = -1;
  int fd_ = -1;
  std::optional<std::chrono::milliseconds> timeout_;
  bool timed_out_ = false;
  bool interrupted_ = false;
};

}  // namespace benchkit::process
