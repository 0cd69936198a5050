#include "report/history_lines.hpp"

#include <fmt/format.h>

#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

const char* runs_word(std::size_t runs) {
  return runs == 1 ? "run" : "runs";
}
const char* recorded_word(bool added) {
  return added ? "recorded" : "already recorded:";
}

}  // namespace

std::string recorded_run(bool added, const std::string& id, const std::string& location) {
  return fmt::format("{} run {} in {}\n", recorded_word(added), id.substr(0, kShownDigits),
                     location);
}

std::string recorded_file(bool added, const std::string& id, const std::string& file) {
  return fmt::format("{} {} ({})\n", recorded_word(added), id.substr(0, kShownDigits), file);
}

std::string runs_in(std::size_t runs, const std::string& location) {
  return fmt::format("{} {} in {}\n", runs, runs_word(runs), location);
}

std::string imported_runs(std::size_t runs, const std::string& file, const std::string& location) {
  return fmt::format("imported {} new {} from {} into {}\n", runs, runs_word(runs), file, location);
}

std::string removed_runs(std::size_t runs, const std::string& location) {
  return fmt::format("removed {} {} from {}\n", runs, runs_word(runs), location);
}

}  // namespace benchkit::report
