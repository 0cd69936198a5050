// What the command lines say once the pipeline kept a run: "baseline NAME saved to PATH" and
// "recorded run ID in LOCATION".
#include <iostream>

#include "cli/commands.hpp"
#include "report/baseline_lines.hpp"
#include "report/history_lines.hpp"
#include "session/history.hpp"
#include "session/pipeline.hpp"
#include "store/open_store.hpp"
#include "store/postgres_store.hpp"

namespace benchkit::cli {

void say_recorded(const session::Recorded& recorded, const std::string& store) {
  const std::string location = store::redact_url(store::history_location(store));
  std::cout << report::recorded_run(recorded.added, recorded.id, location);
}

void say_what_was_kept(const session::Outcome& outcome, bool quiet) {
  if (const auto& saved = outcome.saved) {
    if (!saved->executable_problem.empty()) {
      std::cerr << report::baseline_binary_not_kept(saved->name, saved->executable_problem);
    }
    if (!quiet) std::cout << report::baseline_saved(saved->name, saved->path, saved->executable);
  }
  if (quiet) return;
  for (const auto* recorded : {&outcome.recorded_baseline, &outcome.recorded}) {
    if (*recorded) say_recorded(**recorded, outcome.record_store);
  }
}

}  // namespace benchkit::cli
