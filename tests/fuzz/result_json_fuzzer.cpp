// libFuzzer entry for the benchkit result JSON (formats/result_json) and the one reader of every
// result file (formats/result_file, which tells the three formats apart): any bytes give a run or
// an error naming the origin, never a crash, a hang or undefined behaviour. A run read writes
// back and reads again to the same document, and its estimates can be computed from whatever
// samples it holds (what every command does with a file that lacks them).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "analysis/estimates.hpp"
#include "formats/result_file.hpp"
#include "formats/result_json.hpp"

namespace {

bool names_origin(const benchkit::model::Error& error, std::string_view origin) {
  return error.message.rfind(origin, 0) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace formats = benchkit::formats;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  auto loaded = formats::read_result(text, "fuzz.json");
  if (!loaded) {
    if (!names_origin(loaded.error(), "fuzz.json")) std::abort();
  } else {
    benchkit::analysis::compute_estimates(loaded->run);
  }

  const auto parsed = formats::from_json(text, "fuzz.json");
  if (!parsed) {
    if (!names_origin(parsed.error(), "fuzz.json")) std::abort();
    return 0;
  }
  // What benchkit writes it reads back, and writing that again changes nothing.
  const std::string written = formats::to_json(parsed->run);
  const auto again = formats::from_json(written, "written.json");
  if (!again || formats::to_json(again->run) != written) std::abort();
  // Each benchmark alone, as a worker streams it.
  for (const auto& benchmark : parsed->run.benchmarks) {
    const std::string line = formats::benchmark_to_json(benchmark);
    const auto one = formats::benchmark_from_json(line, "line");
    if (!one || formats::benchmark_to_json(*one) != line) std::abort();
  }
  return 0;
}
