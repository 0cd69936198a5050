// What several commands' options share, as plain data: the comparison settings as they are given
// (the command line binds its flags to these fields) and the checks of --record and --store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/compare.hpp"
#include "model/error.hpp"

namespace benchkit::session {

// The options of every command that compares (compare, ab, bisect, run, history check and
// report, a bench binary's --baseline): each command keeps its own copy in its options, so no
// value is shared between commands or kept in a global.
struct ComparisonFlags {
  double noise_threshold = 0.02;                            // --noise-threshold (times)
  double count_threshold = analysis::kCountNoiseThreshold;  // --count-threshold (counts)
  std::string adjustment = "holm";                          // --adjust: holm, bh or none
  bool all_samples = false;                                 // --all-samples
  double mde = 0.0;    // --mde: the smallest change that matters (0.01 = 1%); 0: none
  double power = 0.8;  // --power: of the rounds planned for --mde, and of the detectable change
};

// The settings of analysis::compare those options give (an unknown adjustment is holm's).
analysis::CompareSettings comparison_settings(const ComparisonFlags& flags);

// --mde's CHANGE: "1%" or "0.01", a fraction strictly between 0 and 1; the error names the text
// and the forms it may take.
model::Result<double> parse_change(const std::string& text);
// An --mde not above --noise-threshold is refused: a change that small is called unchanged.
std::optional<model::Error> check_power(const ComparisonFlags& flags);

// --store names the history --record writes to: refused without --record; with it, a history
// that cannot be opened is found now, not after the run it would have kept.
std::optional<model::Error> check_record_flags(bool record, const std::string& store);

// A duration flag's value (`name`, e.g. "--worker-timeout") in nanoseconds into `target`; empty
// text leaves it as it is; a usage error for text that is not a positive duration.
std::optional<model::Error> duration_flag(const std::string& text, const char* name,
                                          std::int64_t& target);

// --budget DURATION of a side-by-side comparison (session/suite_budget.hpp): its nanoseconds, 0
// when `text` is empty (no budget); a usage error for text that is not a positive duration.
model::Result<std::int64_t> parse_budget(const std::string& text);

// An error of kind usage (exit status 2): a flag or a word the command cannot take.
model::Error usage_error(std::string message);

}  // namespace benchkit::session
