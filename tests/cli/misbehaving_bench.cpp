// A bench binary whose benchmarks misbehave on request, among healthy ones: the isolation tests
// run it as a real process. MISBEHAVE names the benchmarks that misbehave ("segfaults,hangs",
// or "all"); the others (and these, when not named) are small healthy loops.
#include <benchkit/benchkit.hpp>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

bool misbehaves(const std::string& name) {
  const char* chosen = std::getenv("MISBEHAVE");
  if (!chosen) return false;
  const std::string list = std::string(",") + chosen + ",";
  return list == ",all," || list.find("," + name + ",") != std::string::npos;
}

// A healthy loop that misbehaves, when asked, in its 50th iteration: mid-benchmark, after the
// set-up and some timed iterations.
template <class Misbehave>
void loop(benchkit::Bencher& b, const std::string& name, Misbehave misbehave) {
  const bool asked = misbehaves(name) && !name.ends_with("_ok");
  int calls = 0;
  b.iter([&] {
    if (asked && ++calls == 50) {
      std::fprintf(stderr, "%s: about to misbehave\n", name.c_str());
      misbehave();
    }
    return benchkit::black_box(calls) * 3;
  });
}

}  // namespace

static void first_ok(benchkit::Bencher& b) {
  loop(b, "first_ok", [] {});
}
BENCHKIT(first_ok);

static void segfaults(benchkit::Bencher& b) {
  loop(b, "segfaults", [] { std::raise(SIGSEGV); });
}
BENCHKIT(segfaults);

static void aborts(benchkit::Bencher& b) {
  loop(b, "aborts", [] { std::abort(); });
}
BENCHKIT(aborts);

static void hangs(benchkit::Bencher& b) {
  loop(b, "hangs", [] {
    for (;;) pause();
  });
}
BENCHKIT(hangs);

static void exits(benchkit::Bencher& b) {
  loop(b, "exits", [] { std::exit(3); });
}
BENCHKIT(exits);

static void throws(benchkit::Bencher& b) {
  loop(b, "throws", [] { throw std::runtime_error("asked to throw"); });
}
BENCHKIT(throws);

static void last_ok(benchkit::Bencher& b) {
  loop(b, "last_ok", [] {});
}
BENCHKIT(last_ok);
