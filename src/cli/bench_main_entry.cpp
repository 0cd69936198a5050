// benchkit::main: the `main` of a bench binary.
#include "benchkit/registry.hpp"

int main(int argc, char** argv) {
  return benchkit::run_main(argc, argv);
}
