#include "session/command_options.hpp"

#include <fmt/format.h>

#include "model/duration.hpp"
#include "session/history.hpp"

namespace benchkit::session {

analysis::CompareSettings comparison_settings(const ComparisonFlags& flags) {
  analysis::CompareSettings settings;
  settings.all_samples = flags.all_samples;
  settings.noise_threshold = flags.noise_threshold;
  settings.count_noise_threshold = flags.count_threshold;
  settings.mde = flags.mde;
  settings.power = flags.power;
  settings.adjustment = flags.adjustment == "bh"     ? analysis::Adjustment::benjamini_hochberg
                        : flags.adjustment == "none" ? analysis::Adjustment::none
                                                     : analysis::Adjustment::holm;
  return settings;
}

std::optional<model::Error> check_record_flags(bool record, const std::string& store) {
  if (!store.empty() && !record) {
    return usage_error("--store names the history that --record writes to: add --record");
  }
  if (record) {
    if (const auto opened = check_history(store); !opened) return opened.error();
  }
  return std::nullopt;
}

model::Error usage_error(std::string message) {
  return model::Error{std::move(message), model::ErrorKind::usage};
}

model::Result<std::int64_t> parse_budget(const std::string& text) {
  if (text.empty()) return std::int64_t{0};
  const auto ns = model::parse_duration_ns(text);
  if (!ns || *ns <= 0) {
    return usage_error(fmt::format(
        "--budget \"{}\" is not a positive duration: give the wall time the whole comparison may "
        "take, such as 30s, 2min or 500ms",
        text));
  }
  return *ns;
}

}  // namespace benchkit::session
