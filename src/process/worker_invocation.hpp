// How a driver starts a bench binary for a job of its own, as one typed value: the flags of the
// worker's command line. One field table (worker_invocation.cpp) gives both directions,
// to_argv() for the driver and parse() for the worker, so the two cannot drift apart.
//
// The roles, told apart by the fields that are set (role()):
//
//   stream    --worker-stream FD --worker-select 0,2,5: a worker of --processes N (or of a
//             counted run) measures the chosen benchmarks with these indices and writes frames
//             on descriptor FD (process/worker_protocol.hpp)
//   counted   a stream worker under valgrind's callgrind: --mode instructions --callgrind-dumps
//             PREFIX (session/counted.hpp)
//   turns     --turns-fd 3 --out FILE: one benchmark of a side-by-side comparison, sampling in
//             turns with the other build's worker (process/turns.hpp), its result in FILE
//   profiled  --profile-markers WHAT --profile-summary FILE: one benchmark's routine alone for
//             --profile-time, under a profiler that `benchkit profile` started
//   lister    --list: the names of the benchmarks, one a line
//   run       none of these: a whole run that writes its result to --out (another build counted
//             with --mode instructions), read by the bench binary as a user's command line
//
// The spellings are a protocol between builds: a kept baseline binary made by an older benchkit
// runs as a worker of a newer one, and a newer bench binary as a worker of an older `benchkit`.
// A flag is never renamed; parse() keeps accepting every flag a driver has sent
// (--worker-progress is read and ignored), and flags the user gives a side-by-side comparison
// after `--` (--warm-up 10ms, --param size=64) are read as the same fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/mode.hpp"

namespace benchkit::process {

struct WorkerInvocation {
  enum class Role { run, lister, profiled, stream, counted, turns };

  // Selection: the benchmarks the worker chooses, as the driver chose them.
  std::string filter;                               // --filter REGEX ("" all)
  bool exact = false;                               // --exact: --filter is a whole name
  std::optional<std::vector<std::size_t>> indices;  // --worker-select 0,2,5: of those chosen
  std::vector<std::string> skip_tags;               // --skip-tag TAG (repeatable)
  std::vector<std::string> params;                  // --param NAME=V1,V2 (repeatable)
  bool list = false;                                // --list: names only
  // --worker-shard 0,3,7: of the benchmarks the selection above chooses (after --skip-tag), the
  // positions of those of this run's shard (--shard K/N, session/shard.hpp); --worker-select
  // then numbers these.
  std::optional<std::vector<std::size_t>> shard_positions;

  // Budgets: nothing or 0 leaves the bench binary's default.
  std::optional<std::int64_t> time_budget_ns;  // --time-budget
  std::optional<std::int64_t> warm_up_ns;      // --warm-up
  std::optional<std::int64_t> timeout_ns;      // --timeout
  std::size_t sample_size = 0;                 // --sample-size
  double precision = 0.0;                      // --precision
  std::optional<std::uint64_t> seed;           // --seed
  std::size_t repetitions = 0;                 // --repetitions
  bool test = false;                           // --test: each benchmark once

  // Profiling (benchkit profile): the routine alone for this long, the markers around it
  // (clock/profile_markers.hpp) and the file its summary is written to.
  std::optional<std::int64_t> profile_time_ns;  // --profile-time
  std::string profile_markers;                  // --profile-markers
  std::string profile_summary;                  // --profile-summary

  // What is measured and recorded.
  bool no_counters = false;           // --no-counters
  bool no_machine_warnings = false;   // --no-machine-warnings
  std::vector<std::string> tags;      // --tag key=value (repeatable)
  std::optional<model::Mode> mode;    // --mode
  std::string callgrind_dumps;        // --callgrind-dumps PREFIX (with %p)
  std::vector<std::string> keep_env;  // --keep-env NAME (repeatable)

  // Where results go.
  int stream_fd = -1;                // --worker-stream FD
  int turns_fd = -1;                 // --turns-fd FD
  std::optional<std::size_t> index;  // --worker-index: which of --processes N
  std::string out;                   // --out FILE (json)
  bool quiet = false;                // --quiet
  std::size_t processes = 0;         // --processes (a turns worker: 1)

  Role role() const;

  // The flags, in the table's order; a field at its default is left out.
  std::vector<std::string> to_argv() const;
  // `executable` followed by to_argv().
  std::vector<std::string> command(const std::string& executable) const;

  // The flags of a worker's command line (without the program's name), `--flag VALUE` or
  // `--flag=VALUE`. A flag no driver gives, or a value that does not read as its field's type,
  // is a usage error naming the flag.
  static model::Result<WorkerInvocation> parse(std::span<const std::string> argv);

  // Whether a command line (without the program's name) is a driver's worker: it holds a flag
  // only a driver gives to one (--worker-stream, --turns-fd, --callgrind-dumps,
  // --profile-markers, --profile-summary).
  static bool is_worker(std::span<const std::string> argv);

  bool operator==(const WorkerInvocation&) const = default;
};

}  // namespace benchkit::process
