// --record: the one place a bench binary and `benchkit run` store a run in the history.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "session/history.hpp"
#include "store/open_store.hpp"
#include "store/postgres_store.hpp"

namespace benchkit::cli {

int record_in_history(const std::string& store, const RunResult& run, bool quiet) {
  const auto recorded = session::record_run_at(store, run);
  if (!recorded) return report_error(recorded.error());
  if (!quiet) say_recorded(*recorded, store);
  return 0;
}

void say_recorded(const session::Recorded& recorded, const std::string& store) {
  const std::string location = store::redact_url(store::history_location(store));
  std::cout << fmt::format("{} run {} in {}\n", recorded.added ? "recorded" : "already recorded:",
                           recorded.id.substr(0, 12), location);
}

}  // namespace benchkit::cli
