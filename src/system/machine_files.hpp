// The files that describe a machine (/proc, /sys, a few markers in / and /run), behind a small
// interface so that every check can be tested against a fake tree instead of this machine.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace benchkit::system {

class MachineFiles {
 public:
  virtual ~MachineFiles() = default;
  // The contents of an absolute path such as "/proc/cpuinfo"; nullopt when it does not exist
  // or cannot be read (permissions, a sysfs attribute that fails to read). Never throws.
  virtual std::optional<std::string> read(const std::string& path) const = 0;
  // Whether the path exists (file or folder).
  virtual bool exists(const std::string& path) const = 0;
  // The names of a folder's entries, sorted; empty when the folder does not exist.
  virtual std::vector<std::string> list(const std::string& folder) const = 0;
};

// Reads the files under a root folder: "/" for this machine, or a tree such as
// tests/fixtures/system/amd-vm/ that holds proc/... and sys/... for tests.
class RootedMachineFiles final : public MachineFiles {
 public:
  explicit RootedMachineFiles(std::string root = "/");
  std::optional<std::string> read(const std::string& path) const override;
  bool exists(const std::string& path) const override;
  std::vector<std::string> list(const std::string& folder) const override;

 private:
  std::string full_path(const std::string& path) const;
  std::string root_;
};

}  // namespace benchkit::system
