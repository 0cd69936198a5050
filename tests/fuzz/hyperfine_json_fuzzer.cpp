// libFuzzer entry for the hyperfine JSON reader: any bytes give a run or an error, never a crash,
// a hang or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/hyperfine_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)benchkit::formats::from_hyperfine_json(text, "fuzz");
  return 0;
}
