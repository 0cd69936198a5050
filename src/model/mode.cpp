#include "model/mode.hpp"

namespace benchkit::model {

std::optional<Mode> parse_mode(std::string_view text) {
  if (text == "time") return Mode::time;
  if (text == "instructions") return Mode::instructions;
  if (text == "counters") return Mode::counters;
  return std::nullopt;
}

const char* to_string(Mode mode) {
  switch (mode) {
    case Mode::time:
      return "time";
    case Mode::instructions:
      return "instructions";
    case Mode::counters:
      return "counters";
  }
  return "time";
}

}  // namespace benchkit::model
