// An in-memory machine for tests that vary one file at a time: absolute path -> contents.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "system/machine_files.hpp"

namespace benchkit::system::testing {

class FakeMachineFiles final : public MachineFiles {
 public:
  FakeMachineFiles() = default;
  FakeMachineFiles(std::map<std::string, std::string> files) : files_(std::move(files)) {}

  FakeMachineFiles& set(const std::string& path, const std::string& contents) {
    files_[path] = contents;
    return *this;
  }

  std::optional<std::string> read(const std::string& path) const override {
    const auto it = files_.find(path);
    if (it == files_.end()) return std::nullopt;
    return it->second;
  }

  bool exists(const std::string& path) const override {
    if (files_.count(path)) return true;
    const std::string prefix = path + "/";
    for (const auto& [name, contents] : files_) {
      if (name.rfind(prefix, 0) == 0) return true;
    }
    return false;
  }

  std::vector<std::string> list(const std::string& folder) const override {
    const std::string prefix = folder + "/";
    std::set<std::string> names;
    for (const auto& [name, contents] : files_) {
      if (name.rfind(prefix, 0) != 0) continue;
      const std::string rest = name.substr(prefix.size());
      names.insert(rest.substr(0, rest.find('/')));
    }
    return {names.begin(), names.end()};
  }

 private:
  std::map<std::string, std::string> files_;
};

}  // namespace benchkit::system::testing
