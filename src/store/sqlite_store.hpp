// The history in one SQLite file (.benchkit/history.db by default): WAL mode, so that readers
// never wait for a writer and a writer killed mid-run leaves every committed run readable; a
// busy timeout, so that writers on one machine (parallel CI jobs) take turns instead of failing;
// foreign keys on, so that removing a run removes its summary rows.
#pragma once

#include <memory>
#include <string>

#include "model/error.hpp"
#include "store/history_store.hpp"

namespace benchkit::store {

// How long a writer waits for another writer's transaction before giving up. Recording a run of
// 1,000 benchmarks takes well under a second (bench/store); 30 s covers many queued writers.
inline constexpr int kSqliteBusyTimeoutMs = 30'000;

// Opens (creating it and its folder when absent) the history file at `path` and migrates it to
// kSchemaVersion. Errors (each naming the file and the fix, kind input, nothing written): not an
// SQLite file or damaged, an SQLite file of some other program, a schema newer than this
// benchkit, a folder that cannot be written.
model::Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path);

}  // namespace benchkit::store
