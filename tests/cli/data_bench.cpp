// A bench binary for the data-file and --skip-tag tests: one benchmark reads the input named by
// $BENCHKIT_TEST_INPUT (checked against $BENCHKIT_TEST_INPUT_SHA256 and _BYTES), one is kept out
// of runs given --skip-tag ci, one always runs.
#include <benchkit/benchkit.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

static std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

static void read_input(benchkit::Bencher& b) {
  const std::string path = benchkit::data::input_file(
      environment("BENCHKIT_TEST_INPUT"),
      {.sha256 = environment("BENCHKIT_TEST_INPUT_SHA256"),
       .bytes = std::stoull("0" + environment("BENCHKIT_TEST_INPUT_BYTES")),
       .regenerate = "printf 'hello world\\n' > input.txt"});
  std::ifstream in(path, std::ios::binary);
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  b.iter([&] { return content.size(); });
}
BENCHKIT(read_input);

static void noisy_case(benchkit::Bencher& b) {
  b.iter([] { return 1; });
}
BENCHKIT(noisy_case)
    .skip_when("ci", "walltime varies 8% between CI runners; measurements in PR 214")
    .skip_when("slow", "too slow for a quick run");

static void steady(benchkit::Bencher& b) {
  b.iter([] { return 2; });
}
BENCHKIT(steady);
