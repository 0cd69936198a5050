// Which history a command works on: --store, else $BENCHKIT_STORE, else .benchkit/history.db.
#pragma once

#include <memory>
#include <string>

#include "model/error.hpp"
#include "store/history_store.hpp"

namespace benchkit::store {

// `flag` (the --store value) when not empty, else $BENCHKIT_STORE when set and not empty, else
// history.db in benchkit_directory(). A postgresql:// or postgres:// URL names a PostgreSQL
// database, anything else an SQLite file.
std::string history_location(const std::string& flag);

// Opens the history at `location` (as history_location gives it), migrating its schema.
model::Result<std::unique_ptr<Store>> open_history(const std::string& location);

}  // namespace benchkit::store
