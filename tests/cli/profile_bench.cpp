// A bench binary for the profiling tests (benchkit profile, under real valgrind and strace):
// each benchmark has one thing a profile must find, and a set-up that it must not.
#include <sys/syscall.h>
#include <unistd.h>
#include <benchkit/benchkit.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

[[gnu::noinline]] std::uint64_t mix(std::uint64_t seed, std::uint64_t steps) {
  std::uint64_t x = seed;
  for (std::uint64_t i = 0; i < steps; ++i) x = x * 6364136223846793005ULL + benchkit::black_box(i);
  return x;
}

// The set-up's own work: 100 times the routine's, never in a profile of the routine.
[[gnu::noinline]] std::uint64_t setup_only_work() {
  return mix(11, 1'000'000);
}

[[gnu::noinline]] std::uint64_t hot_function(std::uint64_t steps) {
  return mix(3, steps) ^ mix(5, steps / 2);
}
[[gnu::noinline]] std::uint64_t cold_function() {
  return benchkit::black_box(std::uint64_t{7}) * 3;
}

// The set-up's allocation (held through the run) and the routine's (64 KiB, freed each time).
[[gnu::noinline]] std::unique_ptr<std::vector<char>> setup_allocation() {
  return std::make_unique<std::vector<char>>(16 * 1024, 'a');
}
[[gnu::noinline]] std::size_t allocate_blocks() {
  auto blocks = std::make_unique<std::vector<char>>(64 * 1024, 'b');
  return benchkit::black_box(blocks->size());
}

}  // namespace

static void one_hot(benchkit::Bencher& b) {
  benchkit::do_not_optimize(setup_only_work());
  b.iter([] { return hot_function(10'000) + cold_function(); });
}
BENCHKIT(one_hot);

static void allocating(benchkit::Bencher& b) {
  auto held = setup_allocation();
  b.iter([&] { return allocate_blocks() + held->size(); });
}
BENCHKIT(allocating);

// An allocating function the compiler inlines into the routine's lambda: with this fixture's
// debug information (-g) a heap profile names it by its inlined frame, not the lambda.
[[gnu::always_inline]] inline std::size_t allocate_inlined() {
  auto blocks = std::make_unique<std::vector<char>>(48 * 1024, 'c');
  return benchkit::black_box(blocks->size());
}
static void allocating_inlined(benchkit::Bencher& b) {
  b.iter([] { return allocate_inlined(); });
}
BENCHKIT(allocating_inlined);

// One system call per iteration that the harness never makes (getppid is not cached by glibc).
static void syscalling(benchkit::Bencher& b) {
  b.iter([] { return ::syscall(SYS_getppid); });
}
BENCHKIT(syscalling);

// Says so on stderr and aborts in its routine: the profile's error must quote it.
static void crashing(benchkit::Bencher& b) {
  b.iter([] {
    std::fputs("profile_bench: crashing on purpose\n", stderr);
    std::abort();
  });
}
BENCHKIT(crashing);
