#include "store/open_store.hpp"

#include <cstdlib>

#include "store/baselines.hpp"
#include "store/postgres_store.hpp"
#include "store/sqlite_store.hpp"

namespace benchkit::store {

std::string history_location(const std::string& flag) {
  if (!flag.empty()) return flag;
  const char* configured = std::getenv("BENCHKIT_STORE");
  if (configured && *configured) return configured;
  return benchkit_directory() + "/history.db";
}

model::Result<std::unique_ptr<Store>> open_history(const std::string& location) {
  if (is_postgresql_url(location)) return open_postgres_store(location);
  return open_sqlite_store(location);
}

}  // namespace benchkit::store
