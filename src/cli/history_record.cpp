// "recorded run ID in LOCATION": what the command lines say once the pipeline recorded a run.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "session/history.hpp"
#include "store/open_store.hpp"
#include "store/postgres_store.hpp"

namespace benchkit::cli {

void say_recorded(const session::Recorded& recorded, const std::string& store) {
  const std::string location = store::redact_url(store::history_location(store));
  std::cout << fmt::format("{} run {} in {}\n", recorded.added ? "recorded" : "already recorded:",
                           recorded.id.substr(0, 12), location);
}

}  // namespace benchkit::cli
