#include "session/command_options.hpp"

#include <fmt/format.h>

#include <stdexcept>

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

model::Result<double> parse_change(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  const auto refused = usage_error("\"" + text + "\" is not a change: give 1% or 0.01");
  double value = 0.0;
  try {
    std::size_t used = 0;
    value = std::stod(number, &used);
    if (used != number.size()) return refused;
  } catch (const std::exception&) {
    return refused;
  }
  if (percent) value /= 100.0;
  if (!(value > 0.0 && value < 1.0))
    return usage_error("\"" + text + "\" is not between 0 and 100%");
  return value;
}

std::optional<model::Error> check_power(const ComparisonFlags& flags) {
  if (flags.mde > 0.0 && flags.mde <= flags.noise_threshold) {
    return usage_error(fmt::format(
        "--mde {:g}% is not above --noise-threshold {:g}%: a change that small is called "
        "unchanged; give a larger --mde or a smaller --noise-threshold",
        flags.mde * 100.0, flags.noise_threshold * 100.0));
  }
  return std::nullopt;
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

std::optional<model::Error> duration_flag(const std::string& text, const char* name,
                                          std::int64_t& target) {
  if (text.empty()) return std::nullopt;
  const auto ns = model::parse_duration_ns(text);
  if (!ns || *ns <= 0) {
    return usage_error(fmt::format(
        "{} \"{}\" is not a positive duration; write e.g. 500ms, 2s or 100us", name, text));
  }
  target = *ns;
  return std::nullopt;
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
