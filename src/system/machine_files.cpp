#include "system/machine_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace benchkit::system {

RootedMachineFiles::RootedMachineFiles(std::string root) : root_(std::move(root)) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
}

std::string RootedMachineFiles::full_path(const std::string& path) const {
  if (path.empty() || path.front() != '/') return root_ + "/" + path;
  return root_ + path;
}

std::optional<std::string> RootedMachineFiles::read(const std::string& path) const {
  std::error_code error;
  const std::string full = full_path(path);
  if (std::filesystem::is_directory(full, error)) return std::nullopt;
  // Files in /proc and /sys report a size of 0, so read the stream to its end instead.
  std::ifstream in(full, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

bool RootedMachineFiles::exists(const std::string& path) const {
  std::error_code error;
  return std::filesystem::exists(full_path(path), error);
}

std::vector<std::string> RootedMachineFiles::list(const std::string& folder) const {
  std::vector<std::string> names;
  std::error_code error;
  std::filesystem::directory_iterator entries(full_path(folder), error);
  if (error) return names;
  for (const auto& entry : entries) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace benchkit::system
