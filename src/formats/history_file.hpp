// The portable history file of `benchkit history export` / `import`: moves a history between
// stores (SQLite to PostgreSQL and back) or machines. One JSON document:
//   {"schema": "benchkit/history", "version": 1, "runs": [<benchkit/result document>, ...]}
// Each run is a whole result document (docs/result-format.md), so a run keeps its identity: it
// is recorded from the same result as before.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/error.hpp"

namespace benchkit::formats {

inline constexpr const char* kHistorySchema = "benchkit/history";
inline constexpr int kHistoryVersion = 1;

// `documents`: benchkit/result JSON texts (as to_json writes them).
std::string to_history_file(const std::vector<std::string>& documents);

// The result documents of a history file, each as JSON text for from_json. The error names
// `origin` and what is wrong (not JSON, another schema, a newer version).
model::Result<std::vector<std::string>> from_history_file(std::string_view text,
                                                          const std::string& origin);

}  // namespace benchkit::formats
