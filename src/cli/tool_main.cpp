// The `benchkit` command's entry point.
#include "cli/commands.hpp"

int main(int argc, char** argv) {
  return benchkit::cli::run_tool(argc, argv);
}
