#include "report/history_check_text.hpp"

#include <fmt/format.h>

namespace benchkit::report {
namespace {

std::string shown(const std::string& identity) {
  return identity.substr(0, kShownDigits);
}

std::string heading(const CheckReport& check) {
  const std::string group = check.group.empty()
                                ? ""
                                : fmt::format("group {}, {} shards, ", check.group,
                                              check.shards.empty() ? "no" : check.shards);
  return fmt::format(
      "run {} ({}commit {}, branch {}) against {} earlier run{} of machine {} on {}\n\n",
      shown(check.run), group, shown(check.commit), check.branch, check.history_runs,
      check.history_runs == 1 ? "" : "s", check.machine, check.base_branch);
}

std::string change_lines(const CheckReport& check) {
  if (check.changes.empty()) {
    return fmt::format("no change point in the last {} commits\n", check.last);
  }
  std::string text = fmt::format("change points in the last {} commits:\n", check.last);
  for (const analysis::RecentChange& change : check.changes) {
    const double ratio = change.before > 0 ? change.after / change.before - 1.0 : 0.0;
    text += fmt::format("  {}: {:+.1f}% ({} -> {}) in the commits after {} up to {} (p={:.2g})\n",
                        change.benchmark, ratio * 100.0, format_duration(change.before),
                        format_duration(change.after), shown(change.from_commit),
                        shown(change.to_commit), change.p_value);
  }
  return text;
}

}  // namespace

std::string check_report(const CheckReport& check, Format format) {
  const std::string table = make_reporter(format)->render(Document{.comparison = check.comparison});
  if (format == Format::json || format == Format::csv) return table;
  return heading(check) + table + "\n" + change_lines(check);
}

}  // namespace benchkit::report
