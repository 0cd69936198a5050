// The handshake between the `benchkit` command and a bench binary (docs/noise.md, "The
// handshake"). `./my_bench --benchkit-info` prints exactly one line and exits 0:
//
//   {"benchkit": "0.1.0", "protocol": 1, "turns": true}
//
// `benchkit` is the version of the library the binary was built with; `protocol` the version of
// the command line the `benchkit` command relies on when it drives the binary (--processes,
// --out, --quiet, --time-budget and the result file they write). It is raised only when that
// changes incompatibly. Any other program fails the handshake: it exits non-zero, prints
// something else, or does not answer in time. `turns` (optional, an addition within protocol 1):
// the binary can sample in turns with another (--turns-fd, process/turns.hpp), which
// side-by-side baseline comparisons need.
#pragma once

#include <string>

#include "model/error.hpp"

namespace benchkit::process {

inline constexpr int kBenchProtocol = 1;

// The line a bench binary prints for --benchkit-info, newline included.
std::string bench_info_line();

struct Handshake {
  bool benchkit = false;  // answered as a benchkit bench binary
  std::string version;    // its benchkit version
  int protocol = 0;
  bool turns = false;  // it can sample in turns (side-by-side comparisons)
  // When it did not answer as one: what it did instead, e.g. "exited with status 1".
  std::string problem;
};

// Whether the executable at `path` refers to Google Benchmark's library (its C++ names,
// "_ZN9benchmark", appear in the file whether the library is linked statically or shared), read
// without running it.
bool links_google_benchmark(const std::string& path);

// Runs `path --benchkit-info` (stdin from /dev/null, stderr discarded, killed after 10 s) and
// reads its answer. The error is only for a program that cannot be started at all.
//
// A file that links Google Benchmark is not run: a suite with its own main() ignores a flag it
// does not know and runs every benchmark it has (minutes of work, and whatever the suite does
// besides). It fails the handshake with a problem saying so; session/gbench_binary.hpp asks it
// Google Benchmark's own flags instead.
model::Result<Handshake> probe_bench_binary(const std::string& path);

}  // namespace benchkit::process
