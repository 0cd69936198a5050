#include "report/bisect_text.hpp"

#include <fmt/format.h>

namespace benchkit::report {

std::string bisect_step_line(const BisectStepText& step) {
  if (!step.failure.empty()) {
    return fmt::format("benchkit bisect: {} {}: {} {}", step.commit, step.outcome, step.failure,
                       step.subject);
  }
  return fmt::format(
      "benchkit bisect: {} {}: {} ({} {:.3f}x [{:.3f}, {:.3f}], {} rounds, against {}) {}",
      step.commit, step.outcome, analysis::to_string(step.verdict), step.benchmark, step.ratio,
      step.ratio_lower, step.ratio_upper, step.rounds, step.reference, step.subject);
}

std::string bisect_found(const std::string& commit, const std::string& subject,
                         std::size_t commits_between, std::size_t commits_tested,
                         std::size_t builds, const std::string& log_path, bool faster) {
  return fmt::format(
      "{}: {} {}\n{} commits between, {} tested besides the two ends, {} revisions "
      "built (or kept from an earlier run); every step is in {}\n\nthe comparison that {} "
      "it:\n",
      faster ? "first commit that made it faster" : "first bad commit", commit, subject,
      commits_between, commits_tested, builds, log_path, faster ? "found" : "convicted");
}

std::string bisect_more_after(const std::string& commit, double range_ratio, double ratio,
                              double lower, double upper) {
  const auto percent = [](double r) { return fmt::format("{:+.1f}%", (r - 1.0) * 100.0); };
  return fmt::format(
      "the whole range changed by {}, this commit by {} [{}, {}]: more of the change may lie "
      "after it; to find it, bisect again from it (GOOD {}, the same BAD and flags)\n",
      percent(range_ratio), percent(ratio), percent(lower), percent(upper), commit);
}

std::string bisect_undecided(const std::vector<std::pair<std::string, std::string>>& commits,
                             const std::string& log_path, bool faster) {
  std::string list;
  for (const auto& [commit, subject] : commits) list += fmt::format("\n  {} {}", commit, subject);
  return fmt::format(
      "the first {} commit could not be told apart: some commits were skipped, inconclusive or "
      "not built or measured; it is one of:{}\n(log of every step, with why each was skipped: "
      "{}; raise --rounds for those inconclusive)\n",
      faster ? "faster" : "bad", list, log_path);
}

}  // namespace benchkit::report
