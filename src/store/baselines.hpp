// Named baselines: result files under .benchkit/baselines/ (or $BENCHKIT_DIR/baselines/).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/error.hpp"
#include "store/atomic_file.hpp"

namespace benchkit::store {

// $BENCHKIT_DIR when set and non-empty, else ".benchkit" (next to the working directory).
std::string benchkit_directory();

// The file of a baseline. A name must be non-empty, at most 200 characters, and may not
// contain a path separator, "..", a NUL or start with '.', so that it cannot escape the folder.
model::Result<std::string> baseline_path(std::string_view name);

// Writes `content` (a result document) as baseline `name`, atomically. An executable kept with
// an earlier baseline of that name is removed: it measured something else.
model::Result<Written> save_baseline(std::string_view name, std::string_view content);

// Keeps a copy of the bench binary that produced baseline `name` (NAME.bin beside NAME.json,
// written atomically, mode 0755), so that later comparisons can run it again side by side with
// the new build. Call after save_baseline.
model::Result<Written> save_baseline_executable(std::string_view name,
                                                const std::string& executable);

// The executable kept with baseline `name`, when there is one.
std::optional<std::string> baseline_executable(std::string_view name);

// The content of baseline `name`. A missing baseline is an error that names the folder, lists
// the baselines that exist and says how to create this one.
model::Result<std::string> read_baseline(std::string_view name);

// Names of the saved baselines, sorted.
std::vector<std::string> list_baselines();

}  // namespace benchkit::store
