// libFuzzer entry for `--cmd` splitting (process/plan.hpp split_words): a command line becomes
// the words that are spawned, with no shell. Any text gives words or a refusal, never a crash, a
// hang or undefined behaviour, and the command as benchkit shows it (PlannedCommand::display)
// splits back into exactly the words it runs. (That unquoted shell syntax is refused rather than
// passed on is checked by tests/process/plan_test.cpp and the hostile-input tests.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "process/plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace process = benchkit::process;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto words = process::split_words(text);
  if (!words) return 0;
  if (words->empty()) std::abort();
  process::CommandSpec spec;
  spec.argv = *words;
  const auto planned = process::expand({spec}, {}, "");
  if (!planned || planned->size() != 1 || (*planned)[0].argv != *words) std::abort();
  const auto shown = process::split_words((*planned)[0].display);
  if (!shown || *shown != *words) std::abort();
  return 0;
}
