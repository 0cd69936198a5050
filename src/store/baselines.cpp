#include "store/baselines.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

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

namespace {
std::string executable_path(const std::string& result_path) {
  return result_path.substr(0, result_path.size() - 5) + ".bin";  // NAME.json -> NAME.bin
}
}  // namespace

model::Result<Written> save_baseline(std::string_view name, std::string_view content) {
  const auto path = baseline_path(name);
  if (!path) return path.error();
  auto written = write_file_atomically(*path, content);
  if (written) {
    std::error_code ignored;
    fs::remove(executable_path(*path), ignored);
  }
  return written;
}

model::Result<Written> save_baseline_executable(std::string_view name,
                                                const std::string& executable) {
  const auto path = baseline_path(name);
  if (!path) return path.error();
  const auto bytes = read_file(executable);
  if (!bytes) return bytes.error();
  const std::string target = executable_path(*path);
  auto written = write_file_atomically(target, *bytes);
  if (!written) return written;
  std::error_code error;
  fs::permissions(target,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                      fs::perms::others_read | fs::perms::others_exec,
                  error);
  if (error) {
    return model::Error{fmt::format("cannot make {} executable: {}", target, error.message())};
  }
  return written;
}

std::optional<std::string> baseline_executable(std::string_view name) {
  const auto path = baseline_path(name);
  if (!path) return std::nullopt;
  const std::string candidate = executable_path(*path);
  std::error_code error;
  if (!fs::is_regular_file(candidate, error)) return std::nullopt;
  return candidate;
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
