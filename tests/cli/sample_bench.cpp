// A bench binary for the command-line tests: small benchmarks, one that can be made to fail.
#include <benchkit/benchkit.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <unistd.h>

static void add(benchkit::Bencher& b, int amount) {
  int total = 0;
  b.iter([&] { return total += benchkit::black_box(amount); });
}
BENCHKIT(add).param("amount", {1, 2});

static void copy_string(benchkit::Bencher& b) {
  // SAMPLE_BENCH_SLOW makes the copy sixteen times longer: a regression the tests can count on,
  // even when one run caught the machine slow throughout (the interval is then widened). The
  // sample_bench_slow build has it built in.
#ifdef SAMPLE_BENCH_SLOW_BUILD
  const bool slow = true;
#else
  const bool slow = std::getenv("SAMPLE_BENCH_SLOW") != nullptr;
#endif
  const std::string text(slow ? 16000 : 1000, 'x');
  b.throughput_bytes(text.size());
  b.iter([&] { return std::string(text); });
}
BENCHKIT(copy_string);

// Hangs for ever: in its set-up (SAMPLE_BENCH_HANG=setup) or in its second timed iteration
// (SAMPLE_BENCH_HANG=sample).
static void hang_if(const char* where) {
  const char* hang = std::getenv("SAMPLE_BENCH_HANG");
  if (hang && std::string(hang) == where) {
    for (;;) pause();
  }
}

static void may_fail(benchkit::Bencher& b) {
  if (std::getenv("SAMPLE_BENCH_FAIL")) throw std::runtime_error("asked to fail");
  if (std::getenv("SAMPLE_BENCH_CRASH")) std::abort();
  hang_if("setup");
  int calls = 0;
  b.iter([&] {
    if (++calls == 2) hang_if("sample");
    return calls;
  });
}
BENCHKIT(may_fail);
