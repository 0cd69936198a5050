// libFuzzer entry for the history import file (formats/history_file), read as `benchkit history
// import` reads it: the file, then every run in it as a benchkit result, then the run's
// estimates. Any bytes give runs or an error naming the origin, never a crash, a hang or
// undefined behaviour; the runs of a file written back read again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/estimates.hpp"
#include "formats/history_file.hpp"
#include "formats/result_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace formats = benchkit::formats;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto documents = formats::from_history_file(text, "fuzz.history");
  if (!documents) {
    if (documents.error().message.rfind("fuzz.history", 0) != 0) std::abort();
    return 0;
  }
  std::vector<std::string> readable;
  for (const std::string& document : *documents) {
    auto parsed = formats::from_json(document, "fuzz.history: runs[i]");
    if (!parsed) continue;
    if (!parsed->estimates_present) benchkit::analysis::compute_estimates(parsed->run);
    readable.push_back(formats::to_json(parsed->run));
  }
  // What export writes import reads, run for run.
  const auto again = formats::from_history_file(formats::to_history_file(readable), "again");
  if (!again || again->size() != readable.size()) std::abort();
  return 0;
}
