#include "session/plans.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace benchkit::session {

Outcome run(Plan plan, Observer& observer) {
  std::unique_ptr<Measurer> measurer =
      std::visit([](auto& what) { return make_measurer(std::move(what)); }, plan.what);
  const std::unique_ptr<Keeper> keeper = make_keeper();
  return run_pipeline(*measurer, plan.then, observer, *keeper);
}

bool is_program(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error) || ::access(path.c_str(), X_OK) != 0) {
    return false;
  }
  char first = 0;
  std::ifstream(path, std::ios::binary).get(first);
  return first != '{';
}

}  // namespace benchkit::session
