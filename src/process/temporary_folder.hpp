// Temporary folders for the files a run leaves behind (worker results, a bench binary's result):
// made under $TMPDIR (else /tmp), removed with everything in them when the run is over.
#pragma once

#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::process {

// Makes a new, private folder $TMPDIR/PREFIX-XXXXXX (/tmp when TMPDIR is unset or empty) and
// returns its path. The error names the folder it tried and the fix.
model::Result<std::string> make_temporary_folder(std::string_view prefix);

// Removes a folder and everything in it when it goes out of scope (errors are ignored: a
// temporary folder that cannot be removed must not fail the run that used it).
class FolderRemover {
 public:
  explicit FolderRemover(std::string path) : path_(std::move(path)) {}
  FolderRemover(const FolderRemover&) = delete;
  FolderRemover& operator=(const FolderRemover&) = delete;
  ~FolderRemover();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace benchkit::process
