// A bench binary with a registration mistake (a parameter without a name): registrations run
// before main(), and the mistake must reach the user as a usage error when the benchmarks are
// expanded, not as an abort before --help can print.
#include <benchkit/benchkit.hpp>

namespace {

void fine(benchkit::Bencher& b) {
  b.iter([] { return 1; });
}
BENCHKIT(fine);

void nameless(benchkit::Bencher& b, int n) {
  b.iter([n] { return n; });
}
BENCHKIT(nameless).param("", {0, 1});

}  // namespace
