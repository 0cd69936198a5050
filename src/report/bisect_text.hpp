// What `benchkit bisect` says: a line per step as it is decided (stderr), and its answer
// (stdout). Commits are given as they are to be shown (vcs::short_commit).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"

namespace benchkit::report {

// One decided step: the commit tried, what it was found ("bad", "good", "skipped", "retry",
// "bad end"), the verdict it rests on with the benchmark and its ratio and interval, the rounds
// it took (as session::rounds_taken says them), the commit it was compared with, and its
// subject.
struct BisectStepText {
  std::string commit = {};
  std::string outcome = {};
  analysis::Verdict verdict = analysis::Verdict::inconclusive;
  std::string benchmark = {};
  double ratio = 1.0;
  double ratio_lower = 1.0;
  double ratio_upper = 1.0;
  std::string rounds = {};
  std::string reference = {};
  std::string subject = {};
  // A step that could not be judged (session::BisectStep::failure): why, instead of a verdict.
  std::string failure = {};
};

// "benchkit bisect: COMMIT OUTCOME: VERDICT (BENCHMARK 1.150x [1.140, 1.160], ROUNDS rounds,
// against REFERENCE) SUBJECT", without a newline; for a step that could not be judged
// "benchkit bisect: COMMIT skipped: FAILURE SUBJECT".
std::string bisect_step_line(const BisectStepText& step);

// The answer when the first bad commit was found: its commit and subject, how many commits lay
// between the ends, how many were tested, how many revisions were built, and the log; then the
// heading of the comparison that convicted it (which follows).
// `faster`: the commit sought made the benchmarks faster (bisect --faster), and is named so.
std::string bisect_found(const std::string& commit, const std::string& subject,
                         std::size_t commits_between, std::size_t commits_tested,
                         std::size_t builds, const std::string& log_path, bool faster = false);

// After the answer, when the whole range changed beyond the interval of the commit found
// (session::more_change_after): both changes, and the advice to bisect again from that commit.
std::string bisect_more_after(const std::string& commit, double range_ratio, double ratio,
                              double lower, double upper);

// The answer when skipped commits (inconclusive, or not built or measured) left it undecided:
// the commits (with their subjects) it may be, the log, and the advice to raise --rounds.
std::string bisect_undecided(const std::vector<std::pair<std::string, std::string>>& commits,
                             const std::string& log_path, bool faster = false);

}  // namespace benchkit::report
