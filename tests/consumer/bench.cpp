#include <benchkit/benchkit.hpp>

#include <string>
#include <vector>

static void make_vector(benchkit::Bencher& b, std::size_t size) {
  b.iter([&] { return std::vector<int>(size, 1); });
}
BENCHKIT(make_vector).param("size", {16});

static void concatenate(benchkit::Bencher& b) {
  const std::string part(100, 'x');
  b.iter([&] { return part + part; });
}
BENCHKIT(concatenate);
