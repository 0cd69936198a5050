// The real launchers: a benchmark forked from this process, or a fresh process of a bench
// binary. Both workers speak the result stream of process/worker_protocol.hpp on a pipe, and
// their standard error passes through this process (forwarded as it comes, its last lines kept
// for the report of a benchmark that fails).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "process/worker_invocation.hpp"
#include "session/launcher.hpp"

namespace benchkit::session {

// Runs in the child: the benchmarks with these indices, their frames written to `stream_fd`.
using ChildBody = std::function<void(const std::vector<std::size_t>& benchmarks, int stream_fd)>;

// Each worker is a fork() of this process that runs `body` and exits: nothing is loaded or
// calibrated again, and every benchmark starts from this process's state, not from what the
// benchmarks before it left behind (allocator state, lazily built statics, a grown heap).
class ForkLauncher final : public Launcher {
 public:
  explicit ForkLauncher(ChildBody body) : body_(std::move(body)) {}
  model::Result<std::unique_ptr<Worker>> launch(
      const std::vector<std::size_t>& benchmarks) override;

 private:
  ChildBody body_;
};

// How a fresh worker process is started, beyond its command line.
struct ExecOptions {
  // The worker's whole environment, NAME=VALUE each; nothing: this process's environment.
  std::optional<std::vector<std::string>> environment;
  // Address-space layout randomisation off for the worker (personality ADDR_NO_RANDOMIZE, as
  // `setarch -R` does): the same addresses, stack and heap in every run, which counted runs
  // need (docs/instructions.md).
  bool fixed_addresses = false;
};

// Each worker is `program` followed by `invocation`'s flags, given the benchmarks' indices and
// the stream (--worker-select INDICES --worker-stream FD): `program` is a bench binary (the same
// build, so that the indices name the same benchmarks), or a program that runs one (valgrind
// and its options, then the bench binary); program[0] must be a path.
class ExecLauncher final : public Launcher {
 public:
  ExecLauncher(std::vector<std::string> program, process::WorkerInvocation invocation,
               ExecOptions options = {})
      : program_(std::move(program)),
        invocation_(std::move(invocation)),
        options_(std::move(options)) {}
  model::Result<std::unique_ptr<Worker>> launch(
      const std::vector<std::size_t>& benchmarks) override;

 private:
  std::vector<std::string> program_;
  process::WorkerInvocation invocation_;
  ExecOptions options_;
};

}  // namespace benchkit::session
