// The one mapping from an error's kind to the exit status, for the bench binary and the
// `benchkit` command alike (its own file: a bench binary links it without the subcommands).
#include <iostream>

#include "cli/commands.hpp"
#include "session/pipeline.hpp"

namespace benchkit::cli {

void say_error(const model::Error& error) {
  std::cerr << "error: " << error.message << "\n";
}

int report_error(const model::Error& error) {
  say_error(error);
  return session::exit_status_of(error.kind);
}

}  // namespace benchkit::cli
