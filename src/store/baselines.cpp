#include "store/baselines.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace benchkit::store {

namespace fs = std::filesystem;

std::string benchkit_directory() {
  const char* configured = std::getenv("BENCHKIT_DIR");
  if (configured && *configured) return configured;
  return ".benchkit";
}

namespace {
std::string baselines_folder() {
  return benchkit_directory() + "/baselines";
}
}  // namespace

model::Result<std::string> baseline_path(std::string_view name) {
  const std::string shown(name);
  if (name.empty()) {
    return model::Error{"a baseline name may not be empty; use a word such as main or before"};
  }
  if (name.size() > 200) return model::Error{"baseline name is longer than 200 characters"};
  if (name.find('/') != std::string_view::npos || name.find('\\') != std::string_view::npos ||
      name.find("..") != std::string_view::npos || name.find('\0') != std::string_view::npos ||
      name.front() == '.') {
    return model::Error{"baseline name \"" + shown +
                        "\" may not contain '/', '\\', '..' or start with '.': it names a file "
                        "inside " +
                        baselines_folder() + "; use --baseline-file for a result file elsewhere"};
  }
  return baselines_folder() + "/" + shown + ".json";
}

model::Result<Written> save_baseline(std::string_view name, std::string_view content) {
  const auto path = baseline_path(name);
  if (!path) return path.error();
  return write_file_atomically(*path, content);
}

std::vector<std::string> list_baselines() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(baselines_folder(), error)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

model::Result<std::string> read_baseline(std::string_view name) {
  const auto path = baseline_path(name);
  if (!path) return path.error();
  std::error_code error;
  if (!fs::exists(*path, error)) {
    const std::vector<std::string> existing = list_baselines();
    std::string known;
    for (const std::string& other : existing) known += (known.empty() ? "" : ", ") + other;
    return model::Error{
        "baseline \"" + std::string(name) + "\" does not exist in " + baselines_folder() + " (" +
        (known.empty() ? std::string("no baseline is saved there") : "saved: " + known) +
        "); create it first by running with --save-baseline " + std::string(name)};
  }
  return read_file(*path);
}

}  // namespace benchkit::store
