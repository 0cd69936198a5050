// libFuzzer entry for the flag values benchkit reads itself rather than through CLI11: durations
// (--time-budget, --warm-up, --timeout, --worker-timeout: model/duration.hpp), parameter scans
// (--parameter-scan NAME MIN MAX with --parameter-step-size, whose numbers `benchkit run` reads
// with strtod, so "nan" and "inf" arrive too) and lists (--parameter-list, --ignore-failure).
// Any text gives a value or a refusal, never a crash, a hang or undefined behaviour.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/duration.hpp"
#include "process/plan.hpp"

namespace {

void duration(std::string_view text) {
  const auto ns = benchkit::model::parse_duration_ns(text);
  if (!ns) return;
  if (*ns < 0) std::abort();
  // What a driver passes on to a worker ("{}ns") reads back as the same duration, while the
  // count is exact in a double.
  if (*ns < (std::int64_t{1} << 53) &&
      benchkit::model::parse_duration_ns(std::to_string(*ns) + "ns") != ns) {
    std::abort();
  }
}

double number(const std::string& text) {
  return std::strtod(text.c_str(), nullptr);
}

// "MIN MAX STEP" (any three words; missing ones are empty, which strtod reads as 0).
void scan(std::string_view text) {
  std::string words[3];
  std::size_t word = 0;
  for (const char c : text) {
    if (c == ' ') {
      if (++word == 3) break;
    } else {
      words[word] += c;
    }
  }
  const auto parameter =
      benchkit::process::scan_parameter("n", number(words[0]), number(words[1]), number(words[2]));
  if (parameter && (parameter->values.empty() || parameter->values.size() > 10'000)) std::abort();
}

void list(std::string_view text) {
  const auto parameter = benchkit::process::list_parameter("n", std::string(text));
  if (!parameter) return;
  for (const std::string& value : parameter->values) {
    if (value.empty() || value.find(',') != std::string::npos) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0:
      duration(text);
      break;
    case 1:
      scan(text);
      break;
    default:
      list(text);
      break;
  }
  return 0;
}
