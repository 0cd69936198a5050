// Placeholder replaced by the bench-binary command line (in progress).
#include "benchkit/registry.hpp"
namespace benchkit {
int run_main(int, char**) { return 0; }
}
