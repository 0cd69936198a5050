#include "session/command_options.hpp"

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

}  // namespace benchkit::session
