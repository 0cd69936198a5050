// The one-line answers of `benchkit history` and of a run recorded by any command: what was
// recorded, listed, imported or removed, and where. Identities are shown by kShownDigits.
#pragma once

#include <cstddef>
#include <string>

namespace benchkit::report {

// "recorded run ID in LOCATION" ("already recorded: run ID in LOCATION" when the history held it).
std::string recorded_run(bool added, const std::string& id, const std::string& location);
// "recorded ID (FILE)" ("already recorded: ID (FILE)"), for history add.
std::string recorded_file(bool added, const std::string& id, const std::string& file);
// "N run(s) in LOCATION", history list's first line.
std::string runs_in(std::size_t runs, const std::string& location);
// "imported N new run(s) from FILE into LOCATION".
std::string imported_runs(std::size_t runs, const std::string& file, const std::string& location);
// "removed N run(s) from LOCATION".
std::string removed_runs(std::size_t runs, const std::string& location);

}  // namespace benchkit::report
