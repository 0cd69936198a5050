// Records runs into a history, one transaction each, for the concurrency and kill -9 tests:
//   history_writer LOCATION WRITER COUNT
// Run i of writer w is made_run({.commit = "w<w>-<i>", .seed = w * 100000 + i}); after each commit
// the run's identity is printed on its own line (flushed), so a test that kills this process
// knows which runs were committed before the kill. Exit status 2 when a run could not be stored.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "session/history.hpp"
#include "store/open_store.hpp"
#include "support/history_runs.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: history_writer LOCATION WRITER COUNT\n");
    return 2;
  }
  const std::string location = argv[1];
  const std::uint64_t writer = std::strtoull(argv[2], nullptr, 10);
  const std::uint64_t count = std::strtoull(argv[3], nullptr, 10);
  auto store = benchkit::store::open_history(location);
  if (!store) {
    std::fprintf(stderr, "history_writer: %s\n", store.error().message.c_str());
    return 2;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto run = benchkit::testing::made_run(
        {.commit = "w" + std::to_string(writer) + "-" + std::to_string(i),
         .benchmarks = 5,
         .samples = 30,
         .seed = writer * 100000 + i,
         .estimates = false});  // not needed here, and they would cost more than the writes
    const auto recorded = benchkit::session::record_run(**store, run);
    if (!recorded) {
      std::fprintf(stderr, "history_writer: %s\n", recorded.error().message.c_str());
      return 2;
    }
    std::printf("%s\n", recorded->id.c_str());
    std::fflush(stdout);
  }
  return 0;
}
