// A bench binary with a scenario beside a micro benchmark, for the command-line tests.
// SCENARIO_BENCH_SLOW makes the checksum phase four times longer (a regression the tests can
// count on); SCENARIO_BENCH_BREAK loses an item, so the final check fails. Its exact count of
// drained items is made to disagree by SCENARIO_BENCH_UNEVEN (one less in the second
// repetition) and by SCENARIO_BENCH_ONCE=FILE (one less in every run that finds FILE, which the
// first run creates: the runs of later processes).
#include <benchkit/benchkit.hpp>

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

static std::uint64_t mix(std::uint64_t value) {
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdULL;
  return value ^ (value >> 33);
}

static void pipeline(benchkit::Scenario& s, std::int64_t items) {
  const auto count = static_cast<std::size_t>(items);
  std::vector<std::uint64_t> input(count);  // set-up: not timed
  for (std::size_t i = 0; i < count; ++i) input[i] = i;
  std::deque<std::uint64_t> queue;
  s.phase("fill", {.items = items, .bytes = items * 8}, [&] {
    for (std::uint64_t value : input) queue.push_back(value);
  });
  const int rounds = std::getenv("SCENARIO_BENCH_SLOW") ? 256 : 64;
  std::uint64_t checksum = 0;
  s.phase("checksum", {.items = items}, [&] {
    for (int round = 0; round < rounds; ++round) {
      for (std::uint64_t value : queue) checksum += mix(value + static_cast<std::uint64_t>(round));
    }
    return checksum;
  });
  if (std::getenv("SCENARIO_BENCH_BREAK")) queue.pop_back();
  std::vector<std::uint64_t> drained;
  drained.reserve(count);
  s.phase("drain", {.items = items}, [&] {
    while (!queue.empty()) {
      drained.push_back(queue.front());
      queue.pop_front();
    }
  });
  bool in_order = drained.size() == count;
  for (std::size_t i = 0; in_order && i < count; ++i) in_order = drained[i] == i;
  s.verify(in_order, "every item came back, in order");
  s.counter("rounds", rounds);
  s.phase_counter("checksum", "mixes", static_cast<double>(rounds) * static_cast<double>(items),
                  benchkit::counter::rate);
  std::uint64_t miscounted = 0;
  if (std::getenv("SCENARIO_BENCH_UNEVEN") && s.repetition() == 1) miscounted = 1;
  if (const char* once = std::getenv("SCENARIO_BENCH_ONCE")) {
    if (std::filesystem::exists(once)) {
      miscounted = 1;
    } else {
      std::ofstream(once) << "seen\n";
    }
  }
  s.exact_count("drained", drained.size() - miscounted, std::to_string(items) + " items");
}
BENCHKIT_SCENARIO(pipeline).param("items", {200'000});

static void mix_one(benchkit::Bencher& b) {
  std::uint64_t value = 1;
  b.iter([&] { return value = mix(value); });
}
BENCHKIT(mix_one);
