// benchkit::main: the `main` of a bench binary.
#include "benchkit/bench.hpp"

int main(int argc, char** argv) {
  return benchkit::run_main(argc, argv);
}
