// A custom main, as a user writes one to do work of their own around the standard flags: it
// needs only <benchkit/bench.hpp> and links benchkit::benchkit instead of benchkit::main.
#include <benchkit/bench.hpp>

int main(int argc, char** argv) {
  return benchkit::run_main(argc, argv);
}
