// The one mapping from an error's kind to the exit status, for the bench binary and the
// `benchkit` command alike (its own file: a bench binary links it without the subcommands).
#include <iostream>

#include "cli/commands.hpp"

namespace benchkit::cli {

int report_error(const model::Error& error) {
  std::cerr << "error: " << error.message << "\n";
  switch (error.kind) {
    case model::ErrorKind::usage:
    case model::ErrorKind::input:
      return 2;
    case model::ErrorKind::failed:
      return 1;
    case model::ErrorKind::interrupted:
      return 130;
  }
  return 2;
}

}  // namespace benchkit::cli
