// Containers: inputs are made outside the timed region with with_inputs, and every input and
// output is destroyed after timing stops.
#include <benchkit/benchkit.hpp>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

// Sorting mutates its input in place: bench_refs hands each iteration a fresh unsorted copy.
static void sort_ints(benchkit::Bencher& b, std::size_t size) {
  const std::vector<int> source = benchkit::data::random_ints(size, /*seed=*/0);
  b.throughput_items(size);
  b.with_inputs([&] { return source; }).bench_refs([](std::vector<int>& v) {
    std::sort(v.begin(), v.end());
  });
}
BENCHKIT(sort_ints).param("size", {1'000, 10'000});

// Building a map consumes the keys; the map (the output) is dropped after timing, so its
// deallocation does not count.
template <class Map>
static void build_map(benchkit::Bencher& b) {
  const std::vector<int> keys = benchkit::data::random_ints(10'000, /*seed=*/1);
  b.throughput_items(keys.size());
  b.with_inputs([&] { return keys; }).bench_values([](std::vector<int> input) {
    Map map;
    for (int key : input) map.emplace(key, key);
    return map;
  });
}
BENCHKIT_TEMPLATE(build_map).types<std::map<int, int>, std::unordered_map<int, int>>();

// Lookups only: the map is set-up, built once outside the closure.
static void lookup_unordered(benchkit::Bencher& b) {
  const std::vector<int> keys = benchkit::data::random_ints(10'000, /*seed=*/2);
  std::unordered_map<int, int> map;
  for (int key : keys) map.emplace(key, key);
  std::size_t next = 0;
  b.iter([&] {
    next = next + 1 == keys.size() ? 0 : next + 1;
    return map.find(keys[next])->second;
  });
}
BENCHKIT(lookup_unordered);
