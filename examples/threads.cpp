// Threaded micro benchmarks (docs/micro-benchmarks.md, "Threads"): the same routine in 1, 2 and 4
// threads that start each timed batch together. The median is one thread's time per iteration
// while the others run; the throughput is of all of them together.
//
//   example_threads                              every benchmark, 1, 2 and 4 threads
//   example_threads --filter 'threads=[12]$'     the 1- and 2-thread runs only
//
// `shared_counter` is contended: every thread increments one atomic on one cache line, which
// travels between the cores at each increment, so a thread's increment slows down as threads
// are added. `own_counter` is not: each thread increments an atomic on a line of its own, so a
// thread's time per iteration stays as it is alone (while there are cores for the threads).
// `locked_sum` shares a mutex; its set-up (the values to add) is per thread, outside the timed
// region, each thread taking its own share by b.thread_index().
#include <benchkit/benchkit.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace {

// One cache line each, so that two counters never share a line (64 bytes on x86-64 and most
// ARM cores).
struct alignas(64) Counter {
  std::atomic<std::uint64_t> value{0};
};

Counter shared;
Counter own[64];  // one per thread; .threads below stays far under 64

void shared_counter(benchkit::Bencher& b) {
  b.throughput_items(1);
  b.iter([] { return shared.value.fetch_add(1, std::memory_order_relaxed); });
}
BENCHKIT(shared_counter).threads({1, 2, 4});

void own_counter(benchkit::Bencher& b) {
  Counter& mine = own[b.thread_index()];
  b.throughput_items(1);
  b.iter([&mine] { return mine.value.fetch_add(1, std::memory_order_relaxed); });
}
BENCHKIT(own_counter).threads({1, 2, 4});

std::mutex sum_mutex;
std::uint64_t sum = 0;

void locked_sum(benchkit::Bencher& b) {
  // Per-thread set-up: each thread adds its own values (index-dependent), made before timing.
  std::vector<std::uint64_t> values(1024);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = i * (b.thread_index() + 1);
  std::size_t next = 0;
  b.throughput_items(1);
  b.iter([&] {
    const std::lock_guard lock(sum_mutex);
    sum += values[next++ % values.size()];
    return sum;
  });
}
BENCHKIT(locked_sum).threads({1, 2, 4});

}  // namespace
