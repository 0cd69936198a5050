// The progress lines the commands draw on stderr while they measure (cli's ProgressLine shows
// them, cut to the terminal's width), and the lines saying what a revision's build did. Plain
// text: the caller's stream decides whether it reaches a terminal.
#pragma once

#include <cstddef>
#include <string>

namespace benchkit::report {

// "[4/10] NAME", after "[process 2/3] " when the suite runs in several processes (indices from
// 0, shown from 1).
std::string benchmark_progress(std::size_t process, std::size_t processes, std::size_t index,
                               std::size_t total, const std::string& name);

// "[round 3/10] [2/5] NAME", then " (NOTE)" when `note` is not empty (indices from 0).
std::string round_progress(std::size_t round, std::size_t planned, std::size_t index,
                           std::size_t count, const std::string& name,
                           const std::string& note = "");

// A command's run in rounds: "round 3 · NAME · 1.2 s" ("warm-up 1 · ..." for a warm-up run).
std::string command_run_progress(const std::string& name, std::size_t round, bool warmup,
                                 double elapsed_seconds);

// "benchkit: REVISION: built in 12.3 s (FOLDER)", or "... build kept from an earlier run,
// nothing rebuilt (FOLDER)" when `cached`.
std::string revision_built(const std::string& revision, bool cached, double seconds,
                           const std::string& folder);

// "benchkit: REVISION: counting N benchmark(s) of TARGET under valgrind (a fresh process each)".
std::string counting_started(const std::string& revision, const std::string& target,
                             std::size_t benchmarks);

}  // namespace benchkit::report
