#include <fmt/format.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "process/temporary_folder.hpp"

namespace benchkit::process {

model::Result<std::string> make_temporary_folder(std::string_view prefix) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string pattern =
      fmt::format("{}/{}-XXXXXX", tmp && *tmp ? std::string(tmp) : std::string("/tmp"), prefix);
  std::string folder = pattern;  // mkdtemp fills in the Xs, even when it fails
  if (!mkdtemp(folder.data())) {
    return model::Error{fmt::format(
        "cannot create a temporary folder {} ({}); set TMPDIR to a folder that can be written",
        pattern, std::strerror(errno))};
  }
  return folder;
}

FolderRemover::~FolderRemover() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace benchkit::process
