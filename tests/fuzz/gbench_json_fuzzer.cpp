// libFuzzer entry for the Google Benchmark JSON reader: any bytes give a run or an error, never a
// crash, a hang or undefined behaviour; what it reads writes back and reads again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/gbench_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto run = benchkit::formats::from_gbench_json(text, "fuzz");
  if (run) {
    const auto again =
        benchkit::formats::from_gbench_json(benchkit::formats::to_gbench_json(*run), "written");
    if (!again) __builtin_trap();  // a document benchkit wrote must read back
  }
  return 0;
}
