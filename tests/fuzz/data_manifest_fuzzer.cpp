// libFuzzer target for the data manifest reader (formats/data_manifest): any bytes must give a
// manifest or an error naming the origin, never a crash; a manifest read must survive being
// written and read again unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "formats/data_manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto manifest = benchkit::formats::manifest_from_json(text, "fuzz.json");
  if (!manifest) {
    if (manifest.error().message.rfind("fuzz.json: ", 0) != 0) std::abort();
    return 0;
  }
  const std::string written = benchkit::formats::manifest_to_json(*manifest);
  const auto again = benchkit::formats::manifest_from_json(written, "again.json");
  if (!again || benchkit::formats::manifest_to_json(*again) != written) std::abort();
  return 0;
}
